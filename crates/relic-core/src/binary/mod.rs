//! Binary primitives shared by the format crates.
//!
//! * [`Source`]: the in-memory input every reader parses from. It remembers where a read ran past
//!   the end, so a truncated file is reported with the offset of the field that was cut.
//! * [`parse`]: runs a binrw read on a byte slice and turns any failure into a [`ReadError`].
//! * Bounded readers for `#[br(parse_with = …)]`: [`counted`], [`counted_args`], [`pod_vec`],
//!   [`records`], and for `(count, offset)` arrays [`count_offset`] and [`at_offset`]. Each checks
//!   the count against the bytes left **before** it allocates.
//! * Strings: [`LenString`] (u16 length + bytes), [`FixedString`] (`char[N]`, NUL-padded).
//! * Small value types: [`PackedNormal`].
//! * [`ByteWriter`]: the output buffer with back-patched offsets and alignment.
//!
//! Everything here is little-endian: all three formats are.

use std::io::{self, Read, Seek, SeekFrom};

use binrw::BinResult;
use binrw::error::ContextExt;

use crate::error::{PathPiece, ReadError, ReadErrorKind, custom};

#[cfg(not(target_endian = "little"))]
compile_error!(
    "relic's bulk readers copy little-endian file data straight into memory; big-endian hosts are not supported"
);

/// An in-memory input that records where a read first ran past the end of the data.
#[derive(Debug, Clone)]
pub struct Source<'a> {
    bytes: &'a [u8],
    pos: u64,
    eof_at: Option<u64>,
}

impl<'a> Source<'a> {
    /// A source over `bytes`, positioned at 0.
    pub fn new(bytes: &'a [u8]) -> Self {
        Self { bytes, pos: 0, eof_at: None }
    }

    /// The whole input.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// Current position.
    pub fn position(&self) -> u64 {
        self.pos
    }

    /// Bytes between the position and the end.
    pub fn remaining(&self) -> u64 {
        (self.bytes.len() as u64).saturating_sub(self.pos)
    }

    /// Where a read last failed for lack of data (the start of that read).
    pub fn eof_at(&self) -> Option<u64> {
        self.eof_at
    }
}

impl Read for Source<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let start = usize::try_from(self.pos).unwrap_or(usize::MAX).min(self.bytes.len());
        // start ≤ len (clamped above): never taken.
        let rest = self.bytes.get(start..).unwrap_or_default();
        let n = rest.len().min(buf.len());
        if let (Some(dst), Some(src)) = (buf.get_mut(..n), rest.get(..n)) {
            dst.copy_from_slice(src);
        }
        self.pos += n as u64;
        Ok(n)
    }

    fn read_exact(&mut self, buf: &mut [u8]) -> io::Result<()> {
        if (buf.len() as u64) > self.remaining() {
            self.eof_at = Some(self.pos);
            return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "unexpected end of file"));
        }
        self.read(buf).map(|_| ())
    }
}

impl Seek for Source<'_> {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let len = self.bytes.len() as i128;
        let target = match to {
            SeekFrom::Start(p) => i128::from(p),
            SeekFrom::End(d) => len + i128::from(d),
            SeekFrom::Current(d) => i128::from(self.pos) + i128::from(d),
        };
        // Seeking past the end is allowed (as for files); reading there fails with a position.
        self.pos = u64::try_from(target)
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "seek before the start of the file"))?;
        Ok(self.pos)
    }

    fn stream_position(&mut self) -> io::Result<u64> {
        Ok(self.pos)
    }
}

/// Runs `read` on a [`Source`] over `bytes` and converts a failure into a [`ReadError`].
pub fn parse<T>(bytes: &[u8], read: impl FnOnce(&mut Source<'_>) -> BinResult<T>) -> Result<T, ReadError> {
    let mut source = Source::new(bytes);
    read(&mut source).map_err(|e| ReadError::from_binrw(&e, source.eof_at()))
}

/// Bytes from the current position to the end of the stream.
pub fn remaining<R: Read + Seek>(reader: &mut R) -> BinResult<u64> {
    let pos = reader.stream_position()?;
    let end = reader.seek(SeekFrom::End(0))?;
    reader.seek(SeekFrom::Start(pos))?;
    Ok(end.saturating_sub(pos))
}

/// Fails with [`ReadErrorKind::CountTooLarge`] unless `count` records of at least `record_size`
/// bytes can still be read. Call it before allocating for `count` anything.
pub fn check_count<R: Read + Seek>(reader: &mut R, count: u64, record_size: u64) -> BinResult<()> {
    let pos = reader.stream_position()?;
    let left = remaining(reader)?;
    let needed = count.saturating_mul(record_size.max(1));
    if needed > left {
        return Err(custom(pos, ReadErrorKind::CountTooLarge { count, record_size: record_size.max(1), needed, left }));
    }
    Ok(())
}

/// Fails with [`ReadErrorKind::OffsetOutOfBounds`] unless `len` bytes can be read at the absolute
/// `target`. `pos` is where the offset field itself is (for the error).
pub fn check_span<R: Read + Seek>(reader: &mut R, pos: u64, target: u64, len: u64) -> BinResult<()> {
    let here = reader.stream_position()?;
    let file_len = reader.seek(SeekFrom::End(0))?;
    reader.seek(SeekFrom::Start(here))?;
    if target.checked_add(len).is_none_or(|end| end > file_len) {
        return Err(custom(pos, ReadErrorKind::OffsetOutOfBounds { target, len, file_len }));
    }
    Ok(())
}

/// Adds field `name` to an error raised while reading that field, as a typed frame that
/// [`crate::error`] turns into the field path (`Header.version`) a user sees.
pub fn in_field(error: binrw::Error, name: &str) -> binrw::Error {
    error.with_context(PathPiece::Field(name.to_string()))
}

/// Adds the element index to an error raised inside element `index` of an array.
pub fn in_element(error: binrw::Error, index: usize) -> binrw::Error {
    error.with_context(PathPiece::Element(index))
}

mod records;
mod strings;
mod writer;

pub use records::*;
pub use strings::*;
pub use writer::*;

/// Converts a binrw error into a [`ReadError`] when the source's end-of-file position is not known.
pub fn to_read_error(error: &binrw::Error) -> ReadError {
    ReadError::from_binrw(error, None)
}

#[cfg(test)]
mod tests;
