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
    /// The bytes are not a model (or texture) of any registered format (see
    /// [`crate::Registry::not_read`]).
    #[error("{}: {}", file.display(), not_read(what.as_deref(), reads))]
    NotModel {
        /// The file.
        file: PathBuf,
        /// What the file is, when relic can tell (`LithTech LTA model text`).
        what: Option<String>,
        /// What the registry reads (`models: ABC, M2; textures: BLP`).
        reads: String,
    },
    /// The file is damaged or of a version relic refuses.
    #[error("{}: {source}", file.display())]
    Read {
        /// The file.
        file: PathBuf,
        /// Byte offset, field path and cause.
        source: relic_core::ReadError,
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

/// The message of [`Error::NotModel`] after the file's name.
fn not_read(what: Option<&str>, reads: &str) -> String {
    match what {
        Some(what) => format!("{what}, which relic does not read (it reads {reads}; recognised by content)"),
        None => format!("not a model or texture relic reads (it reads {reads}; recognised by content)"),
    }
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
