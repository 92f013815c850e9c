//! The crate's entry in the format registry (`relic::FORMATS`).

use relic_core::format::{CorpusChecks, FormatEntry, ModelCodec, Textures, Versions};

/// World of Warcraft M2: read and written 256–264 and 272; chunked (`MD21`) 272 and 274.
pub static ENTRY: FormatEntry = FormatEntry {
    name: "m2",
    title: "World of Warcraft M2 model (Classic, The Burning Crusade; Wrath of the Lich King and Cataclysm with .skin and .anim files; Legion chunked MD21)",
    family: "World of Warcraft model",
    extensions: &["m2"],
    detect: crate::detect,
    versions: Versions {
        read: &[256..=264, 272..=272, 274..=274],
        write: &[256..=264, 272..=272, 274..=274],
        default_write: crate::DEFAULT_VERSION,
        note: "",
    },
    info: crate::info_input,
    model: Some(ModelCodec {
        read: crate::read_input,
        read_with_info: Some(crate::read_input_with_info),
        write: |model, options, _| crate::write_files(model, options),
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

/// The corpus checks (`cargo xtask corpus`), with the `verify` feature.
#[cfg(feature = "verify")]
const CHECKS: Option<CorpusChecks> = Some(crate::verify::corpus_checks_input);
/// Without the `verify` feature the crate carries no corpus checks.
#[cfg(not(feature = "verify"))]
const CHECKS: Option<CorpusChecks> = None;
