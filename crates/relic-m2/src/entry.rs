//! The crate's entry in the format registry (`relic::FORMATS`).

use relic_core::format::{CorpusChecks, FormatEntry, ModelCodec, Versions};

/// World of Warcraft M2: read and written 256–263.
pub static ENTRY: FormatEntry = FormatEntry {
    name: "m2",
    title: "World of Warcraft M2 model (Classic to Cataclysm: 256–263, and 264/272 with .skin and .anim files)",
    extensions: &["m2"],
    detect: crate::detect,
    versions: Versions { read: &[256..=264, 272..=272], write: &[256..=264, 272..=272], default_write: 256, note: "" },
    info: crate::info_input,
    model: Some(ModelCodec { read: crate::read_input, write: crate::write_files }),
    animation: None,
    texture: None,
    checks: CHECKS,
};

/// The corpus checks (`cargo xtask corpus`), with the `verify` feature.
#[cfg(feature = "verify")]
const CHECKS: Option<CorpusChecks> = Some(crate::verify::corpus_checks_input);
/// Without the `verify` feature the crate carries no corpus checks.
#[cfg(not(feature = "verify"))]
const CHECKS: Option<CorpusChecks> = None;
