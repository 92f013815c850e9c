//! Materials and their layers, textures and texture animations (spec §4.5–§4.7).

use std::io::{Read, Seek};

use binrw::{BinRead, BinResult, Endian, binrw};
use relic_core::binary::FixedString;

use super::io::{Ctx, check_within, count32, peek_tag, sized_counted, write_sized_vec};
use super::track::{Track, optional_track, tracks_until};
use super::{Name, Path};

/// MTLS: one material (inclusive-sized record).
#[binrw]
#[brw(little)]
#[br(import_raw(ctx: Ctx))]
#[derive(Debug, Clone, PartialEq)]
pub struct Material {
    /// Priority plane (draw order).
    pub priority_plane: i32,
    /// 0x1 ConstantColor, 0x2 TwoSided, 0x8 SortPrimsNearZ, 0x10 SortPrimsFarZ, 0x20
    /// FullResolution; kept raw.
    pub flags: u32,
    /// The shader name (`Shader_HD_DefaultUnit`): versions 900 and 1000 (read whenever a
    /// version past 800 does not have `LAYS` here, as two readers do for 1100 too: spec §4.5).
    #[br(parse_with = shader, args(ctx))]
    pub shader: Option<Name>,
    #[br(temp)]
    #[bw(try_calc = count32(layers, "layers"))]
    #[brw(magic = b"LAYS")]
    layer_count: u32,
    /// The layers, drawn in order (HD materials before 1100: six, one per texture role).
    #[br(parse_with = sized_counted, args(ctx, layer_count, LAYER_MIN_SIZE))]
    #[bw(write_with = write_sized_vec)]
    pub layers: Vec<Layer>,
}

/// The smallest layer: its size field and the six fields of version 800.
const LAYER_MIN_SIZE: u64 = 28;

fn shader<R: Read + Seek>(reader: &mut R, endian: Endian, args: (Ctx,)) -> BinResult<Option<Name>> {
    let (ctx,) = args;
    if ctx.version <= 800 || peek_tag(reader, ctx.end)? == Some(*b"LAYS") {
        return Ok(None);
    }
    Ok(Some(FixedString::read_options(reader, endian, ())?))
}

/// One layer of a material (inclusive-sized record).
#[binrw]
#[brw(little)]
#[br(import_raw(ctx: Ctx))]
#[derive(Debug, Clone, PartialEq)]
pub struct Layer {
    /// 0 None, 1 Transparent, 2 Blend, 3 Additive, 4 AddAlpha, 5 Modulate, 6 Modulate2x.
    pub filter_mode: u32,
    /// 0x1 Unshaded, 0x2 SphereEnvMap, 0x10 TwoSided, 0x20 Unfogged, 0x40 NoDepthTest, 0x80
    /// NoDepthSet, 0x100 Unlit (…); kept raw.
    pub shading_flags: u32,
    /// Index into `TEXS` (from 1100 the slots name the textures).
    pub texture_id: i32,
    /// Index into `TXAN`, −1 for none.
    pub texture_animation_id: i32,
    /// UV set.
    pub coord_id: u32,
    /// Alpha (0–1).
    pub alpha: f32,
    /// Emissive gain: version 900 on.
    #[br(if(ctx.version >= 900))]
    pub emissive_gain: Option<f32>,
    /// Fresnel colour, opacity and team colour: version 1000 on (in 900 files, read when the
    /// bytes after the emissive gain are not a layer track: the readers disagree, spec §4.5).
    #[br(parse_with = fresnel, args(ctx))]
    pub fresnel: Option<Fresnel>,
    /// The shader type and texture slots: version 1100 on.
    #[br(if(ctx.version >= 1100), args_raw(ctx.end))]
    pub slots: Option<TextureSlots>,
    /// KMTF KMTA KMTE KFC3 KFCA KFTC.
    #[br(parse_with = tracks_until, args(ctx.end))]
    pub tracks: Vec<Track>,
}

/// A layer's Fresnel fields (1000 on).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fresnel {
    /// Fresnel colour.
    pub color: [f32; 3],
    /// Fresnel opacity.
    pub opacity: f32,
    /// Fresnel team colour.
    pub team_color: f32,
}

/// The tags of a layer's tracks.
const LAYER_TRACKS: [[u8; 4]; 6] = [*b"KMTF", *b"KMTA", *b"KMTE", *b"KFC3", *b"KFCA", *b"KFTC"];

fn fresnel<R: Read + Seek>(reader: &mut R, endian: Endian, args: (Ctx,)) -> BinResult<Option<Fresnel>> {
    let (ctx,) = args;
    let present = match ctx.version {
        ..900 => false,
        900 => {
            let pos = reader.stream_position()?;
            let next = peek_tag(reader, ctx.end)?;
            pos + 20 <= ctx.end && !next.is_some_and(|t| LAYER_TRACKS.contains(&t))
        }
        _ => true,
    };
    if !present {
        return Ok(None);
    }
    Ok(Some(Fresnel::read_options(reader, endian, ())?))
}

/// A 1100 layer's shader type and texture slots.
#[binrw]
#[brw(little)]
#[br(import_raw(end: u64))]
#[derive(Debug, Clone, PartialEq)]
pub struct TextureSlots {
    /// 0 Shader_SD_Legacy, 1 Shader_HD_DefaultUnit (2, 24: one source).
    pub shader_type_id: u32,
    #[br(temp)]
    #[bw(try_calc = count32(slots, "slots"))]
    count: u32,
    /// The textures by role.
    #[br(parse_with = slots, args(end, count))]
    pub slots: Vec<TextureSlot>,
}

fn slots<R: Read + Seek>(reader: &mut R, endian: Endian, args: (u64, u32)) -> BinResult<Vec<TextureSlot>> {
    let (end, count) = args;
    check_within(reader, end, u64::from(count), 8)?;
    let mut out = Vec::with_capacity(count as usize);
    for index in 0..count as usize {
        out.push(TextureSlot::read_options(reader, endian, end).map_err(|e| relic_core::binary::in_element(e, index))?);
    }
    Ok(out)
}

/// One texture slot of a 1100 layer.
#[binrw]
#[brw(little)]
#[br(import_raw(end: u64))]
#[derive(Debug, Clone, PartialEq)]
pub struct TextureSlot {
    /// Index into `TEXS`.
    pub texture_id: u32,
    /// Role: 0 diffuse, 1 normal, 2 ORM, 3 emissive, 4 team colour, 5 reflections.
    pub slot: u32,
    /// The slot's KMTF track, when the next tag is `KMTF` (a layer's own KMTF after the last slot
    /// is read here too: the bytes are the same).
    #[br(parse_with = optional_track, args(*b"KMTF", end))]
    pub track: Option<Track>,
}

/// TEXS: one texture (268 bytes).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq)]
pub struct Texture {
    /// 0 for a file; 1 team colour, 2 team glow, 11 cliff, 31–37 trees (spec §4.6).
    pub replaceable_id: u32,
    /// The image path (empty when replaceable).
    pub path: Path,
    /// 0x1 WrapWidth, 0x2 WrapHeight.
    pub flags: u32,
}

/// Size of a [`Texture`].
pub const TEXTURE_SIZE: u64 = 268;

/// TXAN: one texture animation (inclusive-sized record).
#[binrw]
#[brw(little)]
#[br(import_raw(ctx: Ctx))]
#[derive(Debug, Clone, PartialEq)]
pub struct TextureAnim {
    /// KTAT (translation), KTAR (rotation), KTAS (scaling).
    #[br(parse_with = tracks_until, args(ctx.end))]
    pub tracks: Vec<Track>,
}
