//! NAD ↔ common-model animation (spec §4.1).
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
//! **Rotation tracks** (Euler angles, [`EulerOrder`], [`AngleUnit`]) become linear (slerp)
//! quaternion channels sampled at the engine's 30 frames per second: a key at every NAD key and at
//! every whole frame between keys (constant segments need none). Between two samples the model
//! slerps while the engine follows the Euler cubic; the difference is bounded by
//! [`ROTATION_SAMPLING_BOUND`]: `Δt² · (|ω̇|/8 + |ω|²/16)` radians, with `Δt = 1/30 s`, `ω` the angular
//! velocity and `ω̇` the angular acceleration of the curve (from `|q̈| ≤ |ω̇|/2 + |ω|²/4` and the
//! chord error `Δt²/8 · |q̈|` of each sample interval, doubled for the angle). Measured (test
//! `rotation_sampling_error_stays_within_the_bound`, 16 points per frame): on `walk.nad` 0.04°,
//! 0.17° and 0.25° (an arm swinging 35° in 7 frames) against bounds of 0.11°, 0.45° and 0.61°;
//! on a stress clip turning 360° per second about X while the other angles swing ±40° twice a
//! second, 0.22° against 0.54°. Tracks whose segments all hold their value (no coefficients)
//! become [`Interpolation::Step`] channels instead, exactly.
//!
//! **Tags** become events named after the tag type (`Fire`, `Lwalk`, …, `tag_<n>` for unknown
//! types) with the type as parameter.
//!
//! Writing goes the other way: cubic translation/scale channels exactly (to rounding), linear ones
//! as `C = next − value`, step ones as constant segments; rotation channels are resampled at 30
//! frames per second into Euler keys with linear segments (reported with the measured error).

use relic_core::model::{Animation, Channel, ChannelValues, Clock, Event, Interpolation};
use relic_core::sample::{Sample, find_segment, sample_rotation};
use relic_core::{Converted, Loss, ReadError};

use crate::decide::NOD_FRAME;
use crate::from_ir::BoneMap;
use crate::geometry::{euler_to_quat, nearest_euler, quat_angle, quat_to_euler, zip3, zip3x4};
use crate::nad::{
    NadFile, NadKey, NadTag, NadTrack, TRACK_ROTATION, TRACK_SCALE, TRACK_TRANSLATION, tag_name, tag_type,
};
use crate::options::{
    AngleUnit, Choice, Decided, EulerOrder, FRAMES_PER_SECOND, How, NAD_VERSION, NadOptions, Polynomial,
};

/// The analytic bound on the rotation sampling error, in radians, for angular speed `omega` (rad/s)
/// and angular acceleration `omega_dot` (rad/s²): `Δt² · (ω̇/8 + ω²/16)` with `Δt = 1/30 s`.
pub fn rotation_sampling_bound(omega: f64, omega_dot: f64) -> f64 {
    let dt = 1.0 / f64::from(FRAMES_PER_SECOND);
    dt * dt * (omega_dot.abs() / 8.0 + omega * omega / 16.0)
}

/// See [`rotation_sampling_bound`]; the figure in the module docs.
pub const ROTATION_SAMPLING_BOUND: &str = "Δt² · (|ω̇|/8 + |ω|²/16), Δt = 1/30 s";

/// Samples an animation may make at most: this many per stored key …
pub const MAX_SAMPLES_PER_KEY: u64 = 32;
/// … plus this many (a 2-key track may span about 18 minutes).
pub const MAX_SAMPLES_FIXED: u64 = 32_768;

/// The readings taken for one NAD file.
#[derive(Debug, Clone, PartialEq)]
pub struct NadChoices {
    /// Coefficient order.
    pub polynomial: Decided<Polynomial>,
    /// Euler order (an option only).
    pub euler_order: EulerOrder,
    /// Angle unit (an option only).
    pub angle_unit: AngleUnit,
}

/// Figures on a NAD's curves (spec §9.5).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct CurveReport {
    /// Segments (pairs of consecutive keys).
    pub segments: usize,
    /// Largest `|P(σ) − Value_k+1|` over segments and components, under P1 and P2.
    pub end_gap: [f64; 2],
    /// Relative slope jump at interior keys under P1 and P2: `Σ|Δslope| / Σ(|slope in| + |slope out|)`.
    pub slope_jump: [f64; 2],
    /// Largest `|(Frame_k+1 − Frame_k) · FrameScale_k − 1|`.
    pub frame_scale_error: f64,
    /// Tracks whose last key's FrameScale is +∞.
    pub infinite_last: usize,
    /// Tracks with keys.
    pub tracks_with_keys: usize,
    /// Largest |angle| stored in a rotation track (stored units).
    pub max_angle: f64,
    /// Every track's frames are finite and strictly ascending.
    pub ascending: bool,
}

/// Coefficients of s, s², s³ under a polynomial order.
#[inline]
fn coefficients(key: &NadKey, poly: Polynomial) -> [[f32; 3]; 3] {
    match poly {
        Polynomial::Ascending => [key.c, key.b, key.a],
        Polynomial::Descending => [key.a, key.b, key.c],
    }
}

/// The key's cubic at `s`, per component.
pub fn eval_key(key: &NadKey, s: f64, poly: Polynomial) -> [f64; 3] {
    let [c1, c2, c3] = coefficients(key, poly);
    zip3x4(key.value, c1, c2, c3, |v, c1, c2, c3| {
        f64::from(v) + s * (f64::from(c1) + s * (f64::from(c2) + s * f64::from(c3)))
    })
}

/// `dP/ds` of the key's cubic at `s`.
pub fn slope_key(key: &NadKey, s: f64, poly: Polynomial) -> [f64; 3] {
    let [c1, c2, c3] = coefficients(key, poly);
    zip3x4(c1, c2, c3, [(); 3], |c1, c2, c3, ()| f64::from(c1) + s * (2.0 * f64::from(c2) + 3.0 * s * f64::from(c3)))
}

/// A track's value at frame `f` (held before the first and after the last key).
pub fn eval_track(keys: &[NadKey], f: f64, poly: Polynomial) -> [f64; 3] {
    let next = keys.partition_point(|k| f64::from(k.frame) <= f);
    match (next.checked_sub(1).and_then(|k| keys.get(k)), keys.get(next)) {
        (Some(key), Some(_)) => eval_key(key, (f - f64::from(key.frame)) * f64::from(key.frame_scale), poly),
        (Some(key), None) => key.value.map(f64::from),
        (None, _) => keys.first().map_or([0.0; 3], |k| k.value.map(f64::from)),
    }
}

/// `σ` of the segment from `a` to `b`.
fn sigma(a: &NadKey, b: &NadKey) -> f64 {
    (f64::from(b.frame) - f64::from(a.frame)) * f64::from(a.frame_scale)
}

/// Figures on every curve of the file.
pub fn curve_report(nad: &NadFile) -> CurveReport {
    let mut r = CurveReport { ascending: true, ..CurveReport::default() };
    let mut jump = [0.0f64; 2];
    let mut total = [0.0f64; 2];
    for track in &nad.tracks {
        if let Some(last) = track.keys.last() {
            r.tracks_with_keys += 1;
            if last.frame_scale == f32::INFINITY {
                r.infinite_last += 1;
            }
        }
        if track.track_type == TRACK_ROTATION {
            for k in &track.keys {
                r.max_angle = k.value.iter().map(|v| f64::from(v.abs())).fold(r.max_angle, f64::max);
            }
        }
        for pair in track.keys.windows(2) {
            let [a, b] = pair else { continue };
            if !(a.frame.is_finite() && b.frame.is_finite() && b.frame > a.frame) {
                r.ascending = false;
                continue;
            }
            r.segments += 1;
            let s = sigma(a, b);
            if s.is_finite() {
                r.frame_scale_error = r.frame_scale_error.max((s - 1.0).abs());
            }
            for (p, poly) in [Polynomial::Ascending, Polynomial::Descending].into_iter().enumerate() {
                let end = eval_key(a, s, poly);
                let gap = end.iter().zip(b.value).map(|(e, v)| (e - f64::from(v)).abs()).fold(0.0, f64::max);
                if let Some(g) = r.end_gap.get_mut(p)
                    && gap.is_finite()
                {
                    *g = g.max(gap);
                }
            }
        }
        for triple in track.keys.windows(3) {
            let [a, b, c] = triple else { continue };
            if !(b.frame > a.frame && c.frame > b.frame) {
                continue;
            }
            for (p, poly) in [Polynomial::Ascending, Polynomial::Descending].into_iter().enumerate() {
                let end = slope_key(a, sigma(a, b), poly).map(|x| x * f64::from(a.frame_scale));
                let start = slope_key(b, 0.0, poly).map(|x| x * f64::from(b.frame_scale));
                for (e, s) in end.iter().zip(start) {
                    if e.is_finite() && s.is_finite() {
                        if let Some(j) = jump.get_mut(p) {
                            *j += (e - s).abs();
                        }
                        if let Some(t) = total.get_mut(p) {
                            *t += e.abs() + s.abs();
                        }
                    }
                }
            }
        }
    }
    r.slope_jump = [0, 1].map(|p| {
        let (j, t) = (jump.get(p).copied().unwrap_or(0.0), total.get(p).copied().unwrap_or(0.0));
        if t > 0.0 { j / t } else { 0.0 }
    });
    r
}

/// Picks the readings for one NAD.
pub fn decide_nad(nad: &NadFile, options: &NadOptions) -> NadChoices {
    let polynomial = match options.polynomial {
        Choice::Fixed(p) => Decided::fixed(p, "set by the caller"),
        Choice::Auto => {
            let r = curve_report(nad);
            let [p1, p2] = r.slope_jump;
            let evidence = format!("relative slope jump at keys: P1 {p1:.2e}, P2 {p2:.2e}");
            let clearly = |a: f64, b: f64| a <= 0.5 * b && b - a > 1e-3;
            if clearly(p1, p2) {
                Decided { value: Polynomial::Ascending, how: How::Auto, evidence }
            } else if clearly(p2, p1) {
                Decided { value: Polynomial::Descending, how: How::Auto, evidence }
            } else {
                Decided { value: Polynomial::default(), how: How::Undecided, evidence }
            }
        }
    };
    NadChoices { polynomial, euler_order: options.euler_order, angle_unit: options.angle_unit }
}

/// Seconds → frame (in f64, rounded once).
fn frame_of(time: f32) -> f32 {
    (f64::from(time) * f64::from(FRAMES_PER_SECOND)) as f32
}

/// Frame → seconds.
fn seconds(frame: f64) -> f32 {
    (frame / f64::from(FRAMES_PER_SECOND)) as f32
}

/// Checks what the mapping relies on (in time linear in the file's size): bones in range, finite values, strictly ascending frames
/// (also as seconds), finite frame scales between keys, a sample budget for rotation tracks.
pub(crate) fn check_for_model(nad: &NadFile, bones: usize) -> Result<(), ReadError> {
    if !nad.duration.is_finite() || nad.duration < 0.0 {
        return Err(ReadError::invalid(12, "duration", format!("duration {} frames is not a length", nad.duration)));
    }
    let budget = MAX_SAMPLES_FIXED + MAX_SAMPLES_PER_KEY * nad.key_count() as u64;
    let mut samples = 0u64;
    for (t, track) in nad.tracks.iter().enumerate() {
        let sampled = track.track_type == TRACK_ROTATION && !holds(track);
        if track.bone as usize >= bones {
            return Err(ReadError::invalid(
                nad.track_offset(t) + 4,
                format!("tracks[{t}].bone"),
                format!("bone {} is out of range (the model has {bones} bones)", track.bone),
            ));
        }
        for (k, key) in track.keys.iter().enumerate() {
            // Offsets are summed over the earlier tracks: computed only for an error, so that a
            // file of many tracks is checked in linear time.
            let at = || nad.key_offset(t, k);
            let path = |field: &str| format!("tracks[{t}].keys[{k}].{field}");
            if !key.frame.is_finite() {
                return Err(ReadError::invalid(at(), path("frame"), format!("frame {} is not finite", key.frame)));
            }
            for (off, field, v) in [(8, "value", key.value), (20, "c", key.c), (32, "b", key.b), (44, "a", key.a)] {
                if v.iter().any(|x| !x.is_finite()) {
                    return Err(ReadError::invalid(at() + off, path(field), format!("{v:?} is not finite")));
                }
            }
            if let Some(next) = track.keys.get(k + 1) {
                let ascending =
                    next.frame > key.frame && seconds(f64::from(next.frame)) > seconds(f64::from(key.frame));
                if !ascending {
                    return Err(ReadError::invalid(
                        at() + KEY_STRIDE,
                        format!("tracks[{t}].keys[{}].frame", k + 1),
                        format!("frame {} does not come after frame {}", next.frame, key.frame),
                    ));
                }
                if !key.frame_scale.is_finite() {
                    return Err(ReadError::invalid(
                        at() + 4,
                        path("frame_scale"),
                        format!("frame scale {} before the last key", key.frame_scale),
                    ));
                }
                if sampled && !constant(key, next) {
                    samples = samples.saturating_add(interior_frames(key.frame, next.frame));
                }
            }
            samples = samples.saturating_add(1);
        }
        if samples > budget {
            return Err(ReadError::invalid(
                nad.track_offset(t),
                format!("tracks[{t}]"),
                format!(
                    "sampling the rotations at 30 frames per second needs more than {budget} keys \
                     ({MAX_SAMPLES_PER_KEY} per stored key + {MAX_SAMPLES_FIXED}); the frames span too long a time"
                ),
            ));
        }
    }
    for (i, tag) in nad.tags.iter().enumerate() {
        if !tag.frame.is_finite() {
            return Err(ReadError::invalid(
                nad.tag_offset(i),
                format!("tags[{i}].frame"),
                format!("frame {} is not finite", tag.frame),
            ));
        }
    }
    Ok(())
}

const KEY_STRIDE: u64 = crate::nad::KEY_SIZE;

/// Whole frames strictly between `a` and `b`.
fn interior_frames(a: f32, b: f32) -> u64 {
    let n = f64::from(b).ceil() - f64::from(a).floor() - 1.0;
    if n > 0.0 { n as u64 } else { 0 }
}

/// The segment from `a` holds one value up to `b`, which has it too.
fn constant(a: &NadKey, b: &NadKey) -> bool {
    a.c == [0.0; 3] && a.b == [0.0; 3] && a.a == [0.0; 3] && a.value == b.value
}

/// Maps a NAD to an animation on a skeleton of `bones` bones.
pub fn animation_from_nad(
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
        let channel = match (track.track_type, holds(track)) {
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
                        NOD_FRAME.quat_to_ir(euler_to_quat(e.map(|a| f64::from(a) * unit), order).map(|c| c as f32))
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

/// True if every segment of the track holds its key's value (all coefficients zero): the engine
/// then steps from key to key, which [`Interpolation::Step`] says exactly.
pub fn holds(track: &NadTrack) -> bool {
    let n = track.keys.len();
    track.keys.iter().take(n.saturating_sub(1)).all(|k| k.c == [0.0; 3] && k.b == [0.0; 3] && k.a == [0.0; 3])
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
                let s = sigma(key, next);
                let scale = fps * f64::from(key.frame_scale);
                let [c1, c2, c3] = coefficients(key, poly);
                let out = c1.map(|c| (scale * f64::from(c)) as f32);
                let into_next = zip3x4(c1, c2, c3, [(); 3], |c1, c2, c3, ()| {
                    (scale * (f64::from(c1) + 2.0 * s * f64::from(c2) + 3.0 * s * s * f64::from(c3))) as f32
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

fn rotation_channel(track: &NadTrack, choices: &NadChoices) -> Channel {
    let (order, unit, poly) = (choices.euler_order, choices.angle_unit.to_radians(), choices.polynomial.value);
    // Every key, and every whole frame inside a segment that moves; generated, not collected, so
    // the only allocations are the two exact-size outputs (the sampling budget bounds their size).
    let interior = |k: usize, key: &NadKey| match track.keys.get(k + 1) {
        Some(next) if !constant(key, next) => interior_frames(key.frame, next.frame),
        _ => 0,
    };
    let total: u64 = track.keys.iter().enumerate().map(|(k, key)| 1 + interior(k, key)).sum();
    let frames = track.keys.iter().enumerate().flat_map(|(k, key)| {
        let first = f64::from(key.frame).floor() + 1.0;
        std::iter::once(f64::from(key.frame)).chain((0..interior(k, key)).map(move |i| first + i as f64))
    });
    let capacity = usize::try_from(total).unwrap_or(0);
    let mut times: Vec<f32> = Vec::with_capacity(capacity);
    let mut values: Vec<[f32; 4]> = Vec::with_capacity(capacity);
    let mut previous: Option<[f32; 4]> = None;
    for f in frames {
        let t = seconds(f);
        if times.last().is_some_and(|&last| t <= last) {
            continue; // Two frames closer than f32 seconds can tell apart.
        }
        let angles = eval_track(&track.keys, f, poly).map(|a| a * unit);
        let q = euler_to_quat(angles, order).map(|c| c as f32);
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

/// The largest angle (radians) between a model rotation channel and the NAD rotation track it was
/// made from, checked at the channel's keys and `substeps` − 1 points between each pair.
pub fn rotation_error(channel: &Channel, track: &NadTrack, choices: &NadChoices, substeps: usize) -> f64 {
    let ChannelValues::Rotation(values) = &channel.values else { return 0.0 };
    let fps = f64::from(FRAMES_PER_SECOND);
    let truth = |f: f64| {
        let angles = eval_track(&track.keys, f, choices.polynomial.value).map(|a| a * choices.angle_unit.to_radians());
        NOD_FRAME.quat_to_ir(euler_to_quat(angles, choices.euler_order).map(|c| c as f32)).map(f64::from)
    };
    let mut worst = 0.0f64;
    let substeps = substeps.max(1);
    for (k, pair) in channel.times.windows(2).enumerate() {
        let [a, b] = pair else { continue };
        let (fa, fb) = (f64::from(*a) * fps, f64::from(*b) * fps);
        for i in 0..substeps {
            let f = fa + (fb - fa) * i as f64 / substeps as f64;
            let seg = relic_core::sample::segment_at(&channel.times, k, (f / fps) as f32);
            if let Some(q) = sample_rotation(values, channel.interpolation, seg) {
                worst = worst.max(quat_angle(q.map(f64::from), truth(f)));
            }
        }
    }
    worst
}

/// Builds a NAD from one animation of the model, on the NOD skeleton `map` describes.
pub fn nad_from_animation(animation: &Animation, map: &BoneMap, options: &NadOptions) -> Converted<NadFile> {
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
        if track_type == TRACK_ROTATION && !holds(&track) {
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
                worst = worst.max(quat_angle(x.map(f64::from), y.map(f64::from)));
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
                Interpolation::Linear => [zip3(p1, p0, |a, b| a - b), [0.0; 3], [0.0; 3]],
                Interpolation::CubicSpline => {
                    let d = f64::from(next_frame - frame) / fps;
                    let m0 = convert(values.get(3 * k + 2).copied().unwrap_or_default());
                    let m1 = convert(values.get(3 * k1).copied().unwrap_or_default());
                    let s = (f64::from(next_frame) - f64::from(frame)) * f64::from(frame_scale);
                    let (s2, s3) = (s * s, s * s * s);
                    let f = |x: f32| f64::from(x);
                    let c1 = m0.map(|m| (d * f(m) / s) as f32);
                    let c2 = zip3x4(p0, p1, m0, m1, |p0, p1, m0, m1| {
                        ((3.0 * (f(p1) - f(p0)) - 2.0 * d * f(m0) - d * f(m1)) / s2) as f32
                    });
                    let c3 = zip3x4(p0, p1, m0, m1, |p0, p1, m0, m1| {
                        ((2.0 * (f(p0) - f(p1)) + d * f(m0) + d * f(m1)) / s3) as f32
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
    if hi >= lo { (lo, (hi - lo) as u64 + 1) } else { (lo, 0) }
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
            let e = quat_to_euler(NOD_FRAME.quat_from_ir(q).map(f64::from), choices.euler_order);
            let e = match previous {
                Some(p) => nearest_euler(e, choices.euler_order, p),
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
                Some(next) if ch.interpolation != Interpolation::Step => zip3(*next, *value, |a, b| a - b),
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
