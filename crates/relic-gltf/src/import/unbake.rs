//! Bones that do not inherit all of their parent's transform, back from another tool. relic's
//! export bakes their glTF locals (`inverse(parent global) · global`, [`crate::bake`]); relic's
//! own import puts the stashed channels back, but an editor that rewrote the file (Blender) gives
//! the baked values back as the bone's keys. Written as they are, a game that composes the bone
//! under its flags would play another motion: each such clip is evaluated the way glTF composes
//! it and the bone's keys are taken again in the model's own composition,
//! `inverse(inherited part of parent global) · global`.

use relic_anim::affine;
use relic_anim::pose::{ClipTime, Evaluator};
use relic_core::math;
use relic_core::model::{Animation, BoneFlags, Channel, ChannelValues, Clock, Interpolation, Model};

use crate::bake;

/// Re-keys every flagged bone of every clip in the model's composition (see the module docs), the
/// keys reduced within `tolerance`.
pub(super) fn unbake(model: &mut Model, tolerance: crate::keys::Tolerance) {
    let flagged: Vec<usize> =
        (0..model.bones.len()).filter(|&b| model.bones.get(b).is_some_and(bake::flagged)).collect();
    if flagged.is_empty() {
        return;
    }
    // The model as glTF composes it: every bone inherits everything, rests are the node's.
    let mut as_gltf = Model { bones: model.bones.clone(), ..Model::default() };
    for (bone, rest) in as_gltf.bones.iter_mut().zip(bake::rest_locals(model)) {
        bone.rest = rest;
        bone.flags = BoneFlags { rotation_only: bone.flags.rotation_only, ..BoneFlags::default() };
    }
    for anim in &mut model.animations {
        let keyed: Vec<(usize, Vec<f32>)> =
            flagged.iter().filter_map(|&b| chain_times(&as_gltf, anim, b).map(|t| (b, t))).collect();
        for (b, times) in keyed {
            let channels = rekeyed(&as_gltf, model_flags(&model.bones, b), anim, b, &times, tolerance);
            anim.channels.retain(|c| c.bone != b);
            anim.channels.extend(channels);
        }
    }
}

fn model_flags(bones: &[relic_core::model::Bone], b: usize) -> BoneFlags {
    bones.get(b).map(|bone| bone.flags).unwrap_or_default()
}

/// The key times of every channel of bone `b` and its ancestors in `anim`, sorted; `None` when
/// none of them is keyed (the bone then holds its rest in both compositions).
fn chain_times(model: &Model, anim: &Animation, b: usize) -> Option<Vec<f32>> {
    let mut chain = Vec::new();
    let mut at = Some(b);
    while let Some(bone) = at.filter(|x| !chain.contains(x)) {
        chain.push(bone);
        at = model.bones.get(bone).and_then(|x| x.parent);
    }
    let mut times: Vec<f32> = anim
        .channels
        .iter()
        .filter(|c| c.clock == Clock::Animation && chain.contains(&c.bone))
        .flat_map(|c| c.times.iter().copied())
        .filter(|t| t.is_finite())
        .collect();
    if times.is_empty() {
        return None;
    }
    times.sort_by(f32::total_cmp);
    times.dedup();
    Some(times)
}

/// Bone `b`'s keys at `times` in the model's composition under `flags`, from the pose glTF
/// composes (`as_gltf`).
fn rekeyed(
    as_gltf: &Model,
    flags: BoneFlags,
    anim: &Animation,
    b: usize,
    times: &[f32],
    tolerance: crate::keys::Tolerance,
) -> Vec<Channel> {
    let parent = as_gltf.bones.get(b).and_then(|bone| bone.parent);
    let mut evaluator = Evaluator::new(as_gltf, anim).only(&[b], &[]);
    let (mut t, mut r, mut s) = (Vec::new(), Vec::new(), Vec::new());
    for &time in times {
        let pose = evaluator.evaluate(ClipTime::at(time));
        let global = pose.globals.get(b).map(affine::to_columns).unwrap_or(math::IDENTITY);
        let inherited = parent
            .and_then(|p| pose.globals.get(p))
            .map_or(math::IDENTITY, |p| affine::to_columns(&relic_anim::pose::inherited(p, &flags)));
        let local = math::inverse(&inherited).map_or(global, |inv| math::mul(&inv, &global));
        let (translation, rotation, scale) = math::decompose(&local);
        t.push(translation);
        r.push(rotation);
        s.push(scale);
    }
    bake::continuous(&mut r);
    let channel = |values| Channel {
        bone: b,
        clock: Clock::Animation,
        interpolation: Interpolation::Linear,
        times: times.to_vec(),
        values,
    };
    let mut channels = vec![
        channel(ChannelValues::Translation(t)),
        channel(ChannelValues::Rotation(r)),
        channel(ChannelValues::Scale(s)),
    ];
    for c in &mut channels {
        crate::keys::reduce(c, tolerance);
    }
    channels
}
