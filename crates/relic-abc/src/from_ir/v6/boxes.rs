//! The keyframe and clip boxes of a written v6 file: kept from the model where the pose is the
//! one the model was read with, else posed again by relic-anim.

use relic_anim::bounds::BoundsProbe;
use relic_anim::pose::ClipTime;
use relic_core::WriteError;
use relic_core::model::Aabb;

use crate::file::V6File;
use crate::frame::box_from_ir;

/// Whether an animation's boxes come from the model or are recomputed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Boxes {
    /// The model's key boxes (by key time) and clip box, where it has them.
    FromModel,
    /// All recomputed: the pose changed since the model was read.
    Recompute,
}

/// What [`super::animation::build_animation`] left for [`recompute_boxes`].
#[derive(Debug, Clone, Default)]
pub(super) struct Stale {
    /// Keys whose box is to be computed.
    pub(super) keys: Vec<usize>,
    /// The clip box is to be computed (the union of its key boxes).
    pub(super) clip: bool,
}

/// A key box that states nothing ([`Aabb::is_unset`]): left out of the model box.
pub(super) fn is_empty_box(min: [f32; 3], max: [f32; 3]) -> bool {
    Aabb { min, max }.is_unset()
}

/// Fills the stale boxes: the written file is mapped to the model and posed by relic-anim at each
/// stale key's time (the one evaluator; what the engine does with the file), and the clip boxes
/// are the union of their key boxes.
pub(super) fn recompute_boxes(file: &mut V6File, stale: &[Stale]) -> Result<(), WriteError> {
    if stale.iter().all(|s| s.keys.is_empty()) {
        return fill_clip_boxes(file, stale);
    }
    let frame = crate::to_ir::v6_frame(file);
    let model = crate::to_ir::v6_model(file)
        .map_err(|e| WriteError::Unsupported(format!("posing the written file for its keyframe boxes: {e}")))?;
    let mut probe = BoundsProbe::new(&model);
    for (a, s) in stale.iter().enumerate() {
        for &k in &s.keys {
            let Some(key) = file.animations.animations.get(a).and_then(|x| x.keyframes.get(k)) else { continue };
            let posed = probe
                .at(a, ClipTime::at(crate::to_ir::seconds(key.time)))
                .map_err(|e| WriteError::Unsupported(format!("posing the written file for its keyframe boxes: {e}")))?;
            let (min, max) = posed.map_or(([0.0; 3], [0.0; 3]), |b| box_from_ir(frame, &b));
            if let Some(key) = file.animations.animations.get_mut(a).and_then(|x| x.keyframes.get_mut(k)) {
                key.bounds_min = min;
                key.bounds_max = max;
            }
        }
    }
    fill_clip_boxes(file, stale)
}

fn fill_clip_boxes(file: &mut V6File, stale: &[Stale]) -> Result<(), WriteError> {
    for (anim, s) in file.animations.animations.iter_mut().zip(stale) {
        if s.clip {
            let corners: Vec<[f32; 3]> = anim.keyframes.iter().flat_map(|k| [k.bounds_min, k.bounds_max]).collect();
            let b = Aabb::of_points(&corners).unwrap_or(Aabb { min: [0.0; 3], max: [0.0; 3] });
            (anim.bounds_min, anim.bounds_max) = (b.min, b.max);
        }
    }
    Ok(())
}
