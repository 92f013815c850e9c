//! The model's skeleton → NOD bones: at most 64 bones, one root first, parents before children
//! (the model's order), `RestTranslate` and `RestMatrixInverse` from the rest and inverse bind
//! transforms, sibling and child links kept or derived.

use nalgebra::Affine3;
use relic_core::math::{IDENTITY, max_abs_diff};
use relic_core::model::Model;
use relic_core::{Loss, WriteError};

use crate::decide::NodChoices;
use crate::extras::NodSource;
use crate::file::NodBone;
use crate::options::{MAX_BONES, RestTranslateSpace};
use crate::rest::{affine, in_parent_space, invert, point};
use crate::to_ir::NOD_FRAME;

/// Which model bone each NOD bone is, and back.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct BoneMap {
    /// NOD bone number of each model bone (`None`: dropped).
    pub(crate) to_nod: Vec<Option<u8>>,
    /// Model bone of each NOD bone (`None`: the root added for a model with several roots).
    pub(crate) from_nod: Vec<Option<usize>>,
}

impl BoneMap {
    /// Fits the model's skeleton to the NOD's: at most 64 bones, one root first.
    pub(crate) fn new(model: &Model, losses: &mut Vec<Loss>) -> Result<BoneMap, WriteError> {
        let n = model.bones.len();
        if n == 0 {
            return Ok(BoneMap::default());
        }
        let roots = |keep: &[bool]| model.bones.iter().zip(keep).filter(|(b, k)| **k && b.parent.is_none()).count();
        let mut keep = vec![true; n];
        let extra_root = |keep: &[bool]| usize::from(roots(keep) > 1);
        if n + extra_root(&keep) > MAX_BONES {
            keep = used_bones(model);
            let needed = keep.iter().filter(|k| **k).count() + extra_root(&keep);
            if needed > MAX_BONES {
                return Err(WriteError::Unsupported(format!(
                    "bones: the model has {n} bones and {needed} of them move vertices or hold attachments (with \
                     their ancestors); a NOD holds at most {MAX_BONES}"
                )));
            }
            let dropped: Vec<&str> =
                model.bones.iter().zip(&keep).filter(|(_, k)| !**k).map(|(b, _)| b.name.as_str()).collect();
            losses.push(Loss::new(
                "bones",
                format!(
                    "{} of {n} bones move no vertex and hold no attachment; dropped to fit the NOD's {MAX_BONES} ({}{})",
                    dropped.len(),
                    dropped.iter().take(8).copied().collect::<Vec<_>>().join(", "),
                    if dropped.len() > 8 { ", …" } else { "" }
                ),
            ));
        }
        let mut map = BoneMap { to_nod: vec![None; n], from_nod: Vec::new() };
        if roots(&keep) > 1 {
            map.from_nod.push(None);
            losses.push(Loss::new(
                "bones",
                format!("the model has {} root bones; a NOD has one: added a root bone at the origin", roots(&keep)),
            ));
        }
        for (i, k) in keep.iter().enumerate() {
            if *k {
                if let Some(slot) = map.to_nod.get_mut(i) {
                    *slot = u8::try_from(map.from_nod.len()).ok();
                }
                map.from_nod.push(Some(i));
            }
        }
        Ok(map)
    }

    /// True if a root bone was added.
    pub(crate) fn added_root(&self) -> bool {
        self.from_nod.first() == Some(&None)
    }

    /// NOD bone of model bone `b`.
    pub(crate) fn nod(&self, b: usize) -> Option<u8> {
        self.to_nod.get(b).copied().flatten()
    }
}

/// Bones that carry skin weight or attachments, with all their ancestors.
fn used_bones(model: &Model) -> Vec<bool> {
    let mut keep = vec![false; model.bones.len()];
    let mark = |keep: &mut Vec<bool>, b: usize| {
        if let Some(k) = keep.get_mut(b) {
            *k = true;
        }
    };
    for mesh in model.meshes.iter().filter(|m| m.lod.level == 0) {
        for inf in mesh.skin.influences.iter().filter(|i| i.weight > 0.0) {
            mark(&mut keep, inf.bone as usize);
        }
    }
    for a in &model.attachments {
        mark(&mut keep, a.bone);
    }
    // Parents come before children: one backwards pass marks every ancestor.
    for b in (0..model.bones.len()).rev() {
        if keep.get(b).copied().unwrap_or(false)
            && let Some(p) = model.bones.get(b).and_then(|x| x.parent)
        {
            mark(&mut keep, p);
        }
    }
    keep
}

/// The model's bones as NOD bones (in `map`'s order), with what they lose reported.
pub(crate) fn write_bones(
    model: &Model,
    map: &BoneMap,
    choices: &NodChoices,
    source: Option<&NodSource>,
    losses: &mut Vec<Loss>,
) -> Vec<NodBone> {
    let layout = choices.matrix_layout.value;
    let parents: Vec<i16> = map
        .from_nod
        .iter()
        .enumerate()
        .map(|(n, src)| match src.and_then(|i| model.bones.get(i)) {
            None if n == 0 => -1,
            None => 0,
            Some(bone) => match bone.parent.and_then(|p| map.nod(p)) {
                Some(p) => i16::from(p),
                None if map.added_root() => 0,
                None => -1,
            },
        })
        .collect();
    let source_bones = source
        .map(|s| &s.bones)
        .filter(|sb| sb.len() == parents.len() && sb.iter().zip(&parents).all(|(s, p)| s.parent == *p));
    // The kept sibling/child links are written as they were only if the reader would accept them:
    // extras edited through glTF may hold anything.
    let in_range = |v: i16| v == -1 || usize::try_from(v).is_ok_and(|v| v < parents.len());
    let source_bones = match source_bones {
        Some(sb) if !sb.iter().all(|s| in_range(s.sibling) && in_range(s.child)) => {
            losses.push(Loss::new("extras", "NOD bone links out of range; derived from the hierarchy instead"));
            None
        }
        other => other,
    };
    let mut out = Vec::with_capacity(parents.len());
    for (n, src) in map.from_nod.iter().enumerate() {
        let parent = parents.get(n).copied().unwrap_or(-1);
        let bone = src.and_then(|i| model.bones.get(i));
        let inverse = bone.map_or(IDENTITY, |b| NOD_FRAME.matrix_from_ir(&b.inverse_bind_matrix));
        // The parent's inverse rest matrix as the reader will see it (an added root: identity).
        let parent_inverse = usize::try_from(parent)
            .ok()
            .and_then(|p| map.from_nod.get(p))
            .map(|m| m.and_then(|i| model.bones.get(i)).map_or(IDENTITY, |b| b.inverse_bind_matrix))
            .map(|m| affine(&NOD_FRAME.matrix_from_ir(&m)));
        let local = bone.map_or([0.0; 3], |b| NOD_FRAME.vector_from_ir(b.rest.translation));
        let reads_as = |rt: [f32; 3]| match (choices.rest_translate.value, &parent_inverse) {
            (RestTranslateSpace::Model, Some(pi)) => in_parent_space(pi, rt),
            _ => rt,
        };
        // The kept value while it still reads as the model's translation, else one computed from it.
        let kept = source_bones.and_then(|sb| sb.get(n)).map(|s| s.rest_translate.map(f32::from_bits));
        let rest_translate = match kept.filter(|raw| reads_as(*raw) == local) {
            Some(raw) => raw,
            None => match (choices.rest_translate.value, &parent_inverse) {
                (RestTranslateSpace::Model, Some(pi)) => model_space_translate(local, pi),
                _ => local,
            },
        };
        let (sibling, child) = match source_bones.and_then(|sb| sb.get(n)) {
            Some(s) => (s.sibling, s.child),
            None => derived_links(&parents, n),
        };
        out.push(NodBone { rest_translate, rest_matrix_inverse: layout.floats(&inverse), sibling, child, parent });
    }
    rest_pose_loss(model, losses);
    out
}

/// The model-space `RestTranslate` that [`in_parent_space`] turns into `local`: the parent's
/// rest transform applied to `local` in f64, then, since the f32 result need not read back
/// exactly, the neighbouring f32 triple (within two steps per coordinate) that reads back closest,
/// exactly if there is one.
fn model_space_translate(local: [f32; 3], parent_inverse: &Affine3<f64>) -> [f32; 3] {
    let Some(parent_world) = invert(parent_inverse) else { return local };
    let start = point(&parent_world, local.map(f64::from)).map(|c| c as f32);
    let error = |rt: [f32; 3]| {
        let back = in_parent_space(parent_inverse, rt);
        back.iter().zip(&local).map(|(a, b)| (f64::from(*a) - f64::from(*b)).abs()).fold(0.0, f64::max)
    };
    let steps = |c: f32| [c, c.next_up(), c.next_down(), c.next_up().next_up(), c.next_down().next_down()];
    let [xs, ys, zs] = start.map(steps);
    let mut best = (error(start), start);
    for x in xs {
        for y in ys {
            for z in zs {
                if best.0 == 0.0 {
                    return best.1;
                }
                let e = error([x, y, z]);
                if e < best.0 {
                    best = (e, [x, y, z]);
                }
            }
        }
    }
    best.1
}

/// Child = first bone whose parent is `n`; sibling = next bone with the same parent.
pub(crate) fn derived_links(parents: &[i16], n: usize) -> (i16, i16) {
    let me = i16::try_from(n).unwrap_or(-1);
    let parent = parents.get(n).copied().unwrap_or(-1);
    let child = parents.iter().position(|&p| p == me).and_then(|c| i16::try_from(c).ok()).unwrap_or(-1);
    let sibling = if parent < 0 {
        -1
    } else {
        parents
            .iter()
            .enumerate()
            .skip(n + 1)
            .find(|(_, p)| **p == parent)
            .and_then(|(s, _)| i16::try_from(s).ok())
            .unwrap_or(-1)
    };
    (sibling, child)
}

/// A NOD has no rest rotations of its own: its rest pose is its bind pose.
fn rest_pose_loss(model: &Model, losses: &mut Vec<Loss>) {
    let globals = model.rest_globals();
    let extent = model
        .bones
        .iter()
        .flat_map(|b| [b.bind_matrix[12], b.bind_matrix[13], b.bind_matrix[14]])
        .fold(0.0f32, |m, c| m.max(c.abs()));
    let worst = globals.iter().zip(&model.bones).map(|(g, b)| max_abs_diff(g, &b.bind_matrix)).fold(0.0f32, f32::max);
    if worst > 1e-3 * (1.0 + extent) {
        losses.push(Loss::new(
            "bones",
            format!(
                "the model's rest pose differs from its bind pose (largest matrix difference {worst:.3}); a NOD \
                 stores only the inverse bind matrices, so its rest pose is the bind pose"
            ),
        ));
    }
}
