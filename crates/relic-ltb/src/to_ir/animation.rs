//! Animations → clips: one translation and one rotation channel per node; vertex tracks → morph
//! targets of the vertex-animated meshes they drive.

use relic_core::math::{self, Mat4};
use relic_core::model::{
    Animation, Channel, ChannelValues, Clock, Event, Interpolation, Model, MorphChannel, MorphTarget,
};
use relic_lithtech::frame::LITHTECH;

use crate::file::{LtbFile, PositionKeys, RenderObject, RotationKeys, Track, VertexAnimatedMesh};
use crate::quantize;

/// Milliseconds → seconds.
pub(crate) fn seconds(ms: u32) -> f32 {
    ms as f32 / 1000.0
}

/// Key times in seconds, strictly increasing as the model needs them: a key on the same
/// millisecond as the one before it (`postfire` has two keys at 0) is placed at the next float
/// after it.
pub(crate) fn key_seconds(ms: impl Iterator<Item = u32>) -> Vec<f32> {
    let mut out: Vec<f32> = Vec::new();
    for t in ms {
        let s = seconds(t);
        out.push(match out.last() {
            Some(&before) if s <= before => before.next_up(),
            _ => s,
        });
    }
    out
}

/// A track's positions and rotations as the engine reads them: per key, or one value for every
/// key, the identity where none is stored (ltb.md §9.3), in the file's frame.
pub(crate) fn track_values(track: &Track) -> (Vec<[f32; 3]>, Vec<[f32; 4]>) {
    match track {
        Track::Transform { positions, rotations } => (positions.clone(), rotations.clone()),
        Track::Vertex { .. } => (vec![[0.0; 3]], vec![[0.0, 0.0, 0.0, 1.0]]),
        Track::Compressed { positions, rotations } => {
            let mut p: Vec<[f32; 3]> = match positions {
                PositionKeys::Full(v) => v.clone(),
                PositionKeys::Short(v) => v.iter().map(|&x| quantize::position(x)).collect(),
            };
            let mut r: Vec<[f32; 4]> = match rotations {
                RotationKeys::Full(v) => v.clone(),
                RotationKeys::Short(v) => v.iter().map(|&x| quantize::rotation(x)).collect(),
            };
            if p.is_empty() {
                p.push([0.0; 3]);
            }
            if r.is_empty() {
                r.push([0.0, 0.0, 0.0, 1.0]);
            }
            (p, r)
        }
    }
}

/// A stored rotation as the model needs it: as stored while its length is within
/// [`relic_core::validate::UNIT_TOLERANCE`] of 1 (bit for bit), else normalised (PV-M82A1's
/// uncompressed keys go down to 0.992; the engine does not renormalise, the model's rotations
/// are unit), the identity for a zero quaternion. The stored values stay in the extras.
pub(crate) fn unit(q: [f32; 4]) -> [f32; 4] {
    let length = math::quat_norm(q);
    if (length - 1.0).abs() <= relic_core::validate::UNIT_TOLERANCE {
        q
    } else if length > 0.0 && length.is_finite() {
        q.map(|c| c / length)
    } else {
        [0.0, 0.0, 0.0, 1.0]
    }
}

fn channel(bone: usize, times: &[f32], values: ChannelValues) -> Channel {
    // One stored value holds for the whole clip: one key.
    let keys = if values.len() == 1 { 1 } else { times.len() };
    let times = times.iter().take(keys).copied().collect();
    Channel { bone, clock: Clock::Animation, interpolation: Interpolation::Linear, times, values }
}

/// Every animation of the file.
pub(super) fn animations(file: &LtbFile, binds: &[Mat4], model: &mut Model) {
    for anim in &file.animations {
        let times = key_seconds(anim.keyframes.iter().map(|k| k.time));
        let mut channels = Vec::with_capacity(2 * anim.tracks.len());
        if !times.is_empty() {
            for (n, track) in anim.tracks.iter().enumerate() {
                let (p, r) = track_values(track);
                let p = p.iter().map(|&v| LITHTECH.vector_to_ir(v)).collect();
                let r = r.iter().map(|&q| LITHTECH.quat_to_ir(unit(q))).collect();
                channels.push(channel(n, &times, ChannelValues::Translation(p)));
                channels.push(channel(n, &times, ChannelValues::Rotation(r)));
            }
        }
        let events = anim
            .keyframes
            .iter()
            .zip(&times)
            .filter(|(k, _)| !k.command.0.is_empty())
            .map(|(k, &time)| Event { time, name: k.command.to_text(), ..Event::default() })
            .collect();
        model.animations.push(Animation {
            name: anim.name.to_text(),
            // A clip without keyframes lasts 0 seconds.
            duration: times.last().copied().unwrap_or(0.0),
            looping: false,
            blend_in: seconds(anim.interpolation_ms),
            channels,
            morph_channels: Vec::new(),
            events,
            bounds: None,
            key_bounds: Vec::new(),
        });
    }
    vertex_animation(file, binds, model);
}

/// The vertex-animated meshes: one morph target per key of every animation whose track of the
/// mesh's animation node is a vertex track, and a morph channel per such animation that shows
/// its keys' targets in turn (linear between them, as the engine interpolates the positions).
fn vertex_animation(file: &LtbFile, binds: &[Mat4], model: &mut Model) {
    let lods = file.pieces.iter().flat_map(|p| &p.lods);
    for (index, lod) in lods.enumerate() {
        let RenderObject::VertexAnimated(va) = &lod.object else { continue };
        let Some(mesh) = model.meshes.get_mut(index) else { continue };
        if mesh.positions.is_empty() {
            continue;
        }
        let place = binds.get(va.bone_effector as usize).copied().unwrap_or(math::IDENTITY);
        let mut spans = Vec::new();
        for (a, anim) in file.animations.iter().enumerate() {
            let Some(Track::Vertex { counts, positions, .. }) = anim.tracks.get(va.anim_node as usize) else {
                continue;
            };
            let first = mesh.morph_targets.len();
            let mut rest: &[[f32; 3]] = positions;
            for (k, &c) in counts.iter().enumerate() {
                let (frame, after) = rest.split_at((c as usize).min(rest.len()));
                rest = after;
                let name = format!("{} {k}", anim.name.to_text());
                mesh.morph_targets.push(target(name, frame, va, &mesh.positions, &place));
            }
            spans.push((a, first, counts.len()));
        }
        let targets = mesh.morph_targets.len();
        for (a, first, keys) in spans {
            let (Some(clip), Some(anim)) = (model.animations.get_mut(a), file.animations.get(a)) else { continue };
            let times = key_seconds(anim.keyframes.iter().map(|k| k.time));
            let mut weights = vec![0.0f32; times.len() * targets];
            for k in 0..keys.min(times.len()) {
                if let Some(w) = weights.get_mut(k * targets + first + k) {
                    *w = 1.0;
                }
            }
            clip.morph_channels.push(MorphChannel {
                mesh: index,
                interpolation: Interpolation::Linear,
                times,
                weights,
            });
        }
    }
}

/// The offsets of one key's positions from the reference vertices (model frame).
fn target(
    name: String,
    frame: &[[f32; 3]],
    va: &VertexAnimatedMesh,
    reference: &[[f32; 3]],
    place: &Mat4,
) -> MorphTarget {
    let mut deltas = vec![[0.0f32; 3]; reference.len()];
    let undup = (va.undup_vertex_count as usize).min(reference.len());
    for (d, (p, r)) in deltas.iter_mut().zip(frame.iter().zip(reference)).take(undup) {
        let moved = math::transform_point(place, LITHTECH.vector_to_ir(*p));
        *d = math::sub3(moved, *r);
    }
    for &[src, dst] in &va.dups {
        if let Some(&d) = deltas.get(usize::from(src))
            && let Some(slot) = deltas.get_mut(usize::from(dst))
        {
            *slot = d;
        }
    }
    MorphTarget { name, position_deltas: deltas, normal_deltas: Vec::new() }
}
