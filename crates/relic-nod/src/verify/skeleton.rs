//! The NOD file's own proofs: skeleton links, the bind pose of spec §9.0, the LOD order, the box.

use nalgebra::{Affine3, Vector3};

use crate::decide::{NodChoices, model_extent};
use crate::file::NodFile;
use crate::from_ir::skeleton::derived_links;
use crate::options::RestTranslateSpace;
use crate::rest::{block, from_parts, inverse_rest, point, rest_worlds, translation};
use crate::to_ir::skin::Binding;

pub(crate) fn skeleton(file: &NodFile) -> Result<String, String> {
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
    let mut chained: Vec<Affine3<f64>> = Vec::with_capacity(file.bones.len());
    let mut out = BindPose::default();
    for (b, bone) in file.bones.iter().enumerate() {
        let world = worlds.get(b).copied().unwrap_or_else(Affine3::identity);
        let parent = usize::try_from(bone.parent).ok();
        let rt = bone.rest_translate.map(f64::from);
        let (parent_chain, parent_inverse) = match parent {
            Some(p) => (chained.get(p).copied(), inverse.get(p)),
            None => (None, None),
        };
        let rotation = match parent_inverse {
            Some(pi) => block(&(pi * world)),
            None => block(&world),
        };
        let t = match (choices.rest_translate.value, parent_inverse) {
            (RestTranslateSpace::Model, Some(pi)) => point(pi, rt),
            _ => rt,
        };
        let local = from_parts(&rotation, &Vector3::from(t));
        let chain = match parent_chain {
            Some(pc) => pc * local,
            None => local,
        };
        let block_err = (block(&chain) - block(&world)).iter().fold(0.0, |m: f64, x| m.max(x.abs()));
        let origin_err = (translation(&chain) - translation(&world)).iter().fold(0.0, |m: f64, x| m.max(x.abs()));
        out.chain_error = out.chain_error.max(origin_err).max(block_err);
        chained.push(chain);
    }
    let skin: Vec<Affine3<f64>> = chained.iter().zip(&inverse).map(|(c, i)| c * i).collect();
    let parents: Vec<i16> = file.bones.iter().map(|b| b.parent).collect();
    let (mut spread, mut n) = (0.0f64, 0usize);
    for (group, (first, _)) in file.groups.iter().zip(file.group_starts()) {
        let tail = choices.group_tail.value.decode(group.tail);
        let vertices = file.group_vertices(first, group);
        for v in vertices {
            let p = v.pos.map(f64::from);
            let binding = Binding::decode(v.weight, v.bone_num, tail.effective_flags(), tail.bone, &parents);
            let posed = match binding {
                Binding::Unbound => p,
                Binding::Rigid(b) => skin.get(usize::from(b)).map_or(p, |s| point(s, p)),
                Binding::Pair { bone, weight, parent } => {
                    let a = Vector3::from(skin.get(usize::from(bone)).map_or(p, |s| point(s, p)));
                    let b = Vector3::from(skin.get(usize::from(parent)).map_or(p, |s| point(s, p)));
                    let w = f64::from(weight);
                    (a * w + b * (1.0 - w)).into()
                }
            };
            let gap = posed.iter().zip(&p).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max);
            out.vertex_error = out.vertex_error.max(gap);
            if let Some(m) = inverse.get(usize::from(v.bone_num)) {
                spread += Vector3::from(point(m, p)).norm();
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
pub(crate) fn lod_order(file: &NodFile) -> Option<Result<String, String>> {
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
            // The LOD table has one entry per vertex (checked when it is read): never taken.
            let to = lod.get(first + usize::from(local)).copied().unwrap_or(0);
            if to >= local {
                return Some(Err(format!("group {g}: vertex {local} collapses into {to}, not a lower index")));
            }
            collapsing += 1;
        }
    }
    Some(Ok(format!("{collapsing} collapsing vertices, each into a lower index")))
}

pub(crate) fn bounds(file: &NodFile) -> Result<String, String> {
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
