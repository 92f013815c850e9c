//! Mips to RGBA8 (specs/textures.md §1.4, §1.7). Rows are stored top first, as glTF wants.

use relic_core::ReadError;
use relic_core::texture::{Image, TextureOptions, check_pixels};
use relic_texture::bc::{self, Bc};
use relic_texture::{alpha, expand_palette, swap_red_blue};

use crate::file::header::at;
use crate::file::{Bpp, DtxFile};

/// Decodes mip `level` (0 = full size) as RGBA8, after checking its size against
/// `options.max_pixels` and its bytes against what the header gives.
///
/// * v−2/v−3: palette colours (R, G, B after an unused byte), alpha 255, or from the v−2 4-bit
///   mask (low nibble first, × 17) when the file has masks;
/// * `BPP_32`: B, G, R, A as stored (LithTech's alpha is not always opacity: §1.7);
/// * DXT1/3/5: BC1/2/3, a mip stored with fewer bytes than its blocks (LithTech's `w·h/2` rule
///   below 4 × 4) padded with zeros;
/// * `BPP_32P`: each index through the `PALLETE32` section's 256 entries (B, G, R, and alpha on
///   the PS2 scale, read doubled with 0x7F and above opaque: [`crate::palette32`]);
/// * `BPP_8`, `BPP_16`, `BPP_24`: refused, naming the ident (layout not pinned down).
pub fn decode(file: &DtxFile, level: usize, options: &TextureOptions) -> Result<Image, ReadError> {
    let bpp = crate::validate::bpp(&file.header)?;
    let Some(mip) = file.mips.get(level) else {
        return Err(ReadError::invalid(
            at::MIP_COUNT,
            "DtxHeader.mip_count",
            format!("mip {level} does not exist: the file has {}", file.mips.len()),
        ));
    };
    let (width, height) = file.mip_size(level);
    check_pixels(u64::from(width), u64::from(height), options, at::WIDTH, "DtxHeader.width")?;
    let needed = bpp.mip_bytes(width, height);
    let short = || {
        ReadError::invalid(
            at::MIP_COUNT,
            format!("DtxFile.mips[{level}]"),
            format!("{} bytes for a {width} × {height} {} mip that needs {needed}", mip.len(), bpp.name()),
        )
    };
    if (mip.len() as u64) < needed {
        return Err(short());
    }
    let (w, h) = (width as usize, height as usize);
    let rgba = match bpp {
        Bpp::Palettized => {
            let Some(palette) = &file.palette else {
                return Err(ReadError::invalid(0, "DtxFile.palette", "a palettized file without a palette"));
            };
            let mut rgba = expand_palette(&palette.rgba(), mip, w * h);
            if let Some(mask) = file.alpha_masks.as_ref().and_then(|m| m.get(level)) {
                alpha::unpack_into(4, mask, &mut rgba);
            }
            rgba
        }
        // `needed` bytes are there (checked above): w·h·4 for BPP_32.
        Bpp::Bgra32 => mip.get(..needed as usize).map(swap_red_blue).ok_or_else(short)?,
        Bpp::Dxt1 => bc::decode(Bc::Bc1, mip, w, h),
        Bpp::Dxt3 => bc::decode(Bc::Bc2, mip, w, h),
        Bpp::Dxt5 => bc::decode(Bc::Bc3, mip, w, h),
        // `needed` = w·h index bytes are there (checked above).
        Bpp::Palettized32 => expand_palette(&crate::palette32::palette(file)?, mip, w * h),
        Bpp::Rgb8 | Bpp::Bpp16 | Bpp::Bgr24 => {
            return Err(ReadError::invalid(
                at::BPP,
                "DtxHeader.extra_lt2.bpp",
                format!(
                    "BPP ident {} ({}) is read and written but not decoded: its pixel layout is not pinned down",
                    file.header.bpp_ident(),
                    bpp.name()
                ),
            ));
        }
    };
    Ok(Image { width, height, rgba })
}
