//! relic-nod: Vampire: The Masquerade – Redemption NOD v7 models and NAD v3 animations: read, write, map to and from the common model.
//!
//! Not implemented yet.

pub mod checks;

use relic_core::model::SourceInfo;

/// Recognises the format by its bytes; `None` if this is not such a file.
pub fn detect(_bytes: &[u8]) -> Option<SourceInfo> {
    None
}
