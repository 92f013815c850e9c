//! An emitter node's records: the `RELIC_particle_emitter` / `RELIC_ribbon_emitter` extension
//! (for viewers: the whole record as JSON, its tracks as accessors) and the compact copy in the
//! node's `extras` (for editors, which keep extras but drop extensions).

use serde::{Deserialize, Serialize};

use super::{TextureJson, TransformJson, lenient_bool};

/// The extension on a particle emitter's node.
pub const PARTICLE_EXTENSION: &str = "RELIC_particle_emitter";
/// The extension on a ribbon emitter's node.
pub const RIBBON_EXTENSION: &str = "RELIC_ribbon_emitter";

/// What the two extensions hold (`docs/RELIC_emitter.schema.json`).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct EmitterExtension {
    /// Index of the bone (skin joint) the emitter sits on.
    pub bone: u32,
    /// The emitter's base size in model units (the stand-in quad's side).
    pub size: f32,
    /// The texture it draws: the game's path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub texture: Option<TextureJson>,
    /// The game format's own record of the emitter, whole.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record: Option<RecordJson>,
    /// Its animated parameters.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tracks: Vec<TrackJson>,
}

/// A game format's record: the format (`m2`) and the record in the format's JSON, the shape the
/// scene's format extras have.
pub type RecordJson = super::FormatExtrasJson;

/// One animated parameter: keys in two accessors, as a glTF animation sampler holds them.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TrackJson {
    /// The parameter (`emission_rate`, `color`, …).
    pub property: String,
    /// The glTF animation (clip) the keys belong to; absent for keys every clip shares.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub animation: Option<u32>,
    /// The global sequence (index into the scene extras' `global_sequences`) whose looping clock
    /// drives the keys; absent for the clip's own clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub global_sequence: Option<u32>,
    /// `STEP` or `LINEAR`.
    pub interpolation: String,
    /// Accessor of the key times in seconds (`SCALAR` float).
    pub input: u32,
    /// Accessor of the values (`SCALAR`, `VEC2`, `VEC3` or `VEC4` float: one per key).
    pub output: u32,
}

/// An emitter node's `extras.relic`: what an editor brings back with its custom properties.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct EmitterExtras {
    /// `particle` or `ribbon`.
    pub emitter: String,
    /// The emitter's index in the model (an editor may write nodes in another order).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<u32>,
    /// The place on the bone exactly as the model held it (an editor rounds the node's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transform: Option<TransformJson>,
    /// See [`EmitterExtension::size`].
    pub size: f32,
    /// See [`EmitterExtension::texture`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub texture: Option<TextureJson>,
    /// The game format's name (`m2`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// The record in the format's JSON, as a string (deflated above 4 KiB, as the scene's
    /// extras): an editor keeps a string byte for byte.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record: Option<String>,
}

/// A stand-in mesh's or material's `extras.relic`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct StandInExtras {
    /// Marks a mesh or material that only shows where an emitter is: not model geometry.
    #[serde(deserialize_with = "lenient_bool")]
    pub stand_in: bool,
}
