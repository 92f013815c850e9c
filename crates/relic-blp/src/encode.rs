//! RGBA8 to a BLP2 file with every mip level, down to 1 × 1 (box filter).

use relic_core::texture::{Image, TextureEncoding, TextureOptions, check_image};
use relic_core::{Converted, Loss, WriteError};
use relic_texture::bc::{self, Bc};
use relic_texture::quantize::Palette as Quantized;
use relic_texture::{alpha, mips, swap_red_blue};

use crate::file::blp2::{self, Blp2File, Blp2Header};
use crate::file::{BlpFile, Palette, Pixels};

/// The encoding [`encode`] uses for `encoding` on `image`: `Auto` is DXT1 for an opaque image or
/// one whose alpha is only 0 and 255, else DXT5.
pub fn resolve(encoding: TextureEncoding, image: &Image) -> TextureEncoding {
    match encoding {
        TextureEncoding::Auto if image.has_binary_alpha() => TextureEncoding::Dxt1,
        TextureEncoding::Auto => TextureEncoding::Dxt5,
        other => other,
    }
}

/// The options that re-encode a texture the way `file` is stored (palettized, DXT1/3/5 or raw;
/// a BLP1 JPEG as raw, the lossless encoding relic writes).
pub fn options_for(file: &BlpFile) -> TextureOptions {
    let encoding = match crate::validate::pixels(file) {
        Ok(Pixels::Dxt { bc: Bc::Bc1, .. }) => TextureEncoding::Dxt1,
        Ok(Pixels::Dxt { bc: Bc::Bc2, .. }) => TextureEncoding::Dxt3,
        Ok(Pixels::Dxt { bc: Bc::Bc3, .. }) => TextureEncoding::Dxt5,
        // JPEG is not written: raw B, G, R, A keeps its decoded pixels exactly.
        Ok(Pixels::Bgra | Pixels::Jpeg) => TextureEncoding::Raw32,
        Ok(Pixels::Palettized { .. }) => TextureEncoding::Palettized,
        Err(_) => TextureEncoding::Auto,
    };
    TextureOptions { encoding, version: Some(2), ..TextureOptions::default() }
}

/// Encodes `image` as a BLP2 with every mip level down to 1 × 1, or `options.mips` levels
/// (`options.encoding`, see [`resolve`]):
///
/// * palettized: up to 256 colours exactly, more by median cut; alpha depth 0 (opaque), 1 (only
///   0 and 255) or 8, chosen from the image;
/// * DXT1 (alpha depth 0 if opaque, else 1: alpha below 128 is transparent), DXT3, DXT5 (alpha
///   depth 8): each block the one that decodes to the pixels exactly if there is one, else
///   libsquish's iterative cluster fit;
/// * raw: B, G, R, A.
///
/// Losses say what the file does not keep exactly. Only BLP2 is written (`options.version`
/// `None` or 2).
pub fn encode(image: &Image, options: &TextureOptions) -> Result<Converted<BlpFile>, WriteError> {
    encode_with(image, options, None)
}

/// [`encode`], shaped like `template` (the file `image` was decoded from) where `options` leave
/// it open: encoding `Auto` is the template's (a BLP1 JPEG's is raw BLP2, the lossless encoding
/// relic writes), mips `None` its level count, version `None` its version (BLP1 is not written:
/// BLP2, with a loss saying so).
///
/// An image equal to the template's level 0, asked for nothing the template is not, gives the
/// template itself: its bytes, levels (Blizzard's short thin levels too), palette and header
/// fields as they were. Otherwise the levels are made from the image; level 0 of a DXT template
/// of the same variant and size keeps each block that still decodes to its pixels byte for byte.
pub fn encode_like(
    image: &Image,
    options: &TextureOptions,
    template: Option<&BlpFile>,
) -> Result<Converted<BlpFile>, WriteError> {
    let Some(t) = template else { return encode(image, options) };
    let own = options_for(t);
    let pixels = crate::validate::pixels(t).ok();
    let template = |e: relic_core::ReadError| WriteError::Unsupported(format!("the texture to write like: {e}"));
    let levels = crate::validate::levels(t).map_err(template)?;
    let asks_own = |encoding: TextureEncoding| {
        encoding == TextureEncoding::Auto || (encoding == own.encoding && pixels != Some(Pixels::Jpeg))
    };
    let unchanged = asks_own(options.encoding)
        && options.version.is_none_or(|v| v == t.version())
        && options.mips.is_none_or(|m| m as usize == levels.len())
        && crate::decode(t, 0, options).is_ok_and(|level0| level0 == *image);
    if unchanged {
        return Ok(Converted::lossless(t.clone()));
    }
    let mut losses = Vec::new();
    if options.version.is_none() && t.version() != 2 {
        losses.push(Loss::new("version", format!("BLP{} is not written: written as BLP2", t.version())));
    }
    let encoding = if options.encoding == TextureEncoding::Auto { own.encoding } else { options.encoding };
    let mips = options.mips.or(Some(levels.len() as u32));
    let options = TextureOptions { encoding, mips, version: options.version.or(Some(2)), ..*options };
    // Level 0 of a DXT template of the variant and size written: its unedited blocks are kept.
    let blocks = match (pixels, levels.first()) {
        (Some(Pixels::Dxt { bc, .. }), Some(l))
            if Some(bc) == dxt(resolve(encoding, image)) && (l.width, l.height) == (image.width, image.height) =>
        {
            Some(crate::validate::level_data(t, l).map_err(template)?)
        }
        _ => None,
    };
    let mut out = encode_with(image, &options, blocks)?;
    losses.append(&mut out.losses);
    Ok(Converted { value: out.value, losses })
}

/// The BC variant of a DXT encoding.
fn dxt(encoding: TextureEncoding) -> Option<Bc> {
    match encoding {
        TextureEncoding::Dxt1 => Some(Bc::Bc1),
        TextureEncoding::Dxt3 => Some(Bc::Bc2),
        TextureEncoding::Dxt5 => Some(Bc::Bc3),
        _ => None,
    }
}

/// [`encode`]; a DXT level 0 keeps the blocks of `blocks` (the source's) that still decode to
/// the image's pixels.
fn encode_with(
    image: &Image,
    options: &TextureOptions,
    blocks: Option<&[u8]>,
) -> Result<Converted<BlpFile>, WriteError> {
    check_image(image, options)?;
    if let Some(v) = options.version.filter(|v| *v != 2) {
        return Err(WriteError::Unsupported(format!(
            "BLP version {v} is not written: relic writes BLP2 (and reads BLP1)"
        )));
    }
    let encoding = resolve(options.encoding, image);
    let full = mips::full_chain(image.width, image.height).min(16);
    let count = options.mips.map_or(full, |m| m.clamp(1, full));
    let levels = mips::chain(image, count);
    let mut losses = Vec::new();
    let opaque = image.is_opaque();
    let (compression, alpha_depth, alpha_type, palette, data) = match encoding {
        TextureEncoding::Palettized => {
            let quantized = Quantized::of(image);
            if !quantized.is_exact() {
                losses.push(Loss::new(
                    "pixels",
                    format!("{} colours reduced to a 256-colour palette (median cut)", quantized.source_colours),
                ));
            }
            let bits = if opaque {
                0
            } else if image.has_binary_alpha() {
                1
            } else {
                8
            };
            let data = levels.iter().map(|l| palettized(&quantized, bits, l)).collect();
            (blp2::COMPRESSION_PALETTE, bits, blp2::ALPHA_TYPE_PALETTIZED, Palette::from_rgb(&quantized.colours), data)
        }
        TextureEncoding::Raw32 => {
            let data = levels.iter().map(|l| swap_red_blue(&l.rgba)).collect();
            (blp2::COMPRESSION_RAW, 8, blp2::ALPHA_TYPE_ARGB8888, Palette::default(), data)
        }
        dxt => {
            let (bc, depth, alpha_type) = match dxt {
                TextureEncoding::Dxt1 => (Bc::Bc1, if opaque { 0 } else { 1 }, blp2::ALPHA_TYPE_DXT1),
                TextureEncoding::Dxt3 => (Bc::Bc2, 8, blp2::ALPHA_TYPE_DXT3),
                _ => (Bc::Bc3, 8, blp2::ALPHA_TYPE_DXT5),
            };
            losses.extend(bc::losses(bc, image));
            // Alpha depth 0 is read back opaque: BC1's transparent index may then hold black.
            let like = |i: usize| bc::Like { blocks: blocks.filter(|_| i == 0), opaque: depth == 0 };
            let data = levels
                .iter()
                .enumerate()
                .map(|(i, l)| bc::encode_like(bc, &l.rgba, l.width as usize, l.height as usize, like(i)))
                .collect();
            (blp2::COMPRESSION_DXT, depth, alpha_type, Palette::default(), data)
        }
    };
    let file = assemble(image, [compression, alpha_depth, alpha_type], palette, data)?;
    Ok(Converted { value: file, losses })
}

fn palettized(quantized: &Quantized, bits: u8, level: &Image) -> Vec<u8> {
    let mut data = quantized.indices(level);
    let plane = alpha::plane_bytes(bits, level.pixels() as u64) as usize;
    data.extend(alpha::pack(bits, &level.rgba, plane));
    data
}

/// The file: header with contiguous level offsets from byte 1172, palette, levels.
fn assemble(image: &Image, kind: [u8; 3], palette: Palette, levels: Vec<Vec<u8>>) -> Result<BlpFile, WriteError> {
    let [compression, alpha_depth, alpha_type] = kind;
    let mut mip_offsets = [0u32; 16];
    let mut mip_sizes = [0u32; 16];
    let mut at = blp2::BLP2_DATA_START as usize;
    for ((offset, size), level) in mip_offsets.iter_mut().zip(&mut mip_sizes).zip(&levels) {
        *offset = relic_core::error::fit("Blp2Header.mip_offsets", at, "u32")?;
        *size = relic_core::error::fit("Blp2Header.mip_sizes", level.len(), "u32")?;
        at += level.len();
    }
    let header = Blp2Header {
        content: 1,
        compression,
        alpha_depth,
        alpha_type,
        has_mips: u8::from(levels.len() > 1),
        width: image.width,
        height: image.height,
        mip_offsets,
        mip_sizes,
    };
    Ok(BlpFile::Blp2(Blp2File { header, palette: Some(palette), data: levels.concat() }))
}
