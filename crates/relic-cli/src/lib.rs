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

/// Every output format name `--to` and output extensions take: glTF's two forms, each
/// registered format that writes models, then PNG and each texture format.
pub fn targets() -> Vec<&'static str> {
    let models = relic::FORMATS.iter().filter(|f| f.model.is_some()).map(|f| f.name);
    let textures = relic::FORMATS.iter().filter(|f| f.texture.is_some()).map(|f| f.name);
    ["glb", "gltf"].into_iter().chain(models).chain(["png"]).chain(textures).collect()
}

/// Checks `--version` against what the target writes, before any file is read.
pub fn check_version(target: Target, version: Option<u32>) -> Result<(), CliError> {
    let Some(v) = version else { return Ok(()) };
    match target {
        Target::Glb | Target::Gltf => Err(CliError::Usage(format!(
            "--version {v}: glTF outputs take no version (it applies to {})",
            model_formats()
        ))),
        Target::Format(entry) if entry.versions.writes(v) => Ok(()),
        Target::Format(entry) => {
            let note =
                if entry.versions.note.is_empty() { String::new() } else { format!("; {}", entry.versions.note) };
            Err(CliError::Usage(format!(
                "--version {v}: {} writes versions {}{note}",
                entry.name,
                relic_core::format::Versions::list(entry.versions.write)
            )))
        }
    }
}

fn model_formats() -> String {
    let names: Vec<&str> = relic::FORMATS.iter().filter(|f| f.model.is_some()).map(|f| f.name).collect();
    format!(".{} outputs", names.join(", ."))
}

/// The README's example, compiled and run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctest;
