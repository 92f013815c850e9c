#![doc = include_str!("../README.md")]

mod decode;
mod encode;
mod entry;
pub mod file;
mod jpeg;
pub mod validate;
#[cfg(feature = "verify")]
pub mod verify;

pub use decode::decode;
pub use encode::{encode, encode_like, options_for, resolve};
pub use entry::ENTRY;
pub use file::{BlpFile, Pixels};
pub use validate::Level;

use relic_core::format::{Content, Detected};
use relic_core::texture::{Image, TextureOptions};
use relic_core::{Converted, Info, ReadError, WriteError};

/// Blizzard BLP, as named in [`relic_core::model::SourceInfo`] and the format registry.
pub const FORMAT: relic_core::FormatId = relic_core::FormatId::new("blp");

/// Recognises the format by its magic: `BLP2` (version 2), `BLP1` (1) or `BLP0` (0, refused by
/// [`read`] with the reason).
pub fn detect(bytes: &[u8]) -> Option<Detected> {
    let version = match bytes.get(..4)? {
        b"BLP2" => 2,
        b"BLP1" => 1,
        b"BLP0" => 0,
        _ => return None,
    };
    Some(Detected::new(FORMAT, version, Content::Texture))
}

/// Parses a file and checks every level the header lists against the bytes present.
pub fn read(bytes: &[u8]) -> Result<BlpFile, ReadError> {
    let file = file::parse(bytes)?;
    validate::validate(&file)?;
    Ok(file)
}

/// Writes a file; `write(&read(b)?)? == b` for every file [`read`] accepts.
pub fn write(file: &BlpFile) -> Result<Vec<u8>, WriteError> {
    file::write(file)
}

/// The file's own facts: `version`, `width`, `height`, `levels`, `pixels` (`DXT5`, `palettized
/// a8`, …), `short_levels` (DXT: thin levels stored with fewer blocks than they cover),
/// `cut_off_levels` (only when some are: levels the header lists past the end of the file),
/// `larger_jpeg_levels` (BLP1 JPEG, only when some are: levels whose JPEG is a larger level's size),
/// `alpha_depth`, `alpha_type` (BLP2), `has_mips`, `data_bytes`.
pub fn info(bytes: &[u8]) -> Result<Info, ReadError> {
    let file = read(bytes)?;
    let levels = validate::levels(&file)?;
    let pixels = validate::pixels(&file)?;
    let mut info = Info::new(FORMAT, file.version());
    info.count("width", file.width()).count("height", file.height()).count("levels", levels.len());
    let cut = validate::cut_off_levels(&file)?;
    if cut > 0 {
        // Listed past the end of the file (a truncated file: the client draws the levels present).
        info.count("cut_off_levels", cut);
    }
    info.text("pixels", pixels.name());
    if let Pixels::Dxt { .. } = pixels {
        // Thin levels stored with fewer blocks than they cover (Blizzard's ⌊w/4⌋·⌊h/4⌋ count).
        info.count("short_levels", levels.iter().filter(|l| l.is_short(&pixels)).count());
    }
    match &file {
        BlpFile::Blp2(f) => {
            info.count("alpha_depth", f.header.alpha_depth).count("alpha_type", f.header.alpha_type);
            info.count("has_mips", f.header.has_mips);
        }
        BlpFile::Blp1(f) => {
            info.count("alpha_bits", f.header.alpha_bits).count("extra", f.header.extra);
            info.count("has_mips", f.header.has_mips);
            if let (Pixels::Jpeg, Some(jpeg)) = (pixels, &f.jpeg) {
                let full = (file.width(), file.height());
                let larger = levels.iter().filter(|l| {
                    let data = validate::level_data(&file, l).unwrap_or_default();
                    jpeg::larger_frame(&jpeg.bytes, data, (l.width, l.height), full)
                });
                let larger = larger.count();
                if larger > 0 {
                    // A tool pointed these levels at a larger level's JPEG: decoded and halved.
                    info.count("larger_jpeg_levels", larger);
                }
            }
        }
    }
    info.count("data_bytes", file.chain().data.len());
    Ok(info)
}

/// [`decode`] of level `level` of the file in `bytes` (the level's size is checked against
/// `options.max_pixels` before the levels are checked against the file).
pub fn decode_bytes(bytes: &[u8], level: usize, options: &TextureOptions) -> Result<Image, ReadError> {
    decode(&file::parse(bytes)?, level, options)
}

/// [`encode_like`] of the file in `template`, and [`write()`]: `image` written back to the
/// template's format (the template's own bytes when the image is its level 0, unchanged).
pub fn encode_like_bytes(
    image: &Image,
    options: &TextureOptions,
    template: &[u8],
) -> Result<Converted<Vec<u8>>, WriteError> {
    let template = read(template).map_err(|e| WriteError::Unsupported(format!("the texture to write like: {e}")))?;
    let Converted { value, losses } = encode_like(image, options, Some(&template))?;
    Ok(Converted { value: write(&value)?, losses })
}

/// [`encode`] and [`write()`]: the bytes of a BLP2 holding `image` with every mip level.
pub fn encode_bytes(image: &Image, options: &TextureOptions) -> Result<Converted<Vec<u8>>, WriteError> {
    let Converted { value, losses } = encode(image, options)?;
    Ok(Converted { value: write(&value)?, losses })
}
