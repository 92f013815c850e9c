//! Turning a common model into output files: by target format, with the options the user gave,
//! and with what the target could not hold reported as losses.

use std::path::{Path, PathBuf};

use relic_core::model::{ANIMATION_MS, Model, MorphChannel};
use relic_core::{Converted, Loss, WriteOptions};

use relic_core::format::FormatEntry;

use crate::error::Error;
use crate::formats;

/// What a model is converted to.
#[derive(Debug, Clone, Copy)]
pub enum Target {
    /// Binary glTF: one `.glb` file.
    Glb,
    /// JSON glTF: a `.gltf` file and a `.bin` buffer beside it.
    Gltf,
    /// A game format.
    Format(&'static FormatEntry),
}

impl Target {
    /// The target for a name (`glb`, `gltf`, `abc`, `m2`, `nod`), as given to `--to` or found as
    /// an output file's extension (case-insensitive).
    pub fn from_name(name: &str) -> Option<Target> {
        match name.to_ascii_lowercase().as_str() {
            "glb" => Some(Target::Glb),
            "gltf" => Some(Target::Gltf),
            other => formats::by_name(other).filter(|f| f.model.is_some()).map(Target::Format),
        }
    }

    /// The target for an output path, by its extension.
    pub fn for_path(path: &Path) -> Result<Target, Error> {
        let ext = path.extension().map(|e| e.to_string_lossy().into_owned()).unwrap_or_default();
        Target::from_name(&ext).ok_or_else(|| {
            let formats = formats::FORMATS.iter().filter(|f| f.model.is_some()).map(|f| format!(".{}", f.name));
            let all: Vec<String> = [".glb".to_string(), ".gltf".to_string()].into_iter().chain(formats).collect();
            Error::Usage(format!(
                "{}: cannot tell the output format from the extension {ext:?}; use {}",
                path.display(),
                all.join(", ")
            ))
        })
    }

    /// Every file [`convert`] writes for the output `out`: `out` itself, and for `.gltf` its `.bin`
    /// beside it.
    pub fn output_paths(&self, out: &Path) -> Vec<PathBuf> {
        match self {
            Target::Gltf => vec![out.to_path_buf(), out.with_extension("bin")],
            Target::Glb | Target::Format(_) => vec![out.to_path_buf()],
        }
    }

    /// The file extension written.
    pub fn extension(&self) -> &'static str {
        match self {
            Target::Glb => "glb",
            Target::Gltf => "gltf",
            Target::Format(f) => f.name,
        }
    }
}

/// Choices for a conversion.
#[derive(Debug, Clone, Default)]
pub struct ConvertOptions {
    /// Version of a game format to write (`--version`).
    pub version: Option<u32>,
    /// Keep only the full-detail meshes (`--lod 0`).
    pub lod0_only: bool,
    /// Where glTF export gets the textures' pixels (see [`crate::textures::GameTextures`]);
    /// `None`: untextured.
    pub textures: Option<std::sync::Arc<dyn relic_gltf::textures::TextureSource>>,
    /// Images to write as the game's textures beside a game-format output (from the glTF the
    /// model came from; see [`crate::skins`]).
    pub skins: crate::skins::SkinOptions,
}

/// The files of one converted model (a `.gltf` comes with its `.bin`), and what was lost.
pub type Outputs = Converted<Vec<(PathBuf, Vec<u8>)>>;

/// Converts `model` into the bytes of the output file(s) at `out`.
pub fn convert(model: &Model, target: Target, out: &Path, options: &ConvertOptions) -> Result<Outputs, Error> {
    match target {
        Target::Glb | Target::Gltf => {
            if options.version.is_some() {
                return Err(Error::Usage("--version applies to .abc, .m2 and .nod outputs, not glTF".into()));
            }
            let export = relic_gltf::ExportOptions {
                lod0_only: options.lod0_only,
                textures: options.textures.clone(),
                ..relic_gltf::ExportOptions::default()
            };
            let gltf_error = |source| Error::Gltf { file: out.to_path_buf(), source };
            if let Target::Glb = target {
                let Converted { value, losses } = relic_gltf::export_glb(model, &export).map_err(gltf_error)?;
                return Ok(Converted { value: vec![(out.to_path_buf(), value)], losses });
            }
            let bin = out.with_extension("bin");
            let bin_name =
                bin.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "model.bin".into());
            let Converted { value: (json, bytes), losses } =
                relic_gltf::export_gltf(model, &export, &bin_name).map_err(gltf_error)?;
            Ok(Converted { value: vec![(out.to_path_buf(), json.into_bytes()), (bin, bytes)], losses })
        }
        Target::Format(entry) => {
            let lod0;
            let (model, mut losses) = if options.lod0_only {
                let (kept, dropped) = keep_lod0(model);
                lod0 = kept;
                let note = (dropped > 0)
                    .then(|| Loss::new("meshes", format!("{dropped} lower-LOD meshes left out (--lod 0)")));
                (&lod0, note.into_iter().collect())
            } else {
                (model, Vec::new())
            };
            let (with_skins, skin_files, skin_notes) = crate::skins::skins(model, entry.name, out, &options.skins);
            let model = &with_skins;
            let write_error = |source| Error::Write { file: out.to_path_buf(), source };
            let codec = entry.model.ok_or_else(|| {
                write_error(relic_core::WriteError::Unsupported(format!("{} files hold no models", entry.name)))
            })?;
            let written = (codec.write)(model, &WriteOptions { version: options.version }).map_err(write_error)?;
            losses.extend(written.losses);
            let stem = out.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            let mut files = vec![(out.to_path_buf(), written.value.bytes)];
            for sibling in written.value.siblings {
                files.push((out.with_file_name(format!("{stem}{}", sibling.suffix)), sibling.bytes));
            }
            let compared =
                model.original.as_ref().and_then(|o| crate::original::compare_files(o, entry, &files, model));
            // First: every count the output does not have as the original had it, whichever way
            // (fewer is a loss; more is a change of the file's structure an editor's round trip
            // made, e.g. LOD profiles rebuilt), and the clips' lengths.
            let differences = compared.iter().flat_map(|c| &c.differences);
            let compared: Vec<Loss> = differences
                .map(|(key, before, after)| match key.as_str() {
                    ANIMATION_MS => Loss::new(
                        "animation lengths",
                        format!("{before} ms in all in the original, {after} ms written"),
                    ),
                    _ => Loss::new(key.replace('_', " "), format!("{before} in the original, {after} written")),
                })
                .map(|loss| with_writers_reason(loss, &mut losses))
                .collect();
            losses.splice(0..0, compared);
            files.extend(skin_files);
            losses.extend(skin_notes);
            Ok(Converted { value: files, losses })
        }
    }
}

/// A count the output does not have as the original had it, joined with the writer's own note on
/// the same kind of data (which says why: "weight sets not in the glTF (no relic extras …)"), so
/// that each kind is said once, with its counts. The writer's note is taken out of `losses`.
fn with_writers_reason(count: Loss, losses: &mut Vec<Loss>) -> Loss {
    match losses.iter().position(|l| l.element == count.element) {
        Some(i) => {
            let reason = losses.remove(i);
            Loss::new(count.element, format!("{}; {}", count.what, reason.what))
        }
        None => count,
    }
}

/// The model without its lower-LOD meshes (morph channels re-pointed), and how many were dropped.
pub fn keep_lod0(model: &Model) -> (Model, usize) {
    let mut out = model.clone();
    let mut new_index = Vec::with_capacity(model.meshes.len());
    let mut kept = 0usize;
    for mesh in &model.meshes {
        new_index.push((mesh.lod.level == 0).then(|| {
            kept += 1;
            kept - 1
        }));
    }
    out.meshes.retain(|m| m.lod.level == 0);
    for anim in &mut out.animations {
        anim.morph_channels = anim
            .morph_channels
            .iter()
            .filter_map(|c| {
                let mesh = new_index.get(c.mesh).copied().flatten()?;
                Some(MorphChannel { mesh, ..c.clone() })
            })
            .collect();
    }
    (out, model.meshes.len() - kept)
}

#[cfg(test)]
mod tests {
    use super::*;
    use relic_core::model::{Animation, Interpolation, Lod, Mesh};

    #[test]
    fn targets_by_name_and_extension() {
        assert!(matches!(Target::from_name("GLB"), Some(Target::Glb)));
        assert!(matches!(Target::for_path(Path::new("a/b.m2")), Ok(Target::Format(f)) if f.name == "m2"));
        assert!(Target::for_path(Path::new("x.obj")).unwrap_err().is_usage());
        assert!(Target::for_path(Path::new("noext")).is_err());
    }

    #[test]
    fn output_paths_are_the_files_convert_writes() {
        let model = relic_gltf::samples::skinned_animated();
        for name in ["glb", "gltf", "abc", "m2"] {
            let target = Target::from_name(name).unwrap();
            let out = Path::new("dir/walk").with_extension(name);
            match convert(&model, target, &out, &ConvertOptions::default()) {
                Ok(written) => {
                    let paths: Vec<PathBuf> = written.value.into_iter().map(|(p, _)| p).collect();
                    assert_eq!(paths, target.output_paths(&out), "{name}");
                }
                // A game format may not hold the sample; glTF always does.
                Err(e) => assert!(matches!(target, Target::Format(_)), "{name}: {e}"),
            }
        }
    }

    #[test]
    fn lod0_keeps_full_detail_and_repoints_morph_channels() {
        let mesh = |level| Mesh { lod: Lod { level, distance: 0.0 }, ..Mesh::default() };
        let channel =
            |mesh| MorphChannel { mesh, interpolation: Interpolation::Linear, times: vec![0.0], weights: vec![1.0] };
        let model = Model {
            meshes: vec![mesh(0), mesh(1), mesh(0)],
            animations: vec![Animation { morph_channels: vec![channel(1), channel(2)], ..Animation::default() }],
            ..Model::default()
        };
        let (lod0, dropped) = keep_lod0(&model);
        assert_eq!(dropped, 1);
        assert_eq!(lod0.meshes.len(), 2);
        assert_eq!(lod0.animations[0].morph_channels, vec![channel(1)]);
    }
}
