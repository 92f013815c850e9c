//! The particle emitter from Wrath on (m2-wrath.md §5.3): 476 bytes at 264, 492 at 272. Colour,
//! alpha, scale and cell indices became "fake" tracks (ages 0–32767 over a particle's life,
//! no interpolation field), and variations of lifespan, emission rate, scale and spin appeared.

use binrw::binrw;
use bytemuck::Pod;
use serde::{Deserialize, Serialize};

use super::track::{KeyCtx, PerKey, SeqTrack};
use crate::file::array::{M2Array, pod_array};
use crate::file::layout::Layout;
use crate::file::record::{Field, Record, Visitor};
use crate::file::sequence::Bounds;

/// A value over a particle's life (`M2FakeTrack`, 16 bytes): ages 0–32767 (0 birth, 32767
/// death) and one value per age.
#[binrw]
#[brw(little)]
#[bw(import(layout: &Layout))]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct FakeTrack<T: Pod> {
    /// Ages, 0–32767 over the particle's life.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub ages: M2Array<u16>,
    /// One value per age.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub values: M2Array<T>,
}

impl<T: Pod> FakeTrack<T> {
    fn visit<'f, V: Visitor<'f>>(&'f self, name: &'static str, v: &mut V) {
        v.pod(Field::part(name, "ages"), &self.ages);
        v.pod(Field::part(name, "values"), &self.values);
    }
}

/// A particle emitter from Wrath on (476 bytes; 492 from 272).
#[binrw]
#[brw(little)]
#[br(import(ctx: &KeyCtx))]
#[bw(import(layout: &Layout))]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct WrathParticle {
    /// Id (−1).
    pub id: i32,
    /// Flags (GP-W = GP-V | 0x20000 "outward", §9).
    pub flags: u32,
    /// Position relative to the bone.
    pub position: [f32; 3],
    /// Bone.
    pub bone: u16,
    /// Texture index (272 with multi-texture flags: three 5-bit indices) \[inferred\].
    pub texture: u16,
    /// Geometry model file name with NUL.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub geometry_model: M2Array<u8>,
    /// Recursion model file name with NUL.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub recursion_model: M2Array<u8>,
    /// Blend mode.
    pub blend_mode: u8,
    /// 1 plane, 2 sphere, 3 spline.
    pub emitter_type: u8,
    /// Particle colour index.
    pub color_index: u16,
    /// 0 normal, 1 large quad, 2 (272: first multi-texture parameter) \[inferred\].
    pub particle_type: u8,
    /// Head, tail or both (272: second multi-texture parameter) \[inferred\].
    pub head_or_tail: u8,
    /// Texture tile rotation (−1, 0, 1).
    pub texture_tile_rotation: i16,
    /// Texture rows.
    pub texture_rows: u16,
    /// Texture columns.
    pub texture_cols: u16,
    /// Emission speed.
    #[br(args(ctx, PerKey::ByInterpolation))]
    #[bw(args(layout))]
    pub emission_speed: SeqTrack<f32>,
    /// Speed variation (0–1).
    #[br(args(ctx, PerKey::ByInterpolation))]
    #[bw(args(layout))]
    pub speed_variation: SeqTrack<f32>,
    /// Vertical range (0–π).
    #[br(args(ctx, PerKey::ByInterpolation))]
    #[bw(args(layout))]
    pub vertical_range: SeqTrack<f32>,
    /// Horizontal range (0–2π).
    #[br(args(ctx, PerKey::ByInterpolation))]
    #[bw(args(layout))]
    pub horizontal_range: SeqTrack<f32>,
    /// Gravity.
    #[br(args(ctx, PerKey::ByInterpolation))]
    #[bw(args(layout))]
    pub gravity: SeqTrack<f32>,
    /// Lifespan, seconds.
    #[br(args(ctx, PerKey::ByInterpolation))]
    #[bw(args(layout))]
    pub lifespan: SeqTrack<f32>,
    /// Lifespan variation (new at 264).
    pub lifespan_variation: f32,
    /// Particles per second.
    #[br(args(ctx, PerKey::ByInterpolation))]
    #[bw(args(layout))]
    pub emission_rate: SeqTrack<f32>,
    /// Emission-rate variation (new at 264).
    pub emission_rate_variation: f32,
    /// Emission area length.
    #[br(args(ctx, PerKey::ByInterpolation))]
    #[bw(args(layout))]
    pub emission_area_length: SeqTrack<f32>,
    /// Emission area width.
    #[br(args(ctx, PerKey::ByInterpolation))]
    #[bw(args(layout))]
    pub emission_area_width: SeqTrack<f32>,
    /// Z source.
    #[br(args(ctx, PerKey::ByInterpolation))]
    #[bw(args(layout))]
    pub z_source: SeqTrack<f32>,
    /// Colour over life, RGB 0–255 as floats.
    #[bw(args(layout))]
    pub color: FakeTrack<[f32; 3]>,
    /// Alpha over life, 0–32767.
    #[bw(args(layout))]
    pub alpha: FakeTrack<i16>,
    /// Scale over life (x, y).
    #[bw(args(layout))]
    pub scale: FakeTrack<[f32; 2]>,
    /// Scale variation (x, y).
    pub scale_variation: [f32; 2],
    /// Head cell over life.
    #[bw(args(layout))]
    pub head_cell: FakeTrack<u16>,
    /// Tail cell over life.
    #[bw(args(layout))]
    pub tail_cell: FakeTrack<u16>,
    /// Tail length.
    pub tail_length: f32,
    /// Twinkle speed.
    pub twinkle_speed: f32,
    /// Twinkle percentage.
    pub twinkle_percent: f32,
    /// Twinkle scale minimum and maximum.
    pub twinkle_scale: [f32; 2],
    /// Burst multiplier.
    pub burst_multiplier: f32,
    /// Drag.
    pub drag: f32,
    /// Base spin (new at 264).
    pub base_spin: f32,
    /// Base spin variation (new at 264).
    pub base_spin_variation: f32,
    /// Spin.
    pub spin: f32,
    /// Spin variation (new at 264).
    pub spin_variation: f32,
    /// Tumble minimum and maximum.
    pub tumble: Bounds,
    /// Wind vector.
    pub wind_vector: [f32; 3],
    /// Wind time.
    pub wind_time: f32,
    /// Follow speed 1, scale 1, speed 2, scale 2.
    pub follow: [f32; 4],
    /// Spline points.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub spline_points: M2Array<[f32; 3]>,
    /// Emitter enabled.
    #[br(args(ctx, PerKey::ByInterpolation))]
    #[bw(args(layout))]
    pub enabled_in: SeqTrack<u8>,
    /// 272 on: multi-texture parameters (16 bytes; zero in the real file) \[inferred\].
    #[br(if(ctx.version >= 272))]
    pub multi_texture: Option<[u32; 4]>,
}

impl WrathParticle {
    /// The ten parameter tracks, in file order.
    pub(crate) fn parameters(&self) -> [(&'static str, &SeqTrack<f32>); 10] {
        [
            ("emission_speed", &self.emission_speed),
            ("speed_variation", &self.speed_variation),
            ("vertical_range", &self.vertical_range),
            ("horizontal_range", &self.horizontal_range),
            ("gravity", &self.gravity),
            ("lifespan", &self.lifespan),
            ("emission_rate", &self.emission_rate),
            ("emission_area_length", &self.emission_area_length),
            ("emission_area_width", &self.emission_area_width),
            ("z_source", &self.z_source),
        ]
    }
}

impl Record for WrathParticle {
    const PAIRS: usize = 2 + 20 + 10 + 1 + 2;
    fn size(version: u32) -> u64 {
        if version >= 272 { 492 } else { 476 }
    }
    fn visit<'f, V: Visitor<'f>>(&'f self, v: &mut V) {
        v.pod(Field::new("geometry_model"), &self.geometry_model);
        v.pod(Field::new("recursion_model"), &self.recursion_model);
        for (name, track) in self.parameters() {
            track.visit(name, v);
        }
        self.color.visit("color", v);
        self.alpha.visit("alpha", v);
        self.scale.visit("scale", v);
        self.head_cell.visit("head_cell", v);
        self.tail_cell.visit("tail_cell", v);
        v.pod(Field::new("spline_points"), &self.spline_points);
        self.enabled_in.visit("enabled_in", v);
    }
}
