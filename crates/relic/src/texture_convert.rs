//! Converting textures: any texture format of the registry (BLP, DTX) or PNG in, any of them out,
//! through RGBA8.

use std::path::Path;

use relic_core::format::{Content, FormatEntry, Input};
use relic_core::texture::{Image, TextureOptions};
use relic_core::{Converted, Loss};

use crate::error::Error;
use crate::formats;
use crate::input::FolderSiblings;

/// What a texture is converted to.
#[derive(Debug, Clone, Copy)]
pub enum TextureTarget {
    /// PNG (mip 0, RGBA8).
    Png,
    /// A texture format of the registry.
    Format(&'static FormatEntry),
}

impl TextureTarget {
    /// The target for an output extension (`png`, `blp`, `dtx`; any case).
    pub fn from_name(name: &str) -> Option<TextureTarget> {
        if name.eq_ignore_ascii_case("png") {
            return Some(TextureTarget::Png);
        }
        formats::by_name(name).filter(|f| f.texture.is_some()).map(TextureTarget::Format)
    }

    /// The target for an output path, by its extension.
    pub fn for_path(path: &Path) -> Option<TextureTarget> {
        path.extension().and_then(|e| e.to_str()).and_then(TextureTarget::from_name)
    }

    /// The file extension written.
    pub fn extension(&self) -> &'static str {
        match self {
            TextureTarget::Png => "png",
            TextureTarget::Format(f) => f.name,
        }
    }
}

/// True if `bytes` start like a PNG file.
pub fn is_png(bytes: &[u8]) -> bool {
    bytes.starts_with(&[0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A])
}

/// True if `bytes` are a texture relic reads: a registered texture format or PNG.
pub fn is_texture(bytes: &[u8]) -> bool {
    is_png(bytes) || formats::detect(bytes).is_some_and(|(_, d)| d.content == Content::Texture)
}

/// Mip level 0 of the texture `path` (PNG, or a texture format of the registry) as RGBA8.
pub fn read_image(path: &Path, bytes: &[u8], options: &TextureOptions) -> Result<Image, Error> {
    if is_png(bytes) {
        return relic_gltf::textures::decode_png(bytes, options.max_pixels)
            .map_err(|why| Error::Usage(format!("{}: {why}", path.display())));
    }
    let Some((entry, _)) = formats::detect(bytes).filter(|(_, d)| d.content == Content::Texture) else {
        return Err(crate::registry::Registry::builtin().not_read(path, bytes));
    };
    let codec = entry.texture.ok_or_else(|| crate::registry::Registry::builtin().not_read(path, bytes))?;
    with_input(path, bytes, |input| (codec.decode)(input, 0, options)).map_err(|e| Error::read(path, e))
}

/// Runs `f` on the [`Input`] of the file `path` holding `bytes`.
fn with_input<T>(path: &Path, bytes: &[u8], f: impl FnOnce(&Input<'_>) -> T) -> T {
    let siblings = FolderSiblings::of(path);
    // A path without a file name: the empty name, which Input::name means as unknown.
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    f(&Input { bytes, name: &name, siblings: &siblings })
}

/// `image` as the bytes of `target`; what the target cannot hold comes back as losses.
pub fn write_image(
    image: &Image,
    target: TextureTarget,
    options: &TextureOptions,
    out: &Path,
) -> Result<Converted<Vec<u8>>, Error> {
    match target {
        TextureTarget::Png => relic_gltf::textures::encode_png(image)
            .map(Converted::lossless)
            .map_err(|why| Error::Usage(format!("{}: {why}", out.display()))),
        TextureTarget::Format(entry) => {
            let codec = entry.texture.ok_or_else(|| Error::Usage(format!("{} holds no textures", entry.name)))?;
            (codec.encode)(image, options).map_err(|source| Error::Write { file: out.to_path_buf(), source })
        }
    }
}

/// Converts the texture file `input` (its `bytes`) to `target`: mip 0 through RGBA8, every mip
/// of the target made from it. A PNG written from a texture whose alpha is the same everywhere
/// (DTX 32-bit skins store 0 there: not opacity) is made opaque, with a loss saying so.
///
/// A texture written to its own format is encoded like itself (`TextureCodec::encode_like`):
/// what `options` leave open (encoding `Auto`, version and mips `None`) is the input's, and an
/// input asked for nothing it is not comes back byte for byte — version, encoding, mips, flags.
pub fn convert_texture(
    input: &Path,
    bytes: &[u8],
    target: TextureTarget,
    out: &Path,
    options: &TextureOptions,
) -> Result<Converted<Vec<u8>>, Error> {
    let mut image = read_image(input, bytes, options)?;
    let mut losses = Vec::new();
    if let Some(alpha) = image.constant_alpha()
        && alpha != 255
        && matches!(target, TextureTarget::Png)
    {
        image.rgba.chunks_exact_mut(4).for_each(|p| {
            if let Some(a) = p.get_mut(3) {
                *a = 255;
            }
        });
        losses.push(Loss::new(
            "alpha",
            format!("every texel had alpha {alpha} (not opacity in this file): written opaque"),
        ));
    }
    let own = match target {
        TextureTarget::Format(entry) => {
            formats::detect(bytes).filter(|(found, _)| found.name == entry.name).and_then(|(found, _)| found.texture)
        }
        TextureTarget::Png => None,
    };
    let mut written = match own {
        Some(codec) => with_input(input, bytes, |template| (codec.encode_like)(&image, options, template))
            .map_err(|source| Error::Write { file: out.to_path_buf(), source })?,
        // Given away to the PNG encoder: an opaque image becomes RGB in place (the CLI's budget).
        None if matches!(target, TextureTarget::Png) => relic_gltf::textures::encode_png_owned(image)
            .map(Converted::lossless)
            .map_err(|why| Error::Usage(format!("{}: {why}", out.display())))?,
        None => write_image(&image, target, options, out)?,
    };
    losses.append(&mut written.losses);
    Ok(Converted { value: written.value, losses })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn png_round_trips_and_targets_are_named() {
        let image = Image { width: 2, height: 2, rgba: (0..16).collect() };
        let png = relic_gltf::textures::encode_png(&image).unwrap();
        assert!(is_png(&png) && is_texture(&png));
        assert_eq!(relic_gltf::textures::decode_png(&png, 16).unwrap(), image);
        assert!(relic_gltf::textures::decode_png(&png, 3).is_err());
        assert!(matches!(TextureTarget::from_name("PNG"), Some(TextureTarget::Png)));
        assert!(matches!(TextureTarget::from_name("blp"), Some(TextureTarget::Format(f)) if f.name == "blp"));
        assert!(TextureTarget::from_name("abc").is_none());
    }
}
