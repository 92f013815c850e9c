//! The LithTech 1.0/1.5 layout, "MonolithExport Model File v6" (Shogo, Blood 2).
//!
//! Sections in file order: `Header`, `Geometry`, `Nodes`, `Animation`, optional `AnimDims`,
//! optional `TransformInfo` (spec §3). One mesh for the whole model; every vertex belongs rigidly
//! to one node and is stored in that node's local space; animation is skeletal plus per-vertex
//! ("mesh deformation") frames.

use binrw::{BinRead, BinResult, binrw};
use relic_core::binary::{Fields, LenString, PackedNormal, PutLe, Record, check_count, counted, pod_vec, records};

use crate::common::{NodeKey, UnknownSection, at_index, in_field, invalid, pods, recs};

/// The file token that identifies v6.
pub const FILE_TOKEN: &[u8] = b"MonolithExport Model File v6";

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

    /// The known section of a name.
    pub fn from_name(name: &[u8]) -> Option<V6SectionId> {
        Some(match name {
            b"Geometry" => V6SectionId::Geometry,
            b"Nodes" => V6SectionId::Nodes,
            b"Animation" => V6SectionId::Animation,
            b"AnimDims" => V6SectionId::AnimDims,
            b"TransformInfo" => V6SectionId::TransformInfo,
            _ => return None,
        })
    }
}

/// `Header` section body (spec §3.1).
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

/// `Geometry` section body (spec §3.2).
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

/// `Nodes` section body (spec §3.3): nodes depth first, read until every announced child was read.
#[binrw]
#[brw(little, import(vertex_count: u32))]
#[derive(Debug, Clone, PartialEq)]
pub struct V6Nodes {
    /// The nodes in depth-first order; each node's children follow it.
    #[br(parse_with = read_v6_tree, args(vertex_count))]
    pub nodes: Vec<V6Node>,
}

/// One node.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq)]
pub struct V6Node {
    /// Node-local box of this node's own vertices (zeros without vertices).
    pub bounds_min: [f32; 3],
    /// See `bounds_min`.
    pub bounds_max: [f32; 3],
    /// Node name (the games look nodes up by name).
    pub name: LenString,
    /// Depth-first index (equal to the list position in every known file).
    pub transformation_index: u16,
    /// 1 null, 2 has triangles, 4 mesh deformation; 8/16/32/64 env-map/env-map-only/scroll U/V.
    pub flags: u8,
    #[br(temp)]
    #[bw(calc = md_vertices.len() as u32)]
    num_md_verts: u32,
    /// Vertices with per-keyframe positions ("mesh deformation"), indices into the geometry.
    #[br(parse_with = pod_vec, args(u64::from(num_md_verts),))]
    #[bw(write_with = pods)]
    pub md_vertices: Vec<u16>,
    /// Number of children (they follow depth first).
    pub num_children: u32,
}

#[binrw::parser(reader, endian)]
fn read_v6_tree(vertex_count: u32) -> BinResult<Vec<V6Node>> {
    let mut nodes = Vec::new();
    let mut pending: u64 = 1;
    while pending > 0 {
        let i = nodes.len();
        check_count(reader, 1, 37).map_err(|e| at_index(e, i))?;
        let start = reader.stream_position()?;
        let node = V6Node::read_options(reader, endian, ()).map_err(|e| at_index(e, i))?;
        if let Some((j, &v)) = node.md_vertices.iter().enumerate().find(|(_, v)| u32::from(**v) >= vertex_count) {
            let at = start + 24 + 2 + node.name.0.len() as u64 + 3 + 4 + 2 * j as u64;
            let e = invalid(at, format!("vertex index {v} ≥ vertex count {vertex_count}"));
            return Err(at_index(in_field(at_index(e, j), "md_vertices", "V6Node"), i));
        }
        pending = pending - 1 + u64::from(node.num_children);
        nodes.push(node);
    }
    Ok(nodes)
}

impl V6Nodes {
    /// Each node's mesh-deformation vertex count, in node order (what the Animation section's
    /// per-node blocks are sized by).
    pub fn md_counts(&self) -> Vec<u32> {
        self.nodes.iter().map(|n| n.md_vertices.len() as u32).collect()
    }

    /// Each node's parent (the walk's open node), `None` for the root.
    pub fn parents(&self) -> Vec<Option<usize>> {
        crate::v12::depth_first_parents(self.nodes.iter().map(|n| n.num_children)).0
    }
}

/// `Animation` section body (spec §3.4).
#[binrw]
#[brw(little)]
#[br(import(md_counts: &[u32]))]
#[derive(Debug, Clone, PartialEq)]
pub struct V6Animations {
    #[br(temp)]
    #[bw(calc = animations.len() as u32)]
    count: u32,
    /// The animations.
    #[br(parse_with = read_v6_animations, args(count, md_counts))]
    pub animations: Vec<V6Animation>,
}

#[binrw::parser(reader, endian)]
fn read_v6_animations(count: u32, md_counts: &[u32]) -> BinResult<Vec<V6Animation>> {
    check_count(reader, u64::from(count), 34 + 24 * md_counts.len() as u64)?;
    let mut out = Vec::with_capacity(count as usize);
    for i in 0..count as usize {
        out.push(V6Animation::read_options(reader, endian, (md_counts,)).map_err(|e| at_index(e, i))?);
    }
    Ok(out)
}

/// One animation: keyframes, then every node's track.
#[binrw]
#[brw(little)]
#[br(import(md_counts: &[u32]))]
#[derive(Debug, Clone, PartialEq)]
pub struct V6Animation {
    /// Name the game plays it by.
    pub name: LenString,
    /// Length in milliseconds (= last key time in known files).
    pub length: u32,
    /// Model-space box of the whole animation.
    pub bounds_min: [f32; 3],
    /// See `bounds_min`.
    pub bounds_max: [f32; 3],
    #[br(temp)]
    #[bw(calc = keyframes.len() as u32)]
    num_keyframes: u32,
    /// Key times, posed boxes and frame strings.
    #[br(parse_with = counted, args(u64::from(num_keyframes), 30))]
    pub keyframes: Vec<V6Keyframe>,
    /// One track per node, depth-first order.
    #[br(parse_with = read_node_anims, args(md_counts, num_keyframes))]
    pub node_anims: Vec<V6NodeAnim>,
}

#[binrw::parser(reader, endian)]
fn read_node_anims(md_counts: &[u32], keys: u32) -> BinResult<Vec<V6NodeAnim>> {
    check_count(reader, md_counts.len() as u64, 24 + 28 * u64::from(keys))?;
    let mut out = Vec::with_capacity(md_counts.len());
    for (i, &md) in md_counts.iter().enumerate() {
        out.push(V6NodeAnim::read_options(reader, endian, (keys, md)).map_err(|e| at_index(e, i))?);
    }
    Ok(out)
}

/// A keyframe.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq)]
pub struct V6Keyframe {
    /// Milliseconds from the start of the animation.
    pub time: u32,
    /// Model-space box of the posed mesh at this key (all zero where the exporter left it empty).
    pub bounds_min: [f32; 3],
    /// See `bounds_min`.
    pub bounds_max: [f32; 3],
    /// Game event at this key (`FIRE_KEY`, `SOUND_KEY shotgun\select`), often empty.
    pub frame_string: LenString,
}

/// One node's track in one animation.
#[binrw]
#[brw(little)]
#[br(import(key_count: u32, md_count: u32))]
#[derive(Debug, Clone, PartialEq)]
pub struct V6NodeAnim {
    /// One parent-relative transform per keyframe; `local = T(translation) · R(conjugate(rotation))`.
    #[br(parse_with = pod_vec, args(u64::from(key_count),))]
    #[bw(write_with = pods)]
    pub keys: Vec<NodeKey>,
    /// Mesh-deformation frames: per keyframe, per MD vertex, 3 bytes (key-major).
    #[br(parse_with = pod_vec, args(u64::from(key_count) * u64::from(md_count),))]
    #[bw(write_with = pods)]
    pub vertex_frames: Vec<[u8; 3]>,
    /// Decompression: node-local position = byte · scale + translation.
    pub scale: [f32; 3],
    /// See `scale`.
    pub translation: [f32; 3],
}

/// `AnimDims` section body (spec §3.5): one vector per animation, no count of its own.
#[binrw]
#[brw(little)]
#[br(import(count: u32))]
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AnimDims {
    /// Object dimensions per animation.
    #[br(parse_with = pod_vec, args(u64::from(count),))]
    #[bw(write_with = pods)]
    pub dims: Vec<[f32; 3]>,
}

/// `TransformInfo` section body (spec §3.6).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TransformInfo {
    /// ≠ 0: the engine mirrors the geometry's Z axis.
    pub flip_mat: i32,
    /// ≠ 0: key rotations are stored conjugated.
    pub fix_anim_keyframes: i32,
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

    /// Each node's mesh-deformation vertex count, in node order.
    pub fn md_counts(&self) -> Vec<u32> {
        self.nodes.md_counts()
    }
}
