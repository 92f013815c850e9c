//! The file layout of Wrath and later non-chunked M2 (versions 264 and 272, m2-wrath.md): what
//! differs from 256–263. The header, the particle emitter and the records holding tracks are the
//! pre-Wrath types of the other family ([`PerSequence`]), named here; records whose layout did
//! not change are the pre-Wrath types.
//!
//! | record | 264 | 272 | module |
//! |---|---|---|---|
//! | header | 0x130 (+8 with flag 0x8) | same | [`WrathFile`] = `M2File<PerSequence>` |
//! | track / spline / event track | 20 / 20 / 12, one timeline per sequence | same | `track` ([`SeqTrack`], [`SeqSplineTrack`], [`SeqEventTrack`]) |
//! | sequence | 64 | same | `records` ([`WrathSequence`]) |
//! | bone, colour, texture weight, texture transform, attachment, event | 88, 40, 20, 60, 40, 36 | same | [`WrathBone`] = `Bone<PerSequence>`, … |
//! | camera | 100 | 116 (FOV track) | [`WrathCamera`] |
//! | light, ribbon | 156, 176 (peers only) | same | [`WrathLight`], [`WrathRibbon`] |
//! | particle | 476 | 492 | [`WrathParticle`] = `Particle<PerSequence>` ([`FakeTrack`]s: `file::particle`) |
//! | `.skin` header | 48 | 56 (+ shadow batches) | `skin` ([`Skin`]) |
//!
//! Offsets in a `.skin` count from its first byte; the keys of an external sequence count from
//! the first byte of its `.anim` (§3.4). `write` lays all of them out as Blizzard does.

pub(super) mod records;
mod skin;
pub(super) mod track;
mod write;

pub use super::header::{FLAG_COMBINER_COMBOS, WRATH_HEADER_SIZE};
pub use super::particle::FakeTrack;
pub(crate) use records::keys_external;
pub use records::{SEQUENCE_ALIAS, SEQUENCE_IN_MODEL, SEQUENCE_NOT_EXTERNAL, WrathSequence, resolve_alias};
pub use skin::{ShadowBatch, Skin, UnreadPair};
pub use track::{PerKey, SeqEventTrack, SeqSplineTrack, SeqTrack};
pub(crate) use write::{Keyed, anim_files, write_keyed};
pub use write::{WrathBytes, write, write_skin};

use super::kind::PerSequence;
use super::{Attachment, Bone, Camera, Color, Event, Light, M2File, Particle, Ribbon, TextureTransform, TextureWeight};

/// A bone from Wrath on (88 bytes, [`Bone`]).
pub type WrathBone = Bone<PerSequence>;
/// A colour animation from Wrath on (40 bytes, [`Color`]).
pub type WrathColor = Color<PerSequence>;
/// A texture weight from Wrath on (20 bytes, [`TextureWeight`]).
pub type WrathTextureWeight = TextureWeight<PerSequence>;
/// A texture transform from Wrath on (60 bytes, [`TextureTransform`]).
pub type WrathTextureTransform = TextureTransform<PerSequence>;
/// An attachment point from Wrath on (40 bytes, [`Attachment`]).
pub type WrathAttachment = Attachment<PerSequence>;
/// A timed event from Wrath on (36 bytes, [`Event`]).
pub type WrathEvent = Event<PerSequence>;
/// A light from Wrath on (156 bytes, [`Light`]; none in the real files, layout from peers).
pub type WrathLight = Light<PerSequence>;
/// A camera from Wrath on (100 bytes at 264, 116 at 272: [`Camera`]).
pub type WrathCamera = Camera<PerSequence>;
/// A whole `MD20` file of version 264 or 272, or the `MD20` block of a chunked 272 or 274 file
/// (its views are in `.skin` files, [`Skin`]; [`M2File`]).
pub type WrathFile = M2File<PerSequence>;
/// A particle emitter from Wrath on (476 bytes; 492 from 272: [`Particle`]).
pub type WrathParticle = Particle<PerSequence>;
/// A ribbon emitter from Wrath on (176 bytes, [`Ribbon`]; none in the real files, layout from
/// peers).
pub type WrathRibbon = Ribbon<PerSequence>;
