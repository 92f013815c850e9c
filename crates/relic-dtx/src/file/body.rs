//! What follows the header: the v−2/v−3 palette, v−5 sections, and the readers for the mip
//! arrays whose sizes the header determines.

use std::io::{Read, Seek, Write};

use binrw::{BinResult, Endian, binrw};
use relic_core::binary::{FixedString, in_element, pod_vec, write_pod_field};

/// One palette entry of v−2/v−3 as stored: a byte that is not alpha (0xFF or 0x00 per file),
/// then red, green, blue.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Xrgb {
    /// Unused (kept as stored).
    pub x: u8,
    /// Red.
    pub r: u8,
    /// Green.
    pub g: u8,
    /// Blue.
    pub b: u8,
}

/// The palette of v−2 and v−3: two words LithTech 1.0 used internally, then 256 colours.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Palette {
    /// Meaning unknown (random-looking; `0x12345678, 0x23456789` in SHOGO1.DTX); kept.
    pub header: [u32; 2],
    /// The colours, indexed by the bytes of the mips.
    pub entries: [Xrgb; 256],
}

impl Default for Palette {
    fn default() -> Self {
        Self { header: [0; 2], entries: [Xrgb::default(); 256] }
    }
}

impl Palette {
    /// The 256 colours as RGBA with alpha 255.
    pub fn rgba(&self) -> [[u8; 4]; 256] {
        self.entries.map(|e| [e.r, e.g, e.b, 255])
    }
}

/// A v−5 section (LithTech's `SectionHeader` and its data): 32 bytes of header as MSVC lays out
/// `char type[15]; char name[10]; uint32 data_len` (three bytes of padding before the length; no
/// sample has a section, specs/textures.md §1.5), then the data.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// Section type (`PALLETE32`, `CUBEMAPDATA`).
    pub kind: FixedString<15>,
    /// Section name.
    pub name: FixedString<10>,
    /// Struct padding (kept as stored).
    pub padding: [u8; 3],
    /// Bytes of data (computed on write).
    #[br(temp)]
    #[bw(try_calc = u32::try_from(data.len()))]
    pub data_len: u32,
    /// The data, kept as bytes.
    #[br(parse_with = pod_vec, args(u64::from(data_len),))]
    #[bw(write_with = write_pod_field)]
    pub data: Vec<u8>,
}

/// Bytes of a section header.
pub const SECTION_HEADER_BYTES: u64 = 32;

/// `parse_with` reader for arrays of byte blocks of the given sizes (mips, alpha masks): each
/// size is checked against the bytes left before it is allocated.
pub(crate) fn blocks<R: Read + Seek>(reader: &mut R, endian: Endian, args: (&[u64],)) -> BinResult<Vec<Vec<u8>>> {
    let (sizes,) = args;
    let mut out = Vec::with_capacity(sizes.len());
    for (i, &size) in sizes.iter().enumerate() {
        out.push(pod_vec(reader, endian, (size,)).map_err(|e| in_element(e, i))?);
    }
    Ok(out)
}

/// [`blocks`], `None` when there are no sizes (a part the header does not announce).
pub(crate) fn optional_blocks<R: Read + Seek>(
    reader: &mut R,
    endian: Endian,
    args: (&[u64],),
) -> BinResult<Option<Vec<Vec<u8>>>> {
    if args.0.is_empty() { Ok(None) } else { blocks(reader, endian, args).map(Some) }
}

/// `write_with` for [`blocks`].
#[allow(clippy::ptr_arg)] // binrw hands `write_with` functions a reference to the field's own type.
pub(crate) fn write_blocks<W: Write + Seek>(blocks: &Vec<Vec<u8>>, writer: &mut W, _: Endian, _: ()) -> BinResult<()> {
    for block in blocks {
        writer.write_all(block)?;
    }
    Ok(())
}

/// [`write_blocks`] for an optional array.
pub(crate) fn write_optional_blocks<W: Write + Seek>(
    blocks: &Option<Vec<Vec<u8>>>,
    writer: &mut W,
    endian: Endian,
    _: (),
) -> BinResult<()> {
    match blocks {
        Some(b) => write_blocks(b, writer, endian, ()),
        None => Ok(()),
    }
}
