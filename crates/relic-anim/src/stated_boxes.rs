//! The box a file states for a whole clip, judged by the rule its exporter followed.
//!
//! Measured on Blizzard's own M2 files (GnomePounder, UI_RS_Orc, TalkToMe; 13 sequences): the
//! stored sequence box is the box of every vertex posed at 0, 100, 200 … ms of the sequence (no
//! padding) — not at the keys, not at every frame. Two one-sided tests prove a box without
//! assuming more than that:
//!
//! * **overreach**: how far a stored face lies beyond the posed mesh's *envelope* (every
//!   [`DENSE_STEP`] and every key). A face beyond anything the mesh ever reaches was not made from
//!   the mesh: wrong bone math (pivots left out, rotations conjugated) overreaches by 5–44 % of the
//!   box's diagonal; Blizzard's mesh boxes by ≤ 1e-5 on creatures, 0.03 % (UI_RS_Orc's header box)
//!   and 0.4 % (UI-Cooldown-Indicator, 0.12 units across: an absolute 1e-4 was too tight) on UI
//!   models. Tolerance: 1 % of the diagonal (relative: a model's size does not matter).
//! * **underreach**: how far the mesh posed at the exporter's moments (every [`EXPORTER_STEP`])
//!   lies outside the stored box. Blizzard's boxes: ≤ 0.0034 (their keys are reduced, so the
//!   exporter sampled a curve a little different from the file's). Tolerance: 1 % of the diagonal
//!   (the absolute 0.01 it had was 20 % of a 0.05-unit UI model).
//!
//! Boxes that are not mesh boxes are told apart, not failed: all zero (the file stores none —
//! UI_RS_Orc keeps its box in the header instead), or overreaching by more than
//! [`NOT_A_MESH_BOX`] of the diagonal (GnomePounder's sequences 1–10 are sequence 0's box joined
//! with a cube around a particle emitter, whose size varies per sequence like a simulation: they
//! reach 1.6–3.1 beyond the mesh, and the mesh 0.5–1.8 beyond them). Such a verdict proves
//! nothing, so a caller counts the boxes that [`StatedBox::Fits`]: wrong bone math turns every box
//! into a contradiction or a far overreach.
//!
//! A box may cover only the meshes (geosets) a sequence shows: UI-Cooldown-Indicator's Stand box
//! holds its four quadrants, its Death box only the sweep quad. [`judge_shown`] finds the meshes
//! whose posed box lies within the stored one and judges the box against them alone.

use relic_core::model::{Aabb, Model};

use crate::bounds::{BoundsProbe, key_times};
use crate::pose::ClipTime;
use crate::skin::SkinError;

/// Step of the envelope sampling, seconds.
pub const DENSE_STEP: f32 = 0.005;
/// Step at which the exporter posed the mesh, seconds.
pub const EXPORTER_STEP: f32 = 0.1;
/// Overreach (as a fraction of the diagonal) past which a box is not a box of the mesh.
pub const NOT_A_MESH_BOX: f32 = 0.05;
/// Overreach and underreach allowed, as a fraction of the stored box's diagonal.
pub const RELATIVE_TOLERANCE: f32 = 0.01;

/// How a stated box relates to the posed mesh.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StatedBoxFit {
    /// How far a stored face lies beyond the posed mesh's envelope (0 if none does).
    pub overreach: f32,
    /// How far the mesh posed at the exporter's moments lies outside the stored box (0 if inside).
    pub underreach: f32,
    /// Length of the stored box's diagonal.
    pub diagonal: f32,
}

impl StatedBoxFit {
    /// The overreach allowed.
    pub fn overreach_tolerance(&self) -> f32 {
        (RELATIVE_TOLERANCE * self.diagonal).max(1e-6)
    }

    /// The underreach allowed.
    pub fn underreach_tolerance(&self) -> f32 {
        (RELATIVE_TOLERANCE * self.diagonal).max(1e-6)
    }
}

/// What a stated box is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum StatedBox {
    /// The box of the posed mesh, within both tolerances.
    Fits(StatedBoxFit),
    /// All zero, or never filled ([`Aabb::is_unset`]): the file states no box here.
    NotStored,
    /// Reaches far beyond the mesh (effects the mesh does not show).
    NotAMeshBox(StatedBoxFit),
    /// Neither: the box contradicts the pose.
    Contradicts(StatedBoxFit),
}

/// The box of the posed LOD-0 meshes over `times` of clip `animation`.
fn sampled(probe: &mut BoundsProbe<'_>, animation: usize, times: &[f32]) -> Result<Option<Aabb>, SkinError> {
    let mut total: Option<Aabb> = None;
    for &t in times {
        if let Some(b) = probe.at(animation, ClipTime::at(t))? {
            total = Some(total.map_or(b, |acc| acc.including(b.min).including(b.max)));
        }
    }
    Ok(total)
}

/// `0, step, 2·step, … ≤ duration`.
fn every(step: f32, duration: f32) -> Vec<f32> {
    let n = (duration.max(0.0) / step).floor() as usize;
    (0..=n.min(1_000_000)).map(|i| i as f32 * step).collect()
}

/// Judges `stored`, the box a file states for clip `animation` (`None`: no such clip, or no LOD-0
/// vertices to pose).
pub fn judge(model: &Model, animation: usize, stored: Aabb) -> Result<Option<StatedBox>, SkinError> {
    if stored.is_unset() {
        return Ok(Some(StatedBox::NotStored));
    }
    let Some(anim) = model.animations.get(animation) else { return Ok(None) };
    let mut probe = BoundsProbe::new(model);
    let mut dense_times = every(DENSE_STEP, anim.duration);
    dense_times.extend(key_times(anim));
    dense_times.sort_by(f32::total_cmp);
    dense_times.dedup();
    let Some(envelope) = sampled(&mut probe, animation, &dense_times)? else { return Ok(None) };
    let Some(exported) = sampled(&mut probe, animation, &every(EXPORTER_STEP, anim.duration))? else {
        return Ok(None);
    };
    // Per axis: how far `outer` reaches beyond `inner` on either side.
    let beyond = |outer: &Aabb, inner: &Aabb| {
        let below = inner.min.iter().zip(&outer.min).map(|(i, o)| i - o);
        let above = outer.max.iter().zip(&inner.max).map(|(o, i)| o - i);
        below.chain(above).fold(0.0f32, f32::max)
    };
    let size = relic_core::math::sub3(stored.max, stored.min);
    let fit = StatedBoxFit {
        overreach: beyond(&stored, &envelope),
        underreach: beyond(&exported, &stored),
        diagonal: size.iter().map(|s| s * s).sum::<f32>().sqrt(),
    };
    let holds = fit.underreach <= fit.underreach_tolerance();
    Ok(Some(if holds && fit.overreach <= fit.overreach_tolerance() {
        StatedBox::Fits(fit)
    } else if fit.overreach > NOT_A_MESH_BOX * fit.diagonal {
        StatedBox::NotAMeshBox(fit)
    } else {
        StatedBox::Contradicts(fit)
    }))
}

/// [`judge`] against only the LOD-0 meshes whose posed box (at the exporter's moments) lies within
/// `stored`, with how many they are: the box of a sequence that shows some geosets only. `None`
/// when no mesh, or every mesh, lies within (then [`judge`]'s verdict is the one).
pub fn judge_shown(model: &Model, animation: usize, stored: Aabb) -> Result<Option<(StatedBox, usize)>, SkinError> {
    let lod0: Vec<usize> =
        (0..model.meshes.len()).filter(|&m| model.meshes.get(m).is_some_and(|x| x.lod.level == 0)).collect();
    let mut shown = Vec::new();
    for &m in &lod0 {
        let one = with_meshes(model, &[m]);
        if let Some(StatedBox::Fits(f) | StatedBox::Contradicts(f) | StatedBox::NotAMeshBox(f)) =
            judge(&one, animation, stored)?
            && f.underreach <= f.underreach_tolerance()
        {
            shown.push(m);
        }
    }
    if shown.is_empty() || shown.len() == lod0.len() {
        return Ok(None);
    }
    Ok(judge(&with_meshes(model, &shown), animation, stored)?.map(|v| (v, shown.len())))
}

/// `model` with only the meshes `keep`.
fn with_meshes(model: &Model, keep: &[usize]) -> Model {
    Model {
        meshes: keep.iter().filter_map(|&m| model.meshes.get(m).cloned()).collect(),
        bones: model.bones.clone(),
        animations: model.animations.clone(),
        global_sequences: model.global_sequences.clone(),
        ..Model::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use relic_core::model::{Animation, Influence, Mesh, Skin};

    fn square() -> Model {
        let one = |_| [Influence { bone: 0, weight: 1.0 }];
        let mesh = Mesh {
            positions: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
            skin: Skin::from_vertices((0..3).map(one)),
            triangles: vec![[0, 1, 2]],
            ..Mesh::default()
        };
        let animation = Animation { name: "still".into(), duration: 1.0, ..Animation::default() };
        Model {
            bones: relic_testkit::bone_chain(1, "b"),
            meshes: vec![mesh],
            animations: vec![animation],
            ..Model::default()
        }
    }

    #[test]
    fn boxes_are_told_apart() {
        let model = square();
        let exact = Aabb { min: [0.0; 3], max: [1.0, 1.0, 0.0] };
        assert!(matches!(judge(&model, 0, exact).unwrap(), Some(StatedBox::Fits(_))));
        let zero = Aabb { min: [0.0; 3], max: [0.0; 3] };
        assert_eq!(judge(&model, 0, zero).unwrap(), Some(StatedBox::NotStored));
        let effects = Aabb { min: [0.0; 3], max: [1.0, 3.0, 0.0] };
        assert!(matches!(judge(&model, 0, effects).unwrap(), Some(StatedBox::NotAMeshBox(_))));
        let short = Aabb { min: [0.0; 3], max: [0.5, 1.0, 0.0] };
        assert!(matches!(judge(&model, 0, short).unwrap(), Some(StatedBox::Contradicts(_))));
        let wide = Aabb { min: [0.0; 3], max: [1.03, 1.0, 0.0] };
        assert!(matches!(judge(&model, 0, wide).unwrap(), Some(StatedBox::Contradicts(_))));
    }

    /// The tolerances are relative: a UI model 0.1 units across whose box reaches 0.4 % of its
    /// diagonal beyond the mesh (UI-Cooldown-Indicator) fits, as the same box 100 times larger.
    #[test]
    fn tolerances_scale_with_the_model() {
        for scale in [0.1f32, 10.0] {
            let mut model = square();
            model.meshes[0].positions.iter_mut().flatten().for_each(|x| *x *= scale);
            let reach = Aabb { min: [0.0; 3], max: [1.004 * scale, scale, 0.0] };
            assert!(matches!(judge(&model, 0, reach).unwrap(), Some(StatedBox::Fits(_))), "scale {scale}");
            let short = Aabb { min: [0.0; 3], max: [0.97 * scale, scale, 0.0] };
            assert!(matches!(judge(&model, 0, short).unwrap(), Some(StatedBox::Contradicts(_))), "scale {scale}");
        }
    }

    /// A box of the meshes one sequence shows: judged against those meshes alone.
    #[test]
    fn a_box_of_the_shown_meshes_fits_them() {
        let mut model = square();
        let mut far = model.meshes[0].clone();
        far.positions.iter_mut().for_each(|p| p[2] = 0.5);
        model.meshes.push(far);
        let first = Aabb { min: [0.0; 3], max: [1.0, 1.0, 0.0] };
        assert!(matches!(judge(&model, 0, first).unwrap(), Some(StatedBox::Contradicts(_))));
        let Some((StatedBox::Fits(_), 1)) = judge_shown(&model, 0, first).unwrap() else {
            panic!("not the first mesh's")
        };
        // A box no mesh lies within, or that every mesh lies within, is left to `judge`.
        let none = Aabb { min: [2.0; 3], max: [3.0; 3] };
        assert_eq!(judge_shown(&model, 0, none).unwrap(), None);
        let both = Aabb { min: [0.0; 3], max: [1.0, 1.0, 0.5] };
        assert_eq!(judge_shown(&model, 0, both).unwrap(), None);
    }
}
