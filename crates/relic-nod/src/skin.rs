//! The NOD skinning rule (spec §3) in both directions.
//!
//! A vertex is bound to `BoneNum` with weight `w` and to that bone's parent with `1 − w`; it has a
//! single influence when `w ≥ 0.999999` or the bone is the root. A NOWEIGHTS group counts every
//! weight as 1; a NOSKINNING group ignores the vertex bindings and is rigid on the group's bone.
//! The model's side is any list of influences; [`legal_binding`] finds the nearest binding the
//! rule can express.

use relic_core::model::Influence;

use crate::options::{GROUP_NOSKINNING, GROUP_NOWEIGHTS, SINGLE_INFLUENCE_WEIGHT};

/// How one vertex is bound, as the engine sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Binding {
    /// A model without bones: nothing moves the vertex.
    Unbound,
    /// One bone, weight 1.
    Rigid(u8),
    /// `weight` on `bone`, `1 − weight` on `parent` (the bone's parent).
    Pair {
        /// BoneNum.
        bone: u8,
        /// Its weight, in [0, 0.999999).
        weight: f32,
        /// The bone's parent.
        parent: u8,
    },
}

impl Binding {
    /// Reads a stored vertex binding under the rule. `parents[b]` is bone b's parent (−1 for the
    /// root); `group_flags` are the group's effective flags and `group_bone` its BoneNum.
    pub fn decode(weight: f32, bone_num: u8, group_flags: u16, group_bone: u8, parents: &[i16]) -> Binding {
        if parents.is_empty() {
            return Binding::Unbound;
        }
        if group_flags & GROUP_NOSKINNING != 0 {
            return Binding::Rigid(group_bone);
        }
        if group_flags & GROUP_NOWEIGHTS != 0 {
            return Binding::Rigid(bone_num);
        }
        let parent = parents.get(usize::from(bone_num)).and_then(|p| u8::try_from(*p).ok());
        match parent {
            // `!(w < t)` also sends NaN to a single influence.
            Some(parent) if weight < SINGLE_INFLUENCE_WEIGHT => {
                Binding::Pair { bone: bone_num, weight: weight.max(0.0), parent }
            }
            _ => Binding::Rigid(bone_num),
        }
    }

    /// The weight and bone number a writer stores for this binding (padding zero).
    pub fn canonical(self) -> (f32, u8) {
        match self {
            Binding::Unbound => (1.0, 0),
            Binding::Rigid(b) => (1.0, b),
            Binding::Pair { bone, weight, .. } => (weight, bone),
        }
    }

    /// Appends the model's influences to `out`.
    #[inline]
    pub fn push_influences(self, out: &mut Vec<Influence>) {
        match self {
            Binding::Unbound => {}
            Binding::Rigid(b) => out.push(Influence { bone: u32::from(b), weight: 1.0 }),
            Binding::Pair { bone, weight, parent } => {
                out.push(Influence { bone: u32::from(bone), weight });
                out.push(Influence { bone: u32::from(parent), weight: 1.0 - weight });
            }
        }
    }

    /// The model's influences.
    pub fn influences(self) -> Vec<Influence> {
        match self {
            Binding::Unbound => Vec::new(),
            Binding::Rigid(b) => vec![Influence { bone: u32::from(b), weight: 1.0 }],
            Binding::Pair { bone, weight, parent } => vec![
                Influence { bone: u32::from(bone), weight },
                Influence { bone: u32::from(parent), weight: 1.0 - weight },
            ],
        }
    }
}

/// The result of fitting a model vertex's influences to the rule.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fitted {
    /// The binding written.
    pub binding: Binding,
    /// Total weight moved off the original influences (0 when the influences were legal).
    pub moved: f32,
}

/// The binding closest to `influences` (NOD bone numbers) that the rule can express: a bone and
/// its parent capturing the most weight, renormalised (the L1-nearest legal weights). `parent_of`
/// gives each NOD bone's parent.
pub fn legal_binding(influences: &[(u8, f32)], parent_of: impl Fn(u8) -> Option<u8>) -> Fitted {
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

#[cfg(test)]
mod tests {
    use super::*;

    const PARENTS: [i16; 4] = [-1, 0, 1, 1];

    #[test]
    fn decode_follows_the_rule() {
        assert_eq!(Binding::decode(0.25, 2, 0, 0, &PARENTS), Binding::Pair { bone: 2, weight: 0.25, parent: 1 });
        assert_eq!(Binding::decode(0.999_999_5, 2, 0, 0, &PARENTS), Binding::Rigid(2));
        assert_eq!(Binding::decode(0.5, 0, 0, 0, &PARENTS), Binding::Rigid(0), "root: single influence");
        assert_eq!(Binding::decode(0.5, 2, GROUP_NOWEIGHTS, 0, &PARENTS), Binding::Rigid(2));
        assert_eq!(Binding::decode(0.5, 2, GROUP_NOSKINNING, 3, &PARENTS), Binding::Rigid(3));
        assert_eq!(Binding::decode(f32::NAN, 2, 0, 0, &PARENTS), Binding::Rigid(2));
        assert_eq!(Binding::decode(-1.0, 2, 0, 0, &PARENTS), Binding::Pair { bone: 2, weight: 0.0, parent: 1 });
        assert_eq!(Binding::decode(0.5, 2, 0, 0, &[]), Binding::Unbound);
    }

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
