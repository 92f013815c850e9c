//! The crate's entry in the format registry (`relic::FORMATS`).

use relic_core::format::{FormatEntry, ModelCodec, Textures, Versions, Written};

/// LithTech LTB: model versions 23–25 read and written.
pub static ENTRY: FormatEntry = FormatEntry {
    name: "ltb",
    title: "LithTech LTB model (No One Lives Forever 2, Tron 2.0, CrossFire; CrossFire's LZMA wrapper)",
    family: "LithTech model",
    extensions: &["ltb"],
    detect: crate::detect,
    versions: Versions { read: &[23..=25], write: &[23..=25], default_write: crate::DEFAULT_VERSION, note: "" },
    info: |input| crate::info(input.bytes),
    model: Some(ModelCodec {
        read: |input| crate::read_model_noted(input.bytes),
        read_with_info: Some(|input| crate::read_model_with_info(input.bytes)),
        write: |model, options, _| crate::write_model(model, options).map(|c| c.map(Written::single)),
        textures: Textures::Files("dtx"),
        beside: &[],
        references: None,
        records_original: true,
    }),
    animation: None,
    texture: None,
    checks: CHECKS,
    not_read: Some(crate::not_a_model),
};

/// The corpus checks, with the `verify` feature.
#[cfg(feature = "verify")]
const CHECKS: Option<relic_core::format::CorpusChecks> = Some(|input| crate::verify::corpus_checks(input.bytes));
/// The corpus checks, with the `verify` feature.
#[cfg(not(feature = "verify"))]
const CHECKS: Option<relic_core::format::CorpusChecks> = None;
