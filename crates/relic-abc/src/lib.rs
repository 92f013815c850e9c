//! relic-abc: LithTech ABC models (v6, v9–v13): read, write byte-identically, map to and from the common model.
//!
//! Not implemented yet.

pub mod checks;

use relic_core::model::SourceInfo;

/// Recognises the format by its bytes; `None` if this is not such a file.
pub fn detect(_bytes: &[u8]) -> Option<SourceInfo> {
    None
}
