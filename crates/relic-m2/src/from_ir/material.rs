//! Textures, render flags and lookups from the model's materials.

use relic_core::error;
use relic_core::model::*;

use super::builder::{Builder, Result, cp1252_lossy, index_of};
use crate::file::*;
use crate::to_ir;

/// Slots of the replaceable texture lookup the writer fills at most: the types the clients use
/// stay below 30 (m2.md: 1–3, 6, 8, 11–13 …; 27 in later expansions).
const REPLACEABLE_TYPES: usize = 256;

impl Builder<'_> {
    /// The material tables: the stored ones while the materials they map to are the model's,
    /// else built from the model. Returns whether the stored ones were kept, and the texture
    /// units of view 0.
    pub(super) fn materials(&mut self, skeleton_fit: bool) -> Result<(bool, Vec<TextureUnit>)> {
        let m = self.model;
        let base = self.base.filter(|_| skeleton_fit && !self.stored_materials_unfit);
        let fit = base.is_some_and(|b| {
            let Ok((mats, of_sub)) = to_ir::materials_to_ir(b) else { return false };
            of_sub.len() == m.meshes.len()
                && m.meshes
                    .iter()
                    .zip(&of_sub)
                    .all(|(mesh, s)| mesh.material.and_then(|i| m.materials.get(i)) == s.and_then(|i| mats.get(i)))
        });
        if let Some(b) = base.filter(|_| fit) {
            // A file without views has no texture units.
            let units = b.views.first().map_or_else(Vec::new, |v| v.texture_units.items.clone());
            self.copy_material_tables();
            return Ok((true, units));
        }
        Ok((false, self.build_materials()?))
    }

    fn copy_material_tables(&mut self) {
        let Some(b) = self.base else { return };
        let f = &mut self.file;
        f.textures = b.textures.clone();
        f.render_flags = b.render_flags.clone();
        f.texture_lookup = b.texture_lookup.clone();
        f.texture_unit_lookup = b.texture_unit_lookup.clone();
        f.transparency_lookup = b.transparency_lookup.clone();
        f.texture_transform_lookup = b.texture_transform_lookup.clone();
        f.replaceable_texture_lookup = b.replaceable_texture_lookup.clone();
        f.colors = b.colors.clone();
        f.transparency = b.transparency.clone();
        f.texture_transforms = b.texture_transforms.clone();
    }

    /// Textures, render flags and lookups from the model's materials; returns view 0's units.
    fn build_materials(&mut self) -> Result<Vec<TextureUnit>> {
        let m = self.model;
        if self.base.is_some_and(|b| !b.colors.is_empty() || !b.texture_transforms.is_empty()) {
            self.loss("materials", "materials changed: colour and UV animations of the stored file dropped");
        }
        // Render-flag bits the model has no field for (0x8, whose meaning is unclear, and above).
        let unmapped =
            self.base.map_or(0, |b| b.render_flags.iter().fold(0, |bits, f| bits | f.flags) & !MAPPED_RENDER_FLAGS);
        if unmapped != 0 {
            self.loss(
                "materials",
                format!("materials changed: render-flag bits {unmapped:#x} of the stored file dropped"),
            );
        }
        let mut textures: Vec<Texture> = Vec::new();
        let mut flags: Vec<RenderFlag> = Vec::new();
        let mut coords: Vec<i16> = Vec::new();
        let mut replaceable: Vec<i16> = Vec::new();
        let mut units = Vec::new();
        for (s, mesh) in m.meshes.iter().enumerate() {
            let Some((mi, mat)) = mesh.material.and_then(|i| Some((i, m.materials.get(i)?))) else { continue };
            let rf = RenderFlag {
                flags: u16::from(mat.unlit)
                    | u16::from(mat.unfogged) << 1
                    | u16::from(mat.double_sided) << 2
                    | u16::from(!mat.depth_write) << 4,
                blend_mode: blend_code(mat.blend),
            };
            let rfi = index_of(&mut flags, rf);
            for (layer, t) in mat.textures.iter().enumerate() {
                let filename: Vec<u8> =
                    if t.replaceable.is_some() { vec![0] } else { cp1252_lossy(&t.path).chain([0]).collect() };
                let tex = Texture {
                    // Kind 0: the file name is given (not a replaceable texture).
                    kind: t.replaceable.unwrap_or(0),
                    flags: u32::from(t.wrap_u) | u32::from(t.wrap_v) << 1,
                    filename: M2Array::new(filename),
                };
                let known = textures.len();
                let ti = index_of(&mut textures, tex);
                // A texture met for the first time (the one just added): say once if its path
                // changes.
                if let Some(added) = textures.last().filter(|_| ti == known && t.replaceable.is_none()) {
                    let written = added.filename.items.clone();
                    self.text_loss(&t.path, &written, &format!("texture {:?}", t.path));
                }
                // The lookup has a slot per type up to the highest: a type read from a file may
                // be any u32, so one past the types the game knows is not entered (a loss).
                let typed = t.replaceable.and_then(|r| usize::try_from(r).ok());
                if let Some(r) = typed.filter(|&r| r >= REPLACEABLE_TYPES) {
                    let what =
                        format!("replaceable type {r} is past the {REPLACEABLE_TYPES} slots written: not entered");
                    self.loss("replaceable texture lookup", what);
                }
                if let Some(r) = typed.filter(|&r| r < REPLACEABLE_TYPES) {
                    if replaceable.len() <= r {
                        replaceable.resize(r + 1, -1);
                    }
                    if let Some(x) = replaceable.get_mut(r) {
                        *x = error::fit(&format!("replaceable_texture_lookup[{r}]"), ti, "i16")?;
                    }
                }
                let coord = match t.uv_set {
                    Some(u) => error::fit(&format!("materials[{mi}].textures[{layer}].uv_set"), u as usize, "i16")?,
                    None => -1,
                };
                let ci = index_of(&mut coords, coord);
                let unit = |field: &str| format!("meshes[{s}] texture unit {layer} {field}");
                units.push(TextureUnit {
                    flags: 0x10,
                    priority_plane: 0,
                    shader_id: 0,
                    submesh_index: error::fit(&unit("submesh"), s, "u16")?,
                    geoset_index: error::fit(&unit("submesh"), s, "u16")?,
                    color_index: -1,
                    render_flag_index: error::fit(&unit("render flag"), rfi, "u16")?,
                    material_layer: error::fit(&unit("layer"), layer, "u16")?,
                    texture_count: 1,
                    texture_combo_index: error::fit(&unit("texture"), ti, "u16")?,
                    texture_coord_combo_index: error::fit(&unit("texture coordinates"), ci, "u16")?,
                    transparency_combo_index: 0,
                    texture_transform_combo_index: 0,
                });
            }
        }
        let texture_count: i16 = error::fit("textures", textures.len(), "i16")?;
        let f = &mut self.file;
        f.texture_lookup = (0..texture_count).collect::<Vec<_>>().into();
        f.textures = textures.into();
        f.render_flags = flags.into();
        f.texture_unit_lookup = coords.into();
        f.replaceable_texture_lookup = replaceable.into();
        f.transparency = vec![TextureWeight {
            weight: Track {
                interpolation: INTERPOLATION_NONE,
                global_sequence: -1,
                ranges: Default::default(),
                timestamps: vec![0].into(),
                values: vec![0x7FFF].into(),
            },
        }]
        .into();
        f.transparency_lookup = vec![0].into();
        f.texture_transform_lookup = vec![-1].into();
        f.colors = Default::default();
        f.texture_transforms = Default::default();
        Ok(units)
    }
}

/// Render-flag bits the model describes: unlit, unfogged, two-sided, no depth write.
const MAPPED_RENDER_FLAGS: u16 = 0x1 | 0x2 | 0x4 | 0x10;

fn blend_code(b: BlendMode) -> u16 {
    b.blizzard_code().into()
}
