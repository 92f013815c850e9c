//! Lights, cameras and collision shapes in a node's extras: everything the model holds of them,
//! exactly (the glTF light or camera beside is what viewers show; it cannot hold an ambient
//! light, a camera's target or a collision shape at all).

use relic_core::model::EmitterTrack;
use serde::{Deserialize, Serialize};

use super::{KeysJson, TransformJson};

/// `extras.relic` of a light, camera or collision-shape node.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "scene", rename_all = "snake_case")]
pub enum SceneObjectExtras {
    /// A light ([`relic_core::model::Light`]).
    Light {
        /// Its place among the model's lights.
        index: u32,
        /// `point`, `directional`, `spot` or `ambient`.
        kind: String,
        /// Place relative to the bone.
        transform: TransformJson,
        /// Linear RGB.
        color: [f32; 3],
        /// Intensity as the format states it.
        intensity: f32,
        /// Fade start and end, model units.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        attenuation: Option<[f32; 2]>,
        /// Ambient colour and intensity.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ambient: Option<([f32; 3], f32)>,
        /// Spot cone, inner and outer angle (radians).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cone: Option<[f32; 2]>,
        /// The animated parameters as JSON text ([`KeysJson`] list, as tints and UV animations carry their keys: editors keep a
        /// string where they would drop a list of objects).
        #[serde(default, skip_serializing_if = "String::is_empty")]
        tracks: String,
    },
    /// A camera ([`relic_core::model::Camera`]).
    Camera {
        /// Its place among the model's cameras.
        index: u32,
        /// Its place, relative to its bone or the model.
        position: [f32; 3],
        /// The point it looks at, in the same space.
        target: [f32; 3],
        /// Vertical field of view, radians.
        yfov: f32,
        /// Near clip distance.
        znear: f32,
        /// Far clip distance.
        zfar: f32,
        /// See the light's.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        tracks: String,
    },
    /// A collision shape ([`relic_core::model::CollisionShape`]).
    CollisionShape {
        /// Its place among the model's collision shapes.
        index: u32,
        /// `box`, `plane`, `sphere` or `cylinder`.
        shape: String,
        /// Place relative to the bone.
        transform: TransformJson,
        /// Corners (box, plane), centre (sphere) or end centres (cylinder).
        points: Vec<[f32; 3]>,
        /// Radius (sphere, cylinder).
        #[serde(default)]
        radius: f32,
    },
}

/// The tracks as the text [`SceneObjectExtras`] carries ("" for none).
pub(crate) fn tracks_text(tracks: &[EmitterTrack]) -> String {
    if tracks.is_empty() {
        return String::new();
    }
    let list: Vec<KeysJson> = tracks.iter().map(KeysJson::from).collect();
    serde_json::to_string(&list).unwrap_or_default()
}

/// The tracks of [`tracks_text`]'s text (those that do not read dropped; the model's validation
/// checks the rest).
pub(crate) fn tracks_of_text(text: &str) -> Vec<EmitterTrack> {
    if text.is_empty() {
        return Vec::new();
    }
    serde_json::from_str::<Vec<KeysJson>>(text)
        .map(|list| list.iter().filter_map(KeysJson::track).collect())
        .unwrap_or_default()
}
