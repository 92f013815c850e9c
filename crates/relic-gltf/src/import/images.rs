//! The images of a glTF's materials, decoded, for writing them back as the game's textures (a
//! model edited in Blender goes back into the game with its skins).

use std::path::Path;

use relic_core::texture::Image;

use crate::GltfError;
use crate::read::{Reader, load_buffers, parse_json, resolve_file, split_container};

/// The base colour image of one material.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MaterialImage {
    /// Index of the material in the model (the glTF's materials in order, less emitters'
    /// stand-ins).
    pub material: usize,
    /// The image's name in the glTF (relic writes the game path with `.png`), or its URI.
    pub name: String,
    /// The pixels, or why they could not be read (a JPEG, a broken PNG, a missing file).
    pub image: Result<Image, String>,
}

/// The base colour image of every material of a `.glb`/`.gltf` that has one, decoded (PNG; each
/// at most `max_pixels`). `base_dir` is the folder of a `.gltf` with external files.
pub fn material_images(
    bytes: &[u8],
    base_dir: Option<&Path>,
    max_pixels: u64,
) -> Result<Vec<MaterialImage>, GltfError> {
    let (json_text, blob) = split_container(bytes)?;
    let root = parse_json(json_text)?;
    let buffers = load_buffers(&root, blob, base_dir)?;
    let reader = Reader::new(&root, &buffers, u64::MAX);
    let mut out = Vec::new();
    let model_materials = root.materials.iter().filter(|m| !super::emitters::is_stand_in(&m.extras, m.name.as_deref()));
    for (m, material) in model_materials.enumerate() {
        let Some(info) = material.pbr_metallic_roughness.base_color_texture.as_ref() else { continue };
        let Some(texture) = root.get(info.index) else { continue };
        let Some(image) = root.get(texture.source) else { continue };
        let element = format!("images[{}]", texture.source.value());
        let name = image
            .name
            .clone()
            .or_else(|| image.uri.clone())
            .unwrap_or_else(|| format!("image_{}", texture.source.value()));
        let encoded: Result<std::borrow::Cow<'_, [u8]>, String> = match (&image.buffer_view, &image.uri) {
            (Some(view), _) => {
                reader.view_bytes(&element, *view).map(std::borrow::Cow::Borrowed).map_err(|e| e.to_string())
            }
            (None, Some(uri)) if uri.starts_with("data:") => Err("a data-URI image is not read back".into()),
            (None, Some(uri)) => match base_dir {
                Some(dir) => resolve_file(uri, dir)
                    .and_then(|p| std::fs::read(&p).map_err(|e| format!("{}: {e}", p.display())))
                    .map(std::borrow::Cow::Owned),
                None => Err(format!("{uri}: an external image needs the folder of the .gltf file")),
            },
            (None, None) => Err("the image has neither data nor a URI".into()),
        };
        let decoded = encoded.and_then(|b: std::borrow::Cow<'_, [u8]>| match crate::textures::mime_type(&b) {
            Some("image/png") => crate::textures::decode_png(&b, max_pixels),
            Some(other) => Err(format!("{other} images are not decoded (only PNG)")),
            None => Err("not a PNG".into()),
        });
        out.push(MaterialImage { material: m, name, image: decoded });
    }
    Ok(out)
}
