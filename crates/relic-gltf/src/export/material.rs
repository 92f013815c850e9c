//! Materials and textures.

use std::collections::HashMap;

use gltf_json as json;
use json::Index;
use json::material::{AlphaCutoff, AlphaMode, PbrBaseColorFactor, PbrMetallicRoughness, StrengthFactor};
use json::validation::Checked::Valid;
use relic_core::model::{BlendMode, Material};

use crate::GltfError;
use crate::extras::{self as ex};
use crate::textures::{TextureIndex, mime_type};

use super::Exporter;

impl Exporter<'_> {
    /// Materials in model order; returns, per material, the texture to reference (if any) with its
    /// UV set.
    pub(super) fn materials(&mut self) -> Result<Vec<Index<json::Material>>, GltfError> {
        let model = self.model;
        let index = self.options.texture_dir.as_deref().map(TextureIndex::new);
        let mut images: HashMap<std::path::PathBuf, Index<json::Image>> = HashMap::new();
        let mut out = Vec::with_capacity(model.materials.len());
        for (m, material) in model.materials.iter().enumerate() {
            let texture = match &index {
                Some(index) => self.texture(m, material, index, &mut images)?,
                None => None,
            };
            out.push(self.material(material, texture)?);
        }
        Ok(out)
    }

    /// The base texture of a material, if a PNG/JPEG of it exists and every mesh using the
    /// material has the UV set it names.
    pub(super) fn texture(
        &mut self,
        m: usize,
        material: &Material,
        index: &TextureIndex,
        images: &mut HashMap<std::path::PathBuf, Index<json::Image>>,
    ) -> Result<Option<json::texture::Info>, GltfError> {
        let Some(tex) = material.textures.first() else { return Ok(None) };
        let Some(path) = index.find(&tex.path).map(std::path::Path::to_path_buf) else { return Ok(None) };
        let element = format!("materials[{m}] {:?}", material.name);
        let Some(uv) = tex.uv_set else {
            self.loss(element, "environment-mapped texture: no image referenced (glTF has no sphere mapping)");
            return Ok(None);
        };
        let users = self.model.meshes.iter().filter(|mesh| mesh.material == Some(m));
        if users.clone().any(|mesh| mesh.uv_sets.len() <= uv as usize) || uv > 1 {
            self.loss(element, format!("texture uses UV set {uv}, which a mesh lacks: no image referenced"));
            return Ok(None);
        }
        let image = match images.get(&path) {
            Some(i) => *i,
            None => {
                let bytes = match std::fs::read(&path) {
                    Ok(b) => b,
                    Err(e) => {
                        self.loss(element, format!("cannot read {}: {e}", path.display()));
                        return Ok(None);
                    }
                };
                let Some(mime) = mime_type(&bytes) else {
                    self.loss(element, format!("{} is not a PNG or JPEG", path.display()));
                    return Ok(None);
                };
                let view = self.bin.view(&mut self.root, &bytes, None);
                let name = path.file_name().map(|n| n.to_string_lossy().to_string());
                let i = self.root.push(json::Image {
                    buffer_view: Some(view),
                    mime_type: Some(json::image::MimeType(mime.into())),
                    name,
                    uri: None,
                    extensions: None,
                    extras: Default::default(),
                });
                images.insert(path, i);
                i
            }
        };
        let wrap = |repeat: bool| {
            Valid(if repeat { json::texture::WrappingMode::Repeat } else { json::texture::WrappingMode::ClampToEdge })
        };
        let sampler = self.root.push(json::texture::Sampler {
            mag_filter: None,
            min_filter: None,
            name: None,
            wrap_s: wrap(tex.wrap_u),
            wrap_t: wrap(tex.wrap_v),
            extensions: None,
            extras: Default::default(),
        });
        let texture = self.root.push(json::Texture {
            name: Some(tex.path.clone()),
            sampler: Some(sampler),
            source: image,
            extensions: None,
            extras: Default::default(),
        });
        Ok(Some(json::texture::Info { index: texture, tex_coord: uv, extensions: None, extras: Default::default() }))
    }

    pub(super) fn material(
        &mut self,
        material: &Material,
        texture: Option<json::texture::Info>,
    ) -> Result<Index<json::Material>, GltfError> {
        let (alpha_mode, alpha_cutoff) = match material.blend {
            BlendMode::Opaque => (AlphaMode::Opaque, None),
            BlendMode::AlphaKey => (AlphaMode::Mask, Some(AlphaCutoff(0.5))),
            _ => (AlphaMode::Blend, None),
        };
        let extensions = material
            .unlit
            .then_some(json::extensions::material::Material { unlit: Some(json::extensions::material::Unlit {}) });
        if material.unlit && !self.root.extensions_used.iter().any(|e| e == "KHR_materials_unlit") {
            self.root.extensions_used.push("KHR_materials_unlit".into());
        }
        let extras = ex::MaterialExtras {
            textures: material.textures.iter().map(ex::TextureJson::from).collect(),
            blend: ex::blend_name(material.blend).into(),
            unfogged: material.unfogged,
            depth_write: material.depth_write,
            specular: material.specular.map(|s| [s.power, s.scale]),
        };
        Ok(self.root.push(json::Material {
            alpha_cutoff,
            alpha_mode: Valid(alpha_mode),
            double_sided: material.double_sided,
            name: Some(material.name.clone()),
            pbr_metallic_roughness: PbrMetallicRoughness {
                base_color_factor: PbrBaseColorFactor([1.0; 4]),
                base_color_texture: texture,
                metallic_factor: StrengthFactor(0.0),
                roughness_factor: StrengthFactor(1.0),
                metallic_roughness_texture: None,
                extensions: None,
                extras: Default::default(),
            },
            normal_texture: None,
            occlusion_texture: None,
            emissive_texture: None,
            emissive_factor: Default::default(),
            extensions,
            extras: ex::wrap(extras)?,
        }))
    }
}
