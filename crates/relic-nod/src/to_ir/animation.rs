//! NAD → common-model animation (spec §4.1).
//!
//! **Evaluation.** Within key k (`Frame_k ≤ f < Frame_k+1`) the parameter is
//! `s = (f − Frame_k) · FrameScale_k`, and with the default [`Polynomial::Ascending`] each
//! component is `Value + C·s + B·s² + A·s³`; before the first key the first value holds, from the
//! last key on the last value. 30 frames are one second.
//!
//! **Translation and scale tracks** become [`Interpolation::CubicSpline`] channels with one model key
//! per NAD key and no approximation: with `σ = (Frame_k+1 − Frame_k) · FrameScale_k` (1 in a
//! well-formed file) the segment is the Hermite cubic with values `Value_k`, `Value_k+1`, out-tangent
//! `30 · FrameScale_k · C` and in-tangent `30 · FrameScale_k · (C + 2Bσ + 3Aσ²)` (units per second).
//! The Hermite segment ends at `Value_k+1`; a file whose cubic misses the next key by a gap (the
//! corpus check "curves" reports it) differs from the model by at most that gap.
//!
//! **Rotation tracks** (Euler angles, [`crate::options::EulerOrder`], [`crate::options::AngleUnit`]) become linear (slerp)
//! quaternion channels sampled at the engine's 30 frames per second: a key at every NAD key and at
//! every whole frame between keys (constant segments need none). Between two samples the model
//! slerps while the engine follows the Euler cubic; the difference is bounded by
//! `Δt² · (|ω̇|/8 + |ω|²/16)` radians, with `Δt = 1/30 s`, `ω` the angular
//! velocity and `ω̇` the angular acceleration of the curve (from `|q̈| ≤ |ω̇|/2 + |ω|²/4` and the
//! chord error `Δt²/8 · |q̈|` of each sample interval, doubled for the angle). Measured (test
//! `rotation_sampling_error_stays_within_the_bound` of `crate::verify`, 16 points per frame): on `walk.nad` 0.04°,
//! 0.17° and 0.25° (an arm swinging 35° in 7 frames) against bounds of 0.11°, 0.45° and 0.61°;
//! on a stress clip turning 360° per second about X while the other angles swing ±40° twice a
//! second, 0.22° against 0.54°. Tracks whose segments all hold their value (no coefficients)
//! become [`Interpolation::Step`] channels instead, exactly.
//!
//! **Tags** become events named after the tag type (`Fire`, `Lwalk`, …, `tag_<n>` for unknown
//! types) with the type as parameter.
//!
//! Writing goes the other way (`crate::from_ir::animation`).

use relic_core::ReadError;
use relic_core::model::{Animation, Channel, ChannelValues, Clock, Event, Interpolation};

use super::NOD_FRAME;
use crate::decide::NadChoices;
use crate::file::{NadFile, NadKey, NadTrack, TRACK_ROTATION, TRACK_SCALE, TRACK_TRANSLATION, tag_name};
use crate::options::{FRAMES_PER_SECOND, Polynomial, seconds};
use crate::validate::{check_for_model, interior_frames};

/// Maps a NAD to an animation on a skeleton of `bones` bones.
pub(crate) fn animation_from_nad(
    nad: &NadFile,
    bones: usize,
    name: &str,
    choices: &NadChoices,
) -> Result<Animation, ReadError> {
    check_for_model(nad, bones)?;
    let poly = choices.polynomial.value;
    let mut channels = Vec::with_capacity(nad.tracks.len());
    for track in &nad.tracks {
        let bone = track.bone as usize;
        let channel = match (track.track_type, track.holds()) {
            (TRACK_TRANSLATION, true) => {
                step_channel(track, |v| ChannelValues::Translation(v.map(|v| NOD_FRAME.vector_to_ir(v)).collect()))
            }
            (TRACK_SCALE, true) => {
                step_channel(track, |v| ChannelValues::Scale(v.map(|v| NOD_FRAME.scale_to_ir(v)).collect()))
            }
            (TRACK_ROTATION, true) => step_channel(track, |v| {
                let unit = choices.angle_unit.to_radians();
                let order = choices.euler_order;
                ChannelValues::Rotation(
                    v.map(|e| {
                        let q = order.rotation(e.map(|a| f64::from(a) * unit));
                        NOD_FRAME.quat_to_ir([q.i, q.j, q.k, q.w].map(|c| c as f32))
                    })
                    .collect(),
                )
            }),
            (TRACK_TRANSLATION, false) => {
                cubic_channel(track, poly, |v| NOD_FRAME.vector_to_ir(v), ChannelValues::Translation)
            }
            (TRACK_SCALE, false) => cubic_channel(track, poly, |v| NOD_FRAME.scale_to_ir(v), ChannelValues::Scale),
            _ => rotation_channel(track, choices),
        };
        channels.push(Channel { bone, ..channel });
    }
    let events = nad
        .tags
        .iter()
        .map(|t| Event {
            time: seconds(f64::from(t.frame)),
            name: tag_name(t.tag_type),
            bone: None,
            position: None,
            parameter: Some(t.tag_type),
        })
        .collect();
    Ok(Animation {
        name: name.to_string(),
        duration: seconds(f64::from(nad.duration)),
        looping: false,
        blend_in: 0.0,
        channels,
        morph_channels: Vec::new(),
        events,
        bounds: None,
        key_bounds: Vec::new(),
    })
}

fn step_channel(track: &NadTrack, values: impl FnOnce(&mut dyn Iterator<Item = [f32; 3]>) -> ChannelValues) -> Channel {
    let times = track.keys.iter().map(|k| seconds(f64::from(k.frame))).collect();
    let values = values(&mut track.keys.iter().map(|k| k.value));
    Channel { bone: 0, clock: Clock::Animation, interpolation: Interpolation::Step, times, values }
}

fn cubic_channel(
    track: &NadTrack,
    poly: Polynomial,
    convert: impl Fn([f32; 3]) -> [f32; 3],
    wrap: fn(Vec<[f32; 3]>) -> ChannelValues,
) -> Channel {
    let n = track.keys.len();
    let mut times = Vec::with_capacity(n);
    let mut values = Vec::with_capacity(3 * n);
    let mut in_tangent = [0.0f32; 3];
    let fps = f64::from(FRAMES_PER_SECOND);
    for (k, key) in track.keys.iter().enumerate() {
        times.push(seconds(f64::from(key.frame)));
        let out_tangent = match track.keys.get(k + 1) {
            Some(next) => {
                let s = key.sigma(next);
                let scale = fps * f64::from(key.frame_scale);
                let [c1, c2, c3] = key.coefficients(poly);
                let out = c1.map(|c| (scale * f64::from(c)) as f32);
                let into_next: [f32; 3] = std::array::from_fn(|i| {
                    // i < 3 (array::from_fn over three components): the default is never taken.
                    let at = |c: [f32; 3]| f64::from(c.get(i).copied().unwrap_or(0.0));
                    (scale * (at(c1) + 2.0 * s * at(c2) + 3.0 * s * s * at(c3))) as f32
                });
                values.push(convert(in_tangent));
                in_tangent = into_next;
                out
            }
            None => {
                values.push(convert(in_tangent));
                [0.0; 3]
            }
        };
        values.push(convert(key.value));
        values.push(convert(out_tangent));
    }
    Channel { bone: 0, clock: Clock::Animation, interpolation: Interpolation::CubicSpline, times, values: wrap(values) }
}

pub(crate) fn rotation_channel(track: &NadTrack, choices: &NadChoices) -> Channel {
    let (order, unit, poly) = (choices.euler_order, choices.angle_unit.to_radians(), choices.polynomial.value);
    // Every key, and every whole frame inside a segment that moves; generated, not collected, so
    // the only allocations are the two exact-size outputs (the sampling budget bounds their size).
    let interior = |k: usize, key: &NadKey| match track.keys.get(k + 1) {
        Some(next) if !key.holds_until(next) => interior_frames(key.frame, next.frame),
        _ => 0,
    };
    let total: u64 = track.keys.iter().enumerate().map(|(k, key)| 1 + interior(k, key)).sum();
    let frames = track.keys.iter().enumerate().flat_map(|(k, key)| {
        let first = f64::from(key.frame).floor() + 1.0;
        std::iter::once(f64::from(key.frame)).chain((0..interior(k, key)).map(move |i| first + i as f64))
    });
    // A capacity hint only (the sample count is bounded by the budget checked on reading).
    let capacity = usize::try_from(total).unwrap_or(0);
    let mut times: Vec<f32> = Vec::with_capacity(capacity);
    let mut values: Vec<[f32; 4]> = Vec::with_capacity(capacity);
    let mut previous: Option<[f32; 4]> = None;
    for f in frames {
        let t = seconds(f);
        if times.last().is_some_and(|&last| t <= last) {
            continue; // Two frames closer than f32 seconds can tell apart.
        }
        let angles = track.eval(f, poly).map(|a| a * unit);
        let q = order.rotation(angles);
        let q = [q.i, q.j, q.k, q.w].map(|c| c as f32);
        let mut q = NOD_FRAME.quat_to_ir(q);
        if let Some(p) = previous
            && p.iter().zip(&q).map(|(a, b)| a * b).sum::<f32>() < 0.0
        {
            q = q.map(|c| -c);
        }
        previous = Some(q);
        times.push(t);
        values.push(q);
    }
    Channel {
        bone: 0,
        clock: Clock::Animation,
        interpolation: Interpolation::Linear,
        times,
        values: ChannelValues::Rotation(values),
    }
}
