//! BC1–BC3 (DXT1, DXT3, DXT5) blocks: each 4 × 4 pixel block is 8 (BC1) or 16 bytes, blocks
//! row after row. Blocks are decoded by `bcdec_rs` (a pure-Rust port of bcdec, several times
//! faster than libsquish's decoder) and encoded exactly where a block decodes to the pixels
//! (`exact`: DXT decoded and encoded again comes back unchanged), else by `texpresso` (a
//! pure-Rust port of libsquish's cluster fit); this module places the 16 pixels of each block
//! into the image, clipping the blocks that overhang the right and bottom edges.

use texpresso::{Algorithm, COLOUR_WEIGHTS_PERCEPTUAL, Format, Params};

use relic_core::convert::Loss;

mod exact;

use exact::Block;
use relic_core::texture::Image;

/// A block-compressed pixel format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Bc {
    /// BC1 / DXT1: two RGB565 colours and 2-bit indices; index 3 of a block whose first colour
    /// is not greater than its second is transparent black.
    Bc1,
    /// BC2 / DXT3: 4-bit explicit alpha per pixel, then a BC1 colour block (always 4 colours).
    Bc2,
    /// BC3 / DXT5: two 8-bit alpha end points and 3-bit indices, then a BC1 colour block.
    Bc3,
}

impl Bc {
    /// Bytes per 4 × 4 block.
    pub const fn block_bytes(self) -> usize {
        match self {
            Bc::Bc1 => 8,
            Bc::Bc2 | Bc::Bc3 => 16,
        }
    }

    /// The DXT name (`DXT1`, `DXT3`, `DXT5`).
    pub const fn dxt_name(self) -> &'static str {
        match self {
            Bc::Bc1 => "DXT1",
            Bc::Bc2 => "DXT3",
            Bc::Bc3 => "DXT5",
        }
    }

    /// Bytes of an image of `width × height` pixels in whole blocks (a partial block takes a
    /// whole one).
    pub fn image_bytes(self, width: u64, height: u64) -> u64 {
        width.div_ceil(4).saturating_mul(height.div_ceil(4)).saturating_mul(self.block_bytes() as u64)
    }

    fn format(self) -> Format {
        match self {
            Bc::Bc1 => Format::Bc1,
            Bc::Bc2 => Format::Bc2,
            Bc::Bc3 => Format::Bc3,
        }
    }
}

/// Decodes `width × height` pixels of `data` as RGBA8 into `out` (`width × height × 4` bytes).
/// Blocks missing at the end of `data` decode as if their bytes were zero (the LithTech size
/// rule stores fewer bytes than a block for mips below 4 × 4, specs/textures.md §1.4); callers
/// check `data` against the file before they call this. Pixels of `out` beyond the image are not
/// touched; `out` shorter than the image leaves the rest undecoded.
///
/// Blocks are decoded by `bcdec_rs` (a port of bcdec: colours interpolated from the 5/6-bit end
/// points with exact rounding, DXT3/DXT5 colour blocks always in four-colour mode, as Direct3D
/// specifies), straight into the image where a whole block fits, through a 4 × 4 scratch block
/// at the right and bottom edges.
pub fn decode_into(bc: Bc, data: &[u8], width: usize, height: usize, out: &mut [u8]) {
    let size = bc.block_bytes();
    let blocks_wide = width.div_ceil(4);
    let row_bytes = width * 4;
    let mut padded;
    let mut scratch = [0u8; 64];
    for (by, band) in out.chunks_mut(row_bytes * 4).take(height.div_ceil(4)).enumerate() {
        let whole_band = band.len() == row_bytes * 4;
        for bx in 0..blocks_wide {
            let start = (by * blocks_wide + bx) * size;
            let block = match data.get(start..start + size) {
                Some(block) => block,
                None => {
                    // A block cut short (LithTech's `w·h/2` below 4 × 4) or missing: zeros.
                    padded = [0; 16];
                    let tail = data.get(start..).unwrap_or_default();
                    if let Some(dst) = padded.get_mut(..tail.len()) {
                        dst.copy_from_slice(tail);
                    }
                    padded.get(..size).unwrap_or_default()
                }
            };
            let x = bx * 4;
            // A whole block inside the image: decoded in place, rows `row_bytes` apart.
            if whole_band
                && x + 4 <= width
                && let Some(dst) = band.get_mut(x * 4..3 * row_bytes + x * 4 + 16)
            {
                decode_block(bc, block, dst, row_bytes);
                continue;
            }
            decode_block(bc, block, &mut scratch, 16);
            let n = (width - x).min(4) * 4;
            for (row, line) in band.chunks_mut(row_bytes).enumerate().take(4) {
                if let (Some(dst), Some(src)) = (line.get_mut(x * 4..x * 4 + n), scratch.get(row * 16..row * 16 + n)) {
                    dst.copy_from_slice(src);
                }
            }
        }
    }
}

/// One block into `dst`, rows `pitch` bytes apart (`dst` holds 4 rows of 4 pixels from its
/// start).
#[inline]
fn decode_block(bc: Bc, block: &[u8], dst: &mut [u8], pitch: usize) {
    match bc {
        Bc::Bc1 => bcdec_rs::bc1(block, dst, pitch),
        Bc::Bc2 => bcdec_rs::bc2(block, dst, pitch),
        Bc::Bc3 => bcdec_rs::bc3(block, dst, pitch),
    }
}

/// Decodes `width × height` pixels of `data` into a new RGBA8 buffer (see [`decode_into`]).
pub fn decode(bc: Bc, data: &[u8], width: usize, height: usize) -> Vec<u8> {
    let mut out = vec![0u8; width * height * 4];
    decode_into(bc, data, width, height, &mut out);
    out
}

/// What [`encode_like`] knows beyond the pixels.
#[derive(Debug, Clone, Copy, Default)]
pub struct Like<'a> {
    /// The blocks the pixels were decoded from (the same variant and size): a block that still
    /// decodes to its pixels is kept byte for byte.
    pub blocks: Option<&'a [u8]>,
    /// BC1 read back opaque (a BLP DXT1 of alpha depth 0 forces alpha to 255): index 3 of a
    /// 3-colour block may then stand for opaque black.
    pub opaque: bool,
}

/// Encodes `width × height` RGBA8 pixels as whole blocks ([`Bc::image_bytes`]), block by block
/// (see [`encode_like`]). BC1 makes pixels with alpha below 128 transparent (3-colour blocks) and
/// drops the rest of the alpha.
pub fn encode(bc: Bc, rgba: &[u8], width: usize, height: usize) -> Vec<u8> {
    encode_like(bc, rgba, width, height, Like::default())
}

/// [`encode`], each block the first of:
///
/// 1. the block of `like.blocks` at its place, if it still decodes to the pixels (an unedited
///    block of an edited texture keeps its bytes);
/// 2. the block that decodes to the pixels exactly, if there is one (a block decoded from DXT
///    finds its own end points: an unedited texture comes back pixel for pixel);
/// 3. libsquish's iterative cluster fit with perceptual colour weights (the single-pass cluster
///    fit turned a four-colour gradient of PARTNER_DANCIN.DTX into one flat colour, an error of
///    57; the iterative fit's worst there is 6, at about the same speed).
///
/// Blocks overhanging the right and bottom edges are fitted to the pixels inside.
pub fn encode_like(bc: Bc, rgba: &[u8], width: usize, height: usize, like: Like<'_>) -> Vec<u8> {
    let size = bc.block_bytes();
    let mut out = vec![0u8; bc.image_bytes(width as u64, height as u64) as usize];
    let params = Params {
        algorithm: Algorithm::IterativeClusterFit,
        weights: COLOUR_WEIGHTS_PERCEPTUAL,
        weigh_colour_by_alpha: false,
    };
    if width == 0 || height == 0 || rgba.len() < width * height * 4 {
        return out;
    }
    let blocks_wide = width.div_ceil(4);
    for (k, dst) in out.chunks_exact_mut(size).enumerate() {
        let (bx, by) = (k % blocks_wide * 4, k / blocks_wide * 4);
        let mut pixels: Block = [[0; 4]; 16];
        let mut mask = 0u32;
        for (i, pixel) in pixels.iter_mut().enumerate() {
            let (x, y) = (bx + i % 4, by + i / 4);
            let at = (y * width + x) * 4;
            if let Some(p) = rgba.get(at..at + 4).filter(|_| x < width && y < height) {
                pixel.copy_from_slice(p);
                mask |= 1 << i;
            }
        }
        let kept = like.blocks.and_then(|b| b.get(k * size..(k + 1) * size)).filter(|old| {
            let mut again = [0u8; 64];
            decode_block(bc, old, &mut again, 16);
            let opaque = like.opaque && bc == Bc::Bc1;
            again.chunks_exact(4).zip(&pixels).enumerate().all(|(i, (q, p))| match *q {
                [r, g, b, a] => mask >> i & 1 == 0 || [r, g, b, if opaque { 255 } else { a }] == *p,
                _ => false,
            })
        });
        if let Some(old) = kept {
            dst.copy_from_slice(old);
        } else if !exact::block(bc, &pixels, mask, like.opaque, dst) {
            bc.format().compress_block_masked(pixels, mask, params, dst);
        }
    }
    out
}

/// What encoding `image` as `bc` does not keep: the block compression itself, and for BC1 the
/// partial alpha values it rounds to 0 or 255.
pub fn losses(bc: Bc, image: &Image) -> Vec<Loss> {
    let mut losses = vec![Loss::new(
        "pixels",
        format!("{} block compression is lossy (colours are 4-step ramps per 4 × 4 block)", bc.dxt_name()),
    )];
    if bc == Bc::Bc1 {
        let partial = image.rgba.chunks_exact(4).filter(|p| !matches!(p.get(3), Some(0 | 255))).count();
        if partial > 0 {
            losses.push(Loss::new(
                "alpha",
                format!("{partial} pixels of partial alpha rounded to 0 or 255 (DXT1 keeps 1 bit)"),
            ));
        }
    }
    losses
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A BC1 block with colours red (0xF800) and blue (0x001F), 4-colour mode, indices 0,1,2,3
    /// on each row.
    const RED_BLUE: [u8; 8] = [0x00, 0xF8, 0x1F, 0x00, 0xE4, 0xE4, 0xE4, 0xE4];

    #[test]
    fn bc1_block_decodes_by_the_book() {
        let px = decode(Bc::Bc1, &RED_BLUE, 4, 4);
        assert_eq!(&px[0..4], &[255, 0, 0, 255]);
        assert_eq!(&px[4..8], &[0, 0, 255, 255]);
        // Index 2: 2/3 red + 1/3 blue.
        assert_eq!(&px[8..12], &[170, 0, 85, 255]);
        assert_eq!(&px[48..52], &[255, 0, 0, 255]);
    }

    #[test]
    fn partial_blocks_are_clipped_and_short_data_padded() {
        // 5 × 2 pixels: two blocks wide, the second holds one column.
        let data = [RED_BLUE, RED_BLUE].concat();
        let px = decode(Bc::Bc1, &data, 5, 2);
        assert_eq!(px.len(), 40);
        assert_eq!(&px[16..20], &[255, 0, 0, 255]);
        assert_eq!(&px[20..40], &px[0..20]);
        // Two bytes of a block (the DTX size of a 2 × 2 DXT1 mip): the rest reads as zeros,
        // colour 0 = colour 1 = black in 3-colour mode, index 0.
        let px = decode(Bc::Bc1, &[0, 0], 2, 2);
        assert_eq!(px, [0, 0, 0, 255].repeat(4));
        assert_eq!(Bc::Bc1.image_bytes(1, 1), 8);
        assert_eq!(Bc::Bc3.image_bytes(256, 128), 32768);
    }

    #[test]
    fn blocks_of_the_source_are_kept_and_decoded_blocks_found_again() {
        // An 8 × 4 image of two blocks; the second edited after decoding.
        let source = [RED_BLUE, [0x00, 0xF8, 0x1F, 0x00, 0x1B, 0x1B, 0x1B, 0x1B]].concat();
        let mut pixels = decode(Bc::Bc1, &source, 8, 4);
        assert_eq!(encode(Bc::Bc1, &pixels, 8, 4), source, "unedited: the same bytes");
        pixels[16..20].copy_from_slice(&[10, 200, 30, 255]);
        let like = Like { blocks: Some(&source), opaque: false };
        let again = encode_like(Bc::Bc1, &pixels, 8, 4, like);
        assert_eq!(again[..8], source[..8], "the unedited block is kept");
        assert_ne!(again[8..], source[8..]);
    }

    #[test]
    fn encode_then_decode_is_close() {
        let (w, h) = (13usize, 7usize);
        let rgba: Vec<u8> = (0..w * h)
            .flat_map(|i| {
                let (x, y) = (i % w, i / w);
                [(x * 6) as u8, (y * 8) as u8, 128, if x > 6 { 255 } else { 0 }]
            })
            .collect();
        for bc in [Bc::Bc1, Bc::Bc2, Bc::Bc3] {
            let blocks = encode(bc, &rgba, w, h);
            assert_eq!(blocks.len(), 4 * 2 * bc.block_bytes());
            let back = decode(bc, &blocks, w, h);
            for (p, q) in rgba.chunks(4).zip(back.chunks(4)) {
                assert_eq!(p[3], q[3], "{bc:?}: binary alpha survives");
                if p[3] == 255 {
                    for c in 0..3 {
                        assert!(p[c].abs_diff(q[c]) <= 12, "{bc:?}: {p:?} → {q:?}");
                    }
                }
            }
        }
    }
}
