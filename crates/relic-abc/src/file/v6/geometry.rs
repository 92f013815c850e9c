//! The v6 `Geometry` section (abc.md §3.2): one mesh for the whole model, every vertex bound
//! rigidly to one node and stored in that node's local space.

use binrw::binrw;
use relic_core::binary::{Fields, PackedNormal, PutLe, Record, pod_vec, records};

use crate::file::common::{pods, recs};

/// `Geometry` section body.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq)]
pub struct Geometry {
    /// Model-space box: the union of all keyframe boxes.
    pub bounds_min: [f32; 3],
    /// See `bounds_min`.
    pub bounds_max: [f32; 3],
    #[br(temp)]
    #[bw(calc = vertex_start_num.len().saturating_sub(1) as u32)]
    num_lods: u32,
    /// `NumLODs + 1` start indices into the vertices, one per LOD (`[0]` without LODs).
    #[br(parse_with = pod_vec, args(u64::from(num_lods) + 1,))]
    #[bw(write_with = pods)]
    pub vertex_start_num: Vec<u16>,
    #[br(temp)]
    #[bw(calc = triangles.len() as u32)]
    num_tris: u32,
    /// Triangles with per-corner UVs.
    #[br(parse_with = records, args(u64::from(num_tris),))]
    #[bw(write_with = recs)]
    pub triangles: Vec<Triangle>,
    #[br(temp)]
    #[bw(calc = vertices.len() as u32)]
    num_verts: u32,
    /// Vertices of the full-detail mesh; extras added by the LOD generator follow them.
    pub normal_verts: u32,
    /// All vertices.
    #[br(parse_with = records, args(u64::from(num_verts),))]
    #[bw(write_with = recs)]
    pub vertices: Vec<V6Vertex>,
}

impl Geometry {
    /// Offset of the triangle list from the start of the body.
    pub(crate) fn triangles_at(&self) -> u64 {
        24 + 4 + 2 * self.vertex_start_num.len() as u64 + 4
    }

    /// Offset of the vertex list from the start of the body.
    pub(crate) fn vertices_at(&self) -> u64 {
        self.triangles_at() + (Triangle::SIZE * self.triangles.len()) as u64 + 8
    }

    /// Bytes of the body as written.
    pub(crate) fn size(&self) -> usize {
        self.vertices_at() as usize + V6Vertex::SIZE * self.vertices.len()
    }
}

/// A triangle (33 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Triangle {
    /// UV of each corner, top-left origin.
    pub uvs: [[f32; 2]; 3],
    /// Vertex of each corner.
    pub indices: [u16; 3],
    /// Face normal, packed like vertex normals.
    pub normal: PackedNormal,
}

impl Record for Triangle {
    const SIZE: usize = 33;
    #[inline]
    fn decode(f: &mut Fields<'_>) -> Self {
        let uvs = [f.f32s(), f.f32s(), f.f32s()];
        let indices = [f.u16(), f.u16(), f.u16()];
        Triangle { uvs, indices, normal: PackedNormal([f.i8(), f.i8(), f.i8()]) }
    }
    #[inline]
    fn encode(&self, out: &mut Vec<u8>) {
        for uv in &self.uvs {
            out.put_f32s(uv);
        }
        for i in self.indices {
            out.put(i.to_le_bytes());
        }
        out.put(self.normal.0.map(|c| c as u8));
    }
}

/// A vertex (20 bytes), in the local space of its node.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct V6Vertex {
    /// Position in the node's local space.
    pub position: [f32; 3],
    /// Normal in the node's local space, packed to length ~127.
    pub normal: PackedNormal,
    /// The node (depth-first index) the vertex belongs to.
    pub transformation_index: u8,
    /// For LOD-generated vertices: the vertices they replace; junk otherwise.
    pub replacements: [u16; 2],
}

impl Record for V6Vertex {
    const SIZE: usize = 20;
    #[inline]
    fn decode(f: &mut Fields<'_>) -> Self {
        V6Vertex {
            position: f.f32s(),
            normal: PackedNormal([f.i8(), f.i8(), f.i8()]),
            transformation_index: f.u8(),
            replacements: [f.u16(), f.u16()],
        }
    }
    #[inline]
    fn encode(&self, out: &mut Vec<u8>) {
        out.put_f32s(&self.position);
        out.put(self.normal.0.map(|c| c as u8));
        out.put([self.transformation_index]);
        for r in self.replacements {
            out.put(r.to_le_bytes());
        }
    }
}
