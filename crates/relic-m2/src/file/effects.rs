//! Ribbon and particle emitters (spec §14; m2-wrath.md §5.2, §5.3). None in the real files has a
//! ribbon; the particle layout is verified on the twelve emitters of the real 1.12 file and on
//! the emitters of the real 264 and 272 files.

use binrw::binrw;
use serde::{Deserialize, Serialize};

use super::array::{M2Array, pod_array};
use super::ctx::Ctx;
use super::kind::{Ranged, TrackKind, by_kind};
use super::layout::Layout;
use super::material::Color;
use super::record::record;
use super::sequence::Bounds;

record! {
    size(_version) = by_kind::<K>(220, 176);
    /// A ribbon emitter (220 bytes; 176 from Wrath on; none in the real files, layout from
    /// peers).
    #[binrw]
    #[brw(little)]
    #[br(import(ctx: &Ctx))]
    #[bw(import(layout: &Layout))]
    #[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
    #[serde(bound = "")]
    pub struct Ribbon<K: TrackKind = Ranged> {
        /// Id (−1).
        pub id: i32,
        /// Bone.
        pub bone: u32,
        /// Position.
        pub position: [f32; 3],
        /// Texture indices.
        #[br(parse_with = pod_array)]
        #[bw(args(layout))]
        pub textures: M2Array<u16>,
        /// Render-flag indices.
        #[br(parse_with = pod_array)]
        #[bw(args(layout))]
        pub materials: M2Array<u16>,
        /// Colour and alpha (0x7FFF opaque): the two tracks of a colour animation, stored as
        /// one ([`Color`]; JSON keeps its two keys).
        #[br(args(ctx))]
        #[bw(args(layout))]
        #[serde(flatten)]
        pub color: Color<K>,
        /// Height above the bone.
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub height_above: K::Track<f32>,
        /// Height below the bone.
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub height_below: K::Track<f32>,
        /// Edges emitted per second.
        pub edges_per_second: f32,
        /// Seconds an edge lives.
        pub edge_lifetime: f32,
        /// Gravity.
        pub gravity: f32,
        /// Texture rows.
        pub texture_rows: u16,
        /// Texture columns.
        pub texture_cols: u16,
        /// Texture slot.
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub texture_slot: K::Track<u16>,
        /// Visibility.
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub visibility: K::Track<u8>,
        /// 264 on: priority plane. A ribbon made for an older layout has none: it is drawn in
        /// the plane of its texture units, plane 0 (what the converters of §9 write).
        #[br(if(ctx.version >= 264))]
        #[bw(if(layout.version >= 264), map = |p: &Option<i16>| p.unwrap_or(0))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub priority_plane: Option<i16>,
        /// 264 on: padding (pywowlib) or a colour/transform index (WMVx) \[unknown\]: kept; 0,
        /// the padding's value, for a ribbon made for an older layout.
        #[br(if(ctx.version >= 264))]
        #[bw(if(layout.version >= 264), map = |p: &Option<u16>| p.unwrap_or(0))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub padding: Option<u16>,
    }
}

record! {
    size(version) = by_kind::<K>(504, if version >= 272 { 492 } else { 476 });
    /// A particle emitter: 504 bytes up to 263, 476 at 264, 492 from 272 (m2-wrath.md §5.3), where
    /// colour, alpha, scale and cells over a particle's life became "fake" tracks and variations of
    /// lifespan, emission rate, scale and spin appeared ([`TrackKind::Blend`],
    /// [`TrackKind::Life`]: `file::particle`).
    #[binrw]
    #[brw(little)]
    #[br(import(ctx: &Ctx))]
    #[bw(import(layout: &Layout))]
    #[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
    pub struct Particle<K: TrackKind = Ranged> {
        /// Id (−1).
        pub id: i32,
        /// Flags (from Wrath on the 256–263 flags | 0x20000 "outward", m2-wrath.md §9).
        pub flags: u32,
        /// Position relative to the bone's pivot frame (model space).
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
        /// Blend mode and emitter type (layout differs by family and version).
        #[br(args(ctx))]
        #[bw(args(layout))]
        #[serde(flatten)]
        pub blend: K::Blend,
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
        pub emission_speed: K::Track<f32>,
        /// Speed variation (0–1).
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub speed_variation: K::Track<f32>,
        /// Vertical range (0–π).
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub vertical_range: K::Track<f32>,
        /// Horizontal range (0–2π).
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub horizontal_range: K::Track<f32>,
        /// Gravity.
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub gravity: K::Track<f32>,
        /// Lifespan, seconds.
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub lifespan: K::Track<f32>,
        /// 264 on: lifespan variation.
        #[br(if(ctx.version >= 264))]
        #[bw(if(layout.version >= 264), map = |v: &Option<f32>| v.unwrap_or(0.0))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub lifespan_variation: Option<f32>,
        /// Particles per second.
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub emission_rate: K::Track<f32>,
        /// 264 on: emission-rate variation.
        #[br(if(ctx.version >= 264))]
        #[bw(if(layout.version >= 264), map = |v: &Option<f32>| v.unwrap_or(0.0))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub emission_rate_variation: Option<f32>,
        /// Emission area length.
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub emission_area_length: K::Track<f32>,
        /// Emission area width.
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub emission_area_width: K::Track<f32>,
        /// Z source ("gravity 2").
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub z_source: K::Track<f32>,
        /// Colour, alpha, size and cells over the particle's life.
        #[br(args(ctx))]
        #[bw(args(layout))]
        #[serde(flatten)]
        pub life: K::Life,
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
        /// Drag: speed × exp(−drag · t).
        pub drag: f32,
        /// 264 on: base spin.
        #[br(if(ctx.version >= 264))]
        #[bw(if(layout.version >= 264), map = |v: &Option<f32>| v.unwrap_or(0.0))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub base_spin: Option<f32>,
        /// 264 on: base spin variation.
        #[br(if(ctx.version >= 264))]
        #[bw(if(layout.version >= 264), map = |v: &Option<f32>| v.unwrap_or(0.0))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub base_spin_variation: Option<f32>,
        /// Spin.
        pub spin: f32,
        /// 264 on: spin variation.
        #[br(if(ctx.version >= 264))]
        #[bw(if(layout.version >= 264), map = |v: &Option<f32>| v.unwrap_or(0.0))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub spin_variation: Option<f32>,
        /// Tumble minimum and maximum.
        pub tumble: Bounds,
        /// Wind vector.
        pub wind_vector: [f32; 3],
        /// Wind time.
        pub wind_time: f32,
        /// Follow speed 1, follow scale 1, follow speed 2, follow scale 2.
        pub follow: [f32; 4],
        /// Spline points.
        #[br(parse_with = pod_array)]
        #[bw(args(layout))]
        pub spline_points: M2Array<[f32; 3]>,
        /// Emitter enabled.
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub enabled_in: K::Track<u8>,
        /// 272 on: multi-texture parameters (16 bytes; zero in the real file) \[inferred\].
        #[br(if(ctx.version >= 272))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub multi_texture: Option<[u32; 4]>,
    }
}

impl<K: TrackKind> Particle<K> {
    /// The emitter's ten animated parameters, each with its name as the model calls it, in file
    /// order (one list for the mapping and for the notes on values that are not finite).
    pub fn float_tracks(&self) -> [(&'static str, &K::Track<f32>); 10] {
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
