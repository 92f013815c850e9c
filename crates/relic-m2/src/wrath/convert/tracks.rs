//! Tracks between one timeline per sequence (264+) and one shared timeline with key ranges
//! (256–263), m2-wrath.md §9 steps 1 and 3.
//!
//! | Wrath shape | 256–263 |
//! |---|---|
//! | no timeline | no keys, no ranges |
//! | one timeline, global sequence | the same keys, no ranges |
//! | one timeline, −1, more or fewer than one sequence | the same keys, no ranges (a constant) |
//! | one timeline per sequence | keys shifted by the sequence's start; a range per sequence (an empty timeline: an empty range `first > last`), a `(0, 0)` terminator |
//!
//! Back: ranges cut the keys per sequence, times rebased to the sequence's start and clamped into
//! `[0, duration]` (keys held outside the window: the in-window key wins, §9).

use bytemuck::Pod;

use super::particles;
use super::retime::Retime;
use crate::file::wrath::{SeqEventTrack, SeqSplineTrack, SeqTrack, WrathParticle};
use crate::file::{
    Camera, ClassicBlend, EventTrack, LifeTracks, LifeValues, M2Array, Particle, PerSequence, Ranged, RotationTrack,
    SplineTrack, Track, Value, WrathBlend, encode_quat,
};

/// Where each sequence lies on the shared timeline.
#[derive(Debug, Clone, Default)]
pub(crate) struct Windows {
    /// `(start, end)` per sequence, milliseconds.
    pub(crate) spans: Vec<(u32, u32)>,
    /// Per sequence: the earlier sequence whose keys it reuses (an alias), if any.
    pub(crate) reuses: Vec<Option<usize>>,
}

impl Windows {
    fn count(&self) -> usize {
        self.spans.len()
    }

    /// True if a track of `outer` timelines has one per sequence.
    fn per_sequence(&self, outer: usize, global_sequence: i16) -> bool {
        global_sequence < 0 && outer == self.count() && outer > 0
    }
}

/// The shared-timeline parts of a track: ranges, times, values.
type Flat<T> = (Vec<[u32; 2]>, Vec<u32>, Vec<T>);

/// Lays the timelines of a track on the shared timeline. `half_open` for event ranges.
fn flatten_parts<T: Pod>(
    times: &M2Array<M2Array<u32>>,
    values: Option<&M2Array<M2Array<T>>>,
    global_sequence: i16,
    w: &Windows,
    half_open: bool,
) -> Flat<T> {
    let value_of = |s: usize| values.and_then(|v| v.get(s)).map_or(&[][..], |v| v.items.as_slice());
    if !w.per_sequence(times.len(), global_sequence) {
        let t = times.first().map_or(Vec::new(), |t| t.items.clone());
        return (Vec::new(), t, value_of(0).to_vec());
    }
    let (mut ranges, mut all_times, mut all_values) = (Vec::with_capacity(w.count() + 1), Vec::new(), Vec::new());
    for (s, &(start, _)) in w.spans.iter().enumerate() {
        if let Some(&Some(t)) = w.reuses.get(s)
            && times.get(s) == times.get(t)
            && bytemuck::cast_slice::<T, u8>(value_of(s)) == bytemuck::cast_slice::<T, u8>(value_of(t))
            && let Some(&range) = ranges.get(t)
        {
            ranges.push(range);
            continue;
        }
        let first = all_times.len() as u32;
        let keys = times.get(s).map_or(&[][..], |t| t.items.as_slice());
        all_times.extend(keys.iter().map(|&t| start.saturating_add(t)));
        all_values.extend_from_slice(value_of(s));
        let n = keys.len() as u32;
        ranges.push(match (half_open, n) {
            (true, _) => [first, first + n],
            (false, 0) if first > 0 => [first, first - 1],
            (false, 0) => [1, 0],
            (false, _) => [first, first + n - 1],
        });
    }
    ranges.push([0, 0]);
    (ranges, all_times, all_values)
}

/// A per-sequence track on the shared timeline.
pub(crate) fn flatten<T: Pod>(t: &SeqTrack<T>, w: &Windows) -> Track<T> {
    let (ranges, timestamps, values) = flatten_parts(&t.timestamps, Some(&t.values), t.global_sequence, w, false);
    Track {
        interpolation: t.interpolation,
        global_sequence: t.global_sequence,
        ranges: ranges.into(),
        timestamps: timestamps.into(),
        values: values.into(),
    }
}

/// A per-sequence spline track (cameras) on the shared timeline.
pub(crate) fn flatten_spline<T: Pod>(t: &SeqSplineTrack<T>, w: &Windows) -> SplineTrack<T> {
    let (ranges, timestamps, values) = flatten_parts(&t.timestamps, Some(&t.values), t.global_sequence, w, false);
    SplineTrack {
        interpolation: t.interpolation,
        global_sequence: t.global_sequence,
        ranges: ranges.into(),
        timestamps: timestamps.into(),
        values: values.into(),
    }
}

/// Event times on the shared timeline (half-open ranges).
pub(crate) fn flatten_events(t: &SeqEventTrack, w: &Windows) -> EventTrack {
    let (ranges, timestamps, _) = flatten_parts::<u8>(&t.timestamps, None, t.global_sequence, w, true);
    EventTrack {
        interpolation: t.interpolation,
        global_sequence: t.global_sequence,
        ranges: ranges.into(),
        timestamps: timestamps.into(),
    }
}

/// The keys of sequence `s` cut from a shared timeline: `(times rebased, value index range)`.
fn cut(ranges: &[[u32; 2]], times: &[u32], s: usize, window: (u32, u32), half_open: bool) -> (Vec<u32>, Vec<usize>) {
    let Some(&[first, last]) = ranges.get(s) else { return (Vec::new(), Vec::new()) };
    let end = if half_open { last as usize } else { last as usize + 1 };
    let (first, end) = (first as usize, end.min(times.len()));
    let (start, stop) = window;
    let duration = stop.saturating_sub(start);
    let (mut out_t, mut out_k): (Vec<u32>, Vec<usize>) = (Vec::new(), Vec::new());
    let mut last_before = false;
    for k in first..end {
        let Some(&t) = times.get(k) else { break };
        let rebased = t.saturating_sub(start).min(duration);
        if out_t.last() == Some(&rebased) {
            // Two keys clamped to one time: before the window the later (in-window) key wins,
            // after it the earlier.
            if last_before && let Some(lk) = out_k.last_mut() {
                *lk = k;
                last_before = t < start;
            }
            continue;
        }
        out_t.push(rebased);
        out_k.push(k);
        last_before = t < start;
    }
    (out_t, out_k)
}

/// Cuts a shared-timeline track into one timeline per sequence (`per_key` values per key).
fn split_parts<T: Pod>(
    ranges: &[[u32; 2]],
    times: &[u32],
    values: Option<&[T]>,
    global_sequence: i16,
    per_key: usize,
    windows: &[(u32, u32)],
    half_open: bool,
) -> (M2Array<M2Array<u32>>, M2Array<M2Array<T>>) {
    // A track holds `per_key` values per key: the reader checks it, `from_ir` builds tracks so,
    // and `write_files` reads back what it wrote from extras that came as text.
    let values_of = |keys: &[usize]| -> Vec<T> {
        let Some(v) = values else { return Vec::new() };
        keys.iter().flat_map(|&k| v.get(k * per_key..(k + 1) * per_key).unwrap_or_default()).copied().collect()
    };
    if ranges.is_empty() || global_sequence >= 0 {
        if times.is_empty() {
            return (M2Array::default(), M2Array::default());
        }
        let all: Vec<usize> = (0..times.len()).collect();
        let t = M2Array::new(vec![M2Array::new(times.to_vec())]);
        return (t, M2Array::new(vec![M2Array::new(values_of(&all))]));
    }
    let (mut out_t, mut out_v) = (Vec::with_capacity(windows.len()), Vec::with_capacity(windows.len()));
    for (s, &window) in windows.iter().enumerate() {
        let (t, keys) = cut(ranges, times, s, window, half_open);
        out_t.push(M2Array::new(t));
        out_v.push(M2Array::new(values_of(&keys)));
    }
    (M2Array::new(out_t), M2Array::new(out_v))
}

/// A shared-timeline track as one timeline per sequence.
pub(crate) fn split<T: Pod>(t: &Track<T>, windows: &[(u32, u32)]) -> SeqTrack<T> {
    let per_key = t.per_key();
    let (timestamps, values) =
        split_parts(&t.ranges, &t.timestamps, Some(&t.values), t.global_sequence, per_key, windows, false);
    SeqTrack { interpolation: t.interpolation, global_sequence: t.global_sequence, timestamps, values }
}

/// A camera spline track as one timeline per sequence.
pub(crate) fn split_spline<T: Pod>(t: &SplineTrack<T>, windows: &[(u32, u32)]) -> SeqSplineTrack<T> {
    let (timestamps, values) =
        split_parts(&t.ranges, &t.timestamps, Some(&t.values), t.global_sequence, 1, windows, false);
    SeqSplineTrack { interpolation: t.interpolation, global_sequence: t.global_sequence, timestamps, values }
}

/// Event times as one timeline per sequence.
pub(crate) fn split_events(t: &EventTrack, windows: &[(u32, u32)]) -> SeqEventTrack {
    let (timestamps, _) = split_parts::<u8>(&t.ranges, &t.timestamps, None, t.global_sequence, 1, windows, true);
    SeqEventTrack { interpolation: t.interpolation, global_sequence: t.global_sequence, timestamps }
}

/// A bone rotation as compressed quaternions per sequence (Classic's floats are encoded).
pub(crate) fn split_rotation(t: &RotationTrack, windows: &[(u32, u32)]) -> SeqTrack<[i16; 4]> {
    match t {
        RotationTrack::Compressed(t) => split(t, windows),
        RotationTrack::Float(t) => {
            let values: Vec<[i16; 4]> = t.values.iter().map(|q| encode_quat(*q)).collect();
            let compressed = Track {
                interpolation: t.interpolation,
                global_sequence: t.global_sequence,
                ranges: t.ranges.clone(),
                timestamps: t.timestamps.clone(),
                values: values.into(),
            };
            split(&compressed, windows)
        }
    }
}

/// 264 on → 256–263: every timeline laid on the shared one ([`Windows`]), as a file of 263
/// (compressed rotations, 48-byte submeshes).
pub(crate) struct Flatten<'w>(pub(crate) &'w Windows);

impl Retime<PerSequence, Ranged> for Flatten<'_> {
    fn track<T: Value>(&self, t: &SeqTrack<T>) -> Track<T> {
        flatten(t, self.0)
    }
    fn spline<T: Value>(&self, t: &SeqSplineTrack<T>) -> SplineTrack<T> {
        flatten_spline(t, self.0)
    }
    fn events(&self, t: &SeqEventTrack) -> EventTrack {
        flatten_events(t, self.0)
    }
    fn rotation(&self, t: &SeqTrack<[i16; 4]>) -> RotationTrack {
        RotationTrack::Compressed(flatten(t, self.0))
    }
    /// The float, or the first value of 272's track; π/4 for a 272 camera whose track has no
    /// key (both counted as losses by `to_classic`).
    fn field_of_view(&self, c: &Camera<PerSequence>) -> (Option<f32>, Option<SplineTrack<f32>>) {
        let first = || c.field_of_view_track.as_ref()?.values.iter().find_map(|v| v.first()).map(|v| v[0]);
        (Some(c.field_of_view.or_else(first).unwrap_or(std::f32::consts::FRAC_PI_4)), None)
    }
    fn particle(&self, p: &WrathParticle) -> (u32, ClassicBlend, LifeValues) {
        particles::to_classic(p)
    }
    fn version(&self) -> u32 {
        263
    }
}

/// 256–263 → 264 on: the shared timeline cut at the sequences' windows (`(start, end)` each).
pub(crate) struct Split<'w> {
    pub(crate) windows: &'w [(u32, u32)],
    /// 264 or 272.
    pub(crate) version: u32,
}

impl Retime<Ranged, PerSequence> for Split<'_> {
    fn track<T: Value>(&self, t: &Track<T>) -> SeqTrack<T> {
        split(t, self.windows)
    }
    fn spline<T: Value>(&self, t: &SplineTrack<T>) -> SeqSplineTrack<T> {
        split_spline(t, self.windows)
    }
    fn events(&self, t: &EventTrack) -> SeqEventTrack {
        split_events(t, self.windows)
    }
    fn rotation(&self, t: &RotationTrack) -> SeqTrack<[i16; 4]> {
        split_rotation(t, self.windows)
    }
    /// The float up to 271; from 272 a track of one key holding it, or of none for a camera
    /// without one (a file built by hand: the 256–263 writer refuses it by name).
    fn field_of_view(&self, c: &Camera) -> (Option<f32>, Option<SeqSplineTrack<f32>>) {
        let fov = c.field_of_view;
        if self.version < 272 {
            return (fov, None);
        }
        let (times, values) = match fov {
            Some(f) => (vec![0], vec![[f, 0.0, 0.0]]),
            None => (Vec::new(), Vec::new()),
        };
        let track = SeqSplineTrack {
            interpolation: 0,
            global_sequence: -1,
            timestamps: M2Array::new(vec![M2Array::new(times)]),
            values: M2Array::new(vec![M2Array::new(values)]),
        };
        (None, Some(track))
    }
    fn particle(&self, p: &Particle) -> (u32, WrathBlend, LifeTracks) {
        particles::from_classic(p)
    }
    fn version(&self) -> u32 {
        self.version
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn windows() -> Windows {
        Windows { spans: vec![(3333, 4333), (6667, 7667), (6667, 7667)], reuses: vec![None, None, Some(1)] }
    }

    fn track(timelines: &[&[u32]]) -> SeqTrack<f32> {
        SeqTrack {
            interpolation: 1,
            global_sequence: -1,
            timestamps: M2Array::new(timelines.iter().map(|t| M2Array::new(t.to_vec())).collect()),
            values: M2Array::new(
                timelines.iter().map(|t| M2Array::new(t.iter().map(|&x| x as f32).collect())).collect(),
            ),
        }
    }

    #[test]
    fn per_sequence_keys_round_trip_through_one_timeline() {
        let w = windows();
        let t = track(&[&[0, 500, 1000], &[], &[]]);
        let flat = flatten(&t, &w);
        assert_eq!(flat.ranges.items, vec![[0, 2], [3, 2], [3, 2], [0, 0]]);
        assert_eq!(flat.timestamps.items, vec![3333, 3833, 4333]);
        assert_eq!(split(&flat, &w.spans), t);
        let shared = track(&[&[0], &[0, 1000], &[0, 1000]]);
        let flat = flatten(&shared, &w);
        assert_eq!(flat.ranges.items, vec![[0, 0], [1, 2], [1, 2], [0, 0]]);
        assert_eq!(split(&flat, &w.spans), shared);
    }

    #[test]
    fn keys_held_outside_a_window_are_clamped_in_window_first() {
        let flat = Track::<f32> {
            interpolation: 1,
            global_sequence: -1,
            ranges: vec![[0, 3], [0, 0]].into(),
            timestamps: vec![3000, 3333, 4333, 4400].into(),
            values: vec![1.0, 2.0, 3.0, 4.0].into(),
        };
        let t = split(&flat, &[(3333, 4333)]);
        assert_eq!(t.timestamps[0].items, vec![0, 1000]);
        assert_eq!(t.values[0].items, vec![2.0, 3.0]);
    }
}
