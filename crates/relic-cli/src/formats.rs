//! Every format relic reads, recognised by content, and the entry points each format crate
//! provides (see docs/DEVELOPMENT.md, "The contract of a format crate").

use relic_core::check::Checks;
use relic_core::model::SourceInfo;
use relic_core::{Converted, Info, Model, ReadError, WriteError, WriteOptions};

/// Builds a file of one format from the common model (a format crate's `write_model`).
pub type WriteModel = fn(&Model, &WriteOptions) -> Result<Converted<Vec<u8>>, WriteError>;

/// A format relic knows: how to recognise it, describe it, read and write it, and check it.
#[derive(Debug, Clone, Copy)]
pub struct FormatEntry {
    /// Short name (`abc`, `m2`, `nod`), also the file extension written.
    pub name: &'static str,
    /// Recognises a file by its bytes.
    pub detect: fn(&[u8]) -> Option<SourceInfo>,
    /// The format's own counts as the file states them.
    pub info: fn(&[u8]) -> Result<Info, ReadError>,
    /// Parses a file and maps it to the common model.
    pub read_model: fn(&[u8]) -> Result<Model, ReadError>,
    /// Builds a file from the common model.
    pub write_model: WriteModel,
    /// Runs the format's own checks on a file (parse, re-write, IR round trip, …).
    pub corpus_checks: fn(&[u8]) -> Checks,
}

/// All formats, in detection order.
pub const FORMATS: &[FormatEntry] = &[
    FormatEntry {
        name: "abc",
        detect: relic_abc::detect,
        info: relic_abc::info,
        read_model: relic_abc::read_model,
        write_model: relic_abc::write_model,
        corpus_checks: relic_abc::checks::corpus_checks,
    },
    FormatEntry {
        name: "m2",
        detect: relic_m2::detect,
        info: relic_m2::info,
        read_model: relic_m2::read_model,
        write_model: relic_m2::write_model,
        corpus_checks: relic_m2::checks::corpus_checks,
    },
    FormatEntry {
        name: "nod",
        detect: relic_nod::detect,
        info: relic_nod::info,
        read_model: relic_nod::read_model,
        write_model: relic_nod::write_model,
        corpus_checks: relic_nod::checks::corpus_checks,
    },
];

/// The format of a file, judged by its bytes only.
pub fn detect(bytes: &[u8]) -> Option<(&'static FormatEntry, SourceInfo)> {
    FORMATS.iter().find_map(|f| (f.detect)(bytes).map(|info| (f, info)))
}

/// The format written for an output file name's extension (case-insensitive).
pub fn by_extension(extension: &str) -> Option<&'static FormatEntry> {
    FORMATS.iter().find(|f| f.name.eq_ignore_ascii_case(extension))
}
