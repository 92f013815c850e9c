//! Pose evaluation: sample a clip's channels into local transforms, compose them parents first
//! into model-space matrices, and multiply by the inverse bind matrices into skin matrices.
//!
//! Bone semantics carried by the model are honoured here:
//! * [`BoneFlags::rotation_only`] (ABC "rotation only" nodes): translation channels are ignored,
//!   the rest translation stays.
//! * [`BoneFlags::inherit_translation`] / `inherit_rotation` / `inherit_scale` (M2 "ignore parent
//!   translate/rotate/scale"): the parent's model-space transform is decomposed into translation,
//!   rotation and scale and the ignored parts are replaced by identity before composing. With all
//!   three set (most bones; GnomePounder has 3 that are not) this is the plain product
//!   `parent · local`.
//! * Billboards need a camera and are not applied (they stay as flags for viewers).
//! * NOD's "weight w on the bone, 1 − w on its parent" is ordinary two-bone skinning in the model
//!   and needs nothing here.

use std::collections::HashMap;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use nalgebra::{UnitQuaternion, Vector3};
use relic_core::model::{Animation, BoneFlags, ChannelValues, Clock, Interpolation, Model, Transform};
use relic_core::sample::{Segment, sample_rotation, sample_vector};
use wide::f32x4;

use crate::lanes::slerp4;

use crate::affine::{self, Affine};
use crate::cursor::Cursor;

/// Times at which a clip is sampled.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ClipTime {
    /// Seconds into the clip (already wrapped or clamped by the caller, see [`ClipTime::playing`]).
    pub clip: f32,
    /// Seconds of the free-running clock that global sequences (M2) wrap by their own duration.
    pub global: f32,
}

impl ClipTime {
    /// The clip time for `elapsed` seconds of playback: wrapped for a looping clip, clamped to the
    /// clip's duration otherwise; the global clock is `elapsed` itself.
    pub fn playing(animation: &Animation, elapsed: f32) -> Self {
        let d = animation.duration;
        let clip = if animation.looping && d > 0.0 { elapsed.rem_euclid(d) } else { elapsed.clamp(0.0, d.max(0.0)) };
        Self { clip, global: elapsed }
    }

    /// Sampling `t` seconds into the clip, with the global clock at the same time.
    pub fn at(t: f32) -> Self {
        Self { clip: t, global: t }
    }
}

/// A pose: local transforms, model-space matrices and skin matrices of every bone.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Pose {
    /// Local transform of each bone (relative to its parent).
    pub locals: Vec<Transform>,
    /// Model-space transform of each bone.
    pub globals: Vec<Affine>,
    /// `globals[b] · inverse_bind[b]`: moves bind-pose vertices to posed ones.
    pub skin: Vec<Affine>,
}

impl Pose {
    /// The rest pose of a model (no animation).
    pub fn rest(model: &Model) -> Self {
        let mut pose = Pose::default();
        pose.set_rest(model);
        pose.update_matrices(model);
        pose
    }

    fn set_rest(&mut self, model: &Model) {
        self.locals.clear();
        self.locals.extend(model.bones.iter().map(|b| b.rest));
    }

    /// Recomputes `globals` and `skin` from `locals` (the identity for a bone without one),
    /// parents first, in one pass.
    pub fn update_matrices(&mut self, model: &Model) {
        let n = model.bones.len();
        self.globals.resize(n, affine::IDENTITY);
        self.skin.resize(n, affine::IDENTITY);
        let locals = self.locals.iter().copied().chain(std::iter::repeat(Transform::IDENTITY));
        let inverse_binds = model.bones.iter().map(|b| affine::from_columns(&b.inverse_bind_matrix));
        compose_pose(model, locals, inverse_binds, None, &mut self.globals, &mut self.skin);
    }

    /// Model-space matrix of bone `b` as a nalgebra matrix.
    pub fn global_matrix(&self, b: usize) -> Option<nalgebra::Matrix4<f32>> {
        self.globals.get(b).map(affine::to_matrix4)
    }
}

/// `T · R · S` of a transform.
#[inline]
pub fn transform_matrix(t: &Transform) -> Affine {
    affine::from_trs(t.translation, t.rotation, t.scale)
}

/// Composes a parent's model-space matrix with a child's local matrix under the child's flags.
#[inline(always)]
fn compose(parent: &Affine, local: &Affine, flags: &BoneFlags) -> Affine {
    if flags.inherit_translation && flags.inherit_rotation && flags.inherit_scale {
        return affine::mul(parent, local);
    }
    compose_partial(parent, local, flags)
}

/// The rare case of [`compose`]: some part of the parent's transform is not inherited.
#[inline(never)]
fn compose_partial(parent: &Affine, local: &Affine, flags: &BoneFlags) -> Affine {
    affine::mul(&inherited(parent, flags), local)
}

/// The part of a parent's model-space matrix a bone with `flags` composes its local with: its
/// translation, rotation and scale, each only if the bone inherits it.
pub fn inherited(parent: &Affine, flags: &BoneFlags) -> Affine {
    let (t, r, s) = relic_core::math::decompose(&affine::to_columns(parent));
    let t = if flags.inherit_translation { t } else { [0.0; 3] };
    let r = if flags.inherit_rotation { r } else { [0.0, 0.0, 0.0, 1.0] };
    let s = if flags.inherit_scale { s } else { [1.0; 3] };
    affine::from_trs(t, r, s)
}

/// One keyed property of one bone, bound to the clip's data once.
#[derive(Debug, Clone)]
struct Track<'m, const N: usize> {
    times: &'m [f32],
    values: &'m [[f32; N]],
    interpolation: Interpolation,
    clock: Clock,
    /// Index of the track's key times in [`Evaluator::timelines`].
    timeline: usize,
}

/// The tracks of one bone (a later channel for the same property replaces an earlier one).
#[derive(Debug, Clone, Default)]
struct BoneTracks<'m> {
    translation: Option<Track<'m, 3>>,
    rotation: Option<Track<'m, 4>>,
    scale: Option<Track<'m, 3>>,
}

/// One distinct list of key times of the clip, with its clock. Tracks with bit-identical times
/// and the same clock share it (an ABC clip keys every node at the same times; M2 tracks often
/// share theirs), so a pose finds each list's segment once instead of once per track. A cursor's
/// segment depends only on the times and `t` (never on its history), so sharing it changes no
/// result.
#[derive(Debug, Clone)]
struct Timeline<'m> {
    times: &'m [f32],
    clock: Clock,
    cursor: Cursor,
}

fn bind_tracks<'m>(model: &Model, animation: &'m Animation) -> (Vec<BoneTracks<'m>>, Vec<Timeline<'m>>) {
    let mut tracks = vec![BoneTracks::default(); model.bones.len()];
    for ch in &animation.channels {
        let Some(bone) = tracks.get_mut(ch.bone) else { continue };
        let (times, interpolation, clock, timeline) = (ch.times.as_slice(), ch.interpolation, ch.clock, 0);
        match &ch.values {
            ChannelValues::Translation(values) => {
                bone.translation = Some(Track { times, values, interpolation, clock, timeline })
            }
            ChannelValues::Rotation(values) => {
                bone.rotation = Some(Track { times, values, interpolation, clock, timeline })
            }
            ChannelValues::Scale(values) => bone.scale = Some(Track { times, values, interpolation, clock, timeline }),
        }
    }
    // Only the tracks that stayed bound get a timeline.
    let mut timelines = Timelines::default();
    for bone in &mut tracks {
        if let Some(t) = &mut bone.translation {
            t.timeline = timelines.index(t.times, t.clock);
        }
        if let Some(t) = &mut bone.rotation {
            t.timeline = timelines.index(t.times, t.clock);
        }
        if let Some(t) = &mut bone.scale {
            t.timeline = timelines.index(t.times, t.clock);
        }
    }
    (tracks, timelines.list)
}

/// Distinct timelines, found by a hash of the times' bits and compared bit for bit.
#[derive(Debug, Default)]
struct Timelines<'m> {
    list: Vec<Timeline<'m>>,
    by_hash: HashMap<u64, Vec<usize>>,
}

impl<'m> Timelines<'m> {
    fn index(&mut self, times: &'m [f32], clock: Clock) -> usize {
        let mut hasher = DefaultHasher::new();
        match clock {
            Clock::Animation => hasher.write_u8(0),
            Clock::Global(g) => (1u8, g).hash(&mut hasher),
        }
        times.len().hash(&mut hasher);
        times.iter().for_each(|t| t.to_bits().hash(&mut hasher));
        let same = |t: &Timeline<'_>| {
            t.clock == clock
                && t.times.len() == times.len()
                && t.times.iter().zip(times).all(|(a, b)| a.to_bits() == b.to_bits())
        };
        let candidates = self.by_hash.entry(hasher.finish()).or_default();
        if let Some(&i) = candidates.iter().find(|&&i| self.list.get(i).is_some_and(same)) {
            return i;
        }
        self.list.push(Timeline { times, clock, cursor: Cursor::default() });
        candidates.push(self.list.len() - 1);
        self.list.len() - 1
    }
}

/// The segment of an empty track (never used: every track's timeline exists).
const NO_SEGMENT: Segment = Segment { key: 0, fraction: 0.0, span: 0.0 };

/// Evaluates one clip of one model, reusing its buffers and key cursors from call to call.
#[derive(Debug, Clone)]
pub struct Evaluator<'m> {
    model: &'m Model,
    animation: &'m Animation,
    tracks: Vec<BoneTracks<'m>>,
    timelines: Vec<Timeline<'m>>,
    /// The segment of each timeline at the time being sampled.
    segments: Vec<Segment>,
    inverse_binds: Vec<Affine>,
    pending: Vec<PendingSlerp>,
    /// The bones evaluated ([`Evaluator::only`]); `None`: every bone.
    only: Option<Bones>,
    /// The pose of the last [`Evaluator::evaluate`].
    pub pose: Pose,
}

/// What an [`Evaluator`] is restricted to ([`Evaluator::only`]).
#[derive(Debug, Clone)]
struct Bones {
    /// Bones whose locals are sampled.
    sampled: Vec<bool>,
    /// Bones whose matrices are composed (closed under parents; all of them sampled).
    composed: Vec<bool>,
    /// Timelines the sampled bones' tracks read.
    timelines: Vec<bool>,
}

/// A rotation between two keys, waiting to be slerped with three others.
#[derive(Debug, Clone, Copy)]
struct PendingSlerp {
    bone: usize,
    from: [f32; 4],
    to: [f32; 4],
    fraction: f32,
}

impl PendingSlerp {
    /// Padding for an incomplete group of four.
    const IDLE: PendingSlerp =
        PendingSlerp { bone: usize::MAX, from: [0.0, 0.0, 0.0, 1.0], to: [0.0, 0.0, 0.0, 1.0], fraction: 0.0 };
}

impl<'m> Evaluator<'m> {
    /// An evaluator for `model`'s animation `animation`.
    pub fn new(model: &'m Model, animation: &'m Animation) -> Self {
        let pose = Pose::rest(model);
        let (tracks, timelines) = bind_tracks(model, animation);
        Self {
            model,
            animation,
            tracks,
            segments: Vec::with_capacity(timelines.len()),
            timelines,
            inverse_binds: model.bones.iter().map(|b| affine::from_columns(&b.inverse_bind_matrix)).collect(),
            pending: Vec::with_capacity(model.bones.len()),
            only: None,
            pose,
        }
    }

    /// Evaluates only what some bones need from now on: the model-space and skin matrices of
    /// `chains` (and so the locals and matrices of their ancestors), and the local transforms of
    /// `locals`. Those are exactly what a full evaluation gives; everything else keeps its rest
    /// pose. An exporter that bakes a few bones of a large skeleton pays for those alone.
    pub fn only(mut self, chains: &[usize], locals: &[usize]) -> Self {
        let model = self.model;
        let mut composed = vec![false; model.bones.len()];
        for &b in chains {
            // Up the parents, at most once per bone (a parent list with a cycle ends too).
            let mut at = Some(b);
            for _ in 0..composed.len() {
                let Some(c) = at.and_then(|b| composed.get_mut(b)) else { break };
                if *c {
                    break;
                }
                *c = true;
                at = at.and_then(|b| model.bones.get(b)).and_then(|bone| bone.parent);
            }
        }
        let mut sampled = composed.clone();
        for &b in locals {
            if let Some(s) = sampled.get_mut(b) {
                *s = true;
            }
        }
        let mut timelines = vec![false; self.timelines.len()];
        for (tracks, _) in self.tracks.iter().zip(&sampled).filter(|(_, s)| **s) {
            let lines = [
                tracks.translation.as_ref().map(|t| t.timeline),
                tracks.rotation.as_ref().map(|t| t.timeline),
                tracks.scale.as_ref().map(|t| t.timeline),
            ];
            for line in lines.into_iter().flatten() {
                if let Some(used) = timelines.get_mut(line) {
                    *used = true;
                }
            }
        }
        self.only = Some(Bones { sampled, composed, timelines });
        self
    }

    /// Samples the clip at `time` and updates [`Evaluator::pose`]. Sequential playback costs no
    /// binary search: each timeline's cursor moves forward from where it was. Rotations between two
    /// keys are slerped four bones at a time (`slerp4`); then the matrices are composed parents
    /// first in one pass.
    pub fn evaluate(&mut self, time: ClipTime) -> &Pose {
        self.sample_locals(time);
        self.update_matrices();
        &self.pose
    }

    /// Fills [`Pose::locals`] only.
    pub fn sample_locals(&mut self, time: ClipTime) {
        let model = self.model;
        self.pending.clear();
        self.segments.clear();
        let only = self.only.as_ref();
        for (i, line) in self.timelines.iter_mut().enumerate() {
            if only.is_some_and(|o| !o.timelines.get(i).copied().unwrap_or(false)) {
                self.segments.push(NO_SEGMENT);
                continue;
            }
            let t = channel_time(model, line.clock, time);
            self.segments.push(line.cursor.segment(line.times, t));
        }
        let segments = &self.segments;
        let segment = |timeline: usize| segments.get(timeline).copied().unwrap_or(NO_SEGMENT);
        let bones = model.bones.iter().zip(self.tracks.iter()).zip(self.pose.locals.iter_mut());
        for (b, ((bone, tracks), local)) in bones.enumerate() {
            if only.is_some_and(|o| !o.sampled.get(b).copied().unwrap_or(false)) {
                continue;
            }
            *local = bone.rest;
            if let Some(track) = &tracks.translation
                && !bone.flags.rotation_only
            {
                let seg = segment(track.timeline);
                if let Some(v) = sample_vector(track.values, track.interpolation, seg) {
                    local.translation = v;
                }
            }
            if let Some(track) = &tracks.scale {
                let seg = segment(track.timeline);
                if let Some(v) = sample_vector(track.values, track.interpolation, seg) {
                    local.scale = v;
                }
            }
            if let Some(track) = &tracks.rotation {
                let seg = segment(track.timeline);
                let pair = (track.values.get(seg.key), track.values.get(seg.key + 1));
                match pair {
                    (Some(a), Some(c)) if track.interpolation == Interpolation::Linear && seg.fraction != 0.0 => {
                        self.pending.push(PendingSlerp { bone: b, from: *a, to: *c, fraction: seg.fraction });
                    }
                    _ => {
                        if let Some(q) = sample_rotation(track.values, track.interpolation, seg) {
                            local.rotation = q;
                        }
                    }
                }
            }
        }
        for chunk in self.pending.chunks(4) {
            let get = |i: usize| chunk.get(i).copied().unwrap_or(PendingSlerp::IDLE);
            let [p0, p1, p2, p3] = [get(0), get(1), get(2), get(3)];
            // Four quaternions in, transposed to one register per component, and back.
            let soa =
                |f: fn(&PendingSlerp) -> [f32; 4]| f32x4::transpose([f(&p0), f(&p1), f(&p2), f(&p3)].map(f32x4::from));
            let fractions = f32x4::from([p0.fraction, p1.fraction, p2.fraction, p3.fraction]);
            let rotations = f32x4::transpose(slerp4(soa(|p| p.from), soa(|p| p.to), fractions));
            for (p, q) in chunk.iter().zip(rotations) {
                if let Some(local) = self.pose.locals.get_mut(p.bone) {
                    local.rotation = q.to_array();
                }
            }
        }
    }

    /// Recomputes the model-space and skin matrices from [`Pose::locals`], parents first, with
    /// the inverse bind matrices converted once in [`Evaluator::new`].
    fn update_matrices(&mut self) {
        let Pose { locals, globals, skin } = &mut self.pose;
        let only = self.only.as_ref().map(|o| o.composed.as_slice());
        compose_pose(self.model, locals.iter().copied(), self.inverse_binds.iter().copied(), only, globals, skin);
    }

    /// The model being animated.
    pub fn model(&self) -> &'m Model {
        self.model
    }

    /// The clip being evaluated.
    pub fn animation(&self) -> &'m Animation {
        self.animation
    }
}

thread_local! {
    /// Bone matrices composed on this thread (see [`bones_composed`]).
    static COMPOSED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Test support: how many bone matrices poses have composed on this thread so far. A test
/// asserts this count where it once asserted a time: posing a clip composes each bone once per
/// pose, whatever the depth of the skeleton.
#[doc(hidden)]
pub fn bones_composed() -> u64 {
    COMPOSED.with(std::cell::Cell::get)
}

/// Model-space (`globals`) and skin matrices of every bone from its local transform, parents
/// first in one pass: `global = parent's global ∘ local` (as the bone's inherit flags allow),
/// `skin = global · inverse bind`. The one composition [`Pose`] and [`Evaluator`] share. With
/// `only`, the bones it marks (closed under parents) and no others.
fn compose_pose(
    model: &Model,
    locals: impl Iterator<Item = Transform>,
    inverse_binds: impl Iterator<Item = Affine>,
    only: Option<&[bool]>,
    globals: &mut [Affine],
    skin: &mut [Affine],
) {
    let bones = model.bones.iter().zip(inverse_binds).zip(locals.zip(skin.iter_mut()));
    for (b, ((bone, inverse_bind), (local, skin))) in bones.enumerate() {
        if only.is_some_and(|o| !o.get(b).copied().unwrap_or(false)) {
            continue;
        }
        COMPOSED.with(|n| n.set(n.get().wrapping_add(1)));
        let local_matrix = transform_matrix(&local);
        let global = match bone.parent.filter(|&p| p < b).and_then(|p| globals.get(p)) {
            Some(parent) => compose(parent, &local_matrix, &bone.flags),
            None => local_matrix,
        };
        *skin = affine::mul(&global, &inverse_bind);
        if let Some(g) = globals.get_mut(b) {
            *g = global;
        }
    }
}

/// The time a channel sees: the clip time, or the global clock wrapped by its global sequence's
/// duration (a zero-length global sequence holds its first key).
#[inline]
pub fn channel_time(model: &Model, clock: Clock, time: ClipTime) -> f32 {
    match clock {
        Clock::Animation => time.clip,
        Clock::Global(g) => match model.global_sequences.get(g) {
            Some(&d) if d > 0.0 => time.global.rem_euclid(d),
            _ => 0.0,
        },
    }
}

/// Local transform to nalgebra parts (for callers that prefer them).
pub fn transform_parts(t: &Transform) -> (Vector3<f32>, UnitQuaternion<f32>, Vector3<f32>) {
    let [x, y, z, w] = t.rotation;
    (
        Vector3::from(t.translation),
        UnitQuaternion::new_normalize(nalgebra::Quaternion::new(w, x, y, z)),
        Vector3::from(t.scale),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use relic_core::model::{Channel, Interpolation};

    fn chain() -> Model {
        Model { bones: relic_testkit::bone_chain(3, "b"), ..Model::default() }
    }

    #[test]
    fn rest_pose_skin_matrices_are_identity() {
        let m = chain();
        let pose = Pose::rest(&m);
        for s in &pose.skin {
            assert!(relic_core::math::max_abs_diff(&affine::to_columns(s), &relic_core::math::IDENTITY) < 1e-6);
        }
        assert!((pose.globals[2][3][1] - 2.0).abs() < 1e-6);
    }

    #[test]
    fn rotating_the_root_moves_children_and_rotation_only_ignores_translation() {
        let mut m = chain();
        let h = std::f32::consts::FRAC_1_SQRT_2;
        let anim = Animation {
            name: "a".into(),
            duration: 1.0,
            channels: vec![
                Channel {
                    bone: 0,
                    clock: Clock::Animation,
                    interpolation: Interpolation::Linear,
                    times: vec![0.0],
                    values: ChannelValues::Rotation(vec![[0.0, 0.0, h, h]]), // 90° about Z
                },
                Channel {
                    bone: 1,
                    clock: Clock::Animation,
                    interpolation: Interpolation::Linear,
                    times: vec![0.0],
                    values: ChannelValues::Translation(vec![[0.0, 5.0, 0.0]]),
                },
            ],
            ..Animation::default()
        };
        m.animations.push(anim);
        let mut ev = Evaluator::new(&m, &m.animations[0]);
        let pose = ev.evaluate(ClipTime::at(0.0)).clone();
        // Bone 1 at (0, 5) rotated 90° about Z → (−5, 0); bone 2 one further: (−6, 0).
        assert!((pose.globals[2][3][0] + 6.0).abs() < 1e-5, "{:?}", pose.globals[2]);
        let mut m2 = m.clone();
        m2.bones[1].flags.rotation_only = true;
        let mut ev = Evaluator::new(&m2, &m2.animations[0]);
        let pose = ev.evaluate(ClipTime::at(0.0));
        assert!((pose.globals[2][3][0] + 2.0).abs() < 1e-5, "{:?}", pose.globals[2]);
    }

    #[test]
    fn ignoring_parent_rotation() {
        let mut m = chain();
        let h = std::f32::consts::FRAC_1_SQRT_2;
        m.bones[0].rest.rotation = [0.0, 0.0, h, h];
        m.bones[1].flags.inherit_rotation = false;
        let pose = Pose::rest(&m);
        // Bone 1 keeps its own orientation: its +Y offset is not turned by the root.
        assert!((pose.globals[1][3][1] - 1.0).abs() < 1e-5 && pose.globals[1][3][0].abs() < 1e-5);
        assert!((pose.globals[1][0][0] - 1.0).abs() < 1e-5);
    }

    /// A tree (0 ← 1 ← 2 with bone 2 not inheriting its parent's rotation, 0 ← 3 ← 4), every
    /// bone keyed: restricted to bone 2's chain and bone 4's local, the evaluator gives bones 0, 1
    /// and 2 exactly what a full evaluation gives, bone 4 its local and rest matrices, and bone 3
    /// its rest pose.
    #[test]
    fn an_evaluator_restricted_to_some_bones_gives_their_chains_exactly() {
        let mut m = Model { bones: relic_testkit::bone_chain(5, "b"), ..Model::default() };
        for (b, parent) in [(3, 0), (4, 3)] {
            m.bones[b].parent = Some(parent);
        }
        m.bones[2].flags.inherit_rotation = false;
        let times = vec![0.0, 0.4, 1.0];
        let channels = (0..5).flat_map(|b| {
            let turn = |k: f32| {
                let a = 0.3 * (b as f32 + 1.0) * k;
                [a.sin() * 0.6, a.sin() * 0.8, 0.0, a.cos()]
            };
            [
                Channel {
                    bone: b,
                    clock: Clock::Animation,
                    interpolation: Interpolation::Linear,
                    times: times.clone(),
                    values: ChannelValues::Rotation(vec![turn(0.0), turn(1.0), turn(2.5)]),
                },
                Channel {
                    bone: b,
                    clock: Clock::Animation,
                    interpolation: Interpolation::Linear,
                    times: times.clone(),
                    values: ChannelValues::Translation(vec![[0.0, 1.0, 0.0], [b as f32, 1.5, 0.2], [0.3, 2.0, -1.0]]),
                },
            ]
        });
        m.animations.push(Animation {
            name: "a".into(),
            duration: 1.0,
            channels: channels.collect(),
            ..Animation::default()
        });
        let anim = &m.animations[0];
        let rest = Pose::rest(&m);
        let mut full = Evaluator::new(&m, anim);
        let mut only = Evaluator::new(&m, anim).only(&[2], &[4]);
        for t in [0.0, 0.2, 0.7, 1.0] {
            let whole = full.evaluate(ClipTime::at(t)).clone();
            let part = only.evaluate(ClipTime::at(t));
            for b in 0..3 {
                assert_eq!(part.locals[b], whole.locals[b], "bone {b} at {t}");
                assert_eq!(part.globals[b], whole.globals[b], "bone {b} at {t}");
                assert_eq!(part.skin[b], whole.skin[b], "bone {b} at {t}");
            }
            if t > 0.0 {
                assert_ne!(whole.locals[3], rest.locals[3], "bone 3 moves in the clip");
                assert_ne!(whole.locals[4], rest.locals[4], "bone 4 moves in the clip");
                assert_ne!(whole.globals[4], rest.globals[4], "bone 4 moves in the clip");
            }
            assert_eq!(part.locals[4], whole.locals[4], "bone 4 at {t}");
            for b in 3..5 {
                assert_eq!(part.globals[b], rest.globals[b], "bone {b} at {t}");
            }
            assert_eq!(part.locals[3], rest.locals[3], "bone 3 at {t}");
        }
    }

    #[test]
    fn tracks_with_equal_times_share_a_timeline_and_sample_as_alone() {
        let mut m = chain();
        let times = |v: &[f32]| v.to_vec();
        let channel = |bone, clock, t: Vec<f32>| Channel {
            bone,
            clock,
            interpolation: Interpolation::Linear,
            values: ChannelValues::Translation(t.iter().map(|&x| [x, 2.0 * x, 0.5]).collect()),
            times: t,
        };
        m.global_sequences = vec![0.7];
        let anim = Animation {
            name: "a".into(),
            duration: 1.0,
            channels: vec![
                channel(0, Clock::Animation, times(&[0.0, 0.5, 1.0])),
                channel(1, Clock::Animation, times(&[0.0, 0.5, 1.0])),
                channel(2, Clock::Animation, times(&[0.0, 0.25, 1.0])),
                channel(2, Clock::Global(0), times(&[0.0, 0.25, 1.0])),
            ],
            ..Animation::default()
        };
        m.animations.push(anim);
        let mut ev = Evaluator::new(&m, &m.animations[0]);
        // Bones 0 and 1 share one list; bone 2's later channel (global clock) replaced its first.
        assert_eq!(ev.timelines.len(), 2);
        for t in [0.9, 0.1, 0.6, 0.3, 1.5, -0.2] {
            let time = ClipTime { clip: t, global: t * 3.0 };
            ev.sample_locals(time);
            for ch in &m.animations[0].channels[..2] {
                let Some(relic_core::sample::Sample::Vector(v)) = ch.sample(t) else { panic!() };
                assert_eq!(ev.pose.locals[ch.bone].translation, v, "bone {} at {t}", ch.bone);
            }
            let ch = &m.animations[0].channels[3];
            let Some(relic_core::sample::Sample::Vector(v)) = ch.sample(channel_time(&m, ch.clock, time)) else {
                panic!()
            };
            assert_eq!(ev.pose.locals[2].translation, v, "bone 2 at {t}");
        }
    }

    #[test]
    fn global_clock_wraps_and_playback_loops() {
        let mut m = chain();
        m.global_sequences = vec![2.0, 0.0];
        let t = ClipTime { clip: 0.5, global: 5.0 };
        assert_eq!(channel_time(&m, Clock::Global(0), t), 1.0);
        assert_eq!(channel_time(&m, Clock::Global(1), t), 0.0);
        assert_eq!(channel_time(&m, Clock::Animation, t), 0.5);
        let looping = Animation { duration: 2.0, looping: true, ..Animation::default() };
        assert_eq!(ClipTime::playing(&looping, 5.0).clip, 1.0);
        let once = Animation { duration: 2.0, ..Animation::default() };
        assert_eq!(ClipTime::playing(&once, 5.0).clip, 2.0);
    }
}
