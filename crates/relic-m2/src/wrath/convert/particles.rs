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
//! What 256–263 cannot hold is counted by the caller: fake tracks of other than 3 keys (4 for
//! cells), lifespan and emission-rate variation, base spin and its variation, spin variation,
//! scale variation, 272's multi-texture parameters.

use super::retime::Retime;
use super::tracks::{Flatten, Split};
use crate::file::wrath::{FakeTrack, WrathParticle};
use crate::file::{Particle, ParticleBlend};

/// Wrath's "outward" flag, set on every Wrath emitter of the GnomePounder pair.
pub(crate) const FLAG_OUTWARD: u32 = 0x20000;
/// Age of a particle's death in a fake track.
const DEATH: f32 = 32767.0;

/// What a 504-byte emitter cannot hold of one Wrath emitter: names of the dropped parts.
pub(crate) fn unheld(p: &WrathParticle) -> Vec<&'static str> {
    let mut out = Vec::new();
    let three = |n: usize| n == 0 || n == 3;
    if !three(p.color.ages.len()) || !three(p.alpha.ages.len()) || !three(p.scale.ages.len()) {
        out.push("colour, alpha or scale over life with other than 3 keys");
    }
    if ![0, 4].contains(&p.head_cell.ages.len()) || ![0, 4].contains(&p.tail_cell.ages.len()) {
        out.push("cell animation with other than 4 keys");
    }
    if p.lifespan_variation != 0.0 || p.emission_rate_variation != 0.0 {
        out.push("lifespan or emission-rate variation");
    }
    if p.base_spin != 0.0 || p.base_spin_variation != 0.0 || p.spin_variation != 0.0 {
        out.push("base spin or spin variation");
    }
    if p.scale_variation != [0.0; 2] {
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

/// A Wrath emitter as a 504-byte one.
pub(crate) fn to_classic(p: &WrathParticle, r: &Flatten<'_>) -> Particle {
    let mid = p.color.ages.get(1).map_or(0.5, |&a| f32::from(a) / DEATH);
    let colors = std::array::from_fn(|i| {
        let c = p.color.values.get(i).copied().unwrap_or([255.0; 3]);
        let a = p.alpha.values.get(i).map_or(255, |&a| (f32::from(a) * 255.0 / DEATH).round().clamp(0.0, 255.0) as u8);
        [byte(c[2]), byte(c[1]), byte(c[0]), a]
    });
    let sizes = std::array::from_fn(|i| p.scale.values.get(i).map_or(1.0, |s| s[0]));
    // The repeat counts (cells 2 and 5) are 1 on every emitter of the Classic GnomePounder, with
    // or without a head animation [inferred].
    // Cell tracks of other than 4 keys are counted as losses (`unheld`); without one the cells
    // are 0.
    let four = |t: &FakeTrack<u16>| <[u16; 4]>::try_from(t.values.as_slice()).unwrap_or([0; 4]);
    let ([h0, h1, h2, h3], [t0, t1, t2, t3]) = (four(&p.head_cell), four(&p.tail_cell));
    let uv_cells = [h0, h1, 1, h2, h3, 1, t0, t1, t2, t3];
    Particle {
        id: p.id,
        flags: p.flags & !FLAG_OUTWARD,
        position: p.position,
        bone: p.bone,
        texture: p.texture,
        geometry_model: p.geometry_model.clone(),
        recursion_model: p.recursion_model.clone(),
        blending: ParticleBlend::Split {
            blend_mode: p.blend_mode,
            emitter_type: p.emitter_type,
            color_index: p.color_index,
        },
        particle_type: p.particle_type,
        head_or_tail: p.head_or_tail,
        texture_tile_rotation: p.texture_tile_rotation,
        texture_rows: p.texture_rows,
        texture_cols: p.texture_cols,
        emission_speed: r.track(&p.emission_speed),
        speed_variation: r.track(&p.speed_variation),
        vertical_range: r.track(&p.vertical_range),
        horizontal_range: r.track(&p.horizontal_range),
        gravity: r.track(&p.gravity),
        lifespan: r.track(&p.lifespan),
        emission_rate: r.track(&p.emission_rate),
        emission_area_length: r.track(&p.emission_area_length),
        emission_area_width: r.track(&p.emission_area_width),
        z_source: r.track(&p.z_source),
        mid_point: mid,
        colors,
        sizes,
        uv_cells,
        tail_length: p.tail_length,
        twinkle_speed: p.twinkle_speed,
        twinkle_percent: p.twinkle_percent,
        twinkle_scale: p.twinkle_scale,
        burst_multiplier: p.burst_multiplier,
        drag: p.drag,
        spin: p.spin,
        tumble: p.tumble,
        wind_vector: p.wind_vector,
        wind_time: p.wind_time,
        follow: p.follow,
        spline_points: p.spline_points.clone(),
        enabled_in: r.track(&p.enabled_in),
    }
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

/// A 504-byte emitter as a Wrath one (`version` 272 adds the multi-texture block).
pub(crate) fn from_classic(p: &Particle, r: &Split<'_>) -> WrathParticle {
    let mid = (p.mid_point.clamp(0.0, 1.0) * DEATH).round() as u16;
    let (blend_mode, emitter_type, color_index) = match p.blending {
        ParticleBlend::Split { blend_mode, emitter_type, color_index } => (blend_mode, emitter_type, color_index),
        ParticleBlend::Wide { blend_mode, emitter_type } => (blend_mode as u8, emitter_type as u8, 0),
    };
    let c = p.colors;
    let rgb = |i: usize| c.get(i).map_or([0.0; 3], |b| [f32::from(b[2]), f32::from(b[1]), f32::from(b[0])]);
    let alpha = |i: usize| c.get(i).map_or(0, |b| (f32::from(b[3]) * DEATH / 255.0).round() as i16);
    let u = p.uv_cells;
    WrathParticle {
        id: p.id,
        flags: p.flags | FLAG_OUTWARD,
        position: p.position,
        bone: p.bone,
        texture: p.texture,
        geometry_model: p.geometry_model.clone(),
        recursion_model: p.recursion_model.clone(),
        blend_mode,
        emitter_type,
        color_index,
        particle_type: p.particle_type,
        head_or_tail: p.head_or_tail,
        texture_tile_rotation: p.texture_tile_rotation,
        texture_rows: p.texture_rows,
        texture_cols: p.texture_cols,
        emission_speed: r.track(&p.emission_speed),
        speed_variation: r.track(&p.speed_variation),
        vertical_range: r.track(&p.vertical_range),
        horizontal_range: r.track(&p.horizontal_range),
        gravity: r.track(&p.gravity),
        lifespan: r.track(&p.lifespan),
        lifespan_variation: 0.0,
        emission_rate: r.track(&p.emission_rate),
        emission_rate_variation: 0.0,
        emission_area_length: r.track(&p.emission_area_length),
        emission_area_width: r.track(&p.emission_area_width),
        z_source: r.track(&p.z_source),
        color: over_life(mid, [rgb(0), rgb(1), rgb(2)]),
        alpha: over_life(mid, [alpha(0), alpha(1), alpha(2)]),
        scale: over_life(mid, p.sizes.map(|s| [s, s])),
        scale_variation: [0.0; 2],
        head_cell: cells(mid, [u[0], u[1], u[3], u[4]]),
        tail_cell: cells(mid, [u[6], u[7], u[8], u[9]]),
        tail_length: p.tail_length,
        twinkle_speed: p.twinkle_speed,
        twinkle_percent: p.twinkle_percent,
        twinkle_scale: p.twinkle_scale,
        burst_multiplier: p.burst_multiplier,
        drag: p.drag,
        base_spin: 0.0,
        base_spin_variation: 0.0,
        spin: p.spin,
        spin_variation: 0.0,
        tumble: p.tumble,
        wind_vector: p.wind_vector,
        wind_time: p.wind_time,
        follow: p.follow,
        spline_points: p.spline_points.clone(),
        enabled_in: r.track(&p.enabled_in),
        multi_texture: (r.version >= 272).then_some([0; 4]),
    }
}
