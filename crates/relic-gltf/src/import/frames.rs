//! Bone axes turned back to the model's own.
//!
//! An editor may re-express every bone in axes of its own choosing: Blender's importer turns each
//! bone so that its tip points at its child ("Bone Dir", Temperance by default) and writes the
//! rest pose, the inverse bind matrices and every animation key in those axes on export. The
//! skinned result is the same, but a format that stores bone frames (LithTech's node transforms,
//! its vertices in node space) would be written in the editor's axes, and nothing would compare
//! equal with the game's file.
//!
//! relic's export records each bone as the model held it ([`BoneRecord`]). On import, bone `j`'s
//! turn is `C_j = R(bind_j)⁻¹ · R(bind'_j)` (the recorded bind's rotation against the glTF's);
//! every value expressed in a bone's axes is turned back:
//!
//! * rest and keyed rotations `R = C_parent · R' · C_j⁻¹`, translations `T = C_parent · T'`,
//!   scales permuted by `C_j` (exact for the quarter turns editors make);
//! * bind `B = B' · C_j⁻¹`, inverse bind `C_j · B'⁻¹`; attachments `A = C_j · A'`.
//!
//! Skinning is unchanged by construction (`B(t) · B⁻¹ = B'(t) · B'⁻¹`). Values that then agree
//! with the record within [`AGREE`] are replaced by the recorded ones, so a model that went
//! through an editor unchanged comes back with the exact numbers of its file.

use relic_core::math::{self, Mat4, quat_conjugate, quat_mul};
use relic_core::model::{ChannelValues, Model, Transform};

use crate::extras::BoneRecord;

/// How far (absolute, or relative above 1) a value may be from the recorded one and still be
/// taken as unchanged: f32 rounding through an editor's matrices is ~1e-6.
pub(crate) const AGREE: f32 = 1e-4;

/// What the importer found on a bone node.
#[derive(Debug, Clone, Copy)]
pub(super) struct Recorded {
    /// The bone as relic's export recorded it.
    pub(super) record: Option<BoneRecord>,
    /// The rest transform came from the node's extras (the node's own TRS is baked), so it is
    /// in the model's axes already.
    pub(super) rest_stated: bool,
}

/// What the importer found on an attachment node.
#[derive(Debug, Clone, Copy)]
pub(super) struct RecordedAttachment {
    /// The attachment's index in the model relic exported.
    pub(super) index: Option<u32>,
    /// Its transform as the model held it.
    pub(super) transform: Option<Transform>,
}

/// True if every number of `a` is within [`AGREE`] of `b`'s.
pub(crate) fn agrees(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= AGREE * x.abs().max(1.0))
}

fn transform_agrees(a: &Transform, b: &Transform) -> bool {
    let flipped = b.rotation.map(|c| -c);
    agrees(&a.translation, &b.translation)
        && agrees(&a.scale, &b.scale)
        && (agrees(&a.rotation, &b.rotation) || agrees(&a.rotation, &flipped))
}

/// Turns the model's bones back to the recorded axes and restores the recorded numbers that
/// still agree (see the module documentation). Bones without a record keep the glTF's axes.
pub(super) fn restore(model: &mut Model, recorded: &[Recorded], attachments: &[RecordedAttachment]) {
    let turns: Vec<[f32; 4]> = model
        .bones
        .iter()
        .zip(recorded)
        .map(|(bone, r)| r.record.map_or(IDENTITY_TURN, |rec| turn(&rec.bind_matrix, &bone.bind_matrix)))
        .collect();
    if turns.iter().any(|c| !agrees(c, &IDENTITY_TURN)) {
        turn_back(model, recorded, &turns);
    }
    for (bone, r) in model.bones.iter_mut().zip(recorded) {
        let Some(rec) = r.record else { continue };
        if transform_agrees(&bone.rest, &rec.rest) {
            bone.rest = rec.rest;
        }
        if agrees(&bone.bind_matrix, &rec.bind_matrix) {
            bone.bind_matrix = rec.bind_matrix;
        }
        if agrees(&bone.inverse_bind_matrix, &rec.inverse_bind_matrix) {
            bone.inverse_bind_matrix = rec.inverse_bind_matrix;
        }
    }
    restore_attachments(model, attachments);
}

/// Attachments with the recorded transforms where they still agree, in the recorded order where
/// every one has its index once.
fn restore_attachments(model: &mut Model, recorded: &[RecordedAttachment]) {
    if recorded.len() != model.attachments.len() {
        return;
    }
    for (a, r) in model.attachments.iter_mut().zip(recorded) {
        if let Some(t) = r.transform
            && transform_agrees(&a.transform, &t)
        {
            a.transform = t;
        }
    }
    if let Some(order) = super::recorded_order(recorded.iter().map(|r| r.index)) {
        super::rearranged(&mut model.attachments, &order);
    }
}

const IDENTITY_TURN: [f32; 4] = [0.0, 0.0, 0.0, 1.0];

/// `C = R(recorded)⁻¹ · R(current)`, normalised, with a non-negative `w`.
fn turn(recorded: &Mat4, current: &Mat4) -> [f32; 4] {
    let (_, a, _) = math::decompose(recorded);
    let (_, b, _) = math::decompose(current);
    let c = quat_mul(quat_conjugate(a), b);
    let n = math::quat_norm(c);
    if !(n > 0.0 && n.is_finite()) {
        return IDENTITY_TURN;
    }
    let sign = if c[3] < 0.0 { -1.0 } else { 1.0 };
    c.map(|x| x * sign / n)
}

fn turn_back(model: &mut Model, recorded: &[Recorded], turns: &[[f32; 4]]) {
    let turn_of = |b: Option<usize>| b.and_then(|b| turns.get(b)).copied().unwrap_or(IDENTITY_TURN);
    let parents: Vec<Option<usize>> = model.bones.iter().map(|b| b.parent).collect();
    for (b, bone) in model.bones.iter_mut().enumerate() {
        let (c, cp) = (turn_of(Some(b)), turn_of(bone.parent));
        if !recorded.get(b).is_some_and(|r| r.rest_stated) {
            bone.rest = turn_transform(&bone.rest, cp, c);
        }
        let undo = math::from_trs([0.0; 3], quat_conjugate(c), [1.0; 3]);
        bone.bind_matrix = math::mul(&bone.bind_matrix, &undo);
        bone.inverse_bind_matrix = math::mul(&math::from_trs([0.0; 3], c, [1.0; 3]), &bone.inverse_bind_matrix);
    }
    for channel in model.animations.iter_mut().flat_map(|a| &mut a.channels) {
        let (c, cp) = (turn_of(Some(channel.bone)), turn_of(parents.get(channel.bone).copied().flatten()));
        match &mut channel.values {
            ChannelValues::Translation(v) => v.iter_mut().for_each(|t| *t = math::quat_rotate(cp, *t)),
            ChannelValues::Rotation(v) => v.iter_mut().for_each(|q| *q = turn_rotation(*q, cp, c)),
            ChannelValues::Scale(v) => v.iter_mut().for_each(|s| *s = permute_scale(c, *s)),
        }
    }
    for a in &mut model.attachments {
        let c = turn_of(Some(a.bone));
        a.transform.translation = math::quat_rotate(c, a.transform.translation);
        a.transform.rotation = quat_mul(c, a.transform.rotation);
    }
}

/// `C_parent · R · C⁻¹` (linear in `R`'s components, so cubic tangents turn the same way).
fn turn_rotation(r: [f32; 4], parent: [f32; 4], own: [f32; 4]) -> [f32; 4] {
    quat_mul(quat_mul(parent, r), quat_conjugate(own))
}

fn turn_transform(t: &Transform, parent: [f32; 4], own: [f32; 4]) -> Transform {
    Transform {
        translation: math::quat_rotate(parent, t.translation),
        rotation: turn_rotation(t.rotation, parent, own),
        scale: permute_scale(own, t.scale),
    }
}

/// A per-axis scale seen from axes turned by `c`: exact when `c` maps axes onto axes.
fn permute_scale(c: [f32; 4], s: [f32; 3]) -> [f32; 3] {
    let m = math::from_trs([0.0; 3], c, [1.0; 3]);
    std::array::from_fn(|row| (0..3).map(|col| math::at(&m, row, col).abs() * s.get(col).copied().unwrap_or(1.0)).sum())
}

#[cfg(test)]
mod tests {
    use super::*;
    use relic_core::model::{Animation, Bone, Channel, Clock, Interpolation};

    fn quarter_x() -> [f32; 4] {
        let h = std::f32::consts::FRAC_1_SQRT_2;
        [h, 0.0, 0.0, h]
    }

    /// A two-bone model, then the same model with every bone's axes turned as an editor would:
    /// restoring gives back the first's numbers, and skinning matrices are equal all along.
    #[test]
    fn turned_axes_come_back_to_the_recorded_ones() {
        let root = Transform { translation: [0.0, 1.0, 0.0], ..Transform::IDENTITY };
        let child = Transform { translation: [0.0, 0.0, 2.0], rotation: quarter_x(), scale: [1.0, 2.0, 3.0] };
        let mut original = Model {
            bones: vec![
                Bone { name: "root".into(), rest: root, ..Bone::default() },
                Bone { name: "child".into(), parent: Some(0), rest: child, ..Bone::default() },
            ],
            ..Model::default()
        };
        let globals = original.rest_globals();
        for (bone, g) in original.bones.iter_mut().zip(&globals) {
            bone.bind_matrix = *g;
            bone.inverse_bind_matrix = math::inverse(g).unwrap_or(math::IDENTITY);
        }
        original.animations = vec![Animation {
            channels: vec![Channel {
                bone: 1,
                clock: Clock::Animation,
                interpolation: Interpolation::Linear,
                times: vec![0.0],
                values: ChannelValues::Rotation(vec![[0.0, 0.0, 0.0, 1.0]]),
            }],
            ..Animation::default()
        }];
        let records: Vec<Recorded> = original
            .bones
            .iter()
            .map(|b| Recorded {
                record: Some(BoneRecord {
                    rest: b.rest,
                    bind_matrix: b.bind_matrix,
                    inverse_bind_matrix: b.inverse_bind_matrix,
                }),
                rest_stated: false,
            })
            .collect();
        // The editor's axes: each bone turned by its own C (inverse of what restore undoes).
        let editor_turns = [quarter_x(), [0.0, 1.0, 0.0, 0.0]];
        let mut edited = original.clone();
        let undo: Vec<[f32; 4]> = editor_turns.iter().map(|c| quat_conjugate(*c)).collect();
        turn_back(&mut edited, &records, &undo);
        assert!(!agrees(&edited.bones[1].bind_matrix, &original.bones[1].bind_matrix));
        restore(&mut edited, &records, &[]);
        assert_eq!(edited.bones, original.bones);
        let ChannelValues::Rotation(q) = &edited.animations[0].channels[0].values else { unreachable!() };
        assert!(agrees(&q[0], &[0.0, 0.0, 0.0, 1.0]), "{q:?}");
    }

    #[test]
    fn quarter_turns_permute_scales() {
        let s = permute_scale(
            [0.0, 0.0, std::f32::consts::FRAC_1_SQRT_2, std::f32::consts::FRAC_1_SQRT_2],
            [1.0, 2.0, 3.0],
        );
        assert!(agrees(&s, &[2.0, 1.0, 3.0]), "{s:?}");
    }
}
