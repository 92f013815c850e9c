//! CrossFire's half turn (ltb.md §7.1): its exporter stores the root node's bind as a half turn
//! about Y, `diag(−1, 1, −1)`, and its animations key the root without it. At rest such a model
//! faces away from the front; animated by the game it faces the front. `to_ir` takes the turn
//! out of the rest ([`HalfTurn`]: the bind matrices and the model-space vertices, not the keys), so
//! that the model faces the front both at rest and animated, as in the game; `from_ir` puts it
//! back, bit for bit, for a model whose LTB extras hold a file with the turn.

use relic_core::frame::HalfTurn;
use relic_core::model::Model;

use crate::file::LtbFile;

/// The root matrix of a turned file (row-major, as stored).
const TURNED_ROOT: [f32; 16] = [-1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0, 1.0];

/// Whether `file`'s root node (the first: nodes are stored depth first) holds the exporter's turn
/// exactly.
pub(crate) fn is_turned(file: &LtbFile) -> bool {
    file.nodes.first().is_some_and(|root| root.matrix == TURNED_ROOT)
}

/// `model`'s rest turned (`HalfTurn::Do`) or turned back (`Undo`): every bind and inverse bind,
/// the root bones' rest transforms, every mesh's positions, normals and morph offsets.
pub(crate) fn apply(model: &mut Model, turn: HalfTurn) {
    for bone in &mut model.bones {
        bone.bind_matrix = turn.matrix(&bone.bind_matrix);
        bone.inverse_bind_matrix = turn.inverse_matrix(&bone.inverse_bind_matrix);
        if bone.parent.is_none() {
            bone.rest.translation = turn.vector(bone.rest.translation);
            bone.rest.rotation = turn.quat(bone.rest.rotation);
        }
    }
    for mesh in &mut model.meshes {
        let vectors = mesh.positions.iter_mut().chain(&mut mesh.normals);
        let morphs =
            mesh.morph_targets.iter_mut().flat_map(|t| t.position_deltas.iter_mut().chain(&mut t.normal_deltas));
        for v in vectors.chain(morphs) {
            *v = turn.vector(*v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use relic_core::model::{Bone, Mesh, MorphTarget, Transform};

    #[test]
    fn turned_and_back_is_the_same_model_bit_for_bit() {
        let root = relic_core::math::from_trs([0.0; 3], [0.0, 1.0, 0.0, 0.0], [1.0; 3]);
        let child = relic_core::math::from_trs([0.5, 1.0, -2.0], [0.1, 0.2, -0.3, 0.927_361_8], [1.0; 3]);
        let bone = |parent, bind: relic_core::math::Mat4| Bone {
            parent,
            rest: {
                let (t, r, s) = relic_core::math::decompose(&bind);
                Transform { translation: t, rotation: r, scale: s }
            },
            bind_matrix: bind,
            inverse_bind_matrix: relic_core::math::inverse(&bind).unwrap_or_default(),
            ..Bone::default()
        };
        let mut model = Model { bones: vec![bone(None, root), bone(Some(0), child)], ..Model::default() };
        model.meshes.push(Mesh {
            positions: vec![[1.0, 2.0, -3.0], [-0.0, 0.5, 0.25]],
            normals: vec![[0.0, 0.0, -1.0], [1.0, 0.0, 0.0]],
            morph_targets: vec![MorphTarget { position_deltas: vec![[0.1, 0.0, 0.2]; 2], ..MorphTarget::default() }],
            ..Mesh::default()
        });
        let before = model.clone();
        apply(&mut model, HalfTurn::Do);
        // The root's bind becomes the identity, the mesh faces +Z, the child's rest is unchanged.
        assert_eq!(model.bones[0].bind_matrix, relic_core::math::IDENTITY);
        assert_eq!(model.meshes[0].normals[0], [-0.0, 0.0, 1.0]);
        assert_eq!(model.bones[1].rest, before.bones[1].rest);
        apply(&mut model, HalfTurn::Undo);
        assert_eq!(format!("{model:?}"), format!("{before:?}"), "back bit for bit (-0.0 included in Debug)");
    }
}
