//! The records of Wrath and later (m2-wrath.md §3.2, §5): the names of the records holding
//! tracks, which are the pre-Wrath types with per-sequence tracks ([`PerSequence`]), and the
//! 64-byte sequence (beside the pre-Wrath one, `file::sequence`). Records without tracks
//! (vertex, texture, material, texture unit, 48-byte submesh) did not change.

use crate::file::kind::PerSequence;
pub(crate) use crate::file::sequence::keys_external;
pub use crate::file::sequence::{
    SEQUENCE_ALIAS, SEQUENCE_IN_MODEL, SEQUENCE_NOT_EXTERNAL, WrathSequence, resolve_alias,
};
use crate::file::{
    Attachment, Bone, Camera, Color, Event, Light, M2File, Particle, Ribbon, TextureTransform, TextureWeight,
};

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
/// (its views are in `.skin` files, [`Skin`](super::Skin); [`M2File`]).
pub type WrathFile = M2File<PerSequence>;
/// A particle emitter from Wrath on (476 bytes; 492 from 272: [`Particle`]).
pub type WrathParticle = Particle<PerSequence>;
/// A ribbon emitter from Wrath on (176 bytes, [`Ribbon`]; none in the real files, layout from
/// peers).
pub type WrathRibbon = Ribbon<PerSequence>;
