//! The model's tints and UV animations as geoset animations (GEOA), layer alpha (KMTA) and
//! texture animations (TXAN): the inverse of `to_ir::surface`.
//!
//! * A mesh's tint → a GEOA for each geoset the mesh became (UseColor set when it has a colour;
//!   `color` keys written BGR, the static colour RGB, spec §8.6).
//! * A layer's tint → the layer's alpha and KMTA keys.
//! * UV animation `i` → TXAN `i` (KTAT, KTAR, KTAS), and `i` as the TextureAnimationId of each
//!   layer it names.
//! * Keys per clip on the clip's interval, a global clock's once on its global sequence, as the
//!   bones' (`animation`).
//! * Noted with counts: tints of meshes written as no geoset (LODs), layer colours (a layer has
//!   none), a layer tinted or UV-animated twice (the last is written), keys past their clip,
//!   clips' tracks under a global one, cubic rotations (written linear).

use relic_core::model::{
    ALPHA, COLOR, Clock, EmitterTrack, Interpolation, LayerRef, Model, Tint, TintTarget, UV_OFFSET, UV_ROTATION,
    UV_SCALE, UvAnimation,
};
use relic_core::{Loss, WriteError};

use super::animation::{Timeline, WcKey, finish, keys_of, rank};
use crate::file::{DONT_INTERP, GeosetAnim, HERMITE, Key, Keys, LINEAR, Material, Tag, TextureAnim, Track, Value};
use crate::to_ir::surface::USE_COLOR;

/// What the file cannot hold as the model has it, counted.
#[derive(Default)]
struct Counts {
    no_geoset: usize,
    layer_color: usize,
    twice: usize,
    same_frame: usize,
    outside: usize,
    under_global: usize,
    bad_global: usize,
    cubic_rotations: usize,
    other: usize,
}

/// The geoset animations and texture animations of `model`; sets the alpha, KMTA and texture
/// animation of the `materials`' layers. `geosets_of[mesh]` are the geosets a mesh became.
pub(super) fn surfaces(
    model: &Model,
    tl: &Timeline,
    geosets_of: &[Vec<u32>],
    materials: &mut [Material],
    losses: &mut Vec<Loss>,
) -> Result<(Vec<GeosetAnim>, Vec<TextureAnim>), WriteError> {
    let mut counts = Counts::default();
    let mut geoas = Vec::new();
    let mut layers_done: Vec<LayerRef> = Vec::new();
    for tint in &model.tints {
        let alpha_tag = if matches!(tint.target, TintTarget::Mesh(_)) { b"KGAO" } else { b"KMTA" };
        let alpha = tracks_of(&tint.tracks, (ALPHA, alpha_tag), tl, &mut counts, |[a]| a, Keys::Float);
        match tint.target {
            TintTarget::Mesh(m) => {
                let color =
                    tracks_of(&tint.tracks, (COLOR, b"KGAC"), tl, &mut counts, |[r, g, b]| [b, g, r], Keys::Vec3);
                let geosets = geosets_of.get(m).map_or(&[][..], Vec::as_slice);
                counts.no_geoset += usize::from(geosets.is_empty());
                for &g in geosets {
                    geoas.push(GeosetAnim {
                        alpha: tint.alpha,
                        flags: if tint.color.is_some() { USE_COLOR } else { 0 },
                        color: tint.color.unwrap_or([1.0; 3]),
                        geoset_id: i32::try_from(g).map_err(|_| WriteError::DoesNotFit {
                            field: "GEOA.geoset_id".into(),
                            value: u64::from(g),
                            ty: "i32",
                        })?,
                        tracks: in_model_order(tint, [(ALPHA, &alpha), (COLOR, &color)]),
                    });
                }
            }
            TintTarget::Layer(at) => {
                let colored = tint.color.is_some() || tint.tracks.iter().any(|t| t.property == COLOR);
                counts.layer_color += usize::from(colored);
                let Some(layer) = materials.get_mut(at.material).and_then(|m| m.layers.get_mut(at.texture)) else {
                    continue;
                };
                counts.twice += usize::from(layers_done.contains(&at));
                layers_done.push(at);
                layer.alpha = tint.alpha;
                layer.tracks.retain(|t| t.tag.0 != *b"KMTA");
                layer.tracks.extend(alpha);
            }
        }
    }
    let mut animated: Vec<LayerRef> = Vec::new();
    let mut txan = Vec::new();
    for (i, u) in model.uv_animations.iter().enumerate() {
        txan.push(texture_anim(u, tl, &mut counts));
        let id = i32::try_from(i).unwrap_or(i32::MAX);
        for at in &u.layers {
            if let Some(layer) = materials.get_mut(at.material).and_then(|m| m.layers.get_mut(at.texture)) {
                counts.twice += usize::from(animated.contains(at));
                animated.push(*at);
                layer.texture_animation_id = id;
            }
        }
    }
    counts.losses(losses);
    Ok((geoas, txan))
}

/// The tracks made of each property, in the order the tint's keys name the properties first.
fn in_model_order(tint: &Tint, made: [(&str, &Option<Track>); 2]) -> Vec<Track> {
    let first = |p: &str| tint.tracks.iter().position(|t| t.property == p).unwrap_or(usize::MAX);
    let mut made = made;
    made.sort_by_key(|(p, _)| first(p));
    made.into_iter().filter_map(|(_, t)| t.clone()).collect()
}

fn texture_anim(u: &UvAnimation, tl: &Timeline, counts: &mut Counts) -> TextureAnim {
    let mut tracks = Vec::new();
    let uv = &u.tracks;
    tracks.extend(tracks_of(uv, (UV_OFFSET, b"KTAT"), tl, counts, |[x, y]| [x, y, 0.0], Keys::Vec3));
    tracks.extend(tracks_of(uv, (UV_ROTATION, b"KTAR"), tl, counts, |[a]: [f32; 1]| quat_of(a), Keys::Quat));
    let scale = tracks_of(uv, (UV_SCALE, b"KTAS"), tl, counts, |[x, y]| [x, y, 1.0], Keys::Vec3).map(|mut t| {
        // A tangent's Z is a rate: 0, not the value's 1.
        if let Keys::Vec3(keys) = &mut t.keys {
            for k in keys.iter_mut() {
                for tangent in k.tangents.iter_mut().flatten() {
                    tangent[2] = 0.0;
                }
            }
        }
        t
    });
    tracks.extend(scale);
    let known = [UV_OFFSET, UV_ROTATION, UV_SCALE];
    counts.other += u.tracks.iter().filter(|t| !known.contains(&t.property.as_str())).count();
    TextureAnim { tracks }
}

/// A turn of the texture by `angle` radians (KHR_texture_transform's sense) as KTAR's
/// quaternion about Z.
fn quat_of(angle: f32) -> [f32; 4] {
    let half = -angle / 2.0;
    [0.0, 0.0, half.sin(), half.cos()]
}

/// The one track tagged `tag` that the keys of `property` among `tracks` make, `make` giving the
/// file's value of the model's `N` numbers.
fn tracks_of<T: Value + Copy, const N: usize>(
    tracks: &[EmitterTrack],
    (property, tag): (&str, &[u8; 4]),
    tl: &Timeline,
    counts: &mut Counts,
    make: impl Fn([f32; N]) -> T,
    wrap: fn(Vec<Key<T>>) -> Keys,
) -> Option<Track> {
    let all: Vec<&EmitterTrack> = tracks.iter().filter(|t| t.property == property && t.components == N).collect();
    let global = all.iter().find_map(|t| match t.clock {
        Clock::Global(g) if g < tl.globals.len() => Some((g, *t)),
        _ => None,
    });
    counts.bad_global += all.iter().filter(|t| matches!(t.clock, Clock::Global(g) if g >= tl.globals.len())).count();
    // (first frame, last frame, keys) laid on the timeline.
    let mut spans: Vec<(i64, i64, &EmitterTrack)> = Vec::new();
    if let Some((_, t)) = global {
        counts.under_global += all.len() - 1;
        spans.push((0, i64::MAX, t));
    } else {
        for t in all.iter().filter(|t| t.clock == Clock::Animation) {
            let clips: Vec<usize> = match t.animation {
                Some(a) => vec![a],
                None => (0..tl.starts.len()).collect(),
            };
            for a in clips {
                if let (Some(&s), Some(&e)) = (tl.starts.get(a), tl.ends.get(a)) {
                    spans.push((s, e, t));
                }
            }
        }
    }
    let best = spans.iter().map(|s| s.2.interpolation).max_by_key(|&i| rank(i))?;
    let rotation = property == UV_ROTATION;
    let target = match best {
        Interpolation::Step => DONT_INTERP,
        Interpolation::CubicSpline if !rotation => HERMITE,
        _ => LINEAR,
    };
    counts.cubic_rotations += usize::from(rotation && best == Interpolation::CubicSpline);
    let mut keys: Vec<WcKey<N>> = Vec::new();
    for (start, end, t) in spans {
        let values: Vec<[f32; N]> = t.values.chunks_exact(N).filter_map(|c| <[f32; N]>::try_from(c).ok()).collect();
        let (inside, past): (Vec<_>, Vec<_>) = keys_of((&t.times, t.interpolation), &values, start, &|v, _| v, target)
            .into_iter()
            .partition(|k| (start..=end).contains(&k.0));
        counts.outside += past.len();
        keys.extend(inside);
    }
    let keys = finish(keys, &mut counts.same_frame, make);
    if keys.is_empty() {
        return None;
    }
    let global_sequence_id = global.map_or(-1, |(g, _)| i32::try_from(g).unwrap_or(-1));
    Some(Track { tag: Tag(*tag), interpolation: target, global_sequence_id, keys: wrap(keys) })
}

impl Counts {
    fn losses(&self, losses: &mut Vec<Loss>) {
        let mut note = |tag: &str, n: usize, what: &str| crate::to_ir::surface::note(losses, tag, n, what);
        note("GEOA", self.no_geoset, "tints of meshes written as no geoset (levels of detail past 0): dropped");
        note("MTLS", self.layer_color, "colours of texture layers: dropped (an MDX layer has alpha only)");
        note("MTLS", self.twice, "layers tinted or UV-animated more than once: the last is written");
        note("GEOA", self.same_frame, "tint or UV keys at a frame another key of the track holds: dropped");
        note("GEOA", self.outside, "tint or UV keys past their clip's end: dropped");
        note("GEOA", self.under_global, "tint or UV tracks under a global one of the same property: dropped");
        note("GEOA", self.bad_global, "tint or UV tracks on a global clock the model lacks: dropped");
        note("TXAN", self.cubic_rotations, "cubic UV rotations: written linear");
        note("TXAN", self.other, "UV tracks of an unknown property: dropped");
    }
}
