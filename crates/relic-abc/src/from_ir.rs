//! Common model → ABC: what both families share (version choice, skeleton order, key times,
//! sampling, events). The family builders are the private modules `from_ir_v12` and `from_ir_v6`.
//!
//! Any valid model can be written. What the target cannot hold is reported as a `Loss`:
//! scale keys, cubic or step interpolation (ABC interpolates linearly between its keys), global
//! clocks, extra UV sets, morph targets (v9–v13), several influences per vertex (v6), LODs and
//! materials (v6), sockets and child models (v6). [`crate::extras::AbcExtras`] from a model that
//! came from ABC are used while they still fit the model (same counts; for derived values, the
//! same digest of the model data), so that ABC → model → ABC gives the same file.

use std::collections::BTreeMap;

use relic_core::math::{IDENTITY, Mat4};
use relic_core::model::{Animation, Bone, Channel, ChannelValues, Clock, Interpolation, Model, Transform};
use relic_core::sample::Sample;
use relic_core::{Converted, Loss, WriteError, WriteOptions};

use crate::common::not_cp1252;
use crate::extras::AbcExtras;
use crate::file::AbcFile;
use crate::v12::VERSIONS;

/// Maps a model to an ABC file of the version `options` asks for (default: the version the model
/// was read from, if it came from ABC; else 12).
pub fn from_ir(model: &Model, options: &WriteOptions) -> Result<Converted<AbcFile>, WriteError> {
    model.validate()?;
    let version = target_version(model, options)?;
    let mut losses = Vec::new();
    let extras = match AbcExtras::of(model) {
        Ok(e) => e,
        Err(why) => {
            losses.push(Loss::new(
                "extras",
                format!("ABC extras could not be read ({why}); written from the model alone"),
            ));
            None
        }
    };
    report_unstorable(model, version, &mut losses);
    let file = if version == 6 {
        AbcFile::V6(crate::from_ir_v6::build(model, extras.as_deref(), &mut losses)?)
    } else {
        AbcFile::V12(crate::from_ir_v12::build(model, version, extras.as_deref(), &mut losses)?)
    };
    Ok(Converted { value: file, losses })
}

/// Reports model data no ABC version stores (each family reports its own gaps as it builds).
fn report_unstorable(model: &Model, version: u32, losses: &mut Vec<Loss>) {
    for (i, b) in model.bones.iter().enumerate() {
        let element = || format!("bones[{i}] {:?}", b.name);
        let f = &b.flags;
        if !(f.inherit_translation && f.inherit_rotation && f.inherit_scale) {
            losses.push(Loss::new(
                element(),
                "\"ignore parent translation/rotation/scale\" not stored (ABC nodes always inherit)",
            ));
        }
        if f.billboard != relic_core::model::Billboard::None {
            losses.push(Loss::new(element(), "billboarding not stored"));
        }
        if b.rest.scale.iter().any(|s| (s - 1.0).abs() > 1e-5) {
            losses.push(Loss::new(element(), "rest scale not stored in animation keys (ABC keys have no scale)"));
        }
    }
    if version != 6 {
        for (i, m) in model.materials.iter().enumerate() {
            let plain = m.textures.is_empty()
                && m.blend == relic_core::model::BlendMode::Opaque
                && !m.double_sided
                && !m.unlit
                && !m.unfogged;
            if !plain {
                losses.push(Loss::new(
                    format!("materials[{i}] {:?}", m.name),
                    "textures and render flags not stored (ABC keeps a material slot; skins are set by the game)",
                ));
            }
        }
    }
    for (i, mesh) in model.meshes.iter().enumerate() {
        if let Some(id) = mesh.part_id {
            losses.push(Loss::new(format!("meshes[{i}] {:?}", mesh.name), format!("part id {id} not stored")));
        }
        if version == 6 && mesh.morph_targets.iter().any(|t| !t.normal_deltas.is_empty()) {
            losses.push(Loss::new(
                format!("meshes[{i}] {:?}", mesh.name),
                "morph normal deltas not stored (v6 deforms positions only)",
            ));
        }
    }
    for (i, anim) in model.animations.iter().enumerate() {
        let element = || format!("animations[{i}] {:?}", anim.name);
        if anim.looping {
            losses.push(Loss::new(element(), "looping flag not stored (the game decides)"));
        }
        if version != 6 && !anim.key_bounds.is_empty() {
            losses.push(Loss::new(element(), "keyframe boxes not stored by v9–v13"));
        }
    }
    if !model.global_sequences.is_empty() {
        losses
            .push(Loss::new("global sequences", format!("{} global clocks not stored", model.global_sequences.len())));
    }
}

/// The version to write.
pub fn target_version(model: &Model, options: &WriteOptions) -> Result<u32, WriteError> {
    let writable = |v: u32| v == 6 || VERSIONS.contains(&v);
    match options.version {
        Some(v) if writable(v) => Ok(v),
        Some(v) => Err(WriteError::Unsupported(format!("ABC version {v} cannot be written; choose 6 or 9–13"))),
        None => Ok(match model.source {
            Some(s) if s.format == crate::FORMAT && writable(s.version) => s.version,
            _ => 12,
        }),
    }
}

/// The file's nodes: the model's bones in depth-first order under one root.
#[derive(Debug, Clone)]
pub(crate) struct Skeleton {
    /// Per node: the model bone, or `None` for a root this writer added.
    pub nodes: Vec<Option<usize>>,
    /// Per model bone: its node.
    pub node_of: Vec<u32>,
    /// Per node: its parent node.
    pub parents: Vec<Option<usize>>,
    /// Per node: its number of children.
    pub child_counts: Vec<u32>,
    /// Per node: the model-space bind matrix (model frame).
    pub binds: Vec<Mat4>,
    /// True if nodes are exactly the model's bones in their order.
    pub identity: bool,
}

impl Skeleton {
    /// Orders the bones depth first (children in bone order). Several roots, or no bone at all
    /// when `need_root`, get a root node added above them.
    pub(crate) fn new(model: &Model, need_root: bool, losses: &mut Vec<Loss>) -> Self {
        let bones = &model.bones;
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); bones.len()];
        let mut roots = Vec::new();
        for (i, b) in bones.iter().enumerate() {
            match b.parent.and_then(|p| children.get_mut(p)) {
                Some(c) => c.push(i),
                None => roots.push(i),
            }
        }
        let add_root = roots.len() > 1 || (roots.is_empty() && need_root);
        if roots.len() > 1 {
            losses.push(Loss::new("bones", format!("{} root bones; added a node \"root\" above them", roots.len())));
        }
        let mut nodes: Vec<Option<usize>> = Vec::with_capacity(bones.len() + 1);
        let mut parents: Vec<Option<usize>> = Vec::with_capacity(bones.len() + 1);
        let mut node_of = vec![0u32; bones.len()];
        if add_root {
            nodes.push(None);
            parents.push(None);
        }
        let mut stack: Vec<(usize, Option<usize>)> = roots.iter().rev().map(|&r| (r, add_root.then_some(0))).collect();
        while let Some((bone, parent)) = stack.pop() {
            let node = nodes.len();
            if let Some(slot) = node_of.get_mut(bone) {
                *slot = node as u32;
            }
            nodes.push(Some(bone));
            parents.push(parent);
            let kids = children.get(bone).map(Vec::as_slice).unwrap_or_default();
            stack.extend(kids.iter().rev().map(|&c| (c, Some(node))));
        }
        let mut child_counts = vec![0u32; nodes.len()];
        for p in parents.iter().flatten() {
            if let Some(c) = child_counts.get_mut(*p) {
                *c += 1;
            }
        }
        let binds = nodes.iter().map(|b| b.and_then(|b| bones.get(b)).map_or(IDENTITY, |b| b.bind_matrix)).collect();
        let identity = !add_root && nodes.iter().enumerate().all(|(i, b)| *b == Some(i));
        Skeleton { nodes, node_of, parents, child_counts, binds, identity }
    }

    /// The model bone of a node.
    pub(crate) fn bone<'m>(&self, model: &'m Model, node: usize) -> Option<&'m Bone> {
        self.nodes.get(node).copied().flatten().and_then(|b| model.bones.get(b))
    }

    /// The node of a model bone (0 if out of range).
    pub(crate) fn node(&self, bone: usize) -> u32 {
        self.node_of.get(bone).copied().unwrap_or(0)
    }

    /// Node name: the bone's, or `root` for an added root.
    pub(crate) fn name(&self, model: &Model, node: usize) -> String {
        self.bone(model, node).map_or_else(|| "root".to_string(), |b| b.name.clone())
    }
}

/// Seconds → milliseconds, clamped to what a u32 holds.
pub(crate) fn millis(t: f32) -> u32 {
    (f64::from(t) * 1000.0).round().clamp(0.0, f64::from(u32::MAX)) as u32
}

/// The channels of one bone in one animation.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct BoneTracks<'a> {
    pub translation: Option<&'a Channel>,
    pub rotation: Option<&'a Channel>,
}

/// Every bone's translation and rotation channel in `anim`; reports what ABC cannot key.
pub(crate) fn bone_tracks<'a>(model: &Model, anim: &'a Animation, losses: &mut Vec<Loss>) -> Vec<BoneTracks<'a>> {
    let mut out = vec![BoneTracks::default(); model.bones.len()];
    let element = || format!("animations {:?}", anim.name);
    let (mut scale, mut cubic, mut step, mut global, mut doubled) = (false, false, false, false, false);
    for ch in &anim.channels {
        match ch.interpolation {
            Interpolation::CubicSpline => cubic = true,
            Interpolation::Step if ch.times.len() > 1 => step = true,
            _ => {}
        }
        global |= ch.clock != Clock::Animation;
        let Some(slot) = out.get_mut(ch.bone) else { continue };
        let target = match &ch.values {
            ChannelValues::Translation(_) => &mut slot.translation,
            ChannelValues::Rotation(_) => &mut slot.rotation,
            ChannelValues::Scale(v) => {
                scale |= v.iter().any(|s| s.iter().any(|c| (c - 1.0).abs() > 1e-6));
                continue;
            }
        };
        if target.is_some() {
            doubled = true;
        } else {
            *target = Some(ch);
        }
    }
    let mut note = |cond: bool, what: &str| {
        if cond {
            losses.push(Loss::new(element(), what));
        }
    };
    note(scale, "scale keys dropped (ABC has no scale)");
    note(cubic, "cubic-spline keys written as linear keys at their key times (tangents dropped)");
    note(step, "step keys written as linear keys (ABC interpolates between keys)");
    note(global, "global-sequence channels sampled on the clip's own clock");
    note(doubled, "a bone with two channels of one property: only the first written");
    out
}

/// A bone's local transform at `t` seconds: its channels, or its rest pose where it has none.
pub(crate) fn sample_local(bone: Option<&Bone>, tracks: Option<&BoneTracks<'_>>, t: f32) -> Transform {
    let rest = bone.map_or(Transform::IDENTITY, |b| b.rest);
    let translation = match tracks.and_then(|tr| tr.translation).and_then(|c| c.sample(t)) {
        Some(Sample::Vector(v)) => v,
        _ => rest.translation,
    };
    let rotation = match tracks.and_then(|tr| tr.rotation).and_then(|c| c.sample(t)) {
        Some(Sample::Rotation(q)) => q,
        _ => rest.rotation,
    };
    Transform { translation, rotation, scale: [1.0; 3] }
}

/// The key times (ms) of an animation: every channel key, every event and `extra` time; at least
/// one key. Reports keys that fall on the same millisecond or before 0.
pub(crate) fn key_times(anim: &Animation, extra: &[f32], losses: &mut Vec<Loss>) -> Vec<u32> {
    // Channels usually share their key times (every node of a clip keyed at the same times): a
    // list bit-identical to the one before it adds nothing the sort and dedup below keep (times
    // are finite, as validated), so it is not copied and sorted again.
    let mut previous: &[f32] = &[];
    let distinct = anim.channels.iter().map(|c| c.times.as_slice()).filter(move |&times| {
        let repeat =
            times.len() == previous.len() && times.iter().zip(previous).all(|(a, b)| a.to_bits() == b.to_bits());
        previous = times;
        !repeat
    });
    let times = distinct
        .flatten()
        .chain(anim.morph_channels.iter().flat_map(|c| c.times.iter()))
        .chain(anim.events.iter().map(|e| &e.time))
        .chain(extra);
    let mut raw: Vec<f32> = times.copied().collect();
    raw.sort_by(f32::total_cmp);
    raw.dedup();
    if raw.iter().any(|&t| t < 0.0) {
        losses.push(Loss::new(format!("animations {:?}", anim.name), "keys before 0 s moved to 0 s"));
    }
    let mut ms: Vec<u32> = raw.iter().map(|&t| millis(t)).collect();
    let before = ms.len();
    ms.dedup();
    if ms.len() < before && raw.iter().all(|&t| t >= 0.0) {
        losses.push(Loss::new(format!("animations {:?}", anim.name), "keys less than 1 ms apart merged"));
    }
    if ms.is_empty() {
        ms.push(0);
    }
    ms
}

/// The events of an animation as one command string per key time (ms); several events at one key
/// are joined with `;`.
pub(crate) fn key_commands(anim: &Animation, losses: &mut Vec<Loss>) -> BTreeMap<u32, String> {
    let mut out: BTreeMap<u32, String> = BTreeMap::new();
    let element = || format!("animations {:?}", anim.name);
    for e in &anim.events {
        let slot = out.entry(millis(e.time)).or_default();
        if !slot.is_empty() {
            slot.push(';');
            losses.push(Loss::new(element(), format!("events at {} s joined into one key string", e.time)));
        }
        slot.push_str(&e.name);
        if e.bone.is_some() || e.position.is_some() || e.parameter.is_some() {
            losses.push(Loss::new(element(), format!("event {:?}: bone, position and parameter dropped", e.name)));
        }
        if not_cp1252(&e.name) {
            losses
                .push(Loss::new(element(), format!("event {:?}: characters outside Windows-1252 became '?'", e.name)));
        }
    }
    out
}

/// A name as stored; reports characters Windows-1252 cannot hold.
pub(crate) fn stored_name(
    element: impl FnOnce() -> String,
    name: &str,
    losses: &mut Vec<Loss>,
) -> relic_core::binary::LenString {
    if not_cp1252(name) {
        losses.push(Loss::new(element(), format!("{name:?}: characters outside Windows-1252 became '?'")));
    }
    crate::common::len_string(name)
}

/// Morph weights of `targets` targets at `t` from a channel (linear between keys, clamped).
pub(crate) fn morph_weights(channel: &relic_core::model::MorphChannel, targets: usize, t: f32) -> Vec<f32> {
    let seg = relic_core::sample::find_segment(&channel.times, t);
    let row = |k: usize| channel.weights.get(k * targets..(k + 1) * targets);
    let mut out = vec![0.0f32; targets];
    match (row(seg.key), row(seg.key + 1)) {
        (Some(a), Some(b)) if seg.fraction != 0.0 && channel.interpolation != Interpolation::Step => {
            for ((o, x), y) in out.iter_mut().zip(a).zip(b) {
                *o = x + (y - x) * seg.fraction;
            }
        }
        (Some(a), _) => out.copy_from_slice(a),
        _ => {}
    }
    out
}
