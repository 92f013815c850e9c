//! Emitters (spec §4.14–§4.17): each an inclusive-sized record of a node, fixed fields and
//! tracks.

use binrw::binrw;

use super::Path;
use super::io::{Ctx, sized, write_sized};
use super::node::Node;
use super::track::{Track, tracks_until};

/// PREM: a particle emitter of the first kind (spawns a model or a texture).
#[binrw]
#[brw(little)]
#[br(import_raw(ctx: Ctx))]
#[derive(Debug, Clone, PartialEq)]
pub struct ParticleEmitter {
    /// The node (flag 0x8000 EmitterUsesMDL, 0x10000 EmitterUsesTGA).
    #[br(parse_with = sized, args_raw(ctx))]
    #[bw(write_with = write_sized)]
    pub node: Node,
    /// Particles per second.
    pub emission_rate: f32,
    /// Gravity.
    pub gravity: f32,
    /// Longitude.
    pub longitude: f32,
    /// Latitude.
    pub latitude: f32,
    /// The model or texture emitted.
    pub path: Path,
    /// Particle life span, seconds.
    pub life_span: f32,
    /// Initial velocity.
    pub init_velocity: f32,
    /// KPEE KPEG KPLN KPLT KPEL KPES KPEV.
    #[br(parse_with = tracks_until, args(ctx.end))]
    pub tracks: Vec<Track>,
}

/// PRE2: a particle emitter of the second kind (billboards); 171 fixed bytes after the node,
/// unaligned after the three segment alphas.
#[binrw]
#[brw(little)]
#[br(import_raw(ctx: Ctx))]
#[derive(Debug, Clone, PartialEq)]
pub struct ParticleEmitter2 {
    /// The node (flags: 0x8000 Unshaded, 0x10000 SortPrimsFarZ, 0x20000 LineEmitter, 0x40000
    /// Unfogged, 0x80000 ModelSpace, 0x100000 XYQuad).
    #[br(parse_with = sized, args_raw(ctx))]
    #[bw(write_with = write_sized)]
    pub node: Node,
    /// Speed.
    pub speed: f32,
    /// Speed variation.
    pub variation: f32,
    /// Latitude.
    pub latitude: f32,
    /// Gravity.
    pub gravity: f32,
    /// Particle life span, seconds.
    pub life_span: f32,
    /// Particles per second.
    pub emission_rate: f32,
    /// The 7th float, animated by KP2N: `Width` in Magos' and MdlxConv's MDL (disputed, §4.15).
    pub width: f32,
    /// The 8th float, animated by KP2W: `Length` in Magos' and MdlxConv's MDL (disputed).
    pub length: f32,
    /// 0 Blend, 1 Additive, 2 Modulate, 3 Modulate2x, 4 AlphaKey.
    pub filter_mode: u32,
    /// Texture rows.
    pub rows: u32,
    /// Texture columns.
    pub columns: u32,
    /// 0 Head, 1 Tail, 2 Both.
    pub head_or_tail: u32,
    /// Tail length.
    pub tail_length: f32,
    /// The middle of the particle's life (0–1).
    pub time: f32,
    /// Colours at birth, middle and death.
    pub segment_color: [[f32; 3]; 3],
    /// Alphas (0–255) at birth, middle and death.
    pub segment_alpha: [u8; 3],
    /// Scalings at birth, middle and death.
    pub segment_scaling: [f32; 3],
    /// Head intervals: LifeSpanUVAnim, DecayUVAnim (start, end, repeat).
    pub head_intervals: [[u32; 3]; 2],
    /// Tail intervals: TailUVAnim, TailDecayUVAnim.
    pub tail_intervals: [[u32; 3]; 2],
    /// Index into `TEXS`.
    pub texture_id: i32,
    /// Squirt (0 or 1).
    pub squirt: u32,
    /// Priority plane.
    pub priority_plane: i32,
    /// Replaceable texture id (as `TEXS`).
    pub replaceable_id: u32,
    /// KP2S KP2R KP2L KP2G KP2E KP2N KP2W KP2V.
    #[br(parse_with = tracks_until, args(ctx.end))]
    pub tracks: Vec<Track>,
}

/// CORN: a PopcornFX emitter (900 on; 552 fixed bytes after the node).
#[binrw]
#[brw(little)]
#[br(import_raw(ctx: Ctx))]
#[derive(Debug, Clone, PartialEq)]
pub struct PopcornEmitter {
    /// The node.
    #[br(parse_with = sized, args_raw(ctx))]
    #[bw(write_with = write_sized)]
    pub node: Node,
    /// Life span.
    pub life_span: f32,
    /// Emission rate.
    pub emission_rate: f32,
    /// Speed.
    pub speed: f32,
    /// Colour.
    pub color: [f32; 3],
    /// Alpha.
    pub alpha: f32,
    /// Replaceable texture id.
    pub replaceable_id: u32,
    /// The `.pkfx` effect.
    pub path: Path,
    /// Animation visibility guide.
    pub animation_visibility_guide: Path,
    /// KPPA KPPC KPPE KPPL KPPS KPPV.
    #[br(parse_with = tracks_until, args(ctx.end))]
    pub tracks: Vec<Track>,
}

/// RIBB: a ribbon emitter (52 fixed bytes after the node).
#[binrw]
#[brw(little)]
#[br(import_raw(ctx: Ctx))]
#[derive(Debug, Clone, PartialEq)]
pub struct RibbonEmitter {
    /// The node.
    #[br(parse_with = sized, args_raw(ctx))]
    #[bw(write_with = write_sized)]
    pub node: Node,
    /// Height above the node.
    pub height_above: f32,
    /// Height below the node.
    pub height_below: f32,
    /// Alpha (the track default is 0).
    pub alpha: f32,
    /// Colour.
    pub color: [f32; 3],
    /// Life span, seconds.
    pub life_span: f32,
    /// Texture slot.
    pub texture_slot: u32,
    /// Emission rate (an integer).
    pub emission_rate: u32,
    /// Texture rows.
    pub rows: u32,
    /// Texture columns.
    pub columns: u32,
    /// Index into `MTLS`.
    pub material_id: i32,
    /// Gravity.
    pub gravity: f32,
    /// KRHA KRHB KRAL KRCO KRTX KRVS.
    #[br(parse_with = tracks_until, args(ctx.end))]
    pub tracks: Vec<Track>,
}
