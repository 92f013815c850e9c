//! The crate's entry in the format registry (`relic::FORMATS`).

use relic_core::format::{CorpusChecks, FormatEntry, TextureCodec, Versions};

#[cfg(feature = "verify")]
const CHECKS: Option<CorpusChecks> = Some(crate::verify::corpus_checks);
#[cfg(not(feature = "verify"))]
const CHECKS: Option<CorpusChecks> = None;

/// LithTech DTX: versions −2, −3 and −5 read (numbered 2, 3, 5), −2 and −5 written.
pub static ENTRY: FormatEntry = FormatEntry {
    name: "dtx",
    title: "LithTech DTX texture (Shogo, Blood 2, No One Lives Forever, Aliens vs Predator 2)",
    family: "LithTech texture",
    extensions: &["dtx"],
    detect: crate::detect,
    versions: Versions {
        read: &[2..=3, 5..=5],
        write: &[2..=2, 5..=5],
        default_write: 5,
        note: "versions are the stored −2, −3, −5 negated; −3 is read, not written (what may follow its mips is unknown)",
    },
    info: |input| crate::info(input.bytes),
    model: None,
    animation: None,
    texture: Some(TextureCodec {
        decode: |input, level, options| crate::decode_bytes(input.bytes, level, options),
        encode: |image, options| crate::encode_bytes(image, options),
        encode_like: |image, options, template| crate::encode_like_bytes(image, options, template.bytes),
    }),
    checks: CHECKS,
    not_read: None,
};
