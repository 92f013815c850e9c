//! The positions the writer's layout pass gives a file's blocks (made in `write`).

use std::cell::Cell;

/// The positions the layout pass gave a file's blocks: what the derived writers take their
/// offsets from. Made by the writer ([`crate::write`]); records cannot be written without one.
#[derive(Debug)]
pub struct Layout {
    pub(crate) version: u32,
    /// The offset of every `(count, offset)` pair, in the order the writer meets the pairs (the
    /// file's byte order); 0 for an empty block.
    pub(crate) pairs: Vec<u32>,
    /// The file's size.
    pub(crate) size: u32,
    /// The next pair the writer takes.
    pub(crate) next: Cell<usize>,
}

impl Layout {
    /// True for The Burning Crusade layouts (260–263).
    pub(crate) fn tbc(&self) -> bool {
        self.version >= 260
    }

    /// The offset of the next pair the writer meets; `None` once every pair laid out is taken
    /// (the writer met a pair the layout pass did not).
    pub(crate) fn take_offset(&self) -> Option<u32> {
        let i = self.next.get();
        self.next.set(i + 1);
        self.pairs.get(i).copied()
    }
}
