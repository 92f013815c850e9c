//! `M2Array<T>` (the `(u32 count, u32 offset)` pair every M2 block hangs from), its bounded
//! readers, and the output buffer of the layout pass.

use std::io::{Read, Seek};
use std::ops::{Deref, DerefMut};

use binrw::{BinRead, BinResult, Endian};
use bytemuck::Pod;
use relic_core::binary::{at_offset, counted_args, pod_vec};

/// `M2Array<T>`: `u32 count, u32 offset` in a record; `count` records at the absolute `offset`.
///
/// Only the records take part in comparisons: the offset is where the file stored them, kept for
/// error messages and the layout check, and recomputed by the writer's layout pass.
#[derive(Clone)]
pub struct M2Array<T> {
    /// The records.
    pub items: Vec<T>,
    /// Absolute file offset the records were read from (0 for a built array).
    pub offset: u32,
}

impl<T> M2Array<T> {
    /// An array of `items` (offset 0: not read from a file).
    pub fn new(items: Vec<T>) -> Self {
        Self { items, offset: 0 }
    }
}

impl<T> Default for M2Array<T> {
    fn default() -> Self {
        Self::new(Vec::new())
    }
}

impl<T> From<Vec<T>> for M2Array<T> {
    fn from(items: Vec<T>) -> Self {
        Self::new(items)
    }
}

impl<T> Deref for M2Array<T> {
    type Target = Vec<T>;
    fn deref(&self) -> &Vec<T> {
        &self.items
    }
}

impl<T> DerefMut for M2Array<T> {
    fn deref_mut(&mut self) -> &mut Vec<T> {
        &mut self.items
    }
}

impl<T: PartialEq> PartialEq for M2Array<T> {
    fn eq(&self, other: &Self) -> bool {
        self.items == other.items
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for M2Array<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.items.fmt(f)
    }
}

impl<T: serde::Serialize> serde::Serialize for M2Array<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.items.serialize(s)
    }
}

impl<'de, T: serde::Deserialize<'de>> serde::Deserialize<'de> for M2Array<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Vec::<T>::deserialize(d).map(Self::new)
    }
}

/// Reads the `(count, offset)` pair at the current position.
fn pair<R: Read + Seek>(reader: &mut R, endian: Endian) -> BinResult<(u64, u32, u32)> {
    let pos = reader.stream_position()?;
    let count = u32::read_options(reader, endian, ())?;
    let offset = u32::read_options(reader, endian, ())?;
    Ok((pos, count, offset))
}

/// `parse_with` reader for an `M2Array` of plain-old-data records (one bounds check, one copy).
pub(crate) fn pod_array<R: Read + Seek, T: Pod>(reader: &mut R, endian: Endian, _: ()) -> BinResult<M2Array<T>> {
    pod_keys(reader, endian, (1,))
}

/// `parse_with` reader for an `M2Array` of plain-old-data values with `per_key` values per
/// counted entry (3 for Hermite/Bezier keys: value, in-tangent, out-tangent). Args: `(per_key,)`.
pub(crate) fn pod_keys<R: Read + Seek, T: Pod>(reader: &mut R, endian: Endian, args: (u64,)) -> BinResult<M2Array<T>> {
    let (pos, count, offset) = pair(reader, endian)?;
    if count == 0 {
        return Ok(M2Array { items: Vec::new(), offset });
    }
    let n = u64::from(count).saturating_mul(args.0);
    let len = n.saturating_mul(size_of::<T>() as u64);
    let items = at_offset(reader, pos, u64::from(offset), len, |r| pod_vec(r, endian, (n,)))?;
    Ok(M2Array { items, offset })
}

/// `parse_with` reader for an `M2Array` of records read with binrw. Args: `(record size, args)`.
pub(crate) fn record_array<R, T, A>(reader: &mut R, endian: Endian, args: (u64, A)) -> BinResult<M2Array<T>>
where
    R: Read + Seek,
    A: Clone,
    T: for<'a> BinRead<Args<'a> = A>,
{
    let (size, element_args) = args;
    let (pos, count, offset) = pair(reader, endian)?;
    if count == 0 {
        return Ok(M2Array { items: Vec::new(), offset });
    }
    let len = u64::from(count).saturating_mul(size);
    let items = at_offset(reader, pos, u64::from(offset), len, |r| {
        counted_args(r, endian, (u64::from(count), size, element_args))
    })?;
    Ok(M2Array { items, offset })
}

/// The output of the layout pass: one growing buffer with `(count, offset)` slots patched once
/// the block they point to has been placed.
#[derive(Debug, Default)]
pub(crate) struct Out {
    pub(crate) buf: Vec<u8>,
}

/// Every block starts on a 16-byte boundary, zero-padded (Blizzard's exporter does this).
pub(crate) const ALIGN: usize = 16;

impl Out {
    pub(crate) fn with_capacity(n: usize) -> Self {
        Self { buf: Vec::with_capacity(n) }
    }
    #[inline]
    pub(crate) fn u8(&mut self, v: u8) {
        self.buf.push(v);
    }
    #[inline]
    pub(crate) fn u16(&mut self, v: u16) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
    #[inline]
    pub(crate) fn i16(&mut self, v: i16) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
    #[inline]
    pub(crate) fn u32(&mut self, v: u32) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
    #[inline]
    pub(crate) fn i32(&mut self, v: i32) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
    #[inline]
    pub(crate) fn f32(&mut self, v: f32) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
    pub(crate) fn f32s(&mut self, v: &[f32]) {
        for x in v {
            self.f32(*x);
        }
    }
    pub(crate) fn bytes(&mut self, v: &[u8]) {
        self.buf.extend_from_slice(v);
    }
    /// Reserves a `(count, offset)` pair and returns its position.
    pub(crate) fn pair(&mut self) -> usize {
        let at = self.buf.len();
        self.buf.extend_from_slice(&[0; 8]);
        at
    }
    /// Pads with zeros to the next 16-byte boundary.
    pub(crate) fn align(&mut self) {
        let rem = self.buf.len() % ALIGN;
        if rem != 0 {
            self.buf.resize(self.buf.len() + ALIGN - rem, 0);
        }
    }
    /// Fills the pair at `at` with `count` and the current (aligned) position, or leaves it
    /// `(0, 0)` for an empty block. Returns false for an empty block.
    pub(crate) fn start_block(&mut self, at: usize, count: usize) -> bool {
        if count == 0 {
            return false;
        }
        self.align();
        let offset = self.buf.len() as u32;
        let mut pair = [0u8; 8];
        pair[..4].copy_from_slice(&(count as u32).to_le_bytes());
        pair[4..].copy_from_slice(&offset.to_le_bytes());
        if let Some(slot) = self.buf.get_mut(at..at.saturating_add(8)) {
            slot.copy_from_slice(&pair);
        }
        true
    }
    /// Writes a plain-old-data block for the pair at `at`; `count` is what the pair states.
    pub(crate) fn pod_block<T: Pod>(&mut self, at: usize, count: usize, items: &[T]) {
        if self.start_block(at, count) {
            self.buf.extend_from_slice(bytemuck::cast_slice(items));
        }
    }
}

/// A record with `(count, offset)` pairs: written in two steps, the fixed part (with placeholder
/// pairs whose positions go to `pairs`, in field order) and then, once every record of the array
/// is placed, the blocks those pairs point to (taking the positions back in the same order).
pub(crate) trait Put {
    /// Writes the record's own bytes; pushes the position of each of its pairs.
    fn fixed(&self, out: &mut Out, pairs: &mut Vec<usize>, version: u32);
    /// Writes the blocks of the pairs pushed by [`Put::fixed`], in the same order.
    fn children(&self, out: &mut Out, pairs: &mut dyn Iterator<Item = usize>, version: u32);
}

/// Writes an array of records and then their blocks (depth first, in field order).
pub(crate) fn put_records<T: Put>(out: &mut Out, at: usize, items: &[T], version: u32) {
    if !out.start_block(at, items.len()) {
        return;
    }
    let mut pairs = Vec::new();
    for item in items {
        item.fixed(out, &mut pairs, version);
    }
    let mut it = pairs.into_iter();
    for item in items {
        item.children(out, &mut it, version);
    }
}

/// Takes the next reserved pair (past the end of any buffer if the bookkeeping were ever off, so
/// that nothing is patched).
#[inline]
pub(crate) fn next(pairs: &mut dyn Iterator<Item = usize>) -> usize {
    pairs.next().unwrap_or(usize::MAX)
}
