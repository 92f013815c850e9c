//! The file layout of M2 versions 256–263: one struct per record, fields in file order, each read
//! and written by binrw from the same type.
//!
//! Record sizes by version (spec §3): bone 108 (≤ 259) / 112 (≥ 260), submesh 32 / 48, every
//! other record the same in both. Rotation keys are 4×f32 up to 259 and 4×i16 from 260 (§8).
//! All offsets are absolute; blocks are 16-byte aligned in Blizzard's files (§1), and the writer
//! lays them out that way ([`Layout`]).
//!
//! Every record holding tracks is one type for both track kinds ([`TrackKind`]): `Bone` is
//! `Bone<Ranged>`, the 256–263 record; `Bone<PerSequence>` is Wrath's
//! ([`wrath::WrathBone`]).
//!
//! | module | records |
//! |---|---|
//! | `header` | [`M2File`] (for both families: `M2File<PerSequence>` is [`wrath::WrathFile`]) |
//! | `kind` | [`TrackKind`]: [`Ranged`] (256–263), [`PerSequence`] (264 on) |
//! | `slot` | [`Slot`]: a header field of one family only, [`Absent`] in the other |
//! | `array`, `track`, `quat` | [`M2Array`], [`Track`], [`EventTrack`], [`SplineTrack`], [`RotationTrack`], compressed quaternions |
//! | `sequence` | [`Sequence`], [`Bounds`], [`PlayableAnimation`] |
//! | `bone` | [`Bone`] and its flags |
//! | `mesh` | [`Vertex`], [`View`], [`Submesh`], [`TextureUnit`] |
//! | `material` | [`Texture`], [`RenderFlag`], [`Color`], [`TextureWeight`], [`TextureTransform`] |
//! | `attachment` | [`Attachment`], [`Event`] |
//! | `scene` | [`Light`], [`Camera`] |
//! | `effects` | [`Ribbon`], [`Particle`] |
//! | `particle` | what a particle emitter holds per family besides tracks: [`ParticleBlend`], [`ClassicBlend`], [`WrathBlend`], [`LifeValues`], [`LifeTracks`], [`FakeTrack`](wrath::FakeTrack) |

//!
//! `record` walks the blocks each record points to (derived from its fields: `record!`);
//! `layout` and `write` place and write them; `kept` records the layout a file was read with,
//! which the writer keeps while the file still has it.

pub(crate) mod array;
mod attachment;
mod bone;
pub(crate) mod ctx;
mod effects;
mod header;
pub(crate) mod kept;
pub(crate) mod kind;
pub(crate) mod layout;
pub(crate) mod material;
pub(crate) mod mesh;
mod particle;
mod quat;
pub(crate) mod record;
mod scene;
pub(crate) mod sequence;
pub(crate) mod slot;
pub(crate) mod track;
pub mod wrath;
pub(crate) mod write;

pub use array::M2Array;
pub(crate) use array::text;
pub use attachment::{Attachment, Event};
pub use bone::*;
pub use ctx::Ctx;
pub use effects::{Particle, Ribbon};
pub use header::{FLAG_BLEND_OVERRIDES, HEADER_SIZE, M2File};
pub use kept::AsRead;
pub use kind::{Part, PerSequence, Ranged, TrackKind, Value};
pub use layout::Layout;
pub use material::{Color, RenderFlag, Texture, TextureTransform, TextureWeight};
pub use mesh::{Submesh, TextureUnit, Vertex, View};
pub use particle::{ClassicBlend, LifeTracks, LifeValues, ParticleBlend, WrathBlend};
pub use quat::{decode_component, decode_quat, encode_component, encode_quat};
pub use scene::{Camera, Light};
pub use sequence::{Bounds, PlayableAnimation, Sequence};
pub use slot::{Absent, Slot};
pub use track::{
    EventTrack, INTERPOLATION_BEZIER, INTERPOLATION_HERMITE, INTERPOLATION_LINEAR, INTERPOLATION_NONE, RotationTrack,
    SplineTrack, Track, values_per_key,
};
pub(crate) use write::write;
