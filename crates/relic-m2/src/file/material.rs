//! Textures, render flags, and the animated colours, texture weights and texture transforms the
//! texture units name (spec §12).

use binrw::binrw;
use bytemuck::{Pod, Zeroable};
use serde::{Deserialize, Serialize};

use super::array::{M2Array, pod_array};
use super::layout::Layout;
use super::record::{Field, Record, Visitor};
use super::track::{Ctx, Track};

/// A colour animation (56 bytes).
#[binrw]
#[brw(little)]
#[br(import(ctx: Ctx))]
#[bw(import(layout: &Layout))]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Color {
    /// RGB, 0–1.
    #[br(args(ctx))]
    #[bw(args(layout))]
    pub color: Track<[f32; 3]>,
    /// Alpha, 0x7FFF opaque.
    #[br(args(ctx))]
    #[bw(args(layout))]
    pub alpha: Track<i16>,
}

impl Record for Color {
    const PAIRS: usize = 6;
    fn size(_: u32) -> u64 {
        56
    }
    fn visit<'f, V: Visitor<'f>>(&'f self, v: &mut V) {
        self.color.visit("color", v);
        self.alpha.visit("alpha", v);
    }
}

/// A texture (16 bytes).
#[binrw]
#[brw(little)]
#[bw(import(layout: &Layout))]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Texture {
    /// Replaceable type: 0 the file name is given; 1 body, 2 cape, 6 hair, 8 fur, 11–13 creature skins.
    pub kind: u32,
    /// 0x1 wrap U, 0x2 wrap V.
    pub flags: u32,
    /// File name with its NUL (`"\0"` for replaceable textures).
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub filename: M2Array<u8>,
}

impl Record for Texture {
    const PAIRS: usize = 1;
    fn size(_: u32) -> u64 {
        16
    }
    fn visit<'f, V: Visitor<'f>>(&'f self, v: &mut V) {
        v.pod(Field::new("filename"), &self.filename);
    }
}

impl Texture {
    /// The file name: the text before the first NUL, Windows-1252.
    pub fn filename_text(&self) -> String {
        super::array::text(&self.filename)
    }
}

/// A texture weight (transparency animation, 28 bytes).
#[binrw]
#[brw(little)]
#[br(import(ctx: Ctx))]
#[bw(import(layout: &Layout))]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct TextureWeight {
    /// Weight, value / 32767 is the alpha multiplier.
    #[br(args(ctx))]
    #[bw(args(layout))]
    pub weight: Track<i16>,
}

impl Record for TextureWeight {
    const PAIRS: usize = 3;
    fn size(_: u32) -> u64 {
        28
    }
    fn visit<'f, V: Visitor<'f>>(&'f self, v: &mut V) {
        self.weight.visit("weight", v);
    }
}

/// A texture transform (UV animation, 84 bytes).
#[binrw]
#[brw(little)]
#[br(import(ctx: Ctx))]
#[bw(import(layout: &Layout))]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct TextureTransform {
    /// UV translation.
    #[br(args(ctx))]
    #[bw(args(layout))]
    pub translation: Track<[f32; 3]>,
    /// UV rotation: read as 4×f32 quaternions (the type is unresolved among peers, spec §8).
    #[br(args(ctx))]
    #[bw(args(layout))]
    pub rotation: Track<[f32; 4]>,
    /// UV scale.
    #[br(args(ctx))]
    #[bw(args(layout))]
    pub scaling: Track<[f32; 3]>,
}

impl Record for TextureTransform {
    const PAIRS: usize = 9;
    fn size(_: u32) -> u64 {
        84
    }
    fn visit<'f, V: Visitor<'f>>(&'f self, v: &mut V) {
        self.translation.visit("translation", v);
        self.rotation.visit("rotation", v);
        self.scaling.visit("scaling", v);
    }
}

/// A material: render flags and blend mode (4 bytes; plain-old-data).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Pod, Zeroable, Serialize, Deserialize)]
#[repr(C)]
pub struct RenderFlag {
    /// 0x1 unlit, 0x2 unfogged, 0x4 two-sided, 0x8 (unclear), 0x10 no depth write.
    pub flags: u16,
    /// 0 opaque, 1 alpha key, 2 alpha, 3 add, 4 add alpha, 5 modulate, 6 modulate 2×.
    pub blend_mode: u16,
}
