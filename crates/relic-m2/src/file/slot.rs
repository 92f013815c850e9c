//! The header fields one family has and the other has not (spec §2, m2-wrath.md §2.1): each is
//! a [`Slot`] of the header's [`TrackKind`](super::TrackKind), [`Absent`] in the family without
//! it, so that one header type lays out both.
//!
//! | field | 256–263 | 264 on |
//! |---|---|---|
//! | `playable_lookup` | `M2Array<PlayableAnimation>` | [`Absent`] |
//! | `views` | `M2Array<View>` (embedded) | [`Absent`] (`.skin` files) |
//! | `skin_profiles` | [`Absent`] | `u32`, the number of `.skin` files |
//! | `texture_flipbooks` | `[u32; 2]`, always `(0, 0)` | [`Absent`] |

use std::fmt::Debug;
use std::io::{Read, Seek, Write};

use binrw::{BinRead, BinResult, BinWrite, Endian};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::array::{M2Array, pod_array};
use super::ctx::Ctx;
use super::layout::Layout;
use super::mesh::View;
use super::record::Walk;
use super::sequence::PlayableAnimation;

/// A header field only one family has: read with the file's [`Ctx`], written with the writer's
/// [`Layout`], walked for the blocks it points to, carried in JSON where it is not [`Absent`].
// The walk is the crate's own (see `Part`).
#[allow(private_bounds)]
pub trait Slot: Walk + Debug + Clone + PartialEq + Default + Serialize + DeserializeOwned + Send + Sync {
    /// Reads the field at the reader's position.
    fn read_slot<R: Read + Seek>(reader: &mut R, endian: Endian, ctx: &Ctx) -> BinResult<Self>;
    /// Writes the field (its pair, for an array placed by the layout pass).
    fn write_slot<W: Write + Seek>(&self, writer: &mut W, endian: Endian, layout: &Layout) -> BinResult<()>;
    /// True for the field a family does not have (left out of the JSON).
    fn is_absent(&self) -> bool {
        false
    }
}

/// A header field the family does not have: no bytes, no block, no JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Absent;

super::record::plain!(Absent);

impl Slot for Absent {
    fn read_slot<R: Read + Seek>(_: &mut R, _: Endian, _: &Ctx) -> BinResult<Self> {
        Ok(Absent)
    }
    fn write_slot<W: Write + Seek>(&self, _: &mut W, _: Endian, _: &Layout) -> BinResult<()> {
        Ok(())
    }
    fn is_absent(&self) -> bool {
        true
    }
}

/// 256–263: the playable-animation lookup.
impl Slot for M2Array<PlayableAnimation> {
    fn read_slot<R: Read + Seek>(reader: &mut R, endian: Endian, _: &Ctx) -> BinResult<Self> {
        pod_array(reader, endian, ())
    }
    fn write_slot<W: Write + Seek>(&self, writer: &mut W, endian: Endian, layout: &Layout) -> BinResult<()> {
        self.write_options(writer, endian, (layout,))
    }
}

/// 256–263: the embedded views.
impl Slot for M2Array<View> {
    fn read_slot<R: Read + Seek>(reader: &mut R, endian: Endian, ctx: &Ctx) -> BinResult<Self> {
        Self::read_options(reader, endian, (ctx,))
    }
    fn write_slot<W: Write + Seek>(&self, writer: &mut W, endian: Endian, layout: &Layout) -> BinResult<()> {
        self.write_options(writer, endian, (layout,))
    }
}

/// 264 on: the number of `.skin` files.
impl Slot for u32 {
    fn read_slot<R: Read + Seek>(reader: &mut R, endian: Endian, _: &Ctx) -> BinResult<Self> {
        u32::read_options(reader, endian, ())
    }
    fn write_slot<W: Write + Seek>(&self, writer: &mut W, endian: Endian, _: &Layout) -> BinResult<()> {
        self.write_options(writer, endian, ())
    }
}

/// 256–263: the texture flipbooks' `(count, offset)`, never populated (record layout unknown).
/// A count of 0 is read as `(0, 0)` (the offset of that empty array means nothing, and the
/// layout pass writes every empty array so); any other count is refused, at the pair's offset.
impl Slot for [u32; 2] {
    fn read_slot<R: Read + Seek>(reader: &mut R, endian: Endian, _: &Ctx) -> BinResult<Self> {
        let pos = reader.stream_position()?;
        let [count, _] = <[u32; 2]>::read_options(reader, endian, ())?;
        if count != 0 {
            let message = format!("{count} texture flipbooks: their record layout is unknown (never seen populated)");
            return Err(relic_core::error::custom(pos, relic_core::ReadErrorKind::Invalid(message)));
        }
        Ok([0, 0])
    }
    fn write_slot<W: Write + Seek>(&self, writer: &mut W, endian: Endian, _: &Layout) -> BinResult<()> {
        self.write_options(writer, endian, ())
    }
}

/// `parse_with` reader of a slot.
pub(crate) fn read_slot<R: Read + Seek, S: Slot>(reader: &mut R, endian: Endian, (ctx,): (&Ctx,)) -> BinResult<S> {
    S::read_slot(reader, endian, ctx)
}

/// `write_with` writer of a slot.
pub(crate) fn write_slot<W: Write + Seek, S: Slot>(
    slot: &S,
    writer: &mut W,
    endian: Endian,
    (layout,): (&Layout,),
) -> BinResult<()> {
    slot.write_slot(writer, endian, layout)
}
