//! The layout a file was read with, kept so that writing it again gives the file it was
//! (docs/FORMAT-NOTES.md, "M2 layouts").
//!
//! Blizzard's exporter places every block on a 16-byte boundary in header order (`write`); other
//! writers do not: M2Lib packs blocks without padding in its own order, some tools store a lookup
//! as the first entries of a longer one (the same bytes), leave bytes between blocks, or a `.skin`
//! header of 64 bytes. Reading records where each `(count, offset)` pair pointed, in the order the
//! walk meets them, the file's size and the bytes outside every block that are not zero
//! ([`AsRead`]). The writer places each block where it was read while its pair holds the count it
//! was read with, and blocks that share bytes only while they still agree on them; anything else
//! (a count changed, a block grown into its neighbour, another version) lays the whole file out
//! in Blizzard's layout instead.

use std::sync::Arc;

use bytemuck::Pod;

use super::array::M2Array;
use super::record::{Field, Record, Visitor};

/// Where a file's blocks were when it was read (not part of the file's value: two files that
/// differ only in it are equal, and it does not travel as JSON).
#[derive(Clone, Default)]
pub struct AsRead(Option<Arc<Recorded>>);

impl PartialEq for AsRead {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for AsRead {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Some(r) => write!(f, "AsRead(v{}, {} bytes, {} pairs)", r.version, r.size, r.pairs.len()),
            None => f.write_str("AsRead(none)"),
        }
    }
}

/// What [`AsRead`] holds.
pub(crate) struct Recorded {
    /// The version the file was read as (another version's records have other sizes).
    pub(crate) version: u32,
    /// The file's size in bytes.
    pub(crate) size: u64,
    /// Every `(count, offset)` pair the walk meets, in its order (depth first; a per-sequence
    /// track's outer array followed by its timelines); the count is of the array's items.
    pub(crate) pairs: Vec<[u32; 2]>,
    /// Runs of bytes outside the header and every block that are not zero: `(offset, bytes)`.
    pub(crate) loose: Vec<(u64, Vec<u8>)>,
    /// Which sequences kept their keys in a `.anim` (Wrath on): a sequence moved in or out has
    /// its keys elsewhere, and the layout is not kept.
    pub(crate) external: Vec<bool>,
    /// The `.anim` files read with a Wrath-or-later file, by sequence (shared, not copied): a
    /// `.anim` written in the kept layout starts from its source's bytes, so that bytes no block
    /// points to (converters leave other sequences' keys behind) come back too.
    pub(crate) anims: crate::anim::AnimSources,
}

impl AsRead {
    /// This layout with the `.anim` files it was read with (see [`Recorded::anims`]).
    pub(crate) fn with_anims(self, anims: &[Option<Arc<crate::anim::AnimFile>>]) -> Self {
        AsRead(self.0.map(|r| {
            let Recorded { version, size, pairs, loose, external, .. } =
                Arc::try_unwrap(r).unwrap_or_else(|shared| shared.copy());
            Arc::new(Recorded { version, size, pairs, loose, external, anims: anims.to_vec() })
        }))
    }

    /// Records the layout of a file of `version` read from `bytes` whose header takes
    /// `header_size` bytes; `visit` walks its blocks in the writer's order. `external[s]`: the
    /// keys of sequence `s` are in its `.anim` (Wrath on), not in these bytes.
    pub(crate) fn of(
        version: u32,
        bytes: &[u8],
        header_size: u64,
        external: &[bool],
        visit: impl FnOnce(&mut Recorder<'_>),
    ) -> Self {
        let mut recorder = Recorder { version, pairs: Vec::new(), spans: vec![(0, header_size)], external };
        visit(&mut recorder);
        let Recorder { pairs, mut spans, external, .. } = recorder;
        let external = external.to_vec();
        let size = bytes.len() as u64;
        spans.sort_unstable();
        let mut loose = Vec::new();
        let mut covered = 0u64;
        for (start, len) in spans.into_iter().chain([(size, 0)]) {
            if start > covered {
                loose.extend(nonzero_runs(bytes, covered, start.min(size)));
            }
            covered = covered.max(start.saturating_add(len));
        }
        AsRead(Some(Arc::new(Recorded { version, size, pairs, loose, external, anims: Vec::new() })))
    }

    /// The recorded layout, if the file was read as `version`.
    pub(crate) fn for_version(&self, version: u32) -> Option<&Recorded> {
        self.0.as_deref().filter(|r| r.version == version)
    }

    /// The recorded layout of a `.skin` (the same for every model version it goes with).
    pub(crate) fn recorded(&self) -> Option<&Recorded> {
        self.0.as_deref()
    }
}

impl Recorded {
    fn copy(&self) -> Self {
        Recorded {
            version: self.version,
            size: self.size,
            pairs: self.pairs.clone(),
            loose: self.loose.clone(),
            external: self.external.clone(),
            anims: self.anims.clone(),
        }
    }
}

/// The runs of non-zero bytes of `bytes[from..to]`, each with its offset.
fn nonzero_runs(bytes: &[u8], from: u64, to: u64) -> Vec<(u64, Vec<u8>)> {
    let Some(gap) = bytes.get(from as usize..to as usize) else { return Vec::new() };
    let mut runs = Vec::new();
    let mut at = 0;
    while let Some(start) = gap.get(at..).and_then(|g| g.iter().position(|&b| b != 0)).map(|p| at + p) {
        let end = gap.get(start..).and_then(|g| g.iter().position(|&b| b == 0)).map_or(gap.len(), |p| start + p);
        // start < end ≤ gap.len() by the two searches above: the default is never taken.
        runs.push((from + start as u64, gap.get(start..end).unwrap_or_default().to_vec()));
        at = end;
    }
    runs
}

/// The walk that records a file's pairs and the spans of its blocks.
pub(crate) struct Recorder<'e> {
    version: u32,
    pairs: Vec<[u32; 2]>,
    spans: Vec<(u64, u64)>,
    external: &'e [bool],
}

impl Recorder<'_> {
    fn pair(&mut self, count: usize, offset: u32, bytes: u64) {
        self.pairs.push([count as u32, offset]);
        if count > 0 {
            self.spans.push((u64::from(offset), bytes));
        }
    }
}

impl<'f> Visitor<'f> for Recorder<'_> {
    fn pod<T: Pod>(&mut self, _: Field, array: &'f M2Array<T>) {
        self.pair(array.len(), array.offset, (array.len() * size_of::<T>()) as u64);
    }

    fn records<R: Record>(&mut self, _: Field, array: &'f M2Array<R>) {
        self.pair(array.len(), array.offset, array.len() as u64 * R::size(self.version));
        for record in array.iter() {
            record.walk("", self);
        }
    }

    fn timelines<T: Pod>(&mut self, _: Field, outer: &'f M2Array<M2Array<T>>) {
        self.pair(outer.len(), outer.offset, outer.len() as u64 * 8);
        for (s, t) in outer.iter().enumerate() {
            // Keys of an external sequence are in its `.anim`: recorded, but no span of the `.m2`.
            let here = !self.external.get(s).copied().unwrap_or(false);
            self.pair(t.len(), t.offset, if here { (t.len() * size_of::<T>()) as u64 } else { 0 });
        }
    }

    fn empty(&mut self, pairs: usize) {
        self.pairs.extend(std::iter::repeat_n([0, 0], pairs));
    }
}

/// The spans of the output already written (kept sorted and merged), to tell a block that shares
/// bytes with another from one that would overwrite it.
#[derive(Default)]
pub(crate) struct Written(Vec<(u64, u64)>);

impl Written {
    /// Copies `block` into `out` at `at` unless it disagrees with bytes written there before;
    /// false if it does (nothing is copied then).
    pub(crate) fn put(&mut self, out: &mut Vec<u8>, at: u64, block: &[u8]) -> bool {
        let end = at + block.len() as u64;
        if block.is_empty() {
            return true;
        }
        // Spans are sorted by start and do not touch: the first that may overlap is the last one
        // starting before `end`, and the ones before it.
        let first = self.0.partition_point(|&(_, e)| e <= at);
        for &(s, e) in self.0.iter().skip(first).take_while(|&&(s, _)| s < end) {
            let (from, to) = (s.max(at), e.min(end));
            let (Some(old), Some(new)) =
                (out.get(from as usize..to as usize), block.get((from - at) as usize..(to - at) as usize))
            else {
                return false;
            };
            if old != new {
                return false;
            }
        }
        if out.len() < end as usize {
            out.resize(end as usize, 0);
        }
        if let Some(dst) = out.get_mut(at as usize..end as usize) {
            dst.copy_from_slice(block);
        }
        self.mark(at, end);
        true
    }

    /// Records `[at, end)` as written, merged with the spans it overlaps or touches.
    fn mark(&mut self, at: u64, end: u64) {
        let first = self.0.partition_point(|&(_, e)| e < at);
        let last = first + self.0.iter().skip(first).take_while(|&&(s, _)| s <= end).count();
        let (mut s, mut e) = (at, end);
        if let Some(&(a, _)) = self.0.get(first).filter(|_| first < last) {
            s = s.min(a);
        }
        if let Some(&(_, b)) = self.0.get(last.wrapping_sub(1)).filter(|_| last > first) {
            e = e.max(b);
        }
        self.0.splice(first..last, [(s, e)]);
    }

    /// Records `[at, end)` as written, after every span written so far.
    pub(crate) fn mark_appended(&mut self, at: u64, end: u64) {
        match self.0.last_mut() {
            Some(last) if last.1 >= at => last.1 = last.1.max(end),
            _ => self.0.push((at, end)),
        }
    }

    /// True if nothing in `[at, end)` has been written.
    pub(crate) fn free(&self, at: u64, end: u64) -> bool {
        let first = self.0.partition_point(|&(_, e)| e <= at);
        self.0.get(first).is_none_or(|&(s, _)| s >= end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_bytes_must_agree() {
        let mut out = Vec::new();
        let mut w = Written::default();
        assert!(w.put(&mut out, 0, &[1, 2, 3, 4]));
        assert!(w.put(&mut out, 8, &[9, 9]));
        // A prefix of the first block: the same bytes.
        assert!(w.put(&mut out, 0, &[1, 2]));
        // A block in the gap, written out of order.
        assert!(w.put(&mut out, 4, &[5, 6]));
        assert_eq!(out, [1, 2, 3, 4, 5, 6, 0, 0, 9, 9]);
        assert!(w.free(6, 8));
        assert!(!w.free(5, 7));
        // Overwriting other bytes is refused, and changes nothing.
        assert!(!w.put(&mut out, 2, &[3, 0]));
        assert_eq!(out, [1, 2, 3, 4, 5, 6, 0, 0, 9, 9]);
        assert_eq!(w.0, [(0, 6), (8, 10)]);
        assert!(w.put(&mut out, 6, &[7, 8]));
        assert_eq!(w.0, [(0, 10)]);
    }

    #[test]
    fn loose_bytes_are_the_nonzero_runs_outside_the_blocks() {
        assert_eq!(nonzero_runs(&[0, 1, 2, 0, 0, 3], 0, 6), [(1, vec![1, 2]), (5, vec![3])]);
        assert_eq!(nonzero_runs(&[0, 1, 2, 0, 0, 3], 2, 4), [(2, vec![2])]);
        assert!(nonzero_runs(&[0; 4], 0, 4).is_empty());
    }
}
