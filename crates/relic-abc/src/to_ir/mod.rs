//! ABC → common model.
//!
//! * Frame ([`crate::frame`]): v9–v13 are LithTech's left-handed +Y-up frame facing +Z,
//!   [`LITHTECH`](crate::frame::LITHTECH) (mirror X, so the model still faces glTF's front, +Z).
//!   v6 geometry is stored with Z flipped: the engine flips it (`TransformInfo.FlipMat`, and
//!   always for LithTech 1.0 files, which have no `TransformInfo`) before it lives in that frame,
//!   so such files map with [`LITHTECH_FLIPPED_Z`](crate::frame::LITHTECH_FLIPPED_Z) (the two
//!   mirrors cancel: a half turn about Y); a v6 file with `FlipMat = 0` maps like v9–v13.
//!   Triangle winding is reversed for both families: that makes the model's triangles
//!   counter-clockwise around the stored normals (checked on every real file by the winding test
//!   in `tests/ir.rs`).
//! * Times: milliseconds → seconds. Rotations: v6 keys are conjugated (unless `TransformInfo`
//!   says otherwise), v9–v13 keys are not.
//! * v6 has no bind pose: animation 0 key 0 is the reference pose (as in the engine). Its vertices
//!   are node-local; the model gets them in model space at that pose.
//! * v9–v13 node matrices are the bind pose; weights are the biases normalised to sum 1.
//! * A vertex whose face corners carry different UVs becomes one model vertex per UV.
//! * v6 mesh deformation becomes one morph target per animation key, driven by a morph channel
//!   per animation.

mod v12;
mod v6;

use std::collections::HashMap;

use relic_core::ReadError;
use relic_core::binary::LenString;
use relic_core::frame::Frame;
use relic_core::math::{self, Mat4};
use relic_core::model::{
    Channel, ChannelValues, Clock, Event, Influence, Interpolation, Material, Model, Skin, SourceInfo, TextureRef,
};

use crate::file::common::text;
use crate::file::{AbcFile, NodeKey};

pub(crate) use v6::v6_frame;

/// Interpolation time of animations that do not store one (before v12, or with the marker as
/// the keyframe count), as the engine assumes (S3/S5).
pub(crate) const DEFAULT_BLEND_MS: u32 = 200;

/// Maps a parsed file to the common model.
pub(crate) fn to_ir(file: &AbcFile) -> Result<Model, ReadError> {
    match file {
        AbcFile::V6(f) => v6::to_ir(f),
        AbcFile::V12(f) => Ok(v12::to_ir(f)),
    }
}

/// The model of a v6 file (what `from_ir` poses to recompute keyframe boxes).
pub(crate) fn v6_model(file: &crate::file::V6File) -> Result<Model, ReadError> {
    v6::to_ir(file)
}

/// The material of skin slot `slot` (a piece's material index; v6: the model's one skin, 0). No
/// LithTech model names a texture file (textures.md §4.2): the game fills the slot from its own
/// tables (NOLF: slot 0 the body skin, slot 1 the head), so the material's texture is the slot,
/// which a texture search (`relic::textures`: `--skin`, the game's `SKINS` folder) turns into a
/// file. Texture coordinates are the mesh's first set; LithTech skins repeat (textures.md §5).
pub(crate) fn skin_material(slot: u32) -> Material {
    Material {
        name: format!("material {slot}"),
        textures: vec![TextureRef {
            slot: Some(slot),
            uv_set: Some(0),
            wrap_u: true,
            wrap_v: true,
            ..TextureRef::default()
        }],
        depth_write: true,
        ..Material::default()
    }
}

/// Milliseconds → seconds.
pub(crate) fn seconds(ms: u32) -> f32 {
    ms as f32 / 1000.0
}

/// Key times in seconds, strictly increasing as the model needs them: a key that does not come
/// after the one before it (two keys on one millisecond, or a time going back, which no known
/// exporter writes) is placed at the next float after it; writing back merges such keys and
/// reports it.
fn key_seconds(ms: impl Iterator<Item = u32>) -> Vec<f32> {
    let mut out: Vec<f32> = Vec::new();
    for t in ms {
        let s = seconds(t);
        out.push(match out.last() {
            Some(&before) if s <= before => before.next_up(),
            _ => s,
        });
    }
    out
}

/// A row-major file matrix as a column-major model matrix (same frame).
pub(crate) fn column_major(row_major: &[f32; 16]) -> Mat4 {
    math::transpose(row_major)
}

fn source(version: u32) -> SourceInfo {
    SourceInfo { format: crate::FORMAT, version }
}

/// Translation and rotation channels of node `n` (none without keys).
fn node_channels(n: usize, times: &[f32], keys: &[NodeKey], frame: Frame, conjugate: bool) -> [Channel; 2] {
    let translations = keys.iter().map(|k| frame.vector_to_ir(k.translation)).collect();
    let rotations = keys
        .iter()
        .map(|k| frame.quat_to_ir(if conjugate { math::quat_conjugate(k.rotation) } else { k.rotation }))
        .collect();
    let channel = |values| Channel {
        bone: n,
        clock: Clock::Animation,
        interpolation: Interpolation::Linear,
        times: times.to_vec(),
        values,
    };
    [channel(ChannelValues::Translation(translations)), channel(ChannelValues::Rotation(rotations))]
}

/// The events of an animation: one per key with a non-empty command string.
fn key_events<'a>(keys: impl Iterator<Item = (u32, &'a LenString)>) -> Vec<Event> {
    keys.filter(|(_, command)| !command.0.is_empty())
        .map(|(time, command)| Event { time: seconds(time), name: text(command), ..Event::default() })
        .collect()
}

/// Model vertices from face corners: model vertex `v` is file vertex `v` with the UV of its first
/// corner; a corner of the same vertex with another UV adds a copy after the file's vertices.
struct CornerSplit {
    uvs: Vec<[f32; 2]>,
    seen: Vec<bool>,
    splits: Vec<u32>,
    copies: HashMap<(u32, [u32; 2]), u32>,
}

impl CornerSplit {
    fn new(vertices: usize) -> Self {
        Self { uvs: vec![[0.0; 2]; vertices], seen: vec![false; vertices], splits: Vec::new(), copies: HashMap::new() }
    }

    /// The model vertex of a corner (`v` is in range: checked when the file was read).
    fn corner(&mut self, v: u32, uv: [f32; 2]) -> u32 {
        let i = v as usize;
        match (self.seen.get_mut(i), self.uvs.get_mut(i)) {
            (Some(seen), Some(slot)) if !*seen => {
                *seen = true;
                *slot = uv;
                return v;
            }
            (Some(_), Some(slot)) if slot.map(f32::to_bits) == uv.map(f32::to_bits) => return v,
            _ => {}
        }
        let next = self.uvs.len() as u32;
        *self.copies.entry((v, uv.map(f32::to_bits))).or_insert_with(|| {
            self.splits.push(v);
            self.uvs.push(uv);
            next
        })
    }

    /// Appends, for every copy, the value of the vertex it copies.
    fn extend<T: Copy>(&self, values: &mut Vec<T>) {
        for &s in &self.splits {
            if let Some(&v) = values.get(s as usize) {
                values.push(v);
            }
        }
    }
}

fn skin_with_copies<I>(per_vertex: impl IntoIterator<Item = I>, split: &CornerSplit) -> Skin
where
    I: IntoIterator<Item = Influence>,
{
    let base = Skin::from_vertices(per_vertex);
    let n = base.vertex_count();
    let copies = split.splits.iter().map(|&s| s as usize);
    Skin::from_vertices((0..n).chain(copies).map(|v| base.vertex(v).iter().copied()))
}
