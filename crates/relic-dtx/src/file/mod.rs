//! The file layer: DTX v−2, v−3 and v−5 as binrw types, read and written from the same
//! definitions (specs/textures.md §1).
//!
//! | version | after the header |
//! |---|---|
//! | −2 | palette (8 + 1024 bytes), 8-bit index mips, a 4-bit alpha mask per mip if flags has 0x2, a LIGHTDEFS block if `section_count` (has_lights) is set |
//! | −3 | palette, 8-bit index mips (anything else is refused: unknown) |
//! | −5 | mips in the format of the BPP ident, then `section_count` sections if flags has 0x8 |
//!
//! Mip `i` is `(width >> i) × (height >> i)` pixels, stored largest first, back to back; sizes
//! follow LithTech's formula without rounding DXT up to whole blocks ([`Bpp::mip_bytes`]).

pub mod body;
pub mod header;

use binrw::{BinRead, BinWrite, binrw};
use relic_core::{ReadError, WriteError};

pub use body::{Palette, SECTION_HEADER_BYTES, Section, Xrgb};
pub use header::{DtxHeader, ExtraLt1, ExtraLt2, VERSION_LT1, VERSION_LT2, VERSION_LT15};

use body::{blocks, optional_blocks, write_blocks, write_optional_blocks};

/// How v−5 pixels are stored: the BPP ident of the header (v−2 and v−3 are always 8-bit
/// palettized).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bpp {
    /// 8-bit palette indices with the palette in the file (v−2, v−3).
    Palettized,
    /// Ident 1, `BPP_8` ("8 bit RGB"): one byte per pixel, layout unknown.
    Rgb8,
    /// Ident 2, `BPP_16`: two bytes per pixel, layout unknown.
    Bpp16,
    /// Ident 3 (and 0, which LithTech's loader reads as 3): B, G, R, A.
    Bgra32,
    /// Ident 4: DXT1 blocks, `w·h/2` bytes per mip.
    Dxt1,
    /// Ident 5: DXT3 blocks, `w·h` bytes per mip.
    Dxt3,
    /// Ident 6: DXT5 blocks, `w·h` bytes per mip.
    Dxt5,
    /// Ident 7, `BPP_32P` (NOLF's PS2 textures): palette indices, the palette in a `PALLETE32`
    /// section, 256 entries of B, G, R, and alpha on the PS2 scale ([`crate::palette32`]).
    Palettized32,
    /// Ident 8, `BPP_24`: three bytes per pixel (in some copies of the enum only).
    Bgr24,
}

impl Bpp {
    /// The BPP of a v−5 ident, `None` for an unknown ident.
    pub fn from_ident(ident: u8) -> Option<Bpp> {
        Some(match ident {
            0 | 3 => Bpp::Bgra32,
            1 => Bpp::Rgb8,
            2 => Bpp::Bpp16,
            4 => Bpp::Dxt1,
            5 => Bpp::Dxt3,
            6 => Bpp::Dxt5,
            7 => Bpp::Palettized32,
            8 => Bpp::Bgr24,
            _ => return None,
        })
    }

    /// LithTech's name (`BPP_32`, `DXT1`, `8P`).
    pub fn name(self) -> &'static str {
        match self {
            Bpp::Palettized => "8P",
            Bpp::Rgb8 => "BPP_8",
            Bpp::Bpp16 => "BPP_16",
            Bpp::Bgra32 => "BPP_32",
            Bpp::Dxt1 => "DXT1",
            Bpp::Dxt3 => "DXT3",
            Bpp::Dxt5 => "DXT5",
            Bpp::Palettized32 => "BPP_32P",
            Bpp::Bgr24 => "BPP_24",
        }
    }

    /// Bytes of a `width × height` mip: LithTech's `CalcImageSize`, DXT without rounding up.
    pub fn mip_bytes(self, width: u32, height: u32) -> u64 {
        let pixels = u64::from(width) * u64::from(height);
        match self {
            Bpp::Palettized | Bpp::Rgb8 | Bpp::Dxt3 | Bpp::Dxt5 | Bpp::Palettized32 => pixels,
            Bpp::Bpp16 => pixels * 2,
            Bpp::Bgra32 => pixels * 4,
            Bpp::Dxt1 => pixels / 2,
            Bpp::Bgr24 => pixels * 3,
        }
    }
}

/// The sizes the header determines, computed by [`crate::validate::layout`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Layout {
    /// Bytes of each mip.
    pub mips: Vec<u64>,
    /// Bytes of each v−2 alpha mask (empty without masks).
    pub masks: Vec<u64>,
    /// Sections to read (v−5 with flag 0x8).
    pub sections: u64,
}

/// A whole DTX file.
#[binrw]
#[brw(little)]
#[br(import(layout: &Layout))]
#[derive(Debug, Clone, PartialEq)]
pub struct DtxFile {
    /// CrossFire's LZMA-alone wrapper around the file, if it had one (its original bytes are
    /// written back while the texture is unchanged); not part of the DTX layout.
    #[brw(ignore)]
    pub wrapper: Option<relic_lithtech::lzma::Wrapper>,
    /// The header.
    pub header: DtxHeader,
    /// v−2 and v−3: the palette.
    #[br(if(header.version != VERSION_LT2))]
    pub palette: Option<Palette>,
    /// The mips, largest first, as stored (indices, pixels or blocks).
    #[br(parse_with = blocks, args(&layout.mips,))]
    #[bw(write_with = write_blocks)]
    pub mips: Vec<Vec<u8>>,
    /// v−2 with flag 0x2: one 4-bit alpha mask per mip (`w·h/2` bytes, low nibble first).
    #[br(parse_with = optional_blocks, args(&layout.masks,))]
    #[bw(write_with = write_optional_blocks)]
    pub alpha_masks: Option<Vec<Vec<u8>>>,
    /// v−5 with flag 0x8: the sections.
    #[br(parse_with = relic_core::binary::counted, args(layout.sections, SECTION_HEADER_BYTES))]
    pub sections: Vec<Section>,
    /// v−2 with has_lights: the LIGHTDEFS block, kept as bytes. Otherwise bytes after the data
    /// (none in any sample; kept so that writing gives the same file).
    #[br(parse_with = relic_core::binary::rest_of_file)]
    #[bw(write_with = relic_core::binary::write_pod_field)]
    pub trailing: Vec<u8>,
}

impl DtxFile {
    /// How the mips store their pixels (v−2/v−3: palettized; v−5: by BPP ident).
    pub fn bpp(&self) -> Option<Bpp> {
        if self.header.version == VERSION_LT2 {
            Bpp::from_ident(self.header.bpp_ident())
        } else {
            Some(Bpp::Palettized)
        }
    }

    /// Size of mip `level`: `(width >> level) × (height >> level)`.
    pub fn mip_size(&self, level: usize) -> (u32, u32) {
        self.header.mip_size(level)
    }
}

/// Parses the header alone.
pub(crate) fn parse_header(bytes: &[u8]) -> Result<DtxHeader, ReadError> {
    relic_core::binary::parse(bytes, |s| DtxHeader::read_le(s)).map_err(|e| e.within("DtxHeader"))
}

/// Parses the whole file with the sizes its (checked) header determines.
pub(crate) fn parse(bytes: &[u8], layout: &Layout) -> Result<DtxFile, ReadError> {
    relic_core::binary::parse(bytes, |s| DtxFile::read_le_args(s, (layout,))).map_err(|e| e.within("DtxFile"))
}

/// Writes the file as held.
pub(crate) fn write(file: &DtxFile) -> Result<Vec<u8>, WriteError> {
    let size = file.mips.iter().map(Vec::len).sum::<usize>() + file.trailing.len() + 1200;
    let mut out = std::io::Cursor::new(Vec::with_capacity(size));
    file.write_le(&mut out).map_err(|e| WriteError::from_binrw(&e))?;
    Ok(out.into_inner())
}
