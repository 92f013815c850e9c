//! The whole NAD v3 file: one clip of keyframe animation for a NOD, bound by bone index (spec §4).
//!
//! ```text
//! Version u32 = 3 · NumBoneTracks u32 · Flags u32 · Duration f32 (frames)
//! BoneTrack × NumBoneTracks: NumKeys u32 · BoneNum u32 · TrackType u32 · Key (56 bytes) × NumKeys
//! NumTags u32 · Tag (f32 frame, u32 type) × NumTags       — end of file
//! ```
//!
//! Little-endian and packed. A key is 56 bytes (the SDK's 52 plus `FrameScale` after `Frame`).
//! Parsing refuses track types other than 0–2, bone numbers of 64 or more, and bytes after the
//! tag list. Key order, frame scales and curve continuity are checked where the keys become the
//! common model's channels (`crate::validate`).

use binrw::{BinRead, BinResult, binrw};
use bytemuck::{Pod, Zeroable};
use relic_core::binary::{ByteWriter, counted, parse, pod_vec, remaining};
use relic_core::error::{custom, fit};
use relic_core::{ReadError, ReadErrorKind, WriteError};

use super::{KEY_SIZE, NadTrack, TRACK_HEADER_SIZE, TRACK_SCALE, write_slice};

thread_local! {
    /// Earlier tracks summed by [`NadFile::track_offset`] on this thread.
    static TRACKS_SUMMED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}
use crate::options::{MAX_BONES, NAD_VERSION, NOD_VERSION};

/// Size of the file header.
pub const HEADER_SIZE: u64 = 16;
/// Size of a tag.
pub const TAG_SIZE: u64 = 8;

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
pub(crate) fn tag_name(tag_type: u32) -> String {
    usize::try_from(tag_type)
        .ok()
        .and_then(|t| TAG_NAMES.get(t))
        .map_or_else(|| format!("tag_{tag_type}"), |n| (*n).to_string())
}

/// The tag type of a name (case-insensitive; `tag_<n>` too).
pub(crate) fn tag_type(name: &str) -> Option<u32> {
    if let Some(i) = TAG_NAMES.iter().position(|n| n.eq_ignore_ascii_case(name)) {
        return u32::try_from(i).ok();
    }
    name.strip_prefix("tag_").and_then(|n| n.parse().ok())
}

/// A whole NAD v3 file.
///
/// The custom parsers (`parse_with`) exist only to report a refused value at its own offset:
/// binrw's `assert` reports the start of the struct instead.
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

/// A timed event. A plain record: read and written in bulk.
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
        TRACKS_SUMMED.with(|n| n.set(n.get().saturating_add(t as u64)));
        HEADER_SIZE
            + self.tracks.iter().take(t).map(|tr| TRACK_HEADER_SIZE + KEY_SIZE * tr.keys.len() as u64).sum::<u64>()
    }

    /// Test support: how many earlier tracks [`track_offset`](Self::track_offset) (and so every
    /// key and tag offset) has summed on this thread so far. The offsets an error would name are
    /// computed only for that error; a test asserts this count where it once asserted a time,
    /// so that checking a file of many tracks stays linear.
    #[doc(hidden)]
    pub fn tracks_summed() -> u64 {
        TRACKS_SUMMED.with(std::cell::Cell::get)
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
    fn size(&self) -> u64 {
        self.track_offset(self.tracks.len()) + 4 + TAG_SIZE * self.tags.len() as u64
    }

    /// Writes the file; refuses counts that do not fit, bone numbers of 64 or more and unknown
    /// track types.
    pub(crate) fn to_bytes(&self) -> Result<Vec<u8>, WriteError> {
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
        // A capacity hint only (0 where usize cannot hold the size: the writer grows).
        let mut out = ByteWriter::with_capacity(usize::try_from(self.size()).unwrap_or(0));
        binrw::BinWrite::write_le(self, &mut out).map_err(|e| WriteError::from_binrw(&e))?;
        Ok(out.into_bytes())
    }
}

/// Parses a NAD v3 file.
pub(crate) fn parse_nad(bytes: &[u8]) -> Result<NadFile, ReadError> {
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

#[binrw::parser(reader)]
fn end_of_file() -> BinResult<()> {
    let pos = reader.stream_position()?;
    match remaining(reader)? {
        0 => Ok(()),
        n => Err(custom(pos, ReadErrorKind::TrailingBytes(n))),
    }
}

/// Walks a NAD's structure (version 3, every track header plausible, the tag list ending exactly
/// at the end of the bytes) without allocating.
pub(crate) fn peek_nad(bytes: &[u8]) -> bool {
    let u32_at = |at: u64| {
        let at = usize::try_from(at).ok()?;
        bytes.get(at..at.checked_add(4)?).and_then(|b| b.try_into().ok()).map(u32::from_le_bytes)
    };
    let walk = || -> Option<bool> {
        let len = bytes.len() as u64;
        if u32_at(0)? != NAD_VERSION || !f32::from_bits(u32_at(12)?).is_finite() {
            return Some(false);
        }
        let mut pos = HEADER_SIZE;
        for _ in 0..u32_at(4)? {
            let n = u64::from(u32_at(pos)?);
            let (bone, kind) = (u32_at(pos + 4)?, u32_at(pos + 8)?);
            if bone as usize >= MAX_BONES || kind > TRACK_SCALE {
                return Some(false);
            }
            pos = pos.checked_add(TRACK_HEADER_SIZE)?.checked_add(n.checked_mul(KEY_SIZE)?)?;
            if pos > len {
                return Some(false);
            }
        }
        let tags = u64::from(u32_at(pos)?);
        Some(pos.checked_add(4)?.checked_add(tags.checked_mul(TAG_SIZE)?)? == len)
    };
    walk().unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::file::NadKey;

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
