//! The particle emitter from Wrath on (m2-wrath.md §5.3): 476 bytes at 264, 492 at 272. Colour,
//! alpha, scale and cell indices became "fake" tracks (ages 0–32767 over a particle's life,
//! no interpolation field), and variations of lifespan, emission rate, scale and spin appeared.

use binrw::binrw;
use bytemuck::Pod;
use serde::{Deserialize, Serialize};

use super::track::SeqTrack;
use crate::file::array::{M2Array, pod_array};
use crate::file::ctx::Ctx;
use crate::file::layout::Layout;
use crate::file::record::{Field, Visitor, Walk, record};
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

/// Two blocks: ages, values.
impl<T: Pod> Walk for FakeTrack<T> {
    fn walk<'f, V: Visitor<'f>>(&'f self, name: &'static str, v: &mut V) {
        v.pod(Field::part(name, "ages"), &self.ages);
        v.pod(Field::part(name, "values"), &self.values);
    }
}

record! {
    size(version) = if version >= 272 { 492 } else { 476 };
    /// A particle emitter from Wrath on (476 bytes; 492 from 272).
    #[binrw]
    #[brw(little)]
    #[br(import(ctx: &Ctx))]
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
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub emission_speed: SeqTrack<f32>,
        /// Speed variation (0–1).
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub speed_variation: SeqTrack<f32>,
        /// Vertical range (0–π).
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub vertical_range: SeqTrack<f32>,
        /// Horizontal range (0–2π).
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub horizontal_range: SeqTrack<f32>,
        /// Gravity.
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub gravity: SeqTrack<f32>,
        /// Lifespan, seconds.
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub lifespan: SeqTrack<f32>,
        /// Lifespan variation (new at 264).
        pub lifespan_variation: f32,
        /// Particles per second.
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub emission_rate: SeqTrack<f32>,
        /// Emission-rate variation (new at 264).
        pub emission_rate_variation: f32,
        /// Emission area length.
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub emission_area_length: SeqTrack<f32>,
        /// Emission area width.
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub emission_area_width: SeqTrack<f32>,
        /// Z source.
        #[br(args(ctx))]
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
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub enabled_in: SeqTrack<u8>,
        /// 272 on: multi-texture parameters (16 bytes; zero in the real file) \[inferred\].
        #[br(if(ctx.version >= 272))]
        pub multi_texture: Option<[u32; 4]>,
    }
}
