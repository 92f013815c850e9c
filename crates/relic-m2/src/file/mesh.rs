//! Vertices and views (spec §9, §10): the vertex array, and per view (an embedded skin profile)
//! its vertex list, triangles, palette slots, submeshes and texture units.

use binrw::binrw;
use bytemuck::{Pod, Zeroable};
use serde::{Deserialize, Serialize};

use super::array::{M2Array, packed, pod_array, present};
use super::ctx::Ctx;
use super::layout::Layout;
use super::record::{Record, record};

/// A vertex (48 bytes; plain-old-data, read and written in bulk).
#[derive(Debug, Clone, Copy, PartialEq, Default, Pod, Zeroable, Serialize, Deserialize)]
#[repr(C)]
pub struct Vertex {
    /// Bind-pose position, model space (yards, Z up).
    pub position: [f32; 3],
    /// Bone weights, summing to 255.
    pub bone_weights: [u8; 4],
    /// Bone indices (into the bone table, not a palette); 0 in unused slots.
    pub bone_indices: [u8; 4],
    /// Unit normal.
    pub normal: [f32; 3],
    /// UV set 0 (top-left origin).
    pub tex_coords: [f32; 2],
    /// UV set 1 (all zero in the real file).
    pub tex_coords2: [f32; 2],
}

record! {
    size(_version) = 44;
    /// A view: an embedded skin profile (44 bytes; spec §10).
    #[binrw]
    #[brw(little)]
    #[br(import(ctx: &Ctx))]
    #[bw(import(layout: &Layout))]
    #[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
    pub struct View {
        /// View-local vertex → global vertex index.
        #[br(parse_with = pod_array)]
        #[bw(args(layout))]
        #[serde(with = "packed")]
        pub indices: M2Array<u16>,
        /// Triangles, three indices into `indices` each.
        #[br(parse_with = pod_array)]
        #[bw(args(layout))]
        #[serde(with = "packed")]
        pub triangles: M2Array<u16>,
        /// Per view-local vertex: the palette slot of each of the vertex's four bones.
        #[br(parse_with = pod_array)]
        #[bw(args(layout))]
        #[serde(with = "packed")]
        pub properties: M2Array<[u8; 4]>,
        /// Submeshes.
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub submeshes: M2Array<Submesh>,
        /// Texture units (draw batches).
        #[br(parse_with = pod_array)]
        #[bw(args(layout))]
        pub texture_units: M2Array<TextureUnit>,
        /// Largest palette a submesh of this view may use (256, 75, 53, 21 in Blizzard's files).
        pub bone_count_max: u32,
    }
}

record! {
    size(version) = if version >= 260 { 48 } else { 32 };
    /// A submesh (32 bytes up to 259, 48 from 260).
    #[binrw]
    #[brw(little)]
    #[br(import(ctx: &Ctx))]
    #[bw(import(layout: &Layout))]
    #[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
    pub struct Submesh {
        /// Mesh-part (geoset) id: 0 body, 1xx hair, 5xx boots, …
        pub id: u16,
        /// High word of the index start beyond 65535 (m2-wrath.md §4: verified on skins of more
        /// than 65 535 triangle entries; their vertex starts do not carry it).
        pub level: u16,
        /// First view-local vertex.
        pub vertex_start: u16,
        /// Number of view-local vertices.
        pub vertex_count: u16,
        /// First entry of the triangle list.
        pub index_start: u16,
        /// Number of triangle-list entries (3 per triangle).
        pub index_count: u16,
        /// Palette size (entries of the bone lookup used).
        pub bone_count: u16,
        /// First palette entry in the bone lookup.
        pub bone_combo_index: u16,
        /// Largest number of weighted bones on one vertex.
        pub bone_influences: u16,
        /// The bone with the most weight on the submesh.
        pub center_bone_index: u16,
        /// Mean of the submesh's vertex positions.
        pub center_position: [f32; 3],
        /// 260+: sort centre (box centre).
        #[br(if(ctx.tbc()))]
        #[bw(if(layout.tbc()), try_map = present("Submesh.sort_center"))]
        pub sort_center: Option<[f32; 3]>,
        /// 260+: sort radius.
        #[br(if(ctx.tbc()))]
        #[bw(if(layout.tbc()), try_map = present("Submesh.sort_radius"))]
        pub sort_radius: Option<f32>,
    }
}

impl Submesh {
    /// Bytes of a submesh record in a file of `version`.
    pub fn size(version: u32) -> u64 {
        <Self as Record>::size(version)
    }

    /// The submesh's view vertices `(start, count)`. The `level` high word is the index
    /// start's only: ported skins with level-1 submeshes (more than 65 535 triangle entries,
    /// fewer than 65 536 vertices) resolve only without it.
    pub fn vertices(&self) -> (usize, usize) {
        (usize::from(self.vertex_start), usize::from(self.vertex_count))
    }

    /// The submesh's triangle-list entries `(start, count)`, with the `level` high word.
    pub fn indices(&self) -> (usize, usize) {
        ((usize::from(self.level) << 16) + usize::from(self.index_start), usize::from(self.index_count))
    }
}

/// A texture unit: one draw of a submesh with one material layer (24 bytes; plain-old-data).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Pod, Zeroable, Serialize, Deserialize)]
#[repr(C)]
pub struct TextureUnit {
    /// Flags (0x10 static).
    pub flags: u8,
    /// Priority plane.
    pub priority_plane: i8,
    /// Shader id (0 in Classic).
    pub shader_id: u16,
    /// Submesh drawn.
    pub submesh_index: u16,
    /// Submesh of view 0 this unit derives from.
    pub geoset_index: u16,
    /// Colour animation, or −1.
    pub color_index: i16,
    /// Render flag (material) index.
    pub render_flag_index: u16,
    /// Material layer (0 base pass, 1 second pass).
    pub material_layer: u16,
    /// Number of textures (1).
    pub texture_count: u16,
    /// First texture-lookup entry.
    pub texture_combo_index: u16,
    /// First texture-coordinate-lookup entry.
    pub texture_coord_combo_index: u16,
    /// Transparency-lookup entry.
    pub transparency_combo_index: u16,
    /// Texture-transform-lookup entry.
    pub texture_transform_combo_index: u16,
}

const _: () = assert!(size_of::<Vertex>() == 48 && size_of::<TextureUnit>() == 24);
