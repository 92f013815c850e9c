//! The NOLF-era layout, versions 9 to 13 (named after version 12, the one the games ship), as a
//! whole: which sections a file has, in which order, and how they are read and written.
//!
//! Sections in file order: `Header`, `Pieces`, `Nodes`, `ChildModels`, `Animation`, `Sockets`,
//! `AnimBindings` (abc.md §4). Every section but `Header` is optional here; unknown sections are
//! kept. Version differences are visible in the section types: `Piece::lod_weight` (v ≥ 10),
//! `Animation::interpolation_time` (v ≥ 12, marker −1), `Header::v13_unknown` and
//! [`Tracks::v13`](crate::file::Tracks) (v13).

use binrw::{BinRead, BinWrite, Endian};
use relic_core::{ReadError, WriteError};

use crate::file::common::UnknownSection;
use crate::file::sections::{SectionKind, Span, absent, body, walk, write_sections};
use crate::file::{AnimBindings, Animations, ChildModels, Header, Node, Nodes, Piece, Pieces, Sockets};

/// Versions of this family that are read and written.
pub(crate) const VERSIONS: [u32; 5] = [9, 10, 11, 12, 13];

/// A whole v9–v13 file.
#[derive(Debug, Clone, PartialEq)]
pub struct V12File {
    /// `Header` section (always first).
    pub header: Header,
    /// `Pieces` section: the meshes.
    pub pieces: Option<Pieces>,
    /// `Nodes` section: the skeleton and weight sets.
    pub nodes: Option<Nodes>,
    /// `ChildModels` section: this file's save index and the base models it borrows animations from.
    pub child_models: Option<ChildModels>,
    /// `Animation` section: own animations.
    pub animations: Option<Animations>,
    /// `Sockets` section.
    pub sockets: Option<Sockets>,
    /// `AnimBindings` section: per child model, the animations it brings.
    pub anim_bindings: Option<AnimBindings>,
    /// Sections this crate does not know, in the order they appear among `order`.
    pub unknown: Vec<UnknownSection>,
    /// The sections after `Header`, in file order.
    pub order: Vec<SectionId>,
}

impl V12File {
    /// Whether each known section is present, in the standard order.
    pub(crate) fn present_sections(&self) -> [(SectionId, bool); 6] {
        [
            (SectionId::Pieces, self.pieces.is_some()),
            (SectionId::Nodes, self.nodes.is_some()),
            (SectionId::ChildModels, self.child_models.is_some()),
            (SectionId::Animation, self.animations.is_some()),
            (SectionId::Sockets, self.sockets.is_some()),
            (SectionId::AnimBindings, self.anim_bindings.is_some()),
        ]
    }

    /// The nodes. A file without a `Nodes` section has none (the reader accepts such a file, as
    /// it accepts one without `Pieces`: abc.md §2, animation-only and empty models).
    pub(crate) fn node_list(&self) -> &[Node] {
        self.nodes.as_ref().map_or(&[], |n| n.nodes.as_slice())
    }

    /// The pieces; none without a `Pieces` section (see [`Self::node_list`]).
    pub(crate) fn piece_list(&self) -> &[Piece] {
        self.pieces.as_ref().map_or(&[], |p| p.pieces.as_slice())
    }
}

/// A section of a v9–v13 file, for [`V12File::order`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum SectionId {
    /// `Pieces`.
    Pieces,
    /// `Nodes`.
    Nodes,
    /// `ChildModels`.
    ChildModels,
    /// `Animation`.
    Animation,
    /// `Sockets`.
    Sockets,
    /// `AnimBindings`.
    AnimBindings,
    /// An entry of [`V12File::unknown`].
    Unknown(usize),
}

impl SectionId {
    /// The standard order of the known sections.
    pub(crate) const STANDARD: [SectionId; 6] = [
        SectionId::Pieces,
        SectionId::Nodes,
        SectionId::ChildModels,
        SectionId::Animation,
        SectionId::Sockets,
        SectionId::AnimBindings,
    ];
}

impl SectionKind for SectionId {
    fn from_name(name: &[u8]) -> Option<SectionId> {
        SectionId::STANDARD.into_iter().find(|id| id.name().is_some_and(|n| n.as_bytes() == name))
    }

    fn unknown(i: usize) -> Self {
        SectionId::Unknown(i)
    }

    fn unknown_index(self) -> Option<usize> {
        match self {
            SectionId::Unknown(i) => Some(i),
            _ => None,
        }
    }

    fn name(self) -> Option<&'static str> {
        SectionId::name(self)
    }
}

impl SectionId {
    /// The name the file stores for the section (`None` for unknown sections).
    pub fn name(self) -> Option<&'static str> {
        Some(match self {
            SectionId::Pieces => "Pieces",
            SectionId::Nodes => "Nodes",
            SectionId::ChildModels => "ChildModels",
            SectionId::Animation => "Animation",
            SectionId::Sockets => "Sockets",
            SectionId::AnimBindings => "AnimBindings",
            SectionId::Unknown(_) => return None,
        })
    }
}

/// Offsets of the section bodies, for the error offsets of [`crate::validate`].
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct V12Bodies {
    pub(crate) pieces: u64,
    pub(crate) nodes: u64,
    pub(crate) child_models: u64,
    pub(crate) sockets: u64,
}

/// Reads the sections of a v9–v13 file (the version was checked by the caller).
pub(crate) fn read(bytes: &[u8]) -> Result<(V12File, V12Bodies), ReadError> {
    let (mut pieces, mut nodes, mut child_models, mut animations, mut sockets, mut anim_bindings) =
        (None, None, None, None, None, None);
    let mut at = V12Bodies::default();
    let le = Endian::Little;
    let walked = walk::<SectionId, Header>(
        bytes,
        |span| body(bytes, span, |s| Header::read_le(s)),
        |h, id, span: &Span| {
            let (version, node_count, lods) = (h.version, h.counts.node_count, h.counts.lod_count);
            match id {
                SectionId::Pieces => {
                    at.pieces = span.body;
                    pieces = Some(body(bytes, span, |s| Pieces::read_options(s, le, (version, lods)))?);
                }
                SectionId::Nodes => {
                    at.nodes = span.body;
                    nodes = Some(body(bytes, span, |s| Nodes::read_options(s, le, (node_count,)))?);
                }
                SectionId::ChildModels => {
                    at.child_models = span.body;
                    child_models = Some(body(bytes, span, |s| ChildModels::read_options(s, le, (node_count,)))?);
                }
                SectionId::Animation => {
                    animations = Some(body(bytes, span, |s| Animations::read_options(s, le, (version, node_count)))?);
                }
                SectionId::Sockets => {
                    at.sockets = span.body;
                    sockets = Some(body(bytes, span, |s| Sockets::read_le(s))?);
                }
                SectionId::AnimBindings => {
                    let groups = h.counts.child_model_count;
                    anim_bindings = Some(body(bytes, span, |s| AnimBindings::read_options(s, le, (groups,)))?);
                }
                SectionId::Unknown(_) => {}
            }
            Ok(())
        },
    )?;
    let file = V12File {
        header: walked.header,
        pieces,
        nodes,
        child_models,
        animations,
        sockets,
        anim_bindings,
        unknown: walked.unknown,
        order: walked.order,
    };
    Ok((file, at))
}

/// Writes a v9–v13 file whose layout [`crate::validate`] accepted; header counts recomputed.
pub(crate) fn write(file: &V12File) -> Result<Vec<u8>, WriteError> {
    let header = file.recounted_header();
    let le = Endian::Little;
    write_sections(
        file.size(),
        |w| header.write_options(w, le, ()),
        &file.order,
        &file.unknown,
        |id, w| match id {
            SectionId::Pieces => file.pieces.as_ref().ok_or_else(|| absent("Pieces"))?.write_options(w, le, ()),
            SectionId::Nodes => file.nodes.as_ref().ok_or_else(|| absent("Nodes"))?.write_options(w, le, ()),
            SectionId::ChildModels => {
                file.child_models.as_ref().ok_or_else(|| absent("ChildModels"))?.write_options(w, le, ())
            }
            SectionId::Animation => {
                file.animations.as_ref().ok_or_else(|| absent("Animation"))?.write_options(w, le, ())
            }
            SectionId::Sockets => file.sockets.as_ref().ok_or_else(|| absent("Sockets"))?.write_options(w, le, ()),
            SectionId::AnimBindings => {
                file.anim_bindings.as_ref().ok_or_else(|| absent("AnimBindings"))?.write_options(w, le, ())
            }
            SectionId::Unknown(_) => Ok(()),
        },
    )
}

impl V12File {
    /// Bytes of the file as written.
    pub(crate) fn size(&self) -> usize {
        let section = |name: &str| 2 + name.len() + 4;
        let mut n = section("Header") + self.header.size();
        if let Some(p) = &self.pieces {
            n += section("Pieces") + 8;
            n += p.pieces.iter().map(|p| p.head_size() + p.lods.iter().map(|l| l.size()).sum::<usize>()).sum::<usize>();
        }
        if let Some(nodes) = &self.nodes {
            n += section("Nodes") + 4 + nodes.nodes.iter().map(|n| n.size()).sum::<usize>();
            n += nodes.weight_sets.iter().map(|w| w.size()).sum::<usize>();
        }
        if let Some(c) = &self.child_models {
            n += section("ChildModels") + 4 + c.self_entry.as_ref().map_or(0, |s| 4 + 28 * s.relations.len());
            n += c.children.iter().map(|c| 2 + c.file_name.0.len() + 4 + 28 * c.relations.len()).sum::<usize>();
        }
        if let Some(a) = &self.animations {
            n += section("Animation") + 4;
            for anim in &a.animations {
                n += 12 + 2 + anim.name.0.len() + 4 + 4 * usize::from(anim.interpolation_time.is_some()) + 4;
                n += anim.keyframes.iter().map(|k| 6 + k.command.0.len()).sum::<usize>() + anim.tracks.size();
            }
        }
        if let Some(s) = &self.sockets {
            n += section("Sockets") + 4 + s.sockets.iter().map(|s| s.size()).sum::<usize>();
        }
        if let Some(b) = &self.anim_bindings {
            n += section("AnimBindings") + 4 * b.groups.len();
            n += b.groups.iter().flat_map(|g| &g.bindings).map(|b| 2 + b.name.0.len() + 24).sum::<usize>();
        }
        n + self.unknown.iter().map(|u| 2 + u.name.len() + 4 + u.body.len()).sum::<usize>()
    }
}
