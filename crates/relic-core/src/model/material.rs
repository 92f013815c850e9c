//! Materials: textures, UV transforms, blending and specular.

/// Surface description.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Material {
    /// Name (ABC `material <i>`, NOD material name, M2 texture file stem).
    pub name: String,
    /// Texture references, base layer first.
    pub textures: Vec<TextureRef>,
    /// How the surface combines with what is behind it.
    pub blend: BlendMode,
    /// Draw back faces too.
    pub double_sided: bool,
    /// Not affected by lights.
    pub unlit: bool,
    /// Not affected by fog.
    pub unfogged: bool,
    /// Writes depth.
    pub depth_write: bool,
    /// For [`BlendMode::AlphaKey`]: the alpha below which a texel is not drawn (0–1), as the
    /// game tests it; `None` where the format does not say (viewers then use 0.5).
    pub alpha_cutoff: Option<f32>,
    /// Specular highlight, where the format stores one.
    pub specular: Option<Specular>,
}

/// A texture the game loads by name.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TextureRef {
    /// The game's file path as stored (`CREATURE\GNOME\GNOMEPOUNDER.BLP`, `christof`); may be
    /// empty for a texture the game chooses at run time.
    pub path: String,
    /// M2 replaceable texture type (skin, hair, creature skin 1–3) when the game picks the file.
    pub replaceable: Option<u32>,
    /// UV set used; `None` for environment (sphere) mapping.
    pub uv_set: Option<u32>,
    /// Repeat horizontally.
    pub wrap_u: bool,
    /// Repeat vertically.
    pub wrap_v: bool,
    /// The skin slot the game fills at run time (LithTech: a piece's material index, whose file
    /// the game's own tables name), for formats that store no texture name.
    pub slot: Option<u32>,
    /// A fixed transform of the texture coordinates (an M2 texture animation that never moves).
    pub transform: Option<UvTransform>,
}

/// A fixed transform of texture coordinates, applied as glTF's `KHR_texture_transform` does:
/// scale, then rotation (radians, counter-clockwise), then offset.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct UvTransform {
    /// Added to the coordinates last.
    pub offset: [f32; 2],
    /// Rotation in radians.
    pub rotation: f32,
    /// Multiplies the coordinates first.
    pub scale: [f32; 2],
}

/// How a surface is blended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum BlendMode {
    /// Opaque.
    #[default]
    Opaque,
    /// Opaque where alpha passes a threshold (alpha key/test).
    AlphaKey,
    /// Alpha blending.
    Alpha,
    /// Additive, ignoring alpha.
    Add,
    /// Additive weighted by alpha.
    AddAlpha,
    /// Multiply.
    Modulate,
    /// Multiply by two.
    Modulate2x,
}

impl BlendMode {
    /// The seven modes in the order of the numbers Blizzard's formats store (an M2 blending mode,
    /// a Warcraft III layer's filter mode: 0 opaque … 6 modulate 2×).
    const BLIZZARD: [BlendMode; 7] = [
        BlendMode::Opaque,
        BlendMode::AlphaKey,
        BlendMode::Alpha,
        BlendMode::Add,
        BlendMode::AddAlpha,
        BlendMode::Modulate,
        BlendMode::Modulate2x,
    ];

    /// The number Blizzard's formats store for this mode.
    pub fn blizzard_code(self) -> u8 {
        Self::BLIZZARD.iter().position(|&m| m == self).unwrap_or(0) as u8
    }

    /// The mode of a number Blizzard's formats store; a number past the seven is opaque.
    pub fn from_blizzard_code(code: u32) -> Self {
        usize::try_from(code).ok().and_then(|i| Self::BLIZZARD.get(i)).copied().unwrap_or_default()
    }
}

/// Specular highlight parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Specular {
    /// Exponent.
    pub power: f32,
    /// Intensity.
    pub scale: f32,
}

#[cfg(test)]
mod tests {
    use super::BlendMode;

    #[test]
    fn blizzard_codes_go_both_ways_and_unknown_ones_are_opaque() {
        for code in 0..7u32 {
            assert_eq!(u32::from(BlendMode::from_blizzard_code(code).blizzard_code()), code);
        }
        assert_eq!(BlendMode::from_blizzard_code(6), BlendMode::Modulate2x);
        assert_eq!(BlendMode::from_blizzard_code(7), BlendMode::Opaque);
        assert_eq!(BlendMode::from_blizzard_code(u32::MAX), BlendMode::Opaque);
    }
}
