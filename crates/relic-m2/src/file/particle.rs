//! What a particle emitter holds differently in the two families besides its tracks (spec §14;
//! m2-wrath.md §5.3), each the associated type of its [`TrackKind`](super::TrackKind):
//!
//! | bytes | 256–263 | 264 on |
//! |---|---|---|
//! | 0x28–0x2B | [`ClassicBlend`]: [`ParticleBlend`], split or wide | [`WrathBlend`]: u8 blend, u8 emitter type, u16 colour index |
//! | over the particle's life | [`LifeValues`]: mid point, start/mid/end colours and sizes, UV cells (48 bytes) | [`LifeTracks`]: "fake" tracks of colour, alpha, scale and cells, scale variation (88 bytes) |
//!
//! Both are flattened into the emitter's JSON, which keeps each family's field names.

use binrw::binrw;
use bytemuck::Pod;
use serde::{Deserialize, Serialize};

use super::array::{M2Array, pod_array};
use super::ctx::Ctx;
use super::layout::Layout;
use super::record::{Field, Visitor, Walk, plain, walk_fields};

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

/// A blend mode and emitter type the game uses (blend 0–7, emitter 1–3).
fn sensible(blend: u16, emitter: u16) -> bool {
    blend <= 7 && (1..=3).contains(&emitter)
}

/// 256–263: bytes 0x28–0x2B as the version reads them.
#[binrw]
#[brw(little)]
#[br(import(ctx: &Ctx))]
#[bw(import(_layout: &Layout))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ClassicBlend {
    /// Blend mode and emitter type (layout differs by version).
    #[br(args(ctx.version))]
    pub blending: ParticleBlend,
}

/// 264 on: bytes 0x28–0x2B, always split (m2-wrath.md §5.3).
#[binrw]
#[brw(little)]
#[br(import(_ctx: &Ctx))]
#[bw(import(_layout: &Layout))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct WrathBlend {
    /// Blend mode.
    pub blend_mode: u8,
    /// 1 plane, 2 sphere, 3 spline.
    pub emitter_type: u8,
    /// Particle colour index.
    pub color_index: u16,
}

/// 256–263: a particle's colour, size and texture cells at the start, middle and end of its life
/// (48 bytes).
#[binrw]
#[brw(little)]
#[br(import(_ctx: &Ctx))]
#[bw(import(_layout: &Layout))]
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct LifeValues {
    /// Mid point of the lifespan (0–1).
    pub mid_point: f32,
    /// Colours at start, mid and end (B, G, R, A).
    pub colors: [[u8; 4]; 3],
    /// Sizes at start, mid and end.
    pub sizes: [f32; 3],
    /// Head and tail UV-cell ranges (lifespan and decay).
    pub uv_cells: [u16; 10],
}

plain!(ClassicBlend, WrathBlend, LifeValues);

/// A value over a particle's life (`M2FakeTrack`, 16 bytes): ages 0–32767 (0 birth, 32767
/// death) and one value per age.
#[binrw]
#[brw(little)]
#[bw(import(layout: &Layout))]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct FakeTrack<T: Pod> {
    /// Ages, 0–32767 over the particle's life.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub ages: M2Array<u16>,
    /// One value per age.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub values: M2Array<T>,
}

/// Two blocks: ages, values.
impl<T: Pod> Walk for FakeTrack<T> {
    fn walk<'f, V: Visitor<'f>>(&'f self, name: &'static str, v: &mut V) {
        v.pod(Field::part(name, "ages"), &self.ages);
        v.pod(Field::part(name, "values"), &self.values);
    }
}

/// 264 on: a particle's colour, alpha, scale and texture cells over its life as fake tracks
/// (88 bytes).
#[binrw]
#[brw(little)]
#[br(import(_ctx: &Ctx))]
#[bw(import(layout: &Layout))]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct LifeTracks {
    /// Colour over life, RGB 0–255 as floats.
    #[bw(args(layout))]
    pub color: FakeTrack<[f32; 3]>,
    /// Alpha over life, 0–32767.
    #[bw(args(layout))]
    pub alpha: FakeTrack<i16>,
    /// Scale over life (x, y).
    #[bw(args(layout))]
    pub scale: FakeTrack<[f32; 2]>,
    /// Scale variation (x, y).
    pub scale_variation: [f32; 2],
    /// Head cell over life.
    #[bw(args(layout))]
    pub head_cell: FakeTrack<u16>,
    /// Tail cell over life.
    #[bw(args(layout))]
    pub tail_cell: FakeTrack<u16>,
}

/// The fake tracks' blocks, in field order.
impl Walk for LifeTracks {
    fn walk<'f, V: Visitor<'f>>(&'f self, _: &'static str, v: &mut V) {
        walk_fields!(self, v; color, alpha, scale, head_cell, tail_cell);
    }
}

#[cfg(test)]
mod tests {
    use crate::file::wrath::WrathParticle;
    use crate::file::{Particle, ParticleBlend};

    /// The keys of a record's JSON object.
    fn keys(value: &impl serde::Serialize) -> Vec<String> {
        let json = serde_json::to_value(value).unwrap();
        json.as_object().unwrap().keys().cloned().collect()
    }

    #[test]
    fn each_family_keeps_its_own_keys_in_json() {
        let classic = Particle {
            blend: super::ClassicBlend { blending: ParticleBlend::Wide { blend_mode: 2, emitter_type: 1 } },
            ..Particle::default()
        };
        let k = keys(&classic);
        for key in ["blending", "mid_point", "colors", "sizes", "uv_cells", "spin"] {
            assert!(k.iter().any(|x| x == key), "{key} in {k:?}");
        }
        for key in ["blend", "life", "blend_mode", "color", "lifespan_variation", "base_spin", "multi_texture"] {
            assert!(!k.iter().any(|x| x == key), "{key} in {k:?}");
        }
        let mut wrath =
            WrathParticle { lifespan_variation: Some(0.5), base_spin: Some(1.0), ..WrathParticle::default() };
        wrath.blend.color_index = 3;
        wrath.life.alpha.ages = vec![0, 32767].into();
        let k = keys(&wrath);
        for key in ["blend_mode", "emitter_type", "color_index", "color", "alpha", "scale_variation", "tail_cell"] {
            assert!(k.iter().any(|x| x == key), "{key} in {k:?}");
        }
        for key in ["blend", "life", "blending", "mid_point", "uv_cells"] {
            assert!(!k.iter().any(|x| x == key), "{key} in {k:?}");
        }
        let text = serde_json::to_string(&classic).unwrap();
        assert_eq!(serde_json::from_str::<Particle>(&text).unwrap(), classic);
        let text = serde_json::to_string(&wrath).unwrap();
        assert_eq!(serde_json::from_str::<WrathParticle>(&text).unwrap(), wrath);
    }
}
