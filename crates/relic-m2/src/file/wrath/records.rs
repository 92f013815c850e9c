//! The records of Wrath and later whose layout changed (m2-wrath.md §3.2, §5): 64-byte
//! sequences, 88-byte bones, and every record holding tracks (now per-sequence, 20 bytes each).
//! Records that did not change (vertex, texture, material, texture unit, 48-byte submesh) are the
//! pre-Wrath types.

use binrw::binrw;
use bytemuck::{Pod, Zeroable};
use serde::{Deserialize, Serialize};

use super::track::{KeyCtx, PerKey, SeqEventTrack, SeqTrack};
use crate::file::array::{M2Array, pod_array};
use crate::file::layout::Layout;
use crate::file::record::{Field, Record, Visitor};
use crate::file::sequence::Bounds;

/// Sequence flag 0x20: the sequence's keys are inside the `.m2` (§3.3).
pub const SEQUENCE_IN_MODEL: u32 = 0x20;
/// Sequence flag 0x40: an alias; its keys are those of `alias_next` (followed to a non-alias).
pub const SEQUENCE_ALIAS: u32 = 0x40;
/// The flags that keep a sequence's keys in the `.m2` (0x10 low-priority, 0x20 in model, 0x100
/// stored in model: pywowlib's and M2Lib's rule, §3.4); without any of them the keys are in a
/// `.anim` file.
pub const SEQUENCE_NOT_EXTERNAL: u32 = 0x130;

/// A sequence from Wrath on (64 bytes; pre-Wrath `start, end` became one `duration`).
#[derive(Debug, Clone, Copy, PartialEq, Default, Pod, Zeroable, Serialize, Deserialize)]
#[repr(C)]
pub struct WrathSequence {
    /// AnimationData.dbc id.
    pub id: u16,
    /// Variation index, 0..n−1 per id.
    pub variation: u16,
    /// Length in milliseconds; every timeline of the sequence runs from 0 to it.
    pub duration: u32,
    /// Movement speed while playing (yards per second).
    pub move_speed: f32,
    /// Flags: 0x1/0x2 as pre-Wrath, 0x20 keys in the `.m2`, 0x40 alias (§3.3); others kept.
    pub flags: u32,
    /// Relative frequency among the variations of one id.
    pub frequency: i16,
    /// Padding.
    pub padding: u16,
    /// Minimum and maximum number of repetitions.
    pub replay: [u32; 2],
    /// Milliseconds to blend into this sequence (the upper half is 0 in every 264/272 file;
    /// later files split it into blend-in and blend-out, §2.3: kept whole).
    pub blend_time: u32,
    /// Box of the posed model over the sequence.
    pub bounds: Bounds,
    /// Radius of the bounding sphere.
    pub bounds_radius: f32,
    /// Index of the next sequence with the same id, or −1.
    pub next_variation: i16,
    /// Alias: the sequence whose keys this one uses (itself for a non-alias, the alias for an
    /// alias's target: §3.2).
    pub alias_next: u16,
}

const _: () = assert!(size_of::<WrathSequence>() == 64);

impl WrathSequence {
    /// True if the sequence is an alias of `alias_next`.
    pub fn is_alias(&self) -> bool {
        self.flags & SEQUENCE_ALIAS != 0
    }
}

/// A bone from Wrath on (88 bytes).
#[binrw]
#[brw(little)]
#[br(import(ctx: &KeyCtx))]
#[bw(import(layout: &Layout))]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct WrathBone {
    /// Key-bone id, or −1.
    pub key_bone_id: i32,
    /// Flags, as pre-Wrath (billboards, ignore-parent bits, 0x200 animated).
    pub flags: u32,
    /// Parent bone, or −1.
    pub parent: i16,
    /// `floor(36 × |pivot − parent pivot|)`, 0 for roots, in 635 of 637 real bones (§5.1) \[inferred\].
    pub distance_to_parent: u16,
    /// Bone-name CRC: hash input unknown \[unknown\]; kept as read.
    pub name_crc: u32,
    /// Translation.
    #[br(args(ctx, PerKey::ByInterpolation))]
    #[bw(args(layout))]
    pub translation: SeqTrack<[f32; 3]>,
    /// Rotation, compressed quaternions (excess-32767, as 260–263).
    #[br(args(ctx, PerKey::ByInterpolation))]
    #[bw(args(layout))]
    pub rotation: SeqTrack<[i16; 4]>,
    /// Scale.
    #[br(args(ctx, PerKey::ByInterpolation))]
    #[bw(args(layout))]
    pub scale: SeqTrack<[f32; 3]>,
    /// Pivot, model space.
    pub pivot: [f32; 3],
}

impl Record for WrathBone {
    const PAIRS: usize = 6;
    fn size(_: u32) -> u64 {
        88
    }
    fn visit<'f, V: Visitor<'f>>(&'f self, v: &mut V) {
        self.translation.visit("translation", v);
        self.rotation.visit("rotation", v);
        self.scale.visit("scale", v);
    }
}

/// A colour animation from Wrath on (40 bytes).
#[binrw]
#[brw(little)]
#[br(import(ctx: &KeyCtx))]
#[bw(import(layout: &Layout))]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct WrathColor {
    /// RGB, 0–1.
    #[br(args(ctx, PerKey::ByInterpolation))]
    #[bw(args(layout))]
    pub color: SeqTrack<[f32; 3]>,
    /// Alpha, 0x7FFF opaque.
    #[br(args(ctx, PerKey::ByInterpolation))]
    #[bw(args(layout))]
    pub alpha: SeqTrack<i16>,
}

impl Record for WrathColor {
    const PAIRS: usize = 4;
    fn size(_: u32) -> u64 {
        40
    }
    fn visit<'f, V: Visitor<'f>>(&'f self, v: &mut V) {
        self.color.visit("color", v);
        self.alpha.visit("alpha", v);
    }
}

/// A texture weight from Wrath on (20 bytes).
#[binrw]
#[brw(little)]
#[br(import(ctx: &KeyCtx))]
#[bw(import(layout: &Layout))]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct WrathTextureWeight {
    /// Weight, value / 32767 is the alpha multiplier.
    #[br(args(ctx, PerKey::ByInterpolation))]
    #[bw(args(layout))]
    pub weight: SeqTrack<i16>,
}

impl Record for WrathTextureWeight {
    const PAIRS: usize = 2;
    fn size(_: u32) -> u64 {
        20
    }
    fn visit<'f, V: Visitor<'f>>(&'f self, v: &mut V) {
        self.weight.visit("weight", v);
    }
}

/// A texture transform from Wrath on (60 bytes).
#[binrw]
#[brw(little)]
#[br(import(ctx: &KeyCtx))]
#[bw(import(layout: &Layout))]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct WrathTextureTransform {
    /// UV translation.
    #[br(args(ctx, PerKey::ByInterpolation))]
    #[bw(args(layout))]
    pub translation: SeqTrack<[f32; 3]>,
    /// UV rotation, read as 4×f32 like pre-Wrath (value type \[unknown\], §5.4).
    #[br(args(ctx, PerKey::ByInterpolation))]
    #[bw(args(layout))]
    pub rotation: SeqTrack<[f32; 4]>,
    /// UV scale.
    #[br(args(ctx, PerKey::ByInterpolation))]
    #[bw(args(layout))]
    pub scaling: SeqTrack<[f32; 3]>,
}

impl Record for WrathTextureTransform {
    const PAIRS: usize = 6;
    fn size(_: u32) -> u64 {
        60
    }
    fn visit<'f, V: Visitor<'f>>(&'f self, v: &mut V) {
        self.translation.visit("translation", v);
        self.rotation.visit("rotation", v);
        self.scaling.visit("scaling", v);
    }
}

/// An attachment point from Wrath on (40 bytes).
#[binrw]
#[brw(little)]
#[br(import(ctx: &KeyCtx))]
#[bw(import(layout: &Layout))]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct WrathAttachment {
    /// Slot id.
    pub id: u32,
    /// Bone the point moves with.
    pub bone: u16,
    /// Unknown (0).
    pub unknown: u16,
    /// Position, model space.
    pub position: [f32; 3],
    /// Visibility.
    #[br(args(ctx, PerKey::ByInterpolation))]
    #[bw(args(layout))]
    pub visibility: SeqTrack<u8>,
}

impl Record for WrathAttachment {
    const PAIRS: usize = 2;
    fn size(_: u32) -> u64 {
        40
    }
    fn visit<'f, V: Visitor<'f>>(&'f self, v: &mut V) {
        self.visibility.visit("visibility", v);
    }
}

/// A timed event from Wrath on (36 bytes).
#[binrw]
#[brw(little)]
#[br(import(ctx: &KeyCtx))]
#[bw(import(layout: &Layout))]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct WrathEvent {
    /// Identifier such as `$CSS`.
    pub identifier: [u8; 4],
    /// Event data.
    pub data: u32,
    /// Bone.
    pub bone: u32,
    /// Position, model space.
    pub position: [f32; 3],
    /// Firing times per sequence.
    #[br(args(ctx))]
    #[bw(args(layout))]
    pub times: SeqEventTrack,
}

impl Record for WrathEvent {
    const PAIRS: usize = 1;
    fn size(_: u32) -> u64 {
        36
    }
    fn visit<'f, V: Visitor<'f>>(&'f self, v: &mut V) {
        v.timelines(Field::part("times", "timestamps"), &self.times.timestamps);
    }
}

/// A light from Wrath on (156 bytes; none in the real files, layout from peers, §5.4).
#[binrw]
#[brw(little)]
#[br(import(ctx: &KeyCtx))]
#[bw(import(layout: &Layout))]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct WrathLight {
    /// 0 directional, 1 point.
    pub kind: u16,
    /// Bone, or −1.
    pub bone: i16,
    /// Position.
    pub position: [f32; 3],
    /// Ambient colour.
    #[br(args(ctx, PerKey::ByInterpolation))]
    #[bw(args(layout))]
    pub ambient_color: SeqTrack<[f32; 3]>,
    /// Ambient intensity.
    #[br(args(ctx, PerKey::ByInterpolation))]
    #[bw(args(layout))]
    pub ambient_intensity: SeqTrack<f32>,
    /// Diffuse colour.
    #[br(args(ctx, PerKey::ByInterpolation))]
    #[bw(args(layout))]
    pub diffuse_color: SeqTrack<[f32; 3]>,
    /// Diffuse intensity.
    #[br(args(ctx, PerKey::ByInterpolation))]
    #[bw(args(layout))]
    pub diffuse_intensity: SeqTrack<f32>,
    /// Attenuation start.
    #[br(args(ctx, PerKey::ByInterpolation))]
    #[bw(args(layout))]
    pub attenuation_start: SeqTrack<f32>,
    /// Attenuation end.
    #[br(args(ctx, PerKey::ByInterpolation))]
    #[bw(args(layout))]
    pub attenuation_end: SeqTrack<f32>,
    /// Visibility.
    #[br(args(ctx, PerKey::ByInterpolation))]
    #[bw(args(layout))]
    pub visibility: SeqTrack<u8>,
}

impl Record for WrathLight {
    const PAIRS: usize = 14;
    fn size(_: u32) -> u64 {
        156
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

/// A camera from Wrath on: 100 bytes at 264; at 272 116 bytes, the field of view an animated
/// track at the end instead of a float (§2.3, §5.4).
#[binrw]
#[brw(little)]
#[br(import(ctx: &KeyCtx))]
#[bw(import(layout: &Layout))]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct WrathCamera {
    /// 0 portrait, −1 fly-by.
    pub kind: i32,
    /// Up to 271: field of view, radians.
    #[br(if(ctx.version < 272))]
    pub field_of_view: Option<f32>,
    /// Far clip distance.
    pub far_clip: f32,
    /// Near clip distance.
    pub near_clip: f32,
    /// Position offset, spline keys (value, in, out) whatever the interpolation.
    #[br(args(ctx, PerKey::One))]
    #[bw(args(layout))]
    pub positions: SeqTrack<[[f32; 3]; 3]>,
    /// Base position.
    pub position_base: [f32; 3],
    /// Target offset, spline keys.
    #[br(args(ctx, PerKey::One))]
    #[bw(args(layout))]
    pub target_positions: SeqTrack<[[f32; 3]; 3]>,
    /// Base target.
    pub target_position_base: [f32; 3],
    /// Roll, radians, spline keys.
    #[br(args(ctx, PerKey::One))]
    #[bw(args(layout))]
    pub roll: SeqTrack<[f32; 3]>,
    /// 272 on: field of view, radians, spline keys.
    #[br(if(ctx.version >= 272), args(ctx, PerKey::One))]
    #[bw(args(layout))]
    pub field_of_view_track: Option<SeqTrack<[f32; 3]>>,
}

impl Record for WrathCamera {
    const PAIRS: usize = 8;
    fn size(version: u32) -> u64 {
        if version >= 272 { 116 } else { 100 }
    }
    fn pairs(version: u32) -> usize {
        if version >= 272 { 8 } else { 6 }
    }
    fn visit<'f, V: Visitor<'f>>(&'f self, v: &mut V) {
        self.positions.visit("positions", v);
        self.target_positions.visit("target_positions", v);
        self.roll.visit("roll", v);
        if let Some(t) = &self.field_of_view_track {
            t.visit("field_of_view_track", v);
        }
    }
}

/// A ribbon emitter from Wrath on (176 bytes; none in the real files, layout from peers, §5.4).
#[binrw]
#[brw(little)]
#[br(import(ctx: &KeyCtx))]
#[bw(import(layout: &Layout))]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct WrathRibbon {
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
    #[br(args(ctx, PerKey::ByInterpolation))]
    #[bw(args(layout))]
    pub color: SeqTrack<[f32; 3]>,
    /// Alpha.
    #[br(args(ctx, PerKey::ByInterpolation))]
    #[bw(args(layout))]
    pub alpha: SeqTrack<i16>,
    /// Height above the bone.
    #[br(args(ctx, PerKey::ByInterpolation))]
    #[bw(args(layout))]
    pub height_above: SeqTrack<f32>,
    /// Height below the bone.
    #[br(args(ctx, PerKey::ByInterpolation))]
    #[bw(args(layout))]
    pub height_below: SeqTrack<f32>,
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
    #[br(args(ctx, PerKey::ByInterpolation))]
    #[bw(args(layout))]
    pub texture_slot: SeqTrack<u16>,
    /// Visibility.
    #[br(args(ctx, PerKey::ByInterpolation))]
    #[bw(args(layout))]
    pub visibility: SeqTrack<u8>,
    /// Priority plane.
    pub priority_plane: i16,
    /// Padding (pywowlib) or colour/transform index (WMVx) \[unknown\]: kept.
    pub padding: u16,
}

impl Record for WrathRibbon {
    const PAIRS: usize = 14;
    fn size(_: u32) -> u64 {
        176
    }
    fn visit<'f, V: Visitor<'f>>(&'f self, v: &mut V) {
        v.pod(Field::new("textures"), &self.textures);
        v.pod(Field::new("materials"), &self.materials);
        self.color.visit("color", v);
        self.alpha.visit("alpha", v);
        self.height_above.visit("height_above", v);
        self.height_below.visit("height_below", v);
        self.texture_slot.visit("texture_slot", v);
        self.visibility.visit("visibility", v);
    }
}
