//! Cross-checks after parsing: what the header says about the pixels, and every level the header
//! lists against the bytes present (before anything is decoded or allocated).

use relic_core::{ReadError, ReadErrorKind};
use relic_texture::bc::Bc;
use relic_texture::{alpha, mips};

use crate::file::blp1::{self, CONTENT_JPEG};
use crate::file::blp2::{self, COMPRESSION_DXT, COMPRESSION_PALETTE, COMPRESSION_RAW};
use crate::file::{BlpFile, Chain, Pixels};

/// One mip level as the header lists it, checked against the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Level {
    /// Width, pixels: `max(1, width >> level)`.
    pub width: u32,
    /// Height, pixels: `max(1, height >> level)`.
    pub height: u32,
    /// Absolute offset, as stored.
    pub offset: u32,
    /// Bytes, as stored: at least what the level needs, except a DXT level with a side under 4
    /// texels, which may hold fewer blocks than it covers ([`Pixels::least_level_bytes`]).
    pub size: u32,
}

impl Level {
    /// True if the level stores fewer bytes than `pixels` needs for it: a thin DXT level stored
    /// with Blizzard's `⌊w/4⌋·⌊h/4⌋` blocks.
    pub fn is_short(&self, pixels: &Pixels) -> bool {
        u64::from(self.size) < pixels.level_bytes(self.width, self.height)
    }
}

/// How the file stores its pixels, from the header; unknown combinations are refused.
pub fn pixels(file: &BlpFile) -> Result<Pixels, ReadError> {
    let depth = |bits: u8, at: u64, path: &str| {
        if alpha::is_depth(bits) {
            Ok(bits)
        } else {
            Err(ReadError::invalid(at, path, format!("alpha depth {bits} is not 0, 1, 4 or 8")))
        }
    };
    match file {
        BlpFile::Blp2(f) => {
            let h = &f.header;
            if h.content != 1 {
                return Err(ReadError::invalid(
                    blp2::at::CONTENT,
                    "Blp2Header.content",
                    format!(
                        "BLP2 content type {} is not read (0 = JPEG, no sample to check a decoder against; 1 = direct)",
                        h.content
                    ),
                ));
            }
            match h.compression {
                COMPRESSION_PALETTE => {
                    let alpha_bits = depth(h.alpha_depth, blp2::at::ALPHA_DEPTH, "Blp2Header.alpha_depth")?;
                    Ok(Pixels::Palettized { alpha_bits })
                }
                COMPRESSION_DXT => {
                    Ok(Pixels::Dxt { bc: dxt_variant(h.alpha_type, h.alpha_depth), alpha_bits: h.alpha_depth })
                }
                COMPRESSION_RAW => Ok(Pixels::Bgra),
                other => Err(ReadError::invalid(
                    blp2::at::COMPRESSION,
                    "Blp2Header.compression",
                    format!("compression {other} is not known (1 palettized, 2 DXT, 3 raw BGRA)"),
                )),
            }
        }
        BlpFile::Blp1(f) if f.header.content == CONTENT_JPEG => Ok(Pixels::Jpeg),
        BlpFile::Blp1(f) => {
            let bits = u8::try_from(f.header.alpha_bits).unwrap_or(u8::MAX);
            Ok(Pixels::Palettized { alpha_bits: depth(bits, blp1::at::ALPHA_BITS, "Blp1Header.alpha_bits")? })
        }
    }
}

/// The DXT variant of a BLP2: from the alpha type (0 DXT1, 1 DXT3, 7 DXT5), else wow.export's
/// rule (alpha depth ≤ 1 DXT1, else DXT3); both agree on every sample (specs/textures.md §2.4).
pub fn dxt_variant(alpha_type: u8, alpha_depth: u8) -> Bc {
    match alpha_type {
        blp2::ALPHA_TYPE_DXT1 => Bc::Bc1,
        blp2::ALPHA_TYPE_DXT3 => Bc::Bc2,
        blp2::ALPHA_TYPE_DXT5 => Bc::Bc3,
        _ if alpha_depth <= 1 => Bc::Bc1,
        _ => Bc::Bc2,
    }
}

/// The levels the file holds: those the header lists (slots before the first zero offset or
/// size; only level 0 when `has_mips` is 0; at most down to 1 × 1), each checked: inside the
/// data and as large as its pixels need — up to the first level after level 0 that does not
/// lie wholly inside the file. That level and those after it are cut off ([`cut_off_levels`]
/// counts them): a file truncated after its larger levels, which the client draws with the
/// levels it has (28 WoW interface files; docs/FORMAT-NOTES.md). Level 0 must be present.
pub fn levels(file: &BlpFile) -> Result<Vec<Level>, ReadError> {
    listed_levels(file).map(|(present, _)| present)
}

/// How many levels the header lists past the end of the file (see [`levels`]): 0 for a whole
/// file.
pub fn cut_off_levels(file: &BlpFile) -> Result<usize, ReadError> {
    listed_levels(file).map(|(_, cut)| cut)
}

/// The levels present and the number of listed levels cut off after them.
fn listed_levels(file: &BlpFile) -> Result<(Vec<Level>, usize), ReadError> {
    let pixels = pixels(file)?;
    let c = file.chain();
    if c.width == 0 || c.height == 0 {
        let path = format!("{}.{}", c.header, if c.width == 0 { "width" } else { "height" });
        return Err(ReadError::invalid(
            c.width_at,
            path,
            format!("an image of {} × {} pixels is empty", c.width, c.height),
        ));
    }
    let listed = c.offsets.iter().zip(c.sizes).take_while(|(o, s)| **o != 0 && **s != 0).count();
    let count = listed.min(if c.has_mips { 16 } else { 1 }).min(mips::full_chain(c.width, c.height) as usize);
    if count == 0 {
        let path = format!("{}.mip_offsets[0]", c.header);
        return Err(ReadError::invalid(c.offsets_at, path, "no level 0 (offset or size 0)"));
    }
    let file_len = c.data_start + c.data.len() as u64;
    let inside = |&(o, s): &(&u32, &u32)| u64::from(*o) + u64::from(*s) <= file_len;
    // Level 0 is always checked (and refused when it lies outside); a later one outside the file
    // ends the chain.
    let present = 1 + c.offsets.iter().zip(c.sizes).take(count).skip(1).take_while(inside).count();
    let present = present.min(count);
    let levels =
        c.offsets.iter().zip(c.sizes).take(present).enumerate().map(|(i, (&o, &s))| level(&c, pixels, i, (o, s)));
    Ok((levels.collect::<Result<_, _>>()?, count - present))
}

fn level(c: &Chain<'_>, pixels: Pixels, i: usize, (offset, size): (u32, u32)) -> Result<Level, ReadError> {
    let (width, height) = mips::level_size(c.width, c.height, i as u32);
    let offset_at = c.offsets_at + 4 * i as u64;
    let file_len = c.data_start + c.data.len() as u64;
    if u64::from(offset) < c.data_start {
        return Err(ReadError::invalid(
            offset_at,
            format!("{}.mip_offsets[{i}]", c.header),
            format!("level {i} at {offset:#x} starts inside the header (data starts at {:#x})", c.data_start),
        ));
    }
    if u64::from(offset) + u64::from(size) > file_len {
        let kind = ReadErrorKind::OffsetOutOfBounds { target: offset.into(), len: size.into(), file_len };
        return Err(ReadError::at(offset_at, format!("{}.mip_offsets[{i}]", c.header), kind));
    }
    let needed = pixels.least_level_bytes(width, height);
    if u64::from(size) < needed {
        let full = match pixels.level_bytes(width, height) {
            u64::MAX => "more bytes than a u64 counts".to_string(),
            n => format!("{n} bytes"),
        };
        // A thin DXT level may lack some blocks, not many: say how few it may hold.
        let least =
            if needed < pixels.level_bytes(width, height) { format!(" (at least {needed})") } else { String::new() };
        return Err(ReadError::invalid(
            c.sizes_at + 4 * i as u64,
            format!("{}.mip_sizes[{i}]", c.header),
            format!("level {i} ({width} × {height}, {}) needs {full}{least}, the header gives {size}", pixels.name()),
        ));
    }
    Ok(Level { width, height, offset, size })
}

/// The bytes of a level [`levels`] returned (its stored size). A level of another file that
/// does not lie inside this one's data is refused (as [`levels`] refuses it).
pub fn level_data<'a>(file: &'a BlpFile, level: &Level) -> Result<&'a [u8], ReadError> {
    let c = file.chain();
    let start = u64::from(level.offset).checked_sub(c.data_start);
    let range = start.and_then(|s| Some(s as usize..(s as usize).checked_add(level.size as usize)?));
    range.and_then(|r| c.data.get(r)).ok_or_else(|| {
        let file_len = c.data_start + c.data.len() as u64;
        let kind = ReadErrorKind::OffsetOutOfBounds { target: level.offset.into(), len: level.size.into(), file_len };
        ReadError::at(c.offsets_at, format!("{}.mip_offsets", c.header), kind)
    })
}

/// All cross-checks of a parsed file.
pub fn validate(file: &BlpFile) -> Result<(), ReadError> {
    levels(file).map(|_| ())
}
