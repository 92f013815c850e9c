//! The NOD skinning rule (spec §3).
//!
//! A vertex is bound to `BoneNum` with weight `w` and to that bone's parent with `1 − w`; it has a
//! single influence when `w ≥ 0.999999` or the bone is the root. A NOWEIGHTS group counts every
//! weight as 1; a NOSKINNING group ignores the vertex bindings and is rigid on the group's bone.
//! In the model the rule stays data: two influences (`crate::from_ir::skin` fits any other
//! influences to it).

use relic_core::model::Influence;

use crate::options::{GROUP_NOSKINNING, GROUP_NOWEIGHTS, SINGLE_INFLUENCE_WEIGHT};

/// How one vertex is bound, as the engine sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Binding {
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
    pub(crate) fn decode(weight: f32, bone_num: u8, group_flags: u16, group_bone: u8, parents: &[i16]) -> Binding {
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
    pub(crate) fn canonical(self) -> (f32, u8) {
        match self {
            Binding::Unbound => (1.0, 0),
            Binding::Rigid(b) => (1.0, b),
            Binding::Pair { bone, weight, .. } => (weight, bone),
        }
    }

    /// Appends the model's influences to `out`.
    #[inline]
    pub(crate) fn push_influences(self, out: &mut Vec<Influence>) {
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
    pub(crate) fn influences(self) -> Vec<Influence> {
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
}
