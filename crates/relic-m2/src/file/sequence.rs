//! Sequences, their boxes, and the playable-animation lookup (spec §5, §11): plain-old-data records, read and
//! written in bulk (their memory layout is their file layout).

use binrw::binrw;
use bytemuck::{Pod, Zeroable};
use serde::{Deserialize, Serialize};

/// An axis-aligned box (`CAaBox`).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy, PartialEq, Default, Pod, Zeroable, Serialize, Deserialize)]
#[repr(C)]
pub struct Bounds {
    /// Smallest corner.
    pub min: [f32; 3],
    /// Largest corner.
    pub max: [f32; 3],
}

/// One animation sequence (68 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Default, Pod, Zeroable, Serialize, Deserialize)]
#[repr(C)]
pub struct Sequence {
    /// AnimationData.dbc id (0 Stand, 1 Death, 4 Walk, 5 Run, …).
    pub id: u16,
    /// Variation index (0 in every sequence of the real 1.12 file).
    pub variation: u16,
    /// First millisecond of the sequence on the shared timeline.
    pub start: u32,
    /// Last millisecond (duration = end − start).
    pub end: u32,
    /// Movement speed while playing (yards per second).
    pub move_speed: f32,
    /// Flags; bit 0x1 set on every non-looping sequence of the real file (attacks, wounds, death).
    pub flags: u32,
    /// Relative frequency among the variations of one id (they sum to 0x7FFF).
    pub frequency: i16,
    /// Padding.
    pub padding: u16,
    /// Minimum and maximum number of repetitions.
    pub replay: [u32; 2],
    /// Milliseconds to blend into this sequence.
    pub blend_time: u32,
    /// Box of the posed model over the sequence.
    pub bounds: Bounds,
    /// Radius of the bounding sphere.
    pub bounds_radius: f32,
    /// Index of the next sequence with the same id, or −1.
    pub next_variation: i16,
    /// Alias: index of the sequence whose keys this one uses.
    pub alias_next: u16,
}

/// A playable-animation entry: for an AnimationData id, the id to play and how (4 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Pod, Zeroable, Serialize, Deserialize)]
#[repr(C)]
pub struct PlayableAnimation {
    /// AnimationData id to play.
    pub fallback_id: i16,
    /// 0 play, 1 backwards, 3 freeze (old notes, unverified).
    pub flags: i16,
}

impl PlayableAnimation {
    /// The `len` entries a lookup says when it says nothing the sequences do not: every id the
    /// model has (`sequence_lookup[id] ≥ 0`) plays itself, every other id Stand (0), no flags.
    /// relic writes it for a model that brought no lookup of its own; the client's AnimationData
    /// fallbacks are not known here.
    pub(crate) fn derived(sequence_lookup: &[i16], len: usize) -> Vec<Self> {
        (0..len)
            .map(|id| {
                let present = sequence_lookup.get(id).is_some_and(|&l| l >= 0);
                // The field holds the u16 id's bits (ids past 32767 are not in any game table).
                PlayableAnimation { fallback_id: if present { id as u16 as i16 } else { 0 }, flags: 0 }
            })
            .collect()
    }
}

super::record::plain!(Bounds);

const _: () = assert!(size_of::<Sequence>() == 68 && size_of::<PlayableAnimation>() == 4);
