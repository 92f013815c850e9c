//! The DTX header (specs/textures.md §1.2, §1.3): 36 bytes common to every version, then a
//! 128-byte command string in v−3 and v−5.

use binrw::binrw;
use relic_core::binary::FixedString;

/// LithTech 1.0 (Shogo, Blood 2): 8-bit palettized, 4-bit alpha masks.
pub const VERSION_LT1: i32 = -2;
/// LithTech 1.5: 8-bit palettized.
pub const VERSION_LT15: i32 = -3;
/// LithTech 2.x / Talon (NOLF, AVP2): 32-bit, DXT1/3/5 and others by BPP ident, sections.
pub const VERSION_LT2: i32 = -5;

/// Flag (v−5): sections follow the mips (set on every file since the count was fixed).
pub const FLAG_SECTIONS_FIXED: u32 = 0x8;
/// Flag (v−2): a 4-bit alpha mask per mip follows the mips.
pub const FLAG_ALPHA_MASKS: u32 = 0x2;

/// Byte offsets of header fields (for error messages).
pub(crate) mod at {
    pub(crate) const VERSION: u64 = 0x04;
    pub(crate) const WIDTH: u64 = 0x08;
    pub(crate) const HEIGHT: u64 = 0x0A;
    pub(crate) const MIP_COUNT: u64 = 0x0C;
    pub(crate) const SECTION_COUNT: u64 = 0x0E;
    pub(crate) const BPP: u64 = 0x1A;
}

/// The header.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq)]
pub struct DtxHeader {
    /// Resource type: 0 texture (1 model, 2 sprite in LithTech's numbering).
    pub res_type: u32,
    /// −2, −3 or −5.
    pub version: i32,
    /// Width of mip 0, pixels (read before the height: `LITHTECH.DTX` is 128 × 64).
    pub width: u16,
    /// Height of mip 0, pixels.
    pub height: u16,
    /// Mips in the file, 1–15; mip `i` is `(width >> i) × (height >> i)`.
    pub mip_count: u16,
    /// v−5: sections after the mips (when flags has 0x8); v−2: 1 if a LIGHTDEFS block ends the
    /// file; v−3: meaning unknown (must be 0).
    pub section_count: u16,
    /// v−5: 0x1 fullbright, 0x8 sections fixed, 0x80/0x100 prefer 4444/5551, 0x400 cube map, …;
    /// v−2: 0x1 fullbright, 0x2 alpha masks, 0x8 always set, 0x20 map to master palette.
    pub flags: u32,
    /// Surface flags for the world.
    pub user_flags: u32,
    /// v−2: the four extra bytes and two unknown words.
    #[br(if(version == VERSION_LT1))]
    pub extra_lt1: Option<ExtraLt1>,
    /// v−3 and v−5: the twelve extra bytes (BPP ident, detail texture, …).
    #[br(if(version != VERSION_LT1))]
    pub extra_lt2: Option<ExtraLt2>,
    /// v−3 and v−5: command string, NUL-terminated (bytes after the NUL kept: stale memory in 10
    /// of the 15 NOLF samples).
    #[br(if(version != VERSION_LT1))]
    pub command: Option<FixedString<128>>,
}

/// The extra bytes of v−2 (specs/textures.md §1.3).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ExtraLt1 {
    /// Texture group.
    pub group: u8,
    /// Mips used at run time.
    pub mips_used: u8,
    /// Alpha cutoff (128–255).
    pub alpha_cutoff: u8,
    /// Alpha average.
    pub alpha_average: u8,
    /// Unknown, 0 in every sample.
    pub unknown: [u32; 2],
}

/// The extra bytes of v−5 (and, by the one reader that handles it, v−3; specs/textures.md §1.2).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ExtraLt2 {
    /// Texture group.
    pub texture_group: u8,
    /// Mips to use at run time (the file still holds `mip_count`).
    pub mips_to_use: u8,
    /// How pixels are stored (v−5): see [`crate::file::Bpp`].
    pub bpp: u8,
    /// Mip offset used when the card has no S3TC.
    pub non_s3tc_mip_offset: u8,
    /// UI mip offset (texture coordinates scaled by 2^n).
    pub ui_mip_offset: u8,
    /// Texture priority.
    pub priority: u8,
    /// Detail-texture scale, stored minus 1.0.
    pub detail_scale: f32,
    /// Detail-texture angle, degrees.
    pub detail_angle: i16,
}

impl DtxHeader {
    /// The version as relic numbers it: the stored version negated (2, 3, 5).
    pub fn number(&self) -> u32 {
        self.version.unsigned_abs()
    }

    /// Bytes of the header on disk: 36 (v−2) or 164.
    pub fn size(&self) -> u64 {
        if self.version == VERSION_LT1 { 36 } else { 164 }
    }

    /// Size of mip `level`: `(width >> level) × (height >> level)`.
    pub fn mip_size(&self, level: usize) -> (u32, u32) {
        // A shift past the side's bits leaves nothing, as LithTech's `width >> level` does.
        let shift = |side: u16| if level >= 16 { 0 } else { u32::from(side) >> level };
        (shift(self.width), shift(self.height))
    }

    /// The BPP ident byte of v−3/v−5 (0 for v−2).
    pub fn bpp_ident(&self) -> u8 {
        self.extra_lt2.as_ref().map_or(0, |e| e.bpp)
    }
}
