//! Animated surfaces: the colour and opacity of meshes and texture layers, and the movement of
//! texture coordinates.
//!
//! The keys are those of an emitter's parameters ([`EmitterTrack`]: per clip or on a global
//! clock, times in seconds), named by the glTF property they drive: `color` (linear RGB, three
//! components) and `alpha` (one) on a [`Tint`]; `offset` (two), `rotation` (one, radians) and
//! `scale` (two) on a [`UvAnimation`], composed as glTF's `KHR_texture_transform` is (scale, then
//! rotation, then offset).

use super::*;

/// One texture layer of a material: index into [`Material::textures`] of [`Model::materials`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct LayerRef {
    /// Index into [`Model::materials`].
    pub material: usize,
    /// Index into that material's [`Material::textures`].
    pub texture: usize,
}

/// What a [`Tint`] colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum TintTarget {
    /// A whole mesh, index into [`Model::meshes`] (MDX geoset animation, M2 colour).
    Mesh(usize),
    /// One texture layer of a material (MDX layer alpha, M2 texture weight).
    Layer(LayerRef),
}

impl Default for TintTarget {
    fn default() -> Self {
        TintTarget::Mesh(0)
    }
}

/// A colour and an opacity multiplied into what a mesh or a texture layer draws, fixed or keyed.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Tint {
    /// What it colours.
    pub target: TintTarget,
    /// Linear RGB multiplier (0–1) when no `color` key applies; `None` where the format applies
    /// no colour (an MDX geoset animation without its UseColor flag).
    pub color: Option<[f32; 3]>,
    /// Opacity (0 hidden … 1) when no `alpha` key applies.
    pub alpha: f32,
    /// Keys of `color` (3 components) and `alpha` (1).
    pub tracks: Vec<EmitterTrack>,
}

impl Default for Tint {
    fn default() -> Self {
        Tint { target: TintTarget::default(), color: None, alpha: 1.0, tracks: Vec::new() }
    }
}

/// Keyed transforms of texture coordinates (MDX texture animation, M2 texture transform), moving
/// the texture layers that name it.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct UvAnimation {
    /// The layers it moves (none: a stored animation no layer uses).
    pub layers: Vec<LayerRef>,
    /// Keys of `offset` (2 components), `rotation` (1, radians, counter-clockwise as
    /// [`UvTransform`]) and `scale` (2).
    pub tracks: Vec<EmitterTrack>,
}

/// Track property: a [`Tint`]'s colour.
pub const COLOR: &str = "color";
/// Track property: a [`Tint`]'s opacity.
pub const ALPHA: &str = "alpha";
/// Track property: a [`UvAnimation`]'s offset.
pub const UV_OFFSET: &str = "offset";
/// Track property: a [`UvAnimation`]'s rotation.
pub const UV_ROTATION: &str = "rotation";
/// Track property: a [`UvAnimation`]'s scale.
pub const UV_SCALE: &str = "scale";

impl Model {
    /// The tint of mesh `mesh`, if one colours it (of several, the last: the one that applies,
    /// as a Warcraft III viewer takes the last geoset animation of a geoset).
    pub fn mesh_tint(&self, mesh: usize) -> Option<&Tint> {
        self.tints.iter().rev().find(|t| t.target == TintTarget::Mesh(mesh))
    }

    /// Drops the tints and the UV animations' layers whose mesh or layer the model no longer
    /// has, and the keys of clips and clocks it no longer has (after an editor removed them);
    /// returns how many tints, layers and tracks went.
    pub fn keep_surfaces_that_fit(&mut self) -> usize {
        let (meshes, clips, clocks) = (self.meshes.len(), self.animations.len(), self.global_sequences.len());
        let materials: Vec<usize> = self.materials.iter().map(|m| m.textures.len()).collect();
        let layer_fits = |l: &LayerRef| materials.get(l.material).is_some_and(|&n| l.texture < n);
        let track_fits = |t: &EmitterTrack| {
            t.animation.is_none_or(|a| a < clips) && !matches!(t.clock, Clock::Global(g) if g >= clocks)
        };
        let before = self.surface_parts();
        self.tints.retain(|t| match &t.target {
            TintTarget::Mesh(m) => *m < meshes,
            TintTarget::Layer(l) => layer_fits(l),
        });
        for t in &mut self.tints {
            t.tracks.retain(track_fits);
        }
        for u in &mut self.uv_animations {
            u.layers.retain(layer_fits);
            u.tracks.retain(track_fits);
        }
        before - self.surface_parts()
    }

    /// Tints, UV-animated layers and their tracks, counted together.
    fn surface_parts(&self) -> usize {
        let tints: usize = self.tints.iter().map(|t| 1 + t.tracks.len()).sum();
        tints + self.uv_animations.iter().map(|u| u.layers.len() + u.tracks.len()).sum::<usize>()
    }
}
