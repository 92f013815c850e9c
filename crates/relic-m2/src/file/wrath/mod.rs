//! The file layout of Wrath and later non-chunked M2 (versions 264 and 272, m2-wrath.md): what
//! differs from 256–263. The header, the particle emitter and the records holding tracks are the
//! pre-Wrath types of the other family ([`PerSequence`](super::PerSequence)), named here; records
//! whose layout did not change are the pre-Wrath types.
//!
//! | record | 264 | 272 | module |
//! |---|---|---|---|
//! | header | 0x130 (+8 with flag 0x8) | same | [`WrathFile`] = `M2File<PerSequence>` |
//! | track / spline / event track | 20 / 20 / 12, one timeline per sequence | same | `track` ([`SeqTrack`], [`SeqSplineTrack`], [`SeqEventTrack`]) |
//! | sequence | 64 | same | [`WrathSequence`] (`file::sequence`) |
//! | bone, colour, texture weight, texture transform, attachment, event | 88, 40, 20, 60, 40, 36 | same | `records` ([`WrathBone`] = `Bone<PerSequence>`, …) |
//! | camera | 100 | 116 (FOV track) | [`WrathCamera`] |
//! | light, ribbon | 156, 176 (peers only) | same | [`WrathLight`], [`WrathRibbon`] |
//! | particle | 476 | 492 | [`WrathParticle`] = `Particle<PerSequence>` ([`FakeTrack`]s: `file::particle`) |
//! | `.skin` header | 48 | 56 (+ shadow batches) | `skin` ([`Skin`]) |
//!
//! Offsets in a `.skin` count from its first byte; the keys of an external sequence count from
//! the first byte of its `.anim` (§3.4). `write` lays all of them out as Blizzard does.

mod records;
mod skin;
pub(super) mod track;
mod write;

pub use super::header::{FLAG_COMBINER_COMBOS, WRATH_HEADER_SIZE};
pub use super::particle::FakeTrack;
pub use records::*;
pub use skin::{ShadowBatch, Skin, UnreadPair};
pub use track::{PerKey, SeqEventTrack, SeqSplineTrack, SeqTrack};
pub use write::{WrathBytes, write, write_skin};
