//! The crate's entry in the format registry (`relic::FORMATS`).

use relic_core::Converted;
use relic_core::format::{CorpusChecks, FormatEntry, ModelCodec, Versions, Written};

/// World of Warcraft M2: read and written 256–263.
pub static ENTRY: FormatEntry = FormatEntry {
    name: "m2",
    title: "World of Warcraft M2 model (Classic, The Burning Crusade)",
    extensions: &["m2"],
    detect: crate::detect,
    versions: Versions { read: &[256..=263], write: &[256..=263], default_write: 256, note: "" },
    info: |input| crate::info(input.bytes),
    model: Some(ModelCodec {
        read: |input| crate::read_model(input.bytes).map(Converted::lossless),
        write: |model, options| {
            crate::write_model(model, options).map(|c| Converted { value: Written::single(c.value), losses: c.losses })
        },
    }),
    animation: None,
    texture: None,
    checks: CHECKS,
};

/// The corpus checks (`cargo xtask corpus`), with the `verify` feature.
#[cfg(feature = "verify")]
const CHECKS: Option<CorpusChecks> = Some(|input| crate::verify::corpus_checks(input.bytes));
/// Without the `verify` feature the crate carries no corpus checks.
#[cfg(not(feature = "verify"))]
const CHECKS: Option<CorpusChecks> = None;
