//! The library side of the `relic` command: the command line, each command, batch runs over
//! folders and writing outputs safely. Recognising, opening and converting files is the `relic`
//! facade crate's; this crate is the thin tool on top.
//!
//! | module | what |
//! |---|---|
//! | [`cli`] | the command line (clap), with version lists from the format registry |
//! | [`info`] | `relic info` and `relic formats` |
//! | [`convert`] | `relic convert` |
//! | [`batch`] | `relic batch`: a folder in parallel, with progress, JSON lines and a summary |
//! | [`notes`] | notes of what a target cannot hold, grouped for reading |
//! | [`output`] | atomic writes, no overwrite without `--force`, inputs never written |
//! | [`error`] | one-line errors that name the user's file, and the exit codes |

pub mod batch;
pub mod cli;
pub mod convert;
pub mod error;
pub mod info;
pub mod notes;
pub mod output;

pub use error::CliError;

use relic::Target;

/// Every output format name `--to` and output extensions take: each registered format that
/// writes models, then the texture outputs ([`texture_targets`]).
pub fn targets() -> Vec<&'static str> {
    let registry = relic::Registry::builtin();
    registry.writers().map(|f| f.name).chain(texture_targets()).collect()
}

/// The texture outputs: PNG, then each registered texture format.
pub fn texture_targets() -> Vec<&'static str> {
    let textures = relic::Registry::builtin().textures().map(|f| f.name).collect::<Vec<_>>();
    [relic::TextureTarget::Png.extension()].into_iter().chain(textures).collect()
}

/// `a, b or c`.
pub(crate) fn one_of(items: &[String]) -> String {
    match items.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => items.join(""),
    }
}

/// The texture outputs' extensions (`.png`, `.blp`, …), for messages.
pub(crate) fn texture_extensions() -> Vec<String> {
    texture_targets().iter().map(|t| format!(".{t}")).collect()
}

/// Checks `--version` against what the target writes, before any file is read.
pub fn check_version(target: Target, version: Option<u32>) -> Result<(), CliError> {
    let Some(v) = version else { return Ok(()) };
    let entry = target.entry();
    if entry.versions.writes(v) {
        return Ok(());
    }
    let note = if entry.versions.note.is_empty() { String::new() } else { format!("; {}", entry.versions.note) };
    Err(CliError::Usage(format!(
        "--version {v}: {} writes versions {}{note}",
        entry.name,
        relic_core::format::Versions::list(entry.versions.write)
    )))
}

/// The README's example, compiled and run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctest;
