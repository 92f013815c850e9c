//! Textures, render flags, and the animated colours, texture weights and texture transforms the
//! texture units name (spec §12; m2-wrath.md §5.4).

use binrw::binrw;
use bytemuck::{Pod, Zeroable};
use serde::{Deserialize, Serialize};

use super::array::{M2Array, pod_array};
use super::ctx::Ctx;
use super::kind::{Ranged, TrackKind, by_kind};
use super::layout::Layout;
use super::record::record;

record! {
    size(_version) = by_kind::<K>(56, 40);
    /// A colour animation (56 bytes; 40 from Wrath on).
    #[binrw]
    #[brw(little)]
    #[br(import(ctx: &Ctx))]
    #[bw(import(layout: &Layout))]
    #[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
    pub struct Color<K: TrackKind = Ranged> {
        /// RGB, 0–1.
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub color: K::Track<[f32; 3]>,
        /// Alpha, 0x7FFF opaque.
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub alpha: K::Track<i16>,
    }
}

record! {
    size(_version) = 16;
    /// A texture (16 bytes).
    #[binrw]
    #[brw(little)]
    #[br(import(_ctx: &Ctx))]
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
}

impl Texture {
    /// The file name: the text before the first NUL, Windows-1252.
    pub fn filename_text(&self) -> String {
        super::array::text(&self.filename)
    }
}

record! {
    size(_version) = by_kind::<K>(28, 20);
    /// A texture weight (transparency animation, 28 bytes; 20 from Wrath on).
    #[binrw]
    #[brw(little)]
    #[br(import(ctx: &Ctx))]
    #[bw(import(layout: &Layout))]
    #[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
    pub struct TextureWeight<K: TrackKind = Ranged> {
        /// Weight, value / 32767 is the alpha multiplier.
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub weight: K::Track<i16>,
    }
}

record! {
    size(_version) = by_kind::<K>(84, 60);
    /// A texture transform (UV animation, 84 bytes; 60 from Wrath on).
    #[binrw]
    #[brw(little)]
    #[br(import(ctx: &Ctx))]
    #[bw(import(layout: &Layout))]
    #[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
    pub struct TextureTransform<K: TrackKind = Ranged> {
        /// UV translation.
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub translation: K::Track<[f32; 3]>,
        /// UV rotation: read as 4×f32 quaternions (the type is unresolved among peers, spec §8,
        /// m2-wrath.md §5.4).
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub rotation: K::Track<[f32; 4]>,
        /// UV scale.
        #[br(args(ctx))]
        #[bw(args(layout))]
        pub scaling: K::Track<[f32; 3]>,
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
