//! What a format reads and writes besides its own bytes: the file's name and the files next to it
//! ([`Input`], [`Siblings`]), and the files written beside the main one ([`Written`]).

use std::fmt;
use std::path::Path;
use std::sync::Arc;

use super::listfile::Listfile;
use crate::texture::TextureSource;

/// Files next to the one being read, found by name (an M2's `NAME00.skin`, `NAME0060-00.anim`).
pub trait Siblings {
    /// The bytes of the file called `name` next to the input (matched without regard to letter
    /// case where the file system allows), `Ok(None)` if there is none.
    fn read(&self, name: &str) -> std::io::Result<Option<Vec<u8>>>;

    /// The folder the input lies in, for a format whose file names others by a relative path that
    /// its own reader resolves with its own checks (a `.gltf`'s buffers and images); `None` when
    /// the input has no folder (bytes in memory).
    fn folder(&self) -> Option<&Path> {
        None
    }

    /// The listfile that names the files the input refers to by number (a chunked M2's
    /// FileDataIDs), `None` when none was given.
    fn listfile(&self) -> Option<&Listfile> {
        None
    }

    /// [`Siblings::read`] of a file the listfile names `name` (`Foo_LOD0.skin`) that the format
    /// calls `known_as` without a listfile (`foo00.skin`): siblings that record the files they give
    /// record it under `known_as`, so that the files recorded read again without the listfile.
    fn read_as(&self, name: &str, _known_as: &str) -> std::io::Result<Option<Vec<u8>>> {
        self.read(name)
    }

    /// The bytes of the file at the game path `path` (`creature/foo/foo00.skin`, a listfile's
    /// path) under the game's data folder, matched without regard to letter case, `Ok(None)` when
    /// there is no data folder or no such file; `known_as` as for [`Siblings::read_as`].
    fn read_game_path(&self, _path: &str, _known_as: &str) -> std::io::Result<Option<Vec<u8>>> {
        Ok(None)
    }
}

/// No sibling files: the input is a byte slice on its own.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoSiblings;

impl Siblings for NoSiblings {
    fn read(&self, _name: &str) -> std::io::Result<Option<Vec<u8>>> {
        Ok(None)
    }
}

/// Sibling files held in memory (a file just written, tests, fuzzing, callers without a folder):
/// name → bytes, matched without regard to letter case.
#[derive(Debug, Clone, Default)]
pub struct SiblingBytes(pub Vec<(String, Vec<u8>)>);

impl Siblings for SiblingBytes {
    fn read(&self, name: &str) -> std::io::Result<Option<Vec<u8>>> {
        Ok(self.0.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, b)| b.clone()))
    }
}

/// One file to read: its bytes, its name (whose stem names its siblings) and its siblings.
#[derive(Clone, Copy)]
pub struct Input<'a> {
    /// The file's bytes.
    pub bytes: &'a [u8],
    /// The file name without folder (`GnomePounder.m2`); empty when unknown.
    pub name: &'a str,
    /// Loads the files next to it.
    pub siblings: &'a dyn Siblings,
}

impl<'a> Input<'a> {
    /// Bytes with no name and no siblings.
    pub fn bytes_only(bytes: &'a [u8]) -> Self {
        Self { bytes, name: "", siblings: &NoSiblings }
    }

    /// The file name without its last extension (`GnomePounder`).
    pub fn stem(&self) -> &'a str {
        match self.name.rfind('.') {
            Some(dot) if dot > 0 => self.name.get(..dot).unwrap_or(self.name),
            _ => self.name,
        }
    }
}

impl fmt::Debug for Input<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Input({:?}, {} bytes)", self.name, self.bytes.len())
    }
}

/// A file written beside the main output, named `<output stem><suffix>` (`00.skin`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiblingFile {
    /// What follows the output's stem in the file name.
    pub suffix: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// The bytes of a written file and of the files written beside it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Written {
    /// The main file.
    pub bytes: Vec<u8>,
    /// Files beside it (M2 `.skin`/`.anim` of Wrath and later).
    pub siblings: Vec<SiblingFile>,
}

impl Written {
    /// One file, nothing beside it.
    pub fn single(bytes: Vec<u8>) -> Self {
        Self { bytes, siblings: Vec::new() }
    }
}

/// Where a model is written, for the writers that need more than the model: the output's name
/// (whose stem names the files beside it, which a `.gltf` names inside itself) and, for formats
/// that embed their textures, where the pixels are found.
#[derive(Debug, Clone, Default)]
pub struct Output {
    /// The output file's name without folder (`hero.gltf`); empty when unknown.
    pub name: String,
    /// Where the pixels of the model's textures come from, for formats that embed them
    /// ([`Textures::Embedded`](super::Textures::Embedded)); `None`: untextured.
    pub textures: Option<Arc<dyn TextureSource>>,
}

impl Output {
    /// An output called `name` (`hero.gltf`), untextured.
    pub fn named(name: impl Into<String>) -> Self {
        Self { name: name.into(), textures: None }
    }

    /// The output's name without its last extension (`hero`), as the files beside it are named.
    pub fn stem(&self) -> &str {
        Input { bytes: &[], name: &self.name, siblings: &NoSiblings }.stem()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_know_their_stem() {
        let input = Input { bytes: &[], name: "GnomePounder.m2", siblings: &NoSiblings };
        assert_eq!(input.stem(), "GnomePounder");
        assert_eq!(Input { name: "noext", ..input }.stem(), "noext");
        assert_eq!(Input { name: ".hidden", ..input }.stem(), ".hidden");
        assert_eq!(Input::bytes_only(&[]).stem(), "");
    }
}
