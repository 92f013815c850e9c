//! The model's emitters as PREM, PRE2 and RIBB records (spec §4.14–§4.17).
//!
//! * An emitter on a bone of its own name, in the bone's place (as `to_ir` reads them), is that
//!   bone's node; any other gets a node of its own under its bone, at its place.
//! * An emitter that carries an MDX record ([`EmitterRecord`]) is written as that record, its
//!   node (object id, parent, flags of inheritance and billboarding, KGTR/KGRT/KGSC) the model's,
//!   the texture (PRE2) or material (RIBB) it names added to TEXS or MTLS when the ones built from
//!   the model hold no equal one.
//! * Any other is built from the model: a PRE2 for particles, a RIBB for ribbons, its parameters
//!   from the emitter's tracks where the names map (MDX's own and M2's), its texture added to TEXS
//!   (a ribbon's in a material of its own), game defaults for the rest; the rest noted.

use std::collections::BTreeMap;

use relic_core::Loss;
use relic_core::model::{Clock, Emitter, EmitterKind, EmitterTrack, Interpolation, Model, TextureRef};

use super::animation::Timeline;
use super::names::{Names, fixed};
use super::skeleton::{Kind, Skeleton};
use crate::emitter_record::{EmitterChunk, EmitterRecord};
use crate::file::*;

/// The replaceable ids the game knows (as `to_ir` reads them).
const REPLACEABLE_IDS: [u32; 11] = [1, 2, 11, 21, 31, 32, 33, 34, 35, 36, 37];

impl Skeleton {
    /// Plans a node for every emitter: its bone's node when that bone is the emitter (its name,
    /// its place), else a node of its own under the bone.
    pub(super) fn plan_emitters(&mut self, model: &Model, losses: &mut Vec<Loss>) {
        let (mut added, mut turned) = (0usize, 0usize);
        for (k, e) in model.emitters.iter().enumerate() {
            let still = unmoved(&e.transform);
            let own = still && model.bones.get(e.bone).is_some_and(|b| b.name == e.name);
            match self.nodes.get_mut(e.bone) {
                Some(n) if own && n.kind == Kind::Helper => n.kind = Kind::Emitter(k),
                _ => {
                    turned += usize::from(self.add_under_bone(model, e.bone, &e.transform, &e.name, Kind::Emitter(k)));
                    added += 1;
                }
            }
        }
        if added > 0 {
            losses.push(Loss::new(
                "emitters",
                format!(
                    "{added} emitters are not a bone of their own: each is written as a node under its bone at its \
                     position (the model read back has a bone more for each)"
                ),
            ));
        }
        if turned > 0 {
            losses.push(Loss::new(
                "emitters",
                format!("{turned} emitters with a rotation or scale on their bone: an MDX node has a position only"),
            ));
        }
    }
}

/// Whether an emitter sits where its bone is, but for the float noise of a tool that rewrote it
/// (Blender gives a child of a bone back relative to the bone's tail and turns it back).
fn unmoved(t: &relic_core::model::Transform) -> bool {
    let near = |a: &[f32], b: &[f32], tol: f32| a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tol);
    near(&t.translation, &[0.0; 3], 1e-4)
        && near(&t.rotation, &[0.0, 0.0, 0.0, 1.0], 1e-5)
        && near(&t.scale, &[1.0; 3], 1e-5)
}

/// What the emitters are written into: the tables built from the model so far.
pub(super) struct Tables<'a> {
    /// MTLS.
    pub(super) materials: &'a mut Vec<Material>,
    /// TEXS.
    pub(super) textures: &'a mut Vec<Texture>,
    /// The clips' frames and the global sequences.
    pub(super) timeline: &'a Timeline,
    /// Names cut to their fields.
    pub(super) names: &'a mut Names,
}

/// What could not be carried, counted over the emitters.
#[derive(Default)]
struct Counts {
    /// Records of MDX that did not decode.
    unreadable: Vec<String>,
    /// Tracks whose name no MDX field takes.
    unmapped: BTreeMap<String, usize>,
    /// Cubic tracks written linear.
    cubic: usize,
    /// Emitters of another format's record, written from the model with game defaults.
    foreign: usize,
    /// Of those, M2 ones whose record gave what PRE2 and RIBB hold too.
    m2: usize,
    /// Reforged texture slots of a ribbon's material dropped.
    slots: usize,
    /// Keys of emitter records in no sequence of the model.
    off_clips: usize,
}

/// The PREM, PRE2 and RIBB chunks of the model's emitters on their planned nodes (`(emitter,
/// node)` in emitter order), in the file's chunk order.
pub(super) fn chunks(
    model: &Model,
    nodes: Vec<(usize, Node)>,
    t: &mut Tables<'_>,
    losses: &mut Vec<Loss>,
) -> Vec<Chunk> {
    let mut counts = Counts::default();
    let (mut prem, mut pre2, mut ribb) = (Vec::new(), Vec::new(), Vec::new());
    for (k, node) in nodes {
        let Some(e) = model.emitters.get(k) else { continue };
        let record = match EmitterRecord::of(e) {
            Some(Ok(r)) => Some(r),
            Some(Err(why)) => {
                counts.unreadable.push(format!("{:?}: {why}", e.name));
                None
            }
            None => None,
        };
        match record {
            Some(r) => match from_record(model, &r, node, t, &mut counts) {
                EmitterChunk::Prem(x) => prem.push(x),
                EmitterChunk::Pre2(x) => pre2.push(x),
                EmitterChunk::Ribbon(x) => ribb.push(x),
            },
            None => {
                match e.kind {
                    EmitterKind::Particle => {
                        let mut p = particle(e, node, t, &mut counts);
                        counts.m2 += usize::from(super::foreign::particle(e, &mut p));
                        pre2.push(p);
                    }
                    EmitterKind::Ribbon => {
                        let mut r = ribbon(e, node, t, &mut counts);
                        counts.m2 += usize::from(super::foreign::ribbon(e, &mut r));
                        ribb.push(r);
                    }
                }
                counts.foreign += usize::from(e.record.is_some());
            }
        }
    }
    counts.losses(losses);
    let chunks = [
        (!prem.is_empty()).then_some(Chunk::ParticleEmitters(prem)),
        (!pre2.is_empty()).then_some(Chunk::ParticleEmitters2(pre2)),
        (!ribb.is_empty()).then_some(Chunk::RibbonEmitters(ribb)),
    ];
    chunks.into_iter().flatten().collect()
}

/// The record with the model's node: the record's name kept while it reads as the node's, its
/// emitter flags (0x8000 on) kept beside the node's own. A ribbon's material is the model's
/// material that is it as the model sees it (the one of the record's index first), else the
/// record's, added.
fn from_record(
    model: &Model,
    r: &EmitterRecord,
    mut node: Node,
    t: &mut Tables<'_>,
    counts: &mut Counts,
) -> EmitterChunk {
    let old = r.emitter.node();
    if old.name.to_text() == node.name.to_text() {
        node.name = old.name;
    }
    node.flags = (node.flags & 0xff) | (old.flags & !0xff);
    let mut emitter = r.emitter.clone();
    retime(emitter.tracks_mut(), &r.sequences, t.timeline, counts);
    match &mut emitter {
        EmitterChunk::Prem(p) => p.node = node,
        EmitterChunk::Pre2(p) => {
            p.node = node;
            p.texture_id = r.textures.first().map_or(-1, |x| texture_index(t.textures, x));
        }
        EmitterChunk::Ribbon(x) => {
            x.node = node;
            let seen = crate::to_ir::ribbon_material(r);
            let same = |i: usize| {
                let (a, b) = (model.materials.get(i), seen.as_ref());
                a.zip(b).is_some_and(|(a, b)| {
                    (&a.textures, a.blend, a.double_sided, a.unlit, a.unfogged, a.depth_write)
                        == (&b.textures, b.blend, b.double_sided, b.unlit, b.unfogged, b.depth_write)
                })
            };
            let kept = usize::try_from(x.material_id).ok().filter(|&i| same(i));
            x.material_id = match kept.or_else(|| (0..model.materials.len()).find(|&i| same(i))) {
                Some(i) => i as i32,
                None => r.material.as_ref().map_or(-1, |m| material_index(m, &r.textures, t, counts)),
            };
        }
    }
    emitter
}

/// A sequence's first and last frame.
type Interval = (i64, i64);

/// Moves the keys of the record's tracks that lie in a sequence of its file (`sequences`) with that
/// sequence to where the model's clip of its name is now; keys of no sequence still in the model
/// are dropped (counted). Tracks on a global sequence stay as they are.
fn retime(tracks: &mut [Track], sequences: &[Sequence], tl: &Timeline, counts: &mut Counts) {
    // Each old sequence: its interval and the new one of its name.
    let moves: Vec<(i64, i64, Option<Interval>)> = sequences
        .iter()
        .map(|s| {
            let name = s.name.to_text();
            let now = tl.sequences.iter().position(|n| n.name.to_text() == name);
            let new = now.and_then(|j| tl.starts.get(j).copied().zip(tl.ends.get(j).copied()));
            (i64::from(s.interval_start), i64::from(s.interval_end), new)
        })
        .collect();
    let to = |frame: i32| -> Option<i32> {
        let f = i64::from(frame);
        let (start, _, new) = moves.iter().find(|(a, b, _)| (*a..=*b).contains(&f))?;
        let (new_start, new_end) = (*new)?;
        i32::try_from((new_start + (f - start)).min(new_end)).ok()
    };
    fn move_keys<T: Value>(keys: &mut Vec<Key<T>>, to: &dyn Fn(i32) -> Option<i32>) -> usize {
        let before = keys.len();
        let mut moved = false;
        keys.retain_mut(|k| match to(k.frame) {
            Some(f) => {
                moved |= f != k.frame;
                k.frame = f;
                true
            }
            None => false,
        });
        if moved {
            keys.sort_by_key(|k| k.frame);
        }
        before - keys.len()
    }
    for t in tracks.iter_mut().filter(|t| t.global_sequence_id == -1) {
        counts.off_clips += match &mut t.keys {
            Keys::Int(k) => move_keys(k, &to),
            Keys::Float(k) => move_keys(k, &to),
            Keys::Vec3(k) => move_keys(k, &to),
            Keys::Quat(k) => move_keys(k, &to),
        };
    }
}

/// The index of `texture` in TEXS, added when TEXS has no equal record.
fn texture_index(textures: &mut Vec<Texture>, texture: &Texture) -> i32 {
    let at = textures.iter().position(|x| x == texture).unwrap_or_else(|| {
        textures.push(texture.clone());
        textures.len() - 1
    });
    at as i32
}

/// The index of a ribbon's material (its layers' textures numbered in `textures`) in MTLS, added
/// when MTLS has no equal material.
fn material_index(m: &Material, textures: &[Texture], t: &mut Tables<'_>, counts: &mut Counts) -> i32 {
    let mut m = m.clone();
    for layer in &mut m.layers {
        layer.texture_id = usize::try_from(layer.texture_id)
            .ok()
            .and_then(|i| textures.get(i))
            .map_or(-1, |x| texture_index(t.textures, x));
        counts.slots += usize::from(layer.slots.take().is_some());
    }
    let at = t.materials.iter().position(|x| *x == m).unwrap_or_else(|| {
        t.materials.push(m);
        t.materials.len() - 1
    });
    at as i32
}

/// A texture of the model as a TEXS record.
fn texture_of(r: &TextureRef, names: &mut Names) -> Texture {
    Texture {
        replaceable_id: r.replaceable.filter(|id| REPLACEABLE_IDS.contains(id)).unwrap_or(0),
        path: fixed(&r.path, names),
        flags: u32::from(r.wrap_u) | (u32::from(r.wrap_v) << 1),
    }
}

/// The emitter's tracks by the MDX field they animate: `(tag, names the model may give it)`.
type Fields = [(&'static [u8; 4], &'static [&'static str])];

/// PRE2's animated fields.
const PRE2_FIELDS: &Fields = &[
    (b"KP2S", &["speed", "emission_speed"]),
    (b"KP2R", &["variation", "speed_variation"]),
    (b"KP2L", &["latitude", "vertical_range"]),
    (b"KP2G", &["gravity"]),
    (b"KP2E", &["emission_rate"]),
    (b"KP2N", &["width", "emission_area_width"]),
    (b"KP2W", &["length", "emission_area_length"]),
    (b"KP2V", &["visibility", "enabled"]),
];
/// RIBB's animated fields.
const RIBB_FIELDS: &Fields = &[
    (b"KRHA", &["height_above"]),
    (b"KRHB", &["height_below"]),
    (b"KRAL", &["alpha"]),
    (b"KRCO", &["color"]),
    (b"KRTX", &["texture_slot"]),
    (b"KRVS", &["visibility"]),
];
/// The life span (no MDX track animates it), by the names the model may give it.
const LIFE_SPAN: &[&str] = &["life_span", "lifespan"];

/// The first value of the emitter's first track of one of `names` (its static value).
fn first(e: &Emitter, names: &[&str]) -> Option<f32> {
    e.tracks.iter().find(|t| names.contains(&t.property.as_str())).and_then(|t| value_at(t, 0)).map(|v| at(&v, 0))
}

/// Component `i` of a value (0 past its end).
fn at(v: &[f32], i: usize) -> f32 {
    v.get(i).copied().unwrap_or(0.0)
}

/// A colour of the model (red first) as MDX stores it, blue first (§8.6).
fn bgr(v: &[f32]) -> [f32; 3] {
    [at(v, 2), at(v, 1), at(v, 0)]
}

/// Key `k`'s value (the middle of a cubic key's three).
fn value_at(t: &EmitterTrack, k: usize) -> Option<Vec<f32>> {
    let n = t.components.max(1);
    let at = if t.interpolation == Interpolation::CubicSpline { (3 * k + 1) * n } else { k * n };
    t.values.get(at..at + n).map(<[f32]>::to_vec)
}

/// The tracks of `fields` from the emitter's tracks (the names that map); the other names
/// counted.
fn tracks_of(e: &Emitter, fields: &Fields, tl: &Timeline, counts: &mut Counts) -> Vec<Track> {
    let mut out = Vec::new();
    for (tag, names) in fields {
        let of: Vec<&EmitterTrack> = e.tracks.iter().filter(|t| names.contains(&t.property.as_str())).collect();
        if let Some(t) = track(**tag, &of, tl, counts) {
            out.push(t);
        }
    }
    let known = |p: &str| fields.iter().any(|(_, n)| n.contains(&p)) || LIFE_SPAN.contains(&p);
    for t in e.tracks.iter().filter(|t| !known(&t.property)) {
        *counts.unmapped.entry(t.property.clone()).or_default() += 1;
    }
    out
}

/// One MDX track from the model's keys of one parameter: a global one on its global sequence,
/// else each clip's keys at the clip's frames.
fn track(tag: [u8; 4], of: &[&EmitterTrack], tl: &Timeline, counts: &mut Counts) -> Option<Track> {
    let global = of.iter().find_map(|t| match t.clock {
        Clock::Global(g) if g < tl.globals.len() => Some((g, *t)),
        _ => None,
    });
    let mut keys: Vec<(i32, Vec<f32>)> = Vec::new();
    let mut step = true;
    let mut add = |t: &EmitterTrack, start: i64, end: i64, keys: &mut Vec<(i32, Vec<f32>)>| {
        step &= t.interpolation == Interpolation::Step;
        counts.cubic += usize::from(t.interpolation == Interpolation::CubicSpline);
        for (k, &time) in t.times.iter().enumerate() {
            let frame = start.saturating_add((f64::from(time) * 1000.0).round() as i64).clamp(start, end);
            if let Some(v) = value_at(t, k) {
                keys.push((frame.clamp(0, i64::from(i32::MAX)) as i32, v));
            }
        }
    };
    let global_sequence_id = match global {
        Some((g, t)) => {
            add(t, 0, i64::MAX, &mut keys);
            g as i32
        }
        None => {
            for t in of {
                let Some(a) = t.animation else { continue };
                let (Some(&start), Some(&end)) = (tl.starts.get(a), tl.ends.get(a)) else { continue };
                add(t, start, end, &mut keys);
            }
            -1
        }
    };
    keys.sort_by_key(|(f, _)| *f);
    keys.dedup_by_key(|(f, _)| *f);
    if keys.is_empty() {
        return None;
    }
    let keys = match value_kind(tag)? {
        ValueKind::Int => Keys::Int(
            keys.into_iter()
                .map(|(frame, v)| Key { frame, value: at(&v, 0).max(0.0) as u32, tangents: None })
                .collect(),
        ),
        ValueKind::Vec3 => {
            Keys::Vec3(keys.into_iter().map(|(frame, v)| Key { frame, value: bgr(&v), tangents: None }).collect())
        }
        _ => Keys::Float(keys.into_iter().map(|(frame, v)| Key { frame, value: at(&v, 0), tangents: None }).collect()),
    };
    let interpolation = if step { DONT_INTERP } else { LINEAR };
    Some(Track { tag: Tag(tag), interpolation, global_sequence_id, keys })
}

/// A PRE2 built from a particle emitter.
fn particle(e: &Emitter, mut node: Node, t: &mut Tables<'_>, counts: &mut Counts) -> ParticleEmitter2 {
    node.flags |= node_flags::PARTICLE_EMITTER;
    let texture = e.texture.as_ref().map(|r| texture_of(r, t.names));
    let get = |names: &[&str], default: f32| first(e, names).unwrap_or(default);
    ParticleEmitter2 {
        node,
        speed: get(&["speed", "emission_speed"], 0.0),
        variation: get(&["variation", "speed_variation"], 0.0),
        latitude: get(&["latitude", "vertical_range"], 0.0),
        gravity: get(&["gravity"], 0.0),
        life_span: get(LIFE_SPAN, 1.0),
        emission_rate: get(&["emission_rate"], 10.0),
        width: get(&["width", "emission_area_width"], 0.0),
        length: get(&["length", "emission_area_length"], 0.0),
        filter_mode: 0,
        rows: 1,
        columns: 1,
        head_or_tail: 0,
        tail_length: 0.0,
        time: 0.5,
        segment_color: [[1.0; 3]; 3],
        segment_alpha: [255, 255, 0],
        segment_scaling: [e.size; 3],
        head_intervals: [[0, 0, 1]; 2],
        tail_intervals: [[0, 0, 1]; 2],
        texture_id: texture.as_ref().map_or(-1, |x| texture_index(t.textures, x)),
        squirt: 0,
        priority_plane: 0,
        replaceable_id: texture.map_or(0, |x| x.replaceable_id),
        tracks: tracks_of(e, PRE2_FIELDS, t.timeline, counts),
    }
}

/// A RIBB built from a ribbon emitter, drawn with a material of its texture (one additive layer).
fn ribbon(e: &Emitter, mut node: Node, t: &mut Tables<'_>, counts: &mut Counts) -> RibbonEmitter {
    node.flags |= node_flags::RIBBON_EMITTER;
    let material_id = e.texture.as_ref().map_or(-1, |r| {
        let texture = texture_of(r, t.names);
        let layer = Layer {
            filter_mode: 2,
            shading_flags: 0x1 | 0x10,
            // The first of the textures `material_index` is given.
            texture_id: 0,
            texture_animation_id: -1,
            coord_id: 0,
            alpha: 1.0,
            emissive_gain: None,
            fresnel: None,
            slots: None,
            tracks: Vec::new(),
        };
        let m = Material { priority_plane: 0, flags: 0, shader: None, layers: vec![layer] };
        material_index(&m, &[texture], t, counts)
    });
    let get = |names: &[&str], default: f32| first(e, names).unwrap_or(default);
    let color = e
        .tracks
        .iter()
        .find(|x| x.property == "color" && x.components == 3)
        .and_then(|x| value_at(x, 0))
        .map_or([1.0; 3], |c| bgr(&c));
    RibbonEmitter {
        node,
        height_above: get(&["height_above"], e.size / 2.0),
        height_below: get(&["height_below"], e.size / 2.0),
        alpha: get(&["alpha"], 1.0),
        color,
        life_span: get(LIFE_SPAN, 1.0),
        texture_slot: get(&["texture_slot"], 0.0).max(0.0) as u32,
        emission_rate: get(&["emission_rate"], 10.0).max(0.0) as u32,
        rows: 1,
        columns: 1,
        material_id,
        gravity: get(&["gravity"], 0.0),
        tracks: tracks_of(e, RIBB_FIELDS, t.timeline, counts),
    }
}

impl Counts {
    fn losses(self, losses: &mut Vec<Loss>) {
        for why in &self.unreadable {
            losses.push(Loss::new(
                "emitters",
                format!("an MDX emitter record does not read ({why}): built from the model"),
            ));
        }
        if self.foreign > 0 {
            losses.push(Loss::new(
                "emitters",
                format!(
                    "{} emitters of another format written as PRE2/RIBB from the model's values ({} M2 ones with \
                     their colours, alpha and scale over life, blending, texture rows and columns; the game's \
                     defaults for the others); what MDX has no field for (M2's UV-cell ranges, twinkle, spin, \
                     wind, drag, spline, emitter type) is dropped",
                    self.foreign, self.m2
                ),
            ));
        }
        if !self.unmapped.is_empty() {
            let list: Vec<String> = self.unmapped.iter().map(|(p, n)| format!("{n} {p}")).collect();
            losses.push(Loss::new(
                "emitters",
                format!("emitter tracks MDX has no field for dropped: {}", list.join(", ")),
            ));
        }
        if self.cubic > 0 {
            losses.push(Loss::new(
                "emitters",
                format!("{} cubic emitter tracks written as linear keys through their values", self.cubic),
            ));
        }
        if self.off_clips > 0 {
            losses.push(Loss::new(
                "emitters",
                format!("{} keys of emitter tracks in no clip of the model dropped", self.off_clips),
            ));
        }
        if self.slots > 0 {
            losses.push(Loss::new(
                "emitters",
                format!("{} Reforged texture slots of ribbon materials dropped", self.slots),
            ));
        }
    }
}
