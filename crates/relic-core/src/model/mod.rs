//! The common skeletal-mesh model ("IR") that every format maps into and out of.
//!
//! Plain data with public fields. One coordinate frame for everything: glTF's (right-handed,
//! +Y up, see [`crate::frame`]); lengths in the game's own units (no rescaling); times in seconds;
//! quaternions `[x, y, z, w]`; matrices column-major. Each format converts into this frame exactly
//! once, in its `to_ir`, and back once, in its `from_ir`.
//!
//! What the model does not describe (M2 lights, ABC child models, …) travels in
//! [`Model::extras`] as the source format's own typed data, so that format → IR → the same format
//! loses nothing (see [`FormatExtras`]).

use std::any::Any;
use std::fmt;
use std::sync::Arc;

use crate::format::id::FormatId;
use crate::math::{IDENTITY, Mat4};

mod animation;
mod emitter;
mod extras;
mod material;
mod mesh;
mod scene;
mod skeleton;
mod surface;

pub use animation::*;
pub use emitter::*;
pub use extras::*;
pub use material::*;
pub use mesh::*;
pub use scene::*;
pub use skeleton::*;
pub use surface::*;

/// A whole model: skeleton, meshes, materials, animations and attachments.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Model {
    /// Model name (M2 header name, file stem for formats that store none).
    pub name: String,
    /// The format and version this model was read from, if any.
    pub source: Option<SourceInfo>,
    /// Bones; a parent always comes before its children.
    pub bones: Vec<Bone>,
    /// Meshes (one per format piece/submesh/group and LOD level).
    pub meshes: Vec<Mesh>,
    /// Materials, referenced by [`Mesh::material`].
    pub materials: Vec<Material>,
    /// Skeletal animations (clips).
    pub animations: Vec<Animation>,
    /// Durations in seconds of independent looping clocks (M2 global sequences), referenced by
    /// [`Clock::Global`].
    pub global_sequences: Vec<f32>,
    /// Named points attached to bones (ABC sockets, M2 attachments).
    pub attachments: Vec<Attachment>,
    /// Particle and ribbon emitters on bones.
    pub emitters: Vec<Emitter>,
    /// Lights on bones.
    pub lights: Vec<Light>,
    /// Cameras, on bones or in the model.
    pub cameras: Vec<Camera>,
    /// Collision shapes on bones.
    pub collision_shapes: Vec<CollisionShape>,
    /// Colours and opacities of meshes and texture layers, fixed or keyed.
    pub tints: Vec<Tint>,
    /// Keyed movements of texture coordinates, each naming the layers it moves.
    pub uv_animations: Vec<UvAnimation>,
    /// Source-format data the model does not describe.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub extras: Option<FormatExtras>,
    /// What the game file this model was first read from held, as relic's glTF export recorded
    /// it; a conversion back into that format compares its output with it.
    pub original: Option<Original>,
}

/// The counts `relic info` gives for a game file, carried with a model through glTF (in the
/// scene's extras and, for editors that drop extras, in the names of empty nodes) so that the
/// file written back can be compared with the one it came from.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Original {
    /// The format's name (`m2`, `abc`, `nod`).
    pub format: String,
    /// The file's version.
    pub version: u32,
    /// `(key, count)` pairs as `relic info` names them (`particles`, `weight_sets`, …), plus
    /// `file_bytes`, the file's size; counts of 0 are left out.
    pub counts: Vec<(String, u64)>,
    /// The file itself and the files its reader read beside it (an M2's `.skin` and `.anim`
    /// files), `(name, bytes)`, the file first; empty when not kept. Written back as they are
    /// into the same format and version while the model is still the one they map to
    /// ([`crate::still::judge`]): what an editor's round trip gives back unedited is the file.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub files: Vec<(String, Vec<u8>)>,
}

impl Original {
    /// The count for `key`, 0 when not listed.
    pub fn count(&self, key: &str) -> u64 {
        self.counts.iter().find(|(k, _)| k == key).map_or(0, |(_, v)| *v)
    }

    /// The entries that describe the common model read from the file rather than the file
    /// ([`MODEL_VERTICES`], [`ANIMATION_MS`]), for `model`.
    pub fn model_counts(model: &Model) -> [(&'static str, u64); 2] {
        let vertices: usize = model.meshes.iter().map(|m| m.positions.len()).sum();
        let millis: f64 = model.animations.iter().map(|a| (f64::from(a.duration) * 1000.0).round()).sum();
        [(MODEL_VERTICES, vertices as u64), (ANIMATION_MS, millis.clamp(0.0, u64::MAX as f64) as u64)]
    }
}

/// [`Original`] key: vertices of the common model read from the file (all meshes); an editor's
/// import welds split vertices back down to this.
pub const MODEL_VERTICES: &str = "model_vertices";
/// [`Original`] key: the lengths of all clips together, in milliseconds (rounded per clip).
pub const ANIMATION_MS: &str = "animation_ms";

/// Where a model came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SourceInfo {
    /// The format.
    pub format: FormatId,
    /// The format's own version number.
    pub version: u32,
}

/// An axis-aligned box.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Aabb {
    /// Smallest corner.
    pub min: [f32; 3],
    /// Largest corner.
    pub max: [f32; 3],
}

impl Aabb {
    /// The box of a set of points; `None` if empty.
    pub fn of_points<'a>(points: impl IntoIterator<Item = &'a [f32; 3]>) -> Option<Aabb> {
        let mut points = points.into_iter();
        let first = *points.next()?;
        Some(points.fold(Aabb { min: first, max: first }, |b, p| b.including(*p)))
    }

    /// This box grown to include `p`.
    pub fn including(self, p: [f32; 3]) -> Aabb {
        let mut out = self;
        for ((lo, hi), v) in out.min.iter_mut().zip(out.max.iter_mut()).zip(p) {
            *lo = lo.min(v);
            *hi = hi.max(v);
        }
        out
    }

    /// Whether a stored box states nothing: every coordinate zero, or so close to it that no box
    /// of a model is (magnitude below [`Aabb::UNSET_MAGNITUDE`]: the negative zeros, denormals and
    /// tiny floats an exporter leaves in a box it never filled; JUGGERNAUT.ABC "Fire" at 733 ms
    /// holds −0.0, 8.5e-42, −9.8e-39 and −7.0e-30).
    pub fn is_unset(&self) -> bool {
        self.min.iter().chain(&self.max).all(|c| c.abs() < Self::UNSET_MAGNITUDE)
    }

    /// See [`Aabb::is_unset`]: 1e-20 game units, far below any model's size (the smallest known
    /// models span about 1e-1) and far above the leftovers of uninitialised memory.
    pub const UNSET_MAGNITUDE: f32 = 1e-20;

    /// Largest per-coordinate distance between the corners of two boxes.
    pub fn max_corner_distance(&self, other: &Aabb) -> f32 {
        crate::math::max_abs_diff(&self.min, &other.min).max(crate::math::max_abs_diff(&self.max, &other.max))
    }
}

/// A named point on a bone (ABC socket, M2 attachment).
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Attachment {
    /// Name (ABC socket name, M2 slot name).
    pub name: String,
    /// Numeric id (M2 attachment slot).
    pub id: Option<u32>,
    /// Index into [`Model::bones`].
    pub bone: usize,
    /// Placement relative to the bone.
    pub transform: Transform,
}

impl Model {
    /// Number of vertices over all meshes.
    pub fn vertex_count(&self) -> usize {
        self.meshes.iter().map(|m| m.positions.len()).sum()
    }

    /// Number of triangles over all meshes.
    pub fn triangle_count(&self) -> usize {
        self.meshes.iter().map(|m| m.triangles.len()).sum()
    }

    /// The version of `format` the model came from: its [`Model::source`] when that is `format`
    /// (a game file, or a glTF whose relic extras name one), else the game file its record names
    /// ([`Model::original`], which a glTF keeps even when an editor dropped the extras). Writers
    /// default to it, so that a model goes back into the version it came from.
    pub fn recorded_version(&self, format: FormatId) -> Option<u32> {
        let source = self.source.filter(|s| s.format == format).map(|s| s.version);
        source.or_else(|| self.original.as_ref().filter(|o| o.format == format.as_str()).map(|o| o.version))
    }

    /// Model-space bind matrices recomputed from the local rest transforms (parents first).
    pub fn rest_globals(&self) -> Vec<Mat4> {
        let mut out: Vec<Mat4> = Vec::with_capacity(self.bones.len());
        for bone in &self.bones {
            let local = bone.rest.to_matrix();
            let global = match bone.parent.and_then(|p| out.get(p)) {
                Some(parent) => crate::math::mul(parent, &local),
                None => local,
            };
            out.push(global);
        }
        out
    }
}

#[cfg(test)]
mod tests;
