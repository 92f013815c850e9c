//! Levels to RGBA8 (specs/textures.md §2.3–2.5).

use relic_core::ReadError;
use relic_core::texture::{Image, TextureOptions, check_pixels};
use relic_texture::bc::{self, Bc};
use relic_texture::{alpha, expand_palette, swap_red_blue};

use crate::file::{BlpFile, Palette, Pixels};
use crate::validate::{self, Level};

/// Decodes level `level` (0 = full size) as RGBA8, rows top first. The header and every level
/// are checked against the file first, and the level's size against `options.max_pixels`.
///
/// * Palettized: colour from the palette (B, G, R), alpha from the plane (1 bit: LSB first;
///   4 bits: low nibble first, × 17; 8 bits: a byte), 255 without a plane.
/// * DXT1/3/5: BC1/2/3 blocks; a DXT1 file of alpha depth 0 is opaque (alpha forced to 255). A
///   thin level stored with fewer blocks than it covers (Blizzard's `⌊w/4⌋·⌊h/4⌋`, e.g. a
///   16 × 2 level in one block) has its stored blocks in place, and every block after them is
///   a copy of the last stored one (texels the file has no block for take the nearest stored
///   colours, rather than black or transparent).
/// * Raw: B, G, R, A bytes.
/// * JPEG (BLP1): the shared JPEG header and the level's bytes, one JPEG of four components
///   B, G, R, A; opaque when the header's alpha bits are 0.
pub fn decode(file: &BlpFile, level: usize, options: &TextureOptions) -> Result<Image, ReadError> {
    let c = file.chain();
    // The size first: a hostile header is refused by `max_pixels` before its levels are looked at.
    let (w, h) = relic_texture::mips::level_size(c.width, c.height, level.min(31) as u32);
    check_pixels(u64::from(w), u64::from(h), options, c.width_at, &format!("{}.width", c.header))?;
    let pixels = validate::pixels(file)?;
    let levels = validate::levels(file)?;
    let Some(l) = levels.get(level) else {
        return Err(ReadError::invalid(
            c.offsets_at,
            format!("{}.mip_offsets", c.header),
            format!("level {level} does not exist: the file has {} level(s)", levels.len()),
        ));
    };
    let data = validate::level_data(file, l)?;
    let rgba = match pixels {
        Pixels::Palettized { alpha_bits } => {
            // BLP2 always holds a palette; a BLP1 does when its content is 1 (palettized).
            let palette = file.palette().ok_or_else(|| {
                ReadError::invalid(c.offsets_at, format!("{}.palette", c.header), "a palettized file without a palette")
            })?;
            palettized(palette, alpha_bits, data, l)
        }
        Pixels::Dxt { bc, alpha_bits } => {
            let blocks = bc.image_bytes(l.width.into(), l.height.into()) as usize;
            let data = whole_blocks(data, bc.block_bytes(), blocks);
            let mut rgba = bc::decode(bc, &data, l.width as usize, l.height as usize);
            if bc == Bc::Bc1 && alpha_bits == 0 {
                rgba.chunks_exact_mut(4).filter_map(|p| p.get_mut(3)).for_each(|a| *a = 255);
            }
            rgba
        }
        Pixels::Bgra => bgra(data, l).ok_or_else(|| {
            let at = c.sizes_at + 4 * level as u64;
            ReadError::invalid(at, format!("{}.mip_sizes[{level}]", c.header), "fewer than 4 bytes per pixel")
        })?,
        Pixels::Jpeg => {
            let (header, alpha_bits) = match file {
                BlpFile::Blp1(f) => (f.jpeg.as_ref().map_or(&[][..], |j| j.bytes.as_slice()), f.header.alpha_bits),
                BlpFile::Blp2(_) => (&[][..], 0),
            };
            let at = (c.offsets_at + 4 * level as u64, format!("{}.mip_offsets[{level}]", c.header));
            crate::jpeg::decode_level(
                header,
                data,
                (l.width, l.height),
                (c.width, c.height),
                alpha_bits,
                options,
                (at.0, &at.1),
            )?
        }
    };
    Ok(Image { width: l.width, height: l.height, rgba })
}

/// `data` as `bytes` bytes of whole blocks of `block` bytes: as stored when it is that long,
/// else its whole blocks followed by copies of the last one (a short thin DXT level; the levels
/// check keeps at least one block).
fn whole_blocks(data: &[u8], block: usize, bytes: usize) -> std::borrow::Cow<'_, [u8]> {
    let blocks = data.chunks_exact(block);
    match blocks.clone().last() {
        Some(last) if data.len() < bytes => {
            let mut out = Vec::with_capacity(bytes);
            blocks.for_each(|b| out.extend_from_slice(b));
            while out.len() < bytes {
                out.extend_from_slice(last);
            }
            std::borrow::Cow::Owned(out)
        }
        _ => std::borrow::Cow::Borrowed(data),
    }
}

fn palettized(palette: &Palette, alpha_bits: u8, data: &[u8], l: &Level) -> Vec<u8> {
    let count = l.width as usize * l.height as usize;
    let (indices, plane) = data.split_at(count.min(data.len()));
    let mut rgba = expand_palette(&palette.rgba(), indices, count);
    if alpha_bits > 0 {
        alpha::unpack_into(alpha_bits, plane, &mut rgba);
    }
    rgba
}

/// Raw B, G, R, A pixels as RGBA (`None` if the level is shorter than its pixels, which the
/// levels check refuses).
fn bgra(data: &[u8], l: &Level) -> Option<Vec<u8>> {
    let count = l.width as usize * l.height as usize;
    data.get(..count * 4).map(swap_red_blue)
}
