//! Recognising files by content and loading them as common models, with the files next to them
//! that they need (an M2's `.skin` and `.anim` files).

use std::path::{Path, PathBuf};

use relic_core::format::{Content, Detected, FormatEntry, Input, Siblings};
use relic_core::{Converted, Loss, Model};

use crate::error::Error;
use crate::formats;

/// What a file is, judged by its bytes.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    /// A file of one of the game formats.
    Game(&'static FormatEntry, Detected),
    /// glTF 2.0, binary (`.glb`) or JSON (`.gltf`).
    Gltf,
}

impl Kind {
    /// Short format name (`abc`, `m2`, `nod`, `nad`, `gltf`).
    pub fn name(&self) -> &str {
        match self {
            Kind::Game(_, d) => d.source.format.as_str(),
            Kind::Gltf => "gltf",
        }
    }

    /// What the file holds (glTF: a model).
    pub fn content(&self) -> Content {
        match self {
            Kind::Game(_, d) => d.content,
            Kind::Gltf => Content::Model,
        }
    }

    /// True for files that hold a model of their own.
    pub fn is_model(&self) -> bool {
        self.content() == Content::Model
    }
}

/// Recognises a file: a game format by its own detector, glTF by the GLB magic or a JSON object
/// with an `asset` member.
pub fn detect(bytes: &[u8]) -> Option<Kind> {
    if let Some((entry, detected)) = formats::detect(bytes) {
        return Some(Kind::Game(entry, detected));
    }
    is_gltf(bytes).then_some(Kind::Gltf)
}

fn is_gltf(bytes: &[u8]) -> bool {
    if bytes.starts_with(b"glTF") {
        return true;
    }
    let text = bytes.trim_ascii_start();
    text.starts_with(b"{") && text.windows(7).take(1 << 16).any(|w| w == b"\"asset\"")
}

/// Reads a file from disk.
pub fn read_file(path: &Path) -> Result<Vec<u8>, Error> {
    std::fs::read(path).map_err(|e| Error::io(path, e))
}

/// The files in a folder, found by name without regard to letter case (game archives extracted
/// on Windows keep whatever case the archive had; models name their files in another).
#[derive(Debug, Clone)]
pub struct FolderSiblings {
    dir: PathBuf,
}

impl FolderSiblings {
    /// The siblings of `path` (the files in its folder).
    pub fn of(path: &Path) -> Self {
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        Self { dir }
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The path of the file called `name` in the folder (exact name first, then any case).
    pub fn find(&self, name: &str) -> Option<PathBuf> {
        let exact = self.dir.join(name);
        if exact.is_file() {
            return Some(exact);
        }
        let entries = std::fs::read_dir(&self.dir).ok()?;
        entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .find(|p| p.is_file() && p.file_name().is_some_and(|n| n.to_string_lossy().eq_ignore_ascii_case(name)))
    }
}

impl Siblings for FolderSiblings {
    fn read(&self, name: &str) -> std::io::Result<Option<Vec<u8>>> {
        match self.find(name) {
            Some(path) => std::fs::read(path).map(Some),
            None => Ok(None),
        }
    }
}

/// A file name without folder and extension.
pub fn stem(path: &Path) -> String {
    path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
}

/// Loads a model file as a common model, reading its sibling files from its folder. `animations`
/// are animation files (NAD) played on the model's skeleton, added as clips named after their
/// file stems. The losses are notes on what could not be read (a missing optional part).
pub fn load_model(path: &Path, bytes: &[u8], kind: Kind, animations: &[&Path]) -> Result<Converted<Model>, Error> {
    let siblings = FolderSiblings::of(path);
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let input = Input { bytes, name: &name, siblings: &siblings };
    let mut loaded = match kind {
        Kind::Game(entry, d) if d.content != Content::Model => {
            return Err(not_a_model(path, entry, d));
        }
        Kind::Game(entry, _) => {
            let codec = entry.model.ok_or_else(|| Error::NotModel { file: path.to_path_buf() })?;
            let mut read = (codec.read)(&input).map_err(|e| Error::read(path, e))?;
            read.value.original = crate::original::record(entry, &input, &read.value);
            read
        }
        Kind::Gltf => {
            let model = relic_gltf::import(bytes, path.parent())
                .map_err(|source| Error::Gltf { file: path.to_path_buf(), source })?;
            Converted::lossless(model)
        }
    };
    if loaded.value.name.is_empty() {
        loaded.value.name = stem(path);
    }
    for anim in animations {
        attach_animation(&mut loaded.value, path, kind, anim)?;
    }
    Ok(loaded)
}

/// The error for a file that holds no model of its own.
fn not_a_model(path: &Path, entry: &FormatEntry, d: Detected) -> Error {
    let p = path.display();
    match d.content {
        Content::Animation => Error::Usage(format!(
            "{p}: a {} file is an animation; give its model and pass the animation with --anim (relic convert MODEL OUT --anim {p})",
            d.source.format.as_str().to_uppercase()
        )),
        Content::Part => Error::Usage(format!(
            "{p}: this {} file is part of a model stored in another file; open that model (its .{} file next to it)",
            d.source.format.as_str().to_uppercase(),
            entry.name
        )),
        Content::Texture => Error::Usage(format!("{p}: a texture, not a model")),
        Content::Model => Error::NotModel { file: path.to_path_buf() },
    }
}

/// Adds the clips of the animation file `anim` to `model` (read from `path`, of `kind`).
fn attach_animation(model: &mut Model, path: &Path, kind: Kind, anim: &Path) -> Result<(), Error> {
    let bytes = read_file(anim)?;
    let codec = match formats::detect(&bytes) {
        Some((entry, d)) if d.content == Content::Animation => entry.animation,
        _ => None,
    };
    let Some(codec) = codec else {
        return Err(Error::Usage(format!("--anim {}: not an animation file relic reads", anim.display())));
    };
    let fits = matches!(kind, Kind::Game(_, d) if d.source.format == codec.model_format);
    if !fits {
        return Err(Error::Usage(format!(
            "--anim {} plays on {} models; {} is {}",
            anim.display(),
            codec.model_format.as_str().to_uppercase(),
            path.display(),
            kind.name()
        )));
    }
    let name = anim.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let siblings = FolderSiblings::of(anim);
    let input = Input { bytes: &bytes, name: &name, siblings: &siblings };
    (codec.attach)(model, &input, &stem(anim)).map_err(|e| Error::read(anim, e))
}

/// The files a model file refers to and that belong to it as much as the file itself: a glTF
/// document's external buffers and images (in its folder). Empty for the game formats and for a
/// document that does not parse (it is not converted then).
pub fn referenced_files(path: &Path, bytes: &[u8], kind: Kind) -> Vec<PathBuf> {
    let Kind::Gltf = kind else { return Vec::new() };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    relic_gltf::referenced_files(bytes, dir).unwrap_or_default()
}

/// A model opened from a file.
#[derive(Debug, Clone)]
pub struct Opened {
    /// What the file is.
    pub kind: Kind,
    /// The model.
    pub model: Model,
    /// What could not be read (a missing optional part), as notes.
    pub notes: Vec<Loss>,
}

/// Opens a model file: reads it, recognises it by content and maps it (with its sibling files) to
/// the common model.
///
/// ```no_run
/// let opened = relic::open(std::path::Path::new("PARTNER_DANCIN.ABC"))?;
/// println!("{}: {} bones", opened.kind.name(), opened.model.bones.len());
/// # Ok::<(), relic::Error>(())
/// ```
pub fn open(path: &Path) -> Result<Opened, Error> {
    let bytes = read_file(path)?;
    let kind = detect(&bytes).ok_or_else(|| Error::NotModel { file: path.to_path_buf() })?;
    let Converted { value: model, losses: notes } = load_model(path, &bytes, kind, &[])?;
    Ok(Opened { kind, model, notes })
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

    #[test]
    fn siblings_are_found_in_any_letter_case() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("GnomePounder00.SKIN"), b"SKIN").unwrap();
        let siblings = FolderSiblings::of(&dir.path().join("GnomePounder.m2"));
        assert_eq!(siblings.read("GnomePounder00.skin").unwrap(), Some(b"SKIN".to_vec()));
        assert_eq!(siblings.read("GnomePounder01.skin").unwrap(), None);
    }
}
