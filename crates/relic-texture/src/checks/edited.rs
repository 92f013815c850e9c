//! The `edited` corpus check: what a modder's edit does to a texture written back to its format.
//!
//! Mip 0 is decoded and its left half blurred (a 3 × 3 box filter, the right half untouched),
//! then written like the file ([`TextureFormat::encode_like`]) and decoded again:
//!
//! * every 4 × 4 block the edit left alone must come back exactly (DXT: the file's own block is
//!   kept; raw: every pixel is stored as is);
//! * DXT: over the edited blocks, the root-mean-square error of relic's encoder, in libsquish's
//!   perceptual metric (what both encoders minimise), must be at most [`EDITED_RMSE_RATIO`]
//!   times that of the reference encoder — libsquish with its default choices (single-pass
//!   cluster fit, perceptual weights; `texpresso`'s port), run here on the same pixels. The
//!   plain RMSE and the largest channel error of both are reported beside it. Measured on every
//!   corpus texture edited three ways, relic's plain RMSE was at most 1.008 times libsquish's
//!   and 1.054 times Intel's ISPC texture compressor's (apart from one 16 × 16 cut-out; figures
//!   in docs/FORMAT-NOTES.md); the largest single-channel errors of the three are alike (a
//!   block of many colours is held by none of them).
//!
//! Palettized files are not checked: an edit that brings new colours makes a new palette.

use relic_core::texture::{Image, TextureEncoding, TextureOptions};
use texpresso::{Algorithm, COLOUR_WEIGHTS_PERCEPTUAL, Params};

use super::TextureFormat;
use crate::bc::{self, Bc};

/// How much larger than the reference encoder's the error on edited blocks may be.
pub const EDITED_RMSE_RATIO: f64 = 1.02;

/// The image with its left half (`x < width / 2`) replaced by the 3 × 3 box mean of each pixel
/// (neighbours outside the image left out).
fn blur_left_half(image: &Image) -> Image {
    let (w, h) = (image.width as usize, image.height as usize);
    let mut rgba = image.rgba.clone();
    for y in 0..h {
        for x in 0..w / 2 {
            let (mut sum, mut n) = ([0u32; 4], 0);
            for sy in y.saturating_sub(1)..(y + 2).min(h) {
                for sx in x.saturating_sub(1)..(x + 2).min(w) {
                    if let Some(p) = image.rgba.get((sy * w + sx) * 4..(sy * w + sx) * 4 + 4) {
                        sum.iter_mut().zip(p).for_each(|(s, v)| *s += u32::from(*v));
                        n += 1;
                    }
                }
            }
            if let Some(p) = rgba.get_mut((y * w + x) * 4..(y * w + x) * 4 + 4) {
                p.iter_mut().zip(sum).for_each(|(v, s)| *v = ((s + n / 2) / n.max(1)) as u8);
            }
        }
    }
    Image { rgba, ..image.clone() }
}

/// Pixel indices of each 4 × 4 block of a `w × h` image.
fn blocks(w: usize, h: usize) -> impl Iterator<Item = Vec<usize>> {
    (0..h.div_ceil(4)).flat_map(move |by| {
        (0..w.div_ceil(4)).map(move |bx| {
            (by * 4..(by * 4 + 4).min(h)).flat_map(|y| (bx * 4..(bx * 4 + 4).min(w)).map(move |x| y * w + x)).collect()
        })
    })
}

/// libsquish's perceptual metric: red, green and blue differences scaled by their luminance
/// weights, alpha as it is.
const PERCEPTUAL: [f64; 4] = [0.2126, 0.7152, 0.0722, 1.0];

/// Over `pixels`, `channels` (3: RGB, 4: RGBA) per pixel: the largest channel difference, the
/// root-mean-square error, and the root-mean-square error in libsquish's perceptual metric.
fn error(a: &Image, b: &Image, pixels: &[usize], channels: usize) -> (u8, f64, f64) {
    let (mut max, mut sum, mut weighted, mut n) = (0u8, 0f64, 0f64, 0f64);
    for &p in pixels {
        let (Some(x), Some(y)) = (a.rgba.get(p * 4..p * 4 + 4), b.rgba.get(p * 4..p * 4 + 4)) else { continue };
        for ((x, y), w) in x.iter().zip(y).zip(PERCEPTUAL).take(channels) {
            let d = f64::from(x.abs_diff(*y));
            max = max.max(x.abs_diff(*y));
            sum += d * d;
            weighted += (w * d).powi(2);
            n += 1.0;
        }
    }
    let rms = |s: f64| if n > 0.0 { (s / n).sqrt() } else { 0.0 };
    (max, rms(sum), rms(weighted))
}

/// The reference encoder (libsquish's defaults) on `image`, decoded.
fn reference(bc: Bc, image: &Image) -> Image {
    let (w, h) = (image.width as usize, image.height as usize);
    let mut blocks = vec![0u8; bc.image_bytes(w as u64, h as u64) as usize];
    let params =
        Params { algorithm: Algorithm::ClusterFit, weights: COLOUR_WEIGHTS_PERCEPTUAL, weigh_colour_by_alpha: false };
    let format = match bc {
        Bc::Bc1 => texpresso::Format::Bc1,
        Bc::Bc2 => texpresso::Format::Bc2,
        Bc::Bc3 => texpresso::Format::Bc3,
    };
    format.compress(&image.rgba, w, h, params, &mut blocks);
    Image { rgba: bc::decode(bc, &blocks, w, h), ..image.clone() }
}

/// The `edited` check: `Ok(None)` for a palettized file (not checked), else the figures, or why
/// they break the rule.
pub fn edited<F>(format: &TextureFormat<F>, file: &F) -> Result<Option<String>, String> {
    let own = (format.options_for)(file).encoding;
    let bc = match own {
        TextureEncoding::Palettized => return Ok(None),
        TextureEncoding::Dxt1 => Some(Bc::Bc1),
        TextureEncoding::Dxt3 => Some(Bc::Bc2),
        TextureEncoding::Dxt5 => Some(Bc::Bc3),
        TextureEncoding::Auto | TextureEncoding::Raw32 => None,
    };
    let options = TextureOptions { max_pixels: u64::MAX, ..TextureOptions::default() };
    let image = (format.decode)(file, 0, &options).map_err(|e| e.to_string())?;
    let edit = blur_left_half(&image);
    let written = (format.encode_like)(&edit, &options, file).map_err(|e| e.to_string())?.value;
    let back = (format.decode)(&written, 0, &options).map_err(|e| e.to_string())?;
    let (w, h) = (image.width as usize, image.height as usize);
    let channels = if bc == Some(Bc::Bc1) && edit.is_opaque() { 3 } else { 4 };
    let mut edited = Vec::new();
    for block in blocks(w, h) {
        let (touched, ..) = error(&image, &edit, &block, 4);
        let (kept, ..) = error(&edit, &back, &block, channels);
        if touched > 0 {
            edited.extend(block);
        } else if kept > 0 {
            return Err(format!("a block the edit left alone (pixel {:?}) came back {kept} off", block.first()));
        }
    }
    let (max, rmse, weighted) = error(&edit, &back, &edited, channels);
    let Some(bc) = bc else {
        let line = format!("{own:?}: {} edited pixels, max channel error {max}; unedited blocks exact", edited.len());
        return if max == 0 { Ok(Some(line)) } else { Err(line) };
    };
    let (ref_max, ref_rmse, ref_weighted) = error(&edit, &reference(bc, &edit), &edited, channels);
    let line = format!(
        "{own:?}: {} edited pixels, perceptual RMSE {weighted:.3} (libsquish {ref_weighted:.3}, bound ×{EDITED_RMSE_RATIO}), RMSE {rmse:.2} (libsquish {ref_rmse:.2}), max channel error {max} (libsquish {ref_max}); unedited blocks exact",
        edited.len()
    );
    if weighted <= ref_weighted * EDITED_RMSE_RATIO + 1e-9 { Ok(Some(line)) } else { Err(line) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_blur_touches_the_left_half_only() {
        let image = Image { width: 8, height: 2, rgba: (0..64).map(|i| (i * 4) as u8).collect() };
        let edit = blur_left_half(&image);
        // Pixels x ≥ 4 of both rows are as they were; the left ones are means.
        assert_eq!(edit.rgba[16..32], image.rgba[16..32]);
        assert_eq!(edit.rgba[48..], image.rgba[48..]);
        assert_ne!(edit.rgba[..16], image.rgba[..16]);
        assert_eq!(blocks(8, 2).count(), 2);
        assert_eq!(blocks(5, 5).map(|b| b.len()).collect::<Vec<_>>(), [16, 4, 4, 1]);
    }
}
