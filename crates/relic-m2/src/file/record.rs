//! Records stored in arrays, whose fields point to further blocks, and what walks those blocks.
//!
//! Which blocks a record points to, in field order, is said once per record type
//! ([`Record::visit`]); the writer's layout pass, the writer itself and the reader's overlap check
//! all walk a file through it.

use std::io::{Read, Seek};

use binrw::{BinRead, BinResult, BinWrite, Endian};
use bytemuck::Pod;
use relic_core::binary::{at_offset, counted_args};

use super::array::M2Array;
use super::layout::Layout;

/// A record type stored in an array, whose fields may point to further blocks.
pub(crate) trait Record: for<'a> BinWrite<Args<'a> = (&'a Layout,)> {
    /// `(count, offset)` pairs in one record (the blocks [`Record::visit`] visits).
    const PAIRS: usize;
    /// Bytes of one record in a file of `version`.
    fn size(version: u32) -> u64;
    /// Pairs of one record in a file of `version` (a 272 camera has one more track than 264's).
    fn pairs(version: u32) -> usize {
        let _ = version;
        Self::PAIRS
    }
    /// Visits the blocks the record's pairs point to, in field order.
    fn visit<'f, V: Visitor<'f>>(&'f self, v: &mut V);
}

/// A field holding a `(count, offset)` pair, for messages: its name and, inside a track, the
/// track's part (`translation` + `ranges`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Field {
    name: &'static str,
    part: &'static str,
}

impl Field {
    /// A field of a record.
    pub(crate) const fn new(name: &'static str) -> Self {
        Self { name, part: "" }
    }
    /// A part of a track field.
    pub(crate) const fn part(name: &'static str, part: &'static str) -> Self {
        Self { name, part }
    }
}

impl Field {
    /// The part of a track this field names (`timestamps`, `values`; empty for a whole field).
    pub(crate) fn part_name(&self) -> &'static str {
        self.part
    }
}

impl std::fmt::Display for Field {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.part.is_empty() { f.write_str(self.name) } else { write!(f, "{}.{}", self.name, self.part) }
    }
}

/// What walks the blocks of a file (`'f`: the file's borrow): placing them, listing them.
pub(crate) trait Visitor<'f> {
    /// A block of plain-old-data values.
    fn pod<T: Pod>(&mut self, field: Field, array: &'f M2Array<T>);
    /// A block of records, each of which may point to further blocks.
    fn records<R: Record>(&mut self, field: Field, array: &'f M2Array<R>);
    /// The timeline array of a per-sequence track (Wrath on): an outer block of `(count,
    /// offset)` pairs, each pointing at one sequence's keys. Only the Wrath writer places them;
    /// for any other walk it is one pair.
    #[inline]
    fn timelines<T: Pod>(&mut self, field: Field, outer: &'f M2Array<M2Array<T>>) {
        let _ = (field, outer);
        self.empty(1);
    }
    /// `pairs` pairs of empty blocks (a track without keys): nothing to place, write or list,
    /// but the layout pass counts their pairs.
    #[inline]
    fn empty(&mut self, pairs: usize) {
        let _ = pairs;
    }
}

/// `parse_with` reader for an `M2Array` of records read with binrw, each [`Record::size`] bytes
/// in a file of `version`. Args: `(version, record args)`.
pub(crate) fn record_array<R, T, A>(reader: &mut R, endian: Endian, (version, args): (u32, A)) -> BinResult<M2Array<T>>
where
    R: Read + Seek,
    A: Clone,
    T: Record + for<'a> BinRead<Args<'a> = A>,
{
    let size = T::size(version);
    let pos = reader.stream_position()?;
    let count = u32::read_options(reader, endian, ())?;
    let offset = u32::read_options(reader, endian, ())?;
    if count == 0 {
        return Ok(M2Array { items: Vec::new(), offset });
    }
    let len = u64::from(count).saturating_mul(size);
    let items =
        at_offset(reader, pos, u64::from(offset), len, |r| counted_args(r, endian, (u64::from(count), size, args)))?;
    Ok(M2Array { items, offset })
}
