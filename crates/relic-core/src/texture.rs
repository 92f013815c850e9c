//! Decoded images and the choices texture codecs take (BLP, DTX).

/// An image as RGBA8, rows top first (glTF's and both games' image origin).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Image {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width × height × 4` bytes: R, G, B, A per pixel, row after row.
    pub rgba: Vec<u8>,
}

impl Image {
    /// True if every pixel is fully opaque.
    pub fn is_opaque(&self) -> bool {
        self.rgba.chunks_exact(4).all(|p| p.get(3) == Some(&255))
    }
}

/// How a texture is compressed when it is encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TextureEncoding {
    /// The codec's choice from the image (alpha or not) and the version.
    #[default]
    Auto,
    /// BC1 (DXT1), 1-bit alpha at most.
    Dxt1,
    /// BC2 (DXT3), explicit 4-bit alpha.
    Dxt3,
    /// BC3 (DXT5), interpolated alpha.
    Dxt5,
    /// 256-colour palette with an alpha plane.
    Palettized,
    /// Uncompressed 32-bit colour.
    Raw32,
}

/// The default [`TextureOptions::max_pixels`]: 4096 × 4096 (64 MiB of RGBA), above any texture
/// of the games relic reads.
pub const DEFAULT_MAX_PIXELS: u64 = 4096 * 4096;

/// Choices for decoding and encoding textures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextureOptions {
    /// Compression to encode with.
    pub encoding: TextureEncoding,
    /// Format version to encode (`None`: the codec's default).
    pub version: Option<u32>,
    /// Largest image (width × height) decoded or encoded; larger headers are refused before
    /// anything is allocated.
    pub max_pixels: u64,
}

impl Default for TextureOptions {
    fn default() -> Self {
        Self { encoding: TextureEncoding::Auto, version: None, max_pixels: DEFAULT_MAX_PIXELS }
    }
}
