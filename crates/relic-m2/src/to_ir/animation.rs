//! Sequences → animations: names, timing, channels from the bone tracks (Hermite and Bezier
//! tangents to glTF's per-second cubic tangents) and events.

use relic_core::math::add3;
use relic_core::math::sub3;
use relic_core::model::{self as ir, *};

use super::skeleton::{pivot, rest_offset};
use crate::file::*;
use crate::frame::WARCRAFT;
use crate::names;

/// Seconds from a sequence start to a key (exact for any millisecond count below 2²⁴).
#[inline]
pub(crate) fn seconds(ms: i64) -> f32 {
    (ms as f64 / 1000.0) as f32
}

/// Animation names: `<AnimationData name>.<n>`, n counting the sequences of one id in file order.
pub(crate) fn animation_names(sequences: &[Sequence]) -> Vec<String> {
    let mut seen: std::collections::HashMap<u16, usize> = std::collections::HashMap::new();
    sequences
        .iter()
        .map(|s| {
            let n = seen.entry(s.id).or_insert(0);
            let name = format!("{}.{n}", names::animation_name(s.id));
            *n += 1;
            name
        })
        .collect()
}

/// A sequence box in the model's frame.
// Component indices 0..3 of 3-element arrays.
#[allow(clippy::indexing_slicing)]
pub(crate) fn bounds_to_ir(b: &Bounds) -> Aabb {
    let (a, c) = (WARCRAFT.vector_to_ir(b.min), WARCRAFT.vector_to_ir(b.max));
    Aabb { min: std::array::from_fn(|i| a[i].min(c[i])), max: std::array::from_fn(|i| a[i].max(c[i])) }
}

/// The part of a stored track that says which keys serve which sequence.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Head<'a> {
    pub interpolation: u16,
    pub global_sequence: i16,
    pub ranges: &'a [[u32; 2]],
    pub timestamps: &'a [u32],
}

impl<'a> Head<'a> {
    pub(crate) fn of<T: bytemuck::Pod>(t: &'a Track<T>) -> Self {
        Self {
            interpolation: t.interpolation,
            global_sequence: t.global_sequence,
            ranges: &t.ranges,
            timestamps: &t.timestamps,
        }
    }

    fn rotation(t: &'a RotationTrack) -> Self {
        let (interpolation, global_sequence, ranges, timestamps) = t.head();
        Self { interpolation, global_sequence, ranges, timestamps }
    }

    pub(crate) fn per_key(&self) -> usize {
        values_per_key(self.interpolation)
    }

    /// True if every sequence gets all the keys: a global-sequence track or one without ranges.
    pub(crate) fn shared(&self) -> bool {
        self.global_sequence >= 0 || self.ranges.is_empty()
    }

    /// How many of the first sequences may have keys: none for a keyless track, every one of
    /// `sequences` for a shared track, else those with a range.
    fn users(&self, sequences: usize) -> usize {
        if self.timestamps.is_empty() {
            0
        } else if self.shared() {
            sequences
        } else {
            self.ranges.len().min(sequences)
        }
    }

    /// The keys (index range) and clock of sequence `s`, or `None` if the track does not animate it.
    pub(crate) fn keys_for(&self, s: usize) -> Option<(std::ops::Range<usize>, Clock)> {
        let n = self.timestamps.len();
        if n == 0 {
            return None;
        }
        if let Ok(g) = usize::try_from(self.global_sequence) {
            return Some((0..n, Clock::Global(g)));
        }
        if self.ranges.is_empty() {
            return Some((0..n, Clock::Animation));
        }
        let [first, last] = *self.ranges.get(s)?;
        let (first, last) = (first as usize, last as usize);
        (first <= last && last < n).then_some((first..last + 1, Clock::Animation))
    }

    /// Bytes the channels of this track take in the model over `sequences` sequences, for values
    /// of `value_bytes` each: one channel per sequence the track animates, with its own copy of
    /// the keys (a channel counts twice: once itself, once as the slack of the list it grows in).
    pub(super) fn model_bytes(&self, sequences: usize, value_bytes: usize) -> u64 {
        let key = 4 + (self.per_key() * value_bytes) as u64;
        let channel = |keys: usize| 2 * size_of::<Channel>() as u64 + keys as u64 * key;
        if self.timestamps.is_empty() {
            0
        } else if self.shared() {
            channel(self.timestamps.len()).saturating_mul(sequences as u64)
        } else {
            (0..self.users(sequences))
                .filter_map(|s| self.keys_for(s))
                .fold(0, |sum: u64, (k, _)| sum.saturating_add(channel(k.len())))
        }
    }
}

/// The heads of a bone's translation, rotation and scale tracks.
pub(crate) fn bone_heads(b: &crate::file::Bone) -> [Head<'_>; 3] {
    [Head::of(&b.translation), Head::rotation(&b.rotation), Head::of(&b.scale)]
}

/// Names of a bone's three tracks, in [`bone_heads`] order.
pub(super) const TRACK_NAMES: [&str; 3] = ["translation", "rotation", "scale"];

/// One stored track, reduced to what channel building needs: its head and its values already in
/// the model's frame, `per_key` entries per key in M2's order (value, in, out).
pub(crate) struct TrackView<'a, const N: usize> {
    pub head: Head<'a>,
    pub values: Vec<[f32; N]>,
}

impl<const N: usize> TrackView<'_, N> {
    /// The channel of sequence `s` (starting at `start` ms) for `bone`.
    pub(crate) fn channel(
        &self,
        s: usize,
        start: u32,
        bone: usize,
        make: fn(Vec<[f32; N]>) -> ChannelValues,
    ) -> Option<Channel> {
        let (keys, clock) = self.head.keys_for(s)?;
        let origin = if clock == Clock::Animation { i64::from(start) } else { 0 };
        let times: Vec<f32> =
            self.head.timestamps.get(keys.clone())?.iter().map(|&t| seconds(i64::from(t) - origin)).collect();
        let per_key = self.head.per_key();
        let stored = self.values.get(keys.start * per_key..keys.end * per_key)?;
        let (interpolation, values) = if per_key == 1 {
            let i =
                if self.head.interpolation == INTERPOLATION_NONE { Interpolation::Step } else { Interpolation::Linear };
            (i, stored.to_vec())
        } else {
            (Interpolation::CubicSpline, cubic_values(stored, &times, self.head.interpolation == INTERPOLATION_BEZIER))
        };
        Some(Channel { bone, clock, interpolation, times, values: make(values) })
    }

    /// Appends the channel of every sequence the track animates to its animation.
    fn add_channels(
        &self,
        file: &M2File,
        bone: usize,
        make: fn(Vec<[f32; N]>) -> ChannelValues,
        animations: &mut [Animation],
    ) {
        let users = self.head.users(file.sequences.len());
        for (s, (seq, anim)) in file.sequences.iter().zip(animations.iter_mut()).enumerate().take(users) {
            anim.channels.extend(self.channel(s, seq.start, bone, make));
        }
    }

    /// True if `current` (one entry per sequence) holds exactly the channels this track maps to.
    /// Channels are built one at a time, and only where the key counts already agree.
    fn matches(
        &self,
        file: &M2File,
        bone: usize,
        make: fn(Vec<[f32; N]>) -> ChannelValues,
        current: &[Option<&Channel>],
    ) -> bool {
        current.len() == file.sequences.len()
            && current.iter().zip(file.sequences.iter()).enumerate().all(|(s, (c, seq))| {
                match (self.head.keys_for(s), c) {
                    (None, None) => true,
                    (Some((keys, _)), Some(c)) if keys.len() == c.times.len() => {
                        self.channel(s, seq.start, bone, make).as_ref() == Some(*c)
                    }
                    _ => false,
                }
            })
    }
}

/// Segment lengths in seconds around key `k`: (before, after), falling back to the neighbour
/// segment at the ends and to 1 s for a single key.
pub(crate) fn spans(times: &[f32], k: usize) -> (f32, f32) {
    let seg = |i: usize| match (times.get(i), times.get(i + 1)) {
        (Some(a), Some(b)) => Some(b - a),
        _ => None,
    };
    let before = k.checked_sub(1).and_then(seg);
    let after = seg(k);
    let before_or = before.or(after).unwrap_or(1.0);
    let after_or = after.or(before).unwrap_or(1.0);
    (before_or, after_or)
}

/// M2 spline keys (value, in, out) → glTF cubic triples (in/s, value, out/s).
// Component indices run over 0..N of `[f32; N]` arrays.
#[allow(clippy::indexing_slicing)]
fn cubic_values<const N: usize>(stored: &[[f32; N]], times: &[f32], bezier: bool) -> Vec<[f32; N]> {
    let mut out = Vec::with_capacity(stored.len());
    for (k, key) in stored.chunks_exact(3).enumerate() {
        let (Some(&p), Some(&i), Some(&o)) = (key.first(), key.get(1), key.get(2)) else { continue };
        let (before, after) = spans(times, k);
        let (m_in, m_out): ([f32; N], [f32; N]) = if bezier {
            (std::array::from_fn(|c| 3.0 * (p[c] - i[c])), std::array::from_fn(|c| 3.0 * (o[c] - p[c])))
        } else {
            (i, o)
        };
        out.push(std::array::from_fn(|c| (f64::from(m_in[c]) / f64::from(before)) as f32));
        out.push(p);
        out.push(std::array::from_fn(|c| (f64::from(m_out[c]) / f64::from(after)) as f32));
    }
    out
}

/// Converts a bone's translation values to the model's frame: values and Bezier control points
/// get the pivot offset, Hermite tangents do not.
fn translation_values(values: &[[f32; 3]], interpolation: u16, offset: [f32; 3]) -> Vec<[f32; 3]> {
    let per_key = values_per_key(interpolation);
    values
        .iter()
        .enumerate()
        .map(|(j, v)| {
            let is_tangent = per_key == 3 && j % 3 != 0 && interpolation == INTERPOLATION_HERMITE;
            WARCRAFT.vector_to_ir(if is_tangent { *v } else { add3(offset, *v) })
        })
        .collect()
}

/// A bone's translation track as a view in the model's frame.
fn translation_view(file: &M2File, f: usize) -> Option<TrackView<'_, 3>> {
    let t = &file.bones.get(f)?.translation;
    Some(TrackView { head: Head::of(t), values: translation_values(&t.values, t.interpolation, rest_offset(file, f)) })
}

/// A bone's rotation track as a view in the model's frame.
fn rotation_view(file: &M2File, f: usize) -> Option<TrackView<'_, 4>> {
    let r = &file.bones.get(f)?.rotation;
    let values = match r {
        RotationTrack::Float(t) => t.values.iter().map(|q| WARCRAFT.quat_to_ir(*q)).collect(),
        RotationTrack::Compressed(t) => t.values.iter().map(|q| WARCRAFT.quat_to_ir(decode_quat(*q))).collect(),
    };
    Some(TrackView { head: Head::rotation(r), values })
}

/// A bone's scale track as a view in the model's frame.
fn scale_view(file: &M2File, f: usize) -> Option<TrackView<'_, 3>> {
    let s = &file.bones.get(f)?.scale;
    Some(TrackView { head: Head::of(s), values: s.values.iter().map(|v| WARCRAFT.scale_to_ir(*v)).collect() })
}

/// True if file bone `f`'s track of property `p` (0 translation, 1 rotation, 2 scale) maps to
/// exactly `current`, the model's channels of bone `ir` for that property, one per sequence.
pub(crate) fn track_matches(file: &M2File, f: usize, ir: usize, p: usize, current: &[Option<&Channel>]) -> bool {
    match p {
        0 => translation_view(file, f).is_some_and(|v| v.matches(file, ir, ChannelValues::Translation, current)),
        1 => rotation_view(file, f).is_some_and(|v| v.matches(file, ir, ChannelValues::Rotation, current)),
        _ => scale_view(file, f).is_some_and(|v| v.matches(file, ir, ChannelValues::Scale, current)),
    }
}

/// True if file bone `f`'s track of property `p` animates no sequence (it maps to no channel).
pub(crate) fn track_is_silent(file: &M2File, f: usize, p: usize) -> bool {
    let Some(head) = file.bones.get(f).and_then(|b| bone_heads(b).get(p).copied()) else { return false };
    (0..head.users(file.sequences.len())).all(|s| head.keys_for(s).is_none())
}

/// The keys of an event track's half-open range `[a, b)` that exist among its `n` keys (a range
/// may reach past them, or be reversed: then it has none).
fn event_keys([a, b]: [u32; 2], n: usize) -> std::ops::Range<usize> {
    let end = (b as usize).min(n);
    (a as usize).min(end)..end
}

/// Events of every sequence (ranges are half-open), by time. One pass over the events: a
/// sequence an event track has no range for costs nothing.
fn events_to_ir(file: &M2File, rank: &[usize]) -> Vec<Vec<ir::Event>> {
    let sequences = file.sequences.len();
    let mut out: Vec<Vec<ir::Event>> = vec![Vec::new(); sequences];
    for e in file.events.iter() {
        let t = &e.times;
        let n = t.timestamps.len();
        if n == 0 {
            continue;
        }
        let shared = t.global_sequence >= 0 || t.ranges.is_empty();
        let users = if shared { sequences } else { t.ranges.len().min(sequences) };
        let name = e.name();
        let bone = rank.get(e.bone as usize).copied();
        let position = WARCRAFT.vector_to_ir(sub3(e.position, pivot(file, i64::from(e.bone))));
        for (s, (seq, list)) in file.sequences.iter().zip(out.iter_mut()).enumerate().take(users) {
            // A sequence without a range, or with an empty one, has no event; a range reaching
            // past the keys fires the keys it has (the game loads such tracks: `tolerated`).
            let (times, origin) = if shared {
                (t.timestamps.as_slice(), if t.global_sequence >= 0 { 0 } else { i64::from(seq.start) })
            } else {
                match t.ranges.get(s).and_then(|&r| t.timestamps.get(event_keys(r, n))) {
                    Some(times) => (times, i64::from(seq.start)),
                    None => continue,
                }
            };
            for &ts in times {
                list.push(ir::Event {
                    time: seconds(i64::from(ts) - origin),
                    name: name.clone(),
                    bone,
                    position: Some(position),
                    parameter: Some(e.data),
                });
            }
        }
    }
    for list in &mut out {
        list.sort_by(|a, b| a.time.total_cmp(&b.time));
    }
    out
}

/// True if the file's events map to exactly the animations' events. The events are counted per
/// sequence first and only built when every count agrees.
pub(crate) fn events_match(file: &M2File, rank: &[usize], animations: &[Animation]) -> bool {
    let sequences = file.sequences.len();
    if animations.len() != sequences {
        return false;
    }
    let mut every = 0u64;
    let mut counts = vec![0u64; sequences];
    for e in file.events.iter() {
        let t = &e.times;
        if t.global_sequence >= 0 || t.ranges.is_empty() {
            every = every.saturating_add(t.timestamps.len() as u64);
            continue;
        }
        for (c, &r) in counts.iter_mut().zip(t.ranges.iter()) {
            *c += event_keys(r, t.timestamps.len()).len() as u64;
        }
    }
    counts.iter().zip(animations).all(|(&c, a)| c.saturating_add(every) == a.events.len() as u64)
        && events_to_ir(file, rank).iter().zip(animations).all(|(e, a)| *e == a.events)
}

/// [`animations_to_ir`] once the budget is checked.
pub(super) fn build_animations(file: &M2File, order: &[usize], rank: &[usize]) -> Vec<Animation> {
    let names = animation_names(&file.sequences);
    let mut animations: Vec<Animation> = file
        .sequences
        .iter()
        .zip(names)
        .zip(events_to_ir(file, rank))
        .map(|((seq, name), events)| Animation {
            name,
            duration: seconds(i64::from(seq.end) - i64::from(seq.start)),
            looping: seq.flags & 1 == 0,
            blend_in: seconds(i64::from(seq.blend_time)),
            channels: Vec::new(),
            morph_channels: Vec::new(),
            events,
            bounds: Some(bounds_to_ir(&seq.bounds)),
            key_bounds: Vec::new(),
        })
        .collect();
    // Bone by bone, translation, rotation, scale: the order a channel list had per animation.
    // A keyless track animates no sequence and costs nothing here.
    for (ir, &f) in order.iter().enumerate() {
        let Some(b) = file.bones.get(f) else { continue };
        let [t, r, s] = bone_heads(b).map(|h| h.users(file.sequences.len()) > 0);
        if t && let Some(v) = translation_view(file, f) {
            v.add_channels(file, ir, ChannelValues::Translation, &mut animations);
        }
        if r && let Some(v) = rotation_view(file, f) {
            v.add_channels(file, ir, ChannelValues::Rotation, &mut animations);
        }
        if s && let Some(v) = scale_view(file, f) {
            v.add_channels(file, ir, ChannelValues::Scale, &mut animations);
        }
    }
    animations
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_count_each_id() {
        let seq = |id| Sequence { id, ..Sequence::default() };
        let names = animation_names(&[seq(0), seq(4), seq(0), seq(0), seq(4)]);
        assert_eq!(names, ["Stand.0", "Walk.0", "Stand.1", "Stand.2", "Walk.1"]);
    }
}
