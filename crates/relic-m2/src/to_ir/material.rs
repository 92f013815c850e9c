//! Texture units of view 0 → materials (base layer first; equal materials shared).

use relic_core::ReadError;
use relic_core::model::*;

use super::budget::Budget;
use crate::file::*;

/// The model's materials and, per submesh of view 0, its material index; refused when they would
/// take more than the build budget (see `BUILD_FIXED`).
pub(crate) fn materials_to_ir(file: &M2File) -> Result<(Vec<Material>, Vec<Option<usize>>), ReadError> {
    Budget::new(file).materials(file)?;
    build_materials(file)
}

/// [`materials_to_ir`] once the budget is checked. The units are grouped by submesh in one pass
/// and equal materials found through a map (a scan of the units per submesh and of the materials
/// per material made both quadratic).
pub(super) fn build_materials(file: &M2File) -> Result<(Vec<Material>, Vec<Option<usize>>), ReadError> {
    let Some(view) = file.views.first() else { return Ok((Vec::new(), Vec::new())) };
    // Units by submesh, as their indices (the reader has checked every unit's submesh:
    // `validate::views`).
    let mut units_of: Vec<Vec<usize>> = vec![Vec::new(); view.submeshes.len()];
    for (i, u) in view.texture_units.iter().enumerate() {
        if let Some(list) = units_of.get_mut(usize::from(u.submesh_index)) {
            list.push(i);
        }
    }
    let mut materials: Vec<Material> = Vec::new();
    // Materials by name and texture paths; equal materials share one entry.
    let mut by_key: std::collections::HashMap<(String, Vec<String>), Vec<usize>> = std::collections::HashMap::new();
    let mut of_submesh = Vec::with_capacity(view.submeshes.len());
    for units in &units_of {
        let Some(material) = material_of_units(file, view, units)? else {
            of_submesh.push(None);
            continue;
        };
        let key = (material.name.clone(), material.textures.iter().map(|t| t.path.clone()).collect());
        let same = by_key.entry(key).or_default();
        let index = match same.iter().copied().find(|&i| materials.get(i) == Some(&material)) {
            Some(i) => i,
            None => {
                materials.push(material);
                same.push(materials.len() - 1);
                materials.len() - 1
            }
        };
        of_submesh.push(Some(index));
    }
    Ok((materials, of_submesh))
}

/// The material of one submesh's texture units (base layer first), `None` for a submesh without
/// one. An error names a render flag that does not exist (the reader refuses those:
/// `validate::views`).
fn material_of_units(file: &M2File, view: &View, units_index: &[usize]) -> Result<Option<Material>, ReadError> {
    let units: Vec<&TextureUnit> = units_index.iter().filter_map(|&i| view.texture_units.get(i)).collect();
    let (Some(base), Some(&first)) = (units.first(), units_index.first()) else { return Ok(None) };
    let mut textures = Vec::new();
    for u in &units {
        for k in 0..usize::from(u.texture_count.max(1)) {
            let entry = file.texture_lookup.get(usize::from(u.texture_combo_index) + k).copied();
            let texture = entry.and_then(|t| usize::try_from(t).ok()).and_then(|t| file.textures.get(t));
            let coord = file.texture_unit_lookup.get(usize::from(u.texture_coord_combo_index) + k).copied();
            let Some(texture) = texture else {
                // −1: no texture. An entry naming no texture, or a combo past the lookup, comes
                // only from a chunked file whose lookup a converter damaged (the reader refuses
                // them elsewhere: `wrath::texture_lookup_damaged`): the slot stays, without a
                // path, so that the mesh keeps its material.
                if entry != Some(-1) {
                    let uv_set = match coord {
                        Some(c) if c >= 0 => Some(c as u32),
                        Some(_) => None,
                        None => Some(0),
                    };
                    textures.push(TextureRef { path: String::new(), uv_set, ..TextureRef::default() });
                }
                continue;
            };
            textures.push(TextureRef {
                path: texture.filename_text(),
                replaceable: (texture.kind != 0).then_some(texture.kind),
                uv_set: match coord {
                    Some(c) if c >= 0 => Some(c as u32),
                    Some(_) => None,
                    None => Some(0),
                },
                wrap_u: texture.flags & 1 != 0,
                wrap_v: texture.flags & 2 != 0,
                ..TextureRef::default()
            });
        }
    }
    let Some(&flags) = file.render_flags.get(usize::from(base.render_flag_index)) else {
        let what =
            format!("render flag {} is out of range ({} exist)", base.render_flag_index, file.render_flags.len());
        let at = u64::from(view.texture_units.offset) + 24 * first as u64 + 10;
        return Err(ReadError::invalid(at, format!("M2File.views[0].texture_units[{first}].render_flag_index"), what));
    };
    let name = textures.first().map_or_else(|| "material".to_string(), texture_stem);
    let blend = blend_mode(flags.blend_mode);
    Ok(Some(Material {
        name,
        textures,
        blend,
        // Blend mode 1 draws a texel where its alpha reaches 224/255 (the alpha-test reference of
        // the clients' M2 shaders as peer viewers reproduce it; not stored in the file).
        alpha_cutoff: (blend == BlendMode::AlphaKey).then_some(ALPHA_KEY_CUTOFF),
        double_sided: flags.flags & 0x4 != 0,
        unlit: flags.flags & 0x1 != 0,
        unfogged: flags.flags & 0x2 != 0,
        depth_write: flags.flags & 0x10 == 0,
        specular: None,
    }))
}

/// The alpha below which blend mode 1 (alpha key) discards a texel.
pub(crate) const ALPHA_KEY_CUTOFF: f32 = 224.0 / 255.0;

fn texture_stem(t: &TextureRef) -> String {
    if t.path.is_empty() {
        // A texture without a path is replaceable (type 0: one the file leaves unnamed).
        return format!("replaceable_{}", t.replaceable.unwrap_or(0));
    }
    let file = t.path.rsplit(['\\', '/']).next().unwrap_or(&t.path);
    file.split('.').next().unwrap_or(file).to_string()
}

/// The blend mode of an M2 blend-mode number.
pub(crate) fn blend_mode(mode: u16) -> BlendMode {
    BlendMode::from_blizzard_code(mode.into())
}
