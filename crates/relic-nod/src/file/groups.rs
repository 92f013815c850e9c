//! Mesh groups (spec §2.7): the render units, the last section of the file.

use binrw::binrw;

/// Size of a mesh-group record.
pub const GROUP_SIZE: u64 = 28;

/// One mesh group, 28 bytes.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NodGroup {
    /// Index into the material names, −1 = untextured.
    pub material_id: i32,
    /// "Should be ignored" (probably run-time pointers the engine fills in); kept as stored.
    pub reserved: [u8; 12],
    /// Triangles of this group.
    pub num_faces: u16,
    /// Vertices of this group.
    pub num_vertices: u16,
    /// Vertices in the minimum-LOD set ("invalid but present" without LOD; often 0xCDCD).
    pub min_vertices: u16,
    /// Bytes 22–27: group flags, bone number and mesh number in a disputed layout, read with
    /// [`crate::options::GroupTail::decode`].
    pub tail: [u8; 6],
}
