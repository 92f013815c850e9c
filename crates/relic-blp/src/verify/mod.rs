//! The corpus checks `cargo xtask corpus` runs on every BLP (feature `verify`):
//!
//! * `parse`: the header and every level check out against the file;
//! * `rewrite`: writing the parsed file gives the same bytes;
//! * `levels`: every level decodes to its size (`max(1, side >> level)`);
//! * `round-trip`: mip 0 decoded, encoded again the way the file stores it, decoded again, is
//!   within the encoding's bound ([`bound`]) of the first decode, channel by channel.

use relic_core::check::Checks;
use relic_core::format::Input;
use relic_core::texture::{Image, TextureEncoding, TextureOptions};

use crate::BlpFile;

/// The largest per-channel difference [`round_trip`] allows, by encoding.
///
/// * Palettized and raw: 0. A palettized source has at most 256 colours, which the encoder keeps
///   exactly (with the alpha depth the image needs: 0, 1 or 8 bits).
/// * DXT1 and DXT3: 12. Re-fitting blocks that are already 4-colour ramps lands within about a
///   565 step (8 levels of red and blue) of the first decode; the corpus's worst is 5 (DXT1) and
///   1 (DXT3, whose 4-bit alpha is exact).
/// * DXT5: 16. Colour as above (worst 9 on `dxt5.blp`); libsquish re-fits the interpolated alpha
///   ramp and misses the first by up to 15 on 1 pixel of 262,144 there (99 % of pixels within 1).
pub const fn bound(encoding: TextureEncoding) -> u8 {
    match encoding {
        TextureEncoding::Palettized | TextureEncoding::Raw32 => 0,
        TextureEncoding::Auto | TextureEncoding::Dxt1 | TextureEncoding::Dxt3 => 12,
        TextureEncoding::Dxt5 => 16,
    }
}

/// The largest per-channel difference between two images of the same size.
pub fn max_difference(a: &Image, b: &Image) -> Result<u8, String> {
    if (a.width, a.height) != (b.width, b.height) || a.rgba.len() != b.rgba.len() {
        return Err(format!("{}×{} against {}×{}", a.width, a.height, b.width, b.height));
    }
    Ok(a.rgba.iter().zip(&b.rgba).map(|(x, y)| x.abs_diff(*y)).max().unwrap_or(0))
}

/// Mip 0 → encoded as `file` is → decoded: the encoding used and the largest channel difference.
pub fn round_trip(file: &BlpFile) -> Result<(TextureEncoding, u8), String> {
    let options = TextureOptions { max_pixels: u64::MAX, ..crate::options_for(file) };
    let first = crate::decode(file, 0, &options).map_err(|e| e.to_string())?;
    let encoded = crate::encode(&first, &options).map_err(|e| e.to_string())?.value;
    let again = crate::decode(&encoded, 0, &options).map_err(|e| e.to_string())?;
    Ok((options.encoding, max_difference(&first, &again)?))
}

/// A one-line description: version, size, pixels, levels.
pub fn describe(file: &BlpFile) -> String {
    let pixels = crate::validate::pixels(file).map(|p| p.name()).unwrap_or_else(|e| e.to_string());
    let levels = crate::validate::levels(file).map(|l| l.len()).unwrap_or(0);
    format!("BLP{} {}×{} {pixels}, {levels} levels", file.version(), file.width(), file.height())
}

/// Every check on one file.
pub fn corpus_checks(input: &Input<'_>) -> Checks {
    let bytes = input.bytes;
    let mut checks = Checks::new();
    let Some(file) = checks.parsed(crate::read(bytes), describe) else { return checks };
    checks.run("rewrite", || match crate::write(&file) {
        Ok(out) if out == bytes => Ok(format!("{} bytes identical", out.len())),
        Ok(out) => Err(format!("{} bytes written for {} read", out.len(), bytes.len())),
        Err(e) => Err(e.to_string()),
    });
    checks.run("levels", || levels(&file));
    if matches!(crate::validate::pixels(&file), Ok(crate::Pixels::Jpeg)) {
        checks.refuse("round-trip", "BLP1 JPEG content is not decoded");
        return checks;
    }
    checks.run("round-trip", || {
        let (encoding, error) = round_trip(&file)?;
        let limit = bound(encoding);
        let line = format!("{encoding:?}: max channel error {error} (bound {limit})");
        if error <= limit { Ok(line) } else { Err(line) }
    });
    checks
}

/// Every level decodes to its size.
fn levels(file: &BlpFile) -> Result<String, String> {
    let levels = crate::validate::levels(file).map_err(|e| e.to_string())?;
    let options = TextureOptions { max_pixels: u64::MAX, ..TextureOptions::default() };
    for (i, level) in levels.iter().enumerate() {
        let image = crate::decode(file, i, &options).map_err(|e| format!("level {i}: {e}"))?;
        let want = relic_core::texture::mips::level_size(file.width(), file.height(), i as u32);
        if (image.width, image.height) != want || (level.width, level.height) != want || !image.is_well_formed() {
            return Err(format!("level {i} is {}×{}, expected {}×{}", image.width, image.height, want.0, want.1));
        }
    }
    let last = levels.last().map(|l| format!("{}×{}", l.width, l.height)).unwrap_or_default();
    Ok(format!("{} levels down to {last}", levels.len()))
}
