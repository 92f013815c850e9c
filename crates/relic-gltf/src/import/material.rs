//! Materials and their textures.

use gltf_json as json;
use json::validation::Checked::Valid;
use relic_core::Loss;
use relic_core::model::{BlendMode, Material, Model, TextureRef};

use crate::extras::{self as ex};

use super::Importer;

impl Importer<'_> {
    pub(super) fn materials(&mut self) {
        for m in &self.root.materials {
            if super::emitters::is_stand_in(&m.extras, m.name.as_deref()) {
                self.material_map.push(None);
                continue;
            }
            self.material_map.push(Some(self.model.materials.len()));
            let extras: Option<ex::MaterialExtras> = ex::unwrap(&m.extras);
            let unlit = m.extensions.as_ref().is_some_and(|e| e.unlit.is_some());
            let blend = match (extras.as_ref().and_then(|e| ex::blend_from_name(&e.blend)), &m.alpha_mode) {
                (Some(blend), _) => blend,
                (_, Valid(json::material::AlphaMode::Mask)) => BlendMode::AlphaKey,
                (_, Valid(json::material::AlphaMode::Blend)) => BlendMode::Alpha,
                _ => BlendMode::Opaque,
            };
            let textures = match &extras {
                Some(e) => e.textures.iter().map(TextureRef::from).collect(),
                None => self.texture_from_gltf(m).into_iter().collect(),
            };
            self.model.materials.push(Material {
                // An absent glTF name is an empty one.
                name: m.name.as_deref().map(|n| self.clean_name(n).to_string()).unwrap_or_default(),
                textures,
                blend,
                double_sided: m.double_sided,
                unlit,
                unfogged: extras.as_ref().is_some_and(|e| e.unfogged),
                depth_write: extras.as_ref().is_none_or(|e| e.depth_write),
                specular: extras.as_ref().and_then(ex::MaterialExtras::specular),
                // glTF's own first (an edit in the editor), else the one relic recorded.
                alpha_cutoff: m
                    .alpha_cutoff
                    .map(|c| c.0)
                    .or(extras.as_ref().and_then(|e| e.alpha_cutoff))
                    .filter(|c| c.is_finite()),
            });
        }
    }

    /// The base color texture of a material made elsewhere: its image's URI or name as the path.
    pub(super) fn texture_from_gltf(&self, m: &json::Material) -> Option<TextureRef> {
        let info = m.pbr_metallic_roughness.base_color_texture.as_ref()?;
        let texture = self.root.get(info.index)?;
        let image = self.root.get(texture.source)?;
        // relic names an image after the game's texture path (`X.BLP.png`); another tool's image
        // keeps its file name.
        let path = image
            .name
            .as_deref()
            .map(crate::naming::texture_path)
            .or_else(|| image.uri.clone().filter(|u| !u.starts_with("data:")))
            // An embedded image without a name: glTF gives it no path, so the path is empty.
            .unwrap_or_default();
        let sampler = texture.sampler.and_then(|s| self.root.get(s));
        let repeat = |w: Option<&json::validation::Checked<json::texture::WrappingMode>>| {
            !matches!(w, Some(Valid(json::texture::WrappingMode::ClampToEdge)))
        };
        Some(TextureRef {
            path,
            replaceable: None,
            uv_set: Some(info.tex_coord),
            wrap_u: repeat(sampler.map(|s| &s.wrap_s)),
            wrap_v: repeat(sampler.map(|s| &s.wrap_t)),
            ..TextureRef::default()
        })
    }
}

/// The longest names Blender keeps (bytes): 63 before Blender 5, 255 from it. An image name it
/// cut is a texture path that lost its end, which nothing in the file can tell back.
const EDITOR_NAME_LIMITS: [usize; 2] = [63, 255];

/// A note on the texture paths exactly as long as an editor's longest name (Blender cuts an
/// image's name there, and its glTF export names the image so): they may have lost their end.
/// Relic's own records carry the whole path (exported with "Custom Properties").
pub(crate) fn cut_texture_names(model: &Model) -> Option<Loss> {
    let cut: Vec<&str> = model
        .materials
        .iter()
        .flat_map(|m| &m.textures)
        .map(|t| t.path.as_str())
        .filter(|p| EDITOR_NAME_LIMITS.contains(&p.len()))
        .collect();
    let first = cut.first()?;
    Some(Loss::new(
        "texture names",
        format!(
            "{} texture path(s) exactly as long as the longest name Blender keeps ({first}): it may have cut them \
             (export from Blender with Custom Properties to keep relic's record of the whole path)",
            cut.len()
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use relic_core::model::Material;

    #[test]
    fn a_texture_path_as_long_as_blenders_names_is_noted() {
        let texture = |path: &str| TextureRef { path: path.into(), ..TextureRef::default() };
        let cut = "WORLD\\GENERIC\\HUMAN\\PASSIVE DOODADS\\STORMWIND\\STORMWIND_GRAVES_";
        assert_eq!(cut.len(), 63);
        let mut model = Model::default();
        model.materials.push(Material { textures: vec![texture("A.BLP"), texture(cut)], ..Material::default() });
        let note = cut_texture_names(&model).expect("a note");
        assert!(note.to_string().contains("1 texture path(s)"), "{note}");
        model.materials[0].textures.pop();
        assert_eq!(cut_texture_names(&model), None);
    }
}
