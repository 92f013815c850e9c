//! The file layer: BLP2 and BLP1 as binrw types, read and written from the same definitions.
//!
//! | magic | header | then | levels |
//! |---|---|---|---|
//! | `BLP2` | [`Blp2Header`], 148 bytes | [`Palette`], 1024 bytes | at `mip_offsets`, from byte 1172 |
//! | `BLP1` | [`Blp1Header`], 156 bytes | [`Palette`] or [`JpegHeader`] | at `mip_offsets` |
//! | `BLP0` | — | — | mips in external files: refused |
//!
//! The bytes after the palette are kept whole ([`Blp2File::data`]); [`crate::validate`] checks
//! that every level the header lists lies inside them and is as large as its size needs.

pub mod blp1;
pub mod blp2;
pub mod palette;

use binrw::{BinRead, BinWrite};
use relic_core::{ReadError, ReadErrorKind, WriteError};
use relic_texture::bc::Bc;

pub use blp1::{Blp1File, Blp1Header, JpegHeader};
pub use blp2::{Blp2File, Blp2Header};
pub use palette::{Bgrx, Palette};

/// A BLP file of either version relic reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BlpFile {
    /// World of Warcraft.
    Blp2(Blp2File),
    /// Warcraft III.
    Blp1(Blp1File),
}

/// How the pixels of every level are stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pixels {
    /// One palette index per pixel, then an alpha plane of `alpha_bits` (0, 1, 4, 8) per pixel.
    Palettized {
        /// Bits of alpha per pixel.
        alpha_bits: u8,
    },
    /// DXT blocks. A DXT1 file of alpha depth 0 is opaque (3-colour blocks' index 3 is black).
    Dxt {
        /// The variant.
        bc: Bc,
        /// The header's alpha depth.
        alpha_bits: u8,
    },
    /// Four bytes per pixel: blue, green, red, alpha.
    Bgra,
    /// JPEG (BLP1): parsed and written back, not decoded.
    Jpeg,
}

impl Pixels {
    /// Short name for summaries (`palettized a8`, `DXT5`, `BGRA`, `JPEG`).
    pub fn name(&self) -> String {
        match self {
            Pixels::Palettized { alpha_bits } => format!("palettized a{alpha_bits}"),
            Pixels::Dxt { bc, alpha_bits } if *bc == Bc::Bc1 => format!("DXT1 a{alpha_bits}"),
            Pixels::Dxt { bc, .. } => bc.dxt_name().to_string(),
            Pixels::Bgra => "BGRA".into(),
            Pixels::Jpeg => "JPEG".into(),
        }
    }

    /// The fewest bytes a `width × height` level may be stored in: [`Pixels::level_bytes`],
    /// except DXT levels with a side under 4 texels, which Blizzard's writer stores with
    /// `⌊w/4⌋·⌊h/4⌋` blocks, at least 1 (e.g. a 16 × 2 level in 1 block, not 4; ~3.5 % of the
    /// WoW 1.12 and 2.4.3 interface BLPs). [`crate::decode`] fills the texels without a block.
    ///
    /// Such a level lacks at most [`MAX_MISSING_BLOCKS`] blocks (one row 4,096 texels wide): the
    /// declared size is held against the bytes that back it, so a 134,217,729 × 1 level "stored"
    /// in one block (a fuzz finding: 100 MB decoded from 1.5 KB) is refused, not filled.
    pub fn least_level_bytes(&self, width: u32, height: u32) -> u64 {
        match self {
            Pixels::Dxt { bc, .. } => {
                let whole = bc.image_bytes(u64::from(width), u64::from(height)) / bc.block_bytes() as u64;
                let blizzard = (u64::from(width) / 4).saturating_mul(u64::from(height) / 4).max(1);
                let blocks = blizzard.max(whole.saturating_sub(MAX_MISSING_BLOCKS));
                blocks.saturating_mul(bc.block_bytes() as u64)
            }
            _ => self.level_bytes(width, height),
        }
    }

    /// Bytes a `width × height` level needs (DXT: whole blocks covering it); `u64::MAX` when
    /// that does not fit a `u64` (sizes come from the file: no file is that large).
    pub fn level_bytes(&self, width: u32, height: u32) -> u64 {
        let pixels = u64::from(width).saturating_mul(u64::from(height));
        match self {
            Pixels::Palettized { alpha_bits } => {
                pixels.saturating_add(relic_texture::alpha::plane_bytes(*alpha_bits, pixels))
            }
            Pixels::Dxt { bc, .. } => bc.image_bytes(u64::from(width), u64::from(height)),
            Pixels::Bgra => pixels.saturating_mul(4),
            Pixels::Jpeg => 0,
        }
    }
}

/// The most blocks a thin DXT level may lack ([`Pixels::least_level_bytes`]): one row of blocks
/// 4,096 texels wide, the widest texture WoW loads. Real files lack at most 3 (the 16 × 2 level
/// of `UI-Listbox-Highlight.blp`); a level filled this way decodes to at most 64 KiB more than
/// its bytes back, a fixed cost.
pub const MAX_MISSING_BLOCKS: u64 = 1024;

/// The header fields both versions share, with where they are (for errors).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Chain<'a> {
    pub(crate) width: u32,
    pub(crate) height: u32,
    pub(crate) has_mips: bool,
    pub(crate) offsets: &'a [u32; 16],
    pub(crate) sizes: &'a [u32; 16],
    /// Absolute offset of `data`'s first byte.
    pub(crate) data_start: u64,
    pub(crate) data: &'a [u8],
    pub(crate) width_at: u64,
    pub(crate) offsets_at: u64,
    pub(crate) sizes_at: u64,
    /// The name of the header type (error paths).
    pub(crate) header: &'static str,
}

impl BlpFile {
    /// 2 or 1.
    pub fn version(&self) -> u32 {
        match self {
            BlpFile::Blp2(_) => 2,
            BlpFile::Blp1(_) => 1,
        }
    }

    /// Width of level 0.
    pub fn width(&self) -> u32 {
        self.chain().width
    }

    /// Height of level 0.
    pub fn height(&self) -> u32 {
        self.chain().height
    }

    /// The palette (palettized files; a BLP2 file carries one, zero unless palettized, except
    /// a DXT or raw file whose levels start right after the header).
    pub fn palette(&self) -> Option<&Palette> {
        match self {
            BlpFile::Blp2(f) => f.palette.as_ref(),
            BlpFile::Blp1(f) => f.palette.as_ref(),
        }
    }

    pub(crate) fn chain(&self) -> Chain<'_> {
        match self {
            BlpFile::Blp2(f) => Chain {
                width: f.header.width,
                height: f.header.height,
                has_mips: f.header.has_mips != 0,
                offsets: &f.header.mip_offsets,
                sizes: &f.header.mip_sizes,
                data_start: if f.palette.is_some() { blp2::BLP2_DATA_START } else { blp2::BLP2_HEADER_BYTES },
                data: &f.data,
                width_at: blp2::at::WIDTH,
                offsets_at: blp2::at::MIP_OFFSETS,
                sizes_at: blp2::at::MIP_SIZES,
                header: "Blp2Header",
            },
            BlpFile::Blp1(f) => {
                let body = match (&f.palette, &f.jpeg) {
                    (Some(_), _) => palette::PALETTE_BYTES,
                    (None, Some(j)) => 4 + j.bytes.len() as u64,
                    (None, None) => 0,
                };
                Chain {
                    width: f.header.width,
                    height: f.header.height,
                    has_mips: f.header.has_mips != 0,
                    offsets: &f.header.mip_offsets,
                    sizes: &f.header.mip_sizes,
                    data_start: blp1::at::BODY + body,
                    data: &f.data,
                    width_at: blp1::at::WIDTH,
                    offsets_at: blp1::at::MIP_OFFSETS,
                    sizes_at: blp1::at::MIP_SIZES,
                    header: "Blp1Header",
                }
            }
        }
    }
}

/// Parses the layout of a BLP file (no cross-checks: see [`crate::read`]).
pub(crate) fn parse(bytes: &[u8]) -> Result<BlpFile, ReadError> {
    match bytes.get(..4) {
        Some(b"BLP2") => relic_core::binary::parse(bytes, |s| Blp2File::read_le(s))
            .map(BlpFile::Blp2)
            .map_err(|e| e.within("Blp2File")),
        Some(b"BLP1") => relic_core::binary::parse(bytes, |s| Blp1File::read_le(s))
            .map(BlpFile::Blp1)
            .map_err(|e| e.within("Blp1File")),
        Some(b"BLP0") => Err(ReadError::at(
            0,
            "magic",
            ReadErrorKind::UnsupportedVersion {
                version: 0,
                reason: "BLP0 keeps its mip levels in separate files (Warcraft III beta); relic reads BLP1 and BLP2"
                    .into(),
            },
        )),
        Some(other) => Err(ReadError::at(
            0,
            "magic",
            ReadErrorKind::BadMagic {
                found: format!("{:?}", String::from_utf8_lossy(other)),
                expected: "BLP2 or BLP1".into(),
            },
        )),
        None => Err(ReadError::at(0, "magic", ReadErrorKind::Truncated)),
    }
}

/// Writes a BLP file: the header, the palette or JPEG header, the data, as held.
pub(crate) fn write(file: &BlpFile) -> Result<Vec<u8>, WriteError> {
    let mut out = std::io::Cursor::new(Vec::with_capacity(file.chain().data.len() + 1200));
    let written = match file {
        BlpFile::Blp2(f) => f.write_le(&mut out),
        BlpFile::Blp1(f) => f.write_le(&mut out),
    };
    written.map_err(|e| WriteError::from_binrw(&e))?;
    Ok(out.into_inner())
}
