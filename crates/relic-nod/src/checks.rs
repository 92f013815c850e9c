//! The checks `cargo xtask corpus` runs on each NOD or NAD file.
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

use relic_core::Model;
use relic_core::check::Checks;
use relic_core::model::{Bone, ChannelValues};

use crate::anim::{animation_from_nad, curve_report, decide_nad, nad_from_animation, rotation_error};
use crate::decide::{NodChoices, inverse_rest, model_extent};
use crate::from_ir::{BoneMap, derived_links};
use crate::geometry::{Affine64, max_diff3, wide3, zip3};
use crate::nad::{NadFile, TAG_NAMES, TRACK_ROTATION, parse_nad};
use crate::nod::NodFile;
use crate::options::{Choice, MAX_BONES, NadOptions, NodOptions, RestTranslateSpace};
use crate::skin::Binding;
use crate::to_ir::rest_worlds;
use crate::{attach_animation, read_nod, write_animation, write_model, write_model_with};

/// Runs every format-level check on one file.
pub fn corpus_checks(bytes: &[u8]) -> Checks {
    if crate::is_nad(bytes) { nad_checks(bytes) } else { nod_checks(bytes) }
}

fn nod_checks(bytes: &[u8]) -> Checks {
    let mut checks = Checks::new();
    let Some((file, choices)) = checks.parsed(read_nod(bytes, &NodOptions::default()), |(file, choices)| {
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
    checks.run("rewrite", || match file.to_bytes() {
        Ok(out) if out == bytes => Ok(format!("{} bytes identical", out.len())),
        Ok(out) => Err(first_difference(bytes, &out)),
        Err(e) => Err(e.to_string()),
    });
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

/// Where two byte strings first differ.
fn first_difference(want: &[u8], got: &[u8]) -> String {
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
    let mut again = crate::read_model_with(&out.value, &options).map_err(|e| e.to_string())?;
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

fn skeleton(file: &NodFile) -> Result<String, String> {
    let parents: Vec<i16> = file.bones.iter().map(|b| b.parent).collect();
    let roots = parents.iter().filter(|p| **p < 0).count();
    let mismatched: Vec<usize> = file
        .bones
        .iter()
        .enumerate()
        .filter(|(i, b)| derived_links(&parents, *i) != (b.sibling, b.child))
        .map(|(i, _)| i)
        .collect();
    let detail = format!("{} bones, {roots} root, parents first, acyclic", file.bones.len());
    if mismatched.is_empty() {
        Ok(format!("{detail}, sibling/child links consistent"))
    } else {
        Err(format!("{detail}; sibling/child links disagree with the parents at bones {mismatched:?}"))
    }
}

/// The bind-pose figures of spec §9.0.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BindPose {
    /// Largest difference between the rest pose chained from `RestTranslate` and the rest
    /// rotations (root first) and the inverse of each bone's `RestMatrixInverse`.
    pub chain_error: f64,
    /// Largest distance between a stored vertex and the vertex skinned at that rest pose.
    pub vertex_error: f64,
    /// Mean distance of the vertices from their bone's origin, in bone space.
    pub mean_bone_distance: f64,
}

/// Spec §9.0 on the file itself (no common model): chain `RestTranslate` (in the chosen space) with
/// the rest rotations from the root down, compare with the inverse rest matrices, and skin every
/// vertex at that pose with the engine's rule.
pub fn bind_pose(file: &NodFile, choices: &NodChoices) -> BindPose {
    let inverse = inverse_rest(file, choices.matrix_layout.value);
    let worlds = rest_worlds(&inverse);
    let mut chained: Vec<Affine64> = Vec::with_capacity(file.bones.len());
    let mut out = BindPose::default();
    for (b, bone) in file.bones.iter().enumerate() {
        let world = worlds.get(b).copied().unwrap_or(Affine64::IDENTITY);
        let parent = usize::try_from(bone.parent).ok();
        let rt = wide3(bone.rest_translate);
        let (parent_chain, parent_inverse) = match parent {
            Some(p) => (chained.get(p).copied(), inverse.get(p)),
            None => (None, None),
        };
        let rotation = match parent_inverse {
            Some(pi) => pi.mul(&world).r,
            None => world.r,
        };
        let translation = match (choices.rest_translate.value, parent_inverse) {
            (RestTranslateSpace::Model, Some(pi)) => pi.point(rt),
            _ => rt,
        };
        let local = Affine64 { r: rotation, t: translation };
        let chain = match parent_chain {
            Some(pc) => pc.mul(&local),
            None => local,
        };
        let block_err = (0..3)
            .flat_map(|r| (0..3).map(move |c| (r, c)))
            .map(|(r, c)| {
                let (x, y) = (chain.r.get(r).and_then(|row| row.get(c)), world.r.get(r).and_then(|row| row.get(c)));
                (x.copied().unwrap_or(0.0) - y.copied().unwrap_or(0.0)).abs()
            })
            .fold(0.0, f64::max);
        out.chain_error = out.chain_error.max(max_diff3(chain.t, world.t)).max(block_err);
        chained.push(chain);
    }
    let skin: Vec<Affine64> = chained.iter().zip(&inverse).map(|(c, i)| c.mul(i)).collect();
    let parents: Vec<i16> = file.bones.iter().map(|b| b.parent).collect();
    let (mut spread, mut n) = (0.0f64, 0usize);
    for (group, (first, _)) in file.groups.iter().zip(file.group_starts()) {
        let tail = choices.group_tail.value.decode(group.tail);
        let vertices = file.vertices.get(first..first + usize::from(group.num_vertices)).unwrap_or_default();
        for v in vertices {
            let p = wide3(v.pos);
            let binding = Binding::decode(v.weight, v.bone_num, tail.effective_flags(), tail.bone, &parents);
            let posed = match binding {
                Binding::Unbound => p,
                Binding::Rigid(b) => skin.get(usize::from(b)).map_or(p, |s| s.point(p)),
                Binding::Pair { bone, weight, parent } => {
                    let a = skin.get(usize::from(bone)).map_or(p, |s| s.point(p));
                    let b = skin.get(usize::from(parent)).map_or(p, |s| s.point(p));
                    let w = f64::from(weight);
                    zip3(a, b, |a, b| w * a + (1.0 - w) * b)
                }
            };
            out.vertex_error = out.vertex_error.max(max_diff3(posed, p));
            if let Some(m) = inverse.get(usize::from(v.bone_num)) {
                spread += crate::geometry::length3(m.point(p));
                n += 1;
            }
        }
    }
    out.mean_bone_distance = if n > 0 { spread / n as f64 } else { 0.0 };
    for x in [&mut out.chain_error, &mut out.vertex_error] {
        if x.is_nan() {
            *x = f64::INFINITY;
        }
    }
    out
}

/// Spec §2.5: MinVertices ≤ NumVertices and entries at or above MinVertices collapse into a lower
/// index. `None` without a LOD table.
fn lod_order(file: &NodFile) -> Option<Result<String, String>> {
    let lod = file.lod.as_ref()?;
    let mut collapsing = 0usize;
    for (g, (group, (first, _))) in file.groups.iter().zip(file.group_starts()).enumerate() {
        if group.min_vertices > group.num_vertices {
            return Some(Err(format!(
                "group {g}: MinVertices {} > NumVertices {}",
                group.min_vertices, group.num_vertices
            )));
        }
        for local in group.min_vertices..group.num_vertices {
            let to = lod.get(first + usize::from(local)).copied().unwrap_or(0);
            if to >= local {
                return Some(Err(format!("group {g}: vertex {local} collapses into {to}, not a lower index")));
            }
            collapsing += 1;
        }
    }
    Some(Ok(format!("{collapsing} collapsing vertices, each into a lower index")))
}

fn bounds(file: &NodFile) -> Result<String, String> {
    let [lo @ .., _, _, _] = file.bounds;
    let hi = [file.bounds[3], file.bounds[4], file.bounds[5]];
    let mut outside = 0.0f32;
    for v in &file.vertices {
        for ((p, l), h) in v.pos.iter().zip(lo).zip(hi) {
            outside = outside.max(l - p).max(p - h);
        }
    }
    let tol = 1e-3 * (1.0 + model_extent(file) as f32);
    let detail = format!("largest distance of a vertex outside the stored box {:.2e}", outside.max(0.0));
    if outside <= tol { Ok(detail) } else { Err(detail) }
}

/// A stand-in model for checking a NAD alone: 64 bones at the origin.
pub fn stand_in_skeleton() -> Model {
    Model {
        bones: (0..MAX_BONES)
            .map(|b| Bone { name: format!("bone_{b}"), parent: b.checked_sub(1), ..Bone::default() })
            .collect(),
        ..Model::default()
    }
}

fn nad_checks(bytes: &[u8]) -> Checks {
    let mut checks = Checks::new();
    let options = NadOptions::default();
    let parsed = parse_nad(bytes).map(|nad| {
        let choices = decide_nad(&nad, &options);
        (nad, choices)
    });
    let Some((nad, choices)) = checks.parsed(parsed, |(nad, choices)| {
        format!(
            "{} tracks, {} keys, {} tags, {} frames; polynomial {}",
            nad.tracks.len(),
            nad.key_count(),
            nad.tags.len(),
            nad.duration,
            choices.polynomial
        )
    }) else {
        return checks;
    };
    checks.run("rewrite", || match nad.to_bytes() {
        Ok(out) if out == bytes => Ok(format!("{} bytes identical", out.len())),
        Ok(out) => Err(first_difference(bytes, &out)),
        Err(e) => Err(e.to_string()),
    });
    checks.run("curves", || curves(&nad));
    checks.run("ir-round-trip", || nad_round_trip(bytes, &nad, &options));
    checks.run("rotation-sampling", || {
        let skeleton = stand_in_skeleton();
        let anim = animation_from_nad(&nad, skeleton.bones.len(), "check", &choices).map_err(|e| e.to_string())?;
        let worst = nad
            .tracks
            .iter()
            .zip(&anim.channels)
            .filter(|(t, _)| t.track_type == TRACK_ROTATION)
            .map(|(t, c)| rotation_error(c, t, &choices, 8))
            .fold(0.0, f64::max);
        Ok(format!(
            "largest deviation between the 30 fps quaternion keys and the Euler curves {:.4}°",
            worst.to_degrees()
        ))
    });
    let unknown: Vec<u32> = nad.tags.iter().map(|t| t.tag_type).filter(|t| *t as usize >= TAG_NAMES.len()).collect();
    checks.pass(
        "tags",
        if unknown.is_empty() {
            format!("{} tags, all of known types", nad.tags.len())
        } else {
            format!("{} tags, types not in the spec: {unknown:?} (kept as tag_<n>)", nad.tags.len())
        },
    );
    checks
}

fn curves(nad: &NadFile) -> Result<String, String> {
    let r = curve_report(nad);
    let scale = nad
        .tracks
        .iter()
        .flat_map(|t| t.keys.iter().flat_map(|k| k.value))
        .map(|v| f64::from(v.abs()))
        .fold(0.0, f64::max);
    let detail = format!(
        "{} segments; segment ends miss the next key by {:.2e} (P1) / {:.2e} (P2); |Δframe·FrameScale − 1| ≤ {:.2e}; \
         last-key FrameScale +∞ on {} of {} tracks; slope jumps P1 {:.2e} P2 {:.2e}",
        r.segments,
        r.end_gap[0],
        r.end_gap[1],
        r.frame_scale_error,
        r.infinite_last,
        r.tracks_with_keys,
        r.slope_jump[0],
        r.slope_jump[1]
    );
    if !r.ascending {
        return Err(format!("frames not strictly ascending; {detail}"));
    }
    if r.end_gap[0].min(r.end_gap[1]) > 1e-3 * (1.0 + scale) {
        return Err(format!("segments do not end on the next key; {detail}"));
    }
    Ok(detail)
}

fn nad_round_trip(bytes: &[u8], nad: &NadFile, options: &NadOptions) -> Result<String, String> {
    let mut model = stand_in_skeleton();
    let index = attach_animation(&mut model, bytes, "check", options).map_err(|e| e.to_string())?;
    let exact = write_animation(&model, index, options).map_err(|e| e.to_string())?;
    if exact.value != bytes {
        return Err(format!("through the kept bytes: {}", first_difference(bytes, &exact.value)));
    }
    let choices = decide_nad(nad, options);
    let Some(anim) = model.animations.get(index) else { return Err("animation missing".into()) };
    let mut losses = Vec::new();
    let map = BoneMap::new(&model, &mut losses).map_err(|e| e.to_string())?;
    let rebuilt =
        nad_from_animation(anim, &map, &NadOptions { polynomial: Choice::Fixed(choices.polynomial.value), ..*options });
    let again_bytes = rebuilt.value.to_bytes().map_err(|e| e.to_string())?;
    let again_nad = parse_nad(&again_bytes).map_err(|e| e.to_string())?;
    let again = animation_from_nad(
        &again_nad,
        model.bones.len(),
        "check",
        &decide_nad(&again_nad, &NadOptions { polynomial: Choice::Fixed(choices.polynomial.value), ..*options }),
    )
    .map_err(|e| e.to_string())?;
    let worst = animation_gap(anim, &again);
    let detail =
        format!("identical through the kept bytes; rebuilt from the animation alone: worst deviation {worst:.2e}");
    if worst <= 1e-3 { Ok(detail) } else { Err(detail) }
}

/// Largest difference between two animations' channels, sampled at the first one's key times and
/// halfway between (translation/scale: relative to the value; rotation: radians).
pub fn animation_gap(a: &relic_core::model::Animation, b: &relic_core::model::Animation) -> f64 {
    use relic_core::sample::Sample;
    let mut worst = 0.0f64;
    for (x, y) in a.channels.iter().zip(&b.channels) {
        let mut times: Vec<f32> = x.times.clone();
        times.extend(x.times.windows(2).filter_map(|w| w.first().zip(w.get(1)).map(|(p, q)| 0.5 * (p + q))));
        for t in times {
            match (x.sample(t), y.sample(t)) {
                (Some(Sample::Vector(p)), Some(Sample::Vector(q))) => {
                    let d =
                        max_diff3(wide3(p), wide3(q)) / (1.0 + f64::from(p.iter().fold(0.0f32, |m, c| m.max(c.abs()))));
                    worst = worst.max(d);
                }
                (Some(Sample::Rotation(p)), Some(Sample::Rotation(q))) => {
                    worst = worst.max(crate::geometry::quat_angle(p.map(f64::from), q.map(f64::from)));
                }
                _ => worst = f64::INFINITY,
            }
        }
        if matches!((&x.values, &y.values), (ChannelValues::Rotation(_), ChannelValues::Translation(_))) {
            worst = f64::INFINITY;
        }
    }
    if a.channels.len() != b.channels.len() { f64::INFINITY } else { worst }
}
