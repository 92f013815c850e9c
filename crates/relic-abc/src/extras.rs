//! What the common model does not describe, carried in `Model::extras` so that ABC → model → ABC
//! gives the same file.
//!
//! Two kinds of data travel here:
//! * **ABC-only data**: command string, radius, LOD weights, sub-LOD links, weight sets, child
//!   models and their relations, animation bindings, animation dims and markers, node flags and
//!   boxes, v6 LOD arrays and face normals, `AnimDims`, `TransformInfo`, unknown sections, the
//!   section order.
//! * **Exactness data**: values the model holds only in a derived form (v9–v13 weight offsets and
//!   raw biases, v6 node-local vertices), with a digest of the model data they were derived with.
//!   `from_ir` uses them only while the model still has exactly that data (same counts and same
//!   digest); otherwise it recomputes them from the model, and reports what it had to drop.
//!
//! The struct serialises to JSON (for glTF `extras`); `from_ir` accepts both the typed value and
//! that JSON. Arrays of records (weights, counts, links, raw vertices, key times, node matrices,
//! section bodies) are written as base64 of their bytes (`relic_core::packed`), a quarter of what JSON
//! numbers cost; the JSON lists of an older export are still read.
//!
//! What lets a model come back after a tool rewrote the glTF (Blender: every value moved by
//! float noise, vertices reordered and split per corner, clips baked per frame): the stored
//! weights and node matrices place every file vertex, so `from_ir::merge` finds the file's
//! vertices again among the model's (with [`LodExtras::positions`] for the few a file stores
//! elsewhere than its weights put them); the stored key times let `from_ir::resample` key a baked
//! clip at them again; the piece names put reordered meshes back in the file's order.

use relic_core::model::{Animation, Bone, FormatExtras, Mesh, Model};

use crate::file::{
    AnimBindings, ChildModels, HeaderCounts, KeyCountForm, SectionId, TransformInfo, UnknownSection, V6SectionId,
    Weight, WeightSet,
};

/// Everything an ABC file holds beyond the common model.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AbcExtras {
    /// Version of the file the model was read from.
    pub version: u32,
    /// Header command string.
    pub command_string: String,
    /// Data of the file's family.
    pub family: FamilyExtras,
}

/// Family-specific extras.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum FamilyExtras {
    /// v6.
    V6(V6Extras),
    /// v9–v13.
    V12(V12Extras),
}

/// v6 data beyond the model.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct V6Extras {
    /// Geometry box (union of all keyframe boxes), file frame.
    pub bounds: [[f32; 3]; 2],
    /// Per-LOD vertex start indices.
    #[serde(with = "relic_core::packed")]
    pub vertex_start_num: Vec<u16>,
    /// Full-detail vertex count.
    pub normal_verts: u32,
    /// The stored vertices (node-local position, packed normal, node, replacements): exact values
    /// of what the model holds in model space.
    #[serde(with = "relic_core::packed")]
    pub vertices: Vec<RawV6Vertex>,
    /// Packed face normals, one per triangle.
    #[serde(with = "relic_core::packed")]
    pub face_normals: Vec<[i8; 3]>,
    /// Model vertices past the file's vertex count: the file vertex each duplicates (a vertex whose
    /// corners have different UVs becomes several model vertices).
    #[serde(with = "relic_core::packed")]
    pub splits: Vec<u32>,
    /// Digest of the model mesh as `to_ir` made it.
    pub mesh_digest: u64,
    /// Digest of the bones' parents and bind matrices as `to_ir` made them.
    pub bind_digest: u64,
    /// Per node: box, stored index, flags, mesh-deformation vertices.
    pub nodes: Vec<V6NodeExtras>,
    /// Per animation: mesh-deformation data.
    pub animations: Vec<V6AnimExtras>,
    /// `AnimDims` section, if the file has one.
    pub anim_dims: Option<Vec<[f32; 3]>>,
    /// `TransformInfo` section, if the file has one.
    pub transform_info: Option<TransformInfo>,
    /// Unknown sections.
    pub unknown: Vec<UnknownSection>,
    /// Section order after `Header`.
    pub order: Vec<V6SectionId>,
}

/// A v6 vertex as stored.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, bytemuck::Pod, bytemuck::Zeroable, serde::Serialize, serde::Deserialize)]
pub struct RawV6Vertex {
    /// Node-local position.
    pub position: [f32; 3],
    /// Packed normal.
    pub normal: [i8; 3],
    /// Node.
    pub node: u8,
    /// LOD replacement indices.
    pub replacements: [u16; 2],
}

/// A v6 node's data beyond the model.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct V6NodeExtras {
    /// Node-local box of its vertices.
    pub bounds: [[f32; 3]; 2],
    /// Stored depth-first index.
    pub transformation_index: u16,
    /// Flags.
    pub flags: u8,
    /// Mesh-deformation vertices.
    #[serde(with = "relic_core::packed")]
    pub md_vertices: Vec<u16>,
}

/// A v6 animation's mesh-deformation data.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct V6AnimExtras {
    /// Per node: `(scale, translation)` of the byte decompression.
    #[serde(with = "relic_core::packed")]
    pub quantization: Vec<[[f32; 3]; 2]>,
    /// Per node: the raw frames (key-major).
    #[serde(with = "relic_core::packed::lists")]
    pub vertex_frames: Vec<Vec<[u8; 3]>>,
    /// Digest of the morph data the model got from them (targets of this animation and its morph
    /// channel).
    pub morph_digest: u64,
    /// Digest of the animation's channels and morph channels as `to_ir` made them: while it still
    /// matches (and the mesh and skeleton are unchanged), the model's key boxes and clip box are
    /// written as they are, stale or not (they are game data); otherwise they are recomputed.
    #[serde(default)]
    pub pose_digest: u64,
}

/// v9–v13 data beyond the model.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct V12Extras {
    /// Visibility radius.
    pub internal_radius: f32,
    /// The 60 header padding bytes.
    pub padding: Vec<u8>,
    /// v13 header word.
    pub v13_unknown: Option<u32>,
    /// The header's counts as stored: what the header keeps for a section the file does not
    /// have (nothing else determines them; LODCount for a model without pieces too).
    pub counts: HeaderCounts,
    /// Stored LOD distances.
    pub lod_distances: Vec<f32>,
    /// Per piece.
    pub pieces: Vec<PieceExtras>,
    /// Digest of the bones' parents and bind matrices as `to_ir` made them.
    pub bind_digest: u64,
    /// Per node: the stored matrix (row-major, file frame): written again while the model's bind
    /// is within float noise of it (a tool such as Blender moves every value a little), and what
    /// the stored weights place the vertices with.
    #[serde(default, with = "relic_core::packed")]
    pub node_matrices: Vec<[f32; 16]>,
    /// Per node: stored index and flags.
    pub nodes: Vec<NodeExtras>,
    /// Weight sets.
    pub weight_sets: Vec<WeightSet>,
    /// `ChildModels` section.
    pub child_models: Option<ChildModels>,
    /// Per animation.
    pub animations: Vec<AnimExtras>,
    /// `AnimBindings` section.
    pub anim_bindings: Option<AnimBindings>,
    /// Unknown sections.
    pub unknown: Vec<UnknownSection>,
    /// Section order after `Header`.
    pub order: Vec<SectionId>,
}

/// A piece's data beyond the model.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PieceExtras {
    /// Name (to find the piece again when a tool reorders the meshes: Blender sorts them by
    /// name).
    #[serde(default)]
    pub name: String,
    /// Material slot as stored.
    pub material_index: u16,
    /// Specular exponent.
    pub specular_power: f32,
    /// Specular intensity.
    pub specular_scale: f32,
    /// LOD bias (v ≥ 10).
    pub lod_weight: Option<f32>,
    /// The unknown u16.
    pub unknown: u16,
    /// Per LOD.
    pub lods: Vec<LodExtras>,
}

/// A piece LOD's data beyond the model.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LodExtras {
    /// Stored weight count of each file vertex.
    #[serde(with = "relic_core::packed")]
    pub weight_counts: Vec<u16>,
    /// The stored weights (node, pre-multiplied offset, raw bias), vertex after vertex.
    #[serde(with = "relic_core::packed")]
    pub weights: Vec<Weight>,
    /// Sub-LOD link of each file vertex.
    #[serde(with = "relic_core::packed")]
    pub sub_lod: Vec<u16>,
    /// Model vertices past the file's vertex count: the file vertex each duplicates.
    #[serde(with = "relic_core::packed")]
    pub splits: Vec<u32>,
    /// File vertices whose stored position is not where their weights put them, with that
    /// position (model frame): what, with the weights, finds the file vertices again after a
    /// tool reordered the mesh (`from_ir::merge`).
    #[serde(default, with = "relic_core::packed")]
    pub positions: Vec<MovedVertex>,
    /// Digest of the model mesh as `to_ir` made it.
    pub digest: u64,
}

impl LodExtras {
    /// What breaks the rules its lists keep (one weight count and one sub-LOD link per file
    /// vertex, as many weights as the counts add up to, every split a file vertex), naming the
    /// field; `None` when they hold. Extras from a glTF's JSON are checked before use.
    pub(crate) fn inconsistency(&self) -> Option<String> {
        let vertices = self.weight_counts.len();
        let counted: usize = self.weight_counts.iter().map(|&c| usize::from(c)).sum();
        if self.sub_lod.len() != vertices {
            return Some(format!("sub_lod holds {} links for {vertices} vertices", self.sub_lod.len()));
        }
        if self.weights.len() != counted {
            return Some(format!("weights holds {} for the {counted} its weight_counts add up to", self.weights.len()));
        }
        if let Some(s) = self.splits.iter().find(|&&s| s as usize >= vertices) {
            return Some(format!("splits names vertex {s} of {vertices}"));
        }
        None
    }
}

/// A file vertex whose stored position is not where its weights put it.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, bytemuck::Pod, bytemuck::Zeroable, serde::Serialize, serde::Deserialize)]
pub struct MovedVertex {
    /// File vertex index.
    pub vertex: u32,
    /// Its stored position (model frame).
    pub position: [f32; 3],
}

/// A node's data beyond the model.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct NodeExtras {
    /// Stored index.
    pub index: u16,
    /// Stored flags.
    pub flags: u8,
}

/// An animation's data beyond the model.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AnimExtras {
    /// Name (to recognise the animation).
    pub name: String,
    /// Object half-extents.
    pub dims: [f32; 3],
    /// Whether the keyframe count follows the marker (−1) or is the marker.
    #[serde(default)]
    pub key_count_form: KeyCountForm,
    /// Key times (ms) as stored: the key times of a clip without channels (a file without
    /// nodes), and the times a clip a tool baked is keyed at again (`from_ir::resample`).
    #[serde(default, with = "relic_core::packed")]
    pub times: Vec<u32>,
    /// v13: per-node track prefixes.
    #[serde(with = "relic_core::packed")]
    pub node_prefixes: Vec<i32>,
    /// v13: the 8 bytes after each transform, node after node.
    #[serde(with = "relic_core::packed")]
    pub key_extras: Vec<[u8; 8]>,
}

// Serialising these plain structs cannot fail (string keys, no fallible `Serialize`); were it to,
// the empty text is refused by `from_json` on the way back, so the extras are dropped, not bent.
static OPS: relic_core::model::ExtrasOps =
    relic_core::extras_ops!(AbcExtras, |e: &AbcExtras| { serde_json::to_string(e).unwrap_or_default() });

impl AbcExtras {
    /// Wraps the extras for `Model::extras`.
    pub(crate) fn into_format_extras(self) -> FormatExtras {
        FormatExtras::new(crate::FORMAT, self, &OPS)
    }

    /// The ABC extras of a model: the typed value, or its JSON form. `Err` if there are ABC
    /// extras that cannot be decoded (the text says why).
    /// Borrowed when the model holds them typed (no copy for a write).
    pub fn of(model: &Model) -> Result<Option<std::borrow::Cow<'_, AbcExtras>>, String> {
        let Some(extras) = &model.extras else { return Ok(None) };
        if extras.format() != crate::FORMAT {
            return Ok(None);
        }
        extras.typed_or_decoded(|json| serde_json::from_str::<AbcExtras>(json).map_err(|e| e.to_string())).transpose()
    }
}

/// A 64-bit digest of model data: order-sensitive, bit-exact for floats.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Digest(u64);

impl Digest {
    pub(crate) fn new() -> Self {
        Digest(0x243F_6A88_85A3_08D3)
    }
    #[inline]
    pub(crate) fn word(&mut self, w: u32) {
        self.0 = (self.0 ^ u64::from(w)).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
    }
    pub(crate) fn f32s(&mut self, values: &[f32]) {
        for v in values {
            self.word(v.to_bits());
        }
    }
    pub(crate) fn len(&mut self, n: usize) {
        self.word(n as u32);
        self.word((n as u64 >> 32) as u32);
    }
    pub(crate) fn finish(self) -> u64 {
        self.0 ^ (self.0 >> 31)
    }
}

/// Digest of the geometry a mesh carries (positions, normals, UVs, triangles, skin).
pub(crate) fn mesh_digest(mesh: &Mesh) -> u64 {
    let mut d = Digest::new();
    d.len(mesh.positions.len());
    d.f32s(bytemuck::cast_slice(&mesh.positions));
    d.len(mesh.normals.len());
    d.f32s(bytemuck::cast_slice(&mesh.normals));
    d.len(mesh.uv_sets.len());
    for set in &mesh.uv_sets {
        d.len(set.len());
        d.f32s(bytemuck::cast_slice(set));
    }
    d.len(mesh.triangles.len());
    for t in &mesh.triangles {
        t.iter().for_each(|&i| d.word(i));
    }
    d.len(mesh.skin.offsets.len());
    mesh.skin.offsets.iter().for_each(|&o| d.word(o));
    for inf in &mesh.skin.influences {
        d.word(inf.bone);
        d.word(inf.weight.to_bits());
    }
    d.finish()
}

/// Digest of the skeleton's parents and bind matrices.
pub(crate) fn bind_digest(bones: &[Bone]) -> u64 {
    let mut d = Digest::new();
    d.len(bones.len());
    for b in bones {
        d.word(b.parent.map_or(u32::MAX, |p| p as u32));
        d.f32s(&b.bind_matrix);
    }
    d.finish()
}

/// Digest of the morph data of one animation: the targets it drives and its channel.
pub(crate) fn morph_digest(
    mesh: &Mesh,
    targets: std::ops::Range<usize>,
    channel: Option<&relic_core::model::MorphChannel>,
) -> u64 {
    let mut d = Digest::new();
    // Targets the mesh no longer has digest as none: the digest then differs from the stored one
    // and the extras are not used (the point of the digest).
    for t in mesh.morph_targets.get(targets).unwrap_or_default() {
        d.len(t.position_deltas.len());
        d.f32s(bytemuck::cast_slice(&t.position_deltas));
        d.len(t.normal_deltas.len());
    }
    if let Some(c) = channel {
        d.len(c.times.len());
        d.f32s(&c.times);
        d.f32s(&c.weights);
    }
    d.finish()
}

/// Digest of what poses a clip: its bone channels and morph channels.
pub(crate) fn pose_digest(anim: &Animation) -> u64 {
    let mut d = Digest::new();
    d.len(anim.channels.len());
    for c in &anim.channels {
        d.word(c.bone as u32);
        d.word(c.interpolation as u32);
        d.word(match c.clock {
            relic_core::model::Clock::Animation => 0,
            relic_core::model::Clock::Global(g) => 1 + g as u32,
        });
        d.len(c.times.len());
        d.f32s(&c.times);
        match &c.values {
            relic_core::model::ChannelValues::Translation(v) => d.f32s(bytemuck::cast_slice(v)),
            relic_core::model::ChannelValues::Rotation(v) => d.f32s(bytemuck::cast_slice(v)),
            relic_core::model::ChannelValues::Scale(v) => {
                d.word(u32::MAX);
                d.f32s(bytemuck::cast_slice(v));
            }
        }
    }
    d.len(anim.morph_channels.len());
    for c in &anim.morph_channels {
        d.len(c.mesh);
        d.f32s(&c.times);
        d.f32s(&c.weights);
    }
    d.finish()
}
