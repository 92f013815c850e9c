//! Where the images of an export come from, and how they go into the glTF.
//!
//! A model names its textures (M2: game paths and replaceable types; LithTech: skin slots) but
//! holds no pixels. The exporter asks a [`TextureSource`] for each material's texture; the `relic`
//! facade provides one that finds the game's files (BLP, DTX) in the user's folders and decodes
//! them, and [`DirTextures`] finds PNG or JPEG files under a folder. RGBA images are embedded as
//! PNG; PNG and JPEG files as they are.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use relic_core::model::TextureRef;
use relic_core::texture::Image;

/// Where an export's pixels come from: the contract lives in relic-core (writers of every format
/// that embeds textures take it through [`relic_core::format::Output`]).
pub use relic_core::texture::{FoundTexture, ImageData, Lookup, TextureSource};

/// The largest image (width × height) encoded as PNG: past it a texture is left out with a note.
pub const MAX_PNG_PIXELS: u64 = relic_core::texture::DEFAULT_MAX_PIXELS;

/// An RGBA image as PNG bytes: RGB when every pixel is opaque (a quarter fewer bytes to
/// compress; read back with alpha 255), with adaptive row filters and zlib level 2. On the 41
/// corpus textures (1.9 M pixels) the png crate's balanced level (6) made 2.12 MB in 138 ms,
/// level 3 2.18 MB in 73 ms, its fastest encoder (fdeflate) 2.47 MB in 21 ms, but up to 1.8× the
/// size on small UI textures, which grew a glb by 27 % (docs/PERFORMANCE.md). Against level 3,
/// level 2 took the corpus batch from 274 to 262 ms of CPU and grew no glb by more than 2.2 %
/// (UI-Cooldown-Indicator); level 1 saved 9 ms more but grew glbs by up to 6.9 % (issue 29).
pub fn encode_png(image: &Image) -> Result<Vec<u8>, String> {
    png_encodable(image)?;
    let opaque = image.rgba.chunks_exact(4).all(|p| p.get(3) == Some(&255));
    let rgb: Vec<u8>;
    let (color, data) = if opaque {
        rgb = image.rgba.chunks_exact(4).flat_map(|p| p.iter().take(3).copied()).collect();
        (png::ColorType::Rgb, rgb.as_slice())
    } else {
        (png::ColorType::Rgba, image.rgba.as_slice())
    };
    encode(color, data, image.width, image.height)
}

/// [`encode_png`] of an image given away, with the same bytes: an opaque image is made RGB in its
/// own buffer instead of a copy, so that a texture converted to PNG holds its pixels once (a
/// 1024 × 1024 DXT1 BLP of 525 KB held 20.8 × its size with the copy, 14.8 × without: the CLI's
/// budget is 16 × input + 1 MiB).
pub fn encode_png_owned(image: Image) -> Result<Vec<u8>, String> {
    png_encodable(&image)?;
    if !image.rgba.chunks_exact(4).all(|p| p.get(3) == Some(&255)) {
        return encode_png(&image);
    }
    let Image { width, height, mut rgba } = image;
    let pixels = rgba.len() / 4;
    // Pixel i's R, G, B move from 4i to 3i: never past bytes not yet moved.
    for i in 1..pixels {
        rgba.copy_within(4 * i..4 * i + 3, 3 * i);
    }
    rgba.truncate(3 * pixels);
    encode(png::ColorType::Rgb, &rgba, width, height)
}

/// `data` (rows of `color`) as PNG bytes: adaptive filters, zlib level 2 (see [`encode_png`]).
fn encode(color: png::ColorType, data: &[u8], width: u32, height: u32) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(color);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_filter(png::Filter::Adaptive);
    encoder.set_deflate_compression(png::DeflateCompression::Level(2));
    let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
    writer.write_image_data(data).map_err(|e| e.to_string())?;
    writer.finish().map_err(|e| e.to_string())?;
    Ok(out)
}

/// Whether [`encode_png`] takes `image` (`Err` says why not), without encoding it.
pub(crate) fn png_encodable(image: &Image) -> Result<(), String> {
    let pixels = u64::from(image.width) * u64::from(image.height);
    if image.width == 0 || image.height == 0 || pixels > MAX_PNG_PIXELS {
        return Err(format!("{}×{} pixels cannot be embedded (at most {MAX_PNG_PIXELS})", image.width, image.height));
    }
    if image.rgba.len() as u64 != pixels * 4 {
        return Err(format!("{} bytes of RGBA for {}×{} pixels", image.rgba.len(), image.width, image.height));
    }
    Ok(())
}

/// A PNG as RGBA8 (any colour type and depth the png crate expands to 8-bit RGB(A) or grey).
pub fn decode_png(bytes: &[u8], max_pixels: u64) -> Result<Image, String> {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().map_err(|e| format!("not a PNG relic reads: {e}"))?;
    let (width, height) = (reader.info().width, reader.info().height);
    let pixels = u64::from(width) * u64::from(height);
    if pixels > max_pixels {
        return Err(format!("{width}×{height} pixels: more than the {max_pixels} allowed"));
    }
    let size = reader.output_buffer_size().ok_or("the PNG's size overflows")?;
    let mut buffer = vec![0u8; size];
    let frame = reader.next_frame(&mut buffer).map_err(|e| format!("PNG: {e}"))?;
    let data = buffer.get(..frame.buffer_size()).ok_or("PNG: short frame")?;
    let rgba: Vec<u8> = match frame.color_type {
        png::ColorType::Rgba => data.to_vec(),
        png::ColorType::Rgb => {
            data.chunks_exact(3).flat_map(|p| if let [r, g, b] = p { [*r, *g, *b, 255] } else { [0; 4] }).collect()
        }
        png::ColorType::Grayscale => data.iter().flat_map(|&g| [g, g, g, 255]).collect(),
        png::ColorType::GrayscaleAlpha => {
            data.chunks_exact(2).flat_map(|p| if let [g, a] = p { [*g, *g, *g, *a] } else { [0; 4] }).collect()
        }
        png::ColorType::Indexed => return Err("PNG: an indexed image was not expanded".into()),
    };
    if rgba.len() as u64 != pixels * 4 {
        return Err(format!("PNG: {} bytes for {width}×{height} pixels", rgba.len()));
    }
    Ok(Image { width, height, rgba })
}

/// How many files of a texture folder are indexed at most (a guard against pointing it at `/`).
const MAX_FILES: usize = 200_000;

/// `image/png` or `image/jpeg` from the first bytes; `None` for anything else.
pub fn mime_type(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(&[0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A]) {
        Some("image/png")
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some("image/jpeg")
    } else {
        None
    }
}

fn is_image(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| matches!(e.to_ascii_lowercase().as_str(), "png" | "jpg" | "jpeg"))
}

/// Lower-case path components of a game path without its extension, joined by `/`.
fn key(path: &str) -> String {
    let normal = path.replace('\\', "/").to_ascii_lowercase();
    let trimmed = normal.trim_start_matches('/');
    match trimmed.rsplit_once('.') {
        Some((stem, ext)) if !ext.contains('/') => stem.to_string(),
        _ => trimmed.to_string(),
    }
}

/// PNG and JPEG files under a folder, found for a texture by its game path (`CREATURE\GNOME\
/// GNOMEPOUNDER.BLP` → `<dir>/creature/gnome/gnomepounder.png`) or its file stem
/// (`<dir>/GnomePounder.png`), without regard to letter case.
#[derive(Debug, Default)]
pub struct DirTextures {
    dir: PathBuf,
    by_path: HashMap<String, PathBuf>,
    by_stem: HashMap<String, PathBuf>,
}

impl DirTextures {
    /// Indexes `dir` (recursively); an unreadable folder gives an empty index.
    pub fn new(dir: &Path) -> Self {
        let mut index = Self { dir: dir.to_path_buf(), ..Self::default() };
        let mut stack = vec![dir.to_path_buf()];
        let mut seen = 0usize;
        while let Some(d) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&d) else { continue };
            for entry in entries.flatten() {
                seen += 1;
                if seen > MAX_FILES {
                    return index;
                }
                let path = entry.path();
                if path.is_dir() {
                    stack.push(path);
                } else if is_image(&path) {
                    let rel = path.strip_prefix(dir).unwrap_or(&path).to_string_lossy().to_string();
                    let k = key(&rel);
                    let stem = k.rsplit('/').next().unwrap_or(&k).to_string();
                    index.by_stem.entry(stem).or_insert_with(|| path.clone());
                    index.by_path.entry(k).or_insert(path);
                }
            }
        }
        index
    }

    /// The image file for a game texture path, if one exists.
    pub fn find(&self, game_path: &str) -> Option<&Path> {
        if game_path.is_empty() {
            return None;
        }
        let k = key(game_path);
        let stem = k.rsplit('/').next().unwrap_or(&k);
        self.by_path.get(&k).or_else(|| self.by_stem.get(stem)).map(PathBuf::as_path)
    }
}

impl TextureSource for DirTextures {
    fn lookup(&self, _material: usize, _layer: usize, texture: &TextureRef) -> Lookup {
        let Some(path) = self.find(&texture.path) else {
            return Lookup::Missing(format!("no PNG or JPEG for {:?} under {}", texture.path, self.dir.display()));
        };
        match std::fs::read(path) {
            Ok(bytes) => {
                let data = match mime_type(&bytes) {
                    Some("image/png") => ImageData::Png(bytes),
                    Some(_) => ImageData::Jpeg(bytes),
                    None => return Lookup::Failed(format!("{} is not a PNG or JPEG", path.display())),
                };
                // `find` returns a file, whose path ends in its name: the default is never taken.
                let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                Lookup::Found(FoundTexture { key: path.display().to_string(), name, data, opaque: false })
            }
            Err(e) => Lookup::Failed(format!("cannot read {}: {e}", path.display())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_ignore_case_separators_and_extension() {
        assert_eq!(key("CREATURE\\Gnome\\GnomePounder.BLP"), "creature/gnome/gnomepounder");
        assert_eq!(key("christof"), "christof");
        assert_eq!(key("dir.v2/tex"), "dir.v2/tex");
    }

    #[test]
    fn an_image_given_away_encodes_to_the_same_bytes() {
        for opaque in [true, false] {
            let rgba: Vec<u8> = (0..37u32 * 23 * 4)
                .map(|i| if i % 4 == 3 && opaque { 255 } else { (i.wrapping_mul(2_654_435_761) >> 13) as u8 })
                .collect();
            let image = Image { width: 37, height: 23, rgba };
            assert_eq!(encode_png_owned(image.clone()).unwrap(), encode_png(&image).unwrap(), "opaque {opaque}");
        }
        assert!(encode_png_owned(Image { width: 2, height: 2, rgba: vec![0; 4] }).is_err());
    }

    #[test]
    fn png_encoding_checks_its_input_and_round_trips() {
        let image = Image { width: 2, height: 1, rgba: vec![255, 0, 0, 255, 0, 255, 0, 128] };
        let png = encode_png(&image).unwrap();
        assert_eq!(mime_type(&png), Some("image/png"));
        let decoder = png::Decoder::new(std::io::Cursor::new(&png));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        reader.next_frame(&mut buf).unwrap();
        assert_eq!(buf, image.rgba);
        assert!(encode_png(&Image { width: 3, height: 1, rgba: vec![0; 8] }).is_err());
        assert!(encode_png(&Image { width: 0, height: 0, rgba: Vec::new() }).is_err());
    }
}
