//! The LithTech 1.0/1.5 layout, "MonolithExport Model File v6" (Shogo, Blood 2), as a whole.
//!
//! Sections in file order: `Header`, `Geometry`, `Nodes`, `Animation`, optional `AnimDims`,
//! optional `TransformInfo` (abc.md §3). One mesh for the whole model; every vertex belongs
//! rigidly to one node and is stored in that node's local space; animation is skeletal plus
//! per-vertex ("mesh deformation") frames.

mod animation;
mod geometry;
mod nodes;

pub use animation::{AnimDims, TransformInfo, V6Animation, V6Animations, V6Keyframe, V6NodeAnim};
pub use geometry::{Geometry, Triangle, V6Vertex};
pub use nodes::{V6Node, V6Nodes};

use binrw::{BinRead, BinWrite, Endian, binrw};
use relic_core::binary::LenString;
use relic_core::{ReadError, WriteError};

use crate::file::common::UnknownSection;
use crate::file::sections::{SectionKind, Span, absent, body, missing, out_of_order, walk, write_sections};

/// The file token that identifies v6.
pub(crate) const FILE_TOKEN: &[u8] = b"MonolithExport Model File v6";

/// A whole v6 file.
#[derive(Debug, Clone, PartialEq)]
pub struct V6File {
    /// `Header` section (always first).
    pub header: V6Header,
    /// `Geometry` section: the one mesh.
    pub geometry: Geometry,
    /// `Nodes` section: the node tree, depth first.
    pub nodes: V6Nodes,
    /// `Animation` section.
    pub animations: V6Animations,
    /// `AnimDims` section (optional): per-animation object dimensions.
    pub anim_dims: Option<AnimDims>,
    /// `TransformInfo` section (optional, LithTech 1.5 only).
    pub transform_info: Option<TransformInfo>,
    /// Sections this crate does not know.
    pub unknown: Vec<UnknownSection>,
    /// The sections after `Header`, in file order.
    pub order: Vec<V6SectionId>,
}

impl V6File {
    /// True if the engine mirrors Z (TransformInfo.FlipMat ≠ 0, or no TransformInfo: LithTech 1.0).
    pub fn flips_z(&self) -> bool {
        self.transform_info.is_none_or(|t| t.flip_mat != 0)
    }

    /// True if key rotations are conjugated (FixAnimKeyframes ≠ 0, or no TransformInfo).
    pub fn conjugates_keys(&self) -> bool {
        self.transform_info.is_none_or(|t| t.fix_anim_keyframes != 0)
    }
}

/// A section of a v6 file, for [`V6File::order`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum V6SectionId {
    /// `Geometry`.
    Geometry,
    /// `Nodes`.
    Nodes,
    /// `Animation`.
    Animation,
    /// `AnimDims`.
    AnimDims,
    /// `TransformInfo`.
    TransformInfo,
    /// An entry of [`V6File::unknown`].
    Unknown(usize),
}

impl V6SectionId {
    const KNOWN: [V6SectionId; 5] = [
        V6SectionId::Geometry,
        V6SectionId::Nodes,
        V6SectionId::Animation,
        V6SectionId::AnimDims,
        V6SectionId::TransformInfo,
    ];

    /// The name the file stores for the section (`None` for unknown sections).
    pub fn name(self) -> Option<&'static str> {
        Some(match self {
            V6SectionId::Geometry => "Geometry",
            V6SectionId::Nodes => "Nodes",
            V6SectionId::Animation => "Animation",
            V6SectionId::AnimDims => "AnimDims",
            V6SectionId::TransformInfo => "TransformInfo",
            V6SectionId::Unknown(_) => return None,
        })
    }
}

impl SectionKind for V6SectionId {
    fn from_name(name: &[u8]) -> Option<Self> {
        V6SectionId::KNOWN.into_iter().find(|id| id.name().is_some_and(|n| n.as_bytes() == name))
    }

    fn unknown(i: usize) -> Self {
        V6SectionId::Unknown(i)
    }

    fn unknown_index(self) -> Option<usize> {
        match self {
            V6SectionId::Unknown(i) => Some(i),
            _ => None,
        }
    }

    fn name(self) -> Option<&'static str> {
        V6SectionId::name(self)
    }
}

/// `Header` section body (abc.md §3.1).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq)]
pub struct V6Header {
    /// Always `MonolithExport Model File v6`.
    #[br(assert(file_token.0 == FILE_TOKEN, "file token {:?} is not {:?}", file_token, LenString(FILE_TOKEN.to_vec())))]
    pub file_token: LenString,
    /// Free text for the game (Shogo pickups: four numbers).
    pub command_string: LenString,
}

/// Offsets of the section bodies, for the error offsets of [`crate::validate`].
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct V6Bodies {
    pub(crate) geometry: u64,
    pub(crate) nodes: u64,
}

/// Reads the sections of a v6 file. `Nodes` needs `Geometry` before it and `Animation` needs
/// `Nodes` (its per-node blocks are sized by the nodes' mesh-deformation counts).
pub(crate) fn read(bytes: &[u8]) -> Result<(V6File, V6Bodies), ReadError> {
    let (mut geometry, mut nodes, mut animations): (Option<Geometry>, Option<V6Nodes>, Option<V6Animations>) =
        (None, None, None);
    let (mut anim_dims, mut transform_info) = (None, None);
    let mut at = V6Bodies::default();
    let le = Endian::Little;
    let walked = walk::<V6SectionId, V6Header>(
        bytes,
        |span| body(bytes, span, |s| V6Header::read_le(s)),
        |_, id, span: &Span| {
            match id {
                V6SectionId::Geometry => {
                    at.geometry = span.body;
                    geometry = Some(body(bytes, span, |s| Geometry::read_le(s))?);
                }
                V6SectionId::Nodes => {
                    if geometry.is_none() {
                        return Err(out_of_order(span, "Geometry"));
                    }
                    at.nodes = span.body;
                    nodes = Some(body(bytes, span, |s| V6Nodes::read_le(s))?);
                }
                V6SectionId::Animation => {
                    let Some(n) = &nodes else { return Err(out_of_order(span, "Nodes")) };
                    let md = n.md_counts();
                    animations = Some(body(bytes, span, |s| V6Animations::read_options(s, le, (&md,)))?);
                }
                V6SectionId::AnimDims => {
                    let Some(a) = &animations else { return Err(out_of_order(span, "Animation")) };
                    let count = a.animations.len() as u32;
                    anim_dims = Some(body(bytes, span, |s| AnimDims::read_options(s, le, (count,)))?);
                }
                V6SectionId::TransformInfo => transform_info = Some(body(bytes, span, |s| TransformInfo::read_le(s))?),
                V6SectionId::Unknown(_) => {}
            }
            Ok(())
        },
    )?;
    let file = V6File {
        header: walked.header,
        geometry: geometry.ok_or_else(|| missing(bytes, "Geometry"))?,
        nodes: nodes.ok_or_else(|| missing(bytes, "Nodes"))?,
        animations: animations.ok_or_else(|| missing(bytes, "Animation"))?,
        anim_dims,
        transform_info,
        unknown: walked.unknown,
        order: walked.order,
    };
    Ok((file, at))
}

/// Writes a v6 file whose layout [`crate::validate`] accepted.
pub(crate) fn write(file: &V6File) -> Result<Vec<u8>, WriteError> {
    let le = Endian::Little;
    write_sections(
        file.size(),
        |w| file.header.write_options(w, le, ()),
        &file.order,
        &file.unknown,
        |id, w| match id {
            V6SectionId::Geometry => file.geometry.write_options(w, le, ()),
            V6SectionId::Nodes => file.nodes.write_options(w, le, ()),
            V6SectionId::Animation => file.animations.write_options(w, le, ()),
            V6SectionId::AnimDims => {
                file.anim_dims.as_ref().ok_or_else(|| absent("AnimDims"))?.write_options(w, le, ())
            }
            V6SectionId::TransformInfo => {
                file.transform_info.as_ref().ok_or_else(|| absent("TransformInfo"))?.write_options(w, le, ())
            }
            V6SectionId::Unknown(_) => Ok(()),
        },
    )
}

impl V6File {
    /// Bytes of the file as written.
    pub(crate) fn size(&self) -> usize {
        let section = |name: &str| 2 + name.len() + 4;
        let mut n = section("Header") + 4 + self.header.file_token.0.len() + self.header.command_string.0.len();
        n += section("Geometry") + self.geometry.size();
        n += section("Nodes") + self.nodes.size();
        n += section("Animation") + self.animations.size();
        n += self.anim_dims.as_ref().map_or(0, |d| section("AnimDims") + 12 * d.dims.len());
        n += self.transform_info.map_or(0, |_| section("TransformInfo") + 8);
        n + self.unknown.iter().map(|u| 2 + u.name.len() + 4 + u.body.len()).sum::<usize>()
    }
}
