//! Lights and cameras (spec §13; m2-wrath.md §5.4).

use binrw::binrw;
use serde::{Deserialize, Serialize};

use super::array::present;
use super::ctx::Ctx;
use super::kind::{Ranged, TrackKind, by_kind};
use super::layout::Layout;
use super::record::record;

record! {
    size(_version) = by_kind::<K>(212, 156);
    /// A light (212 bytes; 156 from Wrath on, where no real file has one: layout from peers).
    #[binrw]
    #[brw(little)]
    #[br(import(ctx: &Ctx))]
    #[bw(import(layout: &Layout))]
    #[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
    pub struct Light<K: TrackKind = Ranged> {
        /// 0 directional, 1 point.
        pub kind: u16,
        /// Bone, or −1.
        pub bone: i16,
        /// Position.
        pub position: [f32; 3],
        /// Ambient colour.
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub ambient_color: K::Track<[f32; 3]>,
        /// Ambient intensity.
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub ambient_intensity: K::Track<f32>,
        /// Diffuse colour.
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub diffuse_color: K::Track<[f32; 3]>,
        /// Diffuse intensity.
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub diffuse_intensity: K::Track<f32>,
        /// Attenuation start.
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub attenuation_start: K::Track<f32>,
        /// Attenuation end.
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub attenuation_end: K::Track<f32>,
        /// Visibility.
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub visibility: K::Track<u8>,
    }
}

record! {
    size(version) = by_kind::<K>(124, if version >= 272 { 116 } else { 100 });
    /// A camera: 124 bytes up to 263, 100 at 264; 116 at 272, where the field of view became an
    /// animated track at the end (m2-wrath.md §2.3, §5.4).
    #[binrw]
    #[brw(little)]
    #[br(import(ctx: &Ctx))]
    #[bw(import(layout: &Layout))]
    #[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
    pub struct Camera<K: TrackKind = Ranged> {
        /// 0 portrait, −1 fly-by.
        pub kind: i32,
        /// Up to 271: field of view, radians.
        #[br(if(ctx.version < 272))]
        #[bw(if(layout.version < 272), try_map = present("Camera.field_of_view"))]
        pub field_of_view: Option<f32>,
        /// Far clip distance.
        pub far_clip: f32,
        /// Near clip distance.
        pub near_clip: f32,
        /// Animated position offset: spline keys (value, in, out) whatever the interpolation
        /// (measured on the real file: a one-key position block spans 36 bytes).
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub positions: K::Spline<[f32; 3]>,
        /// Base position (final = base + track).
        pub position_base: [f32; 3],
        /// Animated target offset, spline keys.
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub target_positions: K::Spline<[f32; 3]>,
        /// Base target.
        pub target_position_base: [f32; 3],
        /// Roll, radians, spline keys.
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub roll: K::Spline<f32>,
        /// 272 on: field of view, radians, spline keys.
        #[br(if(ctx.version >= 272), args(ctx))]
        #[bw(args(layout))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub field_of_view_track: Option<K::Spline<f32>>,
    }
}
