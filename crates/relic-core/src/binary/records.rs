//! Bounded readers for `#[br(parse_with = …)]` and fixed-size records decoded in bulk.

use std::io::{Read, Seek, SeekFrom, Write};

use binrw::{BinRead, BinResult, Endian};
use bytemuck::Pod;

use super::*;

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
