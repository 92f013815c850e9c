//! The crate's entry in the format registry (`relic::FORMATS`).

use relic_core::Converted;
use relic_core::format::{FormatEntry, ModelCodec, Textures, Versions, Written};

/// LithTech ABC: read 6 and 9–13, written 6 and 9–13.
pub static ENTRY: FormatEntry = FormatEntry {
    name: "abc",
    title: "LithTech ABC model (Shogo, Blood 2, No One Lives Forever, Aliens vs Predator 2)",
    family: "LithTech model",
    extensions: &["abc"],
    detect: crate::detect,
    versions: Versions {
        read: &[6..=6, 9..=13],
        write: &[6..=6, 9..=13],
        default_write: crate::DEFAULT_VERSION,
        note: "",
    },
    info: |input| crate::info(input.bytes),
    model: Some(ModelCodec {
        read: |input| crate::read_model(input.bytes).map(Converted::lossless),
        read_with_info: Some(|input| {
            crate::read_model_with_info(input.bytes).map(|(m, i)| (Converted::lossless(m), i))
        }),
        write: |model, options, _| crate::write_model(model, options).map(|c| c.map(Written::single)),
        textures: Textures::Files("dtx"),
        beside: &[],
        references: None,
        records_original: true,
    }),
    animation: None,
    texture: None,
    checks: CHECKS,
    not_read: None,
};

/// The corpus checks, with the `verify` feature.
#[cfg(feature = "verify")]
const CHECKS: Option<relic_core::format::CorpusChecks> = Some(|input| crate::verify::corpus_checks(input.bytes));
/// The corpus checks, with the `verify` feature.
#[cfg(not(feature = "verify"))]
const CHECKS: Option<relic_core::format::CorpusChecks> = None;
