//! BLP2 (World of Warcraft): a 148-byte header, a 256-colour palette, then the mip levels at the
//! offsets the header gives (specs/textures.md §2.1). Mip 0 starts at byte 1172 in every file
//! Blizzard wrote; other writers (War3Net) leave the palette out of a DXT or raw file and start
//! its levels right after the header, at byte 148 — which the game reads, since it takes the
//! palette only for palettized files and the levels at their offsets.

use binrw::binrw;

use super::palette::Palette;

/// Byte offsets of the BLP2 header fields (for error messages).
pub(crate) mod at {
    pub(crate) const CONTENT: u64 = 0x04;
    pub(crate) const COMPRESSION: u64 = 0x08;
    pub(crate) const ALPHA_DEPTH: u64 = 0x09;
    pub(crate) const WIDTH: u64 = 0x0C;
    pub(crate) const MIP_OFFSETS: u64 = 0x14;
    pub(crate) const MIP_SIZES: u64 = 0x54;
}

/// Bytes before the mip data: header (148) and palette (1024).
pub const BLP2_DATA_START: u64 = 0x494;

/// Bytes of the header alone: where the levels start in a file without a palette.
pub const BLP2_HEADER_BYTES: u64 = 0x94;

/// `compression`: 256-colour palette with an alpha plane (specs/textures.md §2.3).
pub const COMPRESSION_PALETTE: u8 = 1;
/// `compression`: DXT1/3/5 blocks, variant from `alpha_type` (§2.4).
pub const COMPRESSION_DXT: u8 = 2;
/// `compression`: uncompressed B, G, R, A bytes (§2.5).
pub const COMPRESSION_RAW: u8 = 3;

/// `alpha_type` of DXT1 (also "preferred format" DXT1).
pub const ALPHA_TYPE_DXT1: u8 = 0;
/// `alpha_type` of DXT3.
pub const ALPHA_TYPE_DXT3: u8 = 1;
/// `alpha_type` of raw ARGB8888 files.
pub const ALPHA_TYPE_ARGB8888: u8 = 2;
/// `alpha_type` of DXT5.
pub const ALPHA_TYPE_DXT5: u8 = 7;
/// `alpha_type` of palettized files ("unspecified").
pub const ALPHA_TYPE_PALETTIZED: u8 = 8;

/// The BLP2 header.
#[binrw]
#[brw(little, magic = b"BLP2")]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blp2Header {
    /// 1: the levels hold palette indices, DXT blocks or raw pixels; 0: JPEG (refused, no
    /// sample).
    pub content: u32,
    /// 1 palettized, 2 DXT, 3 raw BGRA.
    pub compression: u8,
    /// Bits of alpha per pixel: 0, 1, 4 or 8 (palettized), 0/1 (DXT1), 8 (DXT3/5); raw files
    /// carry other values (136 in `raw.blp`), unused there.
    pub alpha_depth: u8,
    /// The preferred pixel format: 0 DXT1, 1 DXT3, 2 ARGB8888, 3 ARGB1555, 4 ARGB4444,
    /// 5 RGB565, 6 A8, 7 DXT5, 8 unspecified (palettized). Chooses the DXT variant.
    pub alpha_type: u8,
    /// 1 if the file holds mip levels below level 0, 0 if only level 0.
    pub has_mips: u8,
    /// Width of level 0, pixels.
    pub width: u32,
    /// Height of level 0, pixels.
    pub height: u32,
    /// Absolute offset of each level; unused slots 0. The level count is the number of slots
    /// before the first zero offset or size.
    pub mip_offsets: [u32; 16],
    /// Byte size of each level; unused slots 0.
    pub mip_sizes: [u32; 16],
}

impl Blp2Header {
    /// Whether the palette's 1024 bytes follow the header: always for palettized files and for a
    /// file without level 0; otherwise only when level 0 starts after them (a DXT or raw file
    /// whose level 0 starts before byte 1172 has no palette).
    pub fn stores_palette(&self) -> bool {
        let [first, ..] = self.mip_offsets;
        let first = u64::from(first);
        self.compression == COMPRESSION_PALETTE || first == 0 || first >= BLP2_DATA_START
    }
}

/// A whole BLP2 file.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blp2File {
    /// The header.
    pub header: Blp2Header,
    /// Colours of palettized files, B, G, R, unused; all zero in the others (kept as stored).
    /// `None` when the file has none: not palettized, and its first level starts inside the
    /// 1024 bytes a palette would take ([`Blp2Header::stores_palette`]).
    #[br(if(header.stores_palette()))]
    pub palette: Option<Palette>,
    /// Everything after the palette (from byte 1172): the levels at `mip_offsets`, in every known
    /// file back to back, largest first, ending the file. Kept whole so that any gap or trailing
    /// byte is written back unchanged.
    #[br(parse_with = relic_core::binary::rest_of_file)]
    #[bw(write_with = relic_core::binary::write_pod_field)]
    pub data: Vec<u8>,
}
