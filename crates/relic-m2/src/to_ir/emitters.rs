//! Particle and ribbon emitters → the model's emitters: where each sits on its bone, its
//! texture and base size, its tracks as keys per clip (for viewers), and its record whole
//! ([`EmitterRecord`], what the writers use).

use bytemuck::Pod;
use relic_core::math::sub3;
use relic_core::model::{Clock, Emitter, EmitterKind, EmitterTrack, Interpolation, TextureRef, Transform};

use super::animation::{Head, seconds};
use super::skeleton::pivot;
use crate::extras::EmitterRecord;
use crate::file::*;
use crate::frame::WARCRAFT;

/// The file's emitters, particles first (`particle 0`, …), then ribbons (`ribbon 0`, …).
/// `rank` maps a file bone to the model's; an emitter whose bone is out of range is left out
/// (the reader refuses such a file).
pub(super) fn emitters_to_ir(file: &M2File, rank: &[usize]) -> Vec<Emitter> {
    let particles = file.particle_emitters.iter().enumerate().filter_map(|(i, p)| {
        let bone = *rank.get(usize::from(p.bone))?;
        let textures: Vec<Texture> = file.textures.get(usize::from(p.texture)).cloned().into_iter().collect();
        // A particle reaches its size from its centre each way (WoW Model Viewer draws its quad
        // from −size to +size): the quad is twice the largest size wide.
        let largest = 2.0 * p.life.sizes.iter().fold(0f32, |a, s| a.max(s.abs()));
        let mut tracks = Vec::new();
        let mut add = |name: &str, t: &Track<f32>| tracks.extend(keys(file, name, t, |v| vec![*v]));
        for (name, track) in p.float_tracks() {
            add(name, track);
        }
        tracks.extend(keys(file, "enabled", &p.enabled_in, |v| vec![f32::from(*v)]));
        let record = EmitterRecord { particle: Some(p.clone()), textures, ..EmitterRecord::default() };
        Some(emitter(file, EmitterKind::Particle, i, bone, p.bone.into(), p.position, largest, tracks, record))
    });
    let ribbons = file.ribbon_emitters.iter().enumerate().filter_map(|(i, r)| {
        let bone = *rank.get(r.bone as usize)?;
        let textures: Vec<Texture> =
            r.textures.iter().map_while(|&t| file.textures.get(usize::from(t)).cloned()).collect();
        let render_flags: Vec<RenderFlag> =
            r.materials.iter().map_while(|&m| file.render_flags.get(usize::from(m)).copied()).collect();
        // A height track without keys states no height: 0 (the record keeps the track as stored).
        let first = |t: &Track<f32>| t.values.first().copied().unwrap_or(0.0).abs();
        let height = first(&r.height_above) + first(&r.height_below);
        let mut tracks = keys(file, "color", &r.color.color, |v| v.to_vec());
        tracks.extend(keys(file, "alpha", &r.color.alpha, |v| vec![f32::from(*v) / 32767.0]));
        tracks.extend(keys(file, "height_above", &r.height_above, |v| vec![*v]));
        tracks.extend(keys(file, "height_below", &r.height_below, |v| vec![*v]));
        tracks.extend(keys(file, "texture_slot", &r.texture_slot, |v| vec![f32::from(*v)]));
        tracks.extend(keys(file, "visibility", &r.visibility, |v| vec![f32::from(*v)]));
        let record = EmitterRecord { ribbon: Some(r.clone()), textures, render_flags, ..EmitterRecord::default() };
        Some(emitter(file, EmitterKind::Ribbon, i, bone, i64::from(r.bone), r.position, height, tracks, record))
    });
    particles.chain(ribbons).collect()
}

/// Gives the emitters of a model read from a Wrath file (`emitters_to_ir` of its 256–263 form,
/// particles then ribbons in file order) the records of that file.
pub(super) fn attach_wrath(emitters: &mut [Emitter], wrath: &crate::file::wrath::WrathFile) {
    let mut particles = wrath.particle_emitters.iter();
    let mut ribbons = wrath.ribbon_emitters.iter();
    for e in emitters {
        let Some(mut record) = e.record.as_ref().and_then(|r| r.get::<EmitterRecord>()).cloned() else { continue };
        match e.kind {
            EmitterKind::Particle => record.wrath_particle = particles.next().cloned(),
            EmitterKind::Ribbon => record.wrath_ribbon = ribbons.next().cloned(),
        }
        e.record = Some(record.attach());
    }
}

/// One emitter of the model (`file_bone` is the file's index of its bone, `position` in model
/// space as the file stores it).
#[allow(clippy::too_many_arguments)]
fn emitter(
    file: &M2File,
    kind: EmitterKind,
    index: usize,
    bone: usize,
    file_bone: i64,
    position: [f32; 3],
    size: f32,
    tracks: Vec<EmitterTrack>,
    record: EmitterRecord,
) -> Emitter {
    let texture = record.textures.first().map(|t| TextureRef {
        path: t.filename_text(),
        replaceable: (t.kind != 0).then_some(t.kind),
        uv_set: Some(0),
        wrap_u: t.flags & 1 != 0,
        wrap_v: t.flags & 2 != 0,
        ..TextureRef::default()
    });
    Emitter {
        kind,
        name: format!("{} {index}", kind.as_str()),
        bone,
        transform: Transform {
            translation: WARCRAFT.vector_to_ir(sub3(position, pivot(file, file_bone))),
            ..Transform::IDENTITY
        },
        texture,
        // A size of 0 (or not a number) would draw nothing: one unit instead.
        size: if size.is_finite() && size > 0.0 { size } else { 1.0 },
        tracks,
        record: Some(record.attach()),
    }
}

/// A value with every number that is not finite (NaN, ±∞: the game keeps them) replaced by 0,
/// the finite stand-in the model and glTF carry; the record keeps the bits (`tolerated` notes
/// how many).
fn finite(mut v: Vec<f32>) -> Vec<f32> {
    for x in &mut v {
        if !x.is_finite() {
            *x = 0.0;
        }
    }
    v
}

/// The keys of one track per clip that it animates (one list for a global-sequence track or one
/// without ranges), each value as `to_floats` gives it. Hermite and Bezier keys are given by
/// their values, linearly: the record keeps the tangents.
pub(super) fn keys<T: Pod>(
    file: &M2File,
    property: &str,
    track: &Track<T>,
    to_floats: fn(&T) -> Vec<f32>,
) -> Vec<EmitterTrack> {
    let head = Head::of(track);
    let per_key = head.per_key().max(1);
    let clips: Vec<Option<usize>> =
        if head.shared() { vec![None] } else { (0..file.sequences.len()).map(Some).collect() };
    clips
        .into_iter()
        .filter_map(|clip| {
            // A shared track (global sequence or no ranges) has one list of keys, asked for as range 0.
            let (range, clock) = head.keys_for(clip.unwrap_or(0))?;
            let start = match (clip, clock) {
                (Some(s), Clock::Animation) => file.sequences.get(s).map_or(0, |q| i64::from(q.start)),
                _ => 0,
            };
            let times: Vec<f32> =
                track.timestamps.get(range.clone())?.iter().map(|&t| seconds(i64::from(t) - start)).collect();
            let values: Vec<Vec<f32>> =
                range.filter_map(|k| track.values.get(k * per_key).map(|v| finite(to_floats(v)))).collect();
            let components = values.first().map_or(1, Vec::len);
            let interpolation =
                if track.interpolation == INTERPOLATION_NONE { Interpolation::Step } else { Interpolation::Linear };
            let strictly_increasing = times.windows(2).all(|w| matches!(w, [a, b] if a < b));
            (strictly_increasing && values.len() == times.len() && !times.is_empty()).then(|| EmitterTrack {
                property: property.into(),
                animation: clip,
                clock,
                interpolation,
                times,
                components,
                values: values.concat(),
            })
        })
        .collect()
}
