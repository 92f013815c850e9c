//! The NOLF-era layout, versions 9 to 13 (named after version 12, the one the games ship).
//!
//! Sections in file order: `Header`, `Pieces`, `Nodes`, `ChildModels`, `Animation`, `Sockets`,
//! `AnimBindings` (spec §4). Every section but `Header` is optional here; unknown sections are kept.
//! Version differences are visible in the types: `Piece::lod_weight` (v ≥ 10),
//! `Animation::interpolation_time` (v ≥ 12), `Header::v13_unknown` and [`Tracks`]' prefixes and
//! key extras (v13).

use std::io::{Read, Seek, Write};

use binrw::{BinRead, BinResult, BinWrite, Endian, binrw};
use bytemuck::{Pod, Zeroable};
use relic_core::binary::{Fields, LenString, PutLe, Record, check_count, counted, counted_args, pod_vec, records};

use crate::common::{NodeKey, UnknownSection, at_index, in_field, invalid, pods};

/// Versions of this family that are read and written.
pub const VERSIONS: [u32; 5] = [9, 10, 11, 12, 13];

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
    pub fn present_sections(&self) -> [(SectionId, bool); 6] {
        [
            (SectionId::Pieces, self.pieces.is_some()),
            (SectionId::Nodes, self.nodes.is_some()),
            (SectionId::ChildModels, self.child_models.is_some()),
            (SectionId::Animation, self.animations.is_some()),
            (SectionId::Sockets, self.sockets.is_some()),
            (SectionId::AnimBindings, self.anim_bindings.is_some()),
        ]
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

    /// The known section of a name.
    pub fn from_name(name: &[u8]) -> Option<SectionId> {
        Some(match name {
            b"Pieces" => SectionId::Pieces,
            b"Nodes" => SectionId::Nodes,
            b"ChildModels" => SectionId::ChildModels,
            b"Animation" => SectionId::Animation,
            b"Sockets" => SectionId::Sockets,
            b"AnimBindings" => SectionId::AnimBindings,
            _ => return None,
        })
    }

    /// The standard order of the known sections.
    pub const STANDARD: [SectionId; 6] = [
        SectionId::Pieces,
        SectionId::Nodes,
        SectionId::ChildModels,
        SectionId::Animation,
        SectionId::Sockets,
        SectionId::AnimBindings,
    ];
}

/// `Header` section body (spec §4.1). The counts are kept as stored; the writer writes the values
/// [`crate::counts`] recomputes from the data (they are equal in every real file).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    /// File version: 9, 10, 11, 12 or 13.
    pub version: u32,
    /// Σ keyframes of the model's own animations.
    pub keyframe_count: u32,
    /// Own animations (child models' animations not counted).
    pub animation_count: u32,
    /// Nodes (the `Nodes` section has no count of its own).
    pub node_count: u32,
    /// Pieces.
    pub piece_count: u32,
    /// Child models including the self entry.
    pub child_model_count: u32,
    /// Faces over all pieces and all LODs.
    pub face_count: u32,
    /// Vertices over all pieces and all LODs.
    pub vertex_count: u32,
    /// Vertex weights over all pieces and all LODs.
    pub weight_count: u32,
    /// LODs per piece (every piece has exactly this many).
    pub lod_count: u32,
    /// Sockets.
    pub socket_count: u32,
    /// Weight sets.
    pub weight_set_count: u32,
    /// v13 only: a word of unknown meaning.
    #[br(if(version >= 13))]
    pub v13_unknown: Option<u32>,
    /// Distinct non-empty strings among the command string, node names, child-model file names,
    /// animation names and keyframe strings.
    pub string_count: u32,
    /// Σ lengths of those strings.
    pub string_length_total: u32,
    /// Free text for the game (`ShadowEnable;ShadowSizeX 32;…`).
    pub command_string: LenString,
    /// Visibility radius, game units.
    pub internal_radius: f32,
    #[br(temp)]
    #[bw(calc = lod_distances.len() as u32)]
    lod_distance_count: u32,
    /// 60 bytes, all zero in every known file.
    pub padding: [u8; 60],
    /// Camera distance at which LOD i + 1 replaces LOD i (`LODCount − 1` values).
    #[br(parse_with = counted, args(u64::from(lod_distance_count), 4))]
    pub lod_distances: Vec<f32>,
}

/// `Pieces` section body (spec §4.2).
#[binrw]
#[brw(little, import(version: u32, lod_count: u32, node_count: u32))]
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
    #[br(parse_with = counted_args, args(u64::from(piece_count), 14, (version, lod_count, node_count)))]
    #[bw(args(version, lod_count, node_count))]
    pub pieces: Vec<Piece>,
}

/// Σ weights over all pieces and LODs.
pub fn weight_total(pieces: &[Piece]) -> u32 {
    pieces.iter().flat_map(|p| &p.lods).map(|l| l.weights.len() as u32).sum()
}

/// One piece: a mesh with one material, at every LOD.
#[binrw]
#[brw(little, import(version: u32, lod_count: u32, node_count: u32))]
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
    #[br(parse_with = counted_args, args(u64::from(lod_count), 8, (node_count,)))]
    #[bw(args(node_count))]
    pub lods: Vec<PieceLod>,
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
}

const LOD: &str = "PieceLod";

impl BinRead for PieceLod {
    type Args<'a> = (u32,);

    fn read_options<R: Read + Seek>(reader: &mut R, endian: Endian, (node_count,): (u32,)) -> BinResult<Self> {
        let face_count = u32::read_options(reader, endian, ()).map_err(|e| in_field(e, "face_count", LOD))?;
        let faces_at = reader.stream_position()?;
        let faces =
            records::<_, Face>(reader, endian, (u64::from(face_count),)).map_err(|e| in_field(e, "faces", LOD))?;
        let vertex_count = u32::read_options(reader, endian, ()).map_err(|e| in_field(e, "vertex_count", LOD))?;
        let (vertices, weights) =
            read_vertices(reader, vertex_count, node_count).map_err(|e| in_field(e, "vertices", LOD))?;
        for (i, face) in faces.iter().enumerate() {
            for (c, corner) in face.corners.iter().enumerate() {
                if u32::from(corner.vertex) >= vertex_count {
                    let at = faces_at + (i * Face::SIZE + c * 10 + 8) as u64;
                    let e = invalid(at, format!("vertex index {} ≥ vertex count {vertex_count}", corner.vertex));
                    return Err(in_field(at_index(e, i), "faces", LOD));
                }
            }
        }
        Ok(PieceLod { faces, vertices, weights })
    }
}

/// The vertex list with its variable-length weight lists, decoded in one pass: a bounds check per
/// vertex, fixed-size copies, no allocation per vertex.
fn read_vertices<R: Read + Seek>(reader: &mut R, count: u32, node_count: u32) -> BinResult<(Vec<Vertex>, Vec<Weight>)> {
    check_count(reader, u64::from(count), 28)?;
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
            let mut raw = [0u8; 20];
            reader
                .read_exact(&mut raw)
                .map_err(|e| at_index(in_field(at_index(e.into(), w), "weights", "Vertex"), i))?;
            let weight: Weight = bytemuck::pod_read_unaligned(&raw);
            if weight.node_index >= node_count {
                let at = reader.stream_position()? - 20;
                let e = invalid(at, format!("node index {} ≥ node count {node_count}", weight.node_index));
                return Err(at_index(in_field(at_index(e, w), "weights", "Vertex"), i));
            }
            weights.push(weight);
        }
        let mut tail = [0u8; 24];
        reader.read_exact(&mut tail).map_err(|e| at_index(in_field(e.into(), "position", "Vertex"), i))?;
        let mut f = Fields::new(&tail);
        vertices.push(Vertex { weight_count, sub_lod_vertex, position: f.f32s(), normal: f.f32s() });
    }
    Ok((vertices, weights))
}

impl BinWrite for PieceLod {
    type Args<'a> = (u32,);

    fn write_options<W: Write + Seek>(&self, writer: &mut W, _: Endian, _: (u32,)) -> BinResult<()> {
        let mut out =
            Vec::with_capacity(8 + self.faces.len() * Face::SIZE + self.vertices.len() * 28 + self.weights.len() * 20);
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

/// `Nodes` section body (spec §4.3): the flat depth-first node list, then the weight sets.
#[binrw]
#[brw(little, import(node_count: u32))]
#[derive(Debug, Clone, PartialEq)]
pub struct Nodes {
    /// `Header::node_count` nodes in depth-first order; each node's children follow it.
    #[br(parse_with = read_node_tree, args(node_count))]
    pub nodes: Vec<Node>,
    #[br(temp)]
    #[bw(calc = weight_sets.len() as u32)]
    weight_set_count: u32,
    /// Per-node blend weights for animation layering (`Upper`, `Lower`, `Blink`, …).
    #[br(parse_with = counted, args(u64::from(weight_set_count), 6))]
    pub weight_sets: Vec<WeightSet>,
}

/// One node (bone).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// Node name.
    pub name: LenString,
    /// Position in the list (equal to it in every known file).
    pub index: u16,
    /// Bit 0: removable (set on the root); bit 1: rotation only (take only rotation from animations).
    pub flags: u8,
    /// Global (model-space) bind transform, row-major `m[row][col]`, translation in 3, 7, 11.
    pub matrix: [f32; 16],
    /// Number of children (they follow in depth-first order).
    pub child_count: u32,
}

/// A named per-node blend weight table.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct WeightSet {
    /// Name (`Upper`, `Morph12`, …).
    #[serde(with = "crate::common::len_string")]
    pub name: LenString,
    #[br(temp)]
    #[bw(calc = weights.len() as u32)]
    node_count: u32,
    /// One weight per node.
    #[br(parse_with = pod_vec, args(u64::from(node_count),))]
    #[bw(write_with = pods)]
    pub weights: Vec<f32>,
}

/// The parent of each node of a depth-first list given each node's child count: a node's parent
/// is the last node before it that still expects children. `Err(i)` if node `i` (or, with
/// `i == len`, the list) ends while children are still expected. Several roots are allowed.
pub fn tree_parents(child_counts: impl IntoIterator<Item = u32>) -> Result<Vec<Option<usize>>, usize> {
    match depth_first_parents(child_counts) {
        (parents, None) => Ok(parents),
        (_, Some(i)) => Err(i),
    }
}

/// The parents of [`tree_parents`], whether or not the list ends early, and the first node still
/// expecting children at the end (`None` for a complete tree). The one walk the v6 and v9–v13
/// node lists share.
pub(crate) fn depth_first_parents(child_counts: impl IntoIterator<Item = u32>) -> (Vec<Option<usize>>, Option<usize>) {
    let mut open: Vec<(usize, u64)> = Vec::new();
    let mut parents = Vec::new();
    for (i, children) in child_counts.into_iter().enumerate() {
        while open.last().is_some_and(|&(_, left)| left == 0) {
            open.pop();
        }
        let parent = open.last_mut().map(|(p, left)| {
            *left -= 1;
            *p
        });
        parents.push(parent);
        open.push((i, u64::from(children)));
    }
    let unfinished = open.iter().find(|&&(_, left)| left > 0).map(|&(i, _)| i);
    (parents, unfinished)
}

#[binrw::parser(reader, endian)]
fn read_node_tree(node_count: u32) -> BinResult<Vec<Node>> {
    check_count(reader, u64::from(node_count), 73)?;
    let mut nodes = Vec::with_capacity(node_count as usize);
    let mut starts = Vec::with_capacity(node_count as usize);
    for i in 0..node_count as usize {
        starts.push(reader.stream_position()?);
        nodes.push(Node::read_options(reader, endian, ()).map_err(|e| at_index(e, i))?);
    }
    if let Err(i) = tree_parents(nodes.iter().map(|n| n.child_count)) {
        let (child_count, name, at) = match (nodes.get(i), starts.get(i)) {
            (Some(n), Some(&s)) => (n.child_count, n.name.to_text(), s + 2 + n.name.0.len() as u64 + 67),
            _ => (0, String::new(), 0),
        };
        let e = invalid(at, format!("node {name:?} has {child_count} children but the list ends before them"));
        return Err(at_index(e, i));
    }
    Ok(nodes)
}

/// `ChildModels` section body (spec §4.4): `u32 Count` (including this file's own entry), the own
/// entry (no name), then `Count − 1` child models.
#[binrw]
#[brw(little, import(node_count: u32))]
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ChildModels {
    #[br(temp)]
    #[bw(calc = u32::from(self_entry.is_some()) + children.len() as u32)]
    count: u32,
    /// Entry 0: this file itself.
    #[br(if(count >= 1), args(node_count))]
    #[bw(args(node_count))]
    pub self_entry: Option<SelfEntry>,
    /// Entries 1…: the base models whose animations this model uses.
    #[br(parse_with = counted_args, args(u64::from(count.saturating_sub(1)), 6 + 28 * u64::from(node_count), (node_count,)))]
    #[bw(args(node_count))]
    pub children: Vec<ChildModel>,
}

/// Entry 0 of `ChildModels`: this file.
#[binrw]
#[brw(little, import(node_count: u32))]
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SelfEntry {
    /// This file's save counter (ModelEdit increments it on every save).
    pub save_index: u32,
    /// One translation + rotation per node (identity in every known file).
    #[br(parse_with = pod_vec, args(u64::from(node_count),))]
    #[bw(write_with = pods)]
    pub relations: Vec<NodeKey>,
}

/// A base model whose animations this model uses.
#[binrw]
#[brw(little, import(node_count: u32))]
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ChildModel {
    /// File name (`basemodel.abc`, `/goodman.abc`).
    #[serde(with = "crate::common::len_string")]
    pub file_name: LenString,
    /// The child file's save index when it was bound (a mismatch means "out of date").
    pub save_index: u32,
    /// Per-node offset of the child skeleton.
    #[br(parse_with = pod_vec, args(u64::from(node_count),))]
    #[bw(write_with = pods)]
    pub relations: Vec<NodeKey>,
}

/// `Animation` section body (spec §4.5).
#[binrw]
#[brw(little, import(version: u32, node_count: u32))]
#[derive(Debug, Clone, PartialEq)]
pub struct Animations {
    #[br(temp)]
    #[bw(calc = animations.len() as u32)]
    count: u32,
    /// The model's own animations.
    #[br(parse_with = counted_args, args(u64::from(count), 22, (version, node_count)))]
    #[bw(args(version, node_count))]
    pub animations: Vec<Animation>,
}

/// One animation.
#[binrw]
#[brw(little, import(version: u32, node_count: u32))]
#[derive(Debug, Clone, PartialEq)]
pub struct Animation {
    /// Object half-extents while this animation plays (24, 53, 24 for NOLF humans).
    pub dims: [f32; 3],
    /// Name the game plays it by.
    pub name: LenString,
    /// −1 in every known file (LTB's compression-type slot).
    pub marker: i32,
    /// v ≥ 12: milliseconds to blend into this animation.
    #[br(if(version >= 12))]
    pub interpolation_time: Option<u32>,
    #[br(temp)]
    #[bw(calc = keyframes.len() as u32)]
    keyframe_count: u32,
    /// Key times and their command strings.
    #[br(parse_with = counted, args(u64::from(keyframe_count), 6))]
    pub keyframes: Vec<Keyframe>,
    /// Per node, one transform per keyframe.
    #[br(args(version, node_count, keyframe_count))]
    #[bw(args(version, node_count, keyframes.len() as u32))]
    pub tracks: Tracks,
}

/// A keyframe: time and command string.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq)]
pub struct Keyframe {
    /// Milliseconds from the start of the animation.
    pub time: u32,
    /// Game event at this key (often empty).
    pub command: LenString,
}

/// The node-major transforms of an animation: for each node (in node order), v13's `i32` prefix,
/// then one transform per keyframe (v13: each followed by 8 more bytes).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Tracks {
    /// Key `k` of node `n` at `n · keyframe_count + k`; parent-relative, rotation not conjugated.
    pub transforms: Vec<NodeKey>,
    /// v13: the `i32` before each node's track (−1 per the sources), one per node; empty before v13.
    pub node_prefixes: Vec<i32>,
    /// v13: the 8 bytes after each transform, same order as `transforms`; empty before v13.
    pub key_extras: Vec<[u8; 8]>,
}

impl Tracks {
    /// The keys of node `n` (empty if out of range).
    pub fn node(&self, n: usize, keyframe_count: usize) -> &[NodeKey] {
        self.transforms.get(n * keyframe_count..(n + 1) * keyframe_count).unwrap_or_default()
    }
}

/// A v13 transform: the 28-byte transform and 8 unknown bytes.
#[derive(Debug, Clone, Copy)]
struct V13Key(NodeKey, [u8; 8]);

impl Record for V13Key {
    const SIZE: usize = 36;
    #[inline]
    fn decode(f: &mut Fields<'_>) -> Self {
        V13Key(NodeKey { translation: f.f32s(), rotation: f.f32s() }, f.bytes())
    }
    #[inline]
    fn encode(&self, out: &mut Vec<u8>) {
        out.put_f32s(&self.0.translation);
        out.put_f32s(&self.0.rotation);
        out.put(self.1);
    }
}

impl BinRead for Tracks {
    type Args<'a> = (u32, u32, u32);

    fn read_options<R: Read + Seek>(
        reader: &mut R,
        endian: Endian,
        (version, node_count, keys): (u32, u32, u32),
    ) -> BinResult<Self> {
        let total = u64::from(node_count) * u64::from(keys);
        if version < 13 {
            let transforms =
                pod_vec::<_, NodeKey>(reader, endian, (total,)).map_err(|e| in_field(e, "transforms", "Tracks"))?;
            return Ok(Tracks { transforms, ..Tracks::default() });
        }
        check_count(reader, total, 36)?;
        let mut tracks = Tracks {
            transforms: Vec::with_capacity(total as usize),
            node_prefixes: Vec::with_capacity(node_count as usize),
            key_extras: Vec::with_capacity(total as usize),
        };
        for n in 0..node_count as usize {
            let prefix = i32::read_options(reader, endian, ())
                .map_err(|e| in_field(at_index(e, n), "node_prefixes", "Tracks"))?;
            tracks.node_prefixes.push(prefix);
            let keys = records::<_, V13Key>(reader, endian, (u64::from(keys),))
                .map_err(|e| in_field(at_index(e, n), "transforms", "Tracks"))?;
            for V13Key(key, extra) in keys {
                tracks.transforms.push(key);
                tracks.key_extras.push(extra);
            }
        }
        Ok(tracks)
    }
}

impl BinWrite for Tracks {
    type Args<'a> = (u32, u32, u32);

    fn write_options<W: Write + Seek>(
        &self,
        writer: &mut W,
        _: Endian,
        (version, node_count, keys): (u32, u32, u32),
    ) -> BinResult<()> {
        if version < 13 {
            return relic_core::binary::write_pod(writer, &self.transforms);
        }
        let keys = keys as usize;
        let mut out = Vec::with_capacity(node_count as usize * (4 + keys * 36));
        for (n, prefix) in self.node_prefixes.iter().enumerate() {
            out.put(prefix.to_le_bytes());
            let range = n * keys..(n + 1) * keys;
            let (Some(transforms), Some(extras)) = (self.transforms.get(range.clone()), self.key_extras.get(range))
            else {
                return Err(invalid(0, "v13 tracks are shorter than node count × keyframe count"));
            };
            for (key, extra) in transforms.iter().zip(extras) {
                V13Key(*key, *extra).encode(&mut out);
            }
        }
        writer.write_all(&out)?;
        Ok(())
    }
}

/// `Sockets` section body (spec §4.6).
#[binrw]
#[brw(little, import(node_count: u32))]
#[derive(Debug, Clone, PartialEq)]
pub struct Sockets {
    #[br(temp)]
    #[bw(calc = sockets.len() as u32)]
    count: u32,
    /// The sockets.
    #[br(parse_with = counted_args, args(u64::from(count), 34, (node_count,)))]
    #[bw(args(node_count))]
    pub sockets: Vec<Socket>,
}

/// A named attachment point on a node.
#[binrw]
#[brw(little, import(node_count: u32))]
#[derive(Debug, Clone, PartialEq)]
pub struct Socket {
    /// The node it is attached to.
    #[br(assert(node_index < node_count, "node index {} ≥ node count {}", node_index, node_count))]
    pub node_index: u32,
    /// Socket name (`RightHand`, `Head`, …).
    pub name: LenString,
    /// Rotation relative to the node, `[x, y, z, w]`.
    pub rotation: [f32; 4],
    /// Position relative to the node.
    pub position: [f32; 3],
}

/// `AnimBindings` section body (spec §4.6): one group per child model, including this file.
#[binrw]
#[brw(little, import(group_count: u32))]
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AnimBindings {
    /// Group `i` lists child model `i`'s animations (group 0: this model's own).
    #[br(parse_with = counted, args(u64::from(group_count), 4))]
    pub groups: Vec<AnimBindingGroup>,
}

/// The animations one child model brings.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize, serde::Deserialize)]
pub struct AnimBindingGroup {
    #[br(temp)]
    #[bw(calc = bindings.len() as u32)]
    count: u32,
    /// One entry per animation of that model, in its order.
    #[br(parse_with = counted, args(u64::from(count), 26))]
    pub bindings: Vec<AnimBinding>,
}

/// How this model uses one animation of a child model.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AnimBinding {
    /// Animation name.
    #[serde(with = "crate::common::len_string")]
    pub name: LenString,
    /// Object half-extents for it.
    pub dims: [f32; 3],
    /// Offset this model applies to it.
    pub translation: [f32; 3],
}

#[cfg(test)]
mod tests {
    use super::tree_parents;

    #[test]
    fn depth_first_child_counts_give_parents() {
        // root(2) → a(1) → b(0); root → c(0)
        assert_eq!(tree_parents([2, 1, 0, 0]), Ok(vec![None, Some(0), Some(1), Some(0)]));
        // Two roots are allowed: the second starts after the first tree closes.
        assert_eq!(tree_parents([1, 0, 0]), Ok(vec![None, Some(0), None]));
        // A node announcing more children than follow.
        assert_eq!(tree_parents([1, 3, 0]), Err(1));
        assert_eq!(tree_parents([u32::MAX]), Err(0));
        assert_eq!(tree_parents([]), Ok(vec![]));
    }
}
