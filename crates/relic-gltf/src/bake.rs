//! Baking what glTF cannot express: bones that do not inherit all of their parent's transform, and
//! channels on global-sequence clocks. relic-anim's evaluator is the semantics of record: a baked
//! node gets `inverse(parent global) · global` of the evaluated pose.

use relic_anim::pose::{ClipTime, Evaluator, Pose};
use relic_core::math::{self, Mat4};
use relic_core::model::{Animation, Bone, Clock, Model, Transform};

/// True if glTF cannot compose the bone with its parent as the model does.
pub(crate) fn flagged(bone: &Bone) -> bool {
    let f = bone.flags;
    bone.parent.is_some() && !(f.inherit_translation && f.inherit_rotation && f.inherit_scale)
}

/// The glTF local transform of bone `b` in a pose: the pose's own local for ordinary bones, the
/// evaluated `inverse(parent global) · global` for flagged ones.
pub(crate) fn gltf_local(model: &Model, pose: &Pose, b: usize) -> Transform {
    // The pose has a local per bone of `model` and `b` is one of them: never the default.
    let own = pose.locals.get(b).copied().unwrap_or_default();
    let Some(bone) = model.bones.get(b) else { return own };
    let (Some(parent), true) = (bone.parent, flagged(bone)) else { return own };
    let (Some(pg), Some(g)) = (pose.globals.get(parent), pose.globals.get(b)) else { return own };
    let pg: Mat4 = relic_anim::affine::to_columns(pg);
    let g: Mat4 = relic_anim::affine::to_columns(g);
    let Some(inv) = math::inverse(&pg) else { return own };
    let (translation, rotation, scale) = math::decompose(&math::mul(&inv, &g));
    Transform { translation, rotation, scale }
}

/// The glTF node transform of every bone in the rest pose.
pub(crate) fn rest_locals(model: &Model) -> Vec<Transform> {
    let pose = Pose::rest(model);
    (0..model.bones.len()).map(|b| gltf_local(model, &pose, b)).collect()
}

/// Largest number of samples a baked clip gets (a guard against tiny global sequences in long clips).
const MAX_SAMPLES: usize = 20_000;

/// Times at which baked channels of `anim` are sampled: every key of every channel (global-clock
/// keys repeated over each period, with a key one float step before each wrap), both ends, and a
/// grid of `fps` samples per second.
pub(crate) fn sample_times(model: &Model, anim: &Animation, fps: f32) -> Vec<f32> {
    let d = if anim.duration.is_finite() { anim.duration.max(0.0) } else { 0.0 };
    let mut times = vec![0.0, d];
    for ch in &anim.channels {
        match ch.clock {
            Clock::Animation => times.extend(ch.times.iter().copied().filter(|t| (0.0..=d).contains(t))),
            Clock::Global(g) => {
                // The validated model's global clocks exist; a period of 0 is skipped below all the same.
                let period = model.global_sequences.get(g).copied().unwrap_or(0.0);
                if period <= 0.0 || !period.is_finite() {
                    continue;
                }
                // In f64 and compared before converting: `d / period` can be huge or infinite
                // (a tiny period in a long clip; never NaN, as `d` is finite and `period` > 0),
                // and `+ 1` on a saturated usize overflowed.
                let periods = (f64::from(d) / f64::from(period)).ceil() + 1.0;
                if periods * (ch.times.len() as f64 + 2.0) > MAX_SAMPLES as f64 {
                    continue;
                }
                let periods = periods as usize;
                for k in 0..periods {
                    let start = k as f32 * period;
                    if start > d {
                        break;
                    }
                    times.push(start);
                    if start > 0.0 {
                        times.push(start.next_down());
                    }
                    let keys = ch.times.iter().map(|t| start + t).filter(|t| (start..start + period).contains(t));
                    times.extend(keys.filter(|t| (0.0..=d).contains(t)));
                }
            }
        }
    }
    if fps > 0.0 && fps.is_finite() {
        let n = ((d * fps).ceil() as usize).min(MAX_SAMPLES);
        times.extend((0..=n).map(|i| (i as f32 / fps).min(d)));
    }
    times.retain(|t| t.is_finite() && *t >= 0.0);
    times.sort_by(f32::total_cmp);
    times.dedup();
    times
}

/// Samples the glTF local transforms of `bones` at `times`: `out[i][k]` is bone `bones[i]` at
/// `times[k]`. Only what they need is evaluated: the chains of flagged bones ([`gltf_local`]
/// composes their matrices), the locals of the others (an M2 clip bakes tens of bones whose keys
/// reach past the clip; glTF takes their locals as they are).
pub(crate) fn sample_bones(model: &Model, anim: &Animation, bones: &[usize], times: &[f32]) -> Vec<Vec<Transform>> {
    // Not `vec![Vec::with_capacity(…); n]`: a clone of an empty vector has no capacity.
    let mut out: Vec<Vec<Transform>> = bones.iter().map(|_| Vec::with_capacity(times.len())).collect();
    let is_flagged = |b: &usize| model.bones.get(*b).is_some_and(flagged);
    let chains: Vec<usize> = bones.iter().copied().filter(is_flagged).collect();
    let mut evaluator = Evaluator::new(model, anim).only(&chains, bones);
    for &t in times {
        let pose = evaluator.evaluate(ClipTime::at(t));
        for (track, &b) in out.iter_mut().zip(bones) {
            track.push(gltf_local(model, pose, b));
        }
    }
    out
}

/// Flips each quaternion into the hemisphere of the previous one.
pub(crate) fn continuous(rotations: &mut [[f32; 4]]) {
    let mut prev: Option<[f32; 4]> = None;
    for q in rotations.iter_mut() {
        if let Some(p) = prev
            && p[0] * q[0] + p[1] * q[1] + p[2] * q[2] + p[3] * q[3] < 0.0
        {
            *q = q.map(|c| -c);
        }
        prev = Some(*q);
    }
}

/// Whether a channel can go to glTF as it is (own clock, no key before 0 or past the clip).
pub(crate) fn verbatim_ok(clock: Clock, times: &[f32], duration: f32) -> bool {
    clock == Clock::Animation
        && times.first().is_none_or(|&t| t >= 0.0)
        && times.last().is_none_or(|&t| t <= duration + PAST_END)
}

/// How far past its clip's end a channel's last key may be and still be written as it is (a
/// millisecond: the formats' rounding). A channel keyed further would make the glTF animation
/// longer than the clip, which an editor then takes as the clip's length.
const PAST_END: f32 = 1e-3;

#[cfg(test)]
mod tests {
    use super::*;
    use relic_core::model::{Channel, ChannelValues, Interpolation};

    #[test]
    fn a_tiny_period_in_a_huge_clip_neither_overflows_nor_explodes() {
        for (period, duration) in [(1e-30, 3e38), (1e-30, f32::MAX), (f32::MIN_POSITIVE, 1.0), (1e-3, 1e6)] {
            let model = Model { global_sequences: vec![period], ..Model::default() };
            let channel = Channel {
                bone: 0,
                clock: Clock::Global(0),
                interpolation: Interpolation::Linear,
                times: vec![0.0, period / 2.0],
                values: ChannelValues::Translation(vec![[0.0; 3]; 2]),
            };
            let anim = Animation { duration, channels: vec![channel], ..Animation::default() };
            let times = sample_times(&model, &anim, 30.0);
            assert!(times.len() <= MAX_SAMPLES + 3, "{period} in {duration}: {} samples", times.len());
            assert!(times.windows(2).all(|w| w[0] < w[1]));
        }
    }
}
