//! The one difference between the record families of 256–263 and of 264 on: how a track keys its
//! values (m2-wrath.md §3.1). Every record that holds tracks is one type generic over the
//! [`TrackKind`] — `Bone<Ranged>` (256–263, [`Bone`](super::Bone)) and `Bone<PerSequence>` (264
//! on, [`WrathBone`](super::wrath::WrathBone)) — the way object's `ElfFile<Elf: FileHeader>` is one
//! reader for 32- and 64-bit files.
//!
//! | kind | a track | bytes | a camera spline | event times | bone rotation |
//! |---|---|---|---|---|---|
//! | [`Ranged`] (256–263) | one timeline, a `(first, last)` key range per sequence | 28 | [`SplineTrack`] | [`EventTrack`] | [`RotationTrack`] (4×f32 ≤ 259, 4×i16 from 260) |
//! | [`PerSequence`] (264 on) | one timeline per sequence | 20 | [`SeqSplineTrack`] | [`SeqEventTrack`] | 4×i16 [`SeqTrack`] |

use std::fmt::Debug;

use binrw::{BinRead, BinWrite};
use bytemuck::Pod;
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::ctx::Ctx;
use super::layout::Layout;
use super::record::Walk;
use super::track::{EventTrack, RotationTrack, SplineTrack, Track};
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

/// How the tracks of a record key their values: [`Ranged`] (256–263) or [`PerSequence`] (264 on).
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
}

impl TrackKind for PerSequence {
    type Track<T: Value> = SeqTrack<T>;
    type Spline<T: Value> = SeqSplineTrack<T>;
    type Events = SeqEventTrack;
    type Rotation = SeqTrack<[i16; 4]>;
    const PER_SEQUENCE: bool = true;
}

/// `ranged` or `per_sequence` as the kind `K` says (record sizes).
pub(crate) const fn by_kind<K: TrackKind>(ranged: u64, per_sequence: u64) -> u64 {
    if K::PER_SEQUENCE { per_sequence } else { ranged }
}
