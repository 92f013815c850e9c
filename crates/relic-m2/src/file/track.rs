//! Animated values: the pre-Wrath 28-byte track (interpolation, global sequence, ranges,
//! timestamps, values), the 20-byte event track without values, camera spline tracks, and the
//! compressed quaternions of versions 260–263 (spec §4, §7, §8).

use std::io::{Read, Seek};

use binrw::{BinRead, BinResult, Endian};
use bytemuck::Pod;
use relic_core::ReadErrorKind;
use relic_core::error::custom;
use serde::{Deserialize, Serialize};

use crate::array::{M2Array, Out, next, pod_array, pod_keys};

/// What records need to know while they are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ctx {
    /// File version (256–263).
    pub version: u32,
    /// Number of sequences (tracks have one range per sequence, plus a terminator).
    pub sequences: u32,
    /// Number of global sequences (a track's clock index must be below it).
    pub global_sequences: u32,
}

impl Ctx {
    /// True for The Burning Crusade layouts (260–263).
    pub fn tbc(self) -> bool {
        self.version >= 260
    }
}

/// Interpolation 0: no interpolation, the earlier key holds.
pub const INTERPOLATION_NONE: u16 = 0;
/// Interpolation 1: linear (slerp for rotations).
pub const INTERPOLATION_LINEAR: u16 = 1;
/// Interpolation 2: cubic Hermite; values carry in/out tangents.
pub const INTERPOLATION_HERMITE: u16 = 2;
/// Interpolation 3: cubic Bezier; values carry in/out control points.
pub const INTERPOLATION_BEZIER: u16 = 3;

/// Values stored per key: 3 (value, in-tangent, out-tangent) for Hermite and Bezier, else 1.
pub fn values_per_key(interpolation: u16) -> usize {
    if interpolation >= INTERPOLATION_HERMITE { 3 } else { 1 }
}

/// An animated value (`M2Track<T>`, 28 bytes before Wrath).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Track<T> {
    /// 0 none (step), 1 linear, 2 Hermite, 3 Bezier.
    pub interpolation: u16,
    /// Global sequence that drives the track, or −1 for the ordinary sequences.
    pub global_sequence: i16,
    /// One `(first, last)` key range per sequence, inclusive at both ends, plus a `(0, 0)`
    /// terminator; empty for a constant or global-sequence track.
    pub ranges: M2Array<[u32; 2]>,
    /// Key times in milliseconds on the one timeline all sequences share.
    pub timestamps: M2Array<u32>,
    /// Key values: one per key, or three per key (value, in-tangent, out-tangent) for Hermite and
    /// Bezier tracks. The stored count is the number of keys.
    pub values: M2Array<T>,
}

impl<T> Default for Track<T> {
    /// No key, interpolation 0, driven by the sequences.
    fn default() -> Self {
        Self {
            interpolation: 0,
            global_sequence: -1,
            ranges: M2Array::default(),
            timestamps: M2Array::default(),
            values: M2Array::default(),
        }
    }
}

impl<T> Track<T> {
    /// Values stored per key.
    pub fn per_key(&self) -> usize {
        values_per_key(self.interpolation)
    }
    /// True if the track has no key.
    pub fn is_empty(&self) -> bool {
        self.timestamps.is_empty()
    }
}

/// An event's firing times (`M2TrackBase`, 20 bytes before Wrath): a track without values.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct EventTrack {
    /// Interpolation type (0 in every known file; unused).
    pub interpolation: u16,
    /// Global sequence or −1.
    pub global_sequence: i16,
    /// One `(first, end)` range per sequence, **half-open** (`end` excluded; measured on the real
    /// 1.12 file: an event of one time has `(k, k + 1)`, a sequence without one `(k, k)`), plus a
    /// `(0, 0)` terminator.
    pub ranges: M2Array<[u32; 2]>,
    /// Firing times in milliseconds on the shared timeline.
    pub timestamps: M2Array<u32>,
}

/// A camera track: every key is a spline key (value, in-tangent, out-tangent) whatever the
/// interpolation (measured on the real file: a one-key position block spans 36 bytes).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct SplineTrack<T> {
    /// 0 none, 1 linear, 2 Hermite, 3 Bezier.
    pub interpolation: u16,
    /// Global sequence or −1.
    pub global_sequence: i16,
    /// Key ranges per sequence, as in [`Track::ranges`].
    pub ranges: M2Array<[u32; 2]>,
    /// Key times in milliseconds.
    pub timestamps: M2Array<u32>,
    /// `[value, in-tangent, out-tangent]` per key.
    pub values: M2Array<[T; 3]>,
}

/// A bone rotation track: 4×f32 quaternions up to 259, compressed 4×i16 from 260 (spec §8).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum RotationTrack {
    /// Classic: `(x, y, z, w)` floats.
    Float(Track<[f32; 4]>),
    /// The Burning Crusade: `(x, y, z, w)` as excess-32767 int16 codes ([`decode_component`]).
    Compressed(Track<[i16; 4]>),
}

impl Default for RotationTrack {
    fn default() -> Self {
        RotationTrack::Float(Track::default())
    }
}

/// Reads the common head of every track and checks what can be checked locally.
fn head<R: Read + Seek>(reader: &mut R, endian: Endian, ctx: Ctx) -> BinResult<(u16, i16)> {
    let pos = reader.stream_position()?;
    let interpolation = u16::read_options(reader, endian, ())?;
    if interpolation > INTERPOLATION_BEZIER {
        return Err(custom(pos, ReadErrorKind::Invalid(format!("unknown interpolation type {interpolation}"))));
    }
    let global_sequence = i16::read_options(reader, endian, ())?;
    if global_sequence < -1 || (global_sequence >= 0 && global_sequence as u32 >= ctx.global_sequences) {
        return Err(custom(
            pos + 2,
            ReadErrorKind::Invalid(format!(
                "global sequence {global_sequence} does not exist ({} in the file)",
                ctx.global_sequences
            )),
        ));
    }
    Ok((interpolation, global_sequence))
}

/// Checks ranges against the keys: each sequence's range lies within the keys and its key times
/// strictly increase. `half_open` for event tracks. `pos` is the track's position (for errors).
///
/// Ranges may overlap (sequences share keys), so scanning each range's keys costs sequences ×
/// keys: 20 000 sequences sharing one 100 000-key range made 2·10⁹ comparisons. Instead the keys
/// that do not come after their predecessor ("stalls") are listed once, in order, and a range is
/// increasing exactly when no stall lies after its first key and within it: one binary search per
/// range.
fn check_ranges(pos: u64, ranges: &[[u32; 2]], timestamps: &[u32], sequences: u32, half_open: bool) -> BinResult<()> {
    let keys = timestamps.len() as u64;
    // Index k of every key with timestamps[k − 1] >= timestamps[k]; built at the first non-empty range.
    let mut stalls: Option<Vec<u32>> = None;
    for (s, range) in ranges.iter().take(sequences as usize).enumerate() {
        let [first, last] = *range;
        let (first, last) = (u64::from(first), u64::from(last));
        let end = if half_open { last } else { last + 1 };
        if first >= end {
            continue; // no key for this sequence
        }
        if end > keys {
            return Err(custom(
                pos + 4,
                ReadErrorKind::Invalid(format!(
                    "range {s} [{first}, {last}{} points past the {keys} keys",
                    if half_open { ")" } else { "]" }
                )),
            ));
        }
        let stalls = stalls.get_or_insert_with(|| {
            (1u32..).zip(timestamps.windows(2)).filter(|(_, w)| w.first() >= w.get(1)).map(|(k, _)| k).collect()
        });
        // The first stall after the range's first key; the range holds it if it lies before `end`.
        let after_first = stalls.partition_point(|&k| u64::from(k) <= first);
        if let Some(&k) = stalls.get(after_first)
            && u64::from(k) < end
        {
            return Err(custom(
                pos + 12,
                ReadErrorKind::Invalid(format!(
                    "range {s}: key {k} does not come after key {} in time",
                    u64::from(k) - 1
                )),
            ));
        }
    }
    Ok(())
}

fn count_mismatch(pos: u64, values: usize, keys: usize) -> binrw::Error {
    custom(pos + 20, ReadErrorKind::Invalid(format!("{values} values for {keys} timestamps")))
}

impl<T: Pod> BinRead for Track<T> {
    type Args<'a> = (Ctx,);
    fn read_options<R: Read + Seek>(reader: &mut R, endian: Endian, (ctx,): (Ctx,)) -> BinResult<Self> {
        let pos = reader.stream_position()?;
        let (interpolation, global_sequence) = head(reader, endian, ctx)?;
        let ranges = pod_array(reader, endian, ()).map_err(|e| field(e, "ranges"))?;
        let timestamps: M2Array<u32> = pod_array(reader, endian, ()).map_err(|e| field(e, "timestamps"))?;
        let per_key = values_per_key(interpolation);
        let values: M2Array<T> = pod_keys(reader, endian, (per_key as u64,)).map_err(|e| field(e, "values"))?;
        if values.len() != timestamps.len() * per_key {
            return Err(count_mismatch(pos, values.len() / per_key, timestamps.len()));
        }
        check_ranges(pos, &ranges, &timestamps, ctx.sequences, false)?;
        Ok(Self { interpolation, global_sequence, ranges, timestamps, values })
    }
}

impl<T: Pod> BinRead for SplineTrack<T> {
    type Args<'a> = (Ctx,);
    fn read_options<R: Read + Seek>(reader: &mut R, endian: Endian, (ctx,): (Ctx,)) -> BinResult<Self> {
        let pos = reader.stream_position()?;
        let (interpolation, global_sequence) = head(reader, endian, ctx)?;
        let ranges = pod_array(reader, endian, ()).map_err(|e| field(e, "ranges"))?;
        let timestamps: M2Array<u32> = pod_array(reader, endian, ()).map_err(|e| field(e, "timestamps"))?;
        let values: M2Array<[T; 3]> = pod_array(reader, endian, ()).map_err(|e| field(e, "values"))?;
        if values.len() != timestamps.len() {
            return Err(count_mismatch(pos, values.len(), timestamps.len()));
        }
        check_ranges(pos, &ranges, &timestamps, ctx.sequences, false)?;
        Ok(Self { interpolation, global_sequence, ranges, timestamps, values })
    }
}

impl BinRead for EventTrack {
    type Args<'a> = (Ctx,);
    fn read_options<R: Read + Seek>(reader: &mut R, endian: Endian, (ctx,): (Ctx,)) -> BinResult<Self> {
        let pos = reader.stream_position()?;
        let (interpolation, global_sequence) = head(reader, endian, ctx)?;
        let ranges = pod_array(reader, endian, ()).map_err(|e| field(e, "ranges"))?;
        let timestamps: M2Array<u32> = pod_array(reader, endian, ()).map_err(|e| field(e, "timestamps"))?;
        check_ranges(pos, &ranges, &timestamps, ctx.sequences, true)?;
        Ok(Self { interpolation, global_sequence, ranges, timestamps })
    }
}

impl BinRead for RotationTrack {
    type Args<'a> = (Ctx,);
    fn read_options<R: Read + Seek>(reader: &mut R, endian: Endian, args: (Ctx,)) -> BinResult<Self> {
        if args.0.tbc() {
            Track::read_options(reader, endian, args).map(RotationTrack::Compressed)
        } else {
            Track::read_options(reader, endian, args).map(RotationTrack::Float)
        }
    }
}

/// Names a field of a hand-written reader in the error path, like binrw's derive does.
pub(crate) fn field(error: binrw::Error, name: &str) -> binrw::Error {
    relic_core::binary::in_field(error, name, "Track")
}

// ---------------------------------------------------------------------------------------------
// Writing

/// The fixed part of a track: interpolation, global sequence, and the three `(count, offset)`
/// pairs (ranges, timestamps, values) whose positions go to `pairs` for back-patching.
fn put_track_header(interpolation: u16, global_sequence: i16, out: &mut Out, pairs: &mut Vec<usize>) {
    out.u16(interpolation);
    out.i16(global_sequence);
    pairs.extend([out.pair(), out.pair(), out.pair()]);
}

impl<T: Pod> Track<T> {
    pub(crate) fn put_fixed(&self, out: &mut Out, pairs: &mut Vec<usize>) {
        put_track_header(self.interpolation, self.global_sequence, out, pairs);
    }
    pub(crate) fn put_children(&self, out: &mut Out, pairs: &mut dyn Iterator<Item = usize>) {
        out.pod_block(next(pairs), self.ranges.len(), &self.ranges);
        out.pod_block(next(pairs), self.timestamps.len(), &self.timestamps);
        out.pod_block(next(pairs), self.values.len() / self.per_key(), &self.values);
    }
}

impl<T: Pod> SplineTrack<T> {
    pub(crate) fn put_fixed(&self, out: &mut Out, pairs: &mut Vec<usize>) {
        put_track_header(self.interpolation, self.global_sequence, out, pairs);
    }
    pub(crate) fn put_children(&self, out: &mut Out, pairs: &mut dyn Iterator<Item = usize>) {
        out.pod_block(next(pairs), self.ranges.len(), &self.ranges);
        out.pod_block(next(pairs), self.timestamps.len(), &self.timestamps);
        out.pod_block(next(pairs), self.values.len(), &self.values);
    }
}

impl EventTrack {
    pub(crate) fn put_fixed(&self, out: &mut Out, pairs: &mut Vec<usize>) {
        out.u16(self.interpolation);
        out.i16(self.global_sequence);
        pairs.extend([out.pair(), out.pair()]);
    }
    pub(crate) fn put_children(&self, out: &mut Out, pairs: &mut dyn Iterator<Item = usize>) {
        out.pod_block(next(pairs), self.ranges.len(), &self.ranges);
        out.pod_block(next(pairs), self.timestamps.len(), &self.timestamps);
    }
}

impl RotationTrack {
    pub(crate) fn put_fixed(&self, out: &mut Out, pairs: &mut Vec<usize>) {
        match self {
            RotationTrack::Float(t) => t.put_fixed(out, pairs),
            RotationTrack::Compressed(t) => t.put_fixed(out, pairs),
        }
    }
    pub(crate) fn put_children(&self, out: &mut Out, pairs: &mut dyn Iterator<Item = usize>) {
        match self {
            RotationTrack::Float(t) => t.put_children(out, pairs),
            RotationTrack::Compressed(t) => t.put_children(out, pairs),
        }
    }

    /// Interpolation, global sequence, ranges and timestamps (shared by both value types).
    pub fn head(&self) -> (u16, i16, &[[u32; 2]], &[u32]) {
        match self {
            RotationTrack::Float(t) => (t.interpolation, t.global_sequence, &t.ranges, &t.timestamps),
            RotationTrack::Compressed(t) => (t.interpolation, t.global_sequence, &t.ranges, &t.timestamps),
        }
    }

    /// The stored values decoded to float quaternions `(x, y, z, w)` (not renormalised).
    pub fn float_values(&self) -> Vec<[f32; 4]> {
        match self {
            RotationTrack::Float(t) => t.values.items.clone(),
            RotationTrack::Compressed(t) => t.values.iter().map(|q| decode_quat(*q)).collect(),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Compressed quaternions (spec §8)

/// Decodes one int16 quaternion component: excess-32767 on the unsigned value,
/// `f = (v < 0 ? v + 32768 : v − 32767) / 32767`. Identity is `(32767, 32767, 32767, −1)`.
/// (The seed's `(v > 0 ? v − 32767 : v + 32767) / 32767` is wrong: it maps 0 to +1.)
#[inline]
pub fn decode_component(v: i16) -> f32 {
    let shifted = if v < 0 { i32::from(v) + 32768 } else { i32::from(v) - 32767 };
    shifted as f32 / 32767.0
}

/// Encodes one component (the inverse of [`decode_component`] on every code except −32768, an
/// alias of 0 = code 32767): `f > 0 → round(32767 f) − 32768`, `f ≤ 0 → round(32767 f) + 32767`.
/// Values outside [−1, 1] are clamped.
#[inline]
pub fn encode_component(f: f32) -> i16 {
    let f = if f.is_nan() { 0.0 } else { f.clamp(-1.0, 1.0) };
    let r = (f64::from(f) * 32767.0).round() as i32;
    let v = if f > 0.0 { r - 32768 } else { r + 32767 };
    v.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16
}

/// Decodes a compressed quaternion `(x, y, z, w)`.
#[inline]
pub fn decode_quat(q: [i16; 4]) -> [f32; 4] {
    q.map(decode_component)
}

/// Encodes a quaternion `(x, y, z, w)`.
#[inline]
pub fn encode_quat(q: [f32; 4]) -> [i16; 4] {
    q.map(encode_component)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_and_extremes() {
        assert_eq!(decode_quat([32767, 32767, 32767, -1]), [0.0, 0.0, 0.0, 1.0]);
        assert_eq!(encode_quat([0.0, 0.0, 0.0, 1.0]), [32767, 32767, 32767, -1]);
        assert_eq!(decode_component(0), -1.0);
        assert_eq!(decode_component(-32768), 0.0);
        assert_eq!(encode_component(-1.0), 0);
    }

    /// The full scan `check_ranges` used to make: each range's keys, one after the other.
    fn scan(ranges: &[[u32; 2]], timestamps: &[u32], sequences: u32, half_open: bool) -> Result<(), String> {
        let keys = timestamps.len() as u64;
        for (s, &[first, last]) in ranges.iter().take(sequences as usize).enumerate() {
            let (first, last) = (u64::from(first), u64::from(last));
            let end = if half_open { last } else { last + 1 };
            if first >= end {
                continue;
            }
            if end > keys {
                return Err(format!("range {s} [{first}, "));
            }
            let span = &timestamps[first as usize..end as usize];
            if let Some(k) = span.windows(2).position(|w| w[0] >= w[1]) {
                return Err(format!("range {s}: key {} does not", first + k as u64 + 1));
            }
        }
        Ok(())
    }

    #[test]
    fn range_check_agrees_with_a_full_scan() {
        let mut rng = relic_testkit::Rng::new(7);
        for _ in 0..3000 {
            let n = rng.below(12);
            let mut t = 0u32;
            let timestamps: Vec<u32> = (0..n)
                .map(|_| {
                    t = match rng.below(5) {
                        0 => t,
                        1 => t.saturating_sub(rng.below(3) as u32),
                        _ => t + rng.below(4) as u32 + 1,
                    };
                    t
                })
                .collect();
            let ranges: Vec<[u32; 2]> =
                (0..rng.below(6)).map(|_| [rng.below(n + 2) as u32, rng.below(n + 2) as u32]).collect();
            let sequences = rng.below(7) as u32;
            for half_open in [false, true] {
                let fast = check_ranges(0, &ranges, &timestamps, sequences, half_open)
                    .map_err(|e| relic_core::ReadError::from_binrw(&e, None).to_string());
                let slow = scan(&ranges, &timestamps, sequences, half_open);
                match (&fast, &slow) {
                    (Ok(()), Ok(())) => {}
                    (Err(f), Err(s)) => assert!(f.contains(s.as_str()), "{f} vs {s} ({ranges:?} {timestamps:?})"),
                    _ => panic!("{fast:?} vs {slow:?} ({ranges:?} {timestamps:?} {sequences} {half_open})"),
                }
            }
        }
    }
}
