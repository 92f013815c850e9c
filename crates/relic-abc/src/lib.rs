//! relic-abc: LithTech ABC models (v6, v9–v13).
pub mod checks;
pub mod common;
pub mod counts;
pub mod file;
pub mod shape;
pub mod v12;
pub mod v6;

pub use file::{AbcFile, parse, write};

use relic_core::model::SourceInfo;

/// Recognises the format by its bytes; `None` if this is not such a file.
pub fn detect(bytes: &[u8]) -> Option<SourceInfo> {
    let version = match file::family(bytes)? {
        file::Family::V6 => 6,
        file::Family::Numbered(v) => v,
    };
    Some(SourceInfo { format: relic_core::model::FormatKind::Abc, version })
}
