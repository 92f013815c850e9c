//! The two families of M2 records, 256–263 and 264 on, and what tells them apart: above all how
//! a track keys its values (m2-wrath.md §3.1), then the sequence record, the header fields only
//! one family has ([`Slot`]s) and what a particle emitter holds besides its tracks. Every record
//! that holds tracks, the particle emitter and the header are each one type generic over the
//! [`TrackKind`] — `Bone<Ranged>` (256–263, [`Bone`](super::Bone)) and `Bone<PerSequence>` (264
//! on, [`WrathBone`](super::wrath::WrathBone)), `M2File<Ranged>` and `M2File<PerSequence>`
//! ([`WrathFile`](super::wrath::WrathFile)) — the way object's `ElfFile<Elf: FileHeader>` is one
//! reader for 32- and 64-bit files, its associated types the records that differ.
//!
//! | kind | a track | bytes | a camera spline | event times | bone rotation |
//! |---|---|---|---|---|---|
//! | [`Ranged`] (256–263) | one timeline, a `(first, last)` key range per sequence | 28 | [`SplineTrack`] | [`EventTrack`] | [`RotationTrack`] (4×f32 ≤ 259, 4×i16 from 260) |
//! | [`PerSequence`] (264 on) | one timeline per sequence | 20 | [`SeqSplineTrack`] | [`SeqEventTrack`] | 4×i16 [`SeqTrack`] |
//!
//! | kind | sequence | header | particle bytes 0x28–0x2B | particle over its life |
//! |---|---|---|---|---|
//! | [`Ranged`] | [`Sequence`] (68 bytes) | 0x144 bytes: playable lookup, views, texture flipbooks | [`ClassicBlend`] | [`LifeValues`] |
//! | [`PerSequence`] | [`WrathSequence`] (64 bytes) | 0x130 bytes: the number of `.skin` files | [`WrathBlend`] | [`LifeTracks`] |

use std::fmt::Debug;

use binrw::{BinRead, BinWrite};
use bytemuck::Pod;
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::array::M2Array;
use super::ctx::Ctx;
use super::layout::Layout;
use super::mesh::View;
use super::particle::{ClassicBlend, LifeTracks, LifeValues, WrathBlend};
use super::record::Walk;
use super::sequence::{PlayableAnimation, Sequence};
use super::slot::{Absent, Slot};
use super::track::{EventTrack, RotationTrack, SplineTrack, Track};
use super::wrath::records::WrathSequence;
use super::wrath::track::{SeqEventTrack, SeqSplineTrack, SeqTrack};

/// A value a track keys: plain old data, compared and carried in JSON as it is.
pub trait Value: Pod + Default + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync {}

impl<T: Pod + Default + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync> Value for T {}

/// What a record field of either kind is: read with the file's [`Ctx`], written with the
/// writer's [`Layout`], walked for the blocks it points to, carried in JSON.
// The walk is the crate's own (the writer's layout pass and the reader's checks use it); the
// bound names it so that a record generic over the kind can derive its walk.
#[allow(private_bounds)]
pub trait Part:
    Walk
    + Debug
    + Clone
    + PartialEq
    + Default
    + Serialize
    + DeserializeOwned
    + Send
    + Sync
    + for<'a> BinRead<Args<'a> = (&'a Ctx,)>
    + for<'a> BinWrite<Args<'a> = (&'a Layout,)>
{
}

impl<T: Value> Part for Track<T> {}
impl<T: Value> Part for SplineTrack<T> {}
impl Part for EventTrack {}
impl Part for RotationTrack {}
impl<T: Value> Part for SeqTrack<T> {}
impl<T: Value> Part for SeqSplineTrack<T> {}
impl Part for SeqEventTrack {}
impl Part for ClassicBlend {}
impl Part for WrathBlend {}
impl Part for LifeValues {}
impl Part for LifeTracks {}

/// The family of a record: [`Ranged`] (256–263) or [`PerSequence`] (264 on). Named for how its
/// tracks key their values, the difference every record holding tracks has.
pub trait TrackKind:
    Debug + Clone + Copy + PartialEq + Eq + Default + Serialize + DeserializeOwned + Send + Sync + 'static
{
    /// An animated value (`M2Track<T>`).
    type Track<T: Value>: Part;
    /// A camera spline: value, in-tangent and out-tangent per key whatever the interpolation.
    type Spline<T: Value>: Part;
    /// An event's firing times (a track without values).
    type Events: Part;
    /// A bone's rotation.
    type Rotation: Part;
    /// True for one timeline per sequence (264 on).
    const PER_SEQUENCE: bool;

    /// A sequence.
    type Sequence: Value;
    /// The header's playable-animation lookup (256–263).
    type PlayableLookup: Slot;
    /// The header's embedded views (256–263).
    type Views: Slot;
    /// The header's count of `.skin` files (264 on).
    type SkinProfiles: Slot;
    /// The header's texture flipbooks (256–263).
    type TextureFlipbooks: Slot;
    /// Bytes of the header without the array global flag 0x8 adds.
    const HEADER_SIZE: u64;
    /// A particle emitter's bytes 0x28–0x2B: blend mode and emitter type.
    type Blend: Part;
    /// A particle's colour, size and cells over its life.
    type Life: Part;
}

/// 256–263: every track keeps its keys on one timeline the sequences share, with a key range per
/// sequence (28-byte tracks, m2.md §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct Ranged;

/// 264 on: every track keeps one timeline per sequence (20-byte tracks, m2-wrath.md §3.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct PerSequence;

impl TrackKind for Ranged {
    type Track<T: Value> = Track<T>;
    type Spline<T: Value> = SplineTrack<T>;
    type Events = EventTrack;
    type Rotation = RotationTrack;
    const PER_SEQUENCE: bool = false;
    type Sequence = Sequence;
    type PlayableLookup = M2Array<PlayableAnimation>;
    type Views = M2Array<View>;
    type SkinProfiles = Absent;
    type TextureFlipbooks = [u32; 2];
    const HEADER_SIZE: u64 = 0x144;
    type Blend = ClassicBlend;
    type Life = LifeValues;
}

impl TrackKind for PerSequence {
    type Track<T: Value> = SeqTrack<T>;
    type Spline<T: Value> = SeqSplineTrack<T>;
    type Events = SeqEventTrack;
    type Rotation = SeqTrack<[i16; 4]>;
    const PER_SEQUENCE: bool = true;
    type Sequence = WrathSequence;
    type PlayableLookup = Absent;
    type Views = Absent;
    type SkinProfiles = u32;
    type TextureFlipbooks = Absent;
    const HEADER_SIZE: u64 = 0x130;
    type Blend = WrathBlend;
    type Life = LifeTracks;
}

/// `ranged` or `per_sequence` as the kind `K` says (record sizes).
pub(crate) const fn by_kind<K: TrackKind>(ranged: u64, per_sequence: u64) -> u64 {
    if K::PER_SEQUENCE { per_sequence } else { ranged }
}
