//! relic-gltf: glTF 2.0 export and import of the relic common model ([`relic_core::Model`]).
//!
//! The model is already in glTF's frame (right-handed, +Y up, counter-clockwise front faces,
//! quaternions `[x, y, z, w]`, column-major matrices, seconds), so neither direction converts
//! axes. Lengths stay in the game's own units (the asset's `extras` say so).
//!
//! ```
//! use relic_gltf::{ExportOptions, export_glb, import};
//!
//! let model = relic_gltf::samples::skinned_animated();
//! // Its Hermite "wave" is written as linear keys on the curve (Blender's importer ignores
//! // CUBICSPLINE tangents), with a note; `keep_tangents` writes it as it is.
//! let glb = export_glb(&model, &ExportOptions::default()).unwrap();
//! assert_eq!(glb.losses.len(), 1);
//! let exact = export_glb(&model, &ExportOptions { keep_tangents: true, ..ExportOptions::default() }).unwrap();
//! assert!(exact.losses.is_empty());
//! let back = import(&glb.value, None).unwrap();
//! assert_eq!(back.bones.len(), model.bones.len());
//! assert_eq!(back.animations.len(), model.animations.len());
//! ```
//!
//! # What goes where
//!
//! | model | glTF |
//! |---|---|
//! | bones | one node per bone (node *i* = bone *i*), the hierarchy as node children, one skin whose joint *i* is bone *i*, inverse bind matrices from [`Bone::inverse_bind_matrix`](relic_core::model::Bone) |
//! | several root bones | a synthetic root node above them (glTF wants joints under one common root); not a bone on import |
//! | meshes (every LOD) | one mesh with one primitive and one root node each: `POSITION` (min/max), `NORMAL`, `TEXCOORD_0/1`, `JOINTS_n`/`WEIGHTS_n` in groups of four influences, morph targets; LOD and part id in mesh `extras` (`lod0_only` keeps LOD 0) |
//! | materials | alpha mode from the blend mode (MASK with the game's cutoff), double-sided, `KHR_materials_unlit`, a fixed UV transform as `KHR_texture_transform`; the base texture embedded as PNG where the [`ExportOptions::textures`] source finds it (samplers from the wrap flags), every texture reference in layer order in `extras` |
//! | animations | one glTF animation per clip: translation, rotation, scale channels with STEP or LINEAR as stored, CUBICSPLINE as linear keys on its curve (or as stored with `keep_tangents`); morph weight channels on the mesh nodes; events, looping, duration and boxes in `extras` |
//! | attachments | named child nodes of their bones |
//! | emitters | named child nodes of their bones with the `RELIC_particle_emitter` / `RELIC_ribbon_emitter` extension (`extensionsUsed` only: the record whole, the animated values as accessors; `docs/schema/RELIC_emitter.schema.json`), the record again in the node's `extras` (editors drop extensions), and a stand-in mesh (a quad of the emitter's texture at its base size) that import drops |
//! | lights, cameras, collision shapes | named child nodes of their bones (a camera without one: of the scene): a `KHR_lights_punctual` point, directional or spot light (an ambient light has none: noted), a perspective camera turned so that its −Z looks at the target, an empty node for a shape; the whole of each in the node's `extras.relic` ([`extras::SceneObjectExtras`]) |
//! | format extras | root `extras.relic.format_extras`, handed back on import as [`FormatExtras::from_json`](relic_core::model::FormatExtras::from_json) |
//!
//! See [`extras`] for the exact JSON shapes.
//!
//! # What glTF cannot say, and what export does about it
//!
//! * **Bone flags** (M2 "do not inherit the parent's translation/rotation/scale"): glTF nodes
//!   always inherit everything. The node of such a bone gets the *evaluated* local transform
//!   (`inverse(parent global) · global`, with relic-anim's [`Evaluator`](relic_anim::Evaluator)
//!   as the semantics of record), in the rest pose and, in every clip that moves the bone or one of
//!   its ancestors, sampled at every key time, at [`ExportOptions::bake_fps`] in between, and
//!   between two samples again wherever a straight line misses the bone's arc. The flags, the
//!   bone's own rest transform and its original channels are kept in `extras`, so import restores
//!   them exactly; a file another tool rewrote (Blender keeps the flags but keys the baked values)
//!   has those bones' keys taken again in the model's composition (`import/unbake.rs`). **Rotation-only** bones (ABC) simply get no translation channel (the
//!   evaluator ignores it; it is kept in `extras`). **Billboards** need a camera: flags only.
//! * **Global sequences** (M2 [`Clock::Global`](relic_core::model::Clock)): sampled into every
//!   clip that uses them, over the clip's duration, with the global clock starting with the clip
//!   (relic-anim's `ClipTime::at`). Each period wrap is kept as a pair of keys a millisecond
//!   apart (an editor merges closer ones). The original channels travel in `extras` and come back on import. Channels with keys
//!   before 0 s (glTF times are non-negative) are baked the same way.
//! * **A clip without bone channels** (events only, or morph weights only) gets one key holding the
//!   first bone's rest rotation: glTF animations need a channel, and Blender then makes the same
//!   one armature action per clip as for every other clip. Import drops it again.
//! * **Long arcs**: a linear rotation span turning further than 0.2 rad (0.1 between the unit
//!   quaternions) is written as shorter spans on slerp's arc, since Blender interpolates each
//!   component on its own; the channel as stored is kept in `extras` (`export/arcs.rs`).
//! * **Zero weights and repeated bones** of a vertex are dropped and merged; weights are
//!   renormalised in f64 so each vertex sums to 1 as closely as f32 allows.
//! * **Blend modes** glTF lacks (additive, modulate) export as `BLEND`; the exact mode is in
//!   `extras`.
//! * Normals further than 0.5 % from unit length are renormalised (the validator requires unit
//!   normals); rotations in LINEAR channels are flipped into the hemisphere of the previous key
//!   ([`ExportOptions::quaternion_continuity`]) so that viewers interpolating component-wise take
//!   the short way, as slerp does.
//!
//! Import reads `.glb` and `.gltf` (external `.bin` files next to it, or data URIs), bounds-checks
//! every accessor against its buffer before it allocates, and returns a model that passes
//! [`Model::validate`](relic_core::Model::validate) or an error.

mod buffer;
pub mod error;
pub mod export;
pub mod extras;
pub mod import;
pub mod samples;
pub mod summary;

mod bake;
mod deflate;
mod entry;
mod faces;
mod keys;
mod naming;
mod read;
pub mod textures;

pub use entry::{GLB_ENTRY, GLTF_ENTRY};
pub use error::GltfError;

/// glTF 2.0, as named in [`relic_core::model::SourceInfo`] and `relic info`.
pub const FORMAT: relic_core::FormatId = relic_core::FormatId::new("gltf");
pub use export::{export_glb, export_gltf};
pub use import::{MaterialImage, import, material_images, referenced_files};

/// Choices for [`export_glb`] and [`export_gltf`].
#[derive(Debug, Clone)]
pub struct ExportOptions {
    /// Export only the full-detail meshes (LOD 0).
    pub lod0_only: bool,
    /// Where the pixels of the model's textures come from ([`textures::TextureSource`]: the
    /// `relic` facade finds and decodes the game's BLP/DTX files; [`textures::DirTextures`] finds
    /// PNG/JPEG files). `None`: no images, only the textures' game paths (in material `extras`).
    /// A texture the source cannot find is a note, never a failure.
    pub textures: Option<std::sync::Arc<dyn textures::TextureSource>>,
    /// Flip each LINEAR rotation key into the hemisphere of the previous one (same rotation,
    /// opposite sign) so viewers that interpolate component-wise (Blender) take the short way.
    /// Off keeps the stored quaternions bit for bit.
    pub quaternion_continuity: bool,
    /// Samples per second between keys where channels must be baked (bones whose flags glTF
    /// cannot express, global sequences).
    pub bake_fps: f32,
    /// Write cubic-spline (Hermite, Bezier) channels as CUBICSPLINE with their tangents. Off (the
    /// default), each becomes linear keys on its curve, with a note: Blender's glTF importer
    /// reads only the keys' values of a CUBICSPLINE channel and plays another curve.
    pub keep_tangents: bool,
}

impl Default for ExportOptions {
    fn default() -> Self {
        Self { lod0_only: false, textures: None, quaternion_continuity: true, bake_fps: 30.0, keep_tangents: false }
    }
}

/// The README's example, compiled and run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctest;
