//! Checks on the header before the body is read (the sizes it determines), and on the parsed
//! file; and the strict size sum that [`crate::detect`] requires.

use relic_core::{ReadError, ReadErrorKind};

use crate::file::header::{FLAG_ALPHA_MASKS, FLAG_SECTIONS_FIXED, at};
use crate::file::{Bpp, DtxFile, DtxHeader, Layout, SECTION_HEADER_BYTES, VERSION_LT1, VERSION_LT2, VERSION_LT15};

/// Bytes of the v−2/v−3 palette: two words and 256 entries of 4 bytes.
pub const PALETTE_BYTES: u64 = 8 + 1024;

/// Mip count limit of LithTech's loader (it refuses 0 and more than 15).
pub const MAX_MIPS: u16 = 15;

/// Checks the header and computes the sizes of what follows it: the version, the resource type,
/// the size, the mip count (1–15, no mip of 0 pixels), the BPP ident (v−5) and, for v−3, that
/// nothing of unknown meaning is announced.
pub fn layout(h: &DtxHeader) -> Result<Layout, ReadError> {
    if !matches!(h.version, VERSION_LT1 | VERSION_LT15 | VERSION_LT2) {
        return Err(ReadError::at(
            at::VERSION,
            "DtxHeader.version",
            ReadErrorKind::UnsupportedVersion {
                version: h.version.unsigned_abs(),
                reason: format!(
                    "DTX version {} is not read (relic reads −2, −3 and −5; no reader documents −4)",
                    h.version
                ),
            },
        ));
    }
    if h.res_type != 0 {
        return Err(ReadError::invalid(
            0,
            "DtxHeader.res_type",
            format!("resource type {} is not a texture (0)", h.res_type),
        ));
    }
    if h.width == 0 || h.height == 0 {
        let (field, offset) = if h.width == 0 { ("width", at::WIDTH) } else { ("height", at::HEIGHT) };
        return Err(ReadError::invalid(
            offset,
            format!("DtxHeader.{field}"),
            format!("{} × {} pixels", h.width, h.height),
        ));
    }
    let fits = |n: u16| u32::from(h.width) >> (n - 1) >= 1 && u32::from(h.height) >> (n - 1) >= 1;
    if h.mip_count == 0 || h.mip_count > MAX_MIPS || !fits(h.mip_count) {
        return Err(ReadError::invalid(
            at::MIP_COUNT,
            "DtxHeader.mip_count",
            format!("{} mips do not fit {} × {} pixels (1–15, none of 0 pixels)", h.mip_count, h.width, h.height),
        ));
    }
    let bpp = bpp(h)?;
    if h.version == VERSION_LT15 && h.section_count != 0 {
        return Err(ReadError::invalid(
            at::SECTION_COUNT,
            "DtxHeader.section_count",
            format!("{} in a v−3 file: what it announces in v−3 is unknown", h.section_count),
        ));
    }
    let sizes = (0..usize::from(h.mip_count)).map(|i| h.mip_size(i));
    let mips = sizes.clone().map(|(w, ht)| bpp.mip_bytes(w, ht)).collect();
    let masks = if h.version == VERSION_LT1 && h.flags & FLAG_ALPHA_MASKS != 0 {
        sizes.map(|(w, ht)| u64::from(w) * u64::from(ht) / 2).collect()
    } else {
        Vec::new()
    };
    let sections =
        if h.version == VERSION_LT2 && h.flags & FLAG_SECTIONS_FIXED != 0 { h.section_count.into() } else { 0 };
    Ok(Layout { mips, masks, sections })
}

/// The pixel format of the header (v−5: its BPP ident; unknown idents are refused).
pub fn bpp(h: &DtxHeader) -> Result<Bpp, ReadError> {
    if h.version != VERSION_LT2 {
        return Ok(Bpp::Palettized);
    }
    let ident = h.bpp_ident();
    Bpp::from_ident(ident).ok_or_else(|| {
        ReadError::invalid(at::BPP, "DtxHeader.extra_lt2.bpp", format!("BPP ident {ident} is not known (0–8)"))
    })
}

/// Checks on the parsed file: a v−3 file ends with its mips (anything after them is of unknown
/// meaning), and every part has the size the header gives (for files built in memory).
pub fn validate(file: &DtxFile) -> Result<(), ReadError> {
    let layout = layout(&file.header)?;
    if file.header.version == VERSION_LT15 && !file.trailing.is_empty() {
        return Err(ReadError::invalid(
            expected_len(&file.header, &layout),
            "DtxFile.trailing",
            format!("{} bytes after the mips of a v−3 file: their meaning is unknown", file.trailing.len()),
        ));
    }
    let sizes_match = |blocks: &[Vec<u8>], want: &[u64]| {
        blocks.len() == want.len() && blocks.iter().zip(want).all(|(b, w)| b.len() as u64 == *w)
    };
    // No masks: the header must announce none either.
    let masks = file.alpha_masks.as_deref().unwrap_or_default();
    if !sizes_match(&file.mips, &layout.mips) || !sizes_match(masks, &layout.masks) {
        return Err(ReadError::invalid(
            at::MIP_COUNT,
            "DtxFile.mips",
            "mip or mask sizes differ from what the header gives",
        ));
    }
    if file.sections.len() as u64 != layout.sections || file.palette.is_some() != (file.header.version != VERSION_LT2) {
        return Err(ReadError::invalid(
            at::SECTION_COUNT,
            "DtxFile.sections",
            "sections or palette differ from the header",
        ));
    }
    Ok(())
}

/// Bytes of header, palette, mips and masks (sections and trailing bytes not included).
pub fn expected_len(h: &DtxHeader, layout: &Layout) -> u64 {
    let palette = if h.version == VERSION_LT2 { 0 } else { PALETTE_BYTES };
    h.size() + palette + layout.mips.iter().sum::<u64>() + layout.masks.iter().sum::<u64>()
}

/// True if `bytes` is exactly the DTX its header describes: header, palette, mips, masks and
/// sections add up to the file's length (v−2 with has_lights: at most the length, the LIGHTDEFS
/// block taking the rest). What [`crate::detect`] requires, as the DTX signature is weak.
pub fn sizes_add_up(h: &DtxHeader, layout: &Layout, bytes: &[u8]) -> bool {
    let len = bytes.len() as u64;
    let mut end = expected_len(h, layout);
    for _ in 0..layout.sections {
        let len_at = end + SECTION_HEADER_BYTES - 4;
        let data_len =
            usize::try_from(len_at).ok().and_then(|at| bytes.get(at..at + 4)).and_then(|b| b.try_into().ok());
        let Some(data_len) = data_len.map(u32::from_le_bytes) else { return false };
        end += SECTION_HEADER_BYTES + u64::from(data_len);
        if end > len {
            return false;
        }
    }
    if h.version == VERSION_LT1 && h.section_count != 0 { end <= len } else { end == len }
}
