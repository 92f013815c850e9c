//! What glTF shows of the model's tints: the fixed colour and opacity in a material's
//! `baseColorFactor`. The whole tints and UV animations, keys included, travel exactly in the
//! scene's extras ([`crate::extras::SurfacesJson`]).
//!
//! glTF has no per-node colour: a mesh's tint goes into its material's factor when that material
//! draws that mesh alone; a material several meshes share keeps white (their tints differ, or
//! would be applied twice), the tints kept in the extras only. A tint of the material's first
//! texture layer (the one glTF shows) multiplies the factor's alpha. Keyed tints and UV
//! animations are not shown: `KHR_animation_pointer`, which the validator accepts, targets no
//! node, which the glTF library relic reads and writes with (gltf-json 1.4) cannot express.

use relic_core::Model;
use relic_core::model::{LayerRef, TintTarget};

/// The base colour factor of material `m`: white, times the tint of the one mesh it draws and the
/// tint of its first layer.
pub(super) fn base_color_factor(model: &Model, m: usize) -> [f32; 4] {
    let mut factor = [1.0f32; 4];
    let mut users = model.meshes.iter().enumerate().filter(|(_, mesh)| mesh.material == Some(m)).map(|(i, _)| i);
    let only = match (users.next(), users.next()) {
        (Some(i), None) => Some(i),
        _ => None,
    };
    let first_layer = TintTarget::Layer(LayerRef { material: m, texture: 0 });
    for tint in &model.tints {
        let applies = tint.target == first_layer || only.is_some_and(|i| tint.target == TintTarget::Mesh(i));
        if !applies {
            continue;
        }
        let [r, g, b] = tint.color.unwrap_or([1.0; 3]);
        for (f, c) in factor.iter_mut().zip([r, g, b, tint.alpha]) {
            *f *= c.clamp(0.0, 1.0);
        }
    }
    factor
}
