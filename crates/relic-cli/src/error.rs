//! The command's errors: each names the file and prints as one readable line.

use std::path::PathBuf;

use crate::output::OutputError;

/// Why a file could not be inspected or converted.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// Opening, reading, converting or exporting a model failed (names the file).
    #[error(transparent)]
    Relic(#[from] relic::Error),
    /// Several inputs of a batch would be converted to the same output file (`walk.abc` and
    /// `walk.m2` both to `walk.glb`): none of them is converted.
    #[error(
        "{}: {} would also be written from {}; rename one of them (none of them is converted)",
        file.display(),
        output.display(),
        others.iter().map(|o| o.display().to_string()).collect::<Vec<_>>().join(", ")
    )]
    SameOutput {
        /// The input.
        file: PathBuf,
        /// The output file they share.
        output: PathBuf,
        /// The other inputs that would write it.
        others: Vec<PathBuf>,
    },
    /// The output could not be written (exists, is an input, disk error).
    #[error(transparent)]
    Output(#[from] OutputError),
    /// The request does not make sense for these files.
    #[error("{0}")]
    Usage(String),
}

impl CliError {
    /// Whether this is the user's request being wrong (exit code 2) rather than a file (1).
    pub fn is_usage(&self) -> bool {
        match self {
            CliError::Usage(_) => true,
            CliError::Relic(e) => e.is_usage(),
            _ => false,
        }
    }

    /// The process exit code for this error: 2 for bad usage, 1 for a file that failed.
    pub fn exit_code(&self) -> u8 {
        if self.is_usage() { 2 } else { 1 }
    }

    pub(crate) fn io(file: &std::path::Path, source: std::io::Error) -> Self {
        CliError::Relic(relic::Error::io(file, source))
    }
}
