#![doc = include_str!("../README.md")]

mod decode;
mod encode;
mod entry;
pub mod file;
pub mod palette32;
pub mod validate;
#[cfg(feature = "verify")]
pub mod verify;

pub use decode::decode;
pub use encode::{DEFAULT_MIPS, encode, encode_like, options_for, resolve};
pub use entry::ENTRY;
pub use file::{Bpp, DtxFile};

use relic_core::format::{Content, Detected};
use relic_core::texture::{Image, TextureOptions};
use relic_core::{Converted, Info, ReadError, WriteError};

/// LithTech DTX, as named in [`relic_core::model::SourceInfo`] and the format registry.
pub const FORMAT: relic_core::FormatId = relic_core::FormatId::new("dtx");

/// Recognises a DTX by its bytes. The signature is weak (a u32 0, then −2, −3 or −5), so the
/// header must also check out and header, palette, mips, masks and sections must add up to the
/// file's length exactly ([`validate::sizes_add_up`]). The version is the stored one negated.
/// A DTX in CrossFire's LZMA-alone wrapper is recognised by its payload.
pub fn detect(bytes: &[u8]) -> Option<Detected> {
    if let Some(payload) = wrapped_payload(bytes) {
        return detect(&payload.ok()?.0);
    }
    let version = i32::from_le_bytes(bytes.get(4..8)?.try_into().ok()?);
    if bytes.get(..4)? != [0; 4] || !matches!(version, -2 | -3 | -5) {
        return None;
    }
    let header = file::parse_header(bytes).ok()?;
    let layout = validate::layout(&header).ok()?;
    validate::sizes_add_up(&header, &layout, bytes).then(|| Detected::new(FORMAT, header.number(), Content::Texture))
}

/// Parses a file: the header is checked first (version, size, mip count, BPP ident), then every
/// part it determines is read with its size checked against the bytes left.
pub fn read(bytes: &[u8]) -> Result<DtxFile, ReadError> {
    if let Some(unwrapped) = wrapped_payload(bytes) {
        let (payload, wrapper) = unwrapped?;
        let mut file = read(&payload)?;
        file.wrapper = Some(wrapper);
        return Ok(file);
    }
    let header = file::parse_header(bytes)?;
    let layout = validate::layout(&header)?;
    let file = file::parse(bytes, &layout)?;
    validate::validate(&file)?;
    Ok(file)
}

/// Writes a file; `write(&read(b)?)? == b` for every file [`read`] accepts. A file read from
/// CrossFire's LZMA wrapper is wrapped again: in its original bytes while unchanged, else in a new
/// stream (`relic_lithtech::lzma::wrap`).
pub fn write(file: &DtxFile) -> Result<Vec<u8>, WriteError> {
    let bytes = file::write(file)?;
    match &file.wrapper {
        Some(w) => relic_lithtech::lzma::wrap(&bytes, Some(w)),
        None => Ok(bytes),
    }
}

/// CrossFire's LZMA-alone wrapper around a DTX (byte 0 > 20, and the first payload bytes a DTX
/// signature): the payload and the wrapper, or why it does not decode; `None` for anything else.
/// The stated size is checked against `relic_lithtech::lzma::Limits` before anything is allocated.
fn wrapped_payload(bytes: &[u8]) -> Option<Result<(Vec<u8>, relic_lithtech::lzma::Wrapper), ReadError>> {
    let limits = relic_lithtech::lzma::Limits::default();
    if !relic_lithtech::lzma::is_wrapped(bytes) {
        return None;
    }
    let (head, _) = relic_lithtech::lzma::peek(bytes, 8, &limits)?;
    let version = i32::from_le_bytes(head.get(4..8)?.try_into().ok()?);
    (head.get(..4)? == [0; 4] && matches!(version, -2 | -3 | -5)).then(|| relic_lithtech::lzma::unwrap(bytes, &limits))
}

/// The file's own facts: `lzma_wrapped` (CrossFire's wrapper), `width`, `height`, `mips`, `pixels` (BPP name), `bpp_ident` (v−5),
/// `flags`, `sections` (v−5), `alpha_masks` (v−2), `light_defs_bytes` (v−2), `trailing_bytes`.
pub fn info(bytes: &[u8]) -> Result<Info, ReadError> {
    let file = read(bytes)?;
    let h = &file.header;
    let mut info = Info::new(FORMAT, h.number());
    info.count("lzma_wrapped", u32::from(file.wrapper.is_some()));
    info.count("width", h.width).count("height", h.height).count("mips", h.mip_count);
    info.text("pixels", file.bpp().map_or("unknown", Bpp::name));
    if h.version == file::VERSION_LT2 {
        info.count("bpp_ident", h.bpp_ident()).count("sections", file.sections.len());
    }
    info.count("flags", h.flags);
    if h.version == file::VERSION_LT1 {
        info.count("alpha_masks", file.alpha_masks.as_ref().map_or(0, Vec::len));
        info.count("light_defs_bytes", if h.section_count != 0 { file.trailing.len() } else { 0 });
    }
    info.count("trailing_bytes", file.trailing.len());
    Ok(info)
}

/// [`decode`] of mip `level` of the file in `bytes` (the mip's size is checked against
/// `options.max_pixels` before the rest of the file is read).
pub fn decode_bytes(bytes: &[u8], level: usize, options: &TextureOptions) -> Result<Image, ReadError> {
    if let Some(unwrapped) = wrapped_payload(bytes) {
        return decode_bytes(&unwrapped?.0, level, options);
    }
    let header = file::parse_header(bytes)?;
    if level < usize::from(header.mip_count) {
        let (width, height) = header.mip_size(level);
        let at = file::header::at::WIDTH;
        relic_core::texture::check_pixels(width.into(), height.into(), options, at, "DtxHeader.width")?;
    }
    decode(&read(bytes)?, level, options)
}

/// [`encode_like`] of the file in `template`, and [`write()`]: `image` written back to the
/// template's format (the template's own bytes when the image is its mip 0, unchanged).
pub fn encode_like_bytes(
    image: &Image,
    options: &TextureOptions,
    template: &[u8],
) -> Result<Converted<Vec<u8>>, WriteError> {
    let template = read(template).map_err(|e| WriteError::Unsupported(format!("the texture to write like: {e}")))?;
    let Converted { value, losses } = encode_like(image, options, Some(&template))?;
    Ok(Converted { value: write(&value)?, losses })
}

/// [`encode`] and [`write()`]: the bytes of a DTX holding `image` with its mips.
pub fn encode_bytes(image: &Image, options: &TextureOptions) -> Result<Converted<Vec<u8>>, WriteError> {
    let Converted { value, losses } = encode(image, options)?;
    Ok(Converted { value: write(&value)?, losses })
}
