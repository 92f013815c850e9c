//! Particle emitters between 476/492 bytes (264+) and 504 bytes (256–263), m2-wrath.md §9 step 5,
//! measured on GnomePounder's 12 emitters in both exports:
//!
//! | 264 | 256–263 |
//! |---|---|
//! | flags | flags without 0x20000 ("outward", set on every Wrath emitter of the pair) |
//! | colour fake track, ages `[0, mid, 32767]`, RGB floats 0–255 | `mid_point = mid / 32767`, colours as `(B, G, R, A)` bytes |
//! | alpha fake track 0–32767 | the colours' A byte, `round(a · 255 / 32767)` |
//! | scale fake track `(x, y)` | sizes (x) |
//! | head-cell fake track, 4 keys at `0, mid, mid, 32767` (none: cells 0) | UV cells 0, 1, 3, 4 (2 and 5, the repeats, are 1 either way) |
//! | tail-cell fake track | UV cells 6–9 [inferred] |
//! | u8 blend, u8 emitter, u16 colour index | the split reading of 260–263 |
//!
//! The rest of the emitter moves as every record does (`Particle::retime`); what 256–263 cannot
//! hold is counted by the caller: fake tracks of other than 3 keys (4 for
//! cells), lifespan and emission-rate variation, base spin and its variation, spin variation,
//! scale variation, 272's multi-texture parameters.

use crate::file::wrath::{FakeTrack, WrathParticle};
use crate::file::{ClassicBlend, LifeTracks, LifeValues, Particle, ParticleBlend, WrathBlend};

/// Wrath's "outward" flag, set on every Wrath emitter of the GnomePounder pair.
pub(crate) const FLAG_OUTWARD: u32 = 0x20000;
/// Age of a particle's death in a fake track.
const DEATH: f32 = 32767.0;

/// What a 504-byte emitter cannot hold of one Wrath emitter: names of the dropped parts.
pub(crate) fn unheld(p: &WrathParticle) -> Vec<&'static str> {
    let mut out = Vec::new();
    let life = &p.life;
    let three = |n: usize| n == 0 || n == 3;
    if !three(life.color.ages.len()) || !three(life.alpha.ages.len()) || !three(life.scale.ages.len()) {
        out.push("colour, alpha or scale over life with other than 3 keys");
    }
    if ![0, 4].contains(&life.head_cell.ages.len()) || ![0, 4].contains(&life.tail_cell.ages.len()) {
        out.push("cell animation with other than 4 keys");
    }
    let set = |v: Option<f32>| v.is_some_and(|v| v != 0.0);
    if set(p.lifespan_variation) || set(p.emission_rate_variation) {
        out.push("lifespan or emission-rate variation");
    }
    if set(p.base_spin) || set(p.base_spin_variation) || set(p.spin_variation) {
        out.push("base spin or spin variation");
    }
    if life.scale_variation != [0.0; 2] {
        out.push("scale variation");
    }
    if p.multi_texture.is_some_and(|m| m != [0; 4]) {
        out.push("multi-texture parameters");
    }
    out
}

/// A byte 0–255 from a float colour channel.
fn byte(v: f32) -> u8 {
    v.round().clamp(0.0, 255.0) as u8
}

/// What a Wrath emitter holds besides its tracks as a 504-byte one holds it: flags, blend bytes,
/// values over life.
pub(crate) fn to_classic(p: &WrathParticle) -> (u32, ClassicBlend, LifeValues) {
    let life = &p.life;
    let mid_point = life.color.ages.get(1).map_or(0.5, |&a| f32::from(a) / DEATH);
    let colors = std::array::from_fn(|i| {
        let c = life.color.values.get(i).copied().unwrap_or([255.0; 3]);
        let a =
            life.alpha.values.get(i).map_or(255, |&a| (f32::from(a) * 255.0 / DEATH).round().clamp(0.0, 255.0) as u8);
        [byte(c[2]), byte(c[1]), byte(c[0]), a]
    });
    let sizes = std::array::from_fn(|i| life.scale.values.get(i).map_or(1.0, |s| s[0]));
    // The repeat counts (cells 2 and 5) are 1 on every emitter of the Classic GnomePounder, with
    // or without a head animation [inferred].
    // Cell tracks of other than 4 keys are counted as losses (`unheld`); without one the cells
    // are 0.
    let four = |t: &FakeTrack<u16>| <[u16; 4]>::try_from(t.values.as_slice()).unwrap_or([0; 4]);
    let ([h0, h1, h2, h3], [t0, t1, t2, t3]) = (four(&life.head_cell), four(&life.tail_cell));
    let uv_cells = [h0, h1, 1, h2, h3, 1, t0, t1, t2, t3];
    let WrathBlend { blend_mode, emitter_type, color_index } = p.blend;
    let blending = ParticleBlend::Split { blend_mode, emitter_type, color_index };
    (p.flags & !FLAG_OUTWARD, ClassicBlend { blending }, LifeValues { mid_point, colors, sizes, uv_cells })
}

/// A fake track of `values` at ages `0, mid, 32767`.
fn over_life<T: bytemuck::Pod>(mid: u16, values: [T; 3]) -> FakeTrack<T> {
    FakeTrack { ages: vec![0, mid, 32767].into(), values: values.to_vec().into() }
}

/// A cell track from four UV cells (empty when they are all 0).
fn cells(mid: u16, c: [u16; 4]) -> FakeTrack<u16> {
    if c == [0; 4] {
        return FakeTrack::default();
    }
    FakeTrack { ages: vec![0, mid, mid, 32767].into(), values: c.to_vec().into() }
}

/// What a 504-byte emitter holds besides its tracks as a Wrath one holds it: flags, blend bytes,
/// values over life.
pub(crate) fn from_classic(p: &Particle) -> (u32, WrathBlend, LifeTracks) {
    let life = &p.life;
    let mid = (life.mid_point.clamp(0.0, 1.0) * DEATH).round() as u16;
    let blend = match p.blend.blending {
        ParticleBlend::Split { blend_mode, emitter_type, color_index } => {
            WrathBlend { blend_mode, emitter_type, color_index }
        }
        ParticleBlend::Wide { blend_mode, emitter_type } => {
            WrathBlend { blend_mode: blend_mode as u8, emitter_type: emitter_type as u8, color_index: 0 }
        }
    };
    let c = life.colors;
    let rgb = |i: usize| c.get(i).map_or([0.0; 3], |b| [f32::from(b[2]), f32::from(b[1]), f32::from(b[0])]);
    let alpha = |i: usize| c.get(i).map_or(0, |b| (f32::from(b[3]) * DEATH / 255.0).round() as i16);
    let u = life.uv_cells;
    let tracks = LifeTracks {
        color: over_life(mid, [rgb(0), rgb(1), rgb(2)]),
        alpha: over_life(mid, [alpha(0), alpha(1), alpha(2)]),
        scale: over_life(mid, life.sizes.map(|s| [s, s])),
        scale_variation: [0.0; 2],
        head_cell: cells(mid, [u[0], u[1], u[3], u[4]]),
        tail_cell: cells(mid, [u[6], u[7], u[8], u[9]]),
    };
    (p.flags | FLAG_OUTWARD, blend, tracks)
}
