//! The LTB container header, the model header with its allocation counts, and the OBB list
//! (ltb.md §4).

use binrw::binrw;
use bytemuck::{Pod, Zeroable};
use relic_core::binary::{LenString, counted_args};

/// The 20-byte container header every LTB starts with: a padded C struct
/// (`u8, u16, u8, 3 × u32`; ltb.md §4.1), kept byte for byte.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContainerHeader {
    /// File type: 1 = D3D (PC) model. 2 PS2 model, 3 Xbox model, 4 "ABC model", 5 D3D render
    /// style, 6 PS2 render style, 7 D3D render object; only 1 is read.
    pub file_type: u8,
    /// Struct padding (0 in every file).
    pub pad0: u8,
    /// Container version: 9 for every D3D model (the engine refuses anything else).
    pub ltb_version: u16,
    /// Reserved byte (0).
    pub reserved1: u8,
    /// Struct padding (0).
    pub pad1: [u8; 3],
    /// Reserved words (0; the packer zero-fills the struct).
    pub reserved: [u32; 3],
}

impl ContainerHeader {
    /// A D3D model's header as the packer writes it.
    pub const D3D_MODEL: ContainerHeader =
        ContainerHeader { file_type: 1, pad0: 0, ltb_version: 9, reserved1: 0, pad1: [0; 3], reserved: [0; 3] };
}

/// The fifteen allocation counts after the model version (ltb.md §4.1, offsets 24–83): the sizes
/// of the engine's single memory block for the model. Kept as stored: the engine does not compare
/// them with the content (only `anim_data_size` must be exact), and `vertex_count` and
/// `vertex_weight_count` count the source model's vertices, which the file no longer has.
#[binrw]
#[brw(little)]
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Pod, Zeroable, serde::Serialize, serde::Deserialize)]
pub struct HeaderCounts {
    /// Σ keyframes of this file's own animations.
    pub keyframe_count: u32,
    /// Own animations (child models' animations not counted).
    pub animation_count: u32,
    /// Nodes.
    pub node_count: u32,
    /// Pieces (a geometry-less export keeps the model's count here and writes none).
    pub piece_count: u32,
    /// Child models including this file.
    pub child_model_count: u32,
    /// Σ triangles of every render object of every piece and LOD.
    pub triangle_count: u32,
    /// Σ source (LTA) vertices of every LOD, before the packer split them: not derivable.
    pub vertex_count: u32,
    /// Σ source vertex weights, before pruning: not derivable.
    pub vertex_weight_count: u32,
    /// Σ over pieces of the piece's LOD count.
    pub lod_count: u32,
    /// Sockets.
    pub socket_count: u32,
    /// Weight sets.
    pub weight_set_count: u32,
    /// Distinct non-empty strings (ltb.md §4.2).
    pub string_count: u32,
    /// Σ byte lengths of those strings.
    pub string_length_total: u32,
    /// Bytes of vertex-animation positions: 12 × Σ vertex-animation list lengths.
    pub vert_anim_data_size: u32,
    /// Bytes of position and rotation data of every track (ltb.md §9.5); the engine reads
    /// exactly this many.
    pub anim_data_size: u32,
}

impl HeaderCounts {
    /// Each count with its name in the notes, in file order.
    pub fn named(&self) -> [(&'static str, u32); 15] {
        [
            ("KeyframeCount", self.keyframe_count),
            ("AnimCount", self.animation_count),
            ("NodeCount", self.node_count),
            ("PieceCount", self.piece_count),
            ("ChildModelCount", self.child_model_count),
            ("TriCount", self.triangle_count),
            ("VertCount", self.vertex_count),
            ("VertexWeightCount", self.vertex_weight_count),
            ("LODCount", self.lod_count),
            ("SocketCount", self.socket_count),
            ("WeightSetCount", self.weight_set_count),
            ("StringCount", self.string_count),
            ("StringLengthTotal", self.string_length_total),
            ("VertAnimDataSize", self.vert_anim_data_size),
            ("AnimDataSize", self.anim_data_size),
        ]
    }
}

/// What follows the container header up to the pieces (ltb.md §4.1, §4.3).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    /// Model version: 23, 24 or 25 (only the OBB record size differs).
    pub version: u32,
    /// The allocation counts, as stored.
    pub counts: HeaderCounts,
    /// Free text for the game (`advanced_shader` in CrossFire).
    pub command_string: LenString,
    /// Visibility radius, game units.
    pub radius: f32,
    #[br(temp)]
    #[bw(calc = obbs.len() as u32)]
    obb_count: u32,
    /// Oriented boxes, one per node that had them enabled.
    #[br(parse_with = counted_args, args(u64::from(obb_count), Obb::size(version) as u64, (version,)))]
    #[bw(args(*version))]
    pub obbs: Vec<Obb>,
}

/// An oriented box on a node (ltb.md §4.3): 64 bytes in version 23, 68 from 24 on.
#[binrw]
#[brw(little)]
#[brw(import(version: u32))]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Obb {
    /// Box centre in the node's space.
    pub position: [f32; 3],
    /// Box size ("full lengths, not radii" per the packer).
    pub size: [f32; 3],
    /// The box's X, Y and Z axes (rows or columns of its orientation: unknown).
    pub basis: [[f32; 3]; 3],
    /// The node it belongs to (flat index).
    pub node: u32,
    /// Version ≥ 24: bounding-sphere radius, ½·‖size‖ as the packer computes it.
    #[br(if(version >= 24))]
    #[bw(if(version >= 24))]
    pub radius: Option<f32>,
}

impl Obb {
    /// Bytes of a record in `version`.
    pub const fn size(version: u32) -> usize {
        if version >= 24 { 68 } else { 64 }
    }
}
