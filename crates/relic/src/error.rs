//! Errors that name the user's file and print as one readable line.

use std::path::{Path, PathBuf};

/// Why a file could not be opened, converted or written.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The file could not be read from disk.
    #[error("{}: cannot read: {source}", file.display())]
    Io {
        /// The file.
        file: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The bytes are not a file relic reads.
    #[error("{}: not a model relic reads ({}, recognised by content)", file.display(), crate::known_formats())]
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
    /// The request does not make sense for these files (a bad option, an animation given as a
    /// model).
    #[error("{0}")]
    Usage(String),
}

impl Error {
    /// Whether this is the caller's request being wrong rather than a file.
    pub fn is_usage(&self) -> bool {
        matches!(self, Error::Usage(_))
    }

    /// A read error in `file`.
    pub fn read(file: &Path, source: relic_core::ReadError) -> Self {
        Error::Read { file: file.to_path_buf(), source }
    }

    /// An I/O error on `file`.
    pub fn io(file: &Path, source: std::io::Error) -> Self {
        Error::Io { file: file.to_path_buf(), source }
    }
}
