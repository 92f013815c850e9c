//! Animations: channels on their clocks, key bounds and events.

use super::*;

/// One animation clip.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Animation {
    /// Name (ABC animation name, M2 `<AnimationData id>.<variation>`, NAD file stem).
    pub name: String,
    /// Length in seconds.
    pub duration: f32,
    /// Plays in a loop.
    pub looping: bool,
    /// Seconds over which the game blends into this clip.
    pub blend_in: f32,
    /// Bone channels.
    pub channels: Vec<Channel>,
    /// Morph-target weight channels (vertex animation).
    pub morph_channels: Vec<MorphChannel>,
    /// Timed events (ABC keyframe strings, NAD tags, M2 events).
    pub events: Vec<Event>,
    /// Bounding box of the whole clip as the file states it.
    pub bounds: Option<Aabb>,
    /// Boxes the file states for single moments of the clip (ABC v6 stores one per keyframe), in
    /// ascending time. Kept for writing back and as a real-data check of the pose.
    pub key_bounds: Vec<KeyBounds>,
}

/// The box of the posed mesh at one moment of a clip, as the file states it.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct KeyBounds {
    /// Seconds from the start of the clip.
    pub time: f32,
    /// The stored box (all zero where the exporter left it empty).
    pub bounds: Aabb,
}

/// Which clock drives a channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Clock {
    /// The clip's own time.
    #[default]
    Animation,
    /// An independent looping clock, index into [`Model::global_sequences`] (M2).
    Global(usize),
}

/// How values between keys are computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Interpolation {
    /// Hold the previous key's value.
    Step,
    /// Linear (rotations: shortest-path spherical).
    #[default]
    Linear,
    /// Cubic Hermite with in/out tangents per key, exactly glTF's CUBICSPLINE.
    CubicSpline,
}

/// Keyed values of one bone property.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum ChannelValues {
    /// Local translation.
    Translation(Vec<[f32; 3]>),
    /// Local rotation, unit quaternions `[x, y, z, w]`.
    Rotation(Vec<[f32; 4]>),
    /// Local scale.
    Scale(Vec<[f32; 3]>),
}

impl ChannelValues {
    /// Number of stored values (3 per key for cubic channels).
    pub fn len(&self) -> usize {
        match self {
            ChannelValues::Translation(v) | ChannelValues::Scale(v) => v.len(),
            ChannelValues::Rotation(v) => v.len(),
        }
    }
    /// True if no values are stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// `translation`, `rotation` or `scale`.
    pub fn property(&self) -> &'static str {
        match self {
            ChannelValues::Translation(_) => "translation",
            ChannelValues::Rotation(_) => "rotation",
            ChannelValues::Scale(_) => "scale",
        }
    }
}

/// Keys of one bone property. For [`Interpolation::CubicSpline`] the values hold three entries per
/// key, in glTF's order: in-tangent, value, out-tangent (tangents in units per second).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Channel {
    /// Index into [`Model::bones`].
    pub bone: usize,
    /// Clock that drives the channel.
    pub clock: Clock,
    /// Interpolation between keys.
    pub interpolation: Interpolation,
    /// Key times in seconds, strictly increasing (may start before 0 or end after the clip:
    /// sampling clamps, it never extrapolates).
    pub times: Vec<f32>,
    /// The keyed values.
    pub values: ChannelValues,
}

/// Keys of the morph-target weights of one mesh.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct MorphChannel {
    /// Index into [`Model::meshes`].
    pub mesh: usize,
    /// Interpolation between keys (step or linear).
    pub interpolation: Interpolation,
    /// Key times in seconds, strictly increasing.
    pub times: Vec<f32>,
    /// `times.len() × targets` weights, key after key.
    pub weights: Vec<f32>,
}

/// Something that happens at a moment of a clip.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Event {
    /// Time in seconds from the start of the clip.
    pub time: f32,
    /// What happens: ABC command string, NAD tag name, M2 event identifier (`$CSS`).
    pub name: String,
    /// Bone it happens at (M2).
    pub bone: Option<usize>,
    /// Position relative to that bone (M2).
    pub position: Option<[f32; 3]>,
    /// Integer parameter (M2 event data, NAD tag type).
    pub parameter: Option<u32>,
}
