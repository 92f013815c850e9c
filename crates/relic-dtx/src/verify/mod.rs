//! The corpus checks `cargo xtask corpus` runs on every DTX (feature `verify`), through
//! [`relic_texture::checks`]:
//!
//! * `parse`: the header checks out and every part has the size it gives;
//! * `rewrite`: writing the parsed file gives the same bytes;
//! * `levels`: every mip decodes to its size (`(width >> i) × (height >> i)`);
//! * `round-trip`: mip 0 decoded, encoded again the way the file stores it, decoded again, is
//!   within the encoding's bound ([`bound`]) of the first decode, channel by channel.

use relic_core::check::Checks;
use relic_core::format::Input;
use relic_core::texture::TextureEncoding;
use relic_texture::checks::TextureFormat;

use crate::{Bpp, DtxFile};

/// The largest per-channel difference the round trip allows, by encoding: 0 for every one (as
/// for BLP, `relic_blp::verify::bound`): 32-bit is stored as decoded; a palettized source has at
/// most 256 colours, kept exactly, and its 4-bit masks decode to multiples of 17, which pack back
/// exactly; DXT blocks are found again from their own end points (the cluster fit alone missed
/// by 24 on `INTHERO_CASUAL.DTX`, 16 on `INTHERO_WINTER_HEAD.DTX`).
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

/// A one-line description: version, size, pixels, mips, flags.
pub fn describe(file: &DtxFile) -> String {
    let h = &file.header;
    let pixels = file.bpp().map_or("unknown", Bpp::name);
    let masks = if file.alpha_masks.is_some() { " + 4-bit masks" } else { "" };
    format!("v{} {}×{} {pixels}{masks}, {} mips, flags {:#x}", h.version, h.width, h.height, h.mip_count, h.flags)
}

/// DTX's functions for the shared texture checks.
pub const FORMAT: TextureFormat<DtxFile> = TextureFormat {
    read: crate::read,
    write: crate::write,
    describe,
    level_sizes: |file| Ok((0..file.mips.len()).map(|i| file.mip_size(i)).collect()),
    decode: crate::decode,
    encode: crate::encode,
    encode_like: |image, options, file| crate::encode_like(image, options, Some(file)),
    options_for: crate::options_for,
    bound,
    not_decoded: |file| match file.bpp() {
        Some(Bpp::Rgb8 | Bpp::Bpp16 | Bpp::Bgr24) | None => {
            Some(format!("BPP ident {} is not decoded", file.header.bpp_ident()))
        }
        Some(_) => None,
    },
};

/// Every check on one file.
pub fn corpus_checks(input: &Input<'_>) -> Checks {
    relic_texture::checks::corpus_checks(&FORMAT, input.bytes)
}
