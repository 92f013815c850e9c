//! The checks `cargo xtask corpus` runs on each NOD or NAD file (feature `verify`).
//!
//! NOD: `parse` (with the readings taken), `rewrite` (byte-identical), `ir-round-trip` (NOD →
//! model → NOD, byte-identical), `ir-rebuild` (model without its extras → NOD → model equal),
//! `skeleton` (one root, parents first, links consistent), `bind-pose` (spec §9.0), `lod`,
//! `vertex-padding`, `bounds`.
//!
//! NAD: `parse`, `rewrite`, `curves` (spec §9.5: ascending frames, segment ends on the next key,
//! frame scales, +∞ last keys, slope jumps), `ir-round-trip` (on a stand-in skeleton of 64 bones:
//! byte-identical through the kept bytes, and rebuilt from the animation alone within tolerance),
//! `rotation-sampling` (the 30 fps sampling error), `tags`.

mod nad;
mod skeleton;
#[cfg(test)]
mod tests;

use relic_core::Model;
use relic_core::check::Checks;

pub use nad::animation_gap;
pub use skeleton::{BindPose, bind_pose};

use crate::decide::{NodChoices, decide_nod, model_extent};
use crate::options::{Choice, NodOptions};
use crate::{is_nad, read_model_with, write_model, write_model_with};
use skeleton::{bounds, lod_order, skeleton};

/// Runs every format-level check on one file.
pub fn corpus_checks(bytes: &[u8]) -> Checks {
    if is_nad(bytes) { nad::nad_checks(bytes) } else { nod_checks(bytes) }
}

fn nod_checks(bytes: &[u8]) -> Checks {
    let mut checks = Checks::new();
    let parsed = crate::file::parse_nod(bytes).and_then(|file| {
        crate::validate::check_structure(&file)?;
        let choices = decide_nod(&file, &NodOptions::default())?;
        Ok((file, choices))
    });
    let Some((file, choices)) = checks.parsed(parsed, |(file, choices)| {
        format!(
            "{} bones, {} groups, {} vertices, {} faces, {} materials{}; matrix {}, tail {}, RestTranslate {}, winding {}",
            file.bones.len(),
            file.groups.len(),
            file.vertices.len(),
            file.faces.len(),
            file.materials.len(),
            if file.lod.is_some() { ", LOD" } else { "" },
            choices.matrix_layout.value,
            choices.group_tail.value,
            choices.rest_translate.value,
            choices.winding.value,
        )
    }) else {
        return checks;
    };
    checks.run("rewrite", || same_bytes(bytes, file.to_bytes()));
    let model = crate::to_ir::model_from_nod(&file, &choices);
    checks.run("ir-round-trip", || {
        let out = write_model(&model, &Default::default()).map_err(|e| e.to_string())?;
        if !out.losses.is_empty() {
            return Err(format!(
                "losses: {}",
                out.losses.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
            ));
        }
        if out.value == bytes {
            Ok("NOD → model → NOD identical".into())
        } else {
            Err(first_difference(bytes, &out.value))
        }
    });
    checks.run("ir-rebuild", || ir_rebuild(&model, &choices));
    checks.run("skeleton", || skeleton(&file));
    checks.run("bind-pose", || {
        let r = bind_pose(&file, &choices);
        let tol = 1e-3 * (1.0 + model_extent(&file));
        let detail = format!(
            "rest chain vs inverse rest matrices {:.2e}, rest-pose skinning vs stored vertices {:.2e}, vertices {:.3} \
             from their bone on average",
            r.chain_error, r.vertex_error, r.mean_bone_distance
        );
        if r.chain_error <= tol && r.vertex_error <= tol { Ok(detail) } else { Err(format!("{detail} > {tol:.1e}")) }
    });
    match lod_order(&file) {
        None => checks.skip("lod", "no LOD table"),
        Some(result) => {
            checks.run("lod", || result);
        }
    }
    let padded = file.vertices.iter().filter(|v| v.pad != [0; 3]).count();
    checks.pass(
        "vertex-padding",
        format!("{padded} of {} vertices have non-zero bytes 37–39 (kept)", file.vertices.len()),
    );
    checks.run("bounds", || bounds(&file));
    checks
}

/// The `rewrite` check: the file written again is `bytes`.
pub(crate) fn same_bytes(bytes: &[u8], written: Result<Vec<u8>, relic_core::WriteError>) -> Result<String, String> {
    match written {
        Ok(out) if out == bytes => Ok(format!("{} bytes identical", out.len())),
        Ok(out) => Err(first_difference(bytes, &out)),
        Err(e) => Err(e.to_string()),
    }
}

/// Where two byte strings first differ.
pub(crate) fn first_difference(want: &[u8], got: &[u8]) -> String {
    let at = want.iter().zip(got).position(|(a, b)| a != b).unwrap_or(want.len().min(got.len()));
    format!("differs at byte {at:#x} (lengths {} and {})", want.len(), got.len())
}

/// Model without extras → NOD (with the same readings) → model: equal.
fn ir_rebuild(model: &Model, choices: &NodChoices) -> Result<String, String> {
    let mut bare = model.clone();
    bare.extras = None;
    let options = NodOptions {
        matrix_layout: Choice::Fixed(choices.matrix_layout.value),
        group_tail: Choice::Fixed(choices.group_tail.value),
        rest_translate: Choice::Fixed(choices.rest_translate.value),
        winding: Choice::Fixed(choices.winding.value),
        uv_origin: choices.uv_origin,
    };
    let out = write_model_with(&bare, &Default::default(), &options).map_err(|e| e.to_string())?;
    let mut again = read_model_with(&out.value, &options).map_err(|e| e.to_string())?;
    again.extras = None;
    if again == bare {
        Ok(format!("{} bytes without extras, model equal", out.value.len()))
    } else {
        Err(model_difference(&bare, &again))
    }
}

/// The first part of two models that differs.
pub fn model_difference(a: &Model, b: &Model) -> String {
    if a.bones != b.bones {
        // Unequal lists whose common part is equal differ in length: the first bone index is as good a place
        // to name as any.
        let i = a.bones.iter().zip(&b.bones).position(|(x, y)| x != y).unwrap_or(0);
        return format!("bones differ (first at {i} of {}/{})", a.bones.len(), b.bones.len());
    }
    if a.materials != b.materials {
        return "materials differ".into();
    }
    if a.meshes.len() != b.meshes.len() {
        return format!("{} meshes vs {}", a.meshes.len(), b.meshes.len());
    }
    for (i, (x, y)) in a.meshes.iter().zip(&b.meshes).enumerate() {
        for (what, same) in [
            ("name", x.name == y.name),
            ("material", x.material == y.material),
            ("positions", x.positions == y.positions),
            ("normals", x.normals == y.normals),
            ("uvs", x.uv_sets == y.uv_sets),
            ("skin", x.skin == y.skin),
            ("triangles", x.triangles == y.triangles),
        ] {
            if !same {
                return format!("meshes[{i}].{what} differ");
            }
        }
    }
    if a.animations != b.animations {
        return "animations differ".into();
    }
    "models differ".into()
}
