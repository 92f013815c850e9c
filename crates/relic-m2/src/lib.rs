//! relic-m2: World of Warcraft M2 models, versions 256–263 (Classic and The Burning Crusade): read, write, map to and from the common model.
//!
//! Not implemented yet.

pub mod checks;

use relic_core::model::SourceInfo;

/// Recognises the format by its bytes; `None` if this is not such a file.
pub fn detect(_bytes: &[u8]) -> Option<SourceInfo> {
    None
}
