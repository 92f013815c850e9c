//! Model materials → ABC material slots and specular values (ABC keeps a slot per piece; the
//! game sets the skins).

use relic_core::model::{Material, Mesh, Model};

use crate::extras::{PieceExtras, V12Extras};

/// A mesh's material and its slot: the skin slot its texture names (what `to_ir` gives), else
/// the number of a `material N` name, else the material's index. A mesh without a material
/// takes slot 0, the body skin every LithTech model has (textures.md §4.2).
pub(super) fn material_slot<'m>(model: &'m Model, mesh: &Mesh) -> (Option<&'m Material>, u16) {
    let material = mesh.material.and_then(|m| model.materials.get(m));
    let slot = material
        .and_then(|m| m.textures.first().and_then(|t| t.slot).and_then(|s| u16::try_from(s).ok()))
        .or_else(|| material.and_then(|m| m.name.strip_prefix("material ").and_then(|n| n.parse::<u16>().ok())))
        .or_else(|| mesh.material.and_then(|m| u16::try_from(m).ok()))
        .unwrap_or(0);
    (material, slot)
}

/// Whether ABC holds everything a material says: no render flags, and at most a skin-slot
/// texture (no file name, the first UV set, repeating: what `to_ir` gives) — the slot is the
/// piece's material index.
pub(super) fn is_skin_slot(m: &Material) -> bool {
    let slot_only = m.textures.iter().all(|t| {
        t.path.is_empty()
            && t.replaceable.is_none()
            && t.slot.is_some()
            && t.uv_set == Some(0)
            && t.wrap_u
            && t.wrap_v
            && t.transform.is_none()
    });
    slot_only
        && m.textures.len() <= 1
        && m.blend == relic_core::model::BlendMode::Opaque
        && !m.double_sided
        && !m.unlit
        && !m.unfogged
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
