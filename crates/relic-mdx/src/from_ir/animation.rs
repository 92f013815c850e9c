//! Clips as sequences on the model's one timeline, channels as node tracks (spec §4.2, §2.4,
//! §7): the inverse of `to_ir`'s reading.
//!
//! * Clip `i` gets the interval `[start, start + duration]` in milliseconds, the first at 0 and
//!   each next one at the first whole second after the previous interval.
//! * A node has one track a property: the clips' channels are laid on the timeline at their
//!   clip's start. Linear → Linear, Step → DontInterp, cubic spline → Hermite with the tangents
//!   per segment (`to_ir` divides them by the segment's length). Clips that disagree get the
//!   smoothest interpolation among them (a linear clip under Hermite gets the tangents of its
//!   lines; a stepped one is counted).
//! * A global-sequence channel (copied into every clip by `to_ir`) is written once, on its
//!   global sequence.
//! * A bone whose rest pose is not its bind pose gets a key of its rest value at the start of
//!   every clip that does not animate it (an MDX node without a track rests at its pivot).

use std::collections::HashMap;

use relic_core::model::{Channel, ChannelValues, Clock, Interpolation, Model};
use relic_core::{Loss, WriteError};

use super::names::{Names, fixed};
use super::skeleton::Skeleton;
use crate::file::{DONT_INTERP, Extent, HERMITE, Key, Keys, LINEAR, MdxFile, Sequence, Tag, Track};
use crate::to_ir::WARCRAFT;

/// The sequences, where each clip starts, and the global sequences.
pub(super) struct Timeline {
    /// SEQS.
    pub(super) sequences: Vec<Sequence>,
    /// Each clip's first frame.
    pub(super) starts: Vec<i64>,
    /// Each clip's last frame.
    pub(super) ends: Vec<i64>,
    /// GLBS, milliseconds.
    pub(super) globals: Vec<u32>,
    /// MODL's blend time, milliseconds.
    pub(super) blend_time: u32,
}

/// Seconds → whole milliseconds.
fn millis(seconds: f32) -> i64 {
    (f64::from(seconds) * 1000.0).round() as i64
}

fn u32_field(field: String, value: i64) -> Result<u32, WriteError> {
    u32::try_from(value).map_err(|_| WriteError::DoesNotFit { field, value: value.max(0) as u64, ty: "u32" })
}

/// An extent around a box (the radius reaches its corners).
pub(super) fn extent(min: [f32; 3], max: [f32; 3]) -> Extent {
    let half: f32 = max.iter().zip(&min).map(|(a, b)| ((a - b) / 2.0).powi(2)).sum::<f32>().sqrt();
    Extent { bounds_radius: if half.is_finite() { half } else { 0.0 }, minimum: min, maximum: max }
}

/// The model's box in Warcraft's frame (zero when it has no vertex).
pub(super) fn model_box(model: &Model) -> ([f32; 3], [f32; 3]) {
    let points: Vec<[f32; 3]> =
        model.meshes.iter().flat_map(|m| &m.positions).map(|p| WARCRAFT.vector_from_ir(*p)).collect();
    relic_core::model::Aabb::of_points(&points).map_or(([0.0; 3], [0.0; 3]), |b| (b.min, b.max))
}

/// Lays the clips on the timeline.
pub(super) fn timeline(
    model: &Model,
    original: Option<&MdxFile>,
    names: &mut Names,
    losses: &mut Vec<Loss>,
) -> Result<Timeline, WriteError> {
    let kept: HashMap<String, &Sequence> = original
        .into_iter()
        .flat_map(|f| &f.chunks)
        .filter_map(|c| if let crate::file::Chunk::Sequences(s) = c { Some(s) } else { None })
        .flatten()
        .map(|s| (s.name.to_text(), s))
        .collect();
    let whole = model_box(model);
    let (mut sequences, mut starts, mut ends) = (Vec::new(), Vec::new(), Vec::new());
    let mut start = 0i64;
    for (i, a) in model.animations.iter().enumerate() {
        // Saturating: a duration past the u32 milliseconds is refused by `u32_field` below.
        let end = start.saturating_add(millis(a.duration).max(0));
        let (min, max) = a.bounds.map_or(whole, |b| (WARCRAFT.vector_from_ir(b.min), WARCRAFT.vector_from_ir(b.max)));
        let (min, max) = (relic_core::math::zip3(min, max, f32::min), relic_core::math::zip3(min, max, f32::max));
        let same = kept.get(&a.name);
        sequences.push(Sequence {
            name: fixed(&a.name, names),
            interval_start: u32_field(format!("SEQS[{i}].interval_start"), start)?,
            interval_end: u32_field(format!("SEQS[{i}].interval_end"), end)?,
            move_speed: same.map_or(0.0, |s| s.move_speed),
            flags: u32::from(!a.looping),
            rarity: same.map_or(0.0, |s| s.rarity),
            sync_point: 0,
            extent: extent(min, max),
        });
        starts.push(start);
        ends.push(end);
        start = (end / 1000).saturating_add(1).saturating_mul(1000);
    }
    let blend: Vec<i64> = model.animations.iter().map(|a| millis(a.blend_in)).collect();
    let blend_time = blend.first().copied().unwrap_or(150);
    if blend.iter().any(|&b| b != blend_time) {
        losses.push(Loss::new(
            "animations",
            format!(
                "the clips blend in over different times: MDX has one blend time (MODL), {blend_time} ms, the first \
                 clip's"
            ),
        ));
    }
    let globals = model
        .global_sequences
        .iter()
        .enumerate()
        .map(|(g, &s)| u32_field(format!("GLBS[{g}]"), millis(s).max(0)))
        .collect::<Result<_, _>>()?;
    Ok(Timeline { sequences, starts, ends, globals, blend_time: u32_field("MODL.blend_time".into(), blend_time)? })
}

/// A property of a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Property {
    Translation,
    Rotation,
    Scale,
}

const PROPERTIES: [Property; 3] = [Property::Translation, Property::Rotation, Property::Scale];

fn property(v: &ChannelValues) -> Property {
    match v {
        ChannelValues::Translation(_) => Property::Translation,
        ChannelValues::Rotation(_) => Property::Rotation,
        ChannelValues::Scale(_) => Property::Scale,
    }
}

pub(super) fn rank(i: Interpolation) -> u8 {
    match i {
        Interpolation::Step => 0,
        Interpolation::Linear => 1,
        Interpolation::CubicSpline => 2,
    }
}

/// Counts of what the tracks could not keep as it was.
#[derive(Default)]
struct Counts {
    /// Channels written with another interpolation than their own.
    reinterpolated: usize,
    /// Keys outside their clip (after the cut, by rounding).
    outside: usize,
    /// Channels with keys outside their clip, cut to it.
    cut: usize,
    /// Keys on a millisecond another key of the track already holds.
    same_frame: usize,
    /// Clip channels of a property a global-sequence channel animates.
    under_global: usize,
    /// Global channels that differ between the clips they are copied into.
    global_differs: usize,
    /// Channels of a bone and property a clip already animates.
    repeated: usize,
    /// Rest values keyed at the start of clips.
    rest_keys: usize,
    /// Cubic-spline rotation channels (Warcraft's Hermite rotations are squad).
    cubic_rotations: usize,
    /// Channels on an unknown global sequence.
    bad_global: usize,
    /// Translation channels of rotation-only bones (which the model poses at rest).
    rotation_only: usize,
}

/// One key in Warcraft's frame: frame, value, tangents.
pub(super) type WcKey<const N: usize> = (i64, [f32; N], Option<[[f32; N]; 2]>);

/// A channel's values as keys of `N` components, with tangents per segment for a cubic spline.
pub(super) fn keys_of<const N: usize>(
    (times, interpolation): (&[f32], Interpolation),
    values: &[[f32; N]],
    base: i64,
    convert: &dyn Fn([f32; N], bool) -> [f32; N],
    target: u32,
) -> Vec<WcKey<N>> {
    let cubic = interpolation == Interpolation::CubicSpline;
    let span = |i: usize| match (times.get(i), times.get(i + 1)) {
        (Some(a), Some(b)) if b > a => Some(b - a),
        _ => None,
    };
    let value = |k: usize| -> Option<[f32; N]> { if cubic { values.get(3 * k + 1) } else { values.get(k) }.copied() };
    let mut out = Vec::with_capacity(times.len());
    for (k, &t) in times.iter().enumerate() {
        let Some(p) = value(k) else { continue };
        let tangents = if target < HERMITE {
            None
        } else if cubic {
            let after = span(k);
            let before = k.checked_sub(1).and_then(span);
            let (before, after) = (before.or(after).unwrap_or(1.0), after.or(before).unwrap_or(1.0));
            let m_in = values.get(3 * k).copied().unwrap_or([0.0; N]);
            let m_out = values.get(3 * k + 2).copied().unwrap_or([0.0; N]);
            Some([convert(m_in.map(|x| x * before), true), convert(m_out.map(|x| x * after), true)])
        } else {
            // The tangents of the lines through the neighbours (a linear clip under Hermite).
            let p_prev = k.checked_sub(1).and_then(value);
            let p_next = value(k + 1);
            let diff = |a: [f32; N], b: [f32; N]| -> [f32; N] {
                let mut d = a;
                for (x, y) in d.iter_mut().zip(b) {
                    *x -= y;
                }
                d
            };
            let d_in = p_prev.map(|q| diff(p, q));
            let d_out = p_next.map(|q| diff(q, p));
            let (i, o) = (d_in.or(d_out).unwrap_or([0.0; N]), d_out.or(d_in).unwrap_or([0.0; N]));
            Some([convert(i, true), convert(o, true)])
        };
        out.push((base.saturating_add(millis(t)), convert(p, false), tangents));
    }
    out
}

/// The keys of a track, sorted by frame, one a frame (`same_frame` counts those dropped).
pub(super) fn finish<T: crate::file::Value + Copy, const N: usize>(
    mut keys: Vec<WcKey<N>>,
    same_frame: &mut usize,
    make: impl Fn([f32; N]) -> T,
) -> Vec<Key<T>> {
    keys.sort_by_key(|k| k.0);
    let before = keys.len();
    keys.dedup_by_key(|k| k.0);
    *same_frame += before - keys.len();
    keys.into_iter()
        .filter_map(|(f, v, t)| {
            Some(Key { frame: i32::try_from(f).ok()?, value: make(v), tangents: t.map(|[a, b]| [make(a), make(b)]) })
        })
        .collect()
}

/// Every bone's KGTR, KGRT and KGSC tracks, and the event frames on the event nodes.
pub(super) fn node_tracks(model: &Model, sk: &mut Skeleton, tl: &Timeline, losses: &mut Vec<Loss>) -> Vec<Vec<Track>> {
    let mut counts = Counts::default();
    // (bone, property) → per clip the channels, and the global channels.
    let mut clip: HashMap<(usize, Property), Vec<Option<&Channel>>> = HashMap::new();
    let mut global: HashMap<(usize, Property), (usize, &Channel)> = HashMap::new();
    for (a, anim) in model.animations.iter().enumerate() {
        for c in &anim.channels {
            let key = (c.bone, property(&c.values));
            match c.clock {
                Clock::Global(g) if g >= tl.globals.len() => counts.bad_global += 1,
                Clock::Global(g) => match global.get(&key) {
                    Some((_, first)) => counts.global_differs += usize::from(*first != c),
                    None => {
                        global.insert(key, (g, c));
                    }
                },
                Clock::Animation => {
                    let slots = clip.entry(key).or_insert_with(|| vec![None; model.animations.len()]);
                    match slots.get_mut(a) {
                        Some(slot @ None) => *slot = Some(c),
                        _ => counts.repeated += 1,
                    }
                }
            }
        }
    }
    let mut tracks = vec![Vec::new(); sk.nodes.len()];
    for (bone, b) in model.bones.iter().enumerate() {
        let rest_differs = sk.rest_differs(bone, &b.rest);
        for (pi, prop) in PROPERTIES.into_iter().enumerate() {
            let key = (bone, prop);
            if b.flags.rotation_only && prop == Property::Translation {
                // The bone keeps its rest translation whatever its channels say.
                let ignored = clip.remove(&key).map_or(0, |s| s.iter().flatten().count());
                counts.rotation_only += ignored + usize::from(global.remove(&key).is_some());
            }
            let track = if let Some(&(g, c)) = global.get(&key) {
                counts.under_global += clip.get(&key).map_or(0, |s| s.iter().flatten().count());
                one_track(sk, bone, prop, &[(0, i64::MAX, Some(c))], g as i32, None, &mut counts)
            } else {
                let slots = clip.get(&key);
                let rest = rest_differs.get(pi).copied().unwrap_or(false).then_some(b.rest);
                if slots.is_none() && rest.is_none() {
                    continue;
                }
                let per_clip: Vec<(i64, i64, Option<&Channel>)> = tl
                    .starts
                    .iter()
                    .zip(&tl.ends)
                    .enumerate()
                    .map(|(a, (&s, &e))| (s, e, slots.and_then(|v| v.get(a).copied().flatten())))
                    .collect();
                one_track(sk, bone, prop, &per_clip, -1, rest, &mut counts)
            };
            if let (Some(t), Some(list)) = (track, tracks.get_mut(bone)) {
                list.push(t);
            }
        }
    }
    // Events: frames on their nodes.
    for (a, anim) in model.animations.iter().enumerate() {
        let (Some(&start), Some(&end)) = (tl.starts.get(a), tl.ends.get(a)) else { continue };
        for e in &anim.events {
            let frame = start.saturating_add(millis(e.time)).clamp(start, end);
            if let Some(n) = sk.events.get(&(e.name.clone(), e.bone)).and_then(|&n| sk.nodes.get_mut(n)) {
                n.frames.push(frame.clamp(0, i64::from(u32::MAX)) as u32);
            }
        }
    }
    for n in &mut sk.nodes {
        n.frames.sort_unstable();
    }
    counts.losses(losses);
    tracks
}

/// One node track from the channels of each clip (at the clip's start), or from one global
/// channel; `rest` keys clips without a channel.
fn one_track(
    sk: &Skeleton,
    bone: usize,
    prop: Property,
    per_clip: &[(i64, i64, Option<&Channel>)],
    global_sequence_id: i32,
    rest: Option<relic_core::model::Transform>,
    counts: &mut Counts,
) -> Option<Track> {
    let present: Vec<&Channel> = per_clip.iter().filter_map(|(_, _, c)| *c).collect();
    let best = present.iter().map(|c| c.interpolation).max_by_key(|&i| rank(i)).unwrap_or(Interpolation::Linear);
    counts.reinterpolated += present.iter().filter(|c| c.interpolation != best).count();
    let target = match best {
        Interpolation::Step => DONT_INTERP,
        Interpolation::Linear => LINEAR,
        Interpolation::CubicSpline => HERMITE,
    };
    if prop == Property::Rotation && best == Interpolation::CubicSpline {
        counts.cubic_rotations += 1;
    }
    let rest_channel = || -> Option<Channel> {
        let r = rest?;
        let values = match prop {
            Property::Translation => ChannelValues::Translation(vec![r.translation]),
            Property::Rotation => ChannelValues::Rotation(vec![r.rotation]),
            Property::Scale => ChannelValues::Scale(vec![r.scale]),
        };
        Some(Channel { bone, clock: Clock::Animation, interpolation: Interpolation::Linear, times: vec![0.0], values })
    };
    let mut vec3: Vec<WcKey<3>> = Vec::new();
    let mut quat: Vec<WcKey<4>> = Vec::new();
    for &(base, end, c) in per_clip {
        let made;
        let c = match c {
            Some(c) => c,
            None => match rest_channel() {
                Some(r) => {
                    counts.rest_keys += 1;
                    made = r;
                    &made
                }
                None => continue,
            },
        };
        let cut_channel = if end == i64::MAX { None } else { cut(c, (end - base) as f32 / 1000.0) };
        counts.cut += usize::from(cut_channel.is_some());
        let c = cut_channel.as_ref().unwrap_or(c);
        let inside = |f: i64| (base..=end).contains(&f);
        let (v3, q4) = (vec3.len(), quat.len());
        match &c.values {
            ChannelValues::Translation(v) => vec3.extend(keys_of(
                (&c.times, c.interpolation),
                v,
                base,
                &|x, tangent| sk.translation(bone, x, tangent),
                target,
            )),
            ChannelValues::Scale(v) => {
                vec3.extend(keys_of((&c.times, c.interpolation), v, base, &|x, _| WARCRAFT.scale_from_ir(x), target))
            }
            ChannelValues::Rotation(v) => {
                quat.extend(keys_of((&c.times, c.interpolation), v, base, &|x, _| sk.rotation(bone, x), target))
            }
        }
        let before = vec3.len() + quat.len();
        let tail3 = vec3.split_off(v3);
        vec3.extend(tail3.into_iter().filter(|k| inside(k.0)));
        let tail4 = quat.split_off(q4);
        quat.extend(tail4.into_iter().filter(|k| inside(k.0)));
        counts.outside += before - vec3.len() - quat.len();
    }
    let keys = match prop {
        Property::Rotation => Keys::Quat(finish(quat, &mut counts.same_frame, |v| v)),
        _ => Keys::Vec3(finish(vec3, &mut counts.same_frame, |v| v)),
    };
    if keys.is_empty() {
        return None;
    }
    let tag = Tag(match prop {
        Property::Translation => *b"KGTR",
        Property::Rotation => *b"KGRT",
        Property::Scale => *b"KGSC",
    });
    Some(Track { tag, interpolation: target, global_sequence_id, keys })
}

impl Counts {
    fn losses(&self, losses: &mut Vec<Loss>) {
        let mut note = |n: usize, what: &str| {
            if n > 0 {
                losses.push(Loss::new("animations", format!("{n} {what}")));
            }
        };
        note(
            self.reinterpolated,
            "channels written with the interpolation of other clips of their node (one track a node property)",
        );
        note(
            self.cut,
            "channels with keys outside their clip (a key before its start or after its end): cut to the clip, \
             with a key sampled at each cut edge (an MDX sequence plays the keys of its interval only)",
        );
        note(self.outside, "keys outside their clip dropped");
        note(self.same_frame, "keys on a millisecond another key of their track already holds dropped");
        note(self.under_global, "clip channels of a property a global-sequence channel animates dropped");
        note(self.global_differs, "global-sequence channels that differ between clips: the first clip's written");
        note(self.repeated, "channels of a bone and property their clip already animates dropped");
        note(
            self.rest_keys,
            "rest values keyed at a clip's start (the bone's rest pose is not its bind pose; an MDX node without a \
             track rests at its pivot)",
        );
        note(
            self.cubic_rotations,
            "cubic-spline rotation tracks written as Hermite with the tangents as relic reads them (the game \
             interpolates Hermite rotations as squad)",
        );
        note(self.bad_global, "channels on a global sequence the model does not have dropped");
        note(
            self.rotation_only,
            "translation channels of rotation-only bones not written (such a bone stays at its rest translation)",
        );
    }
}

/// A channel cut to its clip, `[0, duration]`: the keys outside dropped and a key sampled where a
/// key lay beyond an edge; `None` when every key lies inside.
fn cut(c: &Channel, duration: f32) -> Option<Channel> {
    let inside = |t: f32| t >= 0.0 && millis(t) <= millis(duration);
    if c.times.iter().all(|&t| inside(t)) {
        return None;
    }
    let (times, values) = match &c.values {
        ChannelValues::Translation(v) => {
            let (t, v) = cut_values(&c.times, v, c.interpolation, duration, false);
            (t, ChannelValues::Translation(v))
        }
        ChannelValues::Scale(v) => {
            let (t, v) = cut_values(&c.times, v, c.interpolation, duration, false);
            (t, ChannelValues::Scale(v))
        }
        ChannelValues::Rotation(v) => {
            let (t, v) = cut_values(&c.times, v, c.interpolation, duration, true);
            (t, ChannelValues::Rotation(v))
        }
    };
    Some(Channel { bone: c.bone, clock: c.clock, interpolation: c.interpolation, times, values })
}

/// `a + (b − a)·s` per component (`s` may be any factor).
fn mix<const N: usize>(a: [f32; N], b: [f32; N], s: f32) -> [f32; N] {
    let mut out = a;
    for (o, y) in out.iter_mut().zip(b) {
        *o += (y - *o) * s;
    }
    out
}

/// `Σ wᵢ·vᵢ` per component.
fn sum<const N: usize>(terms: &[([f32; N], f32)]) -> [f32; N] {
    let mut out = [0.0; N];
    for (v, w) in terms {
        for (o, x) in out.iter_mut().zip(v) {
            *o += x * w;
        }
    }
    out
}

/// See [`cut`]: the times and values (in, value, out per key for a cubic spline; tangents per
/// second). `unit`: quaternions, normalised after sampling.
fn cut_values<const N: usize>(
    times: &[f32],
    values: &[[f32; N]],
    interpolation: Interpolation,
    duration: f32,
    unit: bool,
) -> (Vec<f32>, Vec<[f32; N]>) {
    let cubic = interpolation == Interpolation::CubicSpline;
    let zero = [0.0f32; N];
    // (in, value, out) of key k.
    let key = |k: usize| -> Option<([f32; N], [f32; N], [f32; N])> {
        if cubic {
            Some((*values.get(3 * k)?, *values.get(3 * k + 1)?, *values.get(3 * k + 2)?))
        } else {
            Some((zero, *values.get(k)?, zero))
        }
    };
    let normal = |v: [f32; N]| -> [f32; N] {
        let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        if unit && n > 0.0 && n.is_finite() { v.map(|x| x / n) } else { v }
    };
    // The value and slope (per second) at `t`.
    let sample = |t: f32| -> Option<([f32; N], [f32; N])> {
        let segment = times.windows(2).position(|w| matches!(w, [a, b] if *a <= t && t <= *b));
        let Some(i) = segment else {
            // Beyond every key: the nearest key holds.
            let k = times.iter().enumerate().min_by(|a, b| (a.1 - t).abs().total_cmp(&(b.1 - t).abs()))?.0;
            return Some((key(k)?.1, zero));
        };
        let (t0, t1) = (*times.get(i)?, *times.get(i + 1)?);
        let ((_, p0, m0), (m1, p1, _)) = (key(i)?, key(i + 1)?);
        let dt = t1 - t0;
        let s = if dt > 0.0 { (t - t0) / dt } else { 0.0 };
        Some(match interpolation {
            Interpolation::Step => (p0, zero),
            Interpolation::Linear => {
                let slope = if dt > 0.0 { sum(&[(p1, 1.0 / dt), (p0, -1.0 / dt)]) } else { zero };
                (normal(mix(p0, p1, s)), slope)
            }
            Interpolation::CubicSpline => {
                let (s2, s3) = (s * s, s * s * s);
                let value = sum(&[
                    (p0, 2.0 * s3 - 3.0 * s2 + 1.0),
                    (m0, (s3 - 2.0 * s2 + s) * dt),
                    (p1, -2.0 * s3 + 3.0 * s2),
                    (m1, (s3 - s2) * dt),
                ]);
                let slope = if dt > 0.0 {
                    sum(&[
                        (p0, (6.0 * s2 - 6.0 * s) / dt),
                        (m0, 3.0 * s2 - 4.0 * s + 1.0),
                        (p1, (-6.0 * s2 + 6.0 * s) / dt),
                        (m1, 3.0 * s2 - 2.0 * s),
                    ])
                } else {
                    zero
                };
                (normal(value), slope)
            }
        })
    };
    let inside = |t: f32| t >= 0.0 && millis(t) <= millis(duration);
    let kept: Vec<usize> = (0..times.len()).filter(|&k| times.get(k).is_some_and(|&t| inside(t))).collect();
    let first = kept.first().and_then(|&k| times.get(k)).copied();
    let last = kept.last().and_then(|&k| times.get(k)).copied();
    let mut out_t = Vec::new();
    let mut out_v = Vec::new();
    let mut push = |t: f32, (i, v, o): ([f32; N], [f32; N], [f32; N])| {
        out_t.push(t);
        if cubic {
            out_v.extend([i, v, o]);
        } else {
            out_v.push(v);
        }
    };
    if times.iter().any(|&t| t < 0.0)
        && first.is_none_or(|t| millis(t) > 0)
        && let Some((v, m)) = sample(0.0)
    {
        push(0.0, (m, v, m));
    }
    for &k in &kept {
        if let (Some(&t), Some(v)) = (times.get(k), key(k)) {
            push(t, v);
        }
    }
    if times.iter().any(|&t| millis(t) > millis(duration))
        && last.is_none_or(|t| millis(t) < millis(duration))
        && let Some((v, m)) = sample(duration)
    {
        push(duration, (m, v, m));
    }
    (out_t, out_v)
}
