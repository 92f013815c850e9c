//! The corpus checks `cargo xtask corpus` runs on every BLP (feature `verify`), through
//! [`relic_texture::checks`]:
//!
//! * `parse`: the header and every level check out against the file;
//! * `rewrite`: writing the parsed file gives the same bytes;
//! * `levels`: every level decodes to its size (`max(1, side >> level)`);
//! * `round-trip`: mip 0 decoded, encoded again the way the file stores it, decoded again, is
//!   within the encoding's bound ([`bound`]) of the first decode, channel by channel.

use relic_core::check::Checks;
use relic_core::format::Input;
use relic_core::texture::TextureEncoding;
use relic_texture::checks::TextureFormat;

use crate::BlpFile;

/// The largest per-channel difference the round trip allows, by encoding: 0 for every one.
///
/// * Palettized and raw: a palettized source has at most 256 colours, which the encoder keeps
///   exactly (with the alpha depth the image needs: 0, 1 or 8 bits); raw is B, G, R, A as is.
/// * DXT1, DXT3, DXT5: every block of a decoded DXT level is a block some encoder wrote, and the
///   encoder finds such a block again (`relic_texture::bc::encode`: the block's own end points
///   first). Libsquish's cluster fit alone missed by up to 31 (DXT5 alpha of
///   `axe_1h_blacksmithing_d_01.blp`) and 24 (DXT1 of NOLF's `INTHERO_CASUAL.DTX`); how the
///   encoder does on edited images, against a reference encoder, is in docs/FORMAT-NOTES.md.
pub const fn bound(encoding: TextureEncoding) -> u8 {
    match encoding {
        TextureEncoding::Auto
        | TextureEncoding::Palettized
        | TextureEncoding::Raw32
        | TextureEncoding::Dxt1
        | TextureEncoding::Dxt3
        | TextureEncoding::Dxt5 => 0,
    }
}

/// A one-line description: version, size, pixels, levels.
pub fn describe(file: &BlpFile) -> String {
    let pixels = crate::validate::pixels(file).map(|p| p.name()).unwrap_or_else(|e| e.to_string());
    let levels = crate::validate::levels(file).map_or_else(|e| e.to_string(), |l| l.len().to_string());
    format!("BLP{} {}×{} {pixels}, {levels} levels", file.version(), file.width(), file.height())
}

/// BLP's functions for the shared texture checks.
pub const FORMAT: TextureFormat<BlpFile> = TextureFormat {
    read: crate::read,
    write: crate::write,
    describe,
    level_sizes: |file| crate::validate::levels(file).map(|l| l.iter().map(|l| (l.width, l.height)).collect()),
    decode: crate::decode,
    encode: crate::encode,
    encode_like: |image, options, file| crate::encode_like(image, options, Some(file)),
    options_for: crate::options_for,
    bound,
    // Every pixel layout BLP reads is decoded (BLP1 JPEG too).
    not_decoded: |_| None,
};

/// Every check on one file.
pub fn corpus_checks(input: &Input<'_>) -> Checks {
    relic_texture::checks::corpus_checks(&FORMAT, input.bytes)
}
