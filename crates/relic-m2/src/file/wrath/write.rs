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

use super::header::{WrathFile, keys_external, resolve_alias};
use super::records::WrathSequence;
use super::skin::Skin;
use crate::anim::{AnimFile, AnimPart};
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

/// Writes a Wrath-or-later file, with its `.anim` files: in the layout it was read with while it
/// still has it, else in Blizzard's.
pub fn write(file: &WrathFile) -> Result<WrathBytes, WriteError> {
    let new = || Place::new(file.version, file.header_size(), file.header_pairs(), 0);
    let external: Vec<bool> = (0..file.sequences.len()).map(|s| keys_external(&file.sequences, s)).collect();
    if let Some(recorded) = file.as_read.for_version(file.version).filter(|r| r.external == external) {
        let mut place = new().keeping(recorded);
        file.visit(&mut place);
        if !place.abandoned {
            let anims = place_kept_keys(&mut place, &file.sequences);
            if let Some(model) = place.emit_kept(file)? {
                return Ok(WrathBytes { model, anims: anim_files(anims, &recorded.anims)? });
            }
        }
    }
    let mut place = new();
    file.visit(&mut place);
    let anims = place_keys(&mut place, &file.sequences);
    let model = place.emit(file)?;
    Ok(WrathBytes { model, anims: anim_files(anims, &[])? })
}

/// The `.anim` files laid out, as bytes (each padded to 16). In the kept layout each starts from
/// the `.anim` it was read from (`sources`, by sequence), so that its bytes outside every block
/// come back; a chunked source stays chunked, the blocks placed in its `AFM2` blob (the offsets
/// of the `.m2`'s tracks count from it, §6) and that blob kept at its length.
fn anim_files(
    anims: BTreeMap<usize, AnimOut<'_>>,
    sources: &[Option<Arc<AnimFile>>],
) -> Result<Vec<(usize, Vec<u8>)>, WriteError> {
    anims
        .into_iter()
        .map(|(s, a)| {
            let source = sources.get(s).and_then(Option::as_deref);
            let mut bytes = source.and_then(|f| f.blob(AnimPart::Model)).map_or_else(Vec::new, <[u8]>::to_vec);
            let chunked = source.filter(|f| f.is_chunked());
            let end = if chunked.is_some() { a.end } else { align(a.end) };
            bytes.resize((end as usize).max(bytes.len()), 0);
            for (at, block) in a.blocks {
                if let Some(dst) = bytes.get_mut(at as usize..at as usize + block.len()) {
                    dst.copy_from_slice(block);
                }
            }
            match chunked {
                Some(f) => Ok((s, f.with_blob(AnimPart::Model, bytes).to_bytes()?)),
                None => Ok((s, bytes)),
            }
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
