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
/// keys repeated over each period, with a key [`MIN_GAP`] before each wrap), both ends, and a
/// grid of `fps` samples per second away from those.
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
                        // The value before the wrap, [`MIN_GAP`] before it: an editor merges a
                        // key one float step away with the next (Blender 5 kept the wrapped one
                        // alone, and a ramp to it replaced UI_MainMenu.m2's last 0.8 s).
                        times.push(start - MIN_GAP.min(period / 2.0));
                    }
                    let keys = ch.times.iter().map(|t| start + t).filter(|t| (start..start + period).contains(t));
                    times.extend(keys.filter(|t| (0.0..=d).contains(t)));
                }
            }
        }
    }
    times.retain(|t| t.is_finite() && *t >= 0.0);
    times.sort_by(f32::total_cmp);
    times.dedup();
    if fps > 0.0 && fps.is_finite() {
        let n = ((d * fps).ceil() as usize).min(MAX_SAMPLES);
        let grid = (0..=n).map(|i| (i as f32 / fps).min(d));
        // Not beside a key: an editor merges keys closer than a hundredth of a frame (Blender 5
        // kept one of GnomePounder's 0.16667 s and 0.167 s, the arc between them lost).
        let apart = |t: &f32| {
            let at = times.partition_point(|k| k < t);
            [at.checked_sub(1), Some(at)]
                .into_iter()
                .flatten()
                .filter_map(|i| times.get(i))
                .all(|k| (k - t).abs() >= MIN_GAP)
        };
        let grid: Vec<f32> = grid.filter(apart).collect();
        times.extend(grid);
        times.sort_by(f32::total_cmp);
        times.dedup();
    }
    times
}

/// The least time between a sample the bake adds (the grid, a refinement) and any other: an
/// editor keys on frames and merges keys a hundredth of a frame apart (0.4 ms at 24 frames a
/// second).
const MIN_GAP: f32 = 1e-3;

/// Samples the glTF local transforms of `bones` at `times`, and between two of them wherever a
/// straight line misses a flagged bone's composed motion ([`refine`]): the times sampled, and
/// `out[i][k]`, bone `bones[i]` at the `k`-th of them. Only what they need is evaluated: the
/// chains of flagged bones ([`gltf_local`] composes their matrices), the locals of the others (an
/// M2 clip bakes tens of bones whose keys reach past the clip; glTF takes their locals as they
/// are).
pub(crate) fn sample_bones(
    model: &Model,
    anim: &Animation,
    bones: &[usize],
    times: &[f32],
) -> (Vec<f32>, Vec<Vec<Transform>>) {
    let is_flagged = |b: &usize| model.bones.get(*b).is_some_and(flagged);
    let chains: Vec<usize> = bones.iter().copied().filter(is_flagged).collect();
    let mut evaluator = Evaluator::new(model, anim).only(&chains, bones);
    let mut at = |t: f32| -> Vec<Transform> {
        let pose = evaluator.evaluate(ClipTime::at(t));
        bones.iter().map(|&b| gltf_local(model, pose, b)).collect()
    };
    let mut sampled: Vec<(f32, Vec<Transform>)> = Vec::with_capacity(times.len());
    for &t in times {
        let here = at(t);
        if let Some((before, values)) = sampled.last().cloned().filter(|_| !chains.is_empty()) {
            refine(&mut at, (before, &values), (t, &here), REFINE_DEPTH, &mut sampled);
        }
        sampled.push((t, here));
    }
    let times = sampled.iter().map(|(t, _)| *t).collect();
    // Not `vec![Vec::with_capacity(…); n]`: a clone of an empty vector has no capacity.
    let mut out: Vec<Vec<Transform>> = bones.iter().map(|_| Vec::with_capacity(sampled.len())).collect();
    for (_, values) in sampled {
        for (track, value) in out.iter_mut().zip(values) {
            track.push(value);
        }
    }
    (times, out)
}

/// How many times a step between two samples is halved at most (16 samples where there was one).
const REFINE_DEPTH: u32 = 4;
/// Most samples a clip is refined to (then the steps left are kept as they are).
const MAX_REFINED: usize = 4 * MAX_SAMPLES;

/// Pushes the samples between `a` and `b` (both excluded, in order) that a viewer's straight
/// line between them needs: where the midpoint's value is not the line's within the key
/// tolerances ([`crate::keys`], relative above 1), the halves are sampled in turn. A flagged
/// bone's local (the parent's inverse times its global) turns on an arc while its parent turns:
/// sampled at 30 frames a second, a GnomePounder bone under a parent turning 13° a frame was
/// 2.5e-3 off between samples, which an editor then keys as the motion.
fn refine(
    at: &mut impl FnMut(f32) -> Vec<Transform>,
    a: (f32, &[Transform]),
    b: (f32, &[Transform]),
    depth: u32,
    out: &mut Vec<(f32, Vec<Transform>)>,
) {
    let m = 0.5 * (a.0 + b.0);
    if depth == 0 || out.len() >= MAX_REFINED || b.0 - a.0 < 2.0 * MIN_GAP || !(a.0 < m && m < b.0) {
        return;
    }
    let middle = at(m);
    if a.1.iter().zip(b.1).zip(&middle).all(|((x, y), z)| on_line(x, y, z)) {
        return;
    }
    refine(at, a, (m, &middle), depth - 1, out);
    out.push((m, middle.clone()));
    refine(at, (m, &middle), b, depth - 1, out);
}

/// Whether `m` is halfway between `a` and `b` as a viewer interpolates (lerp, nlerp) within the
/// key tolerances, relative above 1.
fn on_line(a: &Transform, b: &Transform, m: &Transform) -> bool {
    let crate::keys::Tolerance { translation, rotation, scale, .. } = crate::keys::Tolerance::FINE;
    let near = |x: f32, y: f32, tolerance: f32| (x - y).abs() <= tolerance * x.abs().max(y.abs()).max(1.0);
    let halfway = |x: &[f32], y: &[f32], z: &[f32], tolerance| {
        x.iter().zip(y).zip(z).all(|((x, y), z)| near(0.5 * (x + y), *z, tolerance))
    };
    let dot = |p: &[f32; 4], q: &[f32; 4]| -> f32 { p.iter().zip(q).map(|(x, y)| x * y).sum() };
    let toward = |q: [f32; 4], of: &[f32; 4]| if dot(&q, of) < 0.0 { q.map(|c| -c) } else { q };
    let b_rotation = toward(b.rotation, &a.rotation);
    let mut sum = a.rotation;
    sum.iter_mut().zip(&b_rotation).for_each(|(x, y)| *x += y);
    let mid = relic_core::sample::normalize4(sum);
    let m_rotation = toward(m.rotation, &mid);
    halfway(&a.translation, &b.translation, &m.translation, translation)
        && halfway(&a.scale, &b.scale, &m.scale, scale)
        && mid.iter().zip(&m_rotation).all(|(x, y)| near(*x, *y, rotation))
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
    fn a_flagged_bone_under_a_fast_turn_is_sampled_until_a_straight_line_follows_it() {
        let mut model = crate::samples::flagged_bones();
        // "arm" turns 2 radians a second: "level" (which keeps its own turn) swings on an arc
        // in its parent's axes, 5.5e-4 off a straight line between two of 30 samples a second.
        let z = |a: f32| [0.0, 0.0, (a / 2.0).sin(), (a / 2.0).cos()];
        model.animations[0].channels[0].values = ChannelValues::Rotation(vec![z(0.0), z(2.0), z(0.0)]);
        let anim = &model.animations[0];
        let grid = sample_times(&model, anim, 30.0);
        let (times, tracks) = sample_bones(&model, anim, &[2], &grid);
        assert!(times.len() > grid.len() && times.windows(2).all(|w| w[0] < w[1]));
        let mut evaluator = Evaluator::new(&model, anim);
        for (t, v) in times.windows(2).zip(tracks[0].windows(2)) {
            let truth = gltf_local(&model, evaluator.evaluate(ClipTime::at(0.5 * (t[0] + t[1]))), 2);
            let line = [0, 1, 2].map(|i| 0.5 * (v[0].translation[i] + v[1].translation[i]));
            let off = relic_core::math::max_abs_diff(&line, &truth.translation);
            assert!(off <= 1e-4, "{off} off between {} and {} s", t[0], t[1]);
        }
    }

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
