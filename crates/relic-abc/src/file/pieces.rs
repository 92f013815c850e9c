//! The v9–v13 `Pieces` section (abc.md §4.2): one mesh per piece, at every LOD.

use std::io::{Read, Seek, Write};

use binrw::{BinRead, BinResult, BinWrite, Endian, binrw};
use bytemuck::{Pod, Zeroable};
use relic_core::binary::{Fields, LenString, PutLe, Record, check_count, counted_args, records};

use crate::file::common::{at_index, in_field};

/// `Pieces` section body.
#[binrw]
#[brw(little)]
#[br(import(version: u32, lod_count: u32))]
#[derive(Debug, Clone, PartialEq)]
pub struct Pieces {
    /// Σ vertex weights over all pieces and LODs (= `Header::weight_count`), as stored; the
    /// writer writes the sum it recomputes.
    #[bw(map = |_: &u32| weight_total(pieces))]
    pub weight_count: u32,
    #[br(temp)]
    #[bw(calc = pieces.len() as u32)]
    piece_count: u32,
    /// The pieces.
    #[br(parse_with = counted_args, args(u64::from(piece_count), 14, (version, lod_count)))]
    pub pieces: Vec<Piece>,
}

/// Σ weights over all pieces and LODs.
pub(crate) fn weight_total(pieces: &[Piece]) -> u32 {
    pieces.iter().flat_map(|p| &p.lods).map(|l| l.weights.len() as u32).sum()
}

/// One piece: a mesh with one material, at every LOD.
#[binrw]
#[brw(little)]
#[br(import(version: u32, lod_count: u32))]
#[derive(Debug, Clone, PartialEq)]
pub struct Piece {
    /// Texture/skin slot (NOLF: 0 body, 1 head).
    pub material_index: u16,
    /// Specular exponent.
    pub specular_power: f32,
    /// Specular intensity.
    pub specular_scale: f32,
    /// v ≥ 10: LOD bias of this piece.
    #[br(if(version >= 10))]
    pub lod_weight: Option<f32>,
    /// Always 0 in known files.
    pub unknown: u16,
    /// Piece name.
    pub name: LenString,
    /// `Header::lod_count` complete meshes, full detail first.
    #[br(parse_with = counted_args, args(u64::from(lod_count), 8, ()))]
    pub lods: Vec<PieceLod>,
}

impl Piece {
    /// Bytes before the first LOD.
    pub(crate) fn head_size(&self) -> usize {
        2 + 4 + 4 + 4 * usize::from(self.lod_weight.is_some()) + 2 + 2 + self.name.0.len()
    }
}

/// One LOD of a piece: `u32 FaceCount`, the faces, `u32 VertexCount`, the vertices, each vertex
/// being `u16 WeightCount, u16 SubLODVertex, Weight × WeightCount, vec3 Position, vec3 Normal`.
///
/// The weights are kept in one list in file order ([`PieceLod::weights`]); vertex `v` owns the
/// `weight_count` entries after those of vertices `0..v` (see [`PieceLod::vertex_weights`]).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PieceLod {
    /// Triangles with per-corner UVs.
    pub faces: Vec<Face>,
    /// Vertices in file order.
    pub vertices: Vec<Vertex>,
    /// Every vertex's weights, vertex after vertex.
    pub weights: Vec<Weight>,
}

impl PieceLod {
    /// Each vertex with its weights.
    pub fn vertex_weights(&self) -> impl Iterator<Item = (&Vertex, &[Weight])> {
        let mut rest: &[Weight] = &self.weights;
        self.vertices.iter().map(move |v| {
            let (mine, tail) = rest.split_at(usize::from(v.weight_count).min(rest.len()));
            rest = tail;
            (v, mine)
        })
    }

    /// Bytes of the LOD as written.
    pub(crate) fn size(&self) -> usize {
        8 + Face::SIZE * self.faces.len() + Vertex::SIZE * self.vertices.len() + Weight::SIZE * self.weights.len()
    }

    /// Offset of vertex `v`'s record from the start of the LOD.
    pub(crate) fn vertex_at(&self, v: usize) -> usize {
        let weights: usize = self.vertices.iter().take(v).map(|x| usize::from(x.weight_count)).sum();
        8 + Face::SIZE * self.faces.len() + Vertex::SIZE * v + Weight::SIZE * weights
    }
}

/// A triangle: three corners (30 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Face {
    /// Corners in file order.
    pub corners: [FaceCorner; 3],
}

/// One corner of a face: `f32 u, f32 v, u16 vertex`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct FaceCorner {
    /// Texture coordinate, top-left origin.
    pub uv: [f32; 2],
    /// Index into the LOD's vertices.
    pub vertex: u16,
}

impl Record for Face {
    const SIZE: usize = 30;
    #[inline]
    fn decode(f: &mut Fields<'_>) -> Self {
        let mut corner = || FaceCorner { uv: f.f32s(), vertex: f.u16() };
        Face { corners: [corner(), corner(), corner()] }
    }
    #[inline]
    fn encode(&self, out: &mut Vec<u8>) {
        for c in &self.corners {
            out.put_f32s(&c.uv);
            out.put(c.vertex.to_le_bytes());
        }
    }
}

/// A vertex without its weights (which live in [`PieceLod::weights`]).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Vertex {
    /// Number of weights (1–4 at LOD 0 in known files, up to 6 in lower LODs).
    pub weight_count: u16,
    /// Index of the vertex of the next LOD this one collapses into; junk (0xCDCD, 0) in the last LOD.
    pub sub_lod_vertex: u16,
    /// Model-space bind-pose position.
    pub position: [f32; 3],
    /// Unit normal, model space.
    pub normal: [f32; 3],
}

impl Vertex {
    /// Bytes of a vertex record without its weights.
    pub(crate) const SIZE: usize = 28;
}

/// One bone weight of a vertex (20 bytes).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default, Pod, Zeroable, serde::Serialize, serde::Deserialize)]
pub struct Weight {
    /// Index into the nodes.
    pub node_index: u32,
    /// `bias · InvGlobal(node) · bind position`: node-local, pre-multiplied by the bias (§4.7).
    pub offset: [f32; 3],
    /// Influence; a vertex's biases need not sum to 1.
    pub bias: f32,
}

impl Weight {
    /// Bytes of a weight.
    pub(crate) const SIZE: usize = 20;
}

// Hand-written rather than derived: the weights of all vertices are kept in one list (one
// allocation per LOD instead of one per vertex; a large model has 10⁵ vertices), and binrw's
// derive cannot fill two fields (`vertices`, `weights`) from one interleaved run of records.
impl BinRead for PieceLod {
    type Args<'a> = ();

    fn read_options<R: Read + Seek>(reader: &mut R, endian: Endian, (): ()) -> BinResult<Self> {
        let face_count = u32::read_options(reader, endian, ()).map_err(|e| in_field(e, "face_count"))?;
        let faces = records::<_, Face>(reader, endian, (u64::from(face_count),)).map_err(|e| in_field(e, "faces"))?;
        let vertex_count = u32::read_options(reader, endian, ()).map_err(|e| in_field(e, "vertex_count"))?;
        let (vertices, weights) = read_vertices(reader, vertex_count).map_err(|e| in_field(e, "vertices"))?;
        Ok(PieceLod { faces, vertices, weights })
    }
}

/// The vertex list with its variable-length weight lists, decoded in one pass: a bounds check per
/// vertex, fixed-size copies, no allocation per vertex.
fn read_vertices<R: Read + Seek>(reader: &mut R, count: u32) -> BinResult<(Vec<Vertex>, Vec<Weight>)> {
    check_count(reader, u64::from(count), Vertex::SIZE as u64)?;
    let mut vertices = Vec::with_capacity(count as usize);
    // One weight per vertex is the common case; 20 ≤ 28 bytes, so this is bounded by the input too.
    let mut weights: Vec<Weight> = Vec::with_capacity(count as usize);
    for i in 0..count as usize {
        let mut head = [0u8; 4];
        reader.read_exact(&mut head).map_err(|e| at_index(e.into(), i))?;
        let [c0, c1, s0, s1] = head;
        let weight_count = u16::from_le_bytes([c0, c1]);
        let sub_lod_vertex = u16::from_le_bytes([s0, s1]);
        for w in 0..usize::from(weight_count) {
            let mut raw = [0u8; Weight::SIZE];
            reader.read_exact(&mut raw).map_err(|e| at_index(in_field(at_index(e.into(), w), "weights"), i))?;
            weights.push(bytemuck::pod_read_unaligned(&raw));
        }
        let mut tail = [0u8; 24];
        reader.read_exact(&mut tail).map_err(|e| at_index(in_field(e.into(), "position"), i))?;
        let mut f = Fields::new(&tail);
        vertices.push(Vertex { weight_count, sub_lod_vertex, position: f.f32s(), normal: f.f32s() });
    }
    Ok((vertices, weights))
}

// See the `BinRead` impl for why this is hand-written.
impl BinWrite for PieceLod {
    type Args<'a> = ();

    fn write_options<W: Write + Seek>(&self, writer: &mut W, _: Endian, (): ()) -> BinResult<()> {
        let mut out = Vec::with_capacity(self.size());
        out.put((self.faces.len() as u32).to_le_bytes());
        for f in &self.faces {
            f.encode(&mut out);
        }
        out.put((self.vertices.len() as u32).to_le_bytes());
        for (v, weights) in self.vertex_weights() {
            out.put(v.weight_count.to_le_bytes());
            out.put(v.sub_lod_vertex.to_le_bytes());
            out.extend_from_slice(bytemuck::cast_slice(weights));
            out.put_f32s(&v.position);
            out.put_f32s(&v.normal);
        }
        writer.write_all(&out)?;
        Ok(())
    }
}
