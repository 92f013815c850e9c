//! Lights, cameras and collision shapes: the parts of a model's scene that are not drawn.
//!
//! As with emitters, the common model says where each sits and what it is in glTF's terms (a
//! light's kind, colour, intensity and range as `KHR_lights_punctual` has them; a camera's
//! vertical field of view and clip distances as a glTF perspective camera), and how its
//! parameters move ([`EmitterTrack`], one per animated parameter and clip). A format that needs
//! more to write itself back keeps its own record beside it as [`FormatExtras`].

use super::*;

/// What a light is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum LightKind {
    /// Shines from a point in every direction (MDX omnidirectional, M2 point).
    #[default]
    Point,
    /// Shines along its node's −Z axis from infinitely far, as glTF's directional light.
    Directional,
    /// A cone along its node's −Z axis ([`Light::cone`]).
    Spot,
    /// Lights everything evenly from no direction (MDX ambient): glTF has no such light.
    Ambient,
}

impl LightKind {
    /// `point`, `directional`, `spot` or `ambient` (glTF's names, and `ambient`).
    pub fn as_str(self) -> &'static str {
        match self {
            LightKind::Point => "point",
            LightKind::Directional => "directional",
            LightKind::Spot => "spot",
            LightKind::Ambient => "ambient",
        }
    }

    /// The kind named `name` by [`LightKind::as_str`].
    pub fn from_name(name: &str) -> Option<Self> {
        [LightKind::Point, LightKind::Directional, LightKind::Spot, LightKind::Ambient]
            .into_iter()
            .find(|k| k.as_str() == name)
    }
}

/// A light on a bone.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Light {
    /// Name.
    pub name: String,
    /// Point, directional, spot or ambient.
    pub kind: LightKind,
    /// Index into [`Model::bones`].
    pub bone: usize,
    /// Place relative to the bone, in the rest pose.
    pub transform: Transform,
    /// Linear RGB colour, 0 to 1.
    pub color: [f32; 3],
    /// Intensity, a factor on the colour as the format states it (no unit conversion).
    pub intensity: f32,
    /// Distances in model units where the light starts to fade and where it is gone (glTF's
    /// `range` is the second); `None` when the format states none.
    pub attenuation: Option<[f32; 2]>,
    /// The colour and intensity the light adds everywhere (MDX and M2 lights state one beside
    /// their own); `None` when it states none.
    pub ambient: Option<([f32; 3], f32)>,
    /// Inner and outer cone angles of a spot light, radians from its axis.
    pub cone: Option<[f32; 2]>,
    /// Its animated parameters (`color`, `intensity`, `attenuation_start`, `attenuation_end`,
    /// `ambient_color`, `ambient_intensity`, `visibility`, …), in the model's units.
    pub tracks: Vec<EmitterTrack>,
    /// The source format's own record of the light, whole, when the model does not hold all of it.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub record: Option<FormatExtras>,
}

/// A camera: where it is, where it looks.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Camera {
    /// Name.
    pub name: String,
    /// The bone it moves with (index into [`Model::bones`]); `None` for one placed in the model.
    pub bone: Option<usize>,
    /// Its place, relative to the bone (or the model), in the rest pose.
    pub position: [f32; 3],
    /// The point it looks at, in the same space as [`Camera::position`].
    pub target: [f32; 3],
    /// Vertical field of view, radians.
    pub yfov: f32,
    /// Near clip distance, model units.
    pub znear: f32,
    /// Far clip distance, model units.
    pub zfar: f32,
    /// Its animated parameters (`translation` and `target_translation`, offsets from the
    /// position and target; `roll`, radians about the line of sight), in the model's frame.
    pub tracks: Vec<EmitterTrack>,
    /// The source format's own record of the camera, whole, when the model does not hold all of
    /// it.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub record: Option<FormatExtras>,
}

/// The geometry of a collision shape, relative to its bone.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum ShapeKind {
    /// A box between two opposite corners (as stored: the format's minimum, then maximum).
    Box {
        /// The two corners.
        corners: [[f32; 3]; 2],
    },
    /// A plane given by two opposite corners of its rectangle.
    Plane {
        /// The two corners.
        corners: [[f32; 3]; 2],
    },
    /// A sphere.
    Sphere {
        /// Its centre.
        center: [f32; 3],
        /// Its radius.
        radius: f32,
    },
    /// A cylinder between the centres of its two ends.
    Cylinder {
        /// The centres of its ends.
        ends: [[f32; 3]; 2],
        /// Its radius.
        radius: f32,
    },
}

impl ShapeKind {
    /// `box`, `plane`, `sphere` or `cylinder`.
    pub fn as_str(&self) -> &'static str {
        match self {
            ShapeKind::Box { .. } => "box",
            ShapeKind::Plane { .. } => "plane",
            ShapeKind::Sphere { .. } => "sphere",
            ShapeKind::Cylinder { .. } => "cylinder",
        }
    }

    /// Its points (corners, centre or end centres), for checks and frame changes.
    pub fn points(&self) -> Vec<[f32; 3]> {
        match self {
            ShapeKind::Box { corners } | ShapeKind::Plane { corners } => corners.to_vec(),
            ShapeKind::Sphere { center, .. } => vec![*center],
            ShapeKind::Cylinder { ends, .. } => ends.to_vec(),
        }
    }

    /// Its radius (0 for a box or plane).
    pub fn radius(&self) -> f32 {
        match self {
            ShapeKind::Sphere { radius, .. } | ShapeKind::Cylinder { radius, .. } => *radius,
            _ => 0.0,
        }
    }

    /// The same shape with every point mapped by `f` (a change of frame).
    pub fn map_points(&self, f: impl Fn([f32; 3]) -> [f32; 3]) -> ShapeKind {
        match *self {
            ShapeKind::Box { corners } => ShapeKind::Box { corners: corners.map(&f) },
            ShapeKind::Plane { corners } => ShapeKind::Plane { corners: corners.map(&f) },
            ShapeKind::Sphere { center, radius } => ShapeKind::Sphere { center: f(center), radius },
            ShapeKind::Cylinder { ends, radius } => ShapeKind::Cylinder { ends: ends.map(&f), radius },
        }
    }
}

/// A collision shape on a bone (hit tests and selection; never drawn).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct CollisionShape {
    /// Name.
    pub name: String,
    /// Index into [`Model::bones`].
    pub bone: usize,
    /// Place relative to the bone, in the rest pose.
    pub transform: Transform,
    /// Box, plane, sphere or cylinder, in the space of [`CollisionShape::transform`].
    pub shape: ShapeKind,
}

impl Model {
    /// What a writer that writes none of the model's lights, cameras or collision shapes
    /// reports, `why` in words (`LTB holds none`): one loss per kind present.
    pub fn scene_not_held(&self, why: &str) -> Vec<crate::Loss> {
        let mut out = Vec::new();
        for (element, n) in [
            ("lights", self.lights.len()),
            ("cameras", self.cameras.len()),
            ("collision shapes", self.collision_shapes.len()),
        ] {
            if n > 0 {
                out.push(crate::Loss::new(element, format!("{n} {element} dropped: {why}")));
            }
        }
        out
    }

    /// Drops the lights, cameras and collision shapes whose bone the model no longer has, and
    /// the keys of clips and clocks it no longer has (after an editor removed them); returns how
    /// many objects and tracks went.
    pub fn keep_scene_that_fits(&mut self) -> usize {
        let (bones, clips, clocks) = (self.bones.len(), self.animations.len(), self.global_sequences.len());
        let track_fits = |t: &EmitterTrack| {
            t.animation.is_none_or(|a| a < clips) && !matches!(t.clock, Clock::Global(g) if g >= clocks)
        };
        let before = self.scene_parts();
        self.lights.retain(|l| l.bone < bones);
        self.cameras.retain(|c| c.bone.is_none_or(|b| b < bones));
        self.collision_shapes.retain(|c| c.bone < bones);
        for l in &mut self.lights {
            l.tracks.retain(track_fits);
        }
        for c in &mut self.cameras {
            c.tracks.retain(track_fits);
        }
        before - self.scene_parts()
    }

    /// Lights, cameras and collision shapes and their tracks, counted together.
    fn scene_parts(&self) -> usize {
        let lights: usize = self.lights.iter().map(|l| 1 + l.tracks.len()).sum();
        lights + self.cameras.iter().map(|c| 1 + c.tracks.len()).sum::<usize>() + self.collision_shapes.len()
    }
}
