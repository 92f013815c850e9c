//! The textured-export check (issue 28 §1: LithTech skins never reached the glTF, and no check
//! looked for images on an ABC export). For every model export of `cargo xtask gltf-validate`
//! and `cargo xtask corpus`, in every format: the export holds one image per texture file its
//! texture search finds (the sidecar's `images`, which `cargo xtask blender-check` then wants
//! Blender to show), and every skin file the corpus holds for a LithTech model is one of them —
//! found independently of the model, by the games' naming, so a model that never asks for its
//! skins fails.

use std::path::{Path, PathBuf};

use relic_gltf::summary::Expectation;

/// The textures of the model file `path` as `relic convert` finds them, plus the corpus's LithTech
/// skins given as `--skin SLOT=FILE` would: the corpus keeps them in `dtx/` beside `abc/` rather
/// than in a game's `SKINS` beside `MODELS`, named as the games name them (slot 0 `NAME.DTX`, slot 1
/// `NAME_HEAD.DTX`, `NAME` also without a trailing `_MULTI`; any case).
pub fn game_textures(path: &Path) -> relic::textures::GameTextures {
    relic::textures::GameTextures::new(
        path,
        relic::textures::TextureSearch { skins: corpus_skins(path), ..Default::default() },
    )
}

/// The corpus's skin files of the model `path`, by slot (see [`game_textures`]).
pub fn corpus_skins(path: &Path) -> Vec<(u32, PathBuf)> {
    let stem = path.file_stem().map(|s| s.to_string_lossy().to_lowercase()).unwrap_or_default();
    let Some(dtx) = path.parent().and_then(Path::parent).map(|p| p.join("dtx")) else { return Vec::new() };
    let files: Vec<PathBuf> =
        std::fs::read_dir(&dtx).map(|d| d.flatten().map(|e| e.path()).collect()).unwrap_or_default();
    let base = stem.strip_suffix("_multi").map(str::to_string);
    let mut out = Vec::new();
    for (slot, suffix) in [(0u32, ""), (1, "_head")] {
        let names: Vec<String> =
            [Some(&stem), base.as_ref()].into_iter().flatten().map(|n| format!("{n}{suffix}.dtx")).collect();
        let found = names.iter().find_map(|n| {
            files.iter().find(|f| f.file_name().is_some_and(|x| x.to_string_lossy().to_lowercase() == *n))
        });
        if let Some(f) = found {
            out.push((slot, f.clone()));
        }
    }
    out
}

/// The names of the images of a `.glb`.
fn image_names(glb: &[u8]) -> Result<Vec<String>, String> {
    let json_len = glb.get(12..16).and_then(|b| b.try_into().ok()).map(u32::from_le_bytes).ok_or("not a .glb")?;
    let text = glb.get(20..20 + json_len as usize).ok_or("a .glb shorter than its JSON chunk")?;
    let doc: serde_json::Value = serde_json::from_slice(text).map_err(|e| format!("glTF JSON: {e}"))?;
    let images = doc.get("images").and_then(serde_json::Value::as_array).cloned().unwrap_or_default();
    Ok(images.iter().map(|i| i.get("name").and_then(serde_json::Value::as_str).unwrap_or("").to_string()).collect())
}

/// Checks the export `glb` of the model file `path` (`None`: a sample) against `expect`: as many
/// images as textures found, and each corpus skin among them. `Ok(None)` for an untextured model.
pub fn check(path: Option<&Path>, glb: &[u8], expect: &Expectation) -> Result<Option<String>, String> {
    let names = image_names(glb)?;
    if names.len() != expect.images {
        return Err(format!("{} textures found, {} images in the export", expect.images, names.len()));
    }
    for (slot, file) in path.map(corpus_skins).unwrap_or_default() {
        let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if !names.iter().any(|n| n.strip_suffix(".png") == Some(name.as_str())) {
            return Err(format!(
                "the corpus's skin {name} (slot {slot}) is not in the export ({} images)",
                names.len()
            ));
        }
    }
    Ok((!names.is_empty()).then(|| format!("{} textures found, {} images", expect.images, names.len())))
}
