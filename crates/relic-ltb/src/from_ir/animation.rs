//! Clips → animations: every node keyed at every key time (the model's channels sampled with
//! relic-core's one sampler; a clip a tool baked fitted at the stored key times first), tracks
//! encoded in the animation's compression mode (the stored one, else the recorded original's,
//! else "relevant") by `tracks.rs`; and the animation bindings.

use std::collections::BTreeMap;

use relic_core::binary::LenString;
use relic_core::model::{Animation, Channel, ChannelValues, Clock, Interpolation, Transform};
use relic_core::sample::Sample;
use relic_core::{Loss, WriteError};
use relic_lithtech::frame::LITHTECH;

use super::{Ctx, nodes::stored_name};
use crate::extras::animation_digest;
use crate::file::{
    AnimBinding, AnimBindingGroup, Animation as FileAnimation, Keyframe, Piece, RenderObject, compression,
};

/// Seconds → milliseconds, clamped to what a u32 holds.
fn millis(t: f32) -> u32 {
    (f64::from(t) * 1000.0).round().clamp(0.0, f64::from(u32::MAX)) as u32
}

/// Each bone's translation and rotation channel (the first of each); what LTB cannot key is
/// reported.
fn bone_channels<'a>(
    bones: usize,
    anim: &'a Animation,
    element: &str,
    losses: &mut Vec<Loss>,
) -> Vec<[Option<&'a Channel>; 2]> {
    let mut out = vec![[None, None]; bones];
    let (mut scale, mut cubic, mut step, mut global) = (false, false, false, false);
    for ch in &anim.channels {
        cubic |= ch.interpolation == Interpolation::CubicSpline;
        step |= ch.interpolation == Interpolation::Step && ch.times.len() > 1;
        global |= ch.clock != Clock::Animation;
        let Some(slot) = out.get_mut(ch.bone) else { continue };
        match &ch.values {
            ChannelValues::Translation(_) => slot[0] = slot[0].or(Some(ch)),
            ChannelValues::Rotation(_) => slot[1] = slot[1].or(Some(ch)),
            ChannelValues::Scale(v) => scale |= v.iter().flatten().any(|c| (c - 1.0).abs() > 1e-4),
        }
    }
    for (on, what) in [
        (scale, "scale keys dropped (LTB keys have no scale)"),
        (cubic, "cubic-spline keys written as linear keys at their key times (tangents dropped)"),
        (step, "step keys written as linear keys (LTB interpolates between keys)"),
        (global, "global-sequence channels sampled on the clip's own clock"),
    ] {
        if on {
            losses.push(Loss::new(element, what));
        }
    }
    out
}

/// A bone's local transform at `t` seconds: its channels, or its rest pose where it has none.
fn sample_local(rest: Transform, channels: [Option<&Channel>; 2], t: f32) -> Transform {
    let translation = match channels[0].and_then(|c| c.sample(t)) {
        Some(Sample::Vector(v)) => v,
        _ => rest.translation,
    };
    let rotation = match channels[1].and_then(|c| c.sample(t)) {
        Some(Sample::Rotation(q)) => q,
        _ => rest.rotation,
    };
    Transform { translation, rotation, scale: [1.0; 3] }
}

/// The key times (ms) of a clip: every channel key, event and its end.
fn key_times(anim: &Animation, element: &str, losses: &mut Vec<Loss>) -> Vec<u32> {
    let mut raw: Vec<f32> = anim.channels.iter().flat_map(|c| c.times.iter().copied()).collect();
    raw.extend(anim.events.iter().map(|e| e.time));
    raw.push(anim.duration);
    if raw.iter().any(|&t| t < 0.0) {
        losses.push(Loss::new(element, "keys before 0 s moved to 0 s"));
    }
    raw.sort_by(f32::total_cmp);
    raw.dedup();
    let mut ms: Vec<u32> = raw.iter().map(|&t| millis(t)).collect();
    let before = ms.len();
    ms.dedup();
    if ms.len() < before && raw.iter().all(|&t| t >= 0.0) {
        losses.push(Loss::new(element, "keys less than 1 ms apart merged"));
    }
    ms
}

/// The animations.
pub(super) fn build(ctx: &Ctx<'_>, pieces: &[Piece], losses: &mut Vec<Loss>) -> Result<Vec<FileAnimation>, WriteError> {
    let model = ctx.model;
    let vertex_animated =
        pieces.iter().flat_map(|p| &p.lods).any(|l| matches!(l.object, RenderObject::VertexAnimated(_)));
    // Without a stored file (or clip, below): nothing stored, no stored key times or strings.
    let stored_all = ctx.stored.map(|s| s.animations.as_slice()).unwrap_or_default();
    let mut out = Vec::with_capacity(model.animations.len());
    for (a, anim) in model.animations.iter().enumerate() {
        let element = format!("animations[{a}] {:?}", anim.name);
        let named = |s: &&FileAnimation| s.name.to_text() == anim.name;
        let stored_index =
            stored_all.get(a).filter(named).map(|_| a).or_else(|| stored_all.iter().position(|s| named(&s)));
        let stored = stored_index.and_then(|i| stored_all.get(i)).filter(|_| ctx.same_nodes);
        if let (Some(s), Some(i)) = (stored, stored_index)
            && ctx.digests.and_then(|d| d.animations.get(i)) == Some(&animation_digest(anim))
        {
            out.push(s.clone());
            continue;
        }
        if !anim.morph_channels.is_empty() {
            losses.push(Loss::new(
                &element,
                "morph channels dropped (LTB vertex animation is written back only as it was read)",
            ));
        }
        let stored_times: Vec<u32> = stored.map(|s| s.keyframes.iter().map(|k| k.time).collect()).unwrap_or_default();
        // A clip a tool baked (Blender keys every frame) goes back to the stored key times while
        // a fit there reproduces it (`relic_core::rekey`).
        let knots = crate::to_ir::key_seconds(stored_times.iter().copied());
        let at_knots = anim.channels.iter().all(|c| c.times.len() <= 1 || c.times == knots);
        let rekeyed = match stored_times.is_empty() || at_knots {
            true => None,
            false => {
                let fitted = relic_core::rekey::rekeyed(anim, &knots);
                if fitted.is_none() {
                    losses.push(Loss::new(
                        &element,
                        format!(
                            "the file's {} key times do not fit the model's keys (the motion changed between them): written at the model's key times",
                            stored_times.len()
                        ),
                    ));
                }
                fitted
            }
        };
        let keyed_at_stored = !stored_times.is_empty() && (at_knots || rekeyed.is_some());
        let anim = rekeyed.as_ref().unwrap_or(anim);
        let times = if keyed_at_stored { stored_times.clone() } else { key_times(anim, &element, losses) };
        // The stored mode; none where a vertex-animated mesh needs vertex tracks (§9.3); else
        // what the game file the model came from suggests (`recorded_mode`); else "relevant"
        // (full floats, one value for a constant channel: no precision lost).
        let mode = match stored.map(|s| s.compression) {
            _ if vertex_animated => compression::NONE,
            Some(m) => m,
            None => recorded_mode(ctx).unwrap_or(compression::RELEVANT),
        };
        let channels = bone_channels(model.bones.len(), anim, &element, losses);
        let same_keys = stored.filter(|s| s.compression == mode && stored_times == times);
        // Sampled where `to_ir` put the keys (a key on the millisecond of the one before it at the
        // next float).
        let seconds = crate::to_ir::key_seconds(times.iter().copied());
        let mut tracks = Vec::with_capacity(ctx.order.nodes.len());
        let mut saturated = 0usize;
        for n in 0..ctx.order.nodes.len() {
            let bone = ctx.order.nodes.get(n).copied().flatten();
            let rest = bone.and_then(|b| model.bones.get(b)).map_or(Transform::IDENTITY, |b| b.rest);
            let chans = bone.and_then(|b| channels.get(b)).copied().unwrap_or([None, None]);
            let (positions, rotations): (Vec<[f32; 3]>, Vec<[f32; 4]>) = seconds
                .iter()
                .map(|&t| {
                    let local = sample_local(rest, chans, t);
                    (LITHTECH.vector_from_ir(local.translation), LITHTECH.quat_from_ir(local.rotation))
                })
                .unzip();
            let stored_track = same_keys.and_then(|s| s.tracks.get(n));
            tracks.push(super::tracks::track(mode, &positions, &rotations, stored_track, &mut saturated));
        }
        if saturated > 0 {
            losses.push(Loss::new(
                &element,
                format!("{saturated} positions past ±2047.9 clamped (16-bit positions hold 1/16 units)"),
            ));
        }
        let mut commands: BTreeMap<u32, String> = BTreeMap::new();
        for e in &anim.events {
            let slot = commands.entry(millis(e.time)).or_default();
            if !slot.is_empty() {
                slot.push(';');
                losses.push(Loss::new(&element, format!("events at {} s joined into one key string", e.time)));
            }
            slot.push_str(&e.name);
            if e.bone.is_some() || e.position.is_some() || e.parameter.is_some() {
                losses.push(Loss::new(&element, format!("event {:?}: bone, position and parameter dropped", e.name)));
            }
        }
        // A stored key string stays at its key (two keys on one millisecond keep theirs).
        let stored_commands = same_keys.map(|s| s.keyframes.as_slice()).unwrap_or_default();
        let keyframes = times
            .iter()
            .enumerate()
            .map(|(k, &t)| {
                let stored = stored_commands.get(k).filter(|s| {
                    commands.get(&t).is_some_and(|c| *c == s.command.to_text())
                        || (s.command.0.is_empty() && !commands.contains_key(&t))
                });
                let command = match stored {
                    Some(s) => s.command.clone(),
                    // A key without an event has the empty command string, LTB's "none".
                    None => stored_name(|| element.clone(), &commands.remove(&t).unwrap_or_default(), losses),
                };
                Keyframe { time: t, command }
            })
            .collect();
        let interpolation = millis(anim.blend_in);
        out.push(FileAnimation {
            dims: stored.map_or_else(|| dims(ctx), |s| s.dims),
            name: stored_name(|| element.clone(), &anim.name, losses),
            compression: mode,
            interpolation_ms: stored
                .map(|s| s.interpolation_ms)
                .filter(|&m| m == interpolation)
                .unwrap_or(interpolation),
            keyframes,
            tracks,
        });
    }
    Ok(out)
}

/// The compression of the game file a model without its extras came from (`relic info`'s counts,
/// which glTF keeps in the `relic original` nodes): none where its animation bytes are 28 per
/// key and node (every track stored whole, §9.5), else 16-bit "relevant" (what CrossFire's
/// weapons use): the original's tracks took less than full floats.
fn recorded_mode(ctx: &Ctx<'_>) -> Option<u32> {
    let o = ctx.model.original.as_ref().filter(|o| o.format == crate::FORMAT.as_str())?;
    let (bytes, keys, nodes) = (o.count("animation_bytes"), o.count("keyframes"), o.count("nodes"));
    match bytes {
        0 => None,
        b if b == 28 * keys * nodes => Some(compression::NONE),
        _ => Some(compression::RELEVANT_16),
    }
}

/// Dims of an animation without stored ones: the half-extents of the full-detail bind-pose mesh
/// (what ABC v12 stores), at least 1.
fn dims(ctx: &Ctx<'_>) -> [f32; 3] {
    let mut d = [1.0f32; 3];
    for mesh in ctx.model.meshes.iter().filter(|m| m.lod.level == 0) {
        for p in &mesh.positions {
            for (dc, pc) in d.iter_mut().zip(LITHTECH.vector_from_ir(*p)) {
                *dc = dc.max(pc.abs());
            }
        }
    }
    d
}

/// The child models and the binding groups: group 0 lists the animations (the stored entry's
/// dims and translation for an animation it has), the other groups are the stored child models'.
pub(super) fn bindings(ctx: &Ctx<'_>, animations: &[FileAnimation]) -> (Vec<LenString>, Vec<AnimBindingGroup>) {
    let Some(stored) = ctx.stored else {
        let group =
            animations.iter().map(|a| AnimBinding { name: a.name.clone(), dims: a.dims, translation: [0.0; 3] });
        return (Vec::new(), vec![AnimBindingGroup { bindings: group.collect() }]);
    };
    let stored0 = stored.anim_bindings.first();
    let same = stored0.is_some_and(|g| {
        g.bindings.len() == animations.len()
            && g.bindings.iter().zip(animations).all(|(b, a)| b.name == a.name && b.dims == a.dims)
    });
    let group0 = match stored0 {
        Some(g) if same => g.clone(),
        _ => AnimBindingGroup {
            bindings: animations
                .iter()
                .map(|a| {
                    let translation = stored0
                        .and_then(|g| g.bindings.iter().find(|b| b.name == a.name))
                        .map_or([0.0; 3], |b| b.translation);
                    AnimBinding { name: a.name.clone(), dims: a.dims, translation }
                })
                .collect(),
        },
    };
    let mut groups = vec![group0];
    groups.extend(stored.anim_bindings.iter().skip(1).cloned());
    groups.resize(stored.child_models.len() + 1, AnimBindingGroup::default());
    (stored.child_models.clone(), groups)
}
