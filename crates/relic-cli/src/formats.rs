//! Every format relic reads, detected by content.

use relic_core::check::Checks;
use relic_core::model::SourceInfo;

/// A format relic knows: how to recognise it and how to check a file of it.
#[derive(Debug, Clone, Copy)]
pub struct FormatEntry {
    /// Short name (`abc`, `m2`, `nod`).
    pub name: &'static str,
    /// Recognises a file by its bytes.
    pub detect: fn(&[u8]) -> Option<SourceInfo>,
    /// Runs the format's own checks on a file (parse, re-write, IR round trip, …).
    pub corpus_checks: fn(&[u8]) -> Checks,
}

/// All formats, in detection order.
pub const FORMATS: &[FormatEntry] = &[
    FormatEntry { name: "abc", detect: relic_abc::detect, corpus_checks: relic_abc::checks::corpus_checks },
    FormatEntry { name: "m2", detect: relic_m2::detect, corpus_checks: relic_m2::checks::corpus_checks },
    FormatEntry { name: "nod", detect: relic_nod::detect, corpus_checks: relic_nod::checks::corpus_checks },
];

/// The format of a file, judged by its bytes only.
pub fn detect(bytes: &[u8]) -> Option<(&'static FormatEntry, SourceInfo)> {
    FORMATS.iter().find_map(|f| (f.detect)(bytes).map(|info| (f, info)))
}
