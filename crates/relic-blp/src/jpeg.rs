//! BLP1 JPEG levels (specs/textures.md §2.8): the file's shared JPEG header followed by the
//! level's bytes form one baseline JPEG of four components, stored B, G, R, A (not YCbCr: no
//! colour transform is applied). Blizzard's writer cuts the shared header wherever the levels'
//! JPEGs stop agreeing (in the corpus: in the middle of the frame header, after the Huffman
//! tables, after 10 bytes), so the two are only ever read joined.
//!
//! Decoded by `zune-jpeg` with its output colour space set to CMYK, which hands the four
//! components over untouched; checked against Warcraft III-era reference PNGs (War3Net's
//! `color.png`: identical; `map101.png`: within 1, IDCT rounding).

use relic_core::ReadError;
use zune_jpeg::JpegDecoder;
use zune_jpeg::zune_core::bytestream::ZCursor;
use zune_jpeg::zune_core::colorspace::ColorSpace;
use zune_jpeg::zune_core::options::DecoderOptions;

/// Decodes one JPEG level of `width × height` pixels (already checked against the caller's
/// `max_pixels`) as RGBA8. `alpha_bits` 0 makes it opaque (the fourth component is then not
/// opacity); any other value takes alpha from the fourth component. `at` and `path` name the
/// level's offset field for errors.
pub(crate) fn decode_level(
    header: &[u8],
    level: &[u8],
    (width, height): (u32, u32),
    alpha_bits: u32,
    (at, path): (u64, &str),
) -> Result<Vec<u8>, ReadError> {
    let invalid = |why: String| ReadError::invalid(at, path, why);
    let jpeg = [header, level].concat();
    // The frame may not be larger than the level: nothing bigger is allocated.
    let options = DecoderOptions::default()
        .jpeg_set_out_colorspace(ColorSpace::CMYK)
        .set_max_width(width as usize)
        .set_max_height(height as usize);
    let mut decoder = JpegDecoder::new_with_options(ZCursor::new(jpeg.as_slice()), options);
    decoder.decode_headers().map_err(|e| invalid(format!("JPEG level of {width} × {height}: {e}")))?;
    let (w, h) = decoder.dimensions().ok_or_else(|| invalid("the JPEG's frame header gives no size".into()))?;
    if (w, h) != (width as usize, height as usize) {
        return Err(invalid(format!("the JPEG is {w} × {h}, the level {width} × {height}")));
    }
    let components = decoder.input_colorspace();
    if !matches!(components, Some(ColorSpace::CMYK | ColorSpace::YCCK)) {
        return Err(invalid(format!(
            "the JPEG holds {components:?}, not the four components (B, G, R, A) of a BLP1 level"
        )));
    }
    let mut rgba = vec![0u8; width as usize * height as usize * 4];
    decoder.decode_into(&mut rgba).map_err(|e| invalid(format!("JPEG level of {width} × {height}: {e}")))?;
    for p in rgba.chunks_exact_mut(4) {
        p.swap(0, 2);
        if alpha_bits == 0
            && let Some(a) = p.get_mut(3)
        {
            *a = 255;
        }
    }
    Ok(rgba)
}
