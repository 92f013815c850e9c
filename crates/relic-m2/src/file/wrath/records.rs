//! The sequence of Wrath and later (m2-wrath.md §3.2): 64 bytes, its flags, and the alias chain
//! its keys follow. The other records of Wrath are the pre-Wrath types, of the other family where
//! they hold tracks (named in `wrath`).

use bytemuck::{Pod, Zeroable};
use serde::{Deserialize, Serialize};

use crate::file::sequence::Bounds;

/// Sequence flag 0x20: the sequence's keys are inside the `.m2` (§3.3).
pub const SEQUENCE_IN_MODEL: u32 = 0x20;
/// Sequence flag 0x40: an alias; its keys are those of `alias_next` (followed to a non-alias).
pub const SEQUENCE_ALIAS: u32 = 0x40;
/// The flags that keep a sequence's keys in the `.m2` (0x10 low-priority, 0x20 in model, 0x100
/// stored in model: pywowlib's and M2Lib's rule, §3.4); without any of them the keys are in a
/// `.anim` file.
pub const SEQUENCE_NOT_EXTERNAL: u32 = 0x130;

/// A sequence from Wrath on (64 bytes; pre-Wrath `start, end` became one `duration`).
#[derive(Debug, Clone, Copy, PartialEq, Default, Pod, Zeroable, Serialize, Deserialize)]
#[repr(C)]
pub struct WrathSequence {
    /// AnimationData.dbc id.
    pub id: u16,
    /// Variation index, 0..n−1 per id.
    pub variation: u16,
    /// Length in milliseconds; every timeline of the sequence runs from 0 to it.
    pub duration: u32,
    /// Movement speed while playing (yards per second).
    pub move_speed: f32,
    /// Flags: 0x1/0x2 as pre-Wrath, 0x20 keys in the `.m2`, 0x40 alias (§3.3); others kept.
    pub flags: u32,
    /// Relative frequency among the variations of one id.
    pub frequency: i16,
    /// Padding.
    pub padding: u16,
    /// Minimum and maximum number of repetitions.
    pub replay: [u32; 2],
    /// Milliseconds to blend into this sequence (the upper half is 0 in every 264/272 file;
    /// later files split it into blend-in and blend-out, §2.3: kept whole).
    pub blend_time: u32,
    /// Box of the posed model over the sequence.
    pub bounds: Bounds,
    /// Radius of the bounding sphere.
    pub bounds_radius: f32,
    /// Index of the next sequence with the same id, or −1.
    pub next_variation: i16,
    /// Alias: the sequence whose keys this one uses (itself for a non-alias, the alias for an
    /// alias's target: §3.2).
    pub alias_next: u16,
}

const _: () = assert!(size_of::<WrathSequence>() == 64);

impl WrathSequence {
    /// True if the sequence is an alias of `alias_next`.
    pub fn is_alias(&self) -> bool {
        self.flags & SEQUENCE_ALIAS != 0
    }
}

/// The sequence whose keys sequence `s` uses: `s` itself, or for an alias the first non-alias
/// along its `alias_next` chain (`None` for a chain that loops or leaves the table).
pub fn resolve_alias(sequences: &[WrathSequence], s: usize) -> Option<usize> {
    let mut at = s;
    for _ in 0..=sequences.len() {
        let seq = sequences.get(at)?;
        if !seq.is_alias() {
            return Some(at);
        }
        at = usize::from(seq.alias_next);
    }
    None
}

/// True if the keys of sequence `s` live in a `.anim` file (after alias resolution, m2-wrath.md
/// §3.4).
pub(crate) fn keys_external(sequences: &[WrathSequence], s: usize) -> bool {
    let r = resolve_alias(sequences, s).unwrap_or(s);
    sequences.get(r).is_some_and(|q| q.flags & SEQUENCE_NOT_EXTERNAL == 0)
}
