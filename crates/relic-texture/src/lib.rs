//! Pixel codecs shared by the texture format crates (`relic-blp`, `relic-dtx`): what they decode
//! and encode alike, kept once.
//!
//! * [`bc`]: BC1–BC3 (DXT1/3/5) blocks, decoded by `bcdec_rs`, encoded exactly where a block
//!   decodes to the pixels (`exact`) and by `texpresso` (a port of libsquish) elsewhere, laid out
//!   row by row here.
//! * [`alpha`]: alpha planes of 1, 4 or 8 bits per pixel (BLP, DTX v−2 masks).
//! * [`mips`]: the box filter that makes each mip level from the one above.
//! * [`quantize`]: reduction to a 256-colour palette (exact when the image has at most 256
//!   colours, else median cut).
//! * `checks` (feature `verify`): the corpus checks every texture crate runs over its own
//!   functions.
//!
//! Every function here works on sizes its caller has already checked against the file
//! (`relic_core::texture::check_pixels` for the decoded size); none of them reads file bytes on
//! its own.

pub mod alpha;
pub mod bc;
#[cfg(feature = "verify")]
pub mod checks;
pub mod mips;
pub mod quantize;

/// Four-byte pixels with the first and third byte exchanged: B, G, R, A ↔ R, G, B, A (the
/// order of BLP raw levels and DTX 32-bit mips).
pub fn swap_red_blue(pixels: &[u8]) -> Vec<u8> {
    let mut out = pixels.to_vec();
    for p in out.chunks_exact_mut(4) {
        p.swap(0, 2);
    }
    out
}

/// RGBA8 of `pixels` pixels whose colours are `palette[index]` (BLP and DTX palettized levels);
/// pixels beyond `indices` stay transparent black.
pub fn expand_palette(palette: &[[u8; 4]; 256], indices: &[u8], pixels: usize) -> Vec<u8> {
    let mut rgba = vec![0u8; pixels * 4];
    for (out, &i) in rgba.chunks_exact_mut(4).zip(indices) {
        if let Some(colour) = palette.get(usize::from(i)) {
            out.copy_from_slice(colour);
        }
    }
    rgba
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pixel_helpers() {
        assert_eq!(swap_red_blue(&[1, 2, 3, 4, 5]), [3, 2, 1, 4, 5]);
        let mut palette = [[0u8; 4]; 256];
        palette[7] = [1, 2, 3, 255];
        assert_eq!(expand_palette(&palette, &[7, 0], 3), [1, 2, 3, 255, 0, 0, 0, 0, 0, 0, 0, 0]);
    }
}

/// The README's example, compiled and run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctest;
