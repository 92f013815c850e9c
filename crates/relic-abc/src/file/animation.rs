//! The v9–v13 `Animation` section (abc.md §4.5).
//!
//! **The marker.** After an animation's name comes an `i32` that is −1 in every known v12 file
//! (ABCD calls it `CompressionType`, LTB's slot). S7 reports real v9 and v11 files in which it is
//! the keyframe count instead, and then neither `InterpolationTime` nor `KeyframeCount` follows.
//! The reader honours both forms, for every version 9–13, and keeps the form
//! ([`KeyCountForm`]) so that the writer writes back what it read:
//!
//! | marker | then | form |
//! |---|---|---|
//! | −1 | `InterpolationTime` (v ≥ 12 only), `KeyframeCount` | [`KeyCountForm::AfterMarker`] |
//! | ≥ 0 | the keys (the marker is their count) | [`KeyCountForm::InMarker`] |
//! | < −1 | — | refused, naming the field, its offset and the value |
//!
//! The marker alone decides the layout: −1 cannot be a count that fits (2³² − 1 keys of at least
//! 6 bytes), and no source describes another value followed by the −1 form's fields. A marker
//! read as a count must then fit, and the bytes are the judge: its animation must read, and the
//! section must end exactly at its next-section offset. Otherwise the error names the marker
//! (field path, offset, value) and what did not fit, rather than a symptom further on: the
//! marker of the animation that did not read, or, when the section does not end where it
//! should, the last marker read as a count (a wrong count before it would have misaligned the
//! animations after it).

use std::io::{Read, Seek, SeekFrom};

use binrw::{BinRead, BinResult, binrw};
use bytemuck::{Pod, Zeroable};
use relic_core::ReadError;
use relic_core::binary::{LenString, counted, counted_args, pod_vec, remaining};

use crate::file::common::{NodeKey, at_index, in_field, pods};

/// How an animation states its keyframe count (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum KeyCountForm {
    /// Marker −1, then `InterpolationTime` (v ≥ 12), then `KeyframeCount`: every known v12 file.
    #[default]
    AfterMarker,
    /// The marker is the keyframe count; neither `InterpolationTime` nor `KeyframeCount` follows.
    InMarker,
}

/// `Animation` section body.
#[binrw]
#[brw(little)]
#[br(import(version: u32, node_count: u32))]
#[derive(Debug, Clone, PartialEq)]
pub struct Animations {
    #[br(temp)]
    #[bw(calc = animations.len() as u32)]
    count: u32,
    /// The model's own animations.
    #[br(parse_with = read_animations, args(count, version, node_count))]
    pub animations: Vec<Animation>,
}

/// One animation.
#[binrw]
#[brw(little)]
#[br(import(version: u32, node_count: u32))]
#[derive(Debug, Clone, PartialEq)]
pub struct Animation {
    /// Object half-extents while this animation plays (24, 53, 24 for NOLF humans).
    pub dims: [f32; 3],
    /// Name the game plays it by.
    pub name: LenString,
    #[br(temp, assert(marker >= -1, "marker {} is neither −1 nor a keyframe count", marker))]
    #[bw(calc = self.marker())]
    marker: i32,
    /// Whether the keyframe count follows the marker or is the marker.
    #[br(calc = if marker == -1 { KeyCountForm::AfterMarker } else { KeyCountForm::InMarker })]
    #[bw(ignore)]
    pub key_count_form: KeyCountForm,
    /// v ≥ 12, marker −1: milliseconds to blend into this animation (absent otherwise).
    #[br(if(version >= 12 && marker == -1))]
    pub interpolation_time: Option<u32>,
    #[br(temp, if(marker == -1, marker as u32))]
    #[bw(if(*key_count_form == KeyCountForm::AfterMarker), calc = keyframes.len() as u32)]
    keyframe_count: u32,
    /// Key times and their command strings.
    #[br(parse_with = counted, args(u64::from(keyframe_count), 6))]
    pub keyframes: Vec<Keyframe>,
    /// Per node, one transform per keyframe.
    #[br(args(version, node_count, keyframe_count))]
    pub tracks: Tracks,
}

impl Animation {
    /// The marker as written: −1, or the keyframe count.
    pub fn marker(&self) -> i32 {
        match self.key_count_form {
            KeyCountForm::AfterMarker => -1,
            KeyCountForm::InMarker => self.keyframes.len() as i32,
        }
    }

    /// Bytes from the start of the animation to its marker.
    fn marker_at(&self) -> u64 {
        12 + 2 + self.name.0.len() as u64
    }
}

/// A keyframe: time and command string.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq)]
pub struct Keyframe {
    /// Milliseconds from the start of the animation.
    pub time: u32,
    /// Game event at this key (often empty).
    pub command: LenString,
}

/// The transforms of an animation, node after node in node order, one per keyframe. v9–v12 store
/// the plain 28-byte transforms; v13 puts an `i32` before each node's keys and 8 bytes after
/// each key (abc.md §4.8).
#[binrw]
#[brw(little)]
#[br(import(version: u32, node_count: u32, keys: u32))]
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Tracks {
    /// v9–v12: key `k` of node `n` at `n · keyframe_count + k`; parent-relative, rotation not
    /// conjugated. Empty in v13.
    #[br(if(version < 13), parse_with = pod_vec, args(u64::from(node_count) * u64::from(keys),))]
    #[bw(write_with = pods)]
    pub transforms: Vec<NodeKey>,
    /// v13: one track per node. Empty before v13.
    #[br(if(version >= 13), parse_with = counted_args, args(u64::from(node_count), 4 + 36 * u64::from(keys), (keys,)))]
    pub v13: Vec<V13Track>,
}

impl Tracks {
    /// The keys of node `n`; empty if `n` is not a node of the tracks (a node past the file's
    /// node count has no keys: that is the answer, not a fallback).
    pub fn node(&self, n: usize, keyframe_count: usize) -> Vec<NodeKey> {
        match self.v13.get(n) {
            Some(t) => t.keys.iter().map(|k| k.transform).collect(),
            None => self.transforms.get(n * keyframe_count..(n + 1) * keyframe_count).unwrap_or_default().to_vec(),
        }
    }

    /// Bytes of the tracks as written.
    pub(crate) fn size(&self) -> usize {
        28 * self.transforms.len() + self.v13.iter().map(|t| 4 + 36 * t.keys.len()).sum::<usize>()
    }
}

/// One node's track in a v13 animation.
#[binrw]
#[brw(little)]
#[br(import(keys: u32))]
#[derive(Debug, Clone, PartialEq, Default)]
pub struct V13Track {
    /// The `i32` before the keys (−1 per the sources).
    pub prefix: i32,
    /// The keys.
    #[br(parse_with = pod_vec, args(u64::from(keys),))]
    #[bw(write_with = pods)]
    pub keys: Vec<V13Key>,
}

/// A v13 key: the transform and 8 bytes of unknown meaning (zeros in Global Operations, S11).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default, Pod, Zeroable, serde::Serialize, serde::Deserialize)]
pub struct V13Key {
    /// Parent-relative transform.
    pub transform: NodeKey,
    /// The 8 bytes after it.
    pub extra: [u8; 8],
}

/// The animations, each read by its marker's form; a marker read as a count must fit (see the
/// module documentation).
#[binrw::parser(reader, endian)]
fn read_animations(count: u32, version: u32, node_count: u32) -> BinResult<Vec<Animation>> {
    // The smallest animation: dims, an empty name, a marker that is its key count 0.
    relic_core::binary::check_count(reader, u64::from(count), 18)?;
    let mut out: Vec<Animation> = Vec::with_capacity(count as usize);
    // (index, offset of the marker, marker) of the last animation whose marker is its count: if
    // the section then does not end where it should, that count is the one to doubt (a wrong
    // count before it would have misaligned the animations after it, which then read cleanly).
    let mut last_in_marker: Option<(usize, u64, i32)> = None;
    for i in 0..count as usize {
        let start = reader.stream_position()?;
        match Animation::read_options(reader, endian, (version, node_count)) {
            Ok(a) => {
                if a.key_count_form == KeyCountForm::InMarker {
                    last_in_marker = Some((i, start + a.marker_at(), a.marker()));
                }
                out.push(a);
            }
            Err(e) => {
                let e = match peek_marker(reader, start)? {
                    Some((at, m)) if m < -1 => bad_marker(at, format!("marker {m} is neither −1 nor a keyframe count")),
                    Some((at, m)) if m >= 0 => does_not_fit(at, m, &describe(&ReadError::from_binrw(&e, None))),
                    _ => e,
                };
                return Err(at_index(e, i));
            }
        }
    }
    let left = remaining(reader)?;
    if let (Some((i, at, m)), 1..) = (last_in_marker, left) {
        let why = format!("{left} bytes are left after the last animation");
        return Err(at_index(does_not_fit(at, m, &why), i));
    }
    Ok(out)
}

/// An error's text without its offset (which a nested reader does not know).
fn describe(e: &ReadError) -> String {
    if e.path.is_empty() { e.kind.to_string() } else { format!("{}: {}", e.path, e.kind) }
}

/// Where an animation's marker is and what it holds (`None` if the bytes end before it).
fn peek_marker<R: Read + Seek>(reader: &mut R, start: u64) -> BinResult<Option<(u64, i32)>> {
    reader.seek(SeekFrom::Start(start + 12))?;
    let mut len = [0u8; 2];
    if reader.read_exact(&mut len).is_err() {
        return Ok(None);
    }
    let at = start + 14 + u64::from(u16::from_le_bytes(len));
    reader.seek(SeekFrom::Start(at))?;
    let mut marker = [0u8; 4];
    Ok(reader.read_exact(&mut marker).ok().map(|()| (at, i32::from_le_bytes(marker))))
}

/// The error for a marker read as the keyframe count that does not fit the section.
fn does_not_fit(at: u64, marker: i32, why: &str) -> binrw::Error {
    bad_marker(
        at,
        format!(
            "marker {marker} is neither −1 nor a keyframe count that fits: read as the count, {why} \
             (the count form must end the Animation section exactly at its next-section offset)"
        ),
    )
}

fn bad_marker(at: u64, message: String) -> binrw::Error {
    in_field(crate::file::common::invalid(at, message), "marker")
}
