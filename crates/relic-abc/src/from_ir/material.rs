//! Model materials → ABC material slots and specular values (ABC keeps a slot per piece; the
//! game sets the skins).

use relic_core::model::{Material, Mesh, Model};

use crate::extras::{PieceExtras, V12Extras};

/// A mesh's material and its slot: `material N` names (what `to_ir` gives) keep their number,
/// other materials their index.
pub(super) fn material_slot<'m>(model: &'m Model, mesh: &Mesh) -> (Option<&'m Material>, u16) {
    let material = mesh.material.and_then(|m| model.materials.get(m));
    let slot = material
        .and_then(|m| m.name.strip_prefix("material ").and_then(|n| n.parse::<u16>().ok()))
        .or_else(|| mesh.material.map(|m| m as u16))
        .unwrap_or(0);
    (material, slot)
}

/// A piece's specular values: the stored ones while the material still has the values the model
/// got from the file, else the material's, else the NOLF defaults.
pub(super) fn specular(
    material: Option<&Material>,
    stored: Option<&PieceExtras>,
    all: Option<&V12Extras>,
    slot: u16,
) -> (f32, f32) {
    let from_material = material.and_then(|m| m.specular).map(|s| (s.power, s.scale));
    let first_of_slot = all.and_then(|x| x.pieces.iter().find(|p| p.material_index == slot));
    match (stored, first_of_slot, from_material) {
        (Some(s), Some(f), Some(m)) if (f.specular_power, f.specular_scale) == m => {
            (s.specular_power, s.specular_scale)
        }
        (_, _, Some(m)) => m,
        (Some(s), _, None) => (s.specular_power, s.specular_scale),
        _ => (5.0, 1.0),
    }
}
