//! Records stored in arrays, whose fields point to further blocks, and the walk over those
//! blocks.
//!
//! Which blocks a value points to, in field order, is said by its type ([`Walk`]): nothing for a
//! plain value, one block for an [`M2Array`] of plain-old-data values, a block of records (and
//! theirs) for an array of records, two or three blocks for a track. A record declared with
//! [`record!`] walks its fields in order, so its walk is derived from its fields, as xc3_write
//! derives its offsets from field attributes. The writer's layout pass, the writer itself and the
//! reader's overlap check all walk a file through it.

use std::io::{Read, Seek};

use binrw::{BinRead, BinResult, BinWrite, Endian};
use bytemuck::Pod;
use relic_core::binary::{at_offset, check_count, in_element};

use super::array::M2Array;
use super::ctx::Ctx;
use super::layout::Layout;

/// What a value points to: the blocks it walks, in field order (`name` is its field).
pub(crate) trait Walk {
    /// Visits the blocks the value points to.
    fn walk<'f, V: Visitor<'f>>(&'f self, name: &'static str, v: &mut V);
}

/// A record type stored in an array, whose fields may point to further blocks.
pub(crate) trait Record: Walk + for<'a> BinWrite<Args<'a> = (&'a Layout,)> {
    /// Bytes of one record in a file of `version`.
    fn size(version: u32) -> u64;
}

/// Declares a record: `size(version) = …;` (the record's bytes in a file of `version`,
/// [`Record::size`]), then the struct as written — binrw derives its reading and writing, serde
/// its JSON — whose [`Walk`] visits its fields in order, each as its type says, so the blocks a
/// record points to are the ones its fields name. An array of the record walks as a block of
/// records ([`Visitor::records`]).
///
/// The struct's tokens are passed on as they were given (binrw's generated code names its own
/// variables with their spans), and read a second time for the walk.
macro_rules! record {
    (size($version:ident) = $size:expr; $($item:tt)*) => {
        $($item)*
        $crate::file::record::record!(@impls ($version, $size) $($item)*);
    };
    (
        @impls ($version:ident, $size:expr)
        $(#[$attr:meta])*
        $vis:vis struct $name:ident $(<$k:ident: $bound:ident $(= $default:ty)?>)? {
            $( $(#[$fattr:meta])* $fvis:vis $field:ident : $fty:ty ),* $(,)?
        }
    ) => {
        impl $(<$k: $bound>)? $crate::file::record::Walk for $name $(<$k>)? {
            #[inline]
            fn walk<'f, V: $crate::file::record::Visitor<'f>>(&'f self, _: &'static str, v: &mut V) {
                $( $crate::file::record::Walk::walk(&self.$field, stringify!($field), v); )*
            }
        }

        impl $(<$k: $bound>)? $crate::file::record::Record for $name $(<$k>)? {
            fn size($version: u32) -> u64 {
                $size
            }
        }

        impl $(<$k: $bound>)? $crate::file::record::Walk for $crate::file::array::M2Array<$name $(<$k>)?> {
            #[inline]
            fn walk<'f, V: $crate::file::record::Visitor<'f>>(&'f self, name: &'static str, v: &mut V) {
                v.records($crate::file::record::Field::new(name), self);
            }
        }
    };
}
pub(crate) use record;

/// Walks the named fields of `$value` in the order given (a header, whose binrw reader holds a
/// temporary field [`record!`] would walk too).
macro_rules! walk_fields {
    ($value:expr, $v:expr; $($field:ident),* $(,)?) => {
        $( $crate::file::record::Walk::walk(&$value.$field, stringify!($field), $v); )*
    };
}
pub(crate) use walk_fields;

/// Declares values that point nowhere: their walk meets no block.
macro_rules! plain {
    ($($t:ty),*) => {
        $(impl $crate::file::record::Walk for $t {
            #[inline(always)]
            fn walk<'f, V: $crate::file::record::Visitor<'f>>(&'f self, _: &'static str, _: &mut V) {}
        })*
    };
}
pub(crate) use plain;

plain!(i8, u8, i16, u16, i32, u32, f32);

/// An array walks its elements in order (for plain values: nothing).
impl<T: Walk, const N: usize> Walk for [T; N] {
    #[inline(always)]
    fn walk<'f, V: Visitor<'f>>(&'f self, name: &'static str, v: &mut V) {
        for x in self {
            x.walk(name, v);
        }
    }
}

/// A field present in some versions walks when it is there.
impl<T: Walk> Walk for Option<T> {
    #[inline(always)]
    fn walk<'f, V: Visitor<'f>>(&'f self, name: &'static str, v: &mut V) {
        if let Some(x) = self {
            x.walk(name, v);
        }
    }
}

/// An array of plain-old-data values is one block.
impl<T: Pod> Walk for M2Array<T> {
    #[inline(always)]
    fn walk<'f, V: Visitor<'f>>(&'f self, name: &'static str, v: &mut V) {
        v.pod(Field::new(name), self);
    }
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

/// The `(count, offset)` pairs a value holds: its walk, counted.
pub(crate) fn pairs<W: Walk>(value: &W) -> usize {
    /// Counts every pair a walk meets, empty or not.
    struct Count(usize);
    impl Visitor<'_> for Count {
        fn pod<T: Pod>(&mut self, _: Field, _: &M2Array<T>) {
            self.0 += 1;
        }
        fn records<R: Record>(&mut self, _: Field, _: &M2Array<R>) {
            self.0 += 1;
        }
        fn empty(&mut self, pairs: usize) {
            self.0 += pairs;
        }
    }
    let mut count = Count(0);
    value.walk("", &mut count);
    count.0
}

/// An array of records: `count` records of `Record::size` bytes (in a file of the context's
/// version) at the pair's offset, each read with the file's [`Ctx`].
impl<T> BinRead for M2Array<T>
where
    T: Record + for<'a> BinRead<Args<'a> = (&'a Ctx,)>,
{
    type Args<'a> = (&'a Ctx,);

    fn read_options<R: Read + Seek>(reader: &mut R, endian: Endian, (ctx,): (&Ctx,)) -> BinResult<Self> {
        let size = T::size(ctx.version);
        let pos = reader.stream_position()?;
        let count = u32::read_options(reader, endian, ())?;
        let offset = u32::read_options(reader, endian, ())?;
        if count == 0 {
            return Ok(M2Array { items: Vec::new(), offset });
        }
        let len = u64::from(count).saturating_mul(size);
        let items = at_offset(reader, pos, u64::from(offset), len, |r| {
            check_count(r, u64::from(count), size)?;
            // The check above bounds the count by the input's length.
            let mut items = Vec::with_capacity(count as usize);
            for i in 0..count as usize {
                items.push(T::read_options(r, endian, (ctx,)).map_err(|e| in_element(e, i))?);
            }
            Ok(items)
        })?;
        Ok(M2Array { items, offset })
    }
}
