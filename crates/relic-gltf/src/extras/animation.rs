//! A clip's extras: what glTF's animations cannot say (duration, looping, events, stated boxes)
//! and the model channels kept as they were where the glTF channels are baked.

use relic_core::model::{Channel, ChannelValues, Clock, Event, Interpolation};
use serde::{Deserialize, Serialize};

use super::lenient_bool;

/// An animation's data (kept in the scene's extras, one per exported clip in order: Blender keeps
/// a scene's custom properties but not an animation's).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct AnimationExtras {
    /// The clip's name (found again by name in a file another tool re-ordered).
    #[serde(default)]
    pub name: String,
    /// Length in seconds (glTF clips end at their last key).
    pub duration: f32,
    /// Plays in a loop.
    #[serde(deserialize_with = "lenient_bool")]
    pub looping: bool,
    /// Seconds over which the game blends into the clip.
    pub blend_in: f32,
    /// Timed events.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<EventJson>,
    /// The clip's box as the file states it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bounds: Option<[[f32; 3]; 2]>,
    /// Boxes stated per moment: `[time, min, max]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub key_bounds: Vec<(f32, [f32; 3], [f32; 3])>,
    /// For each glTF channel of the clip (in order), the index of the model channel it holds
    /// verbatim, or `null` for a channel baked by the exporter (sampled evaluated transforms,
    /// a hold key for a clip without bone channels) and for morph weight channels (read as they
    /// are).
    pub channels: Vec<Option<usize>>,
    /// The model channels that are not in the glTF channels verbatim (baked or dropped), as they
    /// were, with their index.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stashed: Vec<StashedChannel>,
}

/// An [`Event`] as JSON.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct EventJson {
    /// Seconds from the start of the clip.
    pub time: f32,
    /// What happens.
    pub name: String,
    /// Bone it happens at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bone: Option<usize>,
    /// Position relative to the bone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<[f32; 3]>,
    /// Integer parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameter: Option<u32>,
}

impl From<&Event> for EventJson {
    fn from(e: &Event) -> Self {
        Self { time: e.time, name: e.name.clone(), bone: e.bone, position: e.position, parameter: e.parameter }
    }
}

impl From<&EventJson> for Event {
    fn from(e: &EventJson) -> Self {
        Self { time: e.time, name: e.name.clone(), bone: e.bone, position: e.position, parameter: e.parameter }
    }
}

/// A model channel kept as it was.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StashedChannel {
    /// Index in [`relic_core::model::Animation::channels`].
    pub index: usize,
    /// Bone index.
    pub bone: usize,
    /// `null` for the clip's clock, else the global sequence index.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub global_sequence: Option<usize>,
    /// `step`, `linear`, `cubic`.
    pub interpolation: String,
    /// `translation`, `rotation`, `scale`.
    pub property: String,
    /// Key times.
    #[serde(with = "super::packed_f32")]
    pub times: Vec<f32>,
    /// Values, flat (3 or 4 per value).
    #[serde(with = "super::packed_f32")]
    pub values: Vec<f32>,
}

pub(super) fn interpolation_name(i: Interpolation) -> &'static str {
    match i {
        Interpolation::Step => "step",
        Interpolation::Linear => "linear",
        Interpolation::CubicSpline => "cubic",
    }
}

/// The interpolation [`interpolation_name`] names.
pub(super) fn interpolation_named(name: &str) -> Option<Interpolation> {
    match name {
        "step" => Some(Interpolation::Step),
        "linear" => Some(Interpolation::Linear),
        "cubic" => Some(Interpolation::CubicSpline),
        _ => None,
    }
}

impl StashedChannel {
    pub(crate) fn new(index: usize, c: &Channel) -> Self {
        let values: Vec<f32> = match &c.values {
            ChannelValues::Translation(v) | ChannelValues::Scale(v) => v.iter().flatten().copied().collect(),
            ChannelValues::Rotation(v) => v.iter().flatten().copied().collect(),
        };
        Self {
            index,
            bone: c.bone,
            global_sequence: match c.clock {
                Clock::Animation => None,
                Clock::Global(g) => Some(g),
            },
            interpolation: interpolation_name(c.interpolation).into(),
            property: c.values.property().into(),
            times: c.times.clone(),
            values,
        }
    }

    /// The channel back; `None` if the JSON is inconsistent.
    pub(crate) fn channel(&self) -> Option<Channel> {
        let interpolation = interpolation_named(&self.interpolation)?;
        let v3 = || -> Option<Vec<[f32; 3]>> {
            let (chunks, remainder) = self.values.as_chunks::<3>();
            remainder.is_empty().then(|| chunks.to_vec())
        };
        let values = match self.property.as_str() {
            "translation" => ChannelValues::Translation(v3()?),
            "scale" => ChannelValues::Scale(v3()?),
            "rotation" => {
                let (chunks, remainder) = self.values.as_chunks::<4>();
                if !remainder.is_empty() {
                    return None;
                }
                ChannelValues::Rotation(chunks.to_vec())
            }
            _ => return None,
        };
        Some(Channel {
            bone: self.bone,
            clock: self.global_sequence.map_or(Clock::Animation, Clock::Global),
            interpolation,
            times: self.times.clone(),
            values,
        })
    }
}
