//! `BPP_32P` (v−5 ident 7, NOLF's PlayStation 2 textures): one byte per pixel, an index into 256
//! colours held in a section named `PALLETE32` (sic). docs/FORMAT-NOTES.md, "DTX BPP_32P":
//!
//! * the section's first 1024 bytes are 256 entries of B, G, R, A, indexed as stored (no PS2
//!   CLUT swizzle in the file: LithTech's tools write the palette in the order the indices use);
//! * A is on the PS2 scale, 0x80 = opaque: LithTech's tools store alpha / 2 (255 → 0x7F). It is
//!   read doubled, 0x7F and above as 255, and written halved, as the tools do.

use std::collections::HashMap;

use relic_core::binary::FixedString;
use relic_core::texture::Image;
use relic_core::{Loss, ReadError};
use relic_texture::quantize::Palette as Quantized;

use crate::file::header::at;
use crate::file::{DtxFile, SECTION_HEADER_BYTES, Section};

/// The section type that holds the palette (LithTech's spelling).
pub const SECTION: &str = "PALLETE32";

/// Bytes of the palette: 256 entries of 4 bytes.
pub const PALETTE_BYTES: usize = 1024;

/// PS2-scale alpha (0x80 = opaque) to 0–255: doubled, 0x7F (the tools' 255 / 2) and above 255.
pub fn alpha_from_ps2(a: u8) -> u8 {
    if a >= 0x7F { 255 } else { a * 2 }
}

/// 0–255 alpha to the PS2 scale as LithTech's tools write it: halved (255 → 0x7F).
pub fn alpha_to_ps2(a: u8) -> u8 {
    a >> 1
}

/// A stored entry (B, G, R, PS2 alpha) as RGBA.
fn entry_rgba(entry: &[u8]) -> [u8; 4] {
    match entry {
        [b, g, r, a, ..] => [*r, *g, *b, alpha_from_ps2(*a)],
        _ => [0; 4],
    }
}

/// An RGBA colour as a stored entry.
fn rgba_entry([r, g, b, a]: [u8; 4]) -> [u8; 4] {
    [b, g, r, alpha_to_ps2(a)]
}

/// The palette section of `file` and its position among the sections: the **last** section of
/// type `PALLETE32`, the one LithTech finds (`dtx_Create` links each section it reads in front of
/// those before it, and `dtx_FindSection` takes the first match of that list).
pub fn section(file: &DtxFile) -> Option<(usize, &Section)> {
    file.sections.iter().enumerate().rev().find(|(_, s)| s.kind.text_bytes() == SECTION.as_bytes())
}

/// Byte offset of the data of section `index` in the file (for error messages).
fn data_offset(file: &DtxFile, index: usize) -> u64 {
    let mips: u64 = file.mips.iter().map(|m| m.len() as u64).sum();
    let before: u64 = file.sections.iter().take(index).map(|s| SECTION_HEADER_BYTES + s.data.len() as u64).sum();
    file.header.size() + mips + before + SECTION_HEADER_BYTES
}

/// The 256 colours of a `BPP_32P` file as RGBA, from its `PALLETE32` section; an error naming the
/// sections if there is none, or the section's data if it holds less than 1024 bytes (bytes past
/// 1024 are kept by the file layer and not read here, as LithTech's loader reads none).
pub fn palette(file: &DtxFile) -> Result<[[u8; 4]; 256], ReadError> {
    let Some((index, section)) = section(file) else {
        return Err(ReadError::invalid(
            at::SECTION_COUNT,
            "DtxFile.sections",
            format!("a BPP_32P file without a {SECTION} section (its palette): {} section(s)", file.sections.len()),
        ));
    };
    palette_of_section(section).ok_or_else(|| {
        ReadError::invalid(
            data_offset(file, index),
            format!("DtxFile.sections[{index}].data"),
            format!("{} bytes: a {SECTION} palette has 256 entries of 4 bytes ({PALETTE_BYTES})", section.data.len()),
        )
    })
}

/// Maps colours to palette entries: the first entry of the colour, else the nearest (squared
/// RGBA distance).
struct Lookup {
    colours: [[u8; 4]; 256],
    exact: HashMap<[u8; 4], u8>,
}

impl Lookup {
    fn new(colours: [[u8; 4]; 256]) -> Lookup {
        let mut exact = HashMap::new();
        for (i, c) in colours.iter().enumerate().rev() {
            exact.insert(*c, i as u8);
        }
        Lookup { colours, exact }
    }

    fn index(&self, colour: [u8; 4]) -> u8 {
        if let Some(&i) = self.exact.get(&colour) {
            return i;
        }
        let distance =
            |c: &[u8; 4]| -> u32 { c.iter().zip(colour).map(|(&a, b)| u32::from(a.abs_diff(b)).pow(2)).sum() };
        self.colours.iter().enumerate().min_by_key(|(_, c)| distance(c)).map_or(0, |(i, _)| i as u8)
    }

    fn indices(&self, level: &Image) -> Vec<u8> {
        let mut cache: HashMap<[u8; 4], u8> = HashMap::new();
        level.rgba.chunks_exact(4).map(|p| *cache.entry(rgba(p)).or_insert_with(|| self.index(rgba(p)))).collect()
    }
}

fn rgba(pixel: &[u8]) -> [u8; 4] {
    match pixel {
        [r, g, b, a, ..] => [*r, *g, *b, *a],
        _ => [0; 4],
    }
}

/// The index mips and the `PALLETE32` section of `image` and its `levels` (mip 0 first).
///
/// The palette of `template` (a `BPP_32P` file's section, kept byte for byte) when every colour
/// of `image` is one of its entries; otherwise a new one: the image's own colours when there are
/// at most 256 (as entries), else 256 from median cut of the colours, each entry's alpha the mean
/// of its pixels' (a loss). Alphas the PS2 scale does not hold (odd ones, 254) are a loss. The
/// other mips map each pixel to its entry, or the nearest.
pub(crate) fn encode(
    image: &Image,
    levels: &[Image],
    template: Option<&Section>,
    losses: &mut Vec<Loss>,
) -> (Vec<Vec<u8>>, Section) {
    let kept = template.and_then(|t| {
        let colours = palette_of_section(t)?;
        let lookup = Lookup::new(colours);
        image.rgba.chunks_exact(4).all(|p| lookup.exact.contains_key(&rgba(p))).then_some((lookup, t.clone()))
    });
    let (lookup, section) = match kept {
        Some(kept) => kept,
        None => {
            let entries = new_palette(image, losses);
            let mut section = template.cloned().unwrap_or_else(|| Section {
                kind: FixedString::from_text(SECTION).unwrap_or_default(),
                name: FixedString::default(),
                padding: [0; 3],
                data: Vec::new(),
            });
            section.data = entries.iter().flatten().copied().collect();
            let colours = entries.map(|e| entry_rgba(&e));
            (Lookup::new(colours), section)
        }
    };
    (levels.iter().map(|l| lookup.indices(l)).collect(), section)
}

/// The colours of a palette section, if it holds 256 entries.
fn palette_of_section(section: &Section) -> Option<[[u8; 4]; 256]> {
    let bytes = section.data.get(..PALETTE_BYTES)?;
    let mut out = [[0u8; 4]; 256];
    for (colour, entry) in out.iter_mut().zip(bytes.chunks_exact(4)) {
        *colour = entry_rgba(entry);
    }
    Some(out)
}

/// 256 stored entries for `image` (unused ones 0, as LithTech's tools leave them), most used
/// first.
fn new_palette(image: &Image, losses: &mut Vec<Loss>) -> [[u8; 4]; 256] {
    let mut counts: HashMap<[u8; 4], u64> = HashMap::new();
    let mut odd_alpha = false;
    for p in image.rgba.chunks_exact(4) {
        let c = rgba(p);
        odd_alpha |= alpha_from_ps2(alpha_to_ps2(c[3])) != c[3];
        *counts.entry(rgba_entry(c)).or_insert(0) += 1;
    }
    if odd_alpha {
        losses.push(Loss::new("alpha", "alpha kept in 128 steps (the PS2 scale, 0x80 = opaque, stored as alpha / 2)"));
    }
    let mut entries = [[0u8; 4]; 256];
    let distinct = counts.len();
    if distinct <= 256 {
        let mut used: Vec<([u8; 4], u64)> = counts.into_iter().collect();
        used.sort_unstable_by_key(|(e, n)| (std::cmp::Reverse(*n), *e));
        for (slot, (entry, _)) in entries.iter_mut().zip(used) {
            *slot = entry;
        }
        return entries;
    }
    let quantized = Quantized::of(image);
    let indices = quantized.indices(image);
    let mut alpha = vec![(0u64, 0u64); quantized.colours.len()];
    for (i, p) in indices.iter().zip(image.rgba.chunks_exact(4)) {
        if let (Some(sum), Some(a)) = (alpha.get_mut(usize::from(*i)), p.get(3)) {
            *sum = (sum.0 + u64::from(*a), sum.1 + 1);
        }
    }
    for ((slot, [r, g, b]), (sum, n)) in entries.iter_mut().zip(&quantized.colours).zip(alpha) {
        let a = (sum + n / 2).checked_div(n).map_or(255, |a| a as u8);
        *slot = rgba_entry([*r, *g, *b, a]);
    }
    let what = format!(
        "{distinct} colours reduced to a 256-colour palette (median cut of {} RGB colours; each entry's alpha the mean of its pixels')",
        quantized.source_colours
    );
    losses.push(Loss::new("pixels", what));
    entries
}
