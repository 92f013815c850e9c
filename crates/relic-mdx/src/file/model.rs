//! The model-wide records: MODL, SEQS, the extent they share, CAMS, FAFX and BPOS (spec §2.5,
//! §4.1, §4.2, §4.18, §4.21, §4.22).

use binrw::binrw;

use super::io::{Ctx, count32, pod_within, write_pods};
use super::track::{Track, tracks_until};
use super::{Name, Path};

/// Bounds: a radius and an axis-aligned box (28 bytes).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Extent {
    /// Bounding-sphere radius.
    pub bounds_radius: f32,
    /// Minimum corner.
    pub minimum: [f32; 3],
    /// Maximum corner.
    pub maximum: [f32; 3],
}

/// Size of an [`Extent`].
pub const EXTENT_SIZE: u64 = 28;

/// MODL: the model's name, bounds and blend time (372 bytes).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq)]
pub struct ModelInfo {
    /// The model's name.
    pub name: Name,
    /// Animation file: normally empty; real files hold `PDR` after the NUL, kept.
    pub animation_file: Path,
    /// Bounds.
    pub extent: Extent,
    /// Blend time, milliseconds.
    pub blend_time: u32,
}

/// Size of a [`ModelInfo`].
pub const MODEL_INFO_SIZE: u64 = 372;

/// SEQS: one sequence (132 bytes).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq)]
pub struct Sequence {
    /// Name (`Stand`, `Walk`, `Attack - 2`).
    pub name: Name,
    /// First frame, milliseconds on the model's one timeline.
    pub interval_start: u32,
    /// Last frame, milliseconds.
    pub interval_end: u32,
    /// Movement speed.
    pub move_speed: f32,
    /// 1 NonLooping.
    pub flags: u32,
    /// Rarity.
    pub rarity: f32,
    /// Sync point (no MDL keyword; 0 in every real file).
    pub sync_point: u32,
    /// Bounds during the sequence.
    pub extent: Extent,
}

/// Size of a [`Sequence`].
pub const SEQUENCE_SIZE: u64 = 132;

/// CAMS: one camera (inclusive-sized record; not a node).
#[binrw]
#[brw(little)]
#[br(import_raw(ctx: Ctx))]
#[derive(Debug, Clone, PartialEq)]
pub struct Camera {
    /// Name.
    pub name: Name,
    /// Position.
    pub position: [f32; 3],
    /// Field of view, radians.
    pub field_of_view: f32,
    /// Far clip distance.
    pub far_clip: f32,
    /// Near clip distance.
    pub near_clip: f32,
    /// Target position.
    pub target_position: [f32; 3],
    /// KCTR (translation), KCRL (roll), KTTR (target translation).
    #[br(parse_with = tracks_until, args(ctx.end))]
    pub tracks: Vec<Track>,
}

/// FAFX: one FaceFX entry (900 on; 340 bytes).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq)]
pub struct FaceFx {
    /// Name (called "type" by one reader).
    pub name: Name,
    /// The FaceFX file.
    pub path: Path,
}

/// Size of a [`FaceFx`].
pub const FACE_FX_SIZE: u64 = 340;

/// BPOS: the bind pose (900 on): one 3×4 matrix per node, column-major (three columns, then the
/// translation, which equals the node's pivot in real files).
#[binrw]
#[brw(little)]
#[br(import_raw(ctx: Ctx))]
#[derive(Debug, Clone, PartialEq)]
pub struct BindPose {
    #[br(temp)]
    #[bw(try_calc = count32(matrices, "matrices"))]
    count: u32,
    /// The matrices.
    #[br(parse_with = pod_within, args(ctx.end, count))]
    #[bw(write_with = write_pods)]
    pub matrices: Vec<[f32; 12]>,
}
