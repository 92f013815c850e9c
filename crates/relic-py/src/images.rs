//! The images assigned from Python to a model's textures, as a save uses them: written as the
//! game's texture files beside a game-format output, embedded in a glTF.

use std::sync::Arc;

use relic_core::model as ir;
use relic_core::texture::TextureSource;

/// The images assigned from Python, and the model's own texture search for the rest.
#[derive(Debug, Clone)]
pub(crate) struct Assigned {
    /// (material, layer, pixels, name).
    pub(crate) images: Vec<(usize, usize, relic_core::texture::Image, String)>,
    pub(crate) fallback: Option<Arc<dyn TextureSource>>,
}

impl Assigned {
    /// The layer-0 images, as textures to write beside a game-format output.
    pub(crate) fn material_images(&self) -> Vec<relic_gltf::MaterialImage> {
        self.images
            .iter()
            .filter(|(_, layer, _, _)| *layer == 0)
            .map(|(m, _, pixels, name)| relic_gltf::MaterialImage {
                material: *m,
                name: name.clone(),
                image: Ok(pixels.clone()),
            })
            .collect()
    }
}

impl TextureSource for Assigned {
    fn lookup(&self, material: usize, layer: usize, texture: &ir::TextureRef) -> relic_core::texture::Lookup {
        let assigned = self.images.iter().find(|(m, l, _, _)| *m == material && *l == layer);
        if let Some((_, _, pixels, name)) = assigned {
            let name = if name.is_empty() { format!("material{material}_{layer}.png") } else { name.clone() };
            return relic_core::texture::Lookup::Found(relic_core::texture::FoundTexture {
                key: format!("python:{material}:{layer}"),
                name,
                opaque: pixels.is_opaque(),
                data: relic_core::texture::ImageData::Rgba(pixels.clone()),
            });
        }
        match &self.fallback {
            Some(source) => source.lookup(material, layer, texture),
            None => relic_core::texture::Lookup::Missing("no image assigned and no file to search beside".into()),
        }
    }
}
