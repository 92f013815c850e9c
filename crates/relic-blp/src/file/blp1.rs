//! BLP1 (Warcraft III): a 156-byte header, then a palette (palettized files) or a shared JPEG
//! header (JPEG files), then the mip levels at the offsets the header gives (specs/textures.md
//! §2.8, from sources only: no sample).

use binrw::binrw;

use super::palette::Palette;

/// Byte offsets of the BLP1 header fields (for error messages).
pub(crate) mod at {
    pub(crate) const ALPHA_BITS: u64 = 0x08;
    pub(crate) const WIDTH: u64 = 0x0C;
    pub(crate) const MIP_OFFSETS: u64 = 0x1C;
    pub(crate) const MIP_SIZES: u64 = 0x5C;
    pub(crate) const BODY: u64 = 0x9C;
}

/// `content`: JPEG levels sharing one JPEG header.
pub const CONTENT_JPEG: u32 = 0;
/// `content`: palette indices with an alpha plane, as BLP2's compression 1.
pub const CONTENT_PALETTIZED: u32 = 1;

/// The BLP1 header.
#[binrw]
#[brw(little, magic = b"BLP1")]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blp1Header {
    /// 0 JPEG, 1 palettized.
    pub content: u32,
    /// Bits of alpha per pixel (0, 1, 4 or 8 for palettized files; 8 = with alpha).
    pub alpha_bits: u32,
    /// Width of level 0, pixels.
    pub width: u32,
    /// Height of level 0, pixels.
    pub height: u32,
    /// 3/4: alpha list, 5: alpha from the palette (meaning not pinned down; kept, unused).
    pub extra: u32,
    /// Non-zero if the file holds mip levels below level 0.
    pub has_mips: u32,
    /// Absolute offset of each level; unused slots 0.
    pub mip_offsets: [u32; 16],
    /// Byte size of each level; unused slots 0.
    pub mip_sizes: [u32; 16],
}

/// The JPEG header every level of a JPEG BLP1 shares (prepended to a level's bytes, it forms a
/// JPEG whose four channels are B, G, R, A).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JpegHeader {
    /// Bytes that follow (computed on write).
    #[br(temp)]
    #[bw(try_calc = u32::try_from(bytes.len()))]
    pub len: u32,
    /// The header bytes.
    #[br(parse_with = relic_core::binary::pod_vec, args(u64::from(len),))]
    #[bw(write_with = relic_core::binary::write_pod_field)]
    pub bytes: Vec<u8>,
}

/// A whole BLP1 file.
#[binrw]
#[brw(little)]
#[br(assert(
    header.content == CONTENT_JPEG || header.content == CONTENT_PALETTIZED,
    "content {} is neither 0 (JPEG) nor 1 (palettized)",
    header.content
))]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blp1File {
    /// The header.
    pub header: Blp1Header,
    /// Colours of a palettized file (B, G, R, unused).
    #[br(if(header.content == CONTENT_PALETTIZED))]
    pub palette: Option<Palette>,
    /// The shared JPEG header of a JPEG file.
    #[br(if(header.content == CONTENT_JPEG))]
    pub jpeg: Option<JpegHeader>,
    /// Everything after the palette or JPEG header: the levels at `mip_offsets`.
    #[br(parse_with = relic_core::binary::rest_of_file)]
    #[bw(write_with = relic_core::binary::write_pod_field)]
    pub data: Vec<u8>,
}
