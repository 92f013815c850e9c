//! Common model → ABC: the version choice and what no ABC version stores; the family builders
//! ([`v12`], [`v6`]) assemble the file from the shared parts ([`skeleton`], [`animation`],
//! [`mesh`], [`material`]), which never refer back to them.
//!
//! Any valid model can be written. What the target cannot hold is reported as a `Loss`:
//! scale keys, cubic or step interpolation (ABC interpolates linearly between its keys), global
//! clocks, extra UV sets, morph targets (v9–v13), several influences per vertex (v6), LODs and
//! materials (v6), sockets and child models (v6). [`crate::extras::AbcExtras`] from a model that
//! came from ABC are used while they still fit the model (same counts; for derived values, the
//! same digest of the model data), so that ABC → model → ABC gives the same file.

mod animation;
mod corners;
mod material;
pub(crate) mod merge;
mod mesh;
mod names;
pub(crate) mod resample;
mod skeleton;
mod v12;
mod v6;

use relic_core::model::Model;
use relic_core::{Converted, Loss, WriteError, WriteOptions};

use crate::extras::AbcExtras;
use crate::file::AbcFile;
use crate::file::v12::VERSIONS;

/// Maps a model to an ABC file of the version `options` asks for (default: the version the model
/// was read from, if it came from ABC; else 12).
pub(crate) fn from_ir(model: &Model, options: &WriteOptions) -> Result<Converted<AbcFile>, WriteError> {
    model.validate()?;
    let version = target_version(model, options)?;
    let mut losses = Vec::new();
    let extras = match AbcExtras::of(model) {
        Ok(e) => e,
        Err(why) => {
            losses.push(Loss::new(
                "extras",
                format!("ABC extras could not be read ({why}); written from the model alone"),
            ));
            None
        }
    };
    report_unstorable(model, version, &mut losses);
    let file = if version == 6 {
        AbcFile::V6(v6::build(model, extras.as_deref(), &mut losses)?)
    } else {
        AbcFile::V12(v12::build(model, version, extras.as_deref(), &mut losses)?)
    };
    Ok(Converted { value: file, losses })
}

/// Reports model data no ABC version stores (each family reports its own gaps as it builds).
fn report_unstorable(model: &Model, version: u32, losses: &mut Vec<Loss>) {
    for (i, b) in model.bones.iter().enumerate() {
        let element = || format!("bones[{i}] {:?}", b.name);
        let f = &b.flags;
        if !(f.inherit_translation && f.inherit_rotation && f.inherit_scale) {
            losses.push(Loss::new(
                element(),
                "\"ignore parent translation/rotation/scale\" not stored (ABC nodes always inherit)",
            ));
        }
        if f.billboard != relic_core::model::Billboard::None {
            losses.push(Loss::new(element(), "billboarding not stored"));
        }
        if b.rest.scale.iter().any(|s| (s - 1.0).abs() > 1e-5) {
            losses.push(Loss::new(element(), "rest scale not stored in animation keys (ABC keys have no scale)"));
        }
    }
    if version != 6 {
        for (i, m) in model.materials.iter().enumerate() {
            if !material::is_skin_slot(m) {
                losses.push(Loss::new(
                    format!("materials[{i}] {:?}", m.name),
                    "textures and render flags not stored (ABC keeps a material slot; skins are set by the game)",
                ));
            }
        }
    }
    for (i, mesh) in model.meshes.iter().enumerate() {
        if let Some(id) = mesh.part_id {
            losses.push(Loss::new(format!("meshes[{i}] {:?}", mesh.name), format!("part id {id} not stored")));
        }
        if version == 6 && mesh.morph_targets.iter().any(|t| !t.normal_deltas.is_empty()) {
            losses.push(Loss::new(
                format!("meshes[{i}] {:?}", mesh.name),
                "morph normal deltas not stored (v6 deforms positions only)",
            ));
        }
    }
    for (i, anim) in model.animations.iter().enumerate() {
        let element = || format!("animations[{i}] {:?}", anim.name);
        if anim.looping {
            losses.push(Loss::new(element(), "looping flag not stored (the game decides)"));
        }
        if version != 6 && !anim.key_bounds.is_empty() {
            losses.push(Loss::new(element(), "keyframe boxes not stored by v9–v13"));
        }
    }
    if !model.global_sequences.is_empty() {
        losses
            .push(Loss::new("global sequences", format!("{} global clocks not stored", model.global_sequences.len())));
    }
}

/// The version to write.
fn target_version(model: &Model, options: &WriteOptions) -> Result<u32, WriteError> {
    let writable = |v: u32| v == 6 || VERSIONS.contains(&v);
    match options.version {
        Some(v) if writable(v) => Ok(v),
        Some(v) => Err(WriteError::Unsupported(format!("ABC version {v} cannot be written; choose 6 or 9–13"))),
        None => Ok(model.recorded_version(crate::FORMAT).filter(|&v| writable(v)).unwrap_or(crate::DEFAULT_VERSION)),
    }
}
