//! What records need to know while they are read.

use std::sync::Arc;

use crate::anim::{AnimFile, AnimPart, Keys};

/// What records need to know while they are read: the version, the sequences, and from Wrath on
/// which sequences keep their keys in a `.anim` file, with those files' bytes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Ctx {
    /// File version.
    pub version: u32,
    /// Number of sequences (a track has one range, or one timeline, per sequence).
    pub sequences: u32,
    /// Number of global sequences (a track's clock index must be below it).
    pub global_sequences: u32,
    /// Per sequence (264 on): the `.anim` holding its keys (after alias resolution), or `None`
    /// when the keys are inside the `.m2`. Empty before Wrath.
    pub anims: Vec<Option<Arc<AnimFile>>>,
    /// Which blob of a chunked `.anim` the tracks being read address (§6): `AFM2` for the `.m2`,
    /// `AFSB`/`AFSA` for a `.skel`'s bones/attachments.
    pub part: AnimPart,
}

impl Ctx {
    /// The context of a file's tracks: its version, its sequence and global-sequence counts and
    /// the `.anim` bytes of each external sequence (indexed by sequence; aliases carry their
    /// target's).
    pub fn new(version: u32, global_sequences: usize, sequences: usize, anims: &[Option<Arc<AnimFile>>]) -> Self {
        Ctx {
            version,
            sequences: sequences as u32,
            global_sequences: global_sequences as u32,
            anims: (0..sequences).map(|s| anims.get(s).cloned().flatten()).collect(),
            part: AnimPart::Model,
        }
    }

    /// This context for the tracks of `part` (a `.skel`'s bones or attachments).
    pub fn for_part(mut self, part: AnimPart) -> Self {
        self.part = part;
        self
    }

    /// True for the layouts of 260 on (The Burning Crusade's 4-byte bone field, compressed
    /// rotations, 48-byte submeshes).
    pub fn tbc(&self) -> bool {
        self.version >= 260
    }

    /// Where the keys of sequence `s` are read from, if they are external: the blob of the
    /// context's part in its `.anim`.
    pub(crate) fn keys(&self, s: usize) -> Option<Keys<'_>> {
        self.anims.get(s).and_then(|a| a.as_deref()).map(|a| a.keys(self.part))
    }
}
