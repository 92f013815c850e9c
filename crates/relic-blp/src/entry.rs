//! The crate's entry in the format registry (`relic::FORMATS`).

use relic_core::format::{CorpusChecks, FormatEntry, TextureCodec, Versions};

#[cfg(feature = "verify")]
const CHECKS: Option<CorpusChecks> = Some(crate::verify::corpus_checks);
#[cfg(not(feature = "verify"))]
const CHECKS: Option<CorpusChecks> = None;

/// Blizzard BLP: BLP2 and BLP1 (palettized) read, BLP2 written; BLP0 recognised and refused.
pub static ENTRY: FormatEntry = FormatEntry {
    name: "blp",
    title: "Blizzard BLP texture (World of Warcraft BLP2, Warcraft III BLP1)",
    family: "Blizzard texture",
    extensions: &["blp"],
    detect: crate::detect,
    versions: Versions {
        read: &[1..=2],
        write: &[2..=2],
        default_write: 2,
        note: "BLP1 (Warcraft III) is read, not written; BLP0 keeps its mips in other files and is refused",
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
