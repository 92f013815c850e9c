//! Ribbon and particle emitters (spec §14; m2-wrath.md §5.3). None in the real files has a ribbon;
//! the particle layout is verified on the twelve emitters of the real 1.12 file.

use binrw::binrw;
use serde::{Deserialize, Serialize};

use super::array::{M2Array, pod_array};
use super::ctx::Ctx;
use super::kind::{Ranged, TrackKind, by_kind};
use super::layout::Layout;
use super::record::record;
use super::sequence::Bounds;
use super::track::Track;

record! {
    size(_version) = by_kind::<K>(220, 176);
    /// A ribbon emitter (220 bytes; 176 from Wrath on; none in the real files, layout from
    /// peers).
    #[binrw]
    #[brw(little)]
    #[br(import(ctx: &Ctx))]
    #[bw(import(layout: &Layout))]
    #[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
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
        /// Colour.
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub color: K::Track<[f32; 3]>,
        /// Alpha (0x7FFF opaque).
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub alpha: K::Track<i16>,
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

/// Bytes 0x28–0x2B of a particle emitter: their split differs between peers (spec §14
/// \[conflict\]: WMVx splits them for 263, DRW for every version from 260). From 260 the split
/// reading is taken when it gives a blend mode and emitter type the game uses, or when the wide
/// one does not; up to 259 always the wide one.
#[binrw]
#[brw(little)]
#[br(import(version: u32))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ParticleBlend {
    /// 260+ (when it reads sensibly): u8 blend mode, u8 emitter type, u16 colour index.
    #[br(pre_assert(version >= 260))]
    #[br(assert(sensible(u16::from(blend_mode), u16::from(emitter_type)) || !sensible(u16::from_le_bytes([blend_mode, emitter_type]), color_index)))]
    Split {
        /// Blend mode.
        blend_mode: u8,
        /// 1 plane, 2 sphere, 3 spline.
        emitter_type: u8,
        /// Particle colour index.
        color_index: u16,
    },
    /// Classic (and 260+ when only this reads sensibly): u16 blend mode, u16 emitter type.
    Wide {
        /// Blend mode.
        blend_mode: u16,
        /// 1 plane, 2 sphere, 3 spline.
        emitter_type: u16,
    },
}

impl Default for ParticleBlend {
    fn default() -> Self {
        ParticleBlend::Wide { blend_mode: 0, emitter_type: 1 }
    }
}

super::record::plain!(ParticleBlend);

/// A blend mode and emitter type the game uses (blend 0–7, emitter 1–3).
fn sensible(blend: u16, emitter: u16) -> bool {
    blend <= 7 && (1..=3).contains(&emitter)
}

record! {
    size(_version) = 504;
    /// A particle emitter (504 bytes, up to 263; from Wrath on
    /// [`WrathParticle`](super::wrath::WrathParticle)).
    #[binrw]
    #[brw(little)]
    #[br(import(ctx: &Ctx))]
    #[bw(import(layout: &Layout))]
    #[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
    pub struct Particle {
        /// Id (−1).
        pub id: i32,
        /// Flags.
        pub flags: u32,
        /// Position relative to the bone's pivot frame (model space).
        pub position: [f32; 3],
        /// Bone.
        pub bone: u16,
        /// Texture index.
        pub texture: u16,
        /// Geometry model file name with NUL.
        #[br(parse_with = pod_array)]
        #[bw(args(layout))]
        pub geometry_model: M2Array<u8>,
        /// Recursion model file name with NUL.
        #[br(parse_with = pod_array)]
        #[bw(args(layout))]
        pub recursion_model: M2Array<u8>,
        /// Blend mode and emitter type (layout differs by version).
        #[br(args(ctx.version))]
        pub blending: ParticleBlend,
        /// 0 normal, 1 large quad, 2.
        pub particle_type: u8,
        /// Head, tail or both.
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
        pub emission_speed: Track<f32>,
        /// Speed variation (0–1).
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub speed_variation: Track<f32>,
        /// Vertical range (0–π).
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub vertical_range: Track<f32>,
        /// Horizontal range (0–2π).
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub horizontal_range: Track<f32>,
        /// Gravity.
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub gravity: Track<f32>,
        /// Lifespan, seconds.
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub lifespan: Track<f32>,
        /// Particles per second.
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub emission_rate: Track<f32>,
        /// Emission area length.
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub emission_area_length: Track<f32>,
        /// Emission area width.
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub emission_area_width: Track<f32>,
        /// Z source ("gravity 2").
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub z_source: Track<f32>,
        /// Mid point of the lifespan (0–1).
        pub mid_point: f32,
        /// Colours at start, mid and end (B, G, R, A).
        pub colors: [[u8; 4]; 3],
        /// Sizes at start, mid and end.
        pub sizes: [f32; 3],
        /// Head and tail UV-cell ranges (lifespan and decay).
        pub uv_cells: [u16; 10],
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
        /// Spin.
        pub spin: f32,
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
        pub enabled_in: Track<u8>,
    }
}

impl Particle {
    /// The emitter's ten animated parameters, each with its name as the model calls it, in file
    /// order (one list for the mapping and for the notes on values that are not finite).
    pub fn float_tracks(&self) -> [(&'static str, &Track<f32>); 10] {
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
