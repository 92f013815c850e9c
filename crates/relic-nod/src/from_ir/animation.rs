//! Common-model animation → NAD (spec §4.1): cubic translation/scale channels exactly (to
//! rounding), linear ones as `C = next − value`, step ones as constant segments; rotation channels
//! are resampled at 30 frames per second into Euler keys with linear segments (reported with the
//! measured error). The writer never makes more keys than the reader's sampling budget allows.

use nalgebra::{Quaternion, UnitQuaternion};
use relic_core::model::{Animation, Channel, ChannelValues, Clock, Interpolation};
use relic_core::sample::{Sample, find_segment, sample_rotation};
use relic_core::{Converted, Loss};

use super::skeleton::BoneMap;
use crate::decide::NadChoices;
use crate::file::{NadFile, NadKey, NadTag, NadTrack, TRACK_ROTATION, TRACK_SCALE, TRACK_TRANSLATION, tag_type};
use crate::options::{Choice, Decided, FRAMES_PER_SECOND, NAD_VERSION, NadOptions, Polynomial, frame_of, seconds};
use crate::to_ir::NOD_FRAME;
use crate::to_ir::animation::rotation_channel;
use crate::validate::{MAX_SAMPLES_FIXED, MAX_SAMPLES_PER_KEY};

/// Builds a NAD from one animation of the model, on the NOD skeleton `map` describes.
pub(crate) fn nad_from_animation(animation: &Animation, map: &BoneMap, options: &NadOptions) -> Converted<NadFile> {
    let poly = match options.polynomial {
        Choice::Fixed(p) => p,
        Choice::Auto => Polynomial::default(),
    };
    let choices = NadChoices {
        polynomial: Decided::fixed(poly, "writer"),
        euler_order: options.euler_order,
        angle_unit: options.angle_unit,
    };
    let element = format!("animations {:?}", animation.name);
    let mut losses = Vec::new();
    let mut tracks = Vec::with_capacity(animation.channels.len());
    let mut rotation_worst = 0.0f64;
    for (c, ch) in animation.channels.iter().enumerate() {
        let Some(bone) = map.nod(ch.bone) else {
            losses.push(Loss::new(
                format!("{element}.channels[{c}]"),
                format!("bone {} is not in the NOD: channel dropped", ch.bone),
            ));
            continue;
        };
        if let Clock::Global(g) = ch.clock {
            losses.push(Loss::new(
                format!("{element}.channels[{c}]"),
                format!("runs on global sequence {g}; a NAD has one clock: written on the clip's"),
            ));
        }
        let (track_type, keys) = match &ch.values {
            ChannelValues::Translation(v) => {
                (TRACK_TRANSLATION, vector_keys(ch, v, poly, |x| NOD_FRAME.vector_from_ir(x)))
            }
            ChannelValues::Scale(v) => (TRACK_SCALE, vector_keys(ch, v, poly, |x| NOD_FRAME.scale_from_ir(x))),
            ChannelValues::Rotation(v) => (TRACK_ROTATION, rotation_keys(ch, v, &choices)),
        };
        let track = NadTrack { bone: u32::from(bone), track_type, keys };
        if track_type == TRACK_ROTATION && !track.holds() {
            // Measure what the round trip through Euler keys costs against the model's channel
            // (a held track is read back as the same step keys: nothing to measure, and its
            // segments may span any time).
            let back = rotation_channel(&track, &choices);
            rotation_worst = rotation_worst.max(channel_gap(ch, &back));
        }
        tracks.push(track);
    }
    if rotation_worst.to_degrees() > 1e-3 {
        losses.push(Loss::new(
            &element,
            format!(
                "rotations resampled at 30 frames per second into Euler keys: largest deviation {:.4}°",
                rotation_worst.to_degrees()
            ),
        ));
    }
    if animation.channels.iter().any(|c| matches!(c.values, ChannelValues::Scale(_))) {
        losses.push(Loss::new(&element, "scale tracks are written, but the engine does not play them (spec §4)"));
    }
    let mut tags = Vec::with_capacity(animation.events.len());
    for (e, event) in animation.events.iter().enumerate() {
        match tag_type(&event.name) {
            Some(tag_type) => tags.push(NadTag { frame: frame_of(event.time), tag_type }),
            None => losses.push(Loss::new(
                format!("{element}.events[{e}] {:?}", event.name),
                "not a NAD tag name (Lwalk, Fire, Strike, …): dropped",
            )),
        }
    }
    if animation.looping {
        losses.push(Loss::new(&element, "looping is not stored in a NAD (the .nms motion set decides)"));
    }
    if !animation.morph_channels.is_empty() {
        losses.push(Loss::new(&element, "morph-target channels dropped (a NAD animates bones only)"));
    }
    let nad = NadFile { version: NAD_VERSION, flags: 0, duration: frame_of(animation.duration), tracks, tags };
    Converted { value: nad, losses }
}

/// Largest angle between a rotation channel and its round trip, at the round trip's sample times
/// and halfway between them.
fn channel_gap(original: &Channel, back: &Channel) -> f64 {
    let mut worst = 0.0f64;
    for pair in back.times.windows(2) {
        let [a, b] = pair else { continue };
        for t in [*a, 0.5 * (a + b), *b] {
            if let (Some(Sample::Rotation(x)), Some(Sample::Rotation(y))) = (original.sample(t), back.sample(t)) {
                worst = worst.max(rotation_angle(x, y));
            }
        }
    }
    worst
}

/// The frames of key times as a writer stores them, each with the index of its key, keeping only
/// frames that come strictly after the previous one (two times closer than a frame's f32 precision
/// cannot both be keys).
fn increasing_frames(times: impl IntoIterator<Item = f64>) -> Vec<(usize, f32)> {
    let mut out: Vec<(usize, f32)> = Vec::new();
    for (k, frame) in times.into_iter().enumerate() {
        let f = frame as f32;
        // As the reader requires: later as a frame and as seconds, with a finite frame scale.
        let after =
            |last: f32| f > last && seconds(f64::from(f)) > seconds(f64::from(last)) && (1.0 / (f - last)).is_finite();
        if out.last().is_none_or(|&(_, last)| after(last)) {
            out.push((k, f));
        }
    }
    out
}

/// FrameScale of key `k` among `frames`: `1 / (next − frame)`, +∞ on the last.
fn frame_scale(frames: &[(usize, f32)], k: usize) -> f32 {
    match (frames.get(k), frames.get(k + 1)) {
        (Some(&(_, f)), Some(&(_, next))) => 1.0 / (next - f),
        _ => f32::INFINITY,
    }
}

fn vector_keys(
    ch: &Channel,
    values: &[[f32; 3]],
    poly: Polynomial,
    convert: impl Fn([f32; 3]) -> [f32; 3],
) -> Vec<NadKey> {
    let fps = f64::from(FRAMES_PER_SECOND);
    let frames = increasing_frames(ch.times.iter().map(|t| f64::from(*t) * fps));
    let per_key = if ch.interpolation == Interpolation::CubicSpline { 3 } else { 1 };
    // k < the key count and a validated channel holds per_key values a key: the defaults here are never
    // taken.
    let value = |k: usize| convert(values.get(per_key * k + per_key / 2).copied().unwrap_or_default());
    let mut keys = Vec::with_capacity(frames.len());
    for (j, &(k, frame)) in frames.iter().enumerate() {
        let frame_scale = frame_scale(&frames, j);
        let p0 = value(k);
        let mut poly_c = [[0.0f32; 3]; 3];
        if let Some(&(k1, next_frame)) = frames.get(j + 1) {
            let p1 = value(k1);
            poly_c = match ch.interpolation {
                Interpolation::Step => [[0.0; 3]; 3],
                Interpolation::Linear => [relic_core::math::sub3(p1, p0), [0.0; 3], [0.0; 3]],
                Interpolation::CubicSpline => {
                    let d = f64::from(next_frame - frame) / fps;
                    // A cubic channel holds three values a key (in, value, out): never taken.
                    let m0 = convert(values.get(3 * k + 2).copied().unwrap_or_default());
                    let m1 = convert(values.get(3 * k1).copied().unwrap_or_default());
                    let s = (f64::from(next_frame) - f64::from(frame)) * f64::from(frame_scale);
                    let (s2, s3) = (s * s, s * s * s);
                    let f = |x: f32| f64::from(x);
                    let c1 = m0.map(|m| (d * f(m) / s) as f32);
                    // i < 3: never taken.
                    let at = |v: [f32; 3], i: usize| f(v.get(i).copied().unwrap_or(0.0));
                    let c2 = std::array::from_fn(|i| {
                        let (p0, p1, m0, m1) = (at(p0, i), at(p1, i), at(m0, i), at(m1, i));
                        ((3.0 * (p1 - p0) - 2.0 * d * m0 - d * m1) / s2) as f32
                    });
                    let c3 = std::array::from_fn(|i| {
                        let (p0, p1, m0, m1) = (at(p0, i), at(p1, i), at(m0, i), at(m1, i));
                        ((2.0 * (p0 - p1) + d * m0 + d * m1) / s3) as f32
                    });
                    [c1, c2, c3]
                }
            };
        }
        let [c1, c2, c3] = poly_c;
        let (c, b, a) = match poly {
            Polynomial::Ascending => (c1, c2, c3),
            Polynomial::Descending => (c3, c2, c1),
        };
        keys.push(NadKey { frame, frame_scale, value: p0, c, b, a });
    }
    keys
}

/// The whole frames strictly inside segment `k` of a rotation channel that moves along it (none
/// for a segment that holds), not within float noise of its keys (a key read back at 62.999996
/// already stands for frame 63): `(first, count)`.
fn interior_whole_frames(ch: &Channel, values: &[[f32; 4]], k: usize) -> (f64, u64) {
    const NOISE: f64 = 1e-3;
    let fps = f64::from(FRAMES_PER_SECOND);
    let (Some(a), Some(b)) = (ch.times.get(k), ch.times.get(k + 1)) else { return (0.0, 0) };
    if !rotation_moves(ch.interpolation, values, k) {
        return (0.0, 0);
    }
    let (lo, hi) = ((f64::from(*a) * fps + NOISE).floor() + 1.0, (f64::from(*b) * fps - NOISE).ceil() - 1.0);
    // Key times of 1e30 s (an edited glTF) give more frames than a u64 holds: the count
    // saturates (and is refused by the sampling budget) rather than overflowing.
    if hi >= lo { (lo, ((hi - lo) as u64).saturating_add(1)) } else { (lo, 0) }
}

/// Euler keys the writer makes for the rotation channels of `animation` (every key and every
/// whole frame of a moving segment), and the most it may make: the reader's sampling budget
/// ([`MAX_SAMPLES_FIXED`] + [`MAX_SAMPLES_PER_KEY`] per stored key).
pub(crate) fn rotation_key_budget(animation: &Animation) -> (u64, u64) {
    let (mut needed, mut keys) = (0u64, 0u64);
    for ch in &animation.channels {
        let ChannelValues::Rotation(values) = &ch.values else { continue };
        keys = keys.saturating_add(ch.times.len() as u64);
        needed = needed.saturating_add(ch.times.len() as u64);
        for k in 0..ch.times.len().saturating_sub(1) {
            needed = needed.saturating_add(interior_whole_frames(ch, values, k).1);
        }
    }
    (needed, MAX_SAMPLES_FIXED.saturating_add(MAX_SAMPLES_PER_KEY.saturating_mul(keys)))
}

fn rotation_keys(ch: &Channel, values: &[[f32; 4]], choices: &NadChoices) -> Vec<NadKey> {
    let Some(&last) = ch.times.last() else { return Vec::new() };
    let fps = f64::from(FRAMES_PER_SECOND);
    // Every key, and every whole frame inside a segment along which the rotation changes.
    let mut wanted: Vec<f64> = Vec::with_capacity(ch.times.len());
    for (k, a) in ch.times.iter().enumerate().take(ch.times.len().saturating_sub(1)) {
        wanted.push(f64::from(*a) * fps);
        let (first, count) = interior_whole_frames(ch, values, k);
        wanted.extend((0..count).map(|i| first + i as f64));
    }
    wanted.push(f64::from(last) * fps);
    wanted.sort_by(f64::total_cmp);
    let frames = increasing_frames(wanted);
    let unit = choices.angle_unit.to_radians();
    let mut previous: Option<[f64; 3]> = None;
    let eulers: Vec<[f32; 3]> = frames
        .iter()
        .map(|&(_, f)| {
            let seg = find_segment(&ch.times, (f64::from(f) / fps) as f32);
            let q = sample_rotation(values, ch.interpolation, seg).unwrap_or([0.0, 0.0, 0.0, 1.0]);
            let [x, y, z, w] = NOD_FRAME.quat_from_ir(q).map(f64::from);
            let e = choices.euler_order.angles(&UnitQuaternion::new_unchecked(Quaternion::new(w, x, y, z)));
            let e = match previous {
                Some(p) => choices.euler_order.nearest(e, p),
                None => e,
            };
            previous = Some(e);
            e.map(|a| (a / unit) as f32)
        })
        .collect();
    frames
        .iter()
        .zip(&eulers)
        .enumerate()
        .map(|(j, (&(_, frame), value))| {
            let delta = match eulers.get(j + 1) {
                Some(next) if ch.interpolation != Interpolation::Step => relic_core::math::sub3(*next, *value),
                _ => [0.0; 3],
            };
            let (c, a) = match choices.polynomial.value {
                Polynomial::Ascending => (delta, [0.0; 3]),
                Polynomial::Descending => ([0.0; 3], delta),
            };
            NadKey { frame, frame_scale: frame_scale(&frames, j), value: *value, c, b: [0.0; 3], a }
        })
        .collect()
}

/// True if a rotation channel changes along segment `k` (a step holds, then jumps at the next key).
fn rotation_moves(interpolation: Interpolation, values: &[[f32; 4]], k: usize) -> bool {
    match interpolation {
        Interpolation::Step => false,
        Interpolation::Linear => values.get(k) != values.get(k + 1),
        // Segment k: value 3k+1, out-tangent 3k+2, in-tangent 3k+3, value 3k+4.
        Interpolation::CubicSpline => {
            values.get(3 * k + 1) != values.get(3 * k + 4)
                || values.get(3 * k + 2).is_some_and(|t| *t != [0.0; 4])
                || values.get(3 * k + 3).is_some_and(|t| *t != [0.0; 4])
        }
    }
}

/// Angle in radians between two rotations given as unit quaternions `[x, y, z, w]`:
/// `2·atan2(|a − b|, |a + b|)` on the same hemisphere, accurate for tiny angles, unlike acos.
pub(crate) fn rotation_angle(a: [f32; 4], b: [f32; 4]) -> f64 {
    let (a, b) = (a.map(f64::from), b.map(f64::from));
    let dot: f64 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
    let s = if dot < 0.0 { -1.0 } else { 1.0 };
    let norm = |f: &dyn Fn(f64, f64) -> f64| a.iter().zip(&b).map(|(x, y)| f(*x, *y).powi(2)).sum::<f64>().sqrt();
    2.0 * norm(&|x, y| x - s * y).atan2(norm(&|x, y| x + s * y))
}
