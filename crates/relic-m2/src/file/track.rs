//! Animated values: the pre-Wrath 28-byte track (interpolation, global sequence, ranges,
//! timestamps, values), which is also the camera spline track (spec §7), and the 20-byte event
//! track without values (spec §4). Rotation tracks change value type with the version ([`RotationTrack`], §8).
//!
//! Every track is checked as it is read: a known interpolation, an existing global sequence, one
//! value (three for Hermite and Bezier) per timestamp, and each sequence's range within the keys
//! with its key times strictly increasing. Each failure names the field and its byte offset.

use std::io::{Read, Seek};

use binrw::{BinRead, BinResult, BinWrite, Endian, binrw};
use bytemuck::Pod;
use relic_core::ReadErrorKind;
use relic_core::error::custom;
use serde::{Deserialize, Serialize};

use super::array::{M2Array, packed, pod_array, pod_keys, write_keys};
use super::ctx::Ctx;
use super::layout::Layout;
use super::quat::decode_quat;
use super::record::{Field, Visitor, Walk};

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

/// Values stored per key of a track: as the interpolation says ([`values_per_key`]), or for a
/// camera spline (`spline`), whose value type holds value, in-tangent and out-tangent, one.
pub(crate) fn stored_per_key(spline: bool, interpolation: u16) -> usize {
    if spline { 1 } else { values_per_key(interpolation) }
}

/// An animated value (`M2Track<T>`, 28 bytes before Wrath); with `SPLINE`, a camera track
/// ([`SplineTrack`]).
#[binrw]
#[brw(little)]
#[br(import(ctx: &Ctx))]
#[bw(import(layout: &Layout))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(bound(deserialize = "T: Pod + Deserialize<'de>"))]
pub struct Track<T: Pod, const SPLINE: bool = false> {
    /// 0 none (step), 1 linear, 2 Hermite, 3 Bezier.
    #[br(parse_with = interpolation)]
    pub interpolation: u16,
    /// Global sequence that drives the track, or −1 for the ordinary sequences.
    #[br(parse_with = global_sequence, args(ctx.global_sequences))]
    pub global_sequence: i16,
    /// One `(first, last)` key range per sequence, inclusive at both ends, plus a `(0, 0)`
    /// terminator; empty for a constant or global-sequence track.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    #[serde(with = "packed")]
    pub ranges: M2Array<[u32; 2]>,
    /// Key times in milliseconds on the one timeline all sequences share.
    #[br(parse_with = timestamps, args(&ranges, ctx.sequences))]
    #[bw(args(layout))]
    #[serde(with = "packed")]
    pub timestamps: M2Array<u32>,
    /// Key values: one per key, or three per key (value, in-tangent, out-tangent) for Hermite and
    /// Bezier tracks; a spline's value holds the three, one per key whatever the interpolation.
    /// The stored count is the number of keys.
    #[br(parse_with = key_values, args(stored_per_key(SPLINE, interpolation), timestamps.len()))]
    #[bw(write_with = write_keys, args(layout, stored_per_key(SPLINE, *interpolation)))]
    #[serde(with = "packed")]
    pub values: M2Array<T>,
}

/// A camera track: every key is a spline key (value, in-tangent, out-tangent) whatever the
/// interpolation (measured on the real file: a one-key position block spans 36 bytes).
pub type SplineTrack<T> = Track<[T; 3], true>;

impl<T: Pod, const SPLINE: bool> Default for Track<T, SPLINE> {
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

impl<T: Pod, const SPLINE: bool> Track<T, SPLINE> {
    /// Values stored per key.
    pub fn per_key(&self) -> usize {
        stored_per_key(SPLINE, self.interpolation)
    }
    /// True if the track has no key.
    pub fn is_empty(&self) -> bool {
        self.timestamps.is_empty()
    }
}

/// Three blocks: ranges, timestamps, values.
impl<T: Pod, const SPLINE: bool> Walk for Track<T, SPLINE> {
    fn walk<'f, V: Visitor<'f>>(&'f self, name: &'static str, v: &mut V) {
        // Most tracks of a real file have no key at all: one call instead of three (unless an
        // empty array was read with an offset, which the layout kept writes back).
        let (ranges, times, values) = (&self.ranges, &self.timestamps, &self.values);
        if ranges.is_empty()
            && times.is_empty()
            && values.is_empty()
            && ranges.offset | times.offset | values.offset == 0
        {
            return v.empty(3);
        }
        v.pod(Field::part(name, "ranges"), &self.ranges);
        v.pod(Field::part(name, "timestamps"), &self.timestamps);
        v.pod(Field::part(name, "values"), &self.values);
    }
}

/// An event's firing times (`M2TrackBase`, 20 bytes before Wrath): a track without values.
#[binrw]
#[brw(little)]
#[br(import(ctx: &Ctx))]
#[bw(import(layout: &Layout))]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct EventTrack {
    /// Interpolation type (0 in every known file; unused).
    #[br(parse_with = interpolation)]
    pub interpolation: u16,
    /// Global sequence or −1.
    #[br(parse_with = global_sequence, args(ctx.global_sequences))]
    pub global_sequence: i16,
    /// One `(first, end)` range per sequence, **half-open** (`end` excluded; measured on the real
    /// 1.12 file: an event of one time has `(k, k + 1)`, a sequence without one `(k, k)`), plus a
    /// `(0, 0)` terminator.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    #[serde(with = "packed")]
    pub ranges: M2Array<[u32; 2]>,
    /// Firing times in milliseconds on the shared timeline. Read as stored, neither checked
    /// against the ranges nor for order: the game loads event tracks whose ranges point past the
    /// keys or whose times go back (issue 39 class 3; `tolerated` notes them, mapping takes what
    /// lies within the keys).
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    #[serde(with = "packed")]
    pub timestamps: M2Array<u32>,
}

/// Two blocks: ranges, timestamps.
impl Walk for EventTrack {
    fn walk<'f, V: Visitor<'f>>(&'f self, name: &'static str, v: &mut V) {
        v.pod(Field::part(name, "ranges"), &self.ranges);
        v.pod(Field::part(name, "timestamps"), &self.timestamps);
    }
}

/// A bone rotation track: 4×f32 quaternions up to 259, compressed 4×i16 from 260 (spec §8).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, BinWrite)]
#[bw(little, import(layout: &Layout))]
pub enum RotationTrack {
    /// Classic: `(x, y, z, w)` floats.
    Float(#[bw(args(layout))] Track<[f32; 4]>),
    /// The Burning Crusade: `(x, y, z, w)` as excess-32767 int16 codes
    /// ([`decode_component`](super::decode_component)).
    Compressed(#[bw(args(layout))] Track<[i16; 4]>),
}

impl Default for RotationTrack {
    fn default() -> Self {
        RotationTrack::Float(Track::default())
    }
}

/// Reads the variant the version names.
///
/// Hand-written because binrw's enum reading tries each variant in turn and replaces a failing
/// variant's error (an out-of-range key, say) with a list of every variant's error; here the
/// version alone decides, so the track's own error is kept.
impl BinRead for RotationTrack {
    type Args<'a> = (&'a Ctx,);
    fn read_options<R: Read + Seek>(reader: &mut R, endian: Endian, args: (&Ctx,)) -> BinResult<Self> {
        if args.0.tbc() {
            Track::read_options(reader, endian, args).map(RotationTrack::Compressed)
        } else {
            Track::read_options(reader, endian, args).map(RotationTrack::Float)
        }
    }
}

impl RotationTrack {
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

/// The three blocks of the track the version names.
impl Walk for RotationTrack {
    fn walk<'f, V: Visitor<'f>>(&'f self, name: &'static str, v: &mut V) {
        match self {
            RotationTrack::Float(t) => t.walk(name, v),
            RotationTrack::Compressed(t) => t.walk(name, v),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Field readers with the checks

/// `parse_with` reader of the interpolation: 0–3.
pub(crate) fn interpolation<R: Read + Seek>(reader: &mut R, endian: Endian, _: ()) -> BinResult<u16> {
    let pos = reader.stream_position()?;
    let interpolation = u16::read_options(reader, endian, ())?;
    if interpolation > INTERPOLATION_BEZIER {
        return Err(custom(pos, ReadErrorKind::Invalid(format!("unknown interpolation type {interpolation}"))));
    }
    Ok(interpolation)
}

/// `parse_with` reader of the global sequence: −1 or one of the file's `global_sequences`.
pub(crate) fn global_sequence<R: Read + Seek>(
    reader: &mut R,
    endian: Endian,
    (global_sequences,): (u32,),
) -> BinResult<i16> {
    let pos = reader.stream_position()?;
    let global_sequence = i16::read_options(reader, endian, ())?;
    if global_sequence < -1 || (global_sequence >= 0 && global_sequence as u32 >= global_sequences) {
        return Err(custom(
            pos,
            ReadErrorKind::Invalid(format!(
                "global sequence {global_sequence} does not exist ({global_sequences} in the file)"
            )),
        ));
    }
    Ok(global_sequence)
}

/// `parse_with` reader of the timestamps, which checks the ranges read before them against them.
fn timestamps<R: Read + Seek>(
    reader: &mut R,
    endian: Endian,
    (ranges, sequences): (&[[u32; 2]], u32),
) -> BinResult<M2Array<u32>> {
    let pos = reader.stream_position()?;
    let timestamps: M2Array<u32> = pod_array(reader, endian, ())?;
    // The ranges' pair lies just before the timestamps' pair.
    check_ranges(pos.saturating_sub(8), pos, ranges, &timestamps, sequences)?;
    Ok(timestamps)
}

/// `parse_with` reader of key values: `per_key` values for each of the `keys` timestamps.
fn key_values<R: Read + Seek, T: Pod>(
    reader: &mut R,
    endian: Endian,
    (per_key, keys): (usize, usize),
) -> BinResult<M2Array<T>> {
    let pos = reader.stream_position()?;
    let values: M2Array<T> = pod_keys(reader, endian, (per_key as u64,))?;
    if values.len() != keys.saturating_mul(per_key) {
        let message = format!("{} values for {keys} timestamps", values.len() / per_key.max(1));
        return Err(custom(pos, ReadErrorKind::Invalid(message)));
    }
    Ok(values)
}

/// Checks a track's ranges (inclusive: `[first, last]`) against the keys: each sequence's range
/// lies within the keys and its key times strictly increase. `ranges_at` and `timestamps_at` are the pairs' positions (for errors).
///
/// Ranges may overlap (sequences share keys), so scanning each range's keys costs sequences ×
/// keys: 20 000 sequences sharing one 100 000-key range made 2·10⁹ comparisons. Instead the keys
/// that do not come after their predecessor ("stalls") are listed once, in order, and a range is
/// increasing exactly when no stall lies after its first key and within it: one binary search per
/// range.
fn check_ranges(
    ranges_at: u64,
    timestamps_at: u64,
    ranges: &[[u32; 2]],
    timestamps: &[u32],
    sequences: u32,
) -> BinResult<()> {
    let keys = timestamps.len() as u64;
    // Index k of every key with timestamps[k − 1] >= timestamps[k]; built at the first non-empty range.
    let mut stalls: Option<Vec<u32>> = None;
    for (s, range) in ranges.iter().take(sequences as usize).enumerate() {
        let [first, last] = *range;
        let (first, last) = (u64::from(first), u64::from(last));
        let end = last + 1;
        if first >= end {
            continue; // no key for this sequence
        }
        if end > keys {
            return Err(custom(
                ranges_at,
                ReadErrorKind::Invalid(format!("range {s} [{first}, {last}] points past the {keys} keys")),
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
                timestamps_at,
                ReadErrorKind::Invalid(format!(
                    "range {s}: key {k} does not come after key {} in time",
                    u64::from(k) - 1
                )),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The full scan `check_ranges` used to make: each range's keys, one after the other.
    fn scan(ranges: &[[u32; 2]], timestamps: &[u32], sequences: u32) -> Result<(), String> {
        let keys = timestamps.len() as u64;
        for (s, &[first, last]) in ranges.iter().take(sequences as usize).enumerate() {
            let (first, last) = (u64::from(first), u64::from(last));
            let end = last + 1;
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
            let fast = check_ranges(0, 0, &ranges, &timestamps, sequences)
                .map_err(|e| relic_core::ReadError::from_binrw(&e, None).to_string());
            let slow = scan(&ranges, &timestamps, sequences);
            match (&fast, &slow) {
                (Ok(()), Ok(())) => {}
                (Err(f), Err(s)) => assert!(f.contains(s.as_str()), "{f} vs {s} ({ranges:?} {timestamps:?})"),
                _ => panic!("{fast:?} vs {slow:?} ({ranges:?} {timestamps:?} {sequences})"),
            }
        }
    }
}
