//! The writer: one layout pass, then the bytes front to back.
//!
//! Blizzard's exporter (spec §1, measured on the real 1.12 file) writes the header, then every
//! block the header points to in header order, each record array immediately followed by the
//! blocks its records point to (record by record, field by field, depth first), every block on a
//! 16-byte boundary with zero padding, an empty block as `(0, 0)`, the file padded to 16 bytes.
//!
//! [`Layout::of`] walks the file once in that order and gives every block its position and every
//! `(count, offset)` pair its offset. The writer then walks the same way and writes the header
//! and each record with the `BinWrite` derived on its type — the type that reads it — whose
//! [`M2Array`] fields take their offsets from the layout in the order they are met, and each
//! block of plain-old-data records in one copy. Nothing is patched afterwards and nothing seeks.
//! (xc3_write writes placeholder offsets and patches them once the data is placed; here the
//! positions are known before the first byte is written.)
//!

use std::cell::Cell;
use std::io::{Cursor, Write};

use binrw::{BinResult, BinWrite, Endian};
use bytemuck::Pod;
use relic_core::WriteError;

use super::array::M2Array;
use super::header::M2File;
use super::layout::Layout;
use super::record::{Field, Record, Visitor};

/// Every block starts on a 16-byte boundary, zero-padded (Blizzard's exporter does this).
const ALIGN: u64 = 16;

impl Layout {
    /// Places every block of `file` (an error if the file would outgrow the u32 offsets).
    pub(crate) fn of(file: &M2File) -> Result<Self, WriteError> {
        let header = file.header_size();
        let mut place = Place {
            layout: Layout {
                version: file.version,
                pairs: vec![0; file.header_pairs()],
                starts: Vec::new(),
                size: 0,
                next: Cell::new(0),
            },
            cursor: 0,
            end: header,
            error: None,
        };
        file.visit(&mut place);
        if let Some(e) = place.error {
            return Err(e);
        }
        let size = align(place.end);
        place.layout.size = u32::try_from(size).map_err(|_| too_large(size))?;
        Ok(place.layout)
    }
}

fn align(at: u64) -> u64 {
    at.div_ceil(ALIGN) * ALIGN
}

fn too_large(size: u64) -> WriteError {
    WriteError::DoesNotFit { field: "M2 file size".into(), value: size, ty: "u32" }
}

/// The layout pass: gives each block the next 16-byte boundary after the one before it.
struct Place {
    layout: Layout,
    /// The pair the next visited block fills.
    cursor: usize,
    /// The end of the last block placed.
    end: u64,
    error: Option<WriteError>,
}

impl Place {
    /// Places a block of `count` records, `bytes` long, for the next pair; its offset if placed.
    fn block(&mut self, field: Field, count: usize, bytes: u64) -> Option<u32> {
        let slot = self.cursor;
        self.cursor += 1;
        if count == 0 || self.error.is_some() {
            return None;
        }
        if u32::try_from(count).is_err() {
            self.error = Some(WriteError::DoesNotFit { field: field.to_string(), value: count as u64, ty: "u32" });
            return None;
        }
        let at = align(self.end);
        let Ok(offset) = u32::try_from(at) else {
            self.error = Some(too_large(at));
            return None;
        };
        if let Some(pair) = self.layout.pairs.get_mut(slot) {
            *pair = offset;
        }
        self.layout.starts.push(offset);
        self.end = at.saturating_add(bytes);
        Some(offset)
    }
}

impl Visitor for Place {
    fn pod<T: Pod>(&mut self, field: Field, array: &M2Array<T>) {
        self.block(field, array.len(), (array.len() * size_of::<T>()) as u64);
    }

    fn records<R: Record>(&mut self, field: Field, array: &M2Array<R>) {
        let n = array.len();
        let bytes = (n as u64).saturating_mul(R::size(self.layout.version));
        if self.block(field, n, bytes).is_none() {
            return;
        }
        // The records' own pairs come next in the writer's order: they are written with the
        // records, before any block placed from here on.
        let base = self.layout.pairs.len();
        self.layout.pairs.resize(base + n * R::PAIRS, 0);
        let outer = std::mem::replace(&mut self.cursor, base);
        for record in array.iter() {
            record.visit(self);
        }
        debug_assert_eq!(self.cursor, base + n * R::PAIRS, "{field}: Record::PAIRS disagrees with Record::visit");
        self.cursor = outer;
    }
}

/// Writes `file` with its layout.
pub(crate) fn write(file: &M2File) -> Result<Vec<u8>, WriteError> {
    let layout = Layout::of(file)?;
    let mut put =
        Put { out: Cursor::new(Vec::with_capacity(layout.size as usize)), layout: &layout, block: 0, error: None };
    let header = file.write_options(&mut put.out, Endian::Little, (&layout,));
    put.result(header);
    file.visit(&mut put);
    put.pad_to(u64::from(layout.size));
    if let Some(e) = put.error {
        return Err(WriteError::from_binrw(&e));
    }
    if layout.next.get() != layout.pairs.len() || put.block != layout.starts.len() {
        return Err(internal(format!(
            "the writer met {} of {} pairs and {} of {} blocks",
            layout.next.get(),
            layout.pairs.len(),
            put.block,
            layout.starts.len()
        )));
    }
    Ok(put.out.into_inner())
}

fn internal(message: String) -> WriteError {
    WriteError::Io { path: "M2File".into(), message: format!("layout and writer disagree: {message}") }
}

/// The writer: each block at the position the layout gave it.
struct Put<'l> {
    out: Cursor<Vec<u8>>,
    layout: &'l Layout,
    /// The next block of [`Layout::starts`].
    block: usize,
    error: Option<binrw::Error>,
}

impl Put<'_> {
    fn result(&mut self, result: BinResult<()>) {
        if let (Err(e), None) = (result, &self.error) {
            self.error = Some(e);
        }
    }

    /// Zero bytes up to `at` (where the layout put the next block).
    fn pad_to(&mut self, at: u64) {
        let here = self.out.position();
        if here > at {
            let message = format!("a block placed at {at:#x} would start at {here:#x}");
            self.result(Err(binrw::Error::AssertFail { pos: here, message }));
            return;
        }
        let at = at as usize;
        self.out.get_mut().resize(at, 0);
        self.out.set_position(at as u64);
    }

    /// Pads to the next block's position.
    fn start_block(&mut self) -> bool {
        let Some(&at) = self.layout.starts.get(self.block) else {
            self.result(Err(binrw::Error::AssertFail {
                pos: self.out.position(),
                message: "a block the layout did not place".into(),
            }));
            return false;
        };
        self.block += 1;
        self.pad_to(u64::from(at));
        self.error.is_none()
    }
}

impl Visitor for Put<'_> {
    fn pod<T: Pod>(&mut self, _: Field, array: &M2Array<T>) {
        if array.is_empty() || !self.start_block() {
            return;
        }
        let written = self.out.write_all(bytemuck::cast_slice(&array.items));
        self.result(written.map_err(binrw::Error::Io));
    }

    fn records<R: Record>(&mut self, field: Field, array: &M2Array<R>) {
        if array.is_empty() || !self.start_block() {
            return;
        }
        let start = self.out.position();
        for record in array.iter() {
            let written = record.write_options(&mut self.out, Endian::Little, (self.layout,));
            self.result(written);
        }
        let want = array.len() as u64 * R::size(self.layout.version);
        let wrote = self.out.position() - start;
        if wrote != want {
            let message = format!("{field}: {} records written in {wrote} bytes, laid out in {want}", array.len());
            self.result(Err(binrw::Error::AssertFail { pos: start, message }));
            return;
        }
        for record in array.iter() {
            record.visit(self);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::file::*;

    /// Counts the blocks a record visits.
    #[derive(Default)]
    struct Count(usize);

    impl Visitor for Count {
        fn pod<T: Pod>(&mut self, _: Field, _: &M2Array<T>) {
            self.0 += 1;
        }
        fn records<R: Record>(&mut self, _: Field, _: &M2Array<R>) {
            self.0 += 1;
        }
    }

    /// Writes one record and returns (pairs its writer took, blocks it visits, bytes written).
    fn check<R: Record>(record: &R, version: u32) -> (usize, usize, usize) {
        let layout = Layout { version, pairs: vec![0; 64], starts: Vec::new(), size: 0, next: Cell::new(0) };
        let mut out = Cursor::new(Vec::new());
        record.write_options(&mut out, Endian::Little, (&layout,)).unwrap();
        let mut count = Count::default();
        record.visit(&mut count);
        (layout.next.get(), count.0, out.into_inner().len())
    }

    /// Every record's writer takes as many pairs as its visit lists blocks, both equal to
    /// `PAIRS`, and writes `size` bytes, in both layouts.
    #[test]
    fn pairs_visits_and_sizes_agree() {
        fn each<R: Record + Default>(name: &str) {
            for version in [256, 263] {
                let got = check(&R::default(), version);
                assert_eq!(got, (R::PAIRS, R::PAIRS, R::size(version) as usize), "{name} v{version}");
            }
        }
        each::<Bone>("Bone");
        each::<View>("View");
        each::<Submesh>("Submesh");
        each::<Color>("Color");
        each::<Texture>("Texture");
        each::<TextureWeight>("TextureWeight");
        each::<TextureTransform>("TextureTransform");
        each::<Attachment>("Attachment");
        each::<Event>("Event");
        each::<Light>("Light");
        each::<Camera>("Camera");
        each::<Ribbon>("Ribbon");
        each::<Particle>("Particle");
    }
}
