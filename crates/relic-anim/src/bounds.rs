//! Whole-model skinning with reusable buffers, and bounding boxes of posed meshes and of clips.

use relic_core::model::{Aabb, Animation, Mesh, Model};

use crate::pose::{ClipTime, Evaluator, Pose};
use crate::skin::{SkinBinding, SkinError, apply_morphs, sample_morph_weights, skin_mesh};

/// Skins every mesh of a model into buffers it owns and reuses from frame to frame.
#[derive(Debug, Clone, Default)]
pub struct ModelSkinner {
    bindings: Vec<SkinBinding>,
    morph_weights: Vec<Vec<f32>>,
    morphed_positions: Vec<Vec<[f32; 3]>>,
    morphed_normals: Vec<Vec<[f32; 3]>>,
    /// Posed positions of each mesh after [`ModelSkinner::skin`].
    pub positions: Vec<Vec<[f32; 3]>>,
    /// Posed normals of each mesh (empty for meshes without normals).
    pub normals: Vec<Vec<[f32; 3]>>,
}

impl ModelSkinner {
    /// Prepares bindings and buffers for `model`.
    pub fn new(model: &Model) -> Self {
        let vec3s = |f: fn(&Mesh) -> usize| model.meshes.iter().map(|m| vec![[0.0; 3]; f(m)]).collect::<Vec<_>>();
        Self {
            bindings: model.meshes.iter().map(SkinBinding::new).collect(),
            morph_weights: model.meshes.iter().map(|m| vec![0.0; m.morph_targets.len()]).collect(),
            morphed_positions: vec3s(|m| m.positions.len()),
            morphed_normals: vec3s(|m| m.normals.len()),
            positions: vec3s(|m| m.positions.len()),
            normals: vec3s(|m| m.normals.len()),
        }
    }

    /// Skins every mesh with `pose`; morph weights come from `animation`'s morph channels at
    /// `time` (none: every morph weight 0).
    pub fn skin(
        &mut self,
        model: &Model,
        pose: &Pose,
        animation: Option<&Animation>,
        time: ClipTime,
    ) -> Result<(), SkinError> {
        for w in &mut self.morph_weights {
            w.iter_mut().for_each(|x| *x = 0.0);
        }
        if let Some(anim) = animation {
            for ch in &anim.morph_channels {
                let targets = model.meshes.get(ch.mesh).map_or(0, |m| m.morph_targets.len());
                if let Some(w) = self.morph_weights.get_mut(ch.mesh) {
                    sample_morph_weights(ch, targets, time.clip, w);
                }
            }
        }
        for (i, mesh) in model.meshes.iter().enumerate() {
            let (Some(binding), Some(weights)) = (self.bindings.get(i), self.morph_weights.get(i)) else { continue };
            let (Some(mp), Some(mn), Some(op), Some(on)) = (
                self.morphed_positions.get_mut(i),
                self.morphed_normals.get_mut(i),
                self.positions.get_mut(i),
                self.normals.get_mut(i),
            ) else {
                continue;
            };
            let (src_p, src_n): (&[[f32; 3]], &[[f32; 3]]) = if mesh.morph_targets.is_empty() {
                (&mesh.positions, &mesh.normals)
            } else {
                apply_morphs(mesh, weights, mp, mn)?;
                (mp, mn)
            };
            skin_mesh(mesh, binding, &pose.skin, src_p, src_n, op, on)?;
        }
        Ok(())
    }

    /// The box of the posed vertices of the meshes `include` accepts; `None` if there are none.
    pub fn bounds(&self, model: &Model, include: impl Fn(&Mesh) -> bool) -> Option<Aabb> {
        let points = model.meshes.iter().zip(&self.positions).filter(|(m, _)| include(m)).flat_map(|(_, p)| p);
        Aabb::of_points(points)
    }
}

/// The full-detail meshes (LOD 0), the usual choice for bounds.
pub fn lod0(mesh: &Mesh) -> bool {
    mesh.lod.level == 0
}

/// Every key time of a clip within `[0, duration]`, plus both ends, sorted and deduplicated.
pub fn key_times(animation: &Animation) -> Vec<f32> {
    let d = animation.duration.max(0.0);
    let mut times: Vec<f32> = animation
        .channels
        .iter()
        .flat_map(|c| c.times.iter().copied())
        .chain(animation.morph_channels.iter().flat_map(|c| c.times.iter().copied()))
        .filter(|t| t.is_finite() && (0.0..=d).contains(t))
        .chain([0.0, d])
        .collect();
    times.sort_by(f32::total_cmp);
    times.dedup();
    times
}

/// The skinned positions of every mesh of `model` (all LODs, in mesh order) at `time` of
/// `model.animations[animation]`, or at rest for `None` (or no such clip).
pub fn posed_positions(
    model: &Model,
    animation: Option<usize>,
    time: ClipTime,
) -> Result<Vec<Vec<[f32; 3]>>, SkinError> {
    let mut skinner = ModelSkinner::new(model);
    match animation.and_then(|a| model.animations.get(a)) {
        Some(anim) => {
            let pose = Evaluator::new(model, anim).evaluate(time).clone();
            skinner.skin(model, &pose, Some(anim), time)?;
        }
        None => skinner.skin(model, &Pose::rest(model), None, time)?,
    }
    Ok(skinner.positions)
}

/// The box of the posed LOD-0 meshes at `time` of `model.animations[animation]`.
pub fn posed_bounds(model: &Model, animation: usize, time: ClipTime) -> Result<Option<Aabb>, SkinError> {
    BoundsProbe::new(model).at(animation, time)
}

/// Boxes of the posed LOD-0 meshes at many (clip, time) pairs of one model, reusing the skinning
/// buffers and the clip's evaluator (its cursors too) while consecutive requests stay in a clip.
pub struct BoundsProbe<'m> {
    model: &'m Model,
    skinner: ModelSkinner,
    evaluator: Option<(usize, Evaluator<'m>)>,
}

impl<'m> BoundsProbe<'m> {
    /// A probe of `model`.
    pub fn new(model: &'m Model) -> Self {
        Self { model, skinner: ModelSkinner::new(model), evaluator: None }
    }

    /// The box at `time` of `model.animations[animation]` (`None` for no such clip or no LOD-0
    /// vertices).
    pub fn at(&mut self, animation: usize, time: ClipTime) -> Result<Option<Aabb>, SkinError> {
        let model = self.model;
        let Some(anim) = model.animations.get(animation) else { return Ok(None) };
        let evaluator = match &mut self.evaluator {
            Some((a, ev)) if *a == animation => ev,
            slot => &mut slot.insert((animation, Evaluator::new(model, anim))).1,
        };
        let pose = evaluator.evaluate(time);
        self.skinner.skin(model, pose, Some(anim), time)?;
        Ok(self.skinner.bounds(model, lod0))
    }
}

/// The box of the posed LOD-0 meshes over every key time of a clip (see [`key_times`]).
pub fn clip_bounds(model: &Model, animation: usize) -> Result<Option<Aabb>, SkinError> {
    let Some(anim) = model.animations.get(animation) else { return Ok(None) };
    let mut evaluator = Evaluator::new(model, anim);
    let mut skinner = ModelSkinner::new(model);
    let mut total: Option<Aabb> = None;
    for t in key_times(anim) {
        let time = ClipTime::at(t);
        let pose = evaluator.evaluate(time);
        skinner.skin(model, pose, Some(anim), time)?;
        if let Some(b) = skinner.bounds(model, lod0) {
            total = Some(match total {
                Some(acc) => acc.including(b.min).including(b.max),
                None => b,
            });
        }
    }
    Ok(total)
}
