//! RGBA8 to a DTX file with every mip (box filter): v−5 32-bit, DXT1/3/5 or `BPP_32P` (PS2
//! palettized), or v−2 8-bit palettized with 4-bit alpha masks.

use relic_core::binary::FixedString;
use relic_core::error::fit;
use relic_core::texture::{Image, TextureEncoding, TextureOptions, check_image};
use relic_core::{Converted, Loss, WriteError};
use relic_texture::bc::{self, Bc};
use relic_texture::quantize::Palette as Quantized;
use relic_texture::{alpha, mips, swap_red_blue};

use crate::file::header::{FLAG_ALPHA_MASKS, FLAG_SECTIONS_FIXED};
use crate::file::{Bpp, DtxFile, DtxHeader, ExtraLt2, VERSION_LT1, VERSION_LT2, VERSION_LT15, Xrgb};
use crate::palette32;

/// Mips written when no template gives a count: 4, as in every sample and LithTech's tools.
pub const DEFAULT_MIPS: u16 = 4;

/// The version and pixel format [`encode`] writes for `options`:
///
/// * version `None`: v−2 for `Palettized`, else v−5; `Some(5)` or `Some(2)` as asked;
/// * v−5: `Auto` and `Raw32` → `BPP_32` (lossless), `Dxt1`/`Dxt3`/`Dxt5` → DXT, `Palettized` →
///   `BPP_32P` (NOLF's PS2 textures: indices and a `PALLETE32` palette section);
/// * v−2: `Auto` and `Palettized` → 8-bit palettized.
///
/// Others are refused: v−3 is not written (what follows its mips is unknown), nor v−5 `BPP_8P`
/// (not pinned down).
pub fn resolve(options: &TextureOptions) -> Result<(i32, Bpp), WriteError> {
    let version = match options.version {
        None if options.encoding == TextureEncoding::Palettized => VERSION_LT1,
        None | Some(5) => VERSION_LT2,
        Some(2) => VERSION_LT1,
        Some(v) => {
            return Err(WriteError::Unsupported(format!("DTX version −{v} is not written: relic writes −5 and −2")));
        }
    };
    let bpp = match (version, options.encoding) {
        (VERSION_LT2, TextureEncoding::Auto | TextureEncoding::Raw32) => Bpp::Bgra32,
        (VERSION_LT2, TextureEncoding::Dxt1) => Bpp::Dxt1,
        (VERSION_LT2, TextureEncoding::Dxt3) => Bpp::Dxt3,
        (VERSION_LT2, TextureEncoding::Dxt5) => Bpp::Dxt5,
        (VERSION_LT2, TextureEncoding::Palettized) => Bpp::Palettized32,
        (VERSION_LT1, TextureEncoding::Auto | TextureEncoding::Palettized) => Bpp::Palettized,
        (v, e) => {
            return Err(WriteError::Unsupported(format!(
                "DTX version {v} does not hold {e:?} pixels (−5: 32-bit, DXT1/3/5, BPP_32P palettized; −2: 8-bit palettized)"
            )));
        }
    };
    Ok((version, bpp))
}

/// The options that re-encode a texture the way `file` is stored (v−3 as v−2).
pub fn options_for(file: &DtxFile) -> TextureOptions {
    let encoding = match file.bpp() {
        Some(Bpp::Palettized | Bpp::Palettized32) => TextureEncoding::Palettized,
        Some(Bpp::Dxt1) => TextureEncoding::Dxt1,
        Some(Bpp::Dxt3) => TextureEncoding::Dxt3,
        Some(Bpp::Dxt5) => TextureEncoding::Dxt5,
        _ => TextureEncoding::Raw32,
    };
    // v−3 is not written: its pixels go to v−2, the palettized version that is.
    let version = if file.header.version == VERSION_LT2 { 5 } else { 2 };
    TextureOptions { encoding, version: Some(version), ..TextureOptions::default() }
}

/// True if `template` holds `image` as its mip 0 and `options` ask for nothing it is not.
fn unchanged(image: &Image, options: &TextureOptions, template: &DtxFile) -> bool {
    let own = options_for(template);
    (options.encoding == TextureEncoding::Auto || options.encoding == own.encoding)
        && options.version.is_none_or(|v| v == template.header.number())
        && options.mips.is_none_or(|m| m == u32::from(template.header.mip_count))
        && crate::decode(template, 0, options).is_ok_and(|mip0| mip0 == *image)
}

/// [`resolve`] with `template`'s version and encoding where `options` leave them open (its
/// version only if it holds the encoding asked for; v−3 is written as v−2, with a loss).
fn resolve_like(
    options: &TextureOptions,
    template: Option<&DtxFile>,
    losses: &mut Vec<Loss>,
) -> Result<(i32, Bpp), WriteError> {
    let Some(own) = template.map(options_for) else { return resolve(options) };
    // `Auto`: the template's encoding, where the version asked for holds it (a v−2/v−3 palette
    // asked for as v−5 is not carried over: v−5's palettized `BPP_32P` is for the PS2 only).
    let to_ps2 =
        |encoding| encoding == TextureEncoding::Palettized && options.version == Some(5) && own.version != Some(5);
    let holds = |encoding| {
        !to_ps2(encoding) && resolve(&TextureOptions { encoding, version: options.version, ..*options }).is_ok()
    };
    let encoding = match options.encoding {
        TextureEncoding::Auto if options.version.is_none() || holds(own.encoding) => own.encoding,
        other => other,
    };
    let version = options.version.or_else(|| {
        let holds = resolve(&TextureOptions { encoding, version: own.version, ..*options }).is_ok();
        holds.then_some(own.version).flatten()
    });
    if options.version.is_none() && template.is_some_and(|t| t.header.version == VERSION_LT15) && version == Some(2) {
        losses.push(Loss::new("version", "DTX version −3 is not written: written as −2 (the same palettized pixels)"));
    }
    resolve(&TextureOptions { encoding, version, ..*options })
}

/// Encodes `image` as a new DTX (see [`resolve`]) with `options.mips` or [`DEFAULT_MIPS`] mips
/// (fewer if the image is smaller). Losses say what the file does not keep exactly.
pub fn encode(image: &Image, options: &TextureOptions) -> Result<Converted<DtxFile>, WriteError> {
    encode_like(image, options, None)
}

/// [`encode`], shaped like `template` (e.g. the file the image was decoded from) where `options`
/// leave it open: version `None` is the template's (v−3, which is not written, becomes v−2) when
/// it holds the encoding asked for, encoding `Auto` the template's (where the version holds it),
/// mips `None` its mip count. A template of the version written also gives what it says beyond the pixels: flags, surface
/// flags, extra bytes, command string, and in v−2 the palette words and the LIGHTDEFS block.
/// v−5 sections (cube faces, …) belong to the old pixels: they are dropped, as a loss — except
/// the `PALLETE32` palette of a `BPP_32P` template written as `BPP_32P`, which is kept byte for
/// byte when the image's colours are all in it (else its header is kept around a new palette).
///
/// An image equal to the template's mip 0, asked for nothing the template is not, gives the
/// template itself, byte for byte. Otherwise the mips are made from the image; mip 0 of a DXT
/// template of the variant and size written keeps each block that still decodes to its pixels.
pub fn encode_like(
    image: &Image,
    options: &TextureOptions,
    template: Option<&DtxFile>,
) -> Result<Converted<DtxFile>, WriteError> {
    check_image(image, options)?;
    if let Some(t) = template.filter(|t| unchanged(image, options, t)) {
        return Ok(Converted::lossless(t.clone()));
    }
    let mut losses = Vec::new();
    let (version, bpp) = resolve_like(options, template, &mut losses)?;
    let source_mips = template.map(|t| t.header.mip_count);
    let template = template
        .filter(|t| t.header.version == version || (t.header.version == VERSION_LT15 && version == VERSION_LT1));
    let width: u16 = fit("DtxHeader.width", image.width as usize, "u16")?;
    let height: u16 = fit("DtxHeader.height", image.height as usize, "u16")?;
    let most = (mips::full_chain(image.width.min(image.height), 1) as u16).min(crate::validate::MAX_MIPS);
    let asked = options.mips.map(|m| m.min(u32::from(most)) as u16);
    let count = asked.or(source_mips).unwrap_or(DEFAULT_MIPS).clamp(1, most);
    let levels = mips::chain(image, count.into());
    losses.extend(size_losses(version, image));
    if let Some(t) = template {
        // The palette of a BPP_32P template written as BPP_32P is written again, not dropped.
        let palette = bpp == Bpp::Palettized32 && palette32_of(t).is_some();
        let dropped = t.sections.len().saturating_sub(usize::from(palette));
        if dropped > 0 {
            losses.push(Loss::new("sections", format!("{dropped} section(s) of the template dropped")));
        }
    }
    let mut header = DtxHeader {
        res_type: 0,
        version,
        width,
        height,
        mip_count: count,
        section_count: 0,
        flags: FLAG_SECTIONS_FIXED,
        user_flags: 0,
        extra_lt1: None,
        extra_lt2: None,
        command: None,
    };
    if let Some(t) = template {
        header.flags = t.header.flags;
        header.user_flags = t.header.user_flags;
    }
    let mut file = DtxFile {
        wrapper: None,
        header,
        palette: None,
        mips: Vec::new(),
        alpha_masks: None,
        sections: Vec::new(),
        trailing: Vec::new(),
    };
    if version == VERSION_LT1 {
        lt1(&mut file, image, &levels, template, &mut losses);
    } else {
        let ident = match bpp {
            Bpp::Dxt1 => 4,
            Bpp::Dxt3 => 5,
            Bpp::Dxt5 => 6,
            Bpp::Palettized32 => 7,
            _ => 3,
        };
        // Without a template: every extra byte 0 (no texture group, detail texture, priority…).
        let extra = template.and_then(|t| t.header.extra_lt2.clone()).unwrap_or_default();
        file.header.extra_lt2 = Some(ExtraLt2 { bpp: ident, ..extra });
        file.header.command = Some(template.and_then(|t| t.header.command).unwrap_or(FixedString([0; 128])));
        if bpp == Bpp::Palettized32 {
            let (mips, palette) = palette32::encode(image, &levels, template.and_then(palette32_of), &mut losses);
            file.mips = mips;
            file.sections = vec![palette];
            file.header.section_count = 1;
            file.header.flags |= FLAG_SECTIONS_FIXED;
        } else {
            let blocks =
                template.filter(|t| t.bpp() == Some(bpp) && (t.header.width, t.header.height) == (width, height));
            file.mips =
                lt2_mips(bpp, image, &levels, blocks.and_then(|t| t.mips.first()).map(Vec::as_slice), &mut losses);
        }
    }
    Ok(Converted { value: file, losses })
}

/// The `PALLETE32` section of a `BPP_32P` file.
fn palette32_of(file: &DtxFile) -> Option<&crate::file::Section> {
    (file.bpp() == Some(Bpp::Palettized32)).then(|| palette32::section(file)).flatten().map(|(_, s)| s)
}

/// LithTech 2.x loads widths and heights that are powers of two from 8 to 1024 only.
fn size_losses(version: i32, image: &Image) -> Vec<Loss> {
    let loadable = |side: u32| side.is_power_of_two() && (8..=1024).contains(&side);
    if version == VERSION_LT2 && !(loadable(image.width) && loadable(image.height)) {
        let what = format!("{} × {}: LithTech 2.x loads powers of two from 8 to 1024 only", image.width, image.height);
        return vec![Loss::new("size", what)];
    }
    Vec::new()
}

/// The mips of a v−5 file; mip 0 of a DXT keeps the blocks of `blocks` (the source's mip 0)
/// that still decode to its pixels.
fn lt2_mips(bpp: Bpp, image: &Image, levels: &[Image], blocks: Option<&[u8]>, losses: &mut Vec<Loss>) -> Vec<Vec<u8>> {
    let variant = match bpp {
        Bpp::Dxt1 => Bc::Bc1,
        Bpp::Dxt3 => Bc::Bc2,
        Bpp::Dxt5 => Bc::Bc3,
        _ => return levels.iter().map(|l| swap_red_blue(&l.rgba)).collect(),
    };
    losses.extend(bc::losses(variant, image));
    let mut cut = 0;
    let mips = levels
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let like = bc::Like { blocks: blocks.filter(|_| i == 0), opaque: false };
            let mut blocks = bc::encode_like(variant, &l.rgba, l.width as usize, l.height as usize, like);
            let keep = bpp.mip_bytes(l.width, l.height) as usize;
            cut += usize::from(keep < blocks.len());
            blocks.truncate(keep);
            blocks
        })
        .collect();
    if cut > 0 {
        let what = format!("{cut} mip(s) keep w·h/2 or w·h bytes, less than their 4 × 4 blocks (LithTech's size rule)");
        losses.push(Loss::new("mips", what));
    }
    mips
}

fn lt1(file: &mut DtxFile, image: &Image, levels: &[Image], template: Option<&DtxFile>, losses: &mut Vec<Loss>) {
    let quantized = Quantized::of(image);
    if !quantized.is_exact() {
        let what = format!("{} colours reduced to a 256-colour palette (median cut)", quantized.source_colours);
        losses.push(Loss::new("pixels", what));
    }
    // The template's palette words, or 0 (their meaning is unknown; SHOGO1.DTX has made-up ones).
    let mut palette = template.and_then(|t| t.palette.clone()).unwrap_or_default();
    palette.entries = [Xrgb { x: 0xFF, r: 0, g: 0, b: 0 }; 256];
    for (entry, [r, g, b]) in palette.entries.iter_mut().zip(&quantized.colours) {
        *entry = Xrgb { x: 0xFF, r: *r, g: *g, b: *b };
    }
    file.palette = Some(palette);
    file.mips = levels.iter().map(|l| quantized.indices(l)).collect();
    let masks = !image.is_opaque();
    if masks {
        if image.rgba.chunks_exact(4).any(|p| p.get(3).is_some_and(|a| a % 17 != 0)) {
            losses.push(Loss::new("alpha", "alpha kept in 16 levels (4-bit masks)"));
        }
        let planes = levels.iter().map(|l| alpha::pack(4, &l.rgba, l.pixels() / 2)).collect();
        file.alpha_masks = Some(planes);
        file.header.flags |= FLAG_ALPHA_MASKS;
    } else {
        file.header.flags &= !FLAG_ALPHA_MASKS;
    }
    // Without a template: group, mips used, alpha cutoff and average 0, as in most samples.
    file.header.extra_lt1 = Some(template.and_then(|t| t.header.extra_lt1.clone()).unwrap_or_default());
    if let Some(t) = template.filter(|t| t.header.section_count != 0) {
        file.header.section_count = t.header.section_count;
        file.trailing = t.trailing.clone();
    }
}
