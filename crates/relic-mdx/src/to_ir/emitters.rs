//! PREM, PRE2 and RIBB → the model's emitters (spec §4.14–§4.17). Every MDX node is a bone of
//! the model already: an emitter sits on its own node's bone, with an identity transform (the
//! node's pivot is the bone's place). Its texture, base size and animated parameters are given for
//! viewers; its record ([`EmitterRecord`]) is what the writers use.

use std::collections::HashMap;

use relic_core::model::{Clock, Emitter, EmitterKind, EmitterTrack, Interpolation, TextureRef, Transform};

use super::mesh::REPLACEABLE_IDS;
use super::{NodeRef, Skeleton, seconds};
use crate::emitter_record::{EmitterChunk, EmitterRecord};
use crate::file::*;

/// PRE2's tracks by tag, under the names the model carries them by.
const PRE2_TRACKS: [(&[u8; 4], &str); 8] = [
    (b"KP2S", "speed"),
    (b"KP2R", "variation"),
    (b"KP2L", "latitude"),
    (b"KP2G", "gravity"),
    (b"KP2E", "emission_rate"),
    (b"KP2N", "width"),
    (b"KP2W", "length"),
    (b"KP2V", "visibility"),
];
/// RIBB's tracks by tag.
const RIBB_TRACKS: [(&[u8; 4], &str); 6] = [
    (b"KRHA", "height_above"),
    (b"KRHB", "height_below"),
    (b"KRAL", "alpha"),
    (b"KRCO", "color"),
    (b"KRTX", "texture_slot"),
    (b"KRVS", "visibility"),
];
/// PREM's tracks by tag.
const PREM_TRACKS: [(&[u8; 4], &str); 7] = [
    (b"KPEE", "emission_rate"),
    (b"KPEG", "gravity"),
    (b"KPLN", "longitude"),
    (b"KPLT", "latitude"),
    (b"KPEL", "life_span"),
    (b"KPES", "speed"),
    (b"KPEV", "visibility"),
];

/// What the emitters are read with: the file's tables and clocks.
pub(super) struct Context<'a> {
    /// The file.
    pub(super) file: &'a MdxFile,
    /// Its nodes, in file order.
    pub(super) nodes: &'a [NodeRef<'a>],
    /// The model's bone of each node.
    pub(super) sk: &'a Skeleton,
    /// SEQS.
    pub(super) sequences: &'a [&'a Sequence],
    /// GLBS.
    pub(super) globals: usize,
}

/// The file's emitters in file order (PREM, PRE2, RIBB as the chunks come); CORN is not one of
/// them ([`popcorn_loss`]).
pub(super) fn emitters_to_ir(cx: &Context<'_>) -> Vec<Emitter> {
    let node_index: HashMap<*const Node, usize> =
        cx.nodes.iter().enumerate().map(|(i, r)| (std::ptr::from_ref(r.node), i)).collect();
    let textures = table(cx.file, |c| if let Chunk::Textures(t) = c { Some(t) } else { None });
    let materials = table(cx.file, |c| if let Chunk::Materials(m) = c { Some(m) } else { None });
    let texture_at = |id: i32| usize::try_from(id).ok().and_then(|i| textures.get(i)).map(|t| (*t).clone());
    let mut out = Vec::new();
    for chunk in &cx.file.chunks {
        let records: Vec<(EmitterChunk, &Node)> = match chunk {
            Chunk::ParticleEmitters(v) => v.iter().map(|e| (EmitterChunk::Prem(e.clone()), &e.node)).collect(),
            Chunk::ParticleEmitters2(v) => v.iter().map(|e| (EmitterChunk::Pre2(e.clone()), &e.node)).collect(),
            Chunk::RibbonEmitters(v) => v.iter().map(|e| (EmitterChunk::Ribbon(e.clone()), &e.node)).collect(),
            _ => continue,
        };
        for (emitter, original) in records {
            let Some(bone) = node_index.get(&std::ptr::from_ref(original)).and_then(|&i| cx.sk.rank.get(i)) else {
                continue;
            };
            let (textures, material) = match &emitter {
                EmitterChunk::Pre2(p) => (texture_at(p.texture_id).into_iter().collect(), None),
                EmitterChunk::Ribbon(r) => {
                    let material = usize::try_from(r.material_id).ok().and_then(|i| materials.get(i));
                    own_material(material.copied(), &texture_at)
                }
                EmitterChunk::Prem(_) => (Vec::new(), None),
            };
            let timed = emitter.tracks().iter().any(|t| t.global_sequence_id == -1 && !t.keys.is_empty());
            let sequences = if timed { cx.sequences.iter().map(|s| (*s).clone()).collect() } else { Vec::new() };
            let record = EmitterRecord { version: cx.file.version(), emitter, textures, material, sequences };
            out.push(emitter_of(cx, *bone, record));
        }
    }
    out
}

/// The records of every chunk `pick` takes, in file order (TEXS, MTLS: indices count across
/// chunks).
fn table<T>(file: &MdxFile, pick: fn(&Chunk) -> Option<&Vec<T>>) -> Vec<&T> {
    file.chunks.iter().filter_map(pick).flatten().collect()
}

/// A ribbon's material with its layers' textures numbered in their own list, and that list.
fn own_material(
    material: Option<&Material>,
    texture_at: &dyn Fn(i32) -> Option<Texture>,
) -> (Vec<Texture>, Option<Material>) {
    let Some(m) = material else { return (Vec::new(), None) };
    let mut m = m.clone();
    let mut textures = Vec::new();
    for layer in &mut m.layers {
        if let Some(t) = texture_at(layer.texture_id) {
            textures.push(t);
            layer.texture_id = textures.len() as i32 - 1;
        } else {
            // Out of the file's table: out of the record's too.
            layer.texture_id = -1;
        }
    }
    (textures, Some(m))
}

/// The model's emitter of one record on `bone`.
fn emitter_of(cx: &Context<'_>, bone: usize, record: EmitterRecord) -> Emitter {
    let first = record.textures.first();
    let (kind, texture, size, tracks) = match &record.emitter {
        EmitterChunk::Pre2(p) => {
            let mut texture = first.map(texture_ref);
            if let Some(t) = texture.as_mut().filter(|t| t.replaceable.is_none()) {
                t.replaceable = REPLACEABLE_IDS.contains(&p.replaceable_id).then_some(p.replaceable_id);
            }
            // The segment scaling is the particle's size in the world as the game draws it.
            let size = p.segment_scaling.iter().fold(0f32, |a, s| a.max(s.abs()));
            (EmitterKind::Particle, texture, size, tracks(cx, &p.tracks, &PRE2_TRACKS))
        }
        EmitterChunk::Ribbon(r) => {
            let size = r.height_above + r.height_below;
            (EmitterKind::Ribbon, first.map(texture_ref), size, tracks(cx, &r.tracks, &RIBB_TRACKS))
        }
        EmitterChunk::Prem(p) => {
            let path = p.path.to_text();
            let texture = (!path.is_empty()).then(|| TextureRef { path, uv_set: Some(0), ..TextureRef::default() });
            // No size of its own: how far a particle flies in its life.
            let size = p.init_velocity.abs() * p.life_span.abs();
            (EmitterKind::Particle, texture, size, tracks(cx, &p.tracks, &PREM_TRACKS))
        }
    };
    Emitter {
        kind,
        name: record.emitter.node().name.to_text(),
        bone,
        transform: Transform::IDENTITY,
        texture,
        // A size of 0 (or not a number) would draw nothing: one unit instead.
        size: if size.is_finite() && size > 0.0 { size } else { 1.0 },
        tracks,
        record: Some(record.attach()),
    }
}

/// A ribbon record's material as the model holds it (named `material 0`), if it has one.
pub(crate) fn ribbon_material(r: &EmitterRecord) -> Option<relic_core::model::Material> {
    let m = r.material.clone()?;
    let file = MdxFile { chunks: vec![Chunk::Textures(r.textures.clone()), Chunk::Materials(vec![m])] };
    super::mesh::materials(&file).into_iter().next()
}

/// A TEXS texture as the model's materials name it (replaceable ids the game knows kept).
pub(super) fn texture_ref(t: &Texture) -> TextureRef {
    TextureRef {
        path: t.path.to_text(),
        replaceable: REPLACEABLE_IDS.contains(&t.replaceable_id).then_some(t.replaceable_id),
        uv_set: Some(0),
        wrap_u: t.flags & 1 != 0,
        wrap_v: t.flags & 2 != 0,
        ..TextureRef::default()
    }
}

/// The record's tracks of the tags `names` lists, each as keys per sequence it has keys in (one
/// list on its global sequence's clock for a global one). Times as the bone channels': seconds
/// from the sequence's start. Hermite and Bezier keys are given by their values, linearly (the
/// record keeps the tangents); colours as red, green, blue (MDX stores blue first, §8.6).
fn tracks(cx: &Context<'_>, list: &[Track], names: &[(&[u8; 4], &str)]) -> Vec<EmitterTrack> {
    let mut out = Vec::new();
    for t in list {
        let Some((_, name)) = names.iter().find(|(tag, _)| **tag == t.tag.0) else { continue };
        let values: Vec<(i32, Vec<f32>)> = match &t.keys {
            Keys::Int(k) => k.iter().map(|k| (k.frame, vec![k.value as f32])).collect(),
            Keys::Float(k) => k.iter().map(|k| (k.frame, vec![k.value])).collect(),
            Keys::Vec3(k) => k.iter().map(|k| (k.frame, vec![k.value[2], k.value[1], k.value[0]])).collect(),
            Keys::Quat(k) => k.iter().map(|k| (k.frame, k.value.to_vec())).collect(),
        };
        let interpolation = if t.interpolation == DONT_INTERP { Interpolation::Step } else { Interpolation::Linear };
        let global = usize::try_from(t.global_sequence_id).ok();
        let clips: Vec<(Option<usize>, Clock, i64, i64)> = match global {
            Some(g) if g < cx.globals => vec![(None, Clock::Global(g), i64::MIN, i64::MAX)],
            Some(_) => Vec::new(),
            None => cx
                .sequences
                .iter()
                .enumerate()
                .map(|(i, s)| (Some(i), Clock::Animation, i64::from(s.interval_start), i64::from(s.interval_end)))
                .collect(),
        };
        for (animation, clock, start, end) in clips {
            let mut keys: Vec<&(i32, Vec<f32>)> =
                values.iter().filter(|(f, _)| (start..=end).contains(&i64::from(*f))).collect();
            keys.sort_by_key(|(f, _)| *f);
            // A key repeated at one frame keeps its first value, as the bone channels'.
            keys.dedup_by_key(|(f, _)| *f);
            if keys.is_empty() {
                continue;
            }
            let base = if global.is_some() { 0 } else { start };
            out.push(EmitterTrack {
                property: (*name).into(),
                animation,
                clock,
                interpolation,
                times: keys.iter().map(|(f, _)| seconds(i64::from(*f) - base)).collect(),
                components: keys.first().map_or(1, |(_, v)| v.len()),
                values: keys.iter().flat_map(|(_, v)| v.iter().map(|x| if x.is_finite() { *x } else { 0.0 })).collect(),
            });
        }
    }
    out
}

/// CORN (PopcornFX) emitters name an effect file the model cannot show: kept as nodes only.
pub(super) fn popcorn_loss(file: &MdxFile) -> Option<relic_core::Loss> {
    let n: usize = file.chunks.iter().map(|c| if let Chunk::PopcornEmitters(v) = c { v.len() } else { 0 }).sum();
    (n > 0).then(|| {
        relic_core::Loss::new(
            "CORN",
            format!(
                "{n} PopcornFX emitters (CORN): kept as nodes only; the model's emitters are particles and ribbons"
            ),
        )
    })
}
