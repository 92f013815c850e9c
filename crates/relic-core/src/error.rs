//! Typed errors for reading and writing, with the byte offset and field path of the failure.
//!
//! binrw reports a failure as a chain of frames ("While parsing field 'v' in Inner", …) around a
//! root cause. [`ReadError::from_binrw`] folds that chain into one line such as
//! `Pieces.pieces[3].lods[1].vertices[17].weights: count 40000 of 20-byte records needs 800000 bytes but only 1200 are left (at byte 0x4d2)`.

use std::fmt;

/// Why a read failed, without the position (that lives in [`ReadError`]).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ReadErrorKind {
    /// The file ended inside a field.
    #[error("unexpected end of file")]
    Truncated,
    /// A count read from the file promises more data than the file has left.
    #[error("count {count} of {record_size}-byte records needs {needed} bytes but only {left} are left")]
    CountTooLarge {
        /// The count as stored.
        count: u64,
        /// Bytes per record (at least 1).
        record_size: u64,
        /// `count × record_size`, saturated.
        needed: u64,
        /// Bytes between the start of the array and the end of the file.
        left: u64,
    },
    /// An absolute offset (with the bytes that should follow it) lies outside the file.
    #[error("offset {target:#x} with {len} bytes lies outside the file of {file_len} bytes")]
    OffsetOutOfBounds {
        /// The offset as stored.
        target: u64,
        /// How many bytes should be readable from there.
        len: u64,
        /// Size of the whole file.
        file_len: u64,
    },
    /// The file does not start with the expected signature.
    #[error("bad magic {found}, expected {expected}")]
    BadMagic {
        /// What the file holds, printed.
        found: String,
        /// What was expected, printed.
        expected: String,
    },
    /// The version is known but not supported (or not known at all).
    #[error("unsupported version {version}: {reason}")]
    UnsupportedVersion {
        /// The version as stored.
        version: u32,
        /// Why it is refused, in words a user can act on.
        reason: String,
    },
    /// A value breaks a rule of the format (a cross-check between fields failed).
    #[error("{0}")]
    Invalid(String),
    /// Files the model keeps beside it (an M2's `.skin` or `.anim`) were looked for and not found:
    /// the model is incomplete, not damaged. Every missing file is named.
    #[error("incomplete: {} not found next to the model ({what})", missing.join(", "))]
    Incomplete {
        /// The file names looked for, in the order the model needs them.
        missing: Vec<String>,
        /// What the model keeps in them (`the keys of 9 sequences`).
        what: String,
    },
    /// A section or file continued past where it should have ended.
    #[error("{0} unexpected bytes after the end of the data")]
    TrailingBytes(u64),
    /// An I/O error other than end of file (only when reading from a real stream).
    #[error("I/O error: {0}")]
    Io(String),
    /// A document (text, or a container of objects that refer to each other by index, such as a
    /// glTF) breaks a rule that no byte offset locates: printed without one.
    #[error("{0}")]
    Document(String),
    /// An image larger than the caller allows (decoding would allocate `width × height × 4`
    /// bytes); refused before anything is allocated.
    #[error(
        "an image of {width} × {height} pixels exceeds the limit of {max_pixels} pixels (TextureOptions::max_pixels; raise it to decode)"
    )]
    ImageTooLarge {
        /// Width as stored.
        width: u64,
        /// Height as stored.
        height: u64,
        /// The limit in force.
        max_pixels: u64,
    },
}

/// A read failure: where (byte offset, field path) and why.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub struct ReadError {
    /// Absolute byte offset in the file where the failing field starts.
    pub offset: u64,
    /// Dotted field path from the outermost record, with array indices (`Pieces.pieces[3].name`).
    /// Empty when the failure is not inside any field.
    pub path: String,
    /// What went wrong.
    pub kind: ReadErrorKind,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let ReadErrorKind::Document(text) = &self.kind {
            return if self.path.is_empty() { f.write_str(text) } else { write!(f, "{}: {text}", self.path) };
        }
        if self.path.is_empty() {
            write!(f, "{} (at byte {:#x})", self.kind, self.offset)
        } else {
            write!(f, "{}: {} (at byte {:#x})", self.path, self.kind, self.offset)
        }
    }
}

impl ReadError {
    /// An error at `offset` with no field path.
    pub fn new(offset: u64, kind: ReadErrorKind) -> Self {
        Self { offset, path: String::new(), kind }
    }

    /// A document that breaks a rule no byte offset locates ([`ReadErrorKind::Document`]).
    pub fn document(message: impl Into<String>) -> Self {
        Self::new(0, ReadErrorKind::Document(message.into()))
    }

    /// An error at `offset` inside `path`.
    pub fn at(offset: u64, path: impl Into<String>, kind: ReadErrorKind) -> Self {
        Self { offset, path: path.into(), kind }
    }

    /// A value at `offset` inside `path` that breaks a rule of the format
    /// ([`ReadErrorKind::Invalid`] with `message`).
    pub fn invalid(offset: u64, path: impl Into<String>, message: impl Into<String>) -> Self {
        Self::at(offset, path, ReadErrorKind::Invalid(message.into()))
    }

    /// Prefixes the field path with an outer field name (`Header` + `version` → `Header.version`).
    pub fn within(mut self, outer: &str) -> Self {
        self.path = join_path(outer, &self.path);
        self
    }

    /// Converts a binrw error. `eof_at` is where the source saw a read run past the end of the
    /// data (see [`crate::binary::Source`]), which binrw's own I/O errors do not carry.
    pub fn from_binrw(error: &binrw::Error, eof_at: Option<u64>) -> Self {
        let mut pieces: Vec<PathPiece> = Vec::new();
        let root = unwind(error, &mut pieces);
        // Frames are innermost first; the path reads outermost first.
        let path = pieces.iter().rev().fold(String::new(), |acc, piece| join_path(&acc, &piece.to_string()));
        let (offset, kind) = root_kind(root, eof_at);
        Self { offset, path, kind }
    }
}

/// One step of a field path, carried as a typed frame on a binrw error (see
/// [`crate::binary::in_field`] and [`crate::binary::in_element`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathPiece {
    /// A named field of a record.
    Field(String),
    /// An element of an array.
    Element(usize),
}

impl fmt::Display for PathPiece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Field(name) => f.write_str(name),
            Self::Element(index) => write!(f, "[{index}]"),
        }
    }
}

/// Joins two field-path pieces; an index (`[3]`) attaches without a dot.
fn join_path(outer: &str, inner: &str) -> String {
    match (outer.is_empty(), inner.is_empty()) {
        (true, _) => inner.to_string(),
        (_, true) => outer.to_string(),
        _ if inner.starts_with('[') => format!("{outer}{inner}"),
        _ => format!("{outer}.{inner}"),
    }
}

/// Collects the path pieces (innermost first) and returns the root error.
fn unwind<'e>(error: &'e binrw::Error, pieces: &mut Vec<PathPiece>) -> &'e binrw::Error {
    match error {
        binrw::Error::Backtrace(bt) => {
            for frame in &bt.frames {
                let piece = match frame {
                    binrw::error::BacktraceFrame::Custom(custom) => custom.downcast_ref::<PathPiece>().cloned(),
                    binrw::error::BacktraceFrame::Full { message, .. }
                    | binrw::error::BacktraceFrame::Message(message) => derived_field(message),
                };
                pieces.extend(piece);
            }
            unwind(&bt.error, pieces)
        }
        other => other,
    }
}

/// The field named by a frame that binrw's derive adds around each field it reads:
/// `While parsing field 'v' in Inner` → `v`. This is the one place relic reads binrw's own wording
/// (the derive offers the field name no other way); binrw is pinned in the workspace and the test
/// `binary::tests::error_path_names_fields_and_indices` fails if a new binrw words it differently. Frames relic
/// adds itself are typed ([`PathPiece`]). Any other message (the root's own) is not a path piece.
fn derived_field(message: &str) -> Option<PathPiece> {
    let rest = message.strip_prefix("While parsing field '")?;
    let (field, _) = rest.split_once('\'')?;
    Some(PathPiece::Field(field.to_string()))
}

fn root_kind(root: &binrw::Error, eof_at: Option<u64>) -> (u64, ReadErrorKind) {
    match root {
        binrw::Error::BadMagic { pos, found } => {
            (*pos, ReadErrorKind::BadMagic { found: format!("{found:?}"), expected: "the format's signature".into() })
        }
        binrw::Error::AssertFail { pos, message } => (*pos, ReadErrorKind::Invalid(message.clone())),
        binrw::Error::Custom { pos, err } => {
            let kind = match err.downcast_ref::<ReadErrorKind>() {
                Some(kind) => kind.clone(),
                None => ReadErrorKind::Invalid(err.to_string()),
            };
            (*pos, kind)
        }
        binrw::Error::Io(io) if io.kind() == std::io::ErrorKind::UnexpectedEof => {
            // A read from a `Source` that runs past the end records where (eof_at); only a reader over
            // another stream has no such record, and its error is reported at byte 0.
            (eof_at.unwrap_or(0), ReadErrorKind::Truncated)
        }
        // As for Truncated: where the source stopped, else byte 0 (an I/O error carries no position).
        binrw::Error::Io(io) => (eof_at.unwrap_or(0), ReadErrorKind::Io(io.to_string())),
        binrw::Error::NoVariantMatch { pos } => (*pos, ReadErrorKind::Invalid("no known record layout matches".into())),
        binrw::Error::EnumErrors { pos, variant_errors } => {
            let detail = variant_errors
                .iter()
                .map(|(name, e)| format!("{name}: {}", ReadError::from_binrw(e, eof_at)))
                .collect::<Vec<_>>()
                .join("; ");
            (*pos, ReadErrorKind::Invalid(format!("no record layout matches ({detail})")))
        }
        binrw::Error::Backtrace(bt) => root_kind(&bt.error, eof_at),
        // binrw::Error is non_exhaustive.
        // A future binrw error without a position: where the source stopped, else byte 0.
        other => (eof_at.unwrap_or(0), ReadErrorKind::Invalid(other.to_string())),
    }
}

/// Makes a binrw error carrying a typed [`ReadErrorKind`] at `pos`.
pub fn custom(pos: u64, kind: ReadErrorKind) -> binrw::Error {
    binrw::Error::Custom { pos, err: Box::new(kind) }
}

/// A write failure: the model or the data cannot be written in this format.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum WriteError {
    /// A value does not fit the field that stores it (`Pieces[2].lods[0].vertices: 70000 does not fit a u16`).
    #[error("{field}: {value} does not fit {ty}")]
    DoesNotFit {
        /// Path of the field.
        field: String,
        /// The value that was to be written.
        value: u64,
        /// The on-disk type (`u16`, `u32`, …).
        ty: &'static str,
    },
    /// The model breaks a rule of the target format.
    #[error("{0}")]
    Unsupported(String),
    /// The model is not valid (see [`crate::model::Model::validate`]).
    #[error("invalid model: {0}")]
    InvalidModel(#[from] crate::validate::ValidationError),
    /// binrw failed to write a record (only on I/O failure of the sink).
    #[error("write failed at {path}: {message}")]
    Io {
        /// Where.
        path: String,
        /// What binrw said.
        message: String,
    },
}

impl WriteError {
    /// Converts a binrw write error into a one-line [`WriteError::Io`].
    pub fn from_binrw(error: &binrw::Error) -> Self {
        let read = ReadError::from_binrw(error, None);
        Self::Io { path: read.path, message: read.kind.to_string() }
    }
}

/// Converts a `usize`/`u64` length to a narrower on-disk integer, naming the field on failure.
pub fn fit<T: TryFrom<u64>>(field: &str, value: usize, ty: &'static str) -> Result<T, WriteError> {
    let wide = value as u64;
    T::try_from(wide).map_err(|_| WriteError::DoesNotFit { field: field.to_string(), value: wide, ty })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_document_error_prints_no_byte_offset() {
        assert_eq!(ReadError::document("buffer \"a.bin\": not found").to_string(), "buffer \"a.bin\": not found");
        assert_eq!(
            ReadError::document("index 7 of 3").within("accessors[2]").to_string(),
            "accessors[2]: index 7 of 3"
        );
        let binary = ReadError::invalid(0x10, "Header.version", "not 12");
        assert_eq!(binary.to_string(), "Header.version: not 12 (at byte 0x10)");
    }
}
