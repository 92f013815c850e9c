//! Recognising input files by content and loading them as common models.

use std::path::{Path, PathBuf};

use relic_core::Model;
use relic_core::model::{FormatKind, SourceInfo};

use crate::error::CliError;
use crate::formats::{self, FormatEntry};

/// What a file is, judged by its bytes.
#[derive(Debug, Clone, Copy)]
pub enum InputKind {
    /// A model or animation of one of the game formats.
    Game(&'static FormatEntry, SourceInfo),
    /// glTF 2.0, binary (`.glb`) or JSON (`.gltf`).
    Gltf,
}

impl InputKind {
    /// Short format name (`abc`, `m2`, `nod`, `nad`, `gltf`).
    pub fn name(&self) -> &'static str {
        match self {
            InputKind::Game(_, info) => info.format.name(),
            InputKind::Gltf => "gltf",
        }
    }

    /// True for files that hold a model (not an animation alone).
    pub fn is_model(&self) -> bool {
        !matches!(self, InputKind::Game(_, info) if info.format == FormatKind::Nad)
    }
}

/// Recognises a file: a game format by its own detector, glTF by the GLB magic or a JSON object
/// with an `asset` member.
pub fn detect(bytes: &[u8]) -> Option<InputKind> {
    if let Some((entry, info)) = formats::detect(bytes) {
        return Some(InputKind::Game(entry, info));
    }
    is_gltf(bytes).then_some(InputKind::Gltf)
}

fn is_gltf(bytes: &[u8]) -> bool {
    if bytes.starts_with(b"glTF") {
        return true;
    }
    let text = bytes.trim_ascii_start();
    text.starts_with(b"{") && text.windows(7).take(1 << 16).any(|w| w == b"\"asset\"")
}

/// Reads a file from disk.
pub fn read_file(path: &Path) -> Result<Vec<u8>, CliError> {
    std::fs::read(path).map_err(|e| CliError::io(path, e))
}

/// Loads a model file as a common model. `animations` are NAD files played on a NOD model's
/// skeleton (added as clips named after their file stems).
pub fn load_model(path: &Path, bytes: &[u8], kind: InputKind, animations: &[&Path]) -> Result<Model, CliError> {
    let mut model = match kind {
        InputKind::Game(entry, info) if info.format == FormatKind::Nad => {
            let _ = entry;
            return Err(CliError::Usage(format!(
                "{}: a NAD file is an animation; give its model and pass the animation with --anim (relic convert MODEL.nod OUT --anim {})",
                path.display(),
                path.display()
            )));
        }
        InputKind::Game(entry, _) => (entry.read_model)(bytes).map_err(|e| CliError::read(path, e))?,
        InputKind::Gltf => relic_gltf::import(bytes, path.parent())
            .map_err(|source| CliError::Gltf { file: path.to_path_buf(), source })?,
    };
    if model.name.is_empty() {
        model.name = stem(path);
    }
    if !animations.is_empty() {
        let is_nod = matches!(kind, InputKind::Game(_, info) if info.format == FormatKind::Nod);
        if !is_nod {
            return Err(CliError::Usage(format!(
                "--anim takes NAD animations for a NOD model; {} is {}",
                path.display(),
                kind.name()
            )));
        }
        for anim in animations {
            let nad = read_file(anim)?;
            relic_nod::attach_animation(&mut model, &nad, &stem(anim), &relic_nod::options::NadOptions::default())
                .map_err(|e| CliError::read(anim, e))?;
        }
    }
    Ok(model)
}

/// The files a model file refers to and that belong to it as much as the file itself: a glTF
/// document's external buffers and images (in its folder). Empty for the game formats, whose
/// files stand alone, and for a document that does not parse (it is not converted then).
pub fn referenced_files(path: &Path, bytes: &[u8], kind: InputKind) -> Vec<PathBuf> {
    let InputKind::Gltf = kind else { return Vec::new() };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    relic_gltf::referenced_files(bytes, dir).unwrap_or_default()
}

/// A file's name without folder and extension.
pub fn stem(path: &Path) -> String {
    path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gltf_is_recognised_by_content() {
        assert!(is_gltf(b"glTF\x02\0\0\0"));
        assert!(is_gltf(b"  {\n \"asset\": {\"version\": \"2.0\"}}"));
        assert!(!is_gltf(b"{\"other\": 1}"));
        assert!(!is_gltf(b"MD20"));
    }
}
