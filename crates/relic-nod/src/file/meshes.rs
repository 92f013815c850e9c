//! Vertices, the LOD collapse table and faces (spec §2.4–§2.6): each group's local arrays,
//! concatenated in group order.

use bytemuck::{Pod, Zeroable};

use super::NodFile;

/// Size of a vertex record.
pub const VERTEX_SIZE: u64 = 40;
/// Size of a LOD collapse entry.
pub const LOD_ENTRY_SIZE: u64 = 2;
/// Size of a face record.
pub const FACE_SIZE: u64 = 6;

/// One vertex, 40 bytes, in the rest pose and model space. A plain record: read and written in
/// bulk.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct NodVertex {
    /// Position.
    pub pos: [f32; 3],
    /// Normal.
    pub norm: [f32; 3],
    /// Texture coordinates.
    pub uv: [f32; 2],
    /// Influence of `bone_num`; below [`crate::options::SINGLE_INFLUENCE_WEIGHT`] the rest
    /// (`1 − weight`) belongs to that bone's parent.
    pub weight: f32,
    /// The bone the vertex is bound to.
    pub bone_num: u8,
    /// Three bytes after the bone number (zero in every file the readers were tried on).
    pub pad: [u8; 3],
}

impl NodFile {
    /// The faces of group `g` at the level of detail with `n` vertices (spec §2.5, an inferred
    /// reading of the progressive-mesh description): every index at or above `n` follows the
    /// collapse table until it is below `n`, and faces that become degenerate are dropped.
    /// `n` is clamped to `MinVertices..=NumVertices`. `None` without a LOD table or group `g`.
    pub fn lod_faces(&self, g: usize, n: u16) -> Option<Vec<[u16; 3]>> {
        let table = self.lod.as_ref()?;
        let group = self.groups.get(g)?;
        let &(v0, f0) = self.group_starts().get(g)?;
        let count = group.num_vertices;
        let table = table.get(v0..v0 + usize::from(count))?;
        let n = n.clamp(group.min_vertices.min(count), count);
        let collapse = |mut i: u16| {
            // Entries are below `count` (checked on read); following only lower indices ends.
            while i >= n {
                match table.get(usize::from(i)) {
                    Some(&next) if next < i => i = next,
                    _ => return None,
                }
            }
            Some(i)
        };
        let faces = self.faces.get(f0..f0 + usize::from(group.num_faces))?;
        Some(
            faces
                .iter()
                .filter_map(|f| {
                    let [a, b, c] = [collapse(f[0])?, collapse(f[1])?, collapse(f[2])?];
                    (a != b && b != c && a != c).then_some([a, b, c])
                })
                .collect(),
        )
    }
}
