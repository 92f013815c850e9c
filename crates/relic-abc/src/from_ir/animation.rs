//! What both families take from the model's animations: key times in milliseconds, each bone's
//! channels sampled at them (relic-core's one sampler), and events as key strings.

use std::collections::BTreeMap;

use relic_core::Loss;
use relic_core::model::{Animation, Bone, Channel, ChannelValues, Clock, Interpolation, Model, Transform};
use relic_core::sample::Sample;

use relic_core::frame::Frame;
use relic_core::math;

use super::names::stored_name;
use super::skeleton::Skeleton;
use crate::extras::{AnimExtras, V12Extras};
use crate::file::common::{len_string, not_cp1252};
use crate::file::{Animation as FileAnimation, KeyCountForm, Keyframe, NodeKey, Tracks, V13Key, V13Track};
use crate::to_ir::{DEFAULT_BLEND_MS, seconds};

/// Seconds → milliseconds, clamped to what a u32 holds.
pub(crate) fn millis(t: f32) -> u32 {
    (f64::from(t) * 1000.0).round().clamp(0.0, f64::from(u32::MAX)) as u32
}

/// How far from 1 a scale key may be and still be no scale at all (an editor's rounding).
const SCALE_NOISE: f32 = 1e-4;

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
                // An editor writes unit scales back as 1 ± a few 1e-7: those are no scale.
                scale |= v.iter().any(|s| s.iter().any(|c| (c - 1.0).abs() > SCALE_NOISE));
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

/// The key times (ms) of an animation: every channel key, every event and `extra` time (none for
/// an animation without any). Reports keys that fall on the same millisecond or before 0.
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

// ---------------------------------------------------------------------------------------------
// v9–v13 animations
// ---------------------------------------------------------------------------------------------

/// Dims of an animation without stored ones: the half-extents of its box, else of the bind-pose
/// mesh.
fn animation_dims(anim: &Animation, mesh_dims: [f32; 3], frame: Frame) -> [f32; 3] {
    match &anim.bounds {
        Some(b) => {
            let (p, q) = (frame.vector_from_ir(b.min), frame.vector_from_ir(b.max));
            math::zip3(p, q, |a, b| (a - b).abs() / 2.0)
        }
        None => mesh_dims,
    }
}

/// Half-extents of the full-detail bind-pose mesh, for animations without stored dims.
fn computed_dims(model: &Model, frame: Frame) -> [f32; 3] {
    let mut d = [0.0f32; 3];
    for mesh in model.meshes.iter().filter(|m| m.lod.level == 0) {
        for p in &mesh.positions {
            for (dc, pc) in d.iter_mut().zip(frame.vector_from_ir(*p)) {
                *dc = dc.max(pc.abs());
            }
        }
    }
    d
}

/// The v9–v13 animations: every node keyed at every key time (the model's channels sampled).
pub(super) fn build_animations(
    model: &Model,
    sk: &Skeleton,
    version: u32,
    ex: Option<&V12Extras>,
    frame: Frame,
    losses: &mut Vec<Loss>,
) -> Vec<FileAnimation> {
    let dims = computed_dims(model, frame);
    let mut out = Vec::with_capacity(model.animations.len());
    for (a, anim) in model.animations.iter().enumerate() {
        let stored = ex.and_then(|x| {
            x.animations
                .get(a)
                .filter(|s| s.name == anim.name)
                .or_else(|| x.animations.iter().find(|s| s.name == anim.name))
        });
        // A clip a tool baked (Blender keys every frame) goes back to the stored key times while
        // they still carry it (`resample`).
        let rekeyed = stored.and_then(|s| {
            let own = key_times(anim, &[], &mut Vec::new());
            super::resample::rekeyed_or_noted(anim, &own, &s.times, losses)
        });
        let mut anim = rekeyed.as_ref().unwrap_or(anim);
        // A clip without channels (a file without nodes) keeps its key times in the extras.
        let stored_times = stored.filter(|_| anim.channels.is_empty()).map_or(&[][..], |s| s.times.as_slice());
        let extra: Vec<f32> = stored_times.iter().map(|&t| seconds(t)).collect();
        let mut times = key_times(anim, &extra, losses);
        // Keys a tool baked are reduced, unless they are the clip's stored key times (a clip as
        // the file stored it keeps its keys, and is not searched for keys to drop); corners
        // between the tool's frames become keys again (`corners`).
        let as_stored = stored.is_some_and(|s| s.times == times);
        let mut recornered = None;
        if rekeyed.is_none() && !as_stored && super::resample::looks_baked(&times) {
            let (reduced, rebuilt) = super::corners::reduced(anim, &times);
            times = reduced;
            recornered = rebuilt;
        }
        if let Some(rebuilt) = &recornered {
            anim = rebuilt;
        }
        let element = || format!("animations[{a}] {:?}", anim.name);
        let tracks = bone_tracks(model, anim, losses);
        let duration = millis(anim.duration);
        if times.last().is_some_and(|&l| duration > l) {
            times.push(duration);
        } else if times.last().is_some_and(|&l| duration < l) {
            losses
                .push(Loss::new(element(), "duration shorter than the last key: ABC animations end at their last key"));
        }
        if !anim.morph_channels.is_empty() {
            losses.push(Loss::new(element(), "morph channels dropped (v9–v13 has no vertex animation)"));
        }
        let mut commands = key_commands(anim, losses);
        let keyframes: Vec<Keyframe> = times
            .iter()
            // A key without an event has the empty command string, as the files store it.
            .map(|&t| Keyframe { time: t, command: len_string(&commands.remove(&t).unwrap_or_default()) })
            .collect();
        let mut transforms = Vec::with_capacity(sk.tree.nodes.len() * times.len());
        for n in 0..sk.tree.nodes.len() {
            let bone = sk.tree.bone(model, n);
            let tr = sk.tree.nodes.get(n).copied().flatten().and_then(|b| tracks.get(b));
            for &t in &times {
                let local = sample_local(bone, tr, t as f32 / 1000.0);
                transforms.push(NodeKey {
                    translation: frame.vector_from_ir(local.translation),
                    rotation: frame.quat_from_ir(local.rotation),
                });
            }
        }
        let tracks = if version >= 13 {
            v13_tracks(transforms, stored, sk.tree.nodes.len(), times.len())
        } else {
            Tracks { transforms, v13: Vec::new() }
        };
        let blend = millis(anim.blend_in);
        // The count form has no interpolation time: kept while the blend is the default, else
        // the −1 form stores it (v ≥ 12).
        let form = match stored.map(|s| s.key_count_form) {
            Some(KeyCountForm::InMarker) if version < 12 || blend == DEFAULT_BLEND_MS => KeyCountForm::InMarker,
            _ => KeyCountForm::AfterMarker,
        };
        if version < 12 && blend != DEFAULT_BLEND_MS {
            losses.push(Loss::new(element(), format!("blend-in time {blend} ms not stored before v12")));
        }
        out.push(FileAnimation {
            dims: stored.map_or_else(|| animation_dims(anim, dims, frame), |s| s.dims),
            name: stored_name(element, &anim.name, losses),
            key_count_form: form,
            interpolation_time: (version >= 12 && form == KeyCountForm::AfterMarker).then_some(blend),
            keyframes,
            tracks,
        });
    }
    out
}

/// v13 tracks: the transforms node by node, with the stored prefixes and key extras while their
/// counts still fit (else −1 and zeros, what the sources describe).
fn v13_tracks(transforms: Vec<NodeKey>, stored: Option<&AnimExtras>, nodes: usize, keys: usize) -> Tracks {
    let prefixes = stored.map(|s| s.node_prefixes.as_slice()).filter(|p| p.len() == nodes);
    let extras = stored.map(|s| s.key_extras.as_slice()).filter(|e| e.len() == transforms.len());
    // Without stored ones, a key's 8 extra bytes are zeros (abc.md §4.5: zeros in every known
    // file) and a track's prefix is −1.
    let mut keyed = transforms
        .iter()
        .enumerate()
        .map(|(i, &transform)| V13Key { transform, extra: extras.and_then(|e| e.get(i)).copied().unwrap_or_default() });
    let v13 = (0..nodes)
        .map(|n| V13Track {
            prefix: prefixes.and_then(|p| p.get(n)).copied().unwrap_or(-1),
            keys: keyed.by_ref().take(keys).collect(),
        })
        .collect();
    Tracks { transforms: Vec::new(), v13 }
}
