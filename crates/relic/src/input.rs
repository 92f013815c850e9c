//! Recognising files by content and loading them as common models, with the files next to them
//! that they need (an M2's `.skin` and `.anim` files).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use relic_core::format::{Content, Detected, FormatEntry, Input, Listfile, Siblings};
use relic_core::{Converted, Loss, Model};

use crate::error::Error;
use crate::listed::Listed;
pub(crate) use crate::names::{file_name, stem};
use crate::registry::{Kind, Registry};

/// What a file is, judged by its bytes by the built-in formats ([`Registry::detect`] for
/// another registry).
pub fn detect(bytes: &[u8]) -> Option<Kind> {
    Registry::builtin().detect(bytes)
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
    /// The listfile and the data folders its paths are found under ([`FolderSiblings::listed`]).
    listed: Option<(Arc<Listfile>, Vec<PathBuf>)>,
}

impl FolderSiblings {
    /// The siblings of `path` (the files in its folder).
    pub fn of(path: &Path) -> Self {
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        Self { dir, listed: None }
    }

    /// The siblings of the model at `path` that also find files by number through `listed`: by
    /// the listfile's path under its data folders ([`Listed::roots_for`]).
    pub fn listed(path: &Path, listed: Option<&Listed>) -> Self {
        let listed = listed.map(|l| (l.listfile.clone(), l.roots_for(path)));
        Self { listed, ..Self::of(path) }
    }

    /// The file at the game path `path` under the data folders, if any.
    fn find_game_path(&self, path: &str) -> Option<PathBuf> {
        let (_, roots) = self.listed.as_ref()?;
        roots.iter().find_map(|root| crate::listed::find_under(root, path))
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

    fn folder(&self) -> Option<&Path> {
        Some(&self.dir)
    }

    fn listfile(&self) -> Option<&Listfile> {
        self.listed.as_ref().map(|(l, _)| l.as_ref())
    }

    fn read_game_path(&self, path: &str, _known_as: &str) -> std::io::Result<Option<Vec<u8>>> {
        match self.find_game_path(path) {
            Some(path) => std::fs::read(path).map(Some),
            None => Ok(None),
        }
    }
}

/// [`FolderSiblings`] that remember the files they gave (an M2's `.skin` and `.anim` files): the
/// files a model was read from besides its own ([`Opened::files`]), each with the name the format
/// gives it (a file found through a listfile: its name without one, [`Siblings::read_as`]).
#[derive(Debug)]
struct Recording {
    folder: FolderSiblings,
    read: std::sync::Mutex<Vec<(PathBuf, String, Vec<u8>)>>,
}

impl Recording {
    fn of(path: &Path, listed: Option<&Listed>) -> Self {
        Self { folder: FolderSiblings::listed(path, listed), read: std::sync::Mutex::new(Vec::new()) }
    }

    /// The bytes of the file at `path` (found already), remembered as `known_as` (or by its own
    /// name).
    fn record(&self, path: Option<PathBuf>, known_as: Option<&str>) -> std::io::Result<Option<Vec<u8>>> {
        let Some(path) = path else { return Ok(None) };
        let bytes = std::fs::read(&path)?;
        let mut read = self.read.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if !read.iter().any(|(p, _, _)| *p == path) {
            let name = known_as.map_or_else(|| file_name(&path), str::to_string);
            read.push((path, name, bytes.clone()));
        }
        Ok(Some(bytes))
    }

    /// The files given, with the names they are recorded by and their bytes, in the order they
    /// were first asked for.
    fn files(self) -> Vec<(PathBuf, String, Vec<u8>)> {
        self.read.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Siblings for Recording {
    fn read(&self, name: &str) -> std::io::Result<Option<Vec<u8>>> {
        self.record(self.folder.find(name), None)
    }

    fn read_as(&self, name: &str, known_as: &str) -> std::io::Result<Option<Vec<u8>>> {
        self.record(self.folder.find(name), Some(known_as))
    }

    fn folder(&self) -> Option<&Path> {
        self.folder.folder()
    }

    fn listfile(&self) -> Option<&Listfile> {
        self.folder.listfile()
    }

    fn read_game_path(&self, path: &str, known_as: &str) -> std::io::Result<Option<Vec<u8>>> {
        self.record(self.folder.find_game_path(path), Some(known_as))
    }
}

/// Loads a model file as a common model with the built-in formats (see [`Registry::load_model`]).
pub fn load_model(path: &Path, bytes: &[u8], kind: Kind, animations: &[&Path]) -> Result<Converted<Model>, Error> {
    Registry::builtin().load_model(path, bytes, kind, animations)
}

/// Opens a model file with the built-in formats (see [`Registry::open`]).
///
/// ```no_run
/// let opened = relic::open(std::path::Path::new("PARTNER_DANCIN.ABC"))?;
/// println!("{}: {} bones", opened.kind.name(), opened.model.bones.len());
/// # Ok::<(), relic::Error>(())
/// ```
pub fn open(path: &Path) -> Result<Opened, Error> {
    Registry::builtin().open(path)
}

/// Opens a model file with animation files played on it, with the built-in formats (see
/// [`Registry::open_with`]).
pub fn open_with(path: &Path, animations: &[&Path]) -> Result<Opened, Error> {
    Registry::builtin().open_with(path, animations)
}

/// [`open_with`], finding the files the model names by number through `listed` (see
/// [`Registry::open_listed`]).
pub fn open_listed(path: &Path, animations: &[&Path], listed: Option<&Listed>) -> Result<Opened, Error> {
    Registry::builtin().open_listed(path, animations, listed)
}

impl Registry {
    /// Loads a model file as a common model, reading its sibling files from its folder.
    /// `animations` are animation files (NAD) played on the model's skeleton, added as clips named
    /// after their file stems. The losses are notes on what could not be read (a missing optional
    /// part).
    pub fn load_model(
        &self,
        path: &Path,
        bytes: &[u8],
        kind: Kind,
        animations: &[&Path],
    ) -> Result<Converted<Model>, Error> {
        self.load_model_listed(path, bytes, kind, animations, None)
    }

    /// [`Registry::load_model`], with the listfile and data folders a chunked M2's FileDataIDs
    /// are resolved through (its `.skin`, `.anim` files and textures; m2-md21.md §9): each is
    /// looked for by the listfile's file name beside the model, then by its path under the data
    /// folders, then by the name CASC extractors give it.
    pub fn load_model_listed(
        &self,
        path: &Path,
        bytes: &[u8],
        kind: Kind,
        animations: &[&Path],
        listed: Option<&Listed>,
    ) -> Result<Converted<Model>, Error> {
        self.load_recorded(path, bytes, kind, animations, listed).map(|(loaded, _)| loaded)
    }

    /// [`Registry::load_model`], and the sibling files the format read (an M2's `.skin` files).
    fn load_recorded(
        &self,
        path: &Path,
        bytes: &[u8],
        kind: Kind,
        animations: &[&Path],
        listed: Option<&Listed>,
    ) -> Result<(Converted<Model>, Vec<PathBuf>), Error> {
        let siblings = Recording::of(path, listed);
        let name = file_name(path);
        let input = Input { bytes, name: &name, siblings: &siblings };
        if let Some(error) = not_a_model(path, kind.entry, kind.detected) {
            return Err(error);
        }
        let codec = kind.entry.model.ok_or_else(|| self.not_read(path, bytes))?;
        let mut loaded = match codec.read_with_info.filter(|_| codec.records_original) {
            Some(read) => {
                let (mut loaded, info) = read(&input).map_err(|e| Error::read(path, e))?;
                loaded.value.original = Some(crate::original::from_info(kind.entry, &info, bytes.len(), &loaded.value));
                loaded
            }
            None => {
                let mut loaded = (codec.read)(&input).map_err(|e| Error::read(path, e))?;
                if codec.records_original {
                    loaded.value.original = crate::original::record(kind.entry, &input, &loaded.value);
                }
                loaded
            }
        };
        if loaded.value.name.is_empty() {
            loaded.value.name = stem(path);
        }
        let siblings = siblings.files();
        if let Some(original) = loaded.value.original.as_mut().filter(|_| codec.records_original) {
            original.files = std::iter::once((name.clone(), bytes.to_vec()))
                .chain(siblings.iter().map(|(_, n, b)| (n.clone(), b.clone())))
                .collect();
        }
        for anim in animations {
            self.attach_animation(&mut loaded.value, path, kind, anim)?;
        }
        Ok((loaded, siblings.into_iter().map(|(p, _, _)| p).collect()))
    }

    /// Opens a model file: reads it, recognises it by content and maps it (with its sibling files)
    /// to the common model.
    pub fn open(&self, path: &Path) -> Result<Opened, Error> {
        self.open_with(path, &[])
    }

    /// [`Registry::open`], with the animation files `animations` (NAD) played on the model, as
    /// [`Registry::load_model`] adds them.
    pub fn open_with(&self, path: &Path, animations: &[&Path]) -> Result<Opened, Error> {
        self.open_listed(path, animations, None)
    }

    /// [`Registry::open_with`], resolving FileDataIDs through `listed` (as
    /// [`Registry::load_model_listed`]).
    pub fn open_listed(&self, path: &Path, animations: &[&Path], listed: Option<&Listed>) -> Result<Opened, Error> {
        let bytes = read_file(path)?;
        let kind = self.detect(&bytes).ok_or_else(|| self.not_read(path, &bytes))?;
        let (Converted { value: model, losses: notes }, siblings) =
            self.load_recorded(path, &bytes, kind, animations, listed)?;
        let files = std::iter::once(path.to_path_buf())
            .chain(siblings)
            .chain(animations.iter().map(|a| a.to_path_buf()))
            .collect();
        Ok(Opened { kind, model, notes, files })
    }

    /// Adds the clips of the animation file `anim` to `model` (read from `path`, of `kind`).
    fn attach_animation(&self, model: &mut Model, path: &Path, kind: Kind, anim: &Path) -> Result<(), Error> {
        let bytes = read_file(anim)?;
        let codec = match self.detect(&bytes) {
            Some(k) if k.content() == Content::Animation => k.entry.animation,
            _ => None,
        };
        let Some(codec) = codec else {
            return Err(Error::Usage(format!("--anim {}: not an animation file relic reads", anim.display())));
        };
        if kind.detected.source.format != codec.model_format {
            return Err(Error::Usage(format!(
                "--anim {} plays on {} models; {} is {}",
                anim.display(),
                codec.model_format.as_str().to_uppercase(),
                path.display(),
                kind.name()
            )));
        }
        let name = file_name(anim);
        let siblings = FolderSiblings::of(anim);
        let input = Input { bytes: &bytes, name: &name, siblings: &siblings };
        (codec.attach)(model, &input, &stem(anim)).map_err(|e| Error::read(anim, e))
    }
}

/// The error for a file that holds no model of its own; `None` for a model.
fn not_a_model(path: &Path, entry: &FormatEntry, d: Detected) -> Option<Error> {
    let p = path.display();
    let why = match d.content {
        Content::Model => return None,
        Content::Animation => format!(
            "{p}: a {} file is an animation; give its model and pass the animation with --anim (relic convert MODEL OUT --anim {p})",
            d.source.format.as_str().to_uppercase()
        ),
        Content::Part => format!(
            "{p}: this {} file is part of a model stored in another file; open that model (its .{} file next to it)",
            d.source.format.as_str().to_uppercase(),
            entry.name
        ),
        Content::Texture => format!("{p}: a texture, not a model"),
    };
    Some(Error::Usage(why))
}

/// The files a model file refers to and that belong to it as much as the file itself (a glTF
/// document's external buffers and images, in its folder: [`relic_core::format::ModelCodec::references`]).
/// Empty for formats whose files name no other file, and for a document that does not parse.
pub fn referenced_files(path: &Path, bytes: &[u8], kind: Kind) -> Vec<PathBuf> {
    let Some(references) = kind.entry.model.and_then(|m| m.references) else { return Vec::new() };
    let siblings = FolderSiblings::of(path);
    let name = file_name(path);
    references(&Input { bytes, name: &name, siblings: &siblings })
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
    /// The files it was read from: the model's own, the files beside it that its format read (an
    /// M2's `.skin` and `.anim` files), the animation files played on it.
    pub files: Vec<PathBuf>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Wrath model with its views and an external animation file beside it: every file read is
    /// named, the model's first, each once; a file beside it that the model does not use is not.
    #[test]
    #[cfg(feature = "m2")]
    fn opened_names_the_files_read() {
        let dir = tempfile::tempdir().unwrap();
        let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/m2-wrath");
        for name in ["v264_external.m2", "v264_external00.skin", "v264_external01.skin", "v264_external02.skin"] {
            std::fs::copy(fixtures.join(name), dir.path().join(name)).unwrap();
        }
        // Another case than the model asks for, as extracted folders have it.
        std::fs::copy(fixtures.join("v264_external0000-00.anim"), dir.path().join("V264_EXTERNAL0000-00.ANIM"))
            .unwrap();
        std::fs::write(dir.path().join("unrelated.skin"), b"SKIN").unwrap();
        let opened = open(&dir.path().join("v264_external.m2")).unwrap();
        let names: Vec<String> = opened.files.iter().map(|p| file_name(p)).collect();
        assert_eq!(
            names,
            [
                "v264_external.m2",
                "V264_EXTERNAL0000-00.ANIM",
                "v264_external00.skin",
                "v264_external01.skin",
                "v264_external02.skin"
            ],
            "{names:?}"
        );
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
