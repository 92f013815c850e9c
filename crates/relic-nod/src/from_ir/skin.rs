//! Fitting any model influences to the NOD skinning rule (`crate::to_ir::skin`): the bone and
//! parent pair keeping the most weight, with the cost measured in posed vertex positions by
//! relic-anim (the one evaluator and skinning of every format).

use relic_anim::affine::{Affine, IDENTITY};
use relic_anim::pose::{ClipTime, Evaluator, Pose};
use relic_anim::skin::skin_reference;
use relic_core::Loss;
use relic_core::math::max_abs_diff;
use relic_core::model::{Influence, Mesh, Model};

use super::skeleton::BoneMap;
use crate::options::SINGLE_INFLUENCE_WEIGHT;
use crate::to_ir::skin::Binding;

/// The result of fitting a model vertex's influences to the rule.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Fitted {
    /// The binding written.
    pub(crate) binding: Binding,
    /// Total weight moved off the original influences (0 when the influences were legal).
    pub(crate) moved: f32,
}

/// The binding closest to `influences` (NOD bone numbers) that the rule can express: a bone and
/// its parent capturing the most weight, renormalised (the L1-nearest legal weights). `parent_of`
/// gives each NOD bone's parent.
pub(crate) fn legal_binding(influences: &[(u8, f32)], parent_of: impl Fn(u8) -> Option<u8>) -> Fitted {
    let weight_on = |bone: u8| influences.iter().filter(|(b, _)| *b == bone).map(|(_, w)| *w).sum::<f32>();
    let total: f32 = influences.iter().map(|(_, w)| *w).sum();
    match influences {
        [] => return Fitted { binding: Binding::Rigid(0), moved: 0.0 },
        [(b, _)] => return Fitted { binding: Binding::Rigid(*b), moved: 0.0 },
        [(x, wx), (y, wy)] if parent_of(*x) == Some(*y) => {
            return Fitted { binding: pair(*x, *wx, *y), moved: 0.0 };
        }
        [(x, _), (y, wy)] if parent_of(*y) == Some(*x) => {
            return Fitted { binding: pair(*y, *wy, *x), moved: 0.0 };
        }
        _ => {}
    }
    // Candidate pairs: each influenced bone with its parent (the parent may carry no weight).
    let mut best: Option<(u8, Option<u8>, f32)> = None;
    for &(bone, _) in influences {
        let parent = parent_of(bone);
        let captured = weight_on(bone) + parent.map_or(0.0, weight_on);
        if best.is_none_or(|(_, _, c)| captured > c) {
            best = Some((bone, parent, captured));
        }
    }
    let Some((bone, parent, captured)) = best else { return Fitted { binding: Binding::Rigid(0), moved: 0.0 } };
    let moved = (total - captured).max(0.0);
    let binding = match parent {
        Some(p) if captured > 0.0 => pair(bone, weight_on(bone) / captured, p),
        _ => Binding::Rigid(bone),
    };
    Fitted { binding, moved }
}

fn pair(bone: u8, weight: f32, parent: u8) -> Binding {
    if weight < SINGLE_INFLUENCE_WEIGHT {
        Binding::Pair { bone, weight: weight.max(0.0), parent }
    } else {
        Binding::Rigid(bone)
    }
}

/// Each model mesh's vertex bindings under the NOD rule, with re-weightings reported and
/// measured by relic-anim's skinning at the rest pose and sampled animation poses.
pub(crate) fn model_bindings(
    model: &Model,
    map: &BoneMap,
    parents: &[i16],
    losses: &mut Vec<Loss>,
) -> Vec<Vec<Binding>> {
    let parent_of = |b: u8| parents.get(usize::from(b)).and_then(|p| u8::try_from(*p).ok());
    let mut poses: Option<Vec<Vec<Affine>>> = None;
    let mut out = Vec::with_capacity(model.meshes.len());
    for (m, mesh) in model.meshes.iter().enumerate() {
        let n = mesh.positions.len();
        if parents.is_empty() {
            out.push(vec![Binding::Unbound; n]);
            continue;
        }
        if mesh.skin.is_empty() {
            if mesh.lod.level == 0 {
                losses.push(Loss::new(
                    format!("meshes[{m}] {:?}", mesh.name),
                    "has no skin: every vertex is bound to bone 0 (the root)",
                ));
            }
            out.push(vec![Binding::Rigid(0); n]);
            continue;
        }
        let mut bindings = Vec::with_capacity(n);
        let mut refitted = Refitted::default();
        let mut scratch: Vec<(u8, f32)> = Vec::with_capacity(4);
        for v in 0..n {
            let influences = mesh.skin.vertex(v);
            scratch.clear();
            scratch.extend(influences.iter().filter_map(|i| map.nod(i.bone as usize).map(|b| (b, i.weight))));
            let fitted = legal_binding(&scratch, parent_of);
            if fitted.moved > 1e-6 && mesh.lod.level == 0 {
                // v < the skin's vertex count = the validated mesh's: never taken.
                let p = mesh.positions.get(v).copied().unwrap_or_default();
                refitted.push(p, influences, fitted, map, model.bones.len());
            }
            bindings.push(fitted.binding);
        }
        if refitted.count > 0 {
            let poses = poses.get_or_insert_with(|| sample_poses(model, 8, 64));
            let (rest_error, posed_error) = refitted.errors(poses);
            let poses_n = poses.len().saturating_sub(1);
            let posed = if poses_n == 0 {
                "no animation to pose it with".to_string()
            } else {
                format!("largest {posed_error:.4} over {poses_n} sampled animation poses")
            };
            losses.push(Loss::new(
                format!("meshes[{m}] {:?}", mesh.name),
                format!(
                    "{} vertices have more than two influences or a second one that is not the first's parent: \
                     re-weighted to the bone + parent pair keeping the most weight (largest weight moved {:.3}; \
                     position error {rest_error:.2e} at the rest pose, {posed})",
                    refitted.count, refitted.moved
                ),
            ));
        }
        out.push(bindings);
    }
    out
}

/// The re-weighted vertices of one mesh as two small meshes for relic-anim's skinning: the same
/// rest positions with the model's influences (`before`) and with the NOD binding's (`after`).
#[derive(Default)]
struct Refitted {
    count: usize,
    /// Largest weight moved off the model's influences.
    moved: f32,
    before: Mesh,
    after: Mesh,
}

impl Refitted {
    /// Adds a vertex. In `after`, the share of a root bone the writer adds (which never moves)
    /// is an influence on bone `bones`, whose skin matrix [`sample_poses`] makes the identity.
    fn push(&mut self, p: [f32; 3], influences: &[Influence], fitted: Fitted, map: &BoneMap, bones: usize) {
        self.count += 1;
        self.moved = self.moved.max(fitted.moved);
        let new: Vec<Influence> = fitted
            .binding
            .influences()
            .into_iter()
            .filter_map(|i| {
                let model_bone = map.from_nod.get(i.bone as usize).copied().flatten()?;
                Some(Influence { bone: model_bone as u32, weight: i.weight })
            })
            .collect();
        let kept: f32 = new.iter().map(|i| i.weight).sum();
        let still = (kept != 1.0).then_some(Influence { bone: bones as u32, weight: 1.0 - kept });
        for (mesh, list) in
            [(&mut self.before, influences.to_vec()), (&mut self.after, new.into_iter().chain(still).collect())]
        {
            mesh.positions.push(p);
            if mesh.skin.offsets.is_empty() {
                mesh.skin.offsets.push(0);
            }
            mesh.skin.influences.extend(list);
            mesh.skin.offsets.push(mesh.skin.influences.len() as u32);
        }
    }

    /// The largest position difference between `before` and `after` at the first pose (the rest
    /// pose) and over the others.
    fn errors(&self, poses: &[Vec<Affine>]) -> (f32, f32) {
        let n = self.before.positions.len();
        let (mut a, mut b) = (vec![[0.0f32; 3]; n], vec![[0.0f32; 3]; n]);
        let (mut rest, mut posed) = (0.0f32, 0.0f32);
        for (k, skin) in poses.iter().enumerate() {
            let skinned = skin_reference(&self.before, skin, &self.before.positions, &[], &mut a, &mut [])
                .and_then(|()| skin_reference(&self.after, skin, &self.after.positions, &[], &mut b, &mut []));
            if skinned.is_err() {
                continue;
            }
            let e = a.iter().zip(&b).map(|(x, y)| max_abs_diff(x, y)).fold(0.0f32, f32::max);
            if k == 0 {
                rest = rest.max(e);
            } else {
                posed = posed.max(e);
            }
        }
        (rest, posed)
    }
}

/// Skin matrices of the poses a re-weighting is measured at: the rest pose, then up to `per_clip`
/// evenly spaced moments of each animation (at most `limit` in all), each with one identity matrix
/// after the model's bones (for the share of an added root).
fn sample_poses(model: &Model, per_clip: usize, limit: usize) -> Vec<Vec<Affine>> {
    let with_still = |mut skin: Vec<Affine>| {
        skin.push(IDENTITY);
        skin
    };
    let mut out = vec![with_still(Pose::rest(model).skin)];
    'clips: for animation in &model.animations {
        let mut evaluator = Evaluator::new(model, animation);
        for k in 0..per_clip {
            if out.len() >= limit {
                break 'clips;
            }
            let t = if per_clip > 1 { animation.duration * k as f32 / (per_clip - 1) as f32 } else { 0.0 };
            out.push(with_still(evaluator.evaluate(ClipTime::at(t)).skin.clone()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const PARENTS: [i16; 4] = [-1, 0, 1, 1];

    #[test]
    fn legal_pairs_pass_and_others_are_refitted() {
        let parent_of = |b: u8| PARENTS.get(usize::from(b)).and_then(|p| u8::try_from(*p).ok());
        let f = legal_binding(&[(1, 0.3), (2, 0.7)], parent_of);
        assert_eq!(f, Fitted { binding: Binding::Pair { bone: 2, weight: 0.7, parent: 1 }, moved: 0.0 });
        // Siblings 2 and 3 (both children of 1): keep the heavier with its parent.
        let f = legal_binding(&[(2, 0.6), (3, 0.4)], parent_of);
        assert_eq!(f.binding, Binding::Rigid(2));
        assert!((f.moved - 0.4).abs() < 1e-6);
        // Three influences: 3 + its parent 1 capture 0.8.
        let f = legal_binding(&[(0, 0.2), (1, 0.3), (3, 0.5)], parent_of);
        assert_eq!(f.binding, Binding::Pair { bone: 3, weight: 0.625, parent: 1 });
        assert!((f.moved - 0.2).abs() < 1e-6);
    }
}
