//! Lights and cameras (spec §13).

use binrw::binrw;
use serde::{Deserialize, Serialize};

use super::layout::Layout;
use super::record::{Record, Visitor};
use super::track::{Ctx, SplineTrack, Track};

/// A light (212 bytes).
#[binrw]
#[brw(little)]
#[br(import(ctx: Ctx))]
#[bw(import(layout: &Layout))]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Light {
    /// 0 directional, 1 point.
    pub kind: u16,
    /// Bone, or −1.
    pub bone: i16,
    /// Position.
    pub position: [f32; 3],
    /// Ambient colour.
    #[br(args(ctx))]
    #[bw(args(layout))]
    pub ambient_color: Track<[f32; 3]>,
    /// Ambient intensity.
    #[br(args(ctx))]
    #[bw(args(layout))]
    pub ambient_intensity: Track<f32>,
    /// Diffuse colour.
    #[br(args(ctx))]
    #[bw(args(layout))]
    pub diffuse_color: Track<[f32; 3]>,
    /// Diffuse intensity.
    #[br(args(ctx))]
    #[bw(args(layout))]
    pub diffuse_intensity: Track<f32>,
    /// Attenuation start.
    #[br(args(ctx))]
    #[bw(args(layout))]
    pub attenuation_start: Track<f32>,
    /// Attenuation end.
    #[br(args(ctx))]
    #[bw(args(layout))]
    pub attenuation_end: Track<f32>,
    /// Visibility.
    #[br(args(ctx))]
    #[bw(args(layout))]
    pub visibility: Track<u8>,
}

impl Record for Light {
    const PAIRS: usize = 21;
    fn size(_: u32) -> u64 {
        212
    }
    fn visit<'f, V: Visitor<'f>>(&'f self, v: &mut V) {
        self.ambient_color.visit("ambient_color", v);
        self.ambient_intensity.visit("ambient_intensity", v);
        self.diffuse_color.visit("diffuse_color", v);
        self.diffuse_intensity.visit("diffuse_intensity", v);
        self.attenuation_start.visit("attenuation_start", v);
        self.attenuation_end.visit("attenuation_end", v);
        self.visibility.visit("visibility", v);
    }
}

/// A camera (124 bytes).
#[binrw]
#[brw(little)]
#[br(import(ctx: Ctx))]
#[bw(import(layout: &Layout))]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Camera {
    /// 0 portrait, −1 fly-by.
    pub kind: i32,
    /// Field of view, radians.
    pub field_of_view: f32,
    /// Far clip distance.
    pub far_clip: f32,
    /// Near clip distance.
    pub near_clip: f32,
    /// Animated position offset.
    #[br(args(ctx))]
    #[bw(args(layout))]
    pub positions: SplineTrack<[f32; 3]>,
    /// Base position (final = base + track).
    pub position_base: [f32; 3],
    /// Animated target offset.
    #[br(args(ctx))]
    #[bw(args(layout))]
    pub target_positions: SplineTrack<[f32; 3]>,
    /// Base target.
    pub target_position_base: [f32; 3],
    /// Roll, radians.
    #[br(args(ctx))]
    #[bw(args(layout))]
    pub roll: SplineTrack<f32>,
}

impl Record for Camera {
    const PAIRS: usize = 9;
    fn size(_: u32) -> u64 {
        124
    }
    fn visit<'f, V: Visitor<'f>>(&'f self, v: &mut V) {
        self.positions.visit("positions", v);
        self.target_positions.visit("target_positions", v);
        self.roll.visit("roll", v);
    }
}
