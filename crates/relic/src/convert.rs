//! Turning a common model into output files: by target format, with the options the user gave,
//! and with what the target could not hold reported as losses.

use std::path::{Path, PathBuf};

use relic_core::format::{FormatEntry, Output};
use relic_core::model::{ANIMATION_MS, Model, MorphChannel};
use relic_core::{Converted, Loss, WriteOptions};

use crate::error::Error;
use crate::registry::Registry;

/// What a model is converted to: a format of the registry that writes models (`.glb` and `.gltf`
/// are two, so a target's extension is its format's name).
#[derive(Debug, Clone, Copy)]
pub struct Target {
    entry: &'static FormatEntry,
}

impl Target {
    /// The target of `entry`, if it writes models.
    pub fn new(entry: &'static FormatEntry) -> Option<Target> {
        entry.model.is_some().then_some(Target { entry })
    }

    /// The target for a name (`glb`, `gltf`, `abc`, `m2`, `nod`), as given to `--to` or found as
    /// an output file's extension (case-insensitive), among the built-in formats.
    pub fn from_name(name: &str) -> Option<Target> {
        Registry::builtin().target(name)
    }

    /// The target for an output path, by its extension, among the built-in formats.
    pub fn for_path(path: &Path) -> Result<Target, Error> {
        Registry::builtin().target_for_path(path)
    }

    /// The format written.
    pub fn entry(&self) -> &'static FormatEntry {
        self.entry
    }

    /// Every file [`convert`] writes for the output `out` that does not depend on the model: `out`
    /// itself and the files its format always writes beside it (a `.gltf`'s `.bin`).
    pub fn output_paths(&self, out: &Path) -> Vec<PathBuf> {
        // Named as `convert` names them: after the output's stem as the writer sees it.
        let output = Output::named(crate::names::file_name(out));
        let beside = self.entry.model.map_or(&[][..], |m| m.beside);
        let beside = beside.iter().map(|suffix| out.with_file_name(format!("{}{suffix}", output.stem())));
        std::iter::once(out.to_path_buf()).chain(beside).collect()
    }

    /// The file extension written.
    pub fn extension(&self) -> &'static str {
        self.entry.name
    }
}

impl Registry {
    /// The target for a name (`glb`, `abc`, …) or an extension (case-insensitive): a format of
    /// this registry that writes models.
    pub fn target(&self, name: &str) -> Option<Target> {
        self.by_name(name).and_then(Target::new)
    }

    /// The target for an output path, by its extension.
    pub fn target_for_path(&self, path: &Path) -> Result<Target, Error> {
        // A path without an extension asks for the format named "", which no format is.
        let ext = path.extension().map(|e| e.to_string_lossy().into_owned()).unwrap_or_default();
        self.target(&ext).ok_or_else(|| {
            let all: Vec<String> = self.writers().map(|f| format!(".{}", f.name)).collect();
            Error::Usage(format!(
                "{}: cannot tell the output format from the extension {ext:?}; use {}",
                path.display(),
                all.join(", ")
            ))
        })
    }
}

/// Choices for a conversion.
#[derive(Debug, Clone, Default)]
pub struct ConvertOptions {
    /// Version of a game format to write (`--version`).
    pub version: Option<u32>,
    /// Keep only the full-detail meshes (`--lod 0`).
    pub lod0_only: bool,
    /// Where a format that embeds its textures (glTF) gets their pixels (the facade's
    /// `textures::GameTextures` finds the game's files); `None`: untextured.
    pub textures: Option<std::sync::Arc<dyn relic_core::texture::TextureSource>>,
    /// Images to write as the game's textures beside a game-format output (from the glTF the
    /// model came from; see [`crate::skins`]).
    #[cfg(feature = "gltf")]
    pub skins: crate::skins::SkinOptions,
    /// The listfile and data folders a chunked M2's FileDataIDs are resolved through
    /// (`--listfile`): the kept game file of a model read through them reads again through them
    /// (its textures named as they were), and relic-cli reads its input through them.
    pub listed: Option<crate::Listed>,
}

/// The files of one converted model (a `.gltf` comes with its `.bin`), and what was lost.
pub type Outputs = Converted<Vec<(PathBuf, Vec<u8>)>>;

/// Converts `model` into the bytes of the output file(s) at `out`, with the built-in formats (see
/// [`Registry::convert`]).
pub fn convert(model: &Model, target: Target, out: &Path, options: &ConvertOptions) -> Result<Outputs, Error> {
    Registry::builtin().convert(model, target, out, options)
}

impl Registry {
    /// Converts `model` into the bytes of the output file(s) at `out`: the files `target`'s writer
    /// makes (the output and the files beside it), the textures of its format written from an
    /// editor's images ([`ConvertOptions::skins`], found in this registry), and what could not be
    /// kept.
    pub fn convert(
        &self,
        model: &Model,
        target: Target,
        out: &Path,
        options: &ConvertOptions,
    ) -> Result<Outputs, Error> {
        self.convert_compared(model, target, out, options).map(|(outputs, _)| outputs)
    }

    /// [`Registry::convert`], and how the file written compares with the game file the model was
    /// read from ([`Model::original`]) when it is of that format: the comparison its notes come
    /// from, so that a tool printing it does not read the output again.
    pub fn convert_compared(
        &self,
        model: &Model,
        target: Target,
        out: &Path,
        options: &ConvertOptions,
    ) -> Result<(Outputs, Option<crate::original::Comparison>), Error> {
        let entry = target.entry;
        let write_error = |source| Error::Write { file: out.to_path_buf(), source };
        let codec = entry.model.ok_or_else(|| {
            write_error(relic_core::WriteError::Unsupported(format!("{} files hold no models", entry.name)))
        })?;
        let lod0;
        let (model, mut losses) = if options.lod0_only {
            let (kept, dropped) = keep_lod0(model);
            lod0 = kept;
            let note =
                (dropped > 0).then(|| Loss::new("meshes", format!("{dropped} lower-LOD meshes left out (--lod 0)")));
            (&lod0, note.into_iter().collect())
        } else {
            (model, Vec::new())
        };
        #[cfg(feature = "gltf")]
        let (with_skins, skin_files, skin_notes) = crate::skins::skins(model, entry, self, out, &options.skins);
        #[cfg(feature = "gltf")]
        let model = &with_skins;
        let kept = if options.lod0_only { None } else { crate::kept::unchanged(model, entry, options, out) };
        // Whether the kept game file went back as it was, or why not: for the comparison line, not
        // a loss (a file built from an edited model loses nothing by being built).
        let kept_state = kept.as_ref().map(|k| k.as_ref().map(|_| ()).map_err(Clone::clone));
        let mut files = match kept {
            Some(Ok(files)) => files,
            _ => {
                let output = Output { name: crate::names::file_name(out), textures: options.textures.clone() };
                let options = WriteOptions { version: options.version };
                let written = (codec.write)(model, &options, &output).map_err(write_error)?;
                losses.extend(written.losses);
                let mut files = vec![(out.to_path_buf(), written.value.bytes)];
                for sibling in written.value.siblings {
                    files.push((out.with_file_name(format!("{}{}", output.stem(), sibling.suffix)), sibling.bytes));
                }
                files
            }
        };
        let comparison = model
            .original
            .as_ref()
            .and_then(|o| crate::original::compare_files(o, entry, &files, model))
            .map(|c| crate::original::Comparison { kept: kept_state, ..c });
        // First: every count the output does not have as the original had it, whichever way
        // (fewer is a loss; more is a change of the file's structure an editor's round trip
        // made, e.g. LOD profiles rebuilt), and the clips' lengths.
        let differences = comparison.iter().flat_map(|c| &c.differences);
        let compared: Vec<Loss> = differences
            .map(|(key, before, after)| match key.as_str() {
                ANIMATION_MS => {
                    Loss::new("animation lengths", format!("{before} ms in all in the original, {after} ms written"))
                }
                _ => Loss::new(key.replace('_', " "), format!("{before} in the original, {after} written")),
            })
            .map(|loss| with_writers_reason(loss, &mut losses))
            .collect();
        losses.splice(0..0, compared);
        self.animation_files(model, entry, out, &mut files, &mut losses);
        #[cfg(feature = "gltf")]
        {
            files.extend(skin_files);
            losses.extend(skin_notes);
        }
        Ok((Converted { value: files, losses }, comparison))
    }

    /// For a format that keeps clips in files of their own (a NOD's NAD files, from the
    /// registry's [`relic_core::format::AnimationCodec`] for it): each clip of `model` written as
    /// `<clip name>.<extension>` beside `out`, the writer's note that they are not in the model's
    /// file replaced by the files (and by a note for each clip that cannot be written).
    fn animation_files(
        &self,
        model: &Model,
        entry: &FormatEntry,
        out: &Path,
        files: &mut Vec<(PathBuf, Vec<u8>)>,
        losses: &mut Vec<Loss>,
    ) {
        let codec = self
            .formats()
            .iter()
            .filter_map(|f| f.animation)
            .find(|a| a.model_format.as_str() == entry.name && a.write.is_some());
        let (Some(codec), Some(write)) = (codec, codec.and_then(|c| c.write)) else { return };
        if model.animations.is_empty() {
            return;
        }
        losses.retain(|l| !l.is_clips_apart());
        let mut names: Vec<String> = Vec::new();
        for (i, clip) in model.animations.iter().enumerate() {
            let name = animation_file_name(&clip.name, i, codec.extension, &names);
            names.push(name.clone());
            let element = format!("animations[{i}] {:?}", clip.name);
            match write(model, i) {
                Ok(written) => {
                    losses.extend(written.losses.into_iter().map(|l| Loss::new(format!("{element} ({name})"), l.what)));
                    files.push((out.with_file_name(&name), written.value));
                }
                Err(e) => losses.push(Loss::new(element, format!("not written as {name}: {e}"))),
            }
        }
    }
}

/// The file a clip is written to: its name (characters a file name cannot hold replaced by `_`),
/// else `clip<i>`, made unique among `taken` without regard to case.
fn animation_file_name(clip: &str, index: usize, extension: &str, taken: &[String]) -> String {
    let mut stem: String =
        clip.chars().map(|c| if c.is_control() || "/\\:*?\"<>|".contains(c) { '_' } else { c }).collect();
    if stem.trim().is_empty() || stem == "." || stem == ".." {
        stem = format!("clip{index}");
    }
    let mut name = format!("{stem}.{extension}");
    let mut n = 2;
    while taken.iter().any(|t| t.eq_ignore_ascii_case(&name)) {
        name = format!("{stem}_{n}.{extension}");
        n += 1;
    }
    name
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
#[cfg(all(feature = "abc", feature = "m2", feature = "gltf"))]
mod tests {
    use super::*;
    use relic_core::model::{Animation, Interpolation, Lod, Mesh};

    #[test]
    fn targets_by_name_and_extension() {
        assert_eq!(Target::from_name("GLB").map(|t| t.extension()), Some("glb"));
        assert!(matches!(Target::for_path(Path::new("a/b.m2")), Ok(t) if t.entry().name == "m2"));
        assert!(Target::from_name("blp").is_none(), "a texture format is no model target");
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
                Err(e) => assert!(!matches!(name, "glb" | "gltf"), "{name}: {e}"),
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

#[cfg(test)]
#[cfg(feature = "nod")]
mod animation_files {
    use super::*;

    /// A NOD with a NAD played on it, converted back into a NOD: the NAD is written beside it,
    /// named after its clip, byte for byte the file it was read from; the writer's note that a
    /// NOD holds no clips is gone; a clip named like a path is written under a safe name.
    #[test]
    fn a_nods_clips_are_written_as_nad_files_beside_it() {
        let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/nod");
        let nad = fixtures.join("tags.nad");
        let opened = crate::open_with(&fixtures.join("skinned.nod"), &[nad.as_path()]).unwrap();
        let target = Target::from_name("nod").unwrap();
        let out = Path::new("out/vampire.nod");
        let written = convert(&opened.model, target, out, &ConvertOptions::default()).unwrap();
        let names: Vec<String> = written.value.iter().map(|(p, _)| crate::file_name(p)).collect();
        assert_eq!(names, ["vampire.nod", "tags.nad"]);
        assert_eq!(written.value[1].1, std::fs::read(&nad).unwrap());
        assert!(written.losses.iter().all(|l| !l.is_clips_apart()), "{:?}", written.losses);
        let mut renamed = opened.model.clone();
        renamed.animations[0].name = "../walk".into();
        renamed.animations.push(renamed.animations[0].clone());
        let written = convert(&renamed, target, out, &ConvertOptions::default()).unwrap();
        let names: Vec<String> = written.value.iter().map(|(p, _)| crate::file_name(p)).collect();
        assert_eq!(names, ["vampire.nod", ".._walk.nad", ".._walk_2.nad"]);
        // Into another format the clips stay in the model's file (or are reported there).
        let glb =
            convert(&opened.model, Target::from_name("glb").unwrap(), Path::new("v.glb"), &ConvertOptions::default());
        assert_eq!(glb.unwrap().value.len(), 1);
    }
}
