//! Materials and textures: the game's render state as glTF material properties, the base texture
//! embedded where the export's texture source finds it.

use gltf_json as json;
use json::Index;
use json::material::{AlphaCutoff, AlphaMode, PbrBaseColorFactor, PbrMetallicRoughness, StrengthFactor};
use json::validation::Checked::Valid;
use relic_core::Model;
use relic_core::model::{BlendMode, Material, TextureRef};

use crate::GltfError;
use crate::extras::{self as ex};
use crate::textures::{ImageData, Lookup, encode_png};

use super::Exporter;

/// The cutoff of a MASK material whose format does not state the game's (glTF's default).
const DEFAULT_ALPHA_CUTOFF: f32 = 0.5;

impl Exporter<'_> {
    /// Materials in model order.
    pub(super) fn materials(&mut self) -> Result<Vec<Index<json::Material>>, GltfError> {
        let mut out = Vec::with_capacity(self.model.materials.len());
        for (m, material) in self.model.materials.iter().enumerate() {
            let texture = self.texture(m, material)?;
            out.push(self.material(material, texture, super::surfaces::base_color_factor(self.model, m))?);
        }
        if let Some(source) = self.options.textures.clone() {
            for note in source.unused(self.model) {
                self.loss("textures", note);
            }
        }
        Ok(out)
    }

    /// The base texture of a material, if the texture source finds it and every mesh using the
    /// material has the UV set it names. What cannot be embedded is a note.
    fn texture(&mut self, m: usize, material: &Material) -> Result<Option<json::texture::Info>, GltfError> {
        if self.options.textures.is_none() {
            return Ok(None);
        }
        let element = format!("materials[{m}] {:?}", material.name);
        let (tex, uv) = match base_texture(self.model, m) {
            Ok(Some(found)) => found,
            Ok(None) => return Ok(None),
            Err(why) => {
                self.loss(element, why);
                return Ok(None);
            }
        };
        self.embed_texture(element, m, tex, uv)
    }

    /// `tex` as a texture of the document, its image embedded once however many materials use
    /// it, if the texture source finds it (`m`: the material it is asked for). What cannot be
    /// embedded is a note on `element`.
    pub(super) fn embed_texture(
        &mut self,
        element: String,
        m: usize,
        tex: &TextureRef,
        uv: u32,
    ) -> Result<Option<json::texture::Info>, GltfError> {
        let Some(source) = self.options.textures.clone() else { return Ok(None) };
        let found = match source.lookup(m, 0, tex) {
            Lookup::Found(found) => found,
            Lookup::Missing(looked) => {
                self.loss(
                    element,
                    format!("texture {}: not found ({looked}); the material is untextured", describe(tex)),
                );
                return Ok(None);
            }
            Lookup::Failed(why) => {
                self.loss(element, format!("texture {}: {why}; the material is untextured", describe(tex)));
                return Ok(None);
            }
        };
        let image = match self.images.get(&found.key) {
            Some(i) => *i,
            None => {
                let (bytes, mime) = match found.data {
                    ImageData::Png(b) => (b, "image/png"),
                    ImageData::Jpeg(b) => (b, "image/jpeg"),
                    ImageData::Rgba(image) => match encode_png(&image) {
                        Ok(png) => (png, "image/png"),
                        Err(why) => {
                            self.loss(element, format!("texture {}: {why}", found.name));
                            return Ok(None);
                        }
                    },
                };
                let view = self.bin.view(&mut self.root, &bytes, None);
                let name = crate::naming::image_name(&tex.path, &found.name, mime == "image/png");
                let i = self.root.push(json::Image {
                    buffer_view: Some(view),
                    mime_type: Some(json::image::MimeType(mime.into())),
                    name: Some(name),
                    uri: None,
                    extensions: None,
                    extras: Default::default(),
                });
                self.images.insert(found.key.clone(), i);
                i
            }
        };
        let texture = self.push_texture(tex, image);
        let texture_transform = tex.transform.map(|t| {
            self.use_extension("KHR_texture_transform");
            json::extensions::texture::TextureTransform {
                offset: json::extensions::texture::TextureTransformOffset(t.offset),
                rotation: json::extensions::texture::TextureTransformRotation(t.rotation),
                scale: json::extensions::texture::TextureTransformScale(t.scale),
                tex_coord: Some(uv),
                extras: Default::default(),
            }
        });
        let extensions = texture_transform
            .map(|t| json::extensions::texture::Info { texture_transform: Some(t), others: Default::default() });
        Ok(Some(json::texture::Info { index: texture, tex_coord: uv, extensions, extras: Default::default() }))
    }

    /// A texture of `image` with a sampler from the reference's wrap flags.
    fn push_texture(&mut self, tex: &TextureRef, image: Index<json::Image>) -> Index<json::Texture> {
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
        self.root.push(json::Texture {
            name: Some(describe(tex)),
            sampler: Some(sampler),
            source: image,
            extensions: None,
            extras: Default::default(),
        })
    }

    pub(super) fn use_extension(&mut self, name: &str) {
        if !self.root.extensions_used.iter().any(|e| e == name) {
            self.root.extensions_used.push(name.into());
        }
    }

    fn material(
        &mut self,
        material: &Material,
        texture: Option<json::texture::Info>,
        factor: [f32; 4],
    ) -> Result<Index<json::Material>, GltfError> {
        let (alpha_mode, alpha_cutoff) = match material.blend {
            BlendMode::Opaque => (AlphaMode::Opaque, None),
            BlendMode::AlphaKey => {
                (AlphaMode::Mask, Some(AlphaCutoff(material.alpha_cutoff.unwrap_or(DEFAULT_ALPHA_CUTOFF))))
            }
            _ => (AlphaMode::Blend, None),
        };
        let extensions = material.unlit.then_some(json::extensions::material::Material {
            unlit: Some(json::extensions::material::Unlit {}),
            others: Default::default(),
        });
        if material.unlit {
            self.use_extension("KHR_materials_unlit");
        }
        let extras = ex::MaterialExtras {
            textures: material.textures.iter().map(ex::TextureJson::from).collect(),
            blend: ex::blend_name(material.blend).into(),
            unfogged: material.unfogged,
            depth_write: material.depth_write,
            specular: material.specular.map(|s| [s.power, s.scale]),
            alpha_cutoff: material.alpha_cutoff,
        };
        Ok(self.root.push(json::Material {
            alpha_cutoff,
            alpha_mode: Valid(alpha_mode),
            double_sided: material.double_sided,
            name: Some(material.name.clone()),
            pbr_metallic_roughness: matte(factor, texture),
            normal_texture: None,
            occlusion_texture: None,
            emissive_texture: None,
            emissive_factor: Default::default(),
            extensions,
            extras: ex::wrap(extras)?,
        }))
    }
}

/// The metallic-roughness block of every material relic writes (its own and an emitter's
/// stand-in): not metallic, fully rough, base colour `factor` times `texture`.
pub(crate) fn matte(factor: [f32; 4], texture: Option<json::texture::Info>) -> PbrMetallicRoughness {
    PbrMetallicRoughness {
        base_color_factor: PbrBaseColorFactor(factor),
        base_color_texture: texture,
        metallic_factor: StrengthFactor(0.0),
        roughness_factor: StrengthFactor(1.0),
        metallic_roughness_texture: None,
        extensions: None,
        extras: Default::default(),
    }
}

/// The texture of material `m` an export asks its texture source for, and its UV set: the first
/// layer, if glTF can show it (`Err` says why not: sphere mapping, a UV set a mesh lacks).
pub(crate) fn base_texture(model: &Model, m: usize) -> Result<Option<(&TextureRef, u32)>, String> {
    let Some(tex) = model.materials.get(m).and_then(|x| x.textures.first()) else { return Ok(None) };
    let Some(uv) = tex.uv_set else {
        return Err("environment-mapped texture: no image referenced (glTF has no sphere mapping)".into());
    };
    let users = model.meshes.iter().filter(|mesh| mesh.material == Some(m));
    if users.clone().any(|mesh| mesh.uv_sets.len() <= uv as usize) || uv > 1 {
        return Err(format!("texture uses UV set {uv}, which a mesh lacks: no image referenced"));
    }
    Ok(Some((tex, uv)))
}

/// A texture reference in the game's terms: its path, its replaceable type or its skin slot.
pub(crate) fn describe(tex: &TextureRef) -> String {
    match (tex.path.is_empty(), tex.replaceable, tex.slot) {
        (false, _, _) => tex.path.clone(),
        (true, Some(kind), _) => format!("replaceable texture type {kind}"),
        (true, None, Some(slot)) => format!("skin slot {slot}"),
        (true, None, None) => "unnamed texture".into(),
    }
}
