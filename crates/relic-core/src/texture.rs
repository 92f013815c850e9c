//! Decoded images, the choices texture codecs take (BLP, DTX), the limits every texture reader
//! checks before it allocates ([`check_pixels`]), and where a writer that embeds textures finds
//! their pixels ([`TextureSource`]). The pixel codecs those formats share are in the
//! `relic-texture` crate.

use std::fmt;

use crate::error::{ReadError, ReadErrorKind, WriteError};
use crate::model::TextureRef;

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

    /// True if every alpha value is 0 or 255 (a cut-out, 1-bit alpha).
    pub fn has_binary_alpha(&self) -> bool {
        self.rgba.chunks_exact(4).all(|p| matches!(p.get(3), Some(0 | 255)))
    }

    /// The alpha value every pixel shares, if they all share one (LithTech's 32-bit textures
    /// often store 0 everywhere: alpha that is not opacity, see specs/textures.md §1.7).
    pub fn constant_alpha(&self) -> Option<u8> {
        let first = *self.rgba.get(3)?;
        self.rgba.chunks_exact(4).all(|p| p.get(3) == Some(&first)).then_some(first)
    }

    /// Number of pixels (`width × height`).
    pub fn pixels(&self) -> usize {
        self.width as usize * self.height as usize
    }

    /// True if `rgba` holds exactly `width × height × 4` bytes and neither side is 0.
    pub fn is_well_formed(&self) -> bool {
        self.width > 0
            && self.height > 0
            && self.rgba.len() as u64 == u64::from(self.width) * u64::from(self.height) * 4
    }
}

/// Pixels for a texture: an RGBA image (embedded as PNG by glTF export) or an image file's own
/// bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImageData {
    /// Decoded pixels, embedded as PNG.
    Rgba(Image),
    /// A PNG file, embedded as it is.
    Png(Vec<u8>),
    /// A JPEG file, embedded as it is.
    Jpeg(Vec<u8>),
}

/// A texture found for a material.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundTexture {
    /// What identifies the image (a file's path): textures with the same key share one image.
    pub key: String,
    /// The image's name in the output (the file name).
    pub name: String,
    /// Its pixels.
    pub data: ImageData,
    /// Every texel is fully opaque (a material that blends by alpha stays as it is; this only
    /// informs notes).
    pub opaque: bool,
}

/// What a [`TextureSource`] answers for one texture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lookup {
    /// Found and readable.
    Found(FoundTexture),
    /// No file found; says where it looked (the export stays valid, untextured).
    Missing(String),
    /// A file was found but could not be read or decoded; says which and why.
    Failed(String),
}

/// Finds the pixels of a model's textures, for writers of formats that embed them (glTF export;
/// the `relic` facade finds the game's BLP and DTX files, relic-gltf's `DirTextures` PNG and JPEG
/// files).
pub trait TextureSource: Send + Sync + fmt::Debug {
    /// The image of `texture`, layer `layer` of material `material` (index into the model's
    /// materials).
    fn lookup(&self, material: usize, layer: usize, texture: &TextureRef) -> Lookup;

    /// Notes on the search itself for the export of `model`: files the user gave for textures
    /// the model does not have (a skin for a slot no material uses), which nothing shows.
    fn unused(&self, _model: &crate::Model) -> Vec<String> {
        Vec::new()
    }
}

/// How a texture is compressed when it is encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TextureEncoding {
    /// The codec's choice from the image (alpha or not) and the version; when a file is
    /// re-encoded into its own format, that file's encoding.
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
    /// Format version to encode (`None`: the codec's default, or the version of the file being
    /// re-encoded).
    pub version: Option<u32>,
    /// Mip levels to write, level 0 included (`None`: the codec's default — BLP every level
    /// down to 1 × 1, DTX 4 — or the count of the file being re-encoded); more than the image
    /// has is clamped to its full chain.
    pub mips: Option<u32>,
    /// Largest image (width × height) decoded or encoded; larger headers are refused before
    /// anything is allocated.
    pub max_pixels: u64,
}

impl Default for TextureOptions {
    fn default() -> Self {
        Self { encoding: TextureEncoding::Auto, version: None, mips: None, max_pixels: DEFAULT_MAX_PIXELS }
    }
}

/// Refuses an image of `width × height` pixels larger than `options.max_pixels` (or with a side
/// of 0) before anything is allocated for it. `offset` and `path` name the header field that
/// states the width (`BlpHeader.width`).
pub fn check_pixels(
    width: u64,
    height: u64,
    options: &TextureOptions,
    offset: u64,
    path: &str,
) -> Result<usize, ReadError> {
    if width == 0 || height == 0 {
        return Err(ReadError::invalid(offset, path, format!("an image of {width} × {height} pixels is empty")));
    }
    let pixels = width.saturating_mul(height);
    if pixels > options.max_pixels {
        return Err(ReadError::at(
            offset,
            path,
            ReadErrorKind::ImageTooLarge { width, height, max_pixels: options.max_pixels },
        ));
    }
    usize::try_from(pixels)
        .ok()
        .filter(|p| p.checked_mul(4).is_some())
        .ok_or_else(|| ReadError::invalid(offset, path, format!("{width} × {height} pixels do not fit in memory")))
}

/// Refuses an image to encode that is empty, whose `rgba` does not hold `width × height × 4`
/// bytes, or that is larger than `options.max_pixels`.
pub fn check_image(image: &Image, options: &TextureOptions) -> Result<(), WriteError> {
    if !image.is_well_formed() {
        return Err(WriteError::Unsupported(format!(
            "an image of {} × {} pixels needs {} RGBA bytes, it has {}",
            image.width,
            image.height,
            u64::from(image.width) * u64::from(image.height) * 4,
            image.rgba.len()
        )));
    }
    let pixels = u64::from(image.width) * u64::from(image.height);
    if pixels > options.max_pixels {
        return Err(WriteError::Unsupported(format!(
            "an image of {} × {} pixels exceeds the limit of {} pixels (TextureOptions::max_pixels)",
            image.width, image.height, options.max_pixels
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_know_their_alpha() {
        let image = Image { width: 2, height: 1, rgba: vec![1, 2, 3, 255, 4, 5, 6, 0] };
        assert!(!image.is_opaque() && image.has_binary_alpha() && image.is_well_formed());
        assert_eq!(image.constant_alpha(), None);
        let flat = Image { width: 1, height: 1, rgba: vec![0, 0, 0, 7] };
        assert_eq!(flat.constant_alpha(), Some(7));
        assert!(!Image { width: 2, height: 2, rgba: vec![0; 12] }.is_well_formed());
    }

    #[test]
    fn images_to_encode_are_checked() {
        let options = TextureOptions::default();
        assert!(check_image(&Image { width: 1, height: 1, rgba: vec![0; 4] }, &options).is_ok());
        assert!(check_image(&Image { width: 2, height: 1, rgba: vec![0; 4] }, &options).is_err());
        let small = TextureOptions { max_pixels: 1, ..options };
        assert!(check_image(&Image { width: 2, height: 1, rgba: vec![0; 8] }, &small).is_err());
    }

    #[test]
    fn huge_headers_are_refused_by_size() {
        let options = TextureOptions::default();
        let err = check_pixels(65_535, 65_535, &options, 12, "Header.width").unwrap_err();
        assert_eq!(err.path, "Header.width");
        assert_eq!(
            err.kind,
            ReadErrorKind::ImageTooLarge { width: 65_535, height: 65_535, max_pixels: DEFAULT_MAX_PIXELS }
        );
        assert!(err.to_string().contains("TextureOptions::max_pixels"), "{err}");
        let raised = TextureOptions { max_pixels: u64::MAX, ..options };
        assert_eq!(check_pixels(65_535, 65_535, &raised, 0, "w").unwrap(), 65_535 * 65_535);
        assert!(check_pixels(0, 4, &options, 0, "w").is_err());
    }
}
