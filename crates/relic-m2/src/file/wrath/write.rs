//! The writer of Wrath and later files: Blizzard's layout as measured on the real 264 files
//! (m2-wrath.md §3.6, verified byte for byte on GnomePounder and Rabbit).
//!
//! 1. The header, then every block it points to in header order, depth first, each on a 16-byte
//!    boundary — the same rule as 256–263 (`file::write`) — where a track contributes only its
//!    outer arrays of `(count, offset)` pairs.
//! 2. Then the keys, grouped by sequence: for sequence 0 every track's timeline 0 (timestamps,
//!    then values) in the order the tracks were met, then sequence 1, … A timeline of a global
//!    sequence or a constant (one timeline) goes with sequence 0.
//! 3. An alias whose keys equal its target's points at the target's keys, and Blizzard leaves a
//!    zero block as large as the target's group behind it (GnomePounder: 16 911 bytes).
//! 4. An external sequence's keys (flags without 0x130, §3.4) go into its `.anim` file, laid out
//!    the same way from byte 0 (no public file to check against: \[inferred\]).

use std::collections::BTreeMap;

use binrw::{BinResult, BinWrite, Endian};
use bytemuck::Pod;
use relic_core::WriteError;

use super::header::{WrathFile, resolve_alias};
use super::records::{SEQUENCE_NOT_EXTERNAL, WrathSequence};
use super::skin::Skin;
use crate::file::array::M2Array;
use crate::file::layout::Layout;
use crate::file::record::{Field, Record, Visitor, pairs};
use crate::file::write::{Sink, WriteRecords, align};

/// A block and where it goes.
struct Placed<'f> {
    at: u64,
    block: Block<'f>,
}

/// What a block holds.
enum Block<'f> {
    /// Plain-old-data values, copied.
    Bytes(&'f [u8]),
    /// Records, written by their derived writers.
    Records(&'f dyn WriteRecords),
    /// An outer timeline array, filled once the keys are placed (index into `tables`).
    Table(usize),
}

/// One outer timeline array met in step 1: its table and each timeline's (count, bytes).
struct Timelines<'f> {
    table: usize,
    inner: Vec<(u32, &'f [u8])>,
}

/// The layout pass.
struct Place<'f> {
    layout: Layout,
    blocks: Vec<Placed<'f>>,
    tables: Vec<Vec<[u32; 2]>>,
    timelines: Vec<Timelines<'f>>,
    /// Key counts of the last timestamps met: the stored counts of the values that follow.
    last_counts: Vec<u32>,
    cursor: usize,
    end: u64,
    error: Option<WriteError>,
}

impl<'f> Place<'f> {
    fn new(version: u32, header_size: u64, header_pairs: usize) -> Self {
        let layout = Layout { version, pairs: vec![0; header_pairs], size: 0, next: Default::default() };
        let (blocks, tables, timelines, last_counts) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        Place { layout, blocks, tables, timelines, last_counts, cursor: 0, end: header_size, error: None }
    }

    /// Places a block for the next pair; false if it is empty.
    fn place(&mut self, field: Field, count: usize, bytes: usize, block: Block<'f>) -> bool {
        let slot = self.cursor;
        self.cursor += 1;
        if count == 0 {
            return false;
        }
        if count > u32::MAX as usize && self.error.is_none() {
            self.error = Some(WriteError::DoesNotFit { field: field.to_string(), value: count as u64, ty: "u32" });
        }
        let at = align(self.end);
        if let Some(pair) = self.layout.pairs.get_mut(slot) {
            *pair = at as u32;
        }
        self.blocks.push(Placed { at, block });
        self.end = at.saturating_add(bytes as u64);
        true
    }
}

impl<'f> Visitor<'f> for Place<'f> {
    fn empty(&mut self, pairs: usize) {
        self.cursor += pairs;
    }

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
        self.tables.push(vec![[0, 0]; outer.len()]);
        let inner = outer
            .iter()
            .enumerate()
            .map(|(i, t)| (counts.get(i).copied().unwrap_or(t.len() as u32), bytemuck::cast_slice(&t.items)))
            .collect();
        if !values {
            self.last_counts = counts;
        }
        self.timelines.push(Timelines { table, inner });
    }
}

/// An `.anim` file being laid out.
#[derive(Default)]
struct AnimOut<'f> {
    blocks: Vec<(u64, &'f [u8])>,
    end: u64,
}

/// Step 2–4: places every timeline's keys; returns the `.anim` files by sequence.
fn place_keys<'f>(place: &mut Place<'f>, sequences: &[WrathSequence]) -> BTreeMap<usize, AnimOut<'f>> {
    let groups = place.timelines.iter().fold(0, |n, t| n.max(t.inner.len()));
    let mut anims: BTreeMap<usize, AnimOut<'f>> = BTreeMap::new();
    let mut spans: Vec<Option<(u64, u64)>> = vec![None; groups];
    for s in 0..groups {
        let resolved = resolve_alias(sequences, s).unwrap_or(s);
        let external = sequences.get(resolved).is_some_and(|q| q.flags & SEQUENCE_NOT_EXTERNAL == 0);
        if resolved < s && shares_keys(&place.timelines, s, resolved) {
            for t in &place.timelines {
                if let Some(table) = place.tables.get_mut(t.table)
                    && let Some(&pair) = table.get(resolved)
                    && let Some(slot) = table.get_mut(s)
                {
                    *slot = pair;
                }
            }
            // Blizzard reserves (zeroed) the room the alias's own copy would have taken.
            if !external && let Some(Some((start, end))) = spans.get(resolved) {
                place.end = align(place.end) + (align(*end) - start);
            }
            continue;
        }
        let (mut first, mut end) = (None, place.end);
        let anim = external.then(|| anims.entry(resolved).or_default());
        let mut anim = anim;
        for t in &place.timelines {
            let Some(&(count, bytes)) = t.inner.get(s) else { continue };
            if count == 0 {
                continue;
            }
            let at = match anim.as_deref_mut() {
                Some(a) => {
                    let at = align(a.end);
                    a.blocks.push((at, bytes));
                    a.end = at + bytes.len() as u64;
                    at
                }
                None => {
                    let at = align(end);
                    first.get_or_insert(at);
                    place.blocks.push(Placed { at, block: Block::Bytes(bytes) });
                    end = at + bytes.len() as u64;
                    at
                }
            };
            if let Some(slot) = place.tables.get_mut(t.table).and_then(|tb| tb.get_mut(s)) {
                *slot = [count, at as u32];
            }
        }
        place.end = end;
        if let (Some(first), Some(span)) = (first, spans.get_mut(s)) {
            *span = Some((first, end));
        }
    }
    anims
}

/// True if sequence `s` holds, in every track, the same keys as sequence `target`.
fn shares_keys(timelines: &[Timelines<'_>], s: usize, target: usize) -> bool {
    timelines.iter().all(|t| t.inner.get(s) == t.inner.get(target))
}

/// Writes the header and the placed blocks front to back.
fn emit<H>(header: &H, place: &Place<'_>) -> Result<Vec<u8>, WriteError>
where
    H: for<'a> BinWrite<Args<'a> = (&'a Layout,)>,
{
    let failed = |e: binrw::Error| WriteError::from_binrw(&e);
    let size = align(place.end);
    let size32 = u32::try_from(size).map_err(|_| WriteError::DoesNotFit {
        field: "M2 file size".into(),
        value: size,
        ty: "u32",
    })?;
    let mut out = Sink(Vec::with_capacity(size32 as usize));
    header.write_options(&mut out, Endian::Little, (&place.layout,)).map_err(failed)?;
    let mut blocks: Vec<&Placed<'_>> = place.blocks.iter().collect();
    blocks.sort_by_key(|b| b.at);
    for placed in blocks {
        out.pad_to(placed.at).map_err(failed)?;
        write_block(&mut out, &placed.block, place).map_err(failed)?;
    }
    out.pad_to(size).map_err(failed)?;
    if place.layout.next.get() != place.layout.pairs.len() {
        let message =
            format!("the writer met {} of the {} pairs laid out", place.layout.next.get(), place.layout.pairs.len());
        return Err(WriteError::Io { path: "WrathFile".into(), message });
    }
    Ok(out.0)
}

fn write_block(out: &mut Sink, block: &Block<'_>, place: &Place<'_>) -> BinResult<()> {
    match block {
        Block::Bytes(bytes) => out.0.extend_from_slice(bytes),
        Block::Records(records) => records.write(out, &place.layout)?,
        Block::Table(i) => {
            let Some(table) = place.tables.get(*i) else {
                let message = format!("timeline table {i} was placed but not laid out");
                return Err(binrw::Error::AssertFail { pos: out.position(), message });
            };
            out.0.extend_from_slice(bytemuck::cast_slice(table));
        }
    }
    Ok(())
}

/// What [`write()`] gives: the `.m2` and, by sequence index, the `.anim` files of the external
/// sequences.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct WrathBytes {
    /// The `.m2`.
    pub model: Vec<u8>,
    /// `(sequence index, bytes)` of every `.anim` file.
    pub anims: Vec<(usize, Vec<u8>)>,
}

/// Writes a Wrath-or-later file in Blizzard's layout, with its `.anim` files.
pub fn write(file: &WrathFile) -> Result<WrathBytes, WriteError> {
    let mut place = Place::new(file.version, file.header_size(), file.header_pairs());
    file.visit(&mut place);
    if let Some(e) = place.error.take() {
        return Err(e);
    }
    let anims = place_keys(&mut place, &file.sequences);
    let model = emit(file, &place)?;
    let anims = anims
        .into_iter()
        .map(|(s, a)| {
            let mut bytes = vec![0u8; align(a.end) as usize];
            for (at, block) in a.blocks {
                if let Some(dst) = bytes.get_mut(at as usize..at as usize + block.len()) {
                    dst.copy_from_slice(block);
                }
            }
            (s, bytes)
        })
        .collect();
    Ok(WrathBytes { model, anims })
}

/// Writes a `.skin` file in Blizzard's layout (header, then its arrays in header order, each
/// 16-byte aligned; the file padded to 16).
pub fn write_skin(skin: &Skin) -> Result<Vec<u8>, WriteError> {
    let pairs = if skin.shadow_batches.is_some() { 6 } else { 5 };
    let mut place = Place::new(264, skin.header_size(), pairs);
    skin.visit(&mut place);
    if let Some(e) = place.error.take() {
        return Err(e);
    }
    emit(skin, &place)
}
