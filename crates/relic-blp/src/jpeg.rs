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
use relic_core::texture::{Image, TextureOptions, check_pixels};
use relic_texture::mips;
use zune_jpeg::JpegDecoder;
use zune_jpeg::zune_core::bytestream::ZCursor;
use zune_jpeg::zune_core::colorspace::ColorSpace;
use zune_jpeg::zune_core::options::DecoderOptions;

/// Decodes one JPEG level of `width × height` pixels (already checked against the caller's
/// `max_pixels`) as RGBA8. `alpha_bits` 0 makes it opaque (the fourth component is then not
/// opacity); any other value takes alpha from the fourth component. `at` and `path` name the
/// level's offset field for errors.
///
/// A level whose JPEG is the size of a larger level of the chain from `full` (a tool that points
/// every level at level 0's bytes: Warcraft III loads such files, e.g. a map's `SmileyGW.blp`) is
/// decoded at that size and halved down to the level, as the chain's own levels are made
/// ([`mips::half`]); [`larger_frame`] finds these levels for the file's facts. Any other size is
/// refused. Such a frame is held against `options.max_pixels` before it is allocated.
pub(crate) fn decode_level(
    header: &[u8],
    level: &[u8],
    (width, height): (u32, u32),
    full: (u32, u32),
    alpha_bits: u32,
    options: &TextureOptions,
    (at, path): (u64, &str),
) -> Result<Vec<u8>, ReadError> {
    let invalid = |why: String| ReadError::invalid(at, path, why);
    let jpeg = [header, level].concat();
    // The frame may not be larger than level 0.
    let decoder_options = DecoderOptions::default()
        .jpeg_set_out_colorspace(ColorSpace::CMYK)
        .set_max_width(full.0 as usize)
        .set_max_height(full.1 as usize);
    let mut decoder = JpegDecoder::new_with_options(ZCursor::new(jpeg.as_slice()), decoder_options);
    decoder.decode_headers().map_err(|e| invalid(format!("JPEG level of {width} × {height}: {e}")))?;
    let (w, h) = decoder.dimensions().ok_or_else(|| invalid("the JPEG's frame header gives no size".into()))?;
    let Some(halvings) = halvings_to((w, h), (width, height), full) else {
        return Err(invalid(format!("the JPEG is {w} × {h}, the level {width} × {height}")));
    };
    if halvings > 0 {
        check_pixels(w as u64, h as u64, options, at, path)?;
    }
    let components = decoder.input_colorspace();
    if !matches!(components, Some(ColorSpace::CMYK | ColorSpace::YCCK)) {
        return Err(invalid(format!(
            "the JPEG holds {components:?}, not the four components (B, G, R, A) of a BLP1 level"
        )));
    }
    let mut rgba = vec![0u8; w * h * 4];
    decoder.decode_into(&mut rgba).map_err(|e| invalid(format!("JPEG level of {w} × {h}: {e}")))?;
    for p in rgba.chunks_exact_mut(4) {
        p.swap(0, 2);
        if alpha_bits == 0
            && let Some(a) = p.get_mut(3)
        {
            *a = 255;
        }
    }
    let mut image = Image { width: w as u32, height: h as u32, rgba };
    for _ in 0..halvings {
        image = mips::half(&image);
    }
    Ok(image.rgba)
}

/// How many halvings take a JPEG frame of `frame` to the level of `level` pixels: 0 when they
/// agree, `k` when the frame is the size of the level `k` above it in the chain from `full`,
/// `None` for any other size.
fn halvings_to(frame: (usize, usize), level: (u32, u32), full: (u32, u32)) -> Option<u32> {
    let chain = mips::full_chain(full.0, full.1);
    let index = (0..chain).find(|&i| mips::level_size(full.0, full.1, i) == level)?;
    (0..=index).find(|&k| {
        let (w, h) = mips::level_size(full.0, full.1, index - k);
        (w as usize, h as usize) == frame
    })
}

/// True if the JPEG of a `level`-sized level (the shared header and its bytes) states the size of
/// a larger level of the chain from `full`: see [`decode_level`]. Reads the JPEG's headers only.
pub(crate) fn larger_frame(header: &[u8], level: &[u8], size: (u32, u32), full: (u32, u32)) -> bool {
    let jpeg = [header, level].concat();
    let options = DecoderOptions::default().set_max_width(full.0 as usize).set_max_height(full.1 as usize);
    let mut decoder = JpegDecoder::new_with_options(ZCursor::new(jpeg.as_slice()), options);
    match decoder.decode_headers().ok().and(decoder.dimensions()) {
        Some(frame) => halvings_to(frame, size, full).is_some_and(|k| k > 0),
        None => false,
    }
}
