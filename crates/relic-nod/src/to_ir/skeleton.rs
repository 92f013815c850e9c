//! NOD bones → the model's skeleton.
//!
//! Inverse bind matrix = `RestMatrixInverse` under the chosen layout; bind matrix = its inverse.
//! Rest (local) transform: translation from `RestTranslate` (in the chosen space), rotation from
//! the matrices (`inverse(world(parent)) · world(bone)`), unit scale.

use nalgebra::Affine3;
use relic_core::model::{Bone, Transform};

use super::NOD_FRAME;
use crate::decide::NodChoices;
use crate::file::NodFile;
use crate::options::RestTranslateSpace;
use crate::rest::{in_parent_space, inverse_rest, rest_worlds, rotation, to_mat4};

/// The model's bones, in NOD order (parents first).
pub(crate) fn bones_to_ir(file: &NodFile, choices: &NodChoices) -> Vec<Bone> {
    let layout = choices.matrix_layout.value;
    let inverse = inverse_rest(file, layout);
    let worlds = rest_worlds(&inverse);
    let mut out = Vec::with_capacity(file.bones.len());
    for (b, bone) in file.bones.iter().enumerate() {
        let parent = usize::try_from(bone.parent).ok();
        let world = worlds.get(b).copied().unwrap_or_else(Affine3::identity);
        let parent_inverse = parent.and_then(|p| inverse.get(p));
        let local = match parent_inverse {
            Some(pi) => pi * world,
            None => world,
        };
        let translation = match (choices.rest_translate.value, parent_inverse) {
            (RestTranslateSpace::Model, Some(pi)) => in_parent_space(pi, bone.rest_translate),
            _ => bone.rest_translate,
        };
        let q = rotation(&local);
        let rotation = [q.i, q.j, q.k, q.w].map(|c| c as f32);
        out.push(Bone {
            name: format!("bone_{b}"),
            parent,
            rest: Transform {
                translation: NOD_FRAME.vector_to_ir(translation),
                rotation: NOD_FRAME.quat_to_ir(rotation),
                scale: [1.0; 3],
            },
            bind_matrix: NOD_FRAME.matrix_to_ir(&to_mat4(&world)),
            inverse_bind_matrix: NOD_FRAME.matrix_to_ir(&layout.matrix(&bone.rest_matrix_inverse)),
            flags: Default::default(),
        });
    }
    out
}
