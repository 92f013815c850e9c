//! The model's tints and UV animations as the scene's extras carry them ([`SurfacesJson`]): exact,
//! keys inline (an editor keeps the scene's string of extras byte for byte, and drops accessors
//! nothing references).

use relic_core::model::{Clock, EmitterTrack, Interpolation, LayerRef, Model, Tint, TintTarget, UvAnimation};
use serde::{Deserialize, Serialize};

use super::animation::{interpolation_name, interpolation_named};

/// [`Model::tints`] and [`Model::uv_animations`].
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct SurfacesJson {
    /// The tints, in model order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tints: Vec<TintJson>,
    /// The UV animations, in model order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub uv_animations: Vec<UvAnimationJson>,
}

/// A [`Tint`]: `mesh` or `layer` says what it colours.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct TintJson {
    /// The model mesh it colours.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mesh: Option<usize>,
    /// The texture layer it colours: `[material, texture]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layer: Option<[usize; 2]>,
    /// Linear RGB, absent where the format applies no colour.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<[f32; 3]>,
    /// Opacity.
    pub alpha: f32,
    /// Keys of `color` and `alpha`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tracks: Vec<KeysJson>,
}

/// A [`UvAnimation`].
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct UvAnimationJson {
    /// The layers it moves: `[material, texture]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub layers: Vec<[usize; 2]>,
    /// Keys of `offset`, `rotation` and `scale`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tracks: Vec<KeysJson>,
}

/// An [`EmitterTrack`] of a tint, UV animation, light or camera, its keys inline.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct KeysJson {
    /// `color`, `alpha`, `offset`, `rotation`, `scale`.
    pub property: String,
    /// The clip (model animation) the keys belong to; absent for keys every clip shares.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub animation: Option<usize>,
    /// The global sequence whose clock drives the keys; absent for the clip's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub global_sequence: Option<usize>,
    /// `step`, `linear`, `cubic`.
    pub interpolation: String,
    /// Numbers per value.
    pub components: usize,
    /// Key times in seconds.
    #[serde(with = "super::packed_f32")]
    pub times: Vec<f32>,
    /// Values, flat.
    #[serde(with = "super::packed_f32")]
    pub values: Vec<f32>,
}

impl SurfacesJson {
    /// The model's; `None` when it has neither tints nor UV animations.
    pub fn of(model: &Model) -> Option<Self> {
        if model.tints.is_empty() && model.uv_animations.is_empty() {
            return None;
        }
        let layer = |l: &LayerRef| [l.material, l.texture];
        let tints = model
            .tints
            .iter()
            .map(|t| TintJson {
                mesh: match t.target {
                    TintTarget::Mesh(m) => Some(m),
                    TintTarget::Layer(_) => None,
                },
                layer: match &t.target {
                    TintTarget::Layer(l) => Some(layer(l)),
                    TintTarget::Mesh(_) => None,
                },
                color: t.color,
                alpha: t.alpha,
                tracks: t.tracks.iter().map(KeysJson::from).collect(),
            })
            .collect();
        let uv_animations = model
            .uv_animations
            .iter()
            .map(|u| UvAnimationJson {
                layers: u.layers.iter().map(layer).collect(),
                tracks: u.tracks.iter().map(KeysJson::from).collect(),
            })
            .collect();
        Some(Self { tints, uv_animations })
    }

    /// The tints and UV animations back, and how many entries were inconsistent (left out).
    pub fn model(&self) -> (Vec<Tint>, Vec<UvAnimation>, usize) {
        let layer = |[material, texture]: [usize; 2]| LayerRef { material, texture };
        let tracks = |list: &[KeysJson]| -> Vec<EmitterTrack> { list.iter().filter_map(KeysJson::track).collect() };
        let all = self.tints.iter().flat_map(|t| &t.tracks).chain(self.uv_animations.iter().flat_map(|u| &u.tracks));
        let mut bad = all.filter(|k| k.track().is_none()).count();
        let mut tints = Vec::new();
        for t in &self.tints {
            let target = match (t.mesh, t.layer) {
                (Some(m), None) => TintTarget::Mesh(m),
                (None, Some(l)) => TintTarget::Layer(layer(l)),
                _ => {
                    bad += 1;
                    continue;
                }
            };
            tints.push(Tint { target, color: t.color, alpha: t.alpha, tracks: tracks(&t.tracks) });
        }
        let uv = self
            .uv_animations
            .iter()
            .map(|u| UvAnimation { layers: u.layers.iter().copied().map(layer).collect(), tracks: tracks(&u.tracks) })
            .collect();
        (tints, uv, bad)
    }
}

impl From<&EmitterTrack> for KeysJson {
    fn from(t: &EmitterTrack) -> Self {
        Self {
            property: t.property.clone(),
            animation: t.animation,
            global_sequence: match t.clock {
                Clock::Animation => None,
                Clock::Global(g) => Some(g),
            },
            interpolation: interpolation_name(t.interpolation).into(),
            components: t.components,
            times: t.times.clone(),
            values: t.values.clone(),
        }
    }
}

impl KeysJson {
    /// The track back; `None` for an interpolation it does not name, a value count that is not
    /// `components` (three times that for cubic keys) a key, a number that is not finite, or times that do not ascend.
    pub(crate) fn track(&self) -> Option<EmitterTrack> {
        let interpolation = interpolation_named(&self.interpolation)?;
        let per_key = self.components * if interpolation == Interpolation::CubicSpline { 3 } else { 1 };
        let finite = self.times.iter().chain(&self.values).all(|x| x.is_finite());
        let ascending = self.times.is_sorted_by(|a, b| a < b);
        if per_key == 0 || self.values.len() != self.times.len().saturating_mul(per_key) || !finite || !ascending {
            return None;
        }
        Some(EmitterTrack {
            property: self.property.clone(),
            animation: self.animation,
            clock: self.global_sequence.map_or(Clock::Animation, Clock::Global),
            interpolation,
            times: self.times.clone(),
            components: self.components,
            values: self.values.clone(),
        })
    }
}
