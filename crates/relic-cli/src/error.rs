//! The command's errors: each names the file and prints as one readable line.

use std::path::{Path, PathBuf};

use crate::output::OutputError;

/// Why a file could not be inspected or converted.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The file could not be read from disk.
    #[error("{}: cannot read: {source}", file.display())]
    Io {
        /// The file.
        file: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The bytes are not a model relic reads.
    #[error("{}: not a model relic reads (ABC, M2, NOD/NAD or glTF, recognised by content)", file.display())]
    NotModel {
        /// The file.
        file: PathBuf,
    },
    /// The file is damaged or of a version relic refuses.
    #[error("{}: {source}", file.display())]
    Read {
        /// The file.
        file: PathBuf,
        /// Byte offset, field path and cause.
        source: relic_core::ReadError,
    },
    /// The glTF file could not be read or the model could not be exported.
    #[error("{}: {source}", file.display())]
    Gltf {
        /// The file.
        file: PathBuf,
        /// What went wrong.
        source: relic_gltf::GltfError,
    },
    /// The model cannot be written in the target format.
    #[error("{}: {source}", file.display())]
    Write {
        /// The output file.
        file: PathBuf,
        /// Why.
        source: relic_core::WriteError,
    },
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
        matches!(self, CliError::Usage(_))
    }

    pub(crate) fn read(file: &Path, source: relic_core::ReadError) -> Self {
        CliError::Read { file: file.to_path_buf(), source }
    }

    pub(crate) fn io(file: &Path, source: std::io::Error) -> Self {
        CliError::Io { file: file.to_path_buf(), source }
    }
}
