//! [`LtbExtras`]: what an LTB holds beyond the common model travels with the model as the file
//! itself, so that LTB → model → LTB gives the same bytes.
//!
//! The common model cannot hold an LTB's command string, radius, OBBs, weight sets, child models
//! and their animation bindings, animation dims and compression modes, header counts of the
//! source model, texture slots and render styles, vertex colours, extra UV sets, basis vectors,
//! bone sets, used-node lists, or the exact 16-bit values of compressed tracks. Rather than a
//! second description of all of that, the extras keep the parsed file, and digests of every part
//! of the model as `to_ir` made it from the file. `from_ir` writes the stored file as it is while
//! the model is unchanged, and otherwise takes from it every part that still fits the model
//! (`from_ir`'s module documentation says how).
//!
//! Through glTF the extras travel as JSON: the file's own bytes (as read: wrapped, or not) in
//! base64, and the digests. CrossFire's wrapped files are their own most compact form.

use std::sync::Arc;

use relic_core::hash::Fnv1a;
use relic_core::model::{Animation, Attachment, Bone, ChannelValues, Clock, FormatExtras, Material, Mesh, Model};

use crate::file::LtbFile;

/// Everything an LTB holds beyond the common model: the file, and digests of the model made
/// from it.
#[derive(Debug, Clone, PartialEq)]
pub struct LtbExtras {
    /// The file as read.
    pub file: Arc<LtbFile>,
    /// Digests of the model's parts as `to_ir` made them.
    pub digests: Digests,
}

/// Digests of a model's parts (FNV-1a 64 over their bits): a part whose digest still matches is
/// exactly what `to_ir` made from the stored file.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct Digests {
    /// Bones (names, parents, flags, rest and bind transforms).
    pub skeleton: u64,
    /// Each mesh.
    pub meshes: Vec<u64>,
    /// Materials.
    pub materials: u64,
    /// Each animation.
    pub animations: Vec<u64>,
    /// Attachments.
    pub attachments: u64,
}

impl Digests {
    /// The digests of `model`.
    pub fn of(model: &Model) -> Self {
        Digests {
            skeleton: skeleton_digest(&model.bones),
            meshes: model.meshes.iter().map(mesh_digest).collect(),
            materials: materials_digest(&model.materials),
            animations: model.animations.iter().map(animation_digest).collect(),
            attachments: attachments_digest(&model.attachments),
        }
    }
}

/// The JSON form: the file's bytes and the digests.
#[derive(serde::Serialize, serde::Deserialize)]
struct Json {
    /// The file as read, base64.
    file: String,
    digests: Digests,
}

fn to_json(e: &LtbExtras) -> String {
    let bytes = e.file.wrapper.as_ref().map(|w| w.original.clone()).or_else(|| crate::write(&e.file).ok());
    // A file that was read (or decoded from these extras) writes: never the empty default.
    let json = Json { file: relic_core::base64::encode(&bytes.unwrap_or_default()), digests: e.digests.clone() };
    // Serializing fails only on a map with other keys than strings; there is none.
    serde_json::to_string(&json).unwrap_or_default()
}

fn from_json(text: &str) -> Result<LtbExtras, String> {
    let json: Json = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let bytes = relic_core::base64::decode(json.file.as_bytes()).ok_or("the file is not base64")?;
    let file = crate::read(&bytes).map_err(|e| format!("the stored file does not read: {e}"))?;
    Ok(LtbExtras { file: Arc::new(file), digests: json.digests })
}

static OPS: relic_core::model::ExtrasOps = relic_core::extras_ops!(LtbExtras, to_json);

impl LtbExtras {
    /// Wraps the extras for `Model::extras`.
    pub(crate) fn into_format_extras(self) -> FormatExtras {
        FormatExtras::new(crate::FORMAT, self, &OPS)
    }

    /// The LTB extras of a model (typed, or decoded from their JSON); `Err` says why extras of
    /// this format could not be decoded.
    pub fn of(model: &Model) -> Result<Option<std::borrow::Cow<'_, LtbExtras>>, String> {
        let Some(extras) = &model.extras else { return Ok(None) };
        if extras.format() != crate::FORMAT {
            return Ok(None);
        }
        extras.typed_or_decoded(from_json).transpose()
    }
}

fn f32s(h: &mut Fnv1a, values: &[f32]) {
    h.update(bytemuck::cast_slice(values));
}

fn len(h: &mut Fnv1a, n: usize) {
    h.update(&(n as u64).to_le_bytes());
}

fn text(h: &mut Fnv1a, s: &str) {
    len(h, s.len());
    h.update(s.as_bytes());
}

/// Digest of the bones.
pub(crate) fn skeleton_digest(bones: &[Bone]) -> u64 {
    let mut h = Fnv1a::new();
    len(&mut h, bones.len());
    for b in bones {
        text(&mut h, &b.name);
        h.update(&b.parent.map_or(u64::MAX, |p| p as u64).to_le_bytes());
        h.update(&[u8::from(b.flags.rotation_only)]);
        f32s(&mut h, &b.bind_matrix);
        f32s(&mut h, &b.rest.translation);
        f32s(&mut h, &b.rest.rotation);
    }
    h.value()
}

/// Digest of a mesh's geometry, skin, morph targets, name, material and LOD.
pub(crate) fn mesh_digest(mesh: &Mesh) -> u64 {
    let mut h = Fnv1a::new();
    text(&mut h, &mesh.name);
    h.update(&mesh.material.map_or(u64::MAX, |m| m as u64).to_le_bytes());
    h.update(&mesh.lod.level.to_le_bytes());
    f32s(&mut h, &[mesh.lod.distance]);
    for column in [&mesh.positions, &mesh.normals] {
        len(&mut h, column.len());
        f32s(&mut h, bytemuck::cast_slice(column));
    }
    len(&mut h, mesh.uv_sets.len());
    for set in &mesh.uv_sets {
        len(&mut h, set.len());
        f32s(&mut h, bytemuck::cast_slice(set));
    }
    len(&mut h, mesh.triangles.len());
    h.update(bytemuck::cast_slice(&mesh.triangles));
    len(&mut h, mesh.skin.offsets.len());
    h.update(bytemuck::cast_slice(&mesh.skin.offsets));
    for inf in &mesh.skin.influences {
        h.update(&inf.bone.to_le_bytes());
        f32s(&mut h, &[inf.weight]);
    }
    len(&mut h, mesh.morph_targets.len());
    for t in &mesh.morph_targets {
        f32s(&mut h, bytemuck::cast_slice(&t.position_deltas));
        f32s(&mut h, bytemuck::cast_slice(&t.normal_deltas));
    }
    h.value()
}

/// Digest of the materials.
pub(crate) fn materials_digest(materials: &[Material]) -> u64 {
    let mut h = Fnv1a::new();
    len(&mut h, materials.len());
    for m in materials {
        text(&mut h, &m.name);
        len(&mut h, m.textures.len());
        for t in &m.textures {
            text(&mut h, &t.path);
            h.update(&t.slot.map_or(u64::MAX, u64::from).to_le_bytes());
            h.update(&t.uv_set.map_or(u64::MAX, u64::from).to_le_bytes());
        }
    }
    h.value()
}

/// Digest of what an animation stores: name, timing, channels, morph channels and events.
pub(crate) fn animation_digest(anim: &Animation) -> u64 {
    let mut h = Fnv1a::new();
    text(&mut h, &anim.name);
    f32s(&mut h, &[anim.duration, anim.blend_in]);
    len(&mut h, anim.channels.len());
    for c in &anim.channels {
        h.update(&(c.bone as u64).to_le_bytes());
        h.update(&[c.interpolation as u8]);
        h.update(
            &match c.clock {
                Clock::Animation => 0u64,
                Clock::Global(g) => 1 + g as u64,
            }
            .to_le_bytes(),
        );
        len(&mut h, c.times.len());
        f32s(&mut h, &c.times);
        match &c.values {
            ChannelValues::Translation(v) => f32s(&mut h, bytemuck::cast_slice(v)),
            ChannelValues::Rotation(v) => f32s(&mut h, bytemuck::cast_slice(v)),
            ChannelValues::Scale(v) => {
                h.update(b"scale");
                f32s(&mut h, bytemuck::cast_slice(v));
            }
        }
    }
    len(&mut h, anim.morph_channels.len());
    for c in &anim.morph_channels {
        h.update(&(c.mesh as u64).to_le_bytes());
        f32s(&mut h, &c.times);
        f32s(&mut h, &c.weights);
    }
    len(&mut h, anim.events.len());
    for e in &anim.events {
        f32s(&mut h, &[e.time]);
        text(&mut h, &e.name);
    }
    h.value()
}

/// Digest of the attachments.
pub(crate) fn attachments_digest(attachments: &[Attachment]) -> u64 {
    let mut h = Fnv1a::new();
    len(&mut h, attachments.len());
    for a in attachments {
        text(&mut h, &a.name);
        h.update(&(a.bone as u64).to_le_bytes());
        f32s(&mut h, &a.transform.translation);
        f32s(&mut h, &a.transform.rotation);
        f32s(&mut h, &a.transform.scale);
    }
    h.value()
}
