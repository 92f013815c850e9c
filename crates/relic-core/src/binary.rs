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

use std::io::{self, Read, Seek, SeekFrom, Write};

use binrw::error::ContextExt;
use binrw::{BinRead, BinResult, BinWrite, Endian};
use bytemuck::Pod;

use crate::error::{ReadError, ReadErrorKind, custom};

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

/// Adds "field `name` of record `within`" to an error raised while reading that field, in the
/// words binrw itself uses, so that [`crate::error`] turns it into the field path
/// (`Header.version`) a user sees.
pub fn in_field(error: binrw::Error, name: &str, within: &str) -> binrw::Error {
    error.with_message(format!("While parsing field '{name}' in {within}"))
}

/// Adds the element index to an error raised inside element `index` of an array.
pub fn in_element(error: binrw::Error, index: usize) -> binrw::Error {
    error.with_message(format!("[{index}]"))
}

/// `parse_with` reader for `count` records of a type without arguments, each at least
/// `min_record_size` bytes on disk. Args: `(count, min_record_size)`.
pub fn counted<R: Read + Seek, T>(reader: &mut R, endian: Endian, args: (u64, u64)) -> BinResult<Vec<T>>
where
    T: for<'a> BinRead<Args<'a> = ()>,
{
    counted_args(reader, endian, (args.0, args.1, ()))
}

/// `parse_with` reader for `count` records that take (cloneable) arguments.
/// Args: `(count, min_record_size, element_args)`.
pub fn counted_args<R: Read + Seek, T, A>(reader: &mut R, endian: Endian, args: (u64, u64, A)) -> BinResult<Vec<T>>
where
    A: Clone,
    T: for<'a> BinRead<Args<'a> = A>,
{
    let (count, min_record_size, element_args) = args;
    check_count(reader, count, min_record_size)?;
    // The check above bounds count by the input length, so this allocation is bounded too.
    let mut out = Vec::with_capacity(count as usize);
    for index in 0..count as usize {
        out.push(T::read_options(reader, endian, element_args.clone()).map_err(|e| in_element(e, index))?);
    }
    Ok(out)
}

/// `parse_with` bulk reader for plain-old-data records whose memory layout equals their
/// little-endian file layout (`[f32; 3]`, `[u16; 3]`, `#[repr(C)]` Pod structs): one bounds
/// check, one copy. Args: `(count,)`.
pub fn pod_vec<R: Read + Seek, T: Pod>(reader: &mut R, _endian: Endian, args: (u64,)) -> BinResult<Vec<T>> {
    let (count,) = args;
    check_count(reader, count, size_of::<T>() as u64)?;
    let mut out = vec![T::zeroed(); count as usize];
    reader.read_exact(bytemuck::cast_slice_mut(&mut out))?;
    Ok(out)
}

/// `parse_with` reader for everything from the current position to the end of the input, in one
/// copy (data kept as bytes: texture mip data, unknown trailing blocks). Bounded by the input.
pub fn rest_of_file<R: Read + Seek>(reader: &mut R, _endian: Endian, _: ()) -> BinResult<Vec<u8>> {
    let left = remaining(reader)?;
    pod_vec(reader, Endian::Little, (left,))
}

/// Writes a slice of plain-old-data records in one call (the inverse of [`pod_vec`]).
pub fn write_pod<W: Write, T: Pod>(writer: &mut W, items: &[T]) -> BinResult<()> {
    writer.write_all(bytemuck::cast_slice(items))?;
    Ok(())
}

/// `write_with` adapter for [`write_pod`] on a `Vec` field.
#[allow(clippy::ptr_arg)] // binrw hands `write_with` functions a reference to the field's own type.
pub fn write_pod_field<T: Pod, W: Write + Seek>(items: &Vec<T>, writer: &mut W, _: Endian, _: ()) -> BinResult<()> {
    write_pod(writer, items)
}

/// A fixed-size record decoded from (and encoded to) its exact bytes, for arrays too large to read
/// field by field and not plain-old-data (mixed or packed fields).
pub trait Record: Sized {
    /// Size of one record on disk.
    const SIZE: usize;
    /// Decodes one record from exactly [`Record::SIZE`] bytes.
    fn decode(fields: &mut Fields<'_>) -> Self;
    /// Appends the record's [`Record::SIZE`] bytes.
    fn encode(&self, out: &mut Vec<u8>);
}

/// `parse_with` bulk reader for [`Record`] arrays: one bounds check, one copy, a `chunks_exact`
/// decode. Args: `(count,)`.
pub fn records<R: Read + Seek, T: Record>(reader: &mut R, _endian: Endian, args: (u64,)) -> BinResult<Vec<T>> {
    let (count,) = args;
    check_count(reader, count, T::SIZE as u64)?;
    let mut raw = vec![0u8; count as usize * T::SIZE];
    reader.read_exact(&mut raw)?;
    Ok(raw.chunks_exact(T::SIZE).map(|chunk| T::decode(&mut Fields::new(chunk))).collect())
}

/// `write_with` adapter for [`write_records`] on a `Vec` field.
#[allow(clippy::ptr_arg)] // binrw hands `write_with` functions a reference to the field's own type.
pub fn write_records_field<T: Record, W: Write + Seek>(
    items: &Vec<T>,
    writer: &mut W,
    _: Endian,
    _: (),
) -> BinResult<()> {
    write_records(writer, items)
}

/// Writes a [`Record`] array (the inverse of [`records`]).
pub fn write_records<W: Write, T: Record>(writer: &mut W, items: &[T]) -> BinResult<()> {
    let mut raw = Vec::with_capacity(items.len() * T::SIZE);
    for item in items {
        item.encode(&mut raw);
    }
    writer.write_all(&raw)?;
    Ok(())
}

/// A little-endian field decoder over one record's bytes. Reading past the end yields zeros;
/// [`records`] always hands it exactly [`Record::SIZE`] bytes, so that never happens there.
#[derive(Debug)]
pub struct Fields<'a> {
    rest: &'a [u8],
}

impl<'a> Fields<'a> {
    /// A decoder over `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Self { rest: bytes }
    }

    /// The next `N` bytes.
    #[inline]
    pub fn bytes<const N: usize>(&mut self) -> [u8; N] {
        match self.rest.split_first_chunk::<N>() {
            Some((head, tail)) => {
                self.rest = tail;
                *head
            }
            None => {
                self.rest = &[];
                [0; N]
            }
        }
    }

    /// Next u8.
    #[inline]
    pub fn u8(&mut self) -> u8 {
        u8::from_le_bytes(self.bytes())
    }
    /// Next i8.
    #[inline]
    pub fn i8(&mut self) -> i8 {
        i8::from_le_bytes(self.bytes())
    }
    /// Next u16.
    #[inline]
    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes(self.bytes())
    }
    /// Next i16.
    #[inline]
    pub fn i16(&mut self) -> i16 {
        i16::from_le_bytes(self.bytes())
    }
    /// Next u32.
    #[inline]
    pub fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.bytes())
    }
    /// Next i32.
    #[inline]
    pub fn i32(&mut self) -> i32 {
        i32::from_le_bytes(self.bytes())
    }
    /// Next f32.
    #[inline]
    pub fn f32(&mut self) -> f32 {
        f32::from_le_bytes(self.bytes())
    }
    /// Next `N` f32s.
    #[inline]
    pub fn f32s<const N: usize>(&mut self) -> [f32; N] {
        std::array::from_fn(|_| self.f32())
    }
}

/// Little-endian appends for [`Record::encode`].
pub trait PutLe {
    /// Appends a value's little-endian bytes.
    fn put<const N: usize>(&mut self, bytes: [u8; N]);
    /// Appends f32s.
    fn put_f32s(&mut self, values: &[f32]);
}

impl PutLe for Vec<u8> {
    #[inline]
    fn put<const N: usize>(&mut self, bytes: [u8; N]) {
        self.extend_from_slice(&bytes);
    }
    #[inline]
    fn put_f32s(&mut self, values: &[f32]) {
        for v in values {
            self.extend_from_slice(&v.to_le_bytes());
        }
    }
}

/// A string stored as `u16 length` + that many bytes, no terminator (LithTech ABC).
/// The bytes are kept as stored (Windows-1252 in practice); see [`crate::text`] for decoding.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct LenString(pub Vec<u8>);

impl LenString {
    /// The string's bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
    /// Decodes the bytes as Windows-1252 (every byte maps to one char).
    pub fn to_text(&self) -> String {
        crate::text::decode_cp1252(&self.0)
    }
    /// Encodes `text` as Windows-1252; `None` if it has a character outside that code page.
    pub fn from_text(text: &str) -> Option<Self> {
        crate::text::encode_cp1252(text).map(Self)
    }
}

impl std::fmt::Debug for LenString {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.to_text())
    }
}

impl From<&str> for LenString {
    /// Windows-1252 encoding; characters outside it become `?`.
    fn from(text: &str) -> Self {
        Self(text.chars().map(|c| crate::text::encode_cp1252_char(c).unwrap_or(b'?')).collect())
    }
}

impl BinRead for LenString {
    type Args<'a> = ();
    fn read_options<R: Read + Seek>(reader: &mut R, endian: Endian, _: ()) -> BinResult<Self> {
        let len = u16::read_options(reader, endian, ())?;
        check_count(reader, u64::from(len), 1)?;
        let mut bytes = vec![0; usize::from(len)];
        reader.read_exact(&mut bytes)?;
        Ok(Self(bytes))
    }
}

impl BinWrite for LenString {
    type Args<'a> = ();
    fn write_options<W: Write + Seek>(&self, writer: &mut W, endian: Endian, _: ()) -> BinResult<()> {
        let pos = writer.stream_position()?;
        let len = u16::try_from(self.0.len()).map_err(|_| {
            custom(pos, ReadErrorKind::Invalid(format!("string of {} bytes does not fit a u16 length", self.0.len())))
        })?;
        len.write_options(writer, endian, ())?;
        writer.write_all(&self.0)?;
        Ok(())
    }
}

/// A `char[N]` field: text up to the first NUL, then padding. The raw bytes are kept so that
/// junk after the NUL (old tools left uninitialised memory there) is written back unchanged.
#[derive(Clone, Copy, PartialEq, Eq, Hash, BinRead, BinWrite)]
pub struct FixedString<const N: usize>(pub [u8; N]);

impl<const N: usize> FixedString<N> {
    /// The bytes before the first NUL (all `N` if there is none).
    pub fn text_bytes(&self) -> &[u8] {
        let end = self.0.iter().position(|&b| b == 0).unwrap_or(N);
        self.0.get(..end).unwrap_or_default()
    }
    /// The text, decoded as Windows-1252.
    pub fn to_text(&self) -> String {
        crate::text::decode_cp1252(self.text_bytes())
    }
    /// A NUL-padded field holding `text`; `None` if it does not fit (N − 1 bytes at most, so a NUL
    /// always follows) or has a character outside Windows-1252.
    pub fn from_text(text: &str) -> Option<Self> {
        let bytes = crate::text::encode_cp1252(text)?;
        if bytes.len() >= N {
            return None;
        }
        let mut out = [0u8; N];
        out.get_mut(..bytes.len())?.copy_from_slice(&bytes);
        Some(Self(out))
    }
}

impl<const N: usize> Default for FixedString<N> {
    fn default() -> Self {
        Self([0; N])
    }
}

impl<const N: usize> std::fmt::Debug for FixedString<N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.to_text())
    }
}

/// A unit vector packed into three signed bytes scaled to length ~127 (LithTech v6 normals).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, BinRead, BinWrite)]
pub struct PackedNormal(pub [i8; 3]);

impl PackedNormal {
    /// Decodes to a unit vector; `None` for the all-zero code (no normal stored).
    pub fn decode(self) -> Option<[f32; 3]> {
        let v = self.0.map(|c| f32::from(c) / 127.0);
        crate::math::normalize3(v)
    }
    /// Encodes a unit vector (rounded to the nearest code; components clamped to ±127).
    pub fn encode(n: [f32; 3]) -> Self {
        Self(n.map(|c| (c * 127.0).round().clamp(-127.0, 127.0) as i8))
    }
}

/// A growable little-endian output buffer that can reserve a field and fill it in later.
#[derive(Debug, Default, Clone)]
pub struct ByteWriter {
    bytes: Vec<u8>,
    pos: usize,
}

/// A reserved `u32` slot in a [`ByteWriter`], to be filled by [`ByteWriter::patch_u32`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[must_use = "a reserved slot must be patched"]
pub struct Slot(usize);

impl ByteWriter {
    /// An empty buffer.
    pub fn new() -> Self {
        Self::default()
    }
    /// An empty buffer with room for `capacity` bytes.
    pub fn with_capacity(capacity: usize) -> Self {
        Self { bytes: Vec::with_capacity(capacity), pos: 0 }
    }
    /// Bytes written so far.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }
    /// True if nothing was written.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }
    /// The buffer.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }
    /// The buffer so far.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }
    /// Writes a zero `u32` at the end and returns its slot.
    pub fn reserve_u32(&mut self) -> Slot {
        self.pos = self.bytes.len();
        let slot = Slot(self.pos);
        self.append(&[0; 4]);
        slot
    }
    /// Fills a reserved slot.
    pub fn patch_u32(&mut self, slot: Slot, value: u32) {
        if let Some(dst) = self.bytes.get_mut(slot.0..slot.0 + 4) {
            dst.copy_from_slice(&value.to_le_bytes());
        }
    }
    /// Appends bytes at the end.
    pub fn append(&mut self, data: &[u8]) {
        self.pos = self.bytes.len();
        self.bytes.extend_from_slice(data);
        self.pos = self.bytes.len();
    }
    /// Pads with zeros up to a multiple of `alignment`.
    pub fn align(&mut self, alignment: usize) {
        let rem = self.bytes.len() % alignment.max(1);
        if rem != 0 {
            self.bytes.resize(self.bytes.len() + alignment - rem, 0);
        }
        self.pos = self.bytes.len();
    }
    /// Writes a value with its binrw writer at the end.
    pub fn write<T>(&mut self, value: &T) -> BinResult<()>
    where
        T: for<'a> BinWrite<Args<'a> = ()>,
    {
        self.pos = self.bytes.len();
        value.write_options(self, Endian::Little, ())
    }
}

impl Write for ByteWriter {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        let end = self.pos + data.len();
        if self.pos == self.bytes.len() {
            self.bytes.extend_from_slice(data);
        } else {
            if end > self.bytes.len() {
                self.bytes.resize(end, 0);
            }
            if let Some(dst) = self.bytes.get_mut(self.pos..end) {
                dst.copy_from_slice(data);
            }
        }
        self.pos = end;
        Ok(data.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Seek for ByteWriter {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let len = self.bytes.len() as i128;
        let target = match to {
            SeekFrom::Start(p) => i128::from(p),
            SeekFrom::End(d) => len + i128::from(d),
            SeekFrom::Current(d) => self.pos as i128 + i128::from(d),
        };
        self.pos = usize::try_from(target)
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "seek before the start of the buffer"))?;
        Ok(self.pos as u64)
    }
}

/// Reads `T` at the absolute `offset` and returns to where the reader was.
pub fn read_at<R: Read + Seek, T>(
    reader: &mut R,
    offset: u64,
    read: impl FnOnce(&mut R) -> BinResult<T>,
) -> BinResult<T> {
    let back = reader.stream_position()?;
    reader.seek(SeekFrom::Start(offset))?;
    let value = read(reader);
    reader.seek(SeekFrom::Start(back))?;
    value
}

/// Runs `read` at the absolute `offset` once [`check_span`] has confirmed that `len` bytes exist
/// there, then returns to where the reader was. `field_pos` is where the offset field itself lies
/// (named in the error). The building block for `(count, offset)` arrays such as M2's `M2Array`:
/// `at_offset(r, pos, offset, count * SIZE, |r| records(r, endian, (count,)))`.
pub fn at_offset<R: Read + Seek, T>(
    reader: &mut R,
    field_pos: u64,
    offset: u64,
    len: u64,
    read: impl FnOnce(&mut R) -> BinResult<T>,
) -> BinResult<T> {
    check_span(reader, field_pos, offset, len)?;
    read_at(reader, offset, read)
}

/// `parse_with` reader for a `(u32 count, u32 offset)` pair and the `count` records (each at least
/// `min_record_size` bytes) it points to; the reader ends just after the pair. Refuses a count or
/// offset that would run past the end of the file before allocating. Args:
/// `(min_record_size, element_args)`.
pub fn count_offset<R: Read + Seek, T, A>(reader: &mut R, endian: Endian, args: (u64, A)) -> BinResult<Vec<T>>
where
    A: Clone,
    T: for<'a> BinRead<Args<'a> = A>,
{
    let (min_record_size, element_args) = args;
    let field_pos = reader.stream_position()?;
    let count = u32::read_options(reader, endian, ())?;
    let offset = u32::read_options(reader, endian, ())?;
    let len = u64::from(count).saturating_mul(min_record_size.max(1));
    at_offset(reader, field_pos, u64::from(offset), len, |r| {
        counted_args(r, endian, (u64::from(count), min_record_size, element_args))
    })
}

/// Converts a binrw error into a [`ReadError`] when the source's end-of-file position is not known.
pub fn to_read_error(error: &binrw::Error) -> ReadError {
    ReadError::from_binrw(error, None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use binrw::BinReaderExt;

    #[derive(Debug, BinRead)]
    #[br(little)]
    #[allow(dead_code)]
    struct Item {
        n: u32,
        #[br(parse_with = counted, args(u64::from(n), 2))]
        values: Vec<u16>,
    }

    #[derive(Debug, BinRead)]
    #[br(little)]
    #[allow(dead_code)]
    struct List {
        count: u32,
        #[br(parse_with = counted, args(u64::from(count), 4))]
        items: Vec<Item>,
    }

    #[test]
    fn hostile_count_is_refused_before_allocating() {
        // count = 2^31 records of ≥ 4 bytes in a 12-byte file: refused with the sizes.
        let mut bytes = vec![];
        bytes.extend_from_slice(&(1u32 << 31).to_le_bytes());
        bytes.extend_from_slice(&[0; 8]);
        let err = parse(&bytes, |s| s.read_le::<List>()).unwrap_err();
        assert_eq!(err.offset, 4);
        assert_eq!(err.kind, ReadErrorKind::CountTooLarge { count: 1 << 31, record_size: 4, needed: 1 << 33, left: 8 });
        assert_eq!(err.path, "items");
    }

    #[test]
    fn pod_vec_refuses_hostile_count() {
        let bytes = [0u8; 16];
        let err = parse(&bytes, |s| pod_vec::<_, [f32; 3]>(s, Endian::Little, (1 << 31,))).unwrap_err();
        assert!(matches!(err.kind, ReadErrorKind::CountTooLarge { count: 2147483648, record_size: 12, .. }));
        let err = parse(&bytes, |s| pod_vec::<_, u8>(s, Endian::Little, (u64::from(u32::MAX),))).unwrap_err();
        assert!(matches!(err.kind, ReadErrorKind::CountTooLarge { .. }));
    }

    #[test]
    fn error_path_names_fields_and_indices() {
        // Two items; the second says 3 values but the file ends after one.
        let mut bytes = vec![];
        for v in [2u32, 1] {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
        bytes.extend_from_slice(&7u16.to_le_bytes());
        bytes.extend_from_slice(&3u32.to_le_bytes());
        bytes.extend_from_slice(&7u16.to_le_bytes());
        bytes.extend_from_slice(&[0; 2]);
        let err = parse(&bytes, |s| s.read_le::<List>()).unwrap_err();
        assert_eq!(err.path, "items[1].values");
        assert_eq!(err.offset, 14);
        assert!(matches!(err.kind, ReadErrorKind::CountTooLarge { count: 3, record_size: 2, needed: 6, left: 4 }));
        assert_eq!(
            err.to_string(),
            "items[1].values: count 3 of 2-byte records needs 6 bytes but only 4 are left (at byte 0xe)"
        );
    }

    #[test]
    fn truncation_reports_the_field_offset() {
        #[derive(Debug, BinRead)]
        #[br(little)]
        #[allow(dead_code)]
        struct Pair {
            a: u16,
            b: u32,
        }
        // `b` starts at byte 2 and is cut after 2 of its 4 bytes.
        let err = parse(&[1u8, 0, 5, 0], |s| s.read_le::<Pair>()).unwrap_err();
        assert_eq!(err.kind, ReadErrorKind::Truncated);
        assert_eq!(err.offset, 2);
        assert_eq!(err.path, "b");
        // A count that fits the bytes left passes the bound check; the cut shows up in the field.
        let err = parse(&[1u8, 0, 0, 0, 1, 0, 0, 0, 9], |s| s.read_le::<List>()).unwrap_err();
        assert_eq!(err.kind, ReadErrorKind::CountTooLarge { count: 1, record_size: 2, needed: 2, left: 1 });
        assert_eq!(err.path, "items[0].values");
    }

    #[test]
    fn len_string_round_trip_and_bounds() {
        let bytes = [3u8, 0, b'a', 0xE9, b'c'];
        let s = parse(&bytes, |s| s.read_le::<LenString>()).unwrap();
        assert_eq!(s.to_text(), "aéc");
        let mut w = ByteWriter::new();
        w.write(&s).unwrap();
        assert_eq!(w.as_bytes(), &bytes);
        let err = parse(&[0xFF, 0xFF, b'a'], |s| s.read_le::<LenString>()).unwrap_err();
        assert!(matches!(err.kind, ReadErrorKind::CountTooLarge { count: 65535, .. }));
    }

    #[test]
    fn fixed_string_keeps_junk_after_nul() {
        let mut raw = [0xCDu8; 8];
        raw[..3].copy_from_slice(b"ab\0");
        let s = FixedString(raw);
        assert_eq!(s.to_text(), "ab");
        assert_eq!(FixedString::<4>::from_text("abc").unwrap().0, *b"abc\0");
        assert!(FixedString::<4>::from_text("abcd").is_none());
    }

    #[test]
    fn records_decode_and_encode() {
        #[derive(Debug, PartialEq)]
        struct R {
            a: u16,
            b: f32,
        }
        impl Record for R {
            const SIZE: usize = 6;
            fn decode(f: &mut Fields<'_>) -> Self {
                Self { a: f.u16(), b: f.f32() }
            }
            fn encode(&self, out: &mut Vec<u8>) {
                out.put(self.a.to_le_bytes());
                out.put(self.b.to_le_bytes());
            }
        }
        let mut bytes = vec![];
        for (a, b) in [(1u16, 0.5f32), (2, -1.0)] {
            bytes.extend_from_slice(&a.to_le_bytes());
            bytes.extend_from_slice(&b.to_le_bytes());
        }
        let v = parse(&bytes, |s| records::<_, R>(s, Endian::Little, (2,))).unwrap();
        assert_eq!(v, vec![R { a: 1, b: 0.5 }, R { a: 2, b: -1.0 }]);
        let mut w = ByteWriter::new();
        write_records(&mut w, &v).unwrap();
        assert_eq!(w.as_bytes(), &bytes);
        let err = parse(&bytes, |s| records::<_, R>(s, Endian::Little, (3,))).unwrap_err();
        assert!(matches!(err.kind, ReadErrorKind::CountTooLarge { count: 3, record_size: 6, needed: 18, left: 12 }));
    }

    #[test]
    fn writer_patches_and_aligns() {
        let mut w = ByteWriter::new();
        w.append(b"MD20");
        let slot = w.reserve_u32();
        w.append(b"x");
        w.align(16);
        let at = w.len() as u32;
        w.append(b"data");
        w.patch_u32(slot, at);
        assert_eq!(&w.as_bytes()[4..8], &16u32.to_le_bytes());
        assert_eq!(w.len(), 20);
    }

    #[test]
    fn packed_normal() {
        let n = PackedNormal([0, 127, 0]).decode().unwrap();
        assert_eq!(n, [0.0, 1.0, 0.0]);
        assert_eq!(PackedNormal::encode([0.0, -1.0, 0.0]).0, [0, -127, 0]);
        assert!(PackedNormal([0, 0, 0]).decode().is_none());
    }

    #[test]
    fn count_offset_reads_and_refuses() {
        // (count 2, offset 8) then junk, then two u16 at 8.
        let bytes = [2u8, 0, 0, 0, 8, 0, 0, 0, 7, 0, 9, 0];
        let read = |b: &[u8]| parse(b, |s| count_offset::<_, u16, ()>(s, Endian::Little, (2, ())));
        assert_eq!(read(&bytes).unwrap(), vec![7, 9]);
        // An offset past the end names the pair's position and the span.
        let mut far = bytes;
        far[4] = 11;
        let err = read(&far).unwrap_err();
        assert_eq!(err.offset, 0);
        assert_eq!(err.kind, ReadErrorKind::OffsetOutOfBounds { target: 11, len: 4, file_len: 12 });
        // A hostile count is refused before allocating.
        let mut huge = bytes;
        huge[..4].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(read(&huge).unwrap_err().kind, ReadErrorKind::OffsetOutOfBounds { .. }));
    }

    #[test]
    fn rest_of_file_takes_what_is_left() {
        let bytes = [1u8, 2, 3, 4, 5];
        let rest = parse(&bytes, |s| {
            s.seek(SeekFrom::Start(2))?;
            rest_of_file(s, Endian::Little, ())
        })
        .unwrap();
        assert_eq!(rest, [3, 4, 5]);
    }

    #[test]
    fn span_check() {
        let bytes = [0u8; 10];
        let err = parse(&bytes, |s| check_span(s, 2, 8, 4)).unwrap_err();
        assert_eq!(err.kind, ReadErrorKind::OffsetOutOfBounds { target: 8, len: 4, file_len: 10 });
        assert_eq!(err.offset, 2);
        let err = parse(&bytes, |s| check_span(s, 0, u64::MAX, 1)).unwrap_err();
        assert!(matches!(err.kind, ReadErrorKind::OffsetOutOfBounds { .. }));
    }
}
