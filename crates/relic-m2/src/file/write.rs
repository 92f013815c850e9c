//! The writer: one layout pass, then the bytes front to back.
//!
//! Blizzard's exporter (spec §1, measured on the real 1.12 file) writes the header, then every
//! block the header points to in header order, each record array immediately followed by the
//! blocks its records point to (record by record, field by field, depth first), every block on a
//! 16-byte boundary with zero padding, an empty block as `(0, 0)`, the file padded to 16 bytes.
//!
//! The layout pass ([`Layout::of`]) walks the file once in that order: it gives every
//! `(count, offset)` pair its offset and lists every non-empty block with its position. The
//! writer then goes down that list: the header and each record with the `BinWrite` derived on its
//! type — the type that reads it — whose [`M2Array`] fields take their offsets from the layout in
//! the order they are met (the file's byte order), and each block of plain-old-data records in
//! one copy. Nothing is patched afterwards and nothing seeks. (xc3_write writes placeholder
//! offsets and patches them once the data is placed; here the positions are known before the
//! first byte is written.)
//!
//! A file read with another layout is written with it while nothing moved (`kept`): the layout
//! pass then takes each block's position from the one it was read at, and the writer copies each
//! block there, refusing one that would change bytes another block shares; if it must, the file
//! is laid out in Blizzard's layout after all.

use std::io::{self, Seek, SeekFrom, Write};

use binrw::{BinResult, BinWrite, Endian};
use bytemuck::Pod;
use relic_core::WriteError;

use super::array::M2Array;
use super::header::M2File;
use super::kept::{Recorded, Written};
use super::layout::Layout;
use super::record::{Field, Record, Visitor, pairs};

/// Every block starts on a 16-byte boundary, zero-padded (Blizzard's exporter does this).
pub(crate) const ALIGN: u64 = 16;

pub(crate) fn align(at: u64) -> u64 {
    (at + (ALIGN - 1)) & !(ALIGN - 1)
}

/// Writes `file` in the layout it was read with while it still holds it (`kept`), else in
/// Blizzard's.
pub(crate) fn write(file: &M2File) -> Result<Vec<u8>, WriteError> {
    let new = || Place::new(file.version, file.header_size(), file.header_pairs(), pairs_hint(file));
    if let Some(recorded) = file.as_read.for_version(file.version) {
        let mut place = new().keeping(recorded);
        file.visit(&mut place);
        if let Some(bytes) = place.emit_kept(file)? {
            return Ok(bytes);
        }
    }
    let mut place = new();
    file.visit(&mut place);
    place.emit(file)
}

/// A non-empty block and where the layout pass put it.
pub(crate) struct Placed<'f> {
    pub(crate) at: u64,
    pub(crate) block: Block<'f>,
}

/// What a block holds.
pub(crate) enum Block<'f> {
    /// Plain-old-data values, copied as they are.
    Bytes(&'f [u8]),
    /// Records, each written by its derived writer.
    Records(&'f dyn WriteRecords),
    /// The outer array of a per-sequence track's timelines (Wrath on): `(count, offset)` pairs
    /// filled once the keys are placed (an index into [`Place::tables`]).
    Table(usize),
}

/// An array of records the writer can write without knowing their type.
pub(crate) trait WriteRecords {
    /// Writes every record (fixed part only: the blocks they point to are listed after them).
    fn write(&self, out: &mut Sink, layout: &Layout) -> BinResult<()>;
}

impl<R: Record> WriteRecords for M2Array<R> {
    fn write(&self, out: &mut Sink, layout: &Layout) -> BinResult<()> {
        let start = out.position();
        for record in self.iter() {
            record.write_options(out, Endian::Little, (layout,))?;
        }
        let (wrote, size) = (out.position() - start, R::size(layout.version));
        if wrote != self.len() as u64 * size {
            let message = format!("{} records of {size} bytes written in {wrote}", self.len());
            return Err(binrw::Error::AssertFail { pos: start, message });
        }
        Ok(())
    }
}

/// How many pairs the layout pass will fill: the header's and those of the records it points to
/// (the records of those records — a view's submeshes — have none). The records of one array
/// hold as many pairs each; only a camera's differ by version.
fn pairs_hint(file: &M2File) -> usize {
    /// Adds up the pairs of the header's record arrays.
    struct Count(usize);
    impl Visitor<'_> for Count {
        fn pod<T: Pod>(&mut self, _: Field, _: &M2Array<T>) {}
        fn records<R: Record>(&mut self, _: Field, array: &M2Array<R>) {
            self.0 += array.len() * array.first().map_or(0, pairs);
        }
    }
    let mut count = Count(file.header_pairs());
    file.visit(&mut count);
    count.0
}

/// The layout pass of every file of the format (`.m2` of any version, `.skin`): gives each block
/// the next 16-byte boundary after the one before it, in the order the walk meets them. The
/// tracks of Wrath and later contribute only their outer timeline arrays here; the Wrath writer
/// places their keys afterwards (`wrath::write`).
pub(crate) struct Place<'f> {
    pub(crate) layout: Layout,
    /// The non-empty blocks, in file order.
    pub(crate) blocks: Vec<Placed<'f>>,
    /// The outer timeline arrays met, each `(count, offset)` per timeline (filled by the Wrath
    /// writer).
    pub(crate) tables: Vec<Vec<[u32; 2]>>,
    /// Each outer timeline array met: its table and each timeline's key count and bytes.
    pub(crate) timelines: Vec<Timelines<'f>>,
    /// Key counts of the last timestamps met: the stored counts of the values that follow.
    last_counts: Vec<u32>,
    /// The layout the file was read with, while every pair met so far holds the count it was
    /// read with (`None` in Blizzard's layout, and once one does not).
    pub(crate) kept: Option<&'f Recorded>,
    /// True once a pair differs from the recorded layout: the file must be laid out anew.
    pub(crate) abandoned: bool,
    /// The pairs met so far, in walk order (the index into the recorded pairs).
    walked: usize,
    /// The pair the next visited block fills.
    cursor: usize,
    /// The end of the last block placed.
    pub(crate) end: u64,
    error: Option<WriteError>,
}

/// One outer timeline array: its table and each timeline's (count, bytes).
pub(crate) struct Timelines<'f> {
    pub(crate) table: usize,
    pub(crate) inner: Vec<(u32, &'f [u8])>,
    /// Where each timeline was read (the layout kept), else empty.
    pub(crate) kept: Vec<u32>,
}

impl<'f> Place<'f> {
    /// The layout pass of a file of `version` whose header takes `header_size` bytes and holds
    /// `header_pairs` pairs (`pairs`: how many the whole file holds, if known).
    pub(crate) fn new(version: u32, header_size: u64, header_pairs: usize, pairs: usize) -> Self {
        let mut layout = Layout { version, pairs: Vec::with_capacity(pairs), size: 0, next: Default::default() };
        layout.pairs.resize(header_pairs, 0);
        Place {
            layout,
            // Every block has a pair, so the pairs bound the blocks.
            blocks: Vec::with_capacity(pairs),
            tables: Vec::new(),
            timelines: Vec::new(),
            last_counts: Vec::new(),
            kept: None,
            abandoned: false,
            walked: 0,
            cursor: 0,
            end: header_size,
            error: None,
        }
    }

    /// The layout pass of a file read with `recorded`'s layout, placing each block where it was.
    pub(crate) fn keeping(mut self, recorded: &'f Recorded) -> Self {
        self.kept = Some(recorded);
        self
    }

    /// Where the next pair's block was read, if the file still has the layout it was read with
    /// and the pair holds the `count` it was read with; else the layout is given up.
    #[inline]
    pub(crate) fn kept_at(&mut self, count: usize) -> Option<u32> {
        let recorded = self.kept?;
        let i = self.walked;
        self.walked += 1;
        match recorded.pairs.get(i) {
            // A block may lie at offset 0 (a converter's array over the header: the game reads
            // the header's bytes there, and so does the reader); it is written over the header
            // while the two agree on those bytes.
            Some(&[c, at]) if c as usize == count => Some(at),
            _ => {
                self.kept = None;
                self.abandoned = true;
                None
            }
        }
    }

    /// Places a block of `count` entries, `bytes` long, for the next pair; false if it is empty
    /// (its pair stays `(0, 0)`, or keeps the offset it was read with).
    #[inline(always)]
    fn place(&mut self, field: Field, count: usize, bytes: usize, block: Block<'f>) -> bool {
        let slot = self.cursor;
        self.cursor += 1;
        let kept = self.kept_at(count);
        if count == 0 {
            if let (Some(at), Some(pair)) = (kept, self.layout.pairs.get_mut(slot)) {
                *pair = at;
            }
            return false;
        }
        if count > u32::MAX as usize && self.error.is_none() {
            self.error = Some(WriteError::DoesNotFit { field: field.to_string(), value: count as u64, ty: "u32" });
        }
        let at = match kept {
            Some(at) => u64::from(at),
            None => align(self.end),
        };
        // Truncates only in a file larger than 4 GiB, which `emit` refuses.
        if let Some(pair) = self.layout.pairs.get_mut(slot) {
            *pair = at as u32;
        }
        self.blocks.push(Placed { at, block });
        let end = at.saturating_add(bytes as u64);
        self.end = if kept.is_some() { self.end.max(end) } else { end };
        true
    }

    /// Writes `header` and the placed blocks front to back. An error if the file would outgrow
    /// the u32 offsets (every offset is below the size, so checking the size checks them all) or
    /// an array its u32 count.
    pub(crate) fn emit<H>(mut self, header: &H) -> Result<Vec<u8>, WriteError>
    where
        H: for<'a> BinWrite<Args<'a> = (&'a Layout,)>,
    {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        let failed = |e: binrw::Error| WriteError::from_binrw(&e);
        let size = align(self.end);
        self.layout.size = u32::try_from(size).map_err(|_| WriteError::DoesNotFit {
            field: "M2 file size".into(),
            value: size,
            ty: "u32",
        })?;
        let mut out = Sink(Vec::with_capacity(self.layout.size as usize));
        header.write_options(&mut out, Endian::Little, (&self.layout,)).map_err(failed)?;
        // Blocks are placed in increasing order (`pad_to` refuses one that is not).
        for placed in &self.blocks {
            out.pad_to(placed.at).map_err(failed)?;
            self.write_block(&placed.block, &mut out).map_err(failed)?;
        }
        out.pad_to(size).map_err(failed)?;
        self.all_pairs_met()?;
        Ok(out.0)
    }

    /// Writes `header` and the blocks where the file was read with them (see [`Self::keeping`]);
    /// `None` if the file no longer has that layout: a pair's count changed, a block reaches past
    /// the file's size, or two blocks that shared bytes no longer agree on them.
    pub(crate) fn emit_kept<H>(mut self, header: &H) -> Result<Option<Vec<u8>>, WriteError>
    where
        H: for<'a> BinWrite<Args<'a> = (&'a Layout,)>,
    {
        let Some(recorded) = self.kept.filter(|r| !self.abandoned && self.end <= r.size) else { return Ok(None) };
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        let failed = |e: binrw::Error| WriteError::from_binrw(&e);
        self.layout.size = u32::try_from(recorded.size).map_err(|_| WriteError::DoesNotFit {
            field: "M2 file size".into(),
            value: recorded.size,
            ty: "u32",
        })?;
        let mut out = Sink(Vec::with_capacity(recorded.size as usize));
        header.write_options(&mut out, Endian::Little, (&self.layout,)).map_err(failed)?;
        let mut bytes = out.0;
        let mut written = Written::default();
        written.mark_appended(0, bytes.len() as u64);
        let mut scratch = Sink(Vec::new());
        for placed in &self.blocks {
            // A block after everything written is appended; any other is checked against what
            // is there (a lookup stored as the start of a longer one shares its bytes).
            if placed.at >= bytes.len() as u64 {
                let at = placed.at;
                let mut tail = Sink(bytes);
                tail.pad_to(at).map_err(failed)?;
                self.write_block(&placed.block, &mut tail).map_err(failed)?;
                bytes = tail.0;
                written.mark_appended(at, bytes.len() as u64);
                continue;
            }
            scratch.0.clear();
            self.write_block(&placed.block, &mut scratch).map_err(failed)?;
            if !written.put(&mut bytes, placed.at, &scratch.0) {
                return Ok(None);
            }
        }
        if bytes.len() as u64 > recorded.size {
            return Ok(None);
        }
        bytes.resize(recorded.size as usize, 0);
        for (at, run) in &recorded.loose {
            let end = at + run.len() as u64;
            if written.free(*at, end)
                && let Some(dst) = bytes.get_mut(*at as usize..end as usize)
            {
                dst.copy_from_slice(run);
            }
        }
        self.all_pairs_met()?;
        Ok(Some(bytes))
    }

    /// Writes one placed block at the end of `out`.
    fn write_block(&self, block: &Block<'_>, out: &mut Sink) -> BinResult<()> {
        match *block {
            Block::Bytes(bytes) => out.0.extend_from_slice(bytes),
            Block::Records(records) => records.write(out, &self.layout)?,
            Block::Table(i) => {
                let Some(table) = self.tables.get(i) else {
                    let message = format!("timeline table {i} was placed but not laid out");
                    return Err(binrw::Error::AssertFail { pos: out.position(), message });
                };
                out.0.extend_from_slice(bytemuck::cast_slice(table));
            }
        }
        Ok(())
    }

    /// An error unless the writer met every pair the layout pass laid out.
    fn all_pairs_met(&self) -> Result<(), WriteError> {
        if self.layout.next.get() != self.layout.pairs.len() {
            let message =
                format!("the writer met {} of the {} pairs laid out", self.layout.next.get(), self.layout.pairs.len());
            return Err(WriteError::Io { path: "M2".into(), message });
        }
        Ok(())
    }
}

impl<'f> Visitor<'f> for Place<'f> {
    #[inline]
    fn empty(&mut self, pairs: usize) {
        if self.kept.is_none() {
            self.cursor += pairs;
            return;
        }
        for _ in 0..pairs {
            let slot = self.cursor;
            self.cursor += 1;
            if let (Some(at), Some(pair)) = (self.kept_at(0), self.layout.pairs.get_mut(slot)) {
                *pair = at;
            }
        }
    }

    #[inline]
    fn pod<T: Pod>(&mut self, field: Field, array: &'f M2Array<T>) {
        let bytes: &[u8] = bytemuck::cast_slice(&array.items);
        self.place(field, array.len(), bytes.len(), Block::Bytes(bytes));
    }

    fn records<R: Record>(&mut self, field: Field, array: &'f M2Array<R>) {
        let n = array.len();
        let bytes = n.saturating_mul(R::size(self.layout.version) as usize);
        if !self.place(field, n, bytes, Block::Records(array)) {
            return;
        }
        // The records' own pairs come next in the writer's order: they are written with the
        // records, before any block placed from here on.
        let base = self.layout.pairs.len();
        let held: usize = array.iter().map(pairs).sum();
        self.layout.pairs.resize(base + held, 0);
        let outer = std::mem::replace(&mut self.cursor, base);
        for record in array.iter() {
            record.walk("", self);
        }
        self.cursor = outer;
    }

    fn timelines<T: Pod>(&mut self, field: Field, outer: &'f M2Array<M2Array<T>>) {
        let values = field.part_name() == "values";
        let counts: Vec<u32> =
            if values { std::mem::take(&mut self.last_counts) } else { outer.iter().map(|t| t.len() as u32).collect() };
        let table = self.tables.len();
        if !self.place(field, outer.len(), outer.len() * 8, Block::Table(table)) {
            return;
        }
        let kept = match self.kept {
            // A block the recorded layout has no place for (0) is laid out anew after the kept ones.
            Some(_) => outer.iter().map(|t| self.kept_at(t.len()).unwrap_or(0)).collect(),
            None => Vec::new(),
        };
        self.tables.push(vec![[0, 0]; outer.len()]);
        // A values timeline states its key count: the count of the timestamps before it.
        let inner = outer
            .iter()
            .enumerate()
            .map(|(i, t)| (counts.get(i).copied().unwrap_or(t.len() as u32), bytemuck::cast_slice(&t.items)))
            .collect();
        if !values {
            self.last_counts = counts;
        }
        self.timelines.push(Timelines { table, inner, kept });
    }
}

/// The output: the file is written front to back, so every write appends.
///
/// `std::io::Cursor` would do, but its writes handle a position inside the buffer and
/// `write_all` loops over `write`; records are written field by field (a few thousand small
/// writes in a real file), so appending directly keeps the writer at a bulk copy's pace.
pub(crate) struct Sink(pub(crate) Vec<u8>);

impl Sink {
    pub(crate) fn position(&self) -> u64 {
        self.0.len() as u64
    }

    /// Zero bytes up to `at`, where the layout pass put what comes next.
    pub(crate) fn pad_to(&mut self, at: u64) -> BinResult<()> {
        let here = self.position();
        if here > at {
            let message = format!("a block laid out at {at:#x} would start at {here:#x}");
            return Err(binrw::Error::AssertFail { pos: here, message });
        }
        self.0.resize(at as usize, 0);
        Ok(())
    }
}

impl Write for Sink {
    #[inline]
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0.extend_from_slice(bytes);
        Ok(bytes.len())
    }
    #[inline]
    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.0.extend_from_slice(bytes);
        Ok(())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Only the position can be asked: nothing seeks while the file is written.
impl Seek for Sink {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let end = self.position();
        match to {
            SeekFrom::Start(p) if p == end => Ok(end),
            SeekFrom::Current(0) | SeekFrom::End(0) => Ok(end),
            _ => Err(io::Error::new(io::ErrorKind::Unsupported, "the M2 writer only appends")),
        }
    }
    #[inline]
    fn stream_position(&mut self) -> io::Result<u64> {
        Ok(self.position())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::file::*;

    /// Writes one record and returns (pairs its writer took, pairs its walk meets, bytes).
    fn check<R: Record>(record: &R, version: u32) -> (usize, usize, usize) {
        let layout = Layout { version, pairs: vec![0; 64], size: 0, next: Default::default() };
        let mut out = Sink(Vec::new());
        record.write_options(&mut out, Endian::Little, (&layout,)).unwrap();
        (layout.next.get(), pairs(record), out.0.len())
    }

    /// Every record's writer takes as many pairs as its walk meets and writes `size` bytes, in
    /// every layout of its kind.
    #[test]
    fn walks_and_sizes_agree_with_the_writer() {
        fn each<R: Record>(name: &str, record: &R, versions: &[u32], walked: usize) {
            for &version in versions {
                let got = check(record, version);
                assert_eq!(got, (walked, walked, R::size(version) as usize), "{name} v{version}");
            }
        }
        let (classic, wrath) = ([256, 263], [264, 272]);
        let bone: Bone = Bone { unknown: Some(0), ..Default::default() };
        each("Bone", &bone, &classic, 9);
        each("View", &View::default(), &classic, 5);
        let submesh = Submesh { sort_center: Some([0.0; 3]), sort_radius: Some(0.0), ..Submesh::default() };
        each("Submesh", &submesh, &classic, 0);
        each("Color", &Color::<Ranged>::default(), &classic, 6);
        each("Texture", &Texture::default(), &classic, 1);
        each("TextureWeight", &TextureWeight::<Ranged>::default(), &classic, 3);
        each("TextureTransform", &TextureTransform::<Ranged>::default(), &classic, 9);
        each("Attachment", &Attachment::<Ranged>::default(), &classic, 3);
        each("Event", &Event::<Ranged>::default(), &classic, 2);
        each("Light", &Light::<Ranged>::default(), &classic, 21);
        each("Ribbon", &Ribbon::<Ranged>::default(), &classic, 20);
        each("Particle", &Particle::<Ranged>::default(), &classic, 36);
        each("Camera", &Camera::<Ranged> { field_of_view: Some(0.0), ..Default::default() }, &classic, 9);
        let bone = wrath::WrathBone { unknown: Some(0), ..Default::default() };
        each("WrathBone", &bone, &wrath, 6);
        each("WrathColor", &wrath::WrathColor::default(), &wrath, 4);
        each("WrathTextureWeight", &wrath::WrathTextureWeight::default(), &wrath, 2);
        each("WrathTextureTransform", &wrath::WrathTextureTransform::default(), &wrath, 6);
        each("WrathAttachment", &wrath::WrathAttachment::default(), &wrath, 2);
        each("WrathEvent", &wrath::WrathEvent::default(), &wrath, 1);
        each("WrathLight", &wrath::WrathLight::default(), &wrath, 14);
        let ribbon = wrath::WrathRibbon { priority_plane: Some(0), padding: Some(0), ..Default::default() };
        each("WrathRibbon", &ribbon, &wrath, 14);
        let camera264 = wrath::WrathCamera { field_of_view: Some(0.0), ..Default::default() };
        each("WrathCamera", &camera264, &[264], 6);
        let camera272 = wrath::WrathCamera { field_of_view_track: Some(Default::default()), ..Default::default() };
        each("WrathCamera", &camera272, &[272], 8);
        each("WrathParticle", &wrath::WrathParticle::default(), &[264], 35);
        let particle272 = wrath::WrathParticle { multi_texture: Some([0; 4]), ..Default::default() };
        each("WrathParticle", &particle272, &[272], 35);
    }
}
