//! The NAD v3 file layer: one clip of keyframe animation for a NOD, bound by bone index (spec §4).
//!
//! ```text
//! Version u32 = 3 · NumBoneTracks u32 · Flags u32 · Duration f32 (frames)
//! BoneTrack × NumBoneTracks: NumKeys u32 · BoneNum u32 · TrackType u32 · Key (56 bytes) × NumKeys
//! NumTags u32 · Tag (f32 frame, u32 type) × NumTags       — end of file
//! ```
//!
//! Little-endian and packed. A key is 56 bytes (the SDK's 52 plus `FrameScale` after `Frame`).
//! [`parse_nad`] refuses track types other than 0–2, bone numbers of 64 or more, and bytes after
//! the tag list. Key order, frame scales and curve continuity are checked where the keys become
//! the common model's channels ([`crate::anim`]) and reported by the corpus checks.

use binrw::{BinRead, BinResult, binrw};
use bytemuck::{Pod, Zeroable};
use relic_core::binary::{ByteWriter, counted, parse, pod_vec, remaining};
use relic_core::error::{custom, fit};
use relic_core::{ReadError, ReadErrorKind, WriteError};

use crate::nod::write_slice;
use crate::options::{MAX_BONES, NAD_VERSION, NOD_VERSION};

/// Size of the file header.
pub const HEADER_SIZE: u64 = 16;
/// Size of a track header (before its keys).
pub const TRACK_HEADER_SIZE: u64 = 12;
/// Size of a key.
pub const KEY_SIZE: u64 = 56;
/// Size of a tag.
pub const TAG_SIZE: u64 = 8;

/// Track type 0: Euler rotation (angles about X, Y, Z).
pub const TRACK_ROTATION: u32 = 0;
/// Track type 1: local translation.
pub const TRACK_TRANSLATION: u32 = 1;
/// Track type 2: scale ("currently not supported by the engine").
pub const TRACK_SCALE: u32 = 2;

/// Tag names by type (spec §4), as events carry them.
pub const TAG_NAMES: [&str; 19] = [
    "Lwalk",
    "Rwalk",
    "Lrun",
    "Rrun",
    "Fire",
    "Strike",
    "Cast",
    "Fall",
    "Project",
    "Flap",
    "Suck",
    "Idle",
    "Idle2",
    "Codex1",
    "Codex2",
    "Codex3",
    "Repeat",
    "RepeatTo",
    "Throwdeath",
];

/// The name of a tag type (`tag_<n>` for types the spec does not list).
pub fn tag_name(tag_type: u32) -> String {
    usize::try_from(tag_type)
        .ok()
        .and_then(|t| TAG_NAMES.get(t))
        .map_or_else(|| format!("tag_{tag_type}"), |n| (*n).to_string())
}

/// The tag type of a name (case-insensitive; `tag_<n>` too).
pub fn tag_type(name: &str) -> Option<u32> {
    if let Some(i) = TAG_NAMES.iter().position(|n| n.eq_ignore_ascii_case(name)) {
        return u32::try_from(i).ok();
    }
    name.strip_prefix("tag_").and_then(|n| n.parse().ok())
}

/// A whole NAD v3 file.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq)]
pub struct NadFile {
    /// Format version: 3. Every other version is refused.
    #[br(parse_with = nad_version)]
    pub version: u32,
    #[br(temp)]
    #[bw(calc = tracks.len() as u32)]
    num_tracks: u32,
    /// "Specific animation behaviour flags"; meaning unknown (S4 writes 0). Kept as stored.
    pub flags: u32,
    /// Length of the clip in frames (30 per second).
    pub duration: f32,
    /// One track per animated property of a bone, in any order.
    #[br(parse_with = counted, args(u64::from(num_tracks), TRACK_HEADER_SIZE))]
    pub tracks: Vec<NadTrack>,
    #[br(temp)]
    #[bw(calc = tags.len() as u32)]
    num_tags: u32,
    /// Timed events (footsteps, hits, script callbacks).
    #[br(parse_with = pod_vec, args(u64::from(num_tags)))]
    #[bw(write_with = write_slice)]
    pub tags: Vec<NadTag>,
    #[br(temp, parse_with = end_of_file)]
    #[bw(ignore)]
    end: (),
}

/// One bone track.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq)]
pub struct NadTrack {
    #[br(temp)]
    #[bw(calc = keys.len() as u32)]
    num_keys: u32,
    /// The animated bone (index into the NOD's bones, below 64).
    #[br(parse_with = track_bone)]
    pub bone: u32,
    /// 0 rotation (Euler angles), 1 translation, 2 scale.
    #[br(parse_with = track_type)]
    pub track_type: u32,
    /// Keys in ascending frame order.
    #[br(parse_with = pod_vec, args(u64::from(num_keys)))]
    #[bw(write_with = write_slice)]
    pub keys: Vec<NadKey>,
}

/// One key: the value at `frame` and the cubic that runs from it to the next key, 56 bytes.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct NadKey {
    /// Frame number (30 per second; fractional allowed).
    pub frame: f32,
    /// `1 / (next.frame − frame)`: turns frames into the segment parameter s ∈ [0, 1); +∞ on the
    /// last key of a track.
    pub frame_scale: f32,
    /// Absolute local value: position, scale, or Euler angles about X, Y, Z.
    pub value: [f32; 3],
    /// CFactor: with the default [`crate::options::Polynomial`], the coefficient of s.
    pub c: [f32; 3],
    /// BFactor: the coefficient of s².
    pub b: [f32; 3],
    /// AFactor: with the default polynomial, the coefficient of s³.
    pub a: [f32; 3],
}

/// A timed event.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct NadTag {
    /// Frame number.
    pub frame: f32,
    /// Type, see [`TAG_NAMES`].
    pub tag_type: u32,
}

impl NadFile {
    /// Total number of keys.
    pub fn key_count(&self) -> usize {
        self.tracks.iter().map(|t| t.keys.len()).sum()
    }

    /// File offset of track `t`'s header.
    pub fn track_offset(&self, t: usize) -> u64 {
        HEADER_SIZE
            + self.tracks.iter().take(t).map(|tr| TRACK_HEADER_SIZE + KEY_SIZE * tr.keys.len() as u64).sum::<u64>()
    }

    /// File offset of key `k` of track `t`.
    pub fn key_offset(&self, t: usize, k: usize) -> u64 {
        self.track_offset(t) + TRACK_HEADER_SIZE + KEY_SIZE * k as u64
    }

    /// File offset of tag `i`.
    pub fn tag_offset(&self, i: usize) -> u64 {
        self.track_offset(self.tracks.len()) + 4 + TAG_SIZE * i as u64
    }

    /// Size of the file this value writes.
    pub fn size(&self) -> u64 {
        self.track_offset(self.tracks.len()) + 4 + TAG_SIZE * self.tags.len() as u64
    }

    /// Writes the file; refuses counts that do not fit, bone numbers of 64 or more and unknown
    /// track types.
    pub fn to_bytes(&self) -> Result<Vec<u8>, WriteError> {
        if self.version != NAD_VERSION {
            return Err(WriteError::Unsupported(format!(
                "NAD version {} cannot be written; relic-nod writes version {NAD_VERSION}",
                self.version
            )));
        }
        fit::<u32>("tracks", self.tracks.len(), "u32")?;
        fit::<u32>("tags", self.tags.len(), "u32")?;
        for (i, t) in self.tracks.iter().enumerate() {
            fit::<u32>(&format!("tracks[{i}].keys"), t.keys.len(), "u32")?;
            if t.bone as usize >= MAX_BONES || t.track_type > TRACK_SCALE {
                return Err(WriteError::Unsupported(format!(
                    "tracks[{i}]: bone {} / type {} (bones below {MAX_BONES}, types 0–2)",
                    t.bone, t.track_type
                )));
            }
        }
        let mut out = ByteWriter::with_capacity(usize::try_from(self.size()).unwrap_or(0));
        binrw::BinWrite::write_le(self, &mut out).map_err(|e| WriteError::from_binrw(&e))?;
        Ok(out.into_bytes())
    }
}

/// Parses a NAD v3 file.
pub fn parse_nad(bytes: &[u8]) -> Result<NadFile, ReadError> {
    parse(bytes, |s| NadFile::read(s))
}

#[binrw::parser(reader, endian)]
fn nad_version() -> BinResult<u32> {
    let pos = reader.stream_position()?;
    let version = u32::read_options(reader, endian, ())?;
    if version != NAD_VERSION {
        let reason = if version == NOD_VERSION {
            "this is a NOD model (version 7), not a NAD animation".to_string()
        } else {
            format!("relic-nod reads NAD version {NAD_VERSION} (Vampire: The Masquerade – Redemption)")
        };
        return Err(custom(pos, ReadErrorKind::UnsupportedVersion { version, reason }));
    }
    Ok(version)
}

#[binrw::parser(reader, endian)]
fn track_bone() -> BinResult<u32> {
    let pos = reader.stream_position()?;
    let bone = u32::read_options(reader, endian, ())?;
    if bone as usize >= MAX_BONES {
        return Err(custom(
            pos,
            ReadErrorKind::Invalid(format!("bone {bone}; a NOD has at most {MAX_BONES} bones (0–63)")),
        ));
    }
    Ok(bone)
}

#[binrw::parser(reader, endian)]
fn track_type() -> BinResult<u32> {
    let pos = reader.stream_position()?;
    let kind = u32::read_options(reader, endian, ())?;
    if kind > TRACK_SCALE {
        return Err(custom(
            pos,
            ReadErrorKind::Invalid(format!("track type {kind}; known are 0 rotation, 1 translation, 2 scale")),
        ));
    }
    Ok(kind)
}

#[binrw::parser(reader)]
fn end_of_file() -> BinResult<()> {
    let pos = reader.stream_position()?;
    match remaining(reader)? {
        0 => Ok(()),
        n => Err(custom(pos, ReadErrorKind::TrailingBytes(n))),
    }
}

/// Counts of a NAD, found by walking its structure without allocating.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NadCounts {
    /// Tracks.
    pub tracks: u64,
    /// Keys over all tracks.
    pub keys: u64,
    /// Tags.
    pub tags: u64,
}

/// Walks a NAD's structure (version 3, every track header plausible, the tag list ending exactly
/// at the end of the bytes) without allocating; `None` if anything does not fit.
pub fn peek_nad(bytes: &[u8]) -> Option<NadCounts> {
    let u32_at = |at: u64| {
        let at = usize::try_from(at).ok()?;
        bytes.get(at..at.checked_add(4)?).and_then(|b| b.try_into().ok()).map(u32::from_le_bytes)
    };
    let len = bytes.len() as u64;
    if u32_at(0)? != NAD_VERSION {
        return None;
    }
    let tracks = u64::from(u32_at(4)?);
    if !f32::from_bits(u32_at(12)?).is_finite() {
        return None;
    }
    let mut pos = HEADER_SIZE;
    let mut keys = 0u64;
    for _ in 0..tracks {
        let n = u64::from(u32_at(pos)?);
        let bone = u32_at(pos + 4)?;
        let kind = u32_at(pos + 8)?;
        if bone as usize >= MAX_BONES || kind > TRACK_SCALE {
            return None;
        }
        pos = pos.checked_add(TRACK_HEADER_SIZE)?.checked_add(n.checked_mul(KEY_SIZE)?)?;
        if pos > len {
            return None;
        }
        keys += n;
    }
    let tags = u64::from(u32_at(pos)?);
    let end = pos.checked_add(4)?.checked_add(tags.checked_mul(TAG_SIZE)?)?;
    (end == len).then_some(NadCounts { tracks, keys, tags })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_tags() {
        assert_eq!(size_of::<NadKey>() as u64, KEY_SIZE);
        assert_eq!(size_of::<NadTag>() as u64, TAG_SIZE);
        assert_eq!(tag_name(4), "Fire");
        assert_eq!(tag_name(40), "tag_40");
        assert_eq!(tag_type("strike"), Some(5));
        assert_eq!(tag_type("tag_40"), Some(40));
        assert_eq!(tag_type("jump"), None);
    }
}
