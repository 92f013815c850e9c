//! The crate's entry in the format registry (`relic::FORMATS`).

use relic_core::format::{FormatEntry, ModelCodec, Textures, Versions};

/// Warcraft III MDX models.
pub static ENTRY: FormatEntry = FormatEntry {
    name: "mdx",
    title: "Warcraft III MDX model (Reign of Chaos, The Frozen Throne, Reforged)",
    family: "Warcraft III model",
    extensions: &["mdx"],
    detect: crate::detect,
    versions: Versions {
        read: &[800..=800, 900..=900, 1000..=1000, 1100..=1100, 1200..=1200],
        write: &[800..=800, 900..=900, 1000..=1000],
        default_write: crate::DEFAULT_VERSION,
        note: "a model read from an MDX of any version is written back as that file while unedited; otherwise \
               the file is built from the model, as version 800 (900 and 1000 when asked for)",
    },
    info: |input| crate::info(input.bytes),
    model: Some(ModelCodec {
        read: |input| crate::read_model_with_losses(input.bytes),
        read_with_info: Some(|input| crate::read_model_with_info(input.bytes)),
        write: |model, options, _| {
            crate::write_model(model, options).map(|c| c.map(relic_core::format::Written::single))
        },
        textures: Textures::Files("blp"),
        beside: &[],
        references: None,
        records_original: true,
    }),
    animation: None,
    texture: None,
    checks: CHECKS,
    not_read: None,
};

/// Warcraft III MDL text models (version 800): read into the MDX types and written from them.
pub static MDL_ENTRY: FormatEntry = FormatEntry {
    name: "mdl",
    title: "Warcraft III MDL model, text (Reign of Chaos, The Frozen Throne)",
    family: "Warcraft III model",
    extensions: &["mdl"],
    detect: crate::mdl::detect,
    versions: Versions { read: &[800..=800], write: &[800..=800], default_write: crate::DEFAULT_VERSION, note: "" },
    info: |input| crate::mdl_info(input.bytes),
    model: Some(ModelCodec {
        read: |input| crate::read_mdl_model_with_info(input.bytes).map(|(model, _)| model),
        read_with_info: None,
        write: |model, options, _| {
            crate::write_mdl_model(model, options).map(|c| c.map(relic_core::format::Written::single))
        },
        textures: Textures::Files("blp"),
        beside: &[],
        references: None,
        // The text is not the game's file: the MDX it describes travels in the model's extras,
        // and MDL text written again is relic's print of it (comments and layout are not kept).
        records_original: false,
    }),
    animation: None,
    texture: None,
    checks: MDL_CHECKS,
    not_read: None,
};

/// The corpus checks: with the `verify` feature only.
#[cfg(feature = "verify")]
const CHECKS: Option<relic_core::format::CorpusChecks> = Some(|input| crate::verify::corpus_checks(input.bytes));
#[cfg(not(feature = "verify"))]
const CHECKS: Option<relic_core::format::CorpusChecks> = None;

/// The MDL entry's corpus checks: with the `verify` feature only.
#[cfg(feature = "verify")]
const MDL_CHECKS: Option<relic_core::format::CorpusChecks> = Some(|input| crate::verify::mdl_checks(input.bytes));
#[cfg(not(feature = "verify"))]
const MDL_CHECKS: Option<relic_core::format::CorpusChecks> = None;
