//! The crate's entry in the format registry (`relic::FORMATS`).

use relic_core::Converted;
use relic_core::format::{AnimationCodec, FormatEntry, ModelCodec, Textures, Versions, Written};

use crate::options::{NOD_VERSION, NadOptions};

/// Nod engine NOD v7 models and NAD v3 animations.
pub static ENTRY: FormatEntry = FormatEntry {
    name: "nod",
    title: "Nod engine NOD model / NAD animation (Vampire: The Masquerade – Redemption)",
    family: "Vampire: Redemption model",
    extensions: &["nod", "nad"],
    detect: crate::detect,
    versions: Versions {
        read: &[3..=3, 7..=7],
        write: &[7..=7],
        default_write: NOD_VERSION,
        note: "NOD 7 (NAD 3 is written by `relic_nod::write_animation`)",
    },
    info: |input| crate::info(input.bytes),
    model: Some(ModelCodec {
        read: |input| crate::read_model(input.bytes).map(Converted::lossless),
        read_with_info: Some(|input| {
            crate::read_model_with_info(input.bytes).map(|(m, i)| (Converted::lossless(m), i))
        }),
        write: |model, options, _| crate::write_model(model, options).map(|c| c.map(Written::single)),
        textures: Textures::NoFiles,
        beside: &[],
        references: None,
        records_original: true,
    }),
    animation: Some(AnimationCodec {
        model_format: crate::FORMAT,
        attach: |model, input, name| {
            crate::attach_animation(model, input.bytes, name, &NadOptions::default()).map(|_| ())
        },
        extension: "nad",
        write: Some(|model, index| crate::write_animation(model, index, &NadOptions::default())),
    }),
    texture: None,
    checks: CHECKS,
    not_read: None,
};

/// The corpus checks: with the `verify` feature only.
#[cfg(feature = "verify")]
const CHECKS: Option<relic_core::format::CorpusChecks> = Some(|input| crate::verify::corpus_checks(input.bytes));
#[cfg(not(feature = "verify"))]
const CHECKS: Option<relic_core::format::CorpusChecks> = None;
