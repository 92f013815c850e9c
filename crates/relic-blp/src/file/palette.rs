//! The 256-entry colour table of palettized BLPs (and the all-zero table of the others).

use binrw::{BinRead, BinWrite};

/// Bytes of a palette on disk: 256 entries of 4 bytes.
pub const PALETTE_BYTES: u64 = 256 * 4;

/// One palette entry as stored: blue, green, red, then a byte that is not alpha (0 in every
/// palettized sample, specs/textures.md §2.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash, BinRead, BinWrite)]
#[brw(little)]
pub struct Bgrx {
    /// Blue, 0–255.
    pub b: u8,
    /// Green, 0–255.
    pub g: u8,
    /// Red, 0–255.
    pub r: u8,
    /// Unused (kept as stored).
    pub x: u8,
}

/// 256 colours, indexed by the bytes of a palettized mip level.
#[derive(Debug, Clone, PartialEq, Eq, BinRead, BinWrite)]
#[brw(little)]
pub struct Palette {
    /// The entries.
    pub entries: [Bgrx; 256],
}

impl Default for Palette {
    fn default() -> Self {
        Self { entries: [Bgrx::default(); 256] }
    }
}

impl Palette {
    /// The palette holding `colours` (RGB) in its first entries, the rest zero.
    pub fn from_rgb(colours: &[[u8; 3]]) -> Self {
        let mut palette = Self::default();
        for (entry, [r, g, b]) in palette.entries.iter_mut().zip(colours) {
            *entry = Bgrx { b: *b, g: *g, r: *r, x: 0 };
        }
        palette
    }

    /// The 256 colours as RGBA with alpha 255, for lookups by index.
    pub fn rgba(&self) -> [[u8; 4]; 256] {
        self.entries.map(|e| [e.r, e.g, e.b, 255])
    }

    /// True if every byte is zero (the table DXT and raw BLPs carry).
    pub fn is_zero(&self) -> bool {
        self.entries.iter().all(|e| *e == Bgrx::default())
    }
}
