//! Colours, transparency and texture transforms (spec §12) as the model's tints and UV
//! animations, so that another format (MDX) carries them.
//!
//! * A submesh whose base texture unit names a colour → a tint of its mesh: white, opaque, keyed
//!   by the colour's `color` (RGB) and `alpha` (value / 32767) tracks.
//! * A texture unit's transparency (texture weight) that is not always 32767 → a tint of that
//!   layer of the submesh's material, keyed by its `alpha`.
//! * Texture transform `i` → UV animation `i`, moving the layers whose units name it: translation
//!   x, y → `offset`, the rotation about Z → `rotation` (`−2·atan2(z, w)`, as MDX's), scaling x, y →
//!   `scale`.
//!
//! Materials equal in every other respect are one material in the model: the first submesh's
//! units give its layers' tints and animations. The file's own records travel in the extras as
//! before (relic-m2's writer takes them from there).

use relic_core::model::{ALPHA, COLOR, LayerRef, Tint, TintTarget, UV_OFFSET, UV_ROTATION, UV_SCALE, UvAnimation};

use super::emitters::keys;
use crate::file::*;

/// Fixed-point 1.0 of M2's alpha and weight tracks.
const OPAQUE: f32 = 32767.0;

/// The tints and UV animations of view 0; `of_submesh` is each submesh's material (its mesh is
/// the submesh's index).
pub(super) fn surfaces_to_ir(file: &M2File, of_submesh: &[Option<usize>]) -> (Vec<Tint>, Vec<UvAnimation>) {
    let mut uv: Vec<UvAnimation> = file
        .texture_transforms
        .iter()
        .map(|t| {
            let mut tracks = keys(file, UV_OFFSET, &t.translation, |v| vec![v[0], v[1]]);
            tracks.extend(keys(file, UV_ROTATION, &t.rotation, |q| vec![-2.0 * q[2].atan2(q[3])]));
            tracks.extend(keys(file, UV_SCALE, &t.scaling, |v| vec![v[0], v[1]]));
            UvAnimation { layers: Vec::new(), tracks }
        })
        .collect();
    let Some(view) = file.views.first() else { return (Vec::new(), uv) };
    let mut tints = Vec::new();
    let mut done: Vec<LayerRef> = Vec::new();
    for (submesh, material) in of_submesh.iter().enumerate() {
        let units: Vec<&TextureUnit> =
            view.texture_units.iter().filter(|u| usize::from(u.submesh_index) == submesh).collect();
        if let Some(color) =
            units.first().and_then(|u| usize::try_from(u.color_index).ok()).and_then(|c| file.colors.get(c))
        {
            let mut tracks = keys(file, COLOR, &color.color, |v| v.to_vec());
            tracks.extend(keys(file, ALPHA, &color.alpha, |a| vec![f32::from(*a) / OPAQUE]));
            tints.push(Tint { target: TintTarget::Mesh(submesh), color: Some([1.0; 3]), alpha: 1.0, tracks });
        }
        let Some(material) = *material else { continue };
        let mut texture = 0;
        for u in units {
            for k in 0..usize::from(u.texture_count.max(1)) {
                // The layers `material::material_of_units` makes: every entry but −1.
                let entry = file.texture_lookup.get(usize::from(u.texture_combo_index) + k).copied();
                let named = entry.and_then(|t| usize::try_from(t).ok()).is_some_and(|t| t < file.textures.len());
                if !named && entry == Some(-1) {
                    continue;
                }
                let at = LayerRef { material, texture };
                texture += 1;
                if done.contains(&at) {
                    continue;
                }
                done.push(at);
                let lookup =
                    |list: &[i16], first: u16| list.get(usize::from(first) + k).and_then(|&i| usize::try_from(i).ok());
                if let Some(w) = lookup(&file.transparency_lookup, u.transparency_combo_index)
                    .and_then(|i| file.transparency.get(i))
                    .filter(|w| w.weight.values.iter().any(|&v| v != OPAQUE as i16))
                {
                    let tracks = keys(file, ALPHA, &w.weight, |a| vec![f32::from(*a) / OPAQUE]);
                    tints.push(Tint { target: TintTarget::Layer(at), color: None, alpha: 1.0, tracks });
                }
                if let Some(anim) =
                    lookup(&file.texture_transform_lookup, u.texture_transform_combo_index).and_then(|i| uv.get_mut(i))
                {
                    anim.layers.push(at);
                }
            }
        }
    }
    (tints, uv)
}
