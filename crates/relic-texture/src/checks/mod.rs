//! The corpus checks every texture crate runs (`cargo xtask corpus`), over the crate's own
//! functions:
//!
//! * `parse`, `rewrite` (byte-identical), `levels` (every level decoded to its size);
//! * `round-trip`: mip 0 decoded, encoded the way the file stores it and decoded again within
//!   the encoding's error bound (0: a decoded texture encodes back to itself);
//! * `same-format`: mip 0 written back to the file's own format ([`TextureFormat::encode_like`],
//!   what `relic convert X.blp Y.blp` does) gives the file byte for byte;
//! * `edited`: mip 0 with its left half blurred, written like the file ([`edited`]).

mod edited;

pub use edited::{EDITED_RMSE_RATIO, edited};

use relic_core::check::Checks;
use relic_core::convert::Converted;
use relic_core::error::{ReadError, WriteError};
use relic_core::texture::{Image, TextureEncoding, TextureOptions};

/// Width and height of every level of a file.
pub type LevelSizes = Vec<(u32, u32)>;

/// A texture format's functions, as the checks call them.
pub struct TextureFormat<F> {
    /// Parses and checks a file.
    pub read: fn(&[u8]) -> Result<F, ReadError>,
    /// Writes a file.
    pub write: fn(&F) -> Result<Vec<u8>, WriteError>,
    /// A one-line description (version, size, pixels, levels).
    pub describe: fn(&F) -> String,
    /// The size of every level the file holds.
    pub level_sizes: fn(&F) -> Result<LevelSizes, ReadError>,
    /// Decodes a level.
    pub decode: fn(&F, usize, &TextureOptions) -> Result<Image, ReadError>,
    /// Encodes an image.
    pub encode: fn(&Image, &TextureOptions) -> Result<Converted<F>, WriteError>,
    /// Encodes an image like a file of the format (what options leave open is the file's; an
    /// image equal to its level 0 gives the file itself).
    pub encode_like: fn(&Image, &TextureOptions, &F) -> Result<Converted<F>, WriteError>,
    /// The options that re-encode the way the file is stored.
    pub options_for: fn(&F) -> TextureOptions,
    /// The largest per-channel difference a decode → encode → decode may leave, by encoding.
    pub bound: fn(TextureEncoding) -> u8,
    /// Why the file's pixels are not decoded, if they are not (the round trip is then refused).
    pub not_decoded: fn(&F) -> Option<String>,
}

/// The largest per-channel difference between two images of the same size.
pub fn max_difference(a: &Image, b: &Image) -> Result<u8, String> {
    if (a.width, a.height) != (b.width, b.height) || a.rgba.len() != b.rgba.len() {
        return Err(format!("{}×{} against {}×{}", a.width, a.height, b.width, b.height));
    }
    Ok(a.rgba.iter().zip(&b.rgba).map(|(x, y)| x.abs_diff(*y)).fold(0, u8::max))
}

/// Mip 0 → encoded as the file is → decoded: the encoding used and the largest channel
/// difference from the first decode.
pub fn round_trip<F>(format: &TextureFormat<F>, file: &F) -> Result<(TextureEncoding, u8), String> {
    let options = TextureOptions { max_pixels: u64::MAX, ..(format.options_for)(file) };
    let first = (format.decode)(file, 0, &options).map_err(|e| e.to_string())?;
    let encoded = (format.encode)(&first, &options).map_err(|e| e.to_string())?.value;
    let again = (format.decode)(&encoded, 0, &options).map_err(|e| e.to_string())?;
    Ok((options.encoding, max_difference(&first, &again)?))
}

/// Mip 0 written back to the file's own format, asked for nothing else, gives the file's bytes.
fn same_format<F>(format: &TextureFormat<F>, file: &F, bytes: &[u8]) -> Result<String, String> {
    let options = TextureOptions { max_pixels: u64::MAX, ..TextureOptions::default() };
    let image = (format.decode)(file, 0, &options).map_err(|e| e.to_string())?;
    let again = (format.encode_like)(&image, &options, file).map_err(|e| e.to_string())?;
    let out = (format.write)(&again.value).map_err(|e| e.to_string())?;
    match out.iter().zip(bytes).position(|(a, b)| a != b) {
        None if out.len() == bytes.len() => Ok(format!("{} bytes identical", out.len())),
        at => Err(format!("{} bytes written for {}, first difference at byte {at:?}", out.len(), bytes.len())),
    }
}

/// Every level decodes to the size the file gives it.
fn levels<F>(format: &TextureFormat<F>, file: &F) -> Result<String, String> {
    let options = TextureOptions { max_pixels: u64::MAX, ..TextureOptions::default() };
    let sizes = (format.level_sizes)(file).map_err(|e| e.to_string())?;
    for (i, &(w, h)) in sizes.iter().enumerate() {
        let image = (format.decode)(file, i, &options).map_err(|e| format!("level {i}: {e}"))?;
        if (image.width, image.height) != (w, h) || !image.is_well_formed() {
            return Err(format!("level {i} is {}×{}, expected {w}×{h}", image.width, image.height));
        }
    }
    match sizes.last() {
        Some((w, h)) => Ok(format!("{} levels down to {w}×{h}", sizes.len())),
        None => Err("no levels".into()),
    }
}

/// Every check on one file.
pub fn corpus_checks<F>(format: &TextureFormat<F>, bytes: &[u8]) -> Checks {
    let mut checks = Checks::new();
    let Some(file) = checks.parsed((format.read)(bytes), format.describe) else { return checks };
    checks.run("rewrite", || match (format.write)(&file) {
        Ok(out) if out == bytes => Ok(format!("{} bytes identical", out.len())),
        Ok(out) => Err(format!("{} bytes written for {} read", out.len(), bytes.len())),
        Err(e) => Err(e.to_string()),
    });
    if let Some(why) = (format.not_decoded)(&file) {
        checks.refuse("levels", why);
        return checks;
    }
    checks.run("levels", || levels(format, &file));
    checks.run("round-trip", || {
        let (encoding, error) = round_trip(format, &file)?;
        let limit = (format.bound)(encoding);
        let line = format!("{encoding:?}: max channel error {error} (bound {limit})");
        if error <= limit { Ok(line) } else { Err(line) }
    });
    checks.run("same-format", || same_format(format, &file, bytes));
    match edited(format, &file) {
        Ok(None) => checks.skip("edited", "palettized: an edit makes a new palette"),
        result => {
            checks.run("edited", || result.map(Option::unwrap_or_default));
        }
    }
    checks
}
