#![doc = include_str!("../README.md")]

pub mod file;
mod validate;

pub use file::LtbFile;

use relic_core::{ReadError, ReadErrorKind, WriteError};
use relic_lithtech::lzma;

/// LithTech LTB, as named in [`relic_core::model::SourceInfo`] and the format registry.
pub const FORMAT: relic_core::FormatId = relic_core::FormatId::new("ltb");

/// Parses a file (unwrapping CrossFire's LZMA wrapper) and checks its cross-references: the file
/// layer, every byte kept.
pub fn read(bytes: &[u8]) -> Result<LtbFile, ReadError> {
    let (payload, wrapper) = if lzma::is_wrapped(bytes) {
        let (payload, wrapper) = lzma::unwrap(bytes, &lzma::Limits::default())?;
        (std::borrow::Cow::Owned(payload), Some(wrapper))
    } else {
        (std::borrow::Cow::Borrowed(bytes), None)
    };
    identify(&payload)?;
    let (mut file, offsets) = file::read_payload(&payload)?;
    validate::node_references(&file, &offsets)?;
    file.wrapper = wrapper;
    Ok(file)
}

/// Checks that an unwrapped payload is a PC model of a version relic reads.
fn identify(payload: &[u8]) -> Result<(), ReadError> {
    let head =
        payload.get(..24).ok_or_else(|| ReadError::at(payload.len() as u64, "container", ReadErrorKind::Truncated))?;
    let word = |at: usize| head.get(at..at + 4).and_then(|b| b.try_into().ok()).map_or(0, u32::from_le_bytes);
    let ltb_version = u16::from_le_bytes([head.get(2).copied().unwrap_or(0), head.get(3).copied().unwrap_or(0)]);
    let file_type = head.first().copied().unwrap_or(0);
    if file_type != 1 {
        return Err(ReadError::at(
            0,
            "container.file_type",
            ReadErrorKind::BadMagic { found: format!("file type {file_type}"), expected: "1 (a PC D3D model)".into() },
        ));
    }
    if ltb_version != 9 {
        return Err(ReadError::invalid(
            2,
            "container.ltb_version",
            format!("container version {ltb_version}; every PC model has 9 (the engine refuses others)"),
        ));
    }
    let version = word(20);
    if !file::VERSIONS.contains(&version) {
        let reason = "relic reads LTB model versions 23–25 (the engine's range)".to_string();
        return Err(ReadError::at(20, "header.version", ReadErrorKind::UnsupportedVersion { version, reason }));
    }
    Ok(())
}

/// Writes a file; `write(&read(b)?)? == b` for every file `read` accepts. A wrapped file whose
/// payload is unchanged gets its original bytes; a changed one a new LZMA stream.
pub fn write(file: &LtbFile) -> Result<Vec<u8>, WriteError> {
    let payload = file::write_payload(file)?;
    match &file.wrapper {
        Some(w) => lzma::wrap(&payload, Some(w)),
        None => Ok(payload),
    }
}
