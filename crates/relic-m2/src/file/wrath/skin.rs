//! `.skin` files (m2-wrath.md §4): the views of Wrath and later, one file per profile
//! (`NAME00.skin` … `NAME03.skin`), offsets relative to the `.skin`'s first byte.

use binrw::binrw;
use bytemuck::{Pod, Zeroable};
use serde::{Deserialize, Serialize};

use crate::file::array::{M2Array, packed, pod_array, some_pod_array};
use crate::file::ctx::Ctx;
use crate::file::layout::Layout;
use crate::file::mesh::{Submesh, TextureUnit};
use crate::file::record::{Visitor, walk_fields};

/// A shadow batch of 272 `.skin` files (12 bytes, m2-wrath.md §4.2: the fields sum to 12 and
/// every real 0x40-header skin tiles only with 12 — not 16, as an earlier edition said and relic
/// read until the independently built v272 fixture's two batches showed it; fields from
/// pywowlib, kept raw).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Pod, Zeroable, Serialize, Deserialize)]
#[repr(C)]
pub struct ShadowBatch {
    /// Flags.
    pub flags: u8,
    /// Second flags byte.
    pub flags2: u8,
    /// Unknown.
    pub unknown: u16,
    /// Submesh.
    pub submesh: u16,
    /// Texture.
    pub texture: u16,
    /// Colour.
    pub color: u16,
    /// Transparency.
    pub transparency: u16,
}

const _: () = assert!(size_of::<ShadowBatch>() == 12);

/// A `.skin` file: the 44-byte view record of 256–263 behind a `SKIN` magic (48 bytes), plus the
/// shadow batches at 272 (56 bytes).
#[binrw]
#[brw(little, magic = b"SKIN")]
#[br(import(version: u32))]
#[bw(import(layout: &Layout))]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Skin {
    /// Skin-local vertex → model vertex.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    #[serde(with = "packed")]
    pub indices: M2Array<u16>,
    /// Triangles, three indices into `indices` each.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    #[serde(with = "packed")]
    pub triangles: M2Array<u16>,
    /// Per skin-local vertex: the palette slot of each of its four bones.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    #[serde(with = "packed")]
    pub properties: M2Array<[u8; 4]>,
    /// What the submeshes need to know while they are read: a version from Wrath on (not
    /// stored).
    #[br(temp, calc = Ctx::new(version, 0, 0, &[]))]
    #[bw(ignore)]
    ctx: Ctx,
    /// Submeshes (48 bytes, as 260–263).
    #[br(args(&ctx))]
    #[bw(args(layout))]
    pub submeshes: M2Array<Submesh>,
    /// Texture units (batches).
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub texture_units: M2Array<TextureUnit>,
    /// Largest palette a submesh may use (64, 53, 21 in Blizzard's files; 0 in one 272 file, so
    /// not a limit).
    pub bone_count_max: u32,
    /// The header is Cataclysm's (56 bytes, padded to 0x40) in a model of an earlier version:
    /// no array starts before 0x40 (not stored).
    #[br(temp, calc = version < 272 && cataclysm_header(&[
        (indices.len(), indices.offset),
        (triangles.len(), triangles.offset),
        (properties.len(), properties.offset),
        (submeshes.len(), submeshes.offset),
        (texture_units.len(), texture_units.offset),
    ]))]
    #[bw(ignore)]
    cataclysm: bool,
    /// 272 on, and in a `.skin` with Cataclysm's header whatever the model's version: shadow
    /// batches.
    #[br(if(version >= 272 || cataclysm), parse_with = some_pod_array)]
    #[bw(args(layout))]
    pub shadow_batches: Option<M2Array<ShadowBatch>>,
    /// Where the file's blocks were when it was read: the writer places them there again while
    /// the file still has that layout (file::kept; not stored in the file, not compared, not
    /// carried as JSON).
    #[br(default)]
    #[bw(ignore)]
    #[serde(skip)]
    pub as_read: crate::file::AsRead,
}

/// True if every non-empty array of a `.skin` (`(count, offset)`) starts at 0x40 or later: the
/// header is Cataclysm's, whose shadow-batch pair at 0x30 a 264 model's `.skin` may have too (a
/// 48-byte header's first array starts at 0x30).
fn cataclysm_header(arrays: &[(usize, u32)]) -> bool {
    let mut starts = arrays.iter().filter(|(count, _)| *count > 0).map(|&(_, offset)| offset).peekable();
    starts.peek().is_some() && starts.all(|offset| offset >= 0x40)
}

impl Skin {
    /// Bytes of the header (magic included).
    pub fn header_size(&self) -> u64 {
        if self.shadow_batches.is_some() { 56 } else { 48 }
    }

    /// Visits the blocks in header order.
    pub(crate) fn visit<'f, V: Visitor<'f>>(&'f self, v: &mut V) {
        walk_fields!(self, v; indices, triangles, properties, submeshes, texture_units, shadow_batches);
    }

    /// The skin as the 44-byte view record of 256–263 (the same fields, §4.3).
    pub fn to_view(&self) -> crate::file::View {
        crate::file::View {
            indices: self.indices.clone(),
            triangles: self.triangles.clone(),
            properties: self.properties.clone(),
            submeshes: self.submeshes.clone(),
            texture_units: self.texture_units.clone(),
            bone_count_max: self.bone_count_max,
        }
    }

    /// A skin holding a view's fields (no shadow batches: 264's layout unless `version` ≥ 272).
    pub fn from_view(view: &crate::file::View, version: u32) -> Self {
        Skin {
            indices: view.indices.clone(),
            triangles: view.triangles.clone(),
            properties: view.properties.clone(),
            submeshes: view.submeshes.clone(),
            texture_units: view.texture_units.clone(),
            bone_count_max: view.bone_count_max,
            shadow_batches: (version >= 272).then(M2Array::default),
            as_read: Default::default(),
        }
    }
}
