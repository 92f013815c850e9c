//! Particle and ribbon emitters: where a model's effects come from.
//!
//! The common model does not simulate effects; it says where each emitter sits, what it draws and
//! how its parameters move, so that every format and glTF can show and carry it. The format's own
//! record (M2's particle or ribbon record) travels beside as [`FormatExtras`], so the format that
//! made it writes it back exactly.

use super::*;

/// What an emitter emits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum EmitterKind {
    /// Particles (M2 particle emitter).
    #[default]
    Particle,
    /// A ribbon trailing behind the emitter (M2 ribbon emitter).
    Ribbon,
}

impl EmitterKind {
    /// `particle` or `ribbon`.
    pub fn as_str(self) -> &'static str {
        match self {
            EmitterKind::Particle => "particle",
            EmitterKind::Ribbon => "ribbon",
        }
    }
}

/// One particle or ribbon emitter on a bone.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Emitter {
    /// Particle or ribbon.
    pub kind: EmitterKind,
    /// Name (`particle 3`: formats store none).
    pub name: String,
    /// Index into [`Model::bones`].
    pub bone: usize,
    /// Place relative to the bone, in the rest pose.
    pub transform: Transform,
    /// The texture it draws, if it names one.
    pub texture: Option<TextureRef>,
    /// Its base size in model units (a particle's largest size, a ribbon's height): what a
    /// stand-in of the emitter is drawn at.
    pub size: f32,
    /// Its animated parameters (emission rate, speed, …), for viewers; the format's record is
    /// what writers use.
    pub tracks: Vec<EmitterTrack>,
    /// The source format's own record of the emitter, whole.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub record: Option<FormatExtras>,
}

/// The keys of one animated parameter of an emitter in one clip (or on a global clock).
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct EmitterTrack {
    /// The parameter, as the format names it (`emission_speed`, `lifespan`, `color`, …).
    pub property: String,
    /// The clip the keys belong to (index into [`Model::animations`]); `None` for keys every
    /// clip shares (a global clock, or a track without per-clip ranges).
    pub animation: Option<usize>,
    /// Clock that drives the keys.
    pub clock: Clock,
    /// Interpolation between keys ([`Interpolation::CubicSpline`]: in-tangent, value,
    /// out-tangent per key).
    pub interpolation: Interpolation,
    /// Key times in seconds, strictly increasing.
    pub times: Vec<f32>,
    /// Numbers per value (1 for a scalar, 3 for a colour).
    pub components: usize,
    /// The values, key after key (`times × components`, three times that for cubic keys).
    pub values: Vec<f32>,
}

impl Model {
    /// What a writer of a format that holds no emitters reports for this model: the emitters of
    /// each kind it leaves out (`None` for a model without emitters).
    pub fn emitters_not_held(&self, format: &str) -> Option<crate::Loss> {
        let count = |kind: EmitterKind| self.emitters.iter().filter(|e| e.kind == kind).count();
        let (particles, ribbons) = (count(EmitterKind::Particle), count(EmitterKind::Ribbon));
        let mut kinds = Vec::new();
        if particles > 0 {
            kinds.push(format!("{particles} particle emitters"));
        }
        if ribbons > 0 {
            kinds.push(format!("{ribbons} ribbon emitters"));
        }
        (!kinds.is_empty()).then(|| crate::Loss::new("emitters", format!("{}: {format} holds none", kinds.join(", "))))
    }
}
