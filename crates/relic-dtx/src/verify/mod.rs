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

/// The largest per-channel difference the round trip allows, by encoding.
///
/// * 32-bit: 0 (B, G, R, A stored as decoded).
/// * 8-bit palettized (v−2): 0. A palettized source has at most 256 colours, kept exactly; the
///   4-bit masks decode to multiples of 17, which pack back exactly.
/// * DXT1 and DXT3: 12; DXT5: 16 — as for BLP (libsquish re-fitting blocks that are already
///   4-colour ramps; see `relic_blp::verify::bound`). The corpus's worst: 9 (`PARTNER_DANCIN`).
pub const fn bound(encoding: TextureEncoding) -> u8 {
    match encoding {
        TextureEncoding::Palettized | TextureEncoding::Raw32 => 0,
        TextureEncoding::Auto | TextureEncoding::Dxt1 | TextureEncoding::Dxt3 => 12,
        TextureEncoding::Dxt5 => 16,
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
    level_sizes: |file| (0..file.mips.len()).map(|i| file.mip_size(i)).collect(),
    decode: crate::decode,
    encode: crate::encode,
    options_for: crate::options_for,
    bound,
    not_decoded: |file| match file.bpp() {
        Some(Bpp::Rgb8 | Bpp::Bpp16 | Bpp::Palettized32 | Bpp::Bgr24) | None => {
            Some(format!("BPP ident {} is not decoded", file.header.bpp_ident()))
        }
        Some(_) => None,
    },
};

/// Every check on one file.
pub fn corpus_checks(input: &Input<'_>) -> Checks {
    relic_texture::checks::corpus_checks(&FORMAT, input.bytes)
}
