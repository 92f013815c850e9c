//! A minimal pose evaluator on the common model (relic-anim is not a dependency of format crates):
//! enough to measure what a re-weighting costs in posed vertex positions.

use relic_core::math::{Mat4, from_trs, mul, transform_point};
use relic_core::model::{Animation, ChannelValues, Clock, Influence, Model};
use relic_core::sample::Sample;

/// Skin matrices (`global · inverse bind`) of every bone, at the rest pose (`animation` = None)
/// or `time` seconds into `animation`.
pub fn skin_matrices(model: &Model, animation: Option<&Animation>, time: f32) -> Vec<Mat4> {
    let mut locals: Vec<_> = model.bones.iter().map(|b| b.rest).collect();
    if let Some(anim) = animation {
        for ch in &anim.channels {
            let t = match ch.clock {
                Clock::Animation => time,
                Clock::Global(g) => {
                    let d = model.global_sequences.get(g).copied().unwrap_or(0.0);
                    if d > 0.0 { time.rem_euclid(d) } else { 0.0 }
                }
            };
            let Some(local) = locals.get_mut(ch.bone) else { continue };
            match (&ch.values, ch.sample(t)) {
                (ChannelValues::Translation(_), Some(Sample::Vector(v))) => local.translation = v,
                (ChannelValues::Scale(_), Some(Sample::Vector(v))) => local.scale = v,
                (ChannelValues::Rotation(_), Some(Sample::Rotation(q))) => local.rotation = q,
                _ => {}
            }
        }
    }
    let mut globals: Vec<Mat4> = Vec::with_capacity(model.bones.len());
    for (bone, local) in model.bones.iter().zip(&locals) {
        let m = from_trs(local.translation, local.rotation, local.scale);
        let g = match bone.parent.and_then(|p| globals.get(p)) {
            Some(parent) => mul(parent, &m),
            None => m,
        };
        globals.push(g);
    }
    globals.iter().zip(&model.bones).map(|(g, b)| mul(g, &b.inverse_bind_matrix)).collect()
}

/// A skinned position: `Σ wᵢ · Sᵢ · p`.
pub fn skin_point(skin: &[Mat4], influences: &[Influence], p: [f32; 3]) -> [f32; 3] {
    let mut out = [0.0f32; 3];
    for inf in influences {
        if let Some(m) = skin.get(inf.bone as usize) {
            let q = transform_point(m, p);
            for (o, c) in out.iter_mut().zip(q) {
                *o += inf.weight * c;
            }
        }
    }
    out
}

/// The poses a re-weighting is measured at: the rest pose, then up to `per_clip` evenly spaced
/// moments of each animation (at most `limit` in all).
pub fn sample_poses(model: &Model, per_clip: usize, limit: usize) -> Vec<Vec<Mat4>> {
    let mut out = vec![skin_matrices(model, None, 0.0)];
    'clips: for anim in &model.animations {
        for k in 0..per_clip {
            if out.len() >= limit {
                break 'clips;
            }
            let t = if per_clip > 1 { anim.duration * k as f32 / (per_clip - 1) as f32 } else { 0.0 };
            out.push(skin_matrices(model, Some(anim), t));
        }
    }
    out
}
