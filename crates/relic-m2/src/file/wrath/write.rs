//! The writer of Wrath and later files: Blizzard's layout as measured on the real 264 files
//! (m2-wrath.md §3.6, verified byte for byte on GnomePounder and Rabbit).
//!
//! 1. The header, then every block it points to in header order, depth first, each on a 16-byte
//!    boundary — the same rule as 256–263 (`file::write`) — where a track contributes only its
//!    outer arrays of `(count, offset)` pairs.
//! 2. Then the keys, grouped by sequence: for sequence 0 every track's timeline 0 (timestamps,
//!    then values) in the order the tracks were met, then sequence 1, … A timeline of a global
//!    sequence or a constant (one timeline) goes with sequence 0.
//! 3. An alias whose keys equal its target's (in every track with a timeline per sequence) points
//!    at the target's keys, and Blizzard leaves a zero block as large as the target's own keys
//!    behind it: its per-sequence timelines, each from its 16-byte boundary, without the
//!    timelines of global sequences or constants that go with sequence 0 (GnomePounder: 16 911
//!    bytes after its sequence 7; creature.m2: 28 352 after its sequence 0).
//! 4. An external sequence's keys (flags without 0x130, §3.4) go into its `.anim` file, laid out
//!    the same way from byte 0 (no public file to check against: \[inferred\]).
//!
//! A file read with another layout keeps it while it still holds it (`file::kept`): every key
//! block goes back where it was read, in the `.m2` or its `.anim`.

use std::collections::BTreeMap;
use std::sync::Arc;

use relic_core::WriteError;

use super::WrathFile;
use super::records::WrathSequence;
use super::records::{keys_external, resolve_alias};
use super::skin::Skin;
use crate::anim::{AnimFile, AnimPart};
use crate::file::layout::Layout;
use crate::file::record::Visitor;
use crate::file::write::{Block, Place, Placed, Timelines, align};

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
    // Bytes of each sequence's own keys: its per-sequence timelines, each from its 16-byte
    // boundary (a track's one timeline of a global sequence or a constant is no sequence's own).
    let mut own_keys: Vec<u64> = vec![0; groups];
    for s in 0..groups {
        let resolved = resolve_alias(sequences, s).unwrap_or(s);
        let external = keys_external(sequences, s);
        if resolved < s && shares_keys(&place.timelines, s, resolved) {
            for t in &place.timelines {
                if let Some(table) = place.tables.get_mut(t.table)
                    && let Some(&pair) = table.get(resolved)
                    && let Some(slot) = table.get_mut(s)
                {
                    *slot = pair;
                }
            }
            // Blizzard reserves (zeroed) the room the alias's own copy of its target's
            // per-sequence keys would have taken.
            if !external && let Some(&own) = own_keys.get(resolved) {
                place.end = align(place.end) + own;
            }
            continue;
        }
        let mut end = place.end;
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
                    place.blocks.push(Placed { at, block: Block::Bytes(bytes) });
                    end = at + bytes.len() as u64;
                    if t.inner.len() > 1
                        && let Some(own) = own_keys.get_mut(s)
                    {
                        *own += align(bytes.len() as u64);
                    }
                    at
                }
            };
            if let Some(slot) = place.tables.get_mut(t.table).and_then(|tb| tb.get_mut(s)) {
                *slot = [count, at as u32];
            }
        }
        place.end = end;
    }
    anims
}

/// The layout kept (`file::kept`): places every timeline's keys where they were read; returns
/// the `.anim` files by sequence.
fn place_kept_keys<'f>(place: &mut Place<'f>, sequences: &[WrathSequence]) -> BTreeMap<usize, AnimOut<'f>> {
    let mut anims: BTreeMap<usize, AnimOut<'f>> = BTreeMap::new();
    for t in &place.timelines {
        for (s, (&(count, bytes), &at)) in t.inner.iter().zip(&t.kept).enumerate() {
            if let Some(slot) = place.tables.get_mut(t.table).and_then(|tb| tb.get_mut(s)) {
                *slot = [count, at];
            }
            if count == 0 {
                continue;
            }
            let resolved = resolve_alias(sequences, s).unwrap_or(s);
            let external = keys_external(sequences, s);
            let (at, end) = (u64::from(at), u64::from(at) + bytes.len() as u64);
            if external {
                let anim = anims.entry(resolved).or_default();
                anim.blocks.push((at, bytes));
                anim.end = anim.end.max(end);
            } else {
                place.blocks.push(Placed { at, block: Block::Bytes(bytes) });
                place.end = place.end.max(end);
            }
        }
    }
    anims
}

/// True if sequence `s` holds, in every track with a timeline for it, the same keys as sequence
/// `target` (a track with one timeline for all sequences has none of its own: the real
/// creature.m2's texture weight, attachments and cameras beside its alias).
fn shares_keys(timelines: &[Timelines<'_>], s: usize, target: usize) -> bool {
    timelines.iter().filter(|t| t.inner.len() > s).all(|t| t.inner.get(s) == t.inner.get(target))
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

/// A block whose tracks keep one timeline per sequence, written with its keys: the `.m2`, or the
/// payload of a `.skel` chunk (m2-md21.md §7: its offsets count from the payload).
pub(crate) trait Keyed: for<'a> binrw::BinWrite<Args<'a> = (&'a Layout,)> {
    /// The version its records are written as.
    fn version(&self) -> u32;
    /// Bytes of its header.
    fn header_size(&self) -> u64;
    /// `(count, offset)` pairs in its header.
    fn header_pairs(&self) -> usize;
    /// Visits every block the header points to, in header order.
    fn visit<'f, V: Visitor<'f>>(&'f self, v: &mut V);
    /// The layout it was read with.
    fn as_read(&self) -> &crate::file::AsRead;
}

impl Keyed for WrathFile {
    fn version(&self) -> u32 {
        self.version
    }
    fn header_size(&self) -> u64 {
        WrathFile::header_size(self)
    }
    fn header_pairs(&self) -> usize {
        WrathFile::header_pairs(self)
    }
    fn visit<'f, V: Visitor<'f>>(&'f self, v: &mut V) {
        WrathFile::visit(self, v);
    }
    fn as_read(&self) -> &crate::file::AsRead {
        &self.as_read
    }
}

/// A keyed block written: its bytes and, by sequence, the blob of its part of each `.anim`.
pub(crate) struct KeyedBytes {
    /// The block (the `.m2`, a chunk's payload).
    pub(crate) bytes: Vec<u8>,
    /// `(sequence index, blob)`: the keys of external sequences, laid out from the blob's byte
    /// 0 (in the kept layout, over the blob it was read from).
    pub(crate) blobs: Vec<(usize, Vec<u8>)>,
}

/// Writes a Wrath-or-later file, with its `.anim` files: in the layout it was read with while it
/// still has it, else in Blizzard's.
pub fn write(file: &WrathFile) -> Result<WrathBytes, WriteError> {
    let written = write_keyed(file, &file.sequences, AnimPart::Model)?;
    let sources = file.as_read.for_version(file.version).map_or(&[][..], |r| &r.anims[..]);
    let anims = anim_files(vec![(AnimPart::Model, written.blobs)], sources)?;
    Ok(WrathBytes { model: written.bytes, anims })
}

/// Writes `block` (whose timelines follow `sequences`) with the keys of its external sequences
/// as the blobs of `part`: in the layout it was read with while it still has it, else in
/// Blizzard's.
pub(crate) fn write_keyed<H: Keyed>(
    block: &H,
    sequences: &[WrathSequence],
    part: AnimPart,
) -> Result<KeyedBytes, WriteError> {
    let new = || Place::new(block.version(), block.header_size(), block.header_pairs(), 0);
    let external: Vec<bool> = (0..sequences.len()).map(|s| keys_external(sequences, s)).collect();
    if let Some(recorded) = block.as_read().for_version(block.version()).filter(|r| r.external == external) {
        let mut place = new().keeping(recorded);
        block.visit(&mut place);
        if !place.abandoned {
            let anims = place_kept_keys(&mut place, sequences);
            if let Some(bytes) = place.emit_kept(block)? {
                return Ok(KeyedBytes { bytes, blobs: blobs(anims, &recorded.anims, part) });
            }
        }
    }
    let mut place = new();
    block.visit(&mut place);
    let anims = place_keys(&mut place, sequences);
    let bytes = place.emit(block)?;
    Ok(KeyedBytes { bytes, blobs: blobs(anims, &[], part) })
}

/// The blobs of `part` laid out (each padded to 16). In the kept layout each starts from the
/// blob it was read from (`sources`, by sequence), so that its bytes outside every block come
/// back; a blob read from a chunked `.anim` keeps its length.
fn blobs(
    anims: BTreeMap<usize, AnimOut<'_>>,
    sources: &[Option<Arc<AnimFile>>],
    part: AnimPart,
) -> Vec<(usize, Vec<u8>)> {
    anims
        .into_iter()
        .map(|(s, a)| {
            let source = sources.get(s).and_then(Option::as_deref);
            let mut bytes = source.and_then(|f| f.blob(part)).map_or_else(Vec::new, <[u8]>::to_vec);
            let end = if source.is_some_and(AnimFile::is_chunked) { a.end } else { align(a.end) };
            bytes.resize((end as usize).max(bytes.len()), 0);
            for (at, block) in a.blocks {
                if let Some(dst) = bytes.get_mut(at as usize..at as usize + block.len()) {
                    dst.copy_from_slice(block);
                }
            }
            (s, bytes)
        })
        .collect()
}

/// The `.anim` files of the blobs of every part, by sequence: a sequence whose `.anim` was
/// chunked (`sources`) gets that file with its blobs replaced, byte for byte when they are the
/// same; one with only `AFM2` keys and no chunked source a raw `.anim` (the Wrath form); one with
/// bone or attachment keys and no chunked source a chunked one (`AFM2`, `AFSA`, `AFSB`).
pub(crate) fn anim_files(
    parts: crate::anim::PartBlobs,
    sources: &[Option<Arc<AnimFile>>],
) -> Result<Vec<(usize, Vec<u8>)>, WriteError> {
    let mut by_sequence: BTreeMap<usize, Vec<(AnimPart, Vec<u8>)>> = BTreeMap::new();
    for (part, blobs) in parts {
        for (s, blob) in blobs {
            by_sequence.entry(s).or_default().push((part, blob));
        }
    }
    by_sequence
        .into_iter()
        .map(|(s, mut blobs)| {
            let source = sources.get(s).and_then(Option::as_deref).filter(|f| f.is_chunked());
            let split = blobs.iter().any(|(p, _)| *p != AnimPart::Model);
            let mut file = match source {
                Some(f) => f.clone(),
                None if split => AnimFile::chunked(String::new()),
                None => return Ok((s, blobs.pop().map(|(_, b)| b).unwrap_or_default())),
            };
            blobs.sort_by_key(|(p, _)| *p);
            for (part, blob) in blobs {
                file = file.with_blob(part, blob);
            }
            Ok((s, file.to_bytes()?))
        })
        .collect()
}

/// Writes a `.skin` file in the layout it was read with while it still has it, else in
/// Blizzard's (header, then its arrays in header order, each 16-byte aligned; the file padded to
/// 16).
pub fn write_skin(skin: &Skin) -> Result<Vec<u8>, WriteError> {
    let pairs = if skin.shadow_batches.is_some() { 6 } else { 5 };
    let new = || Place::new(264, skin.header_size(), pairs, pairs);
    if let Some(recorded) = skin.as_read.recorded() {
        let mut place = new().keeping(recorded);
        skin.visit(&mut place);
        if let Some(bytes) = place.emit_kept(skin)? {
            return Ok(bytes);
        }
    }
    let mut place = new();
    skin.visit(&mut place);
    place.emit(skin)
}
