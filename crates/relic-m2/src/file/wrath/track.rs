//! Animated values from Wrath on (m2-wrath.md §3.1): every track keeps one timeline per sequence
//! — an outer `M2Array` of `(count, offset)` pairs, one per sequence (or one for a global
//! sequence or a constant), each pointing at that timeline's keys. 20 bytes (12 for events).
//!
//! The keys of an external sequence (§3.4) live in its `.anim` file: their offsets count from
//! that file's first byte. The reading context ([`Ctx`]) says which sequences are external and
//! holds their bytes.

use std::io::{Cursor, Read, Seek};

use binrw::{BinResult, Endian, binrw};
use bytemuck::Pod;
use relic_core::ReadErrorKind;
use relic_core::binary::{at_offset, pod_vec};
use relic_core::error::custom;
use serde::{Deserialize, Serialize};

use crate::anim::{AnimPart, Keys, no_part};
use crate::file::array::{M2Array, packed, pod_array};
use crate::file::ctx::Ctx;
use crate::file::layout::Layout;
use crate::file::record::{Field, Visitor, Walk};
use crate::file::track::{global_sequence, interpolation, values_per_key};

/// How a track's values are counted: by its interpolation (1 value per key, 3 for Hermite and
/// Bezier) or always 1 (camera tracks, whose value type already holds the three parts).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PerKey {
    /// As the interpolation says.
    ByInterpolation,
    /// One (spline) value per key whatever the interpolation.
    One,
}

/// A per-sequence track (`M2Track<T>` from Wrath on, 20 bytes); with `SPLINE`, a camera track
/// ([`SeqSplineTrack`]).
#[binrw]
#[brw(little)]
#[br(import(ctx: &Ctx))]
#[bw(import(layout: &Layout))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(bound(deserialize = "T: Pod + Deserialize<'de>"))]
pub struct SeqTrack<T: Pod, const SPLINE: bool = false> {
    /// 0 none (step), 1 linear, 2 Hermite, 3 Bezier.
    #[br(parse_with = interpolation)]
    pub interpolation: u16,
    /// Global sequence driving the track, or −1.
    #[br(parse_with = global_sequence, args(ctx.global_sequences))]
    pub global_sequence: i16,
    /// Key times (milliseconds from the sequence's start), one timeline per sequence (or one for
    /// a global sequence or a constant).
    #[br(parse_with = timelines, args(ctx, 1, None))]
    #[bw(args(layout))]
    #[serde(with = "packed::lists")]
    pub timestamps: M2Array<M2Array<u32>>,
    /// Key values per timeline: one per key, three (value, in-tangent, out-tangent) for Hermite
    /// and Bezier tracks, one for a spline whose value holds the three; the stored counts are
    /// key counts.
    #[br(parse_with = timelines, args(ctx, keys_per_value(PerKey::of(SPLINE), interpolation), Some(&timestamps)))]
    #[bw(args(layout))]
    #[serde(with = "packed::lists")]
    pub values: M2Array<M2Array<T>>,
}

/// A per-sequence camera track (20 bytes): every key is a spline key (value, in-tangent,
/// out-tangent) whatever the interpolation.
pub type SeqSplineTrack<T> = SeqTrack<[T; 3], true>;

/// An event's firing times from Wrath on (12 bytes: a track without values).
#[binrw]
#[brw(little)]
#[br(import(ctx: &Ctx))]
#[bw(import(layout: &Layout))]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct SeqEventTrack {
    /// Interpolation (0 in every known file; unused).
    #[br(parse_with = interpolation)]
    pub interpolation: u16,
    /// Global sequence or −1.
    #[br(parse_with = global_sequence, args(ctx.global_sequences))]
    pub global_sequence: i16,
    /// Firing times per sequence, milliseconds from the sequence's start.
    #[br(parse_with = timelines, args(ctx, 1, None))]
    #[bw(args(layout))]
    #[serde(with = "packed::lists")]
    pub timestamps: M2Array<M2Array<u32>>,
}

impl<T: Pod, const SPLINE: bool> Default for SeqTrack<T, SPLINE> {
    /// No key, interpolation 0, driven by the sequences.
    fn default() -> Self {
        Self { interpolation: 0, global_sequence: -1, timestamps: M2Array::default(), values: M2Array::default() }
    }
}

impl<T: Pod, const SPLINE: bool> SeqTrack<T, SPLINE> {
    /// Values stored per key (3 for Hermite and Bezier unless the value type holds them).
    pub fn per_key(&self, per_key: PerKey) -> usize {
        keys_per_value(per_key, self.interpolation) as usize
    }
}

impl PerKey {
    /// The rule of a camera spline (`spline`) or of any other track.
    const fn of(spline: bool) -> Self {
        if spline { PerKey::One } else { PerKey::ByInterpolation }
    }
}

fn keys_per_value(per_key: PerKey, interpolation: u16) -> u64 {
    match per_key {
        PerKey::One => 1,
        PerKey::ByInterpolation => values_per_key(interpolation) as u64,
    }
}

/// `parse_with` reader of a timeline array: the outer `(count, offset)` pairs, then each
/// timeline's keys — from the `.m2` for sequences kept inside it, from the sequence's `.anim`
/// otherwise. Args: `(ctx, values per counted key, the timestamps when reading values)`: values
/// must have as many timelines, and as many keys in each, as the timestamps.
pub(crate) fn timelines<R: Read + Seek, T: Pod>(
    reader: &mut R,
    endian: Endian,
    (ctx, per_key, times): (&Ctx, u64, Option<&M2Array<M2Array<u32>>>),
) -> BinResult<M2Array<M2Array<T>>> {
    let outer_at = reader.stream_position()?;
    let pairs: M2Array<[u32; 2]> = pod_array(reader, endian, ())?;
    if let Some(times) = times {
        let counts = |t: &M2Array<u32>| t.len() as u64;
        // A timeline of a missing `.anim` was read with no keys (`wrath::read_partial`).
        let missing = |s: usize| matches!(ctx.keys(s), Some(Keys::Missing));
        let shape = pairs.iter().enumerate().map(|(s, p)| if missing(s) { 0 } else { u64::from(p[0]) });
        if times.len() != pairs.len() || !times.iter().map(counts).eq(shape) {
            let message = "values and timestamps differ in their timelines or key counts".to_string();
            return Err(custom(outer_at, ReadErrorKind::Invalid(message)));
        }
    }
    let limit = u64::from(ctx.sequences.max(1));
    if pairs.len() as u64 > limit {
        let message = format!("{} timelines for {} sequences", pairs.len(), ctx.sequences);
        return Err(custom(outer_at, ReadErrorKind::Invalid(message)));
    }
    let mut items = Vec::with_capacity(pairs.len());
    for (s, &[count, offset]) in pairs.iter().enumerate() {
        let pair_at = u64::from(pairs.offset) + 8 * s as u64;
        let n = u64::from(count).saturating_mul(per_key);
        let len = n.saturating_mul(size_of::<T>() as u64);
        let keys = match ctx.keys(s) {
            _ if count == 0 => Vec::new(),
            // The sequence's `.anim` is not beside the model (`wrath::read_partial`): no keys.
            Some(Keys::Missing) => Vec::new(),
            Some(Keys::NoPart(name, part)) => return Err(custom(pair_at, no_part(name, part))),
            Some(Keys::In(blob, name)) => {
                let mut cursor = Cursor::new(blob);
                at_offset(&mut cursor, pair_at, u64::from(offset), len, |r| pod_vec(r, endian, (n,)))
                    .map_err(|e| anim_error(e, s, name, ctx.part))?
            }
            None => at_offset(reader, pair_at, u64::from(offset), len, |r| pod_vec(r, endian, (n,)))?,
        };
        items.push(M2Array { items: keys, offset });
    }
    Ok(M2Array { items, offset: pairs.offset })
}

/// Says that an out-of-bounds offset was one into sequence `s`'s `.anim` file (`name`; the
/// blob of `part` when it is chunked).
fn anim_error(e: binrw::Error, s: usize, name: &str, part: AnimPart) -> binrw::Error {
    let tag = String::from_utf8_lossy(part.tag());
    match e {
        binrw::Error::Custom { pos, err } => match err.downcast::<ReadErrorKind>() {
            Ok(kind) => custom(
                pos,
                ReadErrorKind::Invalid(format!(
                    "in the .anim file of sequence {s} ({name}; offsets from its {tag} blob if chunked): {kind}"
                )),
            ),
            Err(err) => binrw::Error::Custom { pos, err },
        },
        other => other,
    }
}

impl<T: Pod, const SPLINE: bool> SeqTrack<T, SPLINE> {
    /// True if the track has no key in any timeline.
    pub fn is_empty(&self) -> bool {
        self.timestamps.iter().all(|t| t.is_empty())
    }
}

/// Two timeline arrays: timestamps, values.
impl<T: Pod, const SPLINE: bool> Walk for SeqTrack<T, SPLINE> {
    fn walk<'f, V: Visitor<'f>>(&'f self, name: &'static str, v: &mut V) {
        v.timelines(Field::part(name, "timestamps"), &self.timestamps);
        v.timelines(Field::part(name, "values"), &self.values);
    }
}

/// One timeline array: the firing times.
impl Walk for SeqEventTrack {
    fn walk<'f, V: Visitor<'f>>(&'f self, name: &'static str, v: &mut V) {
        v.timelines(Field::part(name, "timestamps"), &self.timestamps);
    }
}
