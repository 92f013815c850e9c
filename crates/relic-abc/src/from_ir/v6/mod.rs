//! Common model → v6 file.
//!
//! v6 has one mesh whose vertices each belong rigidly to one node, in that node's local space, and
//! no bind pose (the engine uses animation 0, key 0). Vertices are placed with the model's bind
//! matrices, so the posed mesh is the model's at every key. Morph targets become mesh-deformation
//! frames (positions per key, quantised to bytes per node and animation). A v6 model must have
//! an animation with a key (the games crash otherwise): a model without one gets `base`.

mod animation;
mod boxes;
mod deformation;
mod geometry;

use relic_core::math::{self, IDENTITY, Mat4};
use relic_core::model::{Aabb, Animation, Model};
use relic_core::{Loss, WriteError};

use self::animation::{build_animation, build_nodes};
use self::boxes::{Boxes, is_empty_box, recompute_boxes};
use self::deformation::mesh_deformation;
use self::geometry::build_geometry;
use super::animation::{key_times, millis};
use super::names::stored_name;
use super::skeleton::Skeleton;
use crate::extras::{AbcExtras, FamilyExtras, bind_digest, pose_digest};
use crate::file::v6::FILE_TOKEN;
use crate::file::{AnimDims, V6Animation, V6Animations, V6File, V6Header, V6Nodes, V6SectionId};
use crate::frame::{LITHTECH, LITHTECH_FLIPPED_Z};

/// Builds a v6 file from a valid model.
pub(super) fn build(model: &Model, extras: Option<&AbcExtras>, losses: &mut Vec<Loss>) -> Result<V6File, WriteError> {
    let ex = match extras.map(|e| &e.family) {
        Some(FamilyExtras::V6(x)) => Some(x),
        Some(FamilyExtras::V12(x)) => {
            let mut dropped = Vec::new();
            if x.child_models.as_ref().is_some_and(|c| !c.children.is_empty()) {
                dropped.push("child models");
            }
            if !x.weight_sets.is_empty() {
                dropped.push("weight sets");
            }
            if x.anim_bindings.as_ref().is_some_and(|b| b.groups.len() > 1) {
                dropped.push("child-model animation bindings");
            }
            dropped.push("radius, LOD weights, animation dims");
            losses.push(Loss::new("extras", format!("not stored by v6: {}", dropped.join(", "))));
            None
        }
        None => None,
    };
    let transform_info = ex.and_then(|x| x.transform_info);
    let frame = if transform_info.is_some_and(|t| t.flip_mat == 0) { LITHTECH } else { LITHTECH_FLIPPED_Z };
    let conjugate = transform_info.is_none_or(|t| t.fix_anim_keyframes != 0);
    let sk = Skeleton::new(model, true, losses);
    if !model.attachments.is_empty() {
        losses.push(Loss::new("attachments", format!("{} sockets dropped (v6 has none)", model.attachments.len())));
    }
    let inverse_binds: Vec<Mat4> =
        sk.tree.binds.iter().map(|b| math::inverse(&frame.matrix_from_ir(b)).unwrap_or(IDENTITY)).collect();
    let binds_fit = ex.is_some_and(|x| sk.tree.identity && x.bind_digest == bind_digest(&model.bones));
    let nodes_fit = ex.filter(|x| x.nodes.len() == sk.tree.nodes.len());

    let geo = build_geometry(model, &sk, ex, binds_fit, &inverse_binds, frame, losses)?;
    if extras.is_none() && super::v12::from_plain_gltf(model) {
        let model_vertices: usize = model.meshes.iter().filter(|m| m.lod.level == 0).map(|m| m.positions.len()).sum();
        losses.push(Loss::new(
            "vertices",
            format!(
                "the file's own vertices and LOD-0 positions not in the glTF (no relic extras: Blender writes them \
                 with \"Custom Properties\" ticked): {model_vertices} glTF vertices written as {} file vertices",
                geo.geometry.vertices.len()
            ),
        ));
        if !model.animations.is_empty() {
            losses.push(Loss::new(
                "keyframes",
                "key times and animation lengths not in the glTF (no relic extras): animations keyed at their \
                 channels' key times (baked keys reduced)",
            ));
        }
    }
    // A clip a tool baked goes back to its stored key times (v6 keeps a box per key, so the
    // key boxes' times are the file's key times) while they still carry it.
    let mut anims: Vec<Animation> = model
        .animations
        .iter()
        .map(|a| {
            let stored: Vec<u32> = a.key_bounds.iter().map(|k| millis(k.time)).collect();
            let own = key_times(a, &[], &mut Vec::new());
            crate::from_ir::resample::rekeyed_or_noted(a, &own, &stored, losses).unwrap_or_else(|| a.clone())
        })
        .collect();
    if anims.is_empty() {
        losses.push(Loss::new("animations", "added animation \"base\" holding the rest pose (a v6 model needs one)"));
        anims.push(Animation { name: "base".into(), ..Animation::default() });
    }
    let key_ms: Vec<Vec<u32>> = anims
        .iter_mut()
        .map(|a| {
            let mut times = key_times(a, &a.key_bounds.iter().map(|k| k.time).collect::<Vec<_>>(), losses);
            if a.key_bounds.is_empty() && crate::from_ir::resample::looks_baked(&times) {
                let (reduced, rebuilt) = crate::from_ir::corners::reduced(a, &times);
                times = reduced;
                if let Some(rebuilt) = rebuilt {
                    *a = rebuilt;
                }
            }
            if times.is_empty() {
                // The games crash on an animation without keys (abc.md §7).
                losses.push(Loss::new(
                    format!("animations {:?}", a.name),
                    "no keys: a key at 0 s holding the rest pose added (a v6 animation needs one)",
                ));
                times.push(0);
            }
            times
        })
        .collect();
    let md = mesh_deformation(model, &anims, &key_ms, &geo, ex, &inverse_binds, sk.tree.nodes.len(), frame);
    let nodes = build_nodes(model, &sk, &geo, &md, nodes_fit.filter(|_| geo.exact), nodes_fit, losses);

    // The model's boxes are game data: written as they are (stale or not) while nothing that
    // poses the mesh changed since `to_ir` (mesh, skeleton, the clip's channels); recomputed by
    // posing the written file otherwise. A model from elsewhere keeps whatever boxes it has.
    let boxes_of = |a: usize, anim: &Animation| match ex {
        None => Boxes::FromModel,
        Some(x) if geo.exact && x.animations.len() == anims.len() => {
            match x.animations.get(a).is_some_and(|s| s.pose_digest == pose_digest(anim)) {
                true => Boxes::FromModel,
                false => Boxes::Recompute,
            }
        }
        Some(_) => Boxes::Recompute,
    };
    let mut animations = Vec::with_capacity(anims.len());
    let mut stale = Vec::with_capacity(anims.len());
    for (a, (anim, times)) in anims.iter().zip(&key_ms).enumerate() {
        let boxes = boxes_of(a, anim);
        let (animation, s) = build_animation(model, &sk, a, anim, times, &md, conjugate, frame, boxes, losses);
        animations.push(animation);
        stale.push(s);
    }
    let all_kept = stale.iter().all(|s| s.keys.is_empty() && !s.clip);
    let mut file = V6File {
        header: V6Header {
            file_token: relic_core::binary::LenString(FILE_TOKEN.to_vec()),
            command_string: stored_name(
                || "command string".into(),
                &extras.map_or_else(String::new, |e| e.command_string.clone()),
                losses,
            ),
        },
        geometry: geo.geometry,
        nodes: V6Nodes { nodes },
        animations: V6Animations { animations },
        anim_dims: None,
        transform_info,
        unknown: Vec::new(),
        order: Vec::new(),
    };
    recompute_boxes(&mut file, &stale)?;
    if !(geo.exact && all_kept) {
        let boxes = file.animations.animations.iter().flat_map(|a| &a.keyframes);
        let corners: Vec<[f32; 3]> = boxes
            .filter(|k| !is_empty_box(k.bounds_min, k.bounds_max))
            .flat_map(|k| [k.bounds_min, k.bounds_max])
            .collect();
        let b = Aabb::of_points(&corners).unwrap_or(Aabb { min: [0.0; 3], max: [0.0; 3] });
        file.geometry.bounds_min = b.min;
        file.geometry.bounds_max = b.max;
    }
    let animations = &file.animations.animations;
    let computed_dims = || AnimDims { dims: animations.iter().map(half_extents).collect() };
    let anim_dims = match ex {
        Some(x) => x.anim_dims.as_ref().map(|d| match d.len() == animations.len() {
            true => AnimDims { dims: d.clone() },
            false => computed_dims(),
        }),
        None => Some(computed_dims()),
    };
    let (unknown, mut order) = match ex {
        Some(x) => (x.unknown.clone(), x.order.clone()),
        None => {
            (Vec::new(), vec![V6SectionId::Geometry, V6SectionId::Nodes, V6SectionId::Animation, V6SectionId::AnimDims])
        }
    };
    order.retain(|id| match id {
        V6SectionId::AnimDims => anim_dims.is_some(),
        V6SectionId::TransformInfo => transform_info.is_some(),
        V6SectionId::Unknown(i) => *i < unknown.len(),
        _ => true,
    });
    file.anim_dims = anim_dims;
    file.unknown = unknown;
    file.order = order;
    Ok(file)
}

fn half_extents(a: &V6Animation) -> [f32; 3] {
    let ([x0, y0, z0], [x1, y1, z1]) = (a.bounds_min, a.bounds_max);
    [(x1 - x0) / 2.0, (y1 - y0) / 2.0, (z1 - z0) / 2.0]
}
