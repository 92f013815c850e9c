//! Lights, cameras and collision shapes in a node's extras: everything the model holds of them,
//! exactly (the glTF light or camera beside is what viewers show; it cannot hold an ambient
//! light, a camera's target or a collision shape at all).

use relic_core::model::{Clock, EmitterTrack, Interpolation};
use serde::{Deserialize, Serialize};

use super::TransformJson;

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
        /// The animated parameters as JSON text ([`ParameterTrackJson`] list: editors keep a
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

/// One [`EmitterTrack`] of a light or camera, whole (cubic keys with their tangents).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ParameterTrackJson {
    /// The parameter.
    pub property: String,
    /// The clip, if one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub animation: Option<u32>,
    /// The global sequence, if on one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub global_sequence: Option<u32>,
    /// `STEP`, `LINEAR` or `CUBICSPLINE` (glTF's names).
    pub interpolation: String,
    /// Numbers per value.
    pub components: u32,
    /// Key times, seconds.
    pub times: Vec<f32>,
    /// Values (in-tangent, value, out-tangent per key when cubic).
    pub values: Vec<f32>,
}

impl From<&EmitterTrack> for ParameterTrackJson {
    fn from(t: &EmitterTrack) -> Self {
        Self {
            property: t.property.clone(),
            animation: t.animation.and_then(|a| u32::try_from(a).ok()),
            global_sequence: match t.clock {
                Clock::Global(g) => u32::try_from(g).ok(),
                Clock::Animation => None,
            },
            interpolation: match t.interpolation {
                Interpolation::Step => "STEP",
                Interpolation::Linear => "LINEAR",
                Interpolation::CubicSpline => "CUBICSPLINE",
            }
            .into(),
            components: u32::try_from(t.components).unwrap_or(0),
            times: t.times.clone(),
            values: t.values.clone(),
        }
    }
}

impl ParameterTrackJson {
    /// The track; `None` for an interpolation glTF does not name.
    pub fn to_track(&self) -> Option<EmitterTrack> {
        let interpolation = match self.interpolation.as_str() {
            "STEP" => Interpolation::Step,
            "LINEAR" => Interpolation::Linear,
            "CUBICSPLINE" => Interpolation::CubicSpline,
            _ => return None,
        };
        Some(EmitterTrack {
            property: self.property.clone(),
            animation: self.animation.map(|a| a as usize),
            clock: self.global_sequence.map_or(Clock::Animation, |g| Clock::Global(g as usize)),
            interpolation,
            times: self.times.clone(),
            components: self.components as usize,
            values: self.values.clone(),
        })
    }
}

/// The tracks as the text [`SceneObjectExtras`] carries ("" for none).
pub(crate) fn tracks_text(tracks: &[EmitterTrack]) -> String {
    if tracks.is_empty() {
        return String::new();
    }
    let list: Vec<ParameterTrackJson> = tracks.iter().map(ParameterTrackJson::from).collect();
    serde_json::to_string(&list).unwrap_or_default()
}

/// The tracks of [`tracks_text`]'s text (those that do not read dropped; the model's validation
/// checks the rest).
pub(crate) fn tracks_of_text(text: &str) -> Vec<EmitterTrack> {
    if text.is_empty() {
        return Vec::new();
    }
    serde_json::from_str::<Vec<ParameterTrackJson>>(text)
        .map(|list| list.iter().filter_map(ParameterTrackJson::to_track).collect())
        .unwrap_or_default()
}
