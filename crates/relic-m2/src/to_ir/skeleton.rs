//! Bones and attachments: pivots become rest translations and `translate(±pivot)` bind matrices
//! (spec §6); bones are ordered parents first.

use relic_core::ReadError;
use relic_core::math::{IDENTITY, sub3};
use relic_core::model::{self as ir, *};

use crate::file::*;
use crate::frame::WARCRAFT;
use crate::names;

/// Bone order of the model: parents before children, file order otherwise. Returns
/// `(order, rank)`: `order[ir] = file index`, `rank[file index] = ir`.
///
/// The order is the one of placing bones in passes over the file, each pass taking in file order
/// every bone whose parent is already placed: a bone goes in its parent's pass if it comes after
/// the parent in the file, else in the next one (a root, or a parent out of range, in the first).
/// The passes are computed once per bone, so a chain of children before their parents costs n
/// steps, not one pass per bone. Bones in or below a cycle (the reader refuses those) are left out
/// and keep rank 0.
pub(crate) fn bone_order(file: &M2File) -> (Vec<usize>, Vec<usize>) {
    let n = file.bones.len();
    const UNKNOWN: usize = usize::MAX;
    const ON_WALK: usize = usize::MAX - 1;
    const CYCLE: usize = usize::MAX - 2;
    let parent = |i: usize| file.bones.get(i).and_then(|b| usize::try_from(b.parent).ok()).filter(|&p| p < n);
    let mut pass = vec![UNKNOWN; n];
    let mut walk: Vec<usize> = Vec::new();
    for i in 0..n {
        // Climb until a root or a bone whose pass is known, then settle the walk top down.
        let mut p = i;
        let mut cycle = false;
        loop {
            match pass.get(p).copied() {
                Some(UNKNOWN) => {
                    if let Some(x) = pass.get_mut(p) {
                        *x = ON_WALK;
                    }
                    walk.push(p);
                    match parent(p) {
                        Some(q) => p = q,
                        None => break,
                    }
                }
                Some(ON_WALK | CYCLE) => {
                    cycle = true;
                    break;
                }
                _ => break,
            }
        }
        while let Some(q) = walk.pop() {
            // Top down: a parent on the walk was settled just before its child, one met before it
            // is settled already (`parent` names bones below `n` only).
            let settled = match parent(q).and_then(|p| Some((p, *pass.get(p)?))) {
                _ if cycle => CYCLE,
                None => 0,
                Some((p, parent_pass)) => parent_pass + usize::from(p > q),
            };
            if let Some(x) = pass.get_mut(q) {
                *x = settled;
            }
        }
    }
    let mut placed: Vec<(usize, usize)> =
        pass.iter().enumerate().filter(|&(_, &p)| p != CYCLE).map(|(i, &p)| (p, i)).collect();
    placed.sort_unstable();
    let order: Vec<usize> = placed.into_iter().map(|(_, i)| i).collect();
    let mut rank = vec![0; n];
    for (ir, &f) in order.iter().enumerate() {
        if let Some(r) = rank.get_mut(f) {
            *r = ir;
        }
    }
    (order, rank)
}

/// A bone's pivot (M2 frame); zero for "no bone".
pub(crate) fn pivot(file: &M2File, bone: i64) -> [f32; 3] {
    usize::try_from(bone).ok().and_then(|b| file.bones.get(b)).map_or([0.0; 3], |b| b.pivot)
}

/// The pivot-relative rest offset of a bone (M2 frame).
pub(crate) fn rest_offset(file: &M2File, bone: usize) -> [f32; 3] {
    let b = file.bones.get(bone);
    let parent = b.map_or(-1, |b| i64::from(b.parent));
    sub3(b.map_or([0.0; 3], |b| b.pivot), pivot(file, parent))
}

fn translate(t: [f32; 3]) -> relic_core::math::Mat4 {
    let mut m = IDENTITY;
    m[12] = t[0];
    m[13] = t[1];
    m[14] = t[2];
    m
}

/// A cylindrical billboard locked to the model's axis `axis` (0 = X, 1 = Y, 2 = Z).
pub(crate) fn cylindrical(axis: usize) -> Billboard {
    match axis {
        0 => Billboard::CylindricalX,
        1 => Billboard::CylindricalY,
        _ => Billboard::CylindricalZ,
    }
}

/// The bone flags of the model from M2 bone flags.
pub(crate) fn bone_flags(flags: u32) -> BoneFlags {
    // M2's cylindrical lock axes are M2 axes; the model's are its own.
    let billboard = if flags & BONE_BILLBOARD != 0 {
        Billboard::Spherical
    } else if flags & BONE_BILLBOARD_X != 0 {
        cylindrical(WARCRAFT.axis_to_ir(0))
    } else if flags & BONE_BILLBOARD_Y != 0 {
        cylindrical(WARCRAFT.axis_to_ir(1))
    } else if flags & BONE_BILLBOARD_Z != 0 {
        cylindrical(WARCRAFT.axis_to_ir(2))
    } else {
        Billboard::None
    };
    BoneFlags {
        inherit_translation: flags & BONE_IGNORE_PARENT_TRANSLATION == 0,
        inherit_rotation: flags & BONE_IGNORE_PARENT_ROTATION == 0,
        inherit_scale: flags & BONE_IGNORE_PARENT_SCALE == 0,
        rotation_only: false,
        billboard,
    }
}

/// The model's bones (in `order`).
pub(crate) fn bones_to_ir(file: &M2File, order: &[usize], rank: &[usize]) -> Vec<ir::Bone> {
    order
        .iter()
        .enumerate()
        .filter_map(|(ir, &f)| {
            let b = file.bones.get(f)?;
            let p = WARCRAFT.vector_to_ir(b.pivot);
            Some(ir::Bone {
                name: names::bone_name(ir, b.key_bone_id),
                parent: usize::try_from(b.parent).ok().and_then(|p| rank.get(p).copied()),
                rest: Transform { translation: WARCRAFT.vector_to_ir(rest_offset(file, f)), ..Transform::IDENTITY },
                bind_matrix: translate(p),
                inverse_bind_matrix: translate(p.map(|c| -c)),
                flags: bone_flags(b.flags),
            })
        })
        .collect()
}

/// The model's attachments; an error names one whose bone does not exist (the reader refuses
/// those: `validate::others`).
pub(crate) fn attachments_to_ir(file: &M2File, rank: &[usize]) -> Result<Vec<ir::Attachment>, ReadError> {
    file.attachments
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let Some(&bone) = rank.get(usize::from(a.bone)) else {
                let at = u64::from(file.attachments.offset) + 48 * i as u64 + 4;
                let what = format!("bone {} is out of range ({} exist)", a.bone, file.bones.len());
                return Err(ReadError::invalid(at, format!("M2File.attachments[{i}].bone"), what));
            };
            Ok(ir::Attachment {
                name: format!("attachment {}", a.id),
                id: Some(a.id),
                bone,
                transform: Transform {
                    translation: WARCRAFT.vector_to_ir(sub3(a.position, pivot(file, i64::from(a.bone)))),
                    ..Transform::IDENTITY
                },
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pass-by-pass placement `bone_order` used to make.
    fn by_passes(file: &M2File) -> Vec<usize> {
        let n = file.bones.len();
        let mut order = Vec::new();
        let mut placed = vec![false; n];
        while order.len() < n {
            let before = order.len();
            for (i, b) in file.bones.iter().enumerate() {
                let parent_placed = usize::try_from(b.parent).map_or(true, |p| placed.get(p).copied().unwrap_or(true));
                if !placed[i] && parent_placed {
                    order.push(i);
                    placed[i] = true;
                }
            }
            if order.len() == before {
                break;
            }
        }
        order
    }

    #[test]
    fn bone_order_is_the_pass_order() {
        let mut rng = relic_testkit::Rng::new(11);
        for _ in 0..2000 {
            let n = rng.below(10);
            let bones = (0..n)
                .map(|_| crate::file::Bone { parent: rng.below(n + 3) as i16 - 2, ..Default::default() })
                .collect::<Vec<_>>();
            let file = M2File { bones: bones.into(), ..M2File::default() };
            let (order, rank) = bone_order(&file);
            assert_eq!(order, by_passes(&file), "{:?}", file.bones.iter().map(|b| b.parent).collect::<Vec<_>>());
            for (k, &f) in order.iter().enumerate() {
                assert_eq!(rank[f], k);
            }
        }
    }
}
