//! Geoset animations (GEOA), layer alpha (KMTA) and texture animations (TXAN) as the model's
//! tints and UV animations (spec §4.5, §4.7, §4.9, §8.6).
//!
//! * GEOA → a tint of its geoset's mesh: the static alpha and, when the UseColor flag (0x2) is
//!   set, the static colour, stored RGB; KGAO keys → `alpha`, KGAC keys (stored BGR, the opposite
//!   order, spec §8.6 after VH) → `color`, reversed to RGB.
//! * A layer's alpha and KMTA keys → a tint of that texture layer (when it is not 1 or keyed).
//! * TXAN → a UV animation of the layers whose TextureAnimationId names it: KTAT x, y → `offset`,
//!   KTAR (a quaternion about the texture's Z axis) → `rotation` (radians, KHR_texture_transform's
//!   sense, the opposite of the quaternion's), KTAS x, y → `scale`.
//! * Keys per sequence (times from the interval's start) as the bones' channels; a track on a
//!   global sequence once, on its clock.
//! * Not carried (losses, with counts): GEOA flags other than UseColor (DropShadow …), a static
//!   colour without UseColor, Z of a translation or scaling, rotations about other axes, KTAR
//!   Hermite/Bezier tangents (linear), and the layer tracks KMTF, KMTE and the Fresnel ones.

use std::collections::HashMap;

use relic_core::model::{
    ALPHA, COLOR, Clock, EmitterTrack, LayerRef, Tint, TintTarget, UV_OFFSET, UV_ROTATION, UV_SCALE, UvAnimation,
};
use relic_core::{Loss, ReadError};

use super::animation::{cubic, interpolation, pick};
use crate::file::*;

/// GEOA flag: the colour is used.
pub(crate) const USE_COLOR: u32 = 0x2;

/// What the file holds that the tints and UV animations do not, counted.
#[derive(Default)]
struct Counts {
    geoa_flags: usize,
    unused_color: usize,
    bad_geoset: usize,
    z: usize,
    axes: usize,
    cubic_rotations: usize,
    layer_tracks: HashMap<String, usize>,
    other_tracks: usize,
    bad_animation_id: usize,
    outside: usize,
}

/// The timeline the keys are read on.
pub(super) struct Clips<'a> {
    /// SEQS.
    pub(super) sequences: &'a [&'a Sequence],
    /// Number of GLBS entries.
    pub(super) globals: usize,
}

/// The tints and UV animations of `file`, whose meshes are its geosets in order.
pub(super) fn surfaces(
    file: &MdxFile,
    clips: &Clips<'_>,
    meshes: usize,
    losses: &mut Vec<Loss>,
) -> Result<(Vec<Tint>, Vec<UvAnimation>), ReadError> {
    let mut counts = Counts { outside: outside(file, clips), ..Counts::default() };
    let mut tints = Vec::new();
    for a in file.chunks.iter().filter_map(|c| if let Chunk::GeosetAnims(v) = c { Some(v) } else { None }).flatten() {
        let Some(mesh) = usize::try_from(a.geoset_id).ok().filter(|&g| g < meshes) else {
            counts.bad_geoset += 1;
            continue;
        };
        counts.geoa_flags += usize::from(a.flags & !USE_COLOR != 0);
        let use_color = a.flags & USE_COLOR != 0;
        counts.unused_color += usize::from(!use_color && a.color != [1.0; 3]);
        let mut tracks = Vec::new();
        for t in &a.tracks {
            match (&t.tag.0, &t.keys) {
                (b"KGAO", Keys::Float(k)) => tracks.extend(keyed(t, k, ALPHA, clips, |v, _| [v])),
                (b"KGAC", Keys::Vec3(k)) => tracks.extend(keyed(t, k, COLOR, clips, |[b, g, r], _| [r, g, b])),
                _ => counts.other_tracks += 1,
            }
        }
        let color = use_color.then_some(a.color);
        tints.push(Tint { target: TintTarget::Mesh(mesh), color, alpha: a.alpha, tracks });
    }
    let anims: Vec<&TextureAnim> = file
        .chunks
        .iter()
        .filter_map(|c| if let Chunk::TextureAnims(v) = c { Some(v) } else { None })
        .flatten()
        .collect();
    let mut uv: Vec<UvAnimation> = anims.iter().map(|a| uv_animation(a, clips, &mut counts)).collect();
    let texture_count = file.chunks.iter().map(|c| if let Chunk::Textures(t) = c { t.len() } else { 0 }).sum();
    let materials = file.chunks.iter().filter_map(|c| if let Chunk::Materials(v) = c { Some(v) } else { None });
    for (material, m) in materials.flatten().enumerate() {
        let mut texture = 0;
        for layer in &m.layers {
            // The layers `to_ir::mesh::materials` makes texture references of: a valid TEXS index.
            if usize::try_from(layer.texture_id).ok().is_none_or(|t| t >= texture_count) {
                continue;
            }
            let at = LayerRef { material, texture };
            texture += 1;
            if let Ok(id) = usize::try_from(layer.texture_animation_id) {
                match uv.get_mut(id) {
                    Some(u) => u.layers.push(at),
                    None => counts.bad_animation_id += 1,
                }
            }
            let mut tracks = Vec::new();
            for t in &layer.tracks {
                match (&t.tag.0, &t.keys) {
                    (b"KMTA", Keys::Float(k)) => tracks.extend(keyed(t, k, ALPHA, clips, |v, _| [v])),
                    _ => *counts.layer_tracks.entry(t.tag.text()).or_default() += 1,
                }
            }
            if layer.alpha != 1.0 || !tracks.is_empty() {
                tints.push(Tint { target: TintTarget::Layer(at), color: None, alpha: layer.alpha, tracks });
            }
        }
    }
    counts.losses(losses);
    Ok((tints, uv))
}

fn uv_animation(a: &TextureAnim, clips: &Clips<'_>, counts: &mut Counts) -> UvAnimation {
    let mut tracks = Vec::new();
    for t in &a.tracks {
        match (&t.tag.0, &t.keys) {
            (b"KTAT", Keys::Vec3(k)) => {
                counts.z += k.iter().filter(|k| k.value[2] != 0.0).count();
                tracks.extend(keyed(t, k, UV_OFFSET, clips, |[x, y, _], _| [x, y]));
            }
            (b"KTAS", Keys::Vec3(k)) => {
                counts.z += k.iter().filter(|k| k.value[2] != 1.0).count();
                tracks.extend(keyed(t, k, UV_SCALE, clips, |[x, y, _], _| [x, y]));
            }
            (b"KTAR", Keys::Quat(k)) => {
                counts.axes += k.iter().filter(|k| k.value[0] != 0.0 || k.value[1] != 0.0).count();
                let mut linear = t.clone();
                if t.interpolation >= HERMITE {
                    // At one key the tangents shape nothing.
                    counts.cubic_rotations += usize::from(k.len() > 1);
                    linear.interpolation = LINEAR;
                }
                tracks.extend(keyed(&linear, k, UV_ROTATION, clips, |[_, _, z, w], _| [-2.0 * z.atan2(w)]));
            }
            _ => counts.other_tracks += 1,
        }
    }
    UvAnimation { layers: Vec::new(), tracks }
}

/// The keys of `t` as the model's tracks of `property`: one on its global sequence, else one per
/// sequence with keys in its interval. `value` converts a value (told whether it is a tangent).
pub(super) fn keyed<T: Value + Copy, const N: usize>(
    t: &Track,
    keys: &[Key<T>],
    property: &str,
    clips: &Clips<'_>,
    value: impl Fn(T, bool) -> [f32; N],
) -> Vec<EmitterTrack> {
    let global = usize::try_from(t.global_sequence_id).ok();
    if global.is_some_and(|g| g >= clips.globals) {
        return Vec::new();
    }
    let bezier = t.interpolation == BEZIER;
    let spans: Vec<(Option<usize>, i64, i64)> = match global {
        Some(_) => vec![(None, 0, i64::MAX)],
        None => clips
            .sequences
            .iter()
            .enumerate()
            .map(|(a, s)| (Some(a), i64::from(s.interval_start), i64::from(s.interval_end)))
            .collect(),
    };
    let mut out = Vec::new();
    for (animation, start, end) in spans {
        let (times, v) = pick(keys, |f| (start..=end).contains(&i64::from(f)), start, &value);
        if times.is_empty() {
            continue;
        }
        let interpolation = interpolation(t.interpolation, times.len());
        let values = cubic(&times, v, bezier, interpolation).into_iter().flatten().collect();
        out.push(EmitterTrack {
            property: property.into(),
            animation,
            clock: global.map_or(Clock::Animation, Clock::Global),
            interpolation,
            times,
            components: N,
            values,
        });
    }
    out
}

/// How many keys of the file's surface tracks (GEOA, layers, TXAN; off a global sequence) no sequence's interval holds
/// (the copies into clips are bounded by `animation::check_key_budget`).
fn outside(file: &MdxFile, clips: &Clips<'_>) -> usize {
    let within =
        |s: &Sequence, f: i32| (i64::from(s.interval_start)..=i64::from(s.interval_end)).contains(&i64::from(f));
    file.surface_tracks()
        .filter(|t| t.global_sequence_id == -1)
        .map(|t| t.keys.frames().into_iter().filter(|&f| !clips.sequences.iter().any(|s| within(s, f))).count())
        .sum()
}

/// `n what` as a loss of `tag`, when `n` is not 0 (the notes of both directions).
pub(crate) fn note(losses: &mut Vec<Loss>, tag: &str, n: usize, what: &str) {
    if n > 0 {
        losses.push(Loss::new(tag, format!("{n} {what}")));
    }
}

impl Counts {
    fn losses(&self, losses: &mut Vec<Loss>) {
        let mut note = |tag: &str, n: usize, what: &str| note(losses, tag, n, what);
        note("GEOA", self.geoa_flags, "geoset animations with flags beyond UseColor (DropShadow, 0x1a …): not carried");
        note("GEOA", self.unused_color, "static colours of geoset animations without UseColor: not carried");
        note("GEOA", self.bad_geoset, "geoset animations of a geoset the file lacks: left out");
        note("TXAN", self.z, "texture-animation translation or scaling keys with a Z other than 0 or 1: Z dropped");
        note("TXAN", self.axes, "texture-animation rotation keys about another axis than Z: only the Z turn kept");
        note("TXAN", self.cubic_rotations, "Hermite/Bezier texture-animation rotations: read as linear");
        note("TXAN", self.bad_animation_id, "layers naming a texture animation the file lacks: not animated");
        note("GEOA", self.outside, "geoset, layer or texture animation keys in no sequence's interval: left out");
        note("GEOA", self.other_tracks, "tracks of geoset or texture animations of an unexpected tag: left out");
        let mut layer: Vec<_> = self.layer_tracks.iter().collect();
        layer.sort();
        for (tag, n) in layer {
            note("MTLS", *n, &format!("layer {tag} tracks: not carried (the model has no place for them)"));
        }
    }
}
