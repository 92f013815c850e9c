//! The file layer: binrw types, one struct per record in file order, for both families.
//!
//! | family | versions | whole file | sections |
//! |---|---|---|---|
//! | v6 ("MonolithExport Model File v6") | 6 | [`V6File`] | [`V6Header`], [`Geometry`], [`V6Nodes`], [`V6Animations`], [`AnimDims`], [`TransformInfo`] |
//! | NOLF era | 9–13 | [`V12File`] | [`Header`], [`Pieces`], [`Nodes`], [`ChildModels`], [`Animations`], [`Sockets`], [`AnimBindings`] |
//!
//! Sections are walked by their next-offsets and must end exactly where the next begins; unknown
//! sections are kept ([`UnknownSection`]). Writing a parsed file gives the same bytes; counts are
//! recomputed from the data.

mod animation;
mod child_models;
pub(crate) mod common;
mod header;
pub(crate) mod nodes;
mod pieces;
pub(crate) mod sections;
mod sockets;
pub(crate) mod v12;
pub(crate) mod v6;

pub use animation::{Animation, Animations, KeyCountForm, Keyframe, Tracks, V13Key, V13Track};
pub use child_models::{ChildModel, ChildModels, SelfEntry};
pub use common::{NodeKey, UnknownSection};
pub(crate) use header::lod_distance;
pub use header::{Header, HeaderCounts};
pub use nodes::{Node, Nodes, WeightSet};
pub use pieces::{Face, FaceCorner, Piece, PieceLod, Pieces, Vertex, Weight};
pub use sockets::{AnimBinding, AnimBindingGroup, AnimBindings, Socket, Sockets};
pub use v6::{
    AnimDims, Geometry, TransformInfo, Triangle, V6Animation, V6Animations, V6File, V6Header, V6Keyframe, V6Node,
    V6NodeAnim, V6Nodes, V6SectionId, V6Vertex,
};
pub use v12::{SectionId, V12File};

/// A parsed ABC file of either family.
#[derive(Debug, Clone, PartialEq)]
pub enum AbcFile {
    /// "MonolithExport Model File v6" (Shogo, Blood 2).
    V6(V6File),
    /// Versions 9–13 (No One Lives Forever, Aliens vs Predator 2).
    V12(V12File),
}

impl AbcFile {
    /// The file's version (6 for the v6 family).
    pub fn version(&self) -> u32 {
        match self {
            AbcFile::V6(_) => 6,
            AbcFile::V12(f) => f.header.version,
        }
    }
}

/// What the first bytes say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Family {
    /// v6 (identified by its file token).
    V6,
    /// The version number stored after the section header.
    Numbered(u32),
}

/// Reads the family from the first bytes: `u16 6, "Header", i32 next`, then the v6 token or the
/// version. `None` if this is not a LithTech ABC file.
pub(crate) fn family(bytes: &[u8]) -> Option<Family> {
    if bytes.get(..8)? != b"\x06\x00Header" {
        return None;
    }
    let token_len = bytes.get(12..14)?;
    if token_len == [28, 0] && bytes.get(14..42) == Some(v6::FILE_TOKEN) {
        return Some(Family::V6);
    }
    let version = u32::from_le_bytes(bytes.get(12..16)?.try_into().ok()?);
    Some(Family::Numbered(version))
}

/// Why a version is not read, or `None` if it is.
pub(crate) fn refusal(version: u32) -> Option<String> {
    match version {
        v if v12::VERSIONS.contains(&v) => None,
        106..=108 => Some(format!(
            "Global Operations ABC (version {version}) changes the header, pieces, vertices and nodes and adds a \
             HitGroups section whose layout no public source settles; relic reads versions 6 and 9–13"
        )),
        _ => Some(format!("relic reads LithTech ABC versions 6 and 9–13, not {version}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_and_refusals() {
        let mut v12 = b"\x06\x00Header\x8a\x00\x00\x00".to_vec();
        v12.extend_from_slice(&12u32.to_le_bytes());
        assert_eq!(family(&v12), Some(Family::Numbered(12)));
        let mut v6 = b"\x06\x00Header\x3b\x00\x00\x00\x1c\x00".to_vec();
        v6.extend_from_slice(v6::FILE_TOKEN);
        assert_eq!(family(&v6), Some(Family::V6));
        assert_eq!(family(b"\x06\x00Header\x00\x00"), None);
        assert!(refusal(12).is_none() && refusal(9).is_none() && refusal(13).is_none());
        assert!(refusal(106).is_some_and(|r| r.contains("Global Operations")));
        assert!(refusal(14).is_some());
    }
}
