//! The shape every format crate registers in: one [`FormatEntry`] per crate, assembled into the
//! default registry by the `relic` facade crate (in the manner of Symphonia's codec registry).
//!
//! relic-core knows no format. A format is named by a [`FormatId`] its own crate defines
//! (`relic_abc::FORMAT`), recognised by its own `detect`, and read and written through the
//! function pointers of its entry. Adding a format is adding a crate with an entry and listing that
//! entry in `relic::FORMATS`.
//!
//! ```
//! use relic_core::format::{Content, Detected, FormatId, Input};
//!
//! const TOY: FormatId = FormatId::new("toy");
//! fn detect(bytes: &[u8]) -> Option<Detected> {
//!     bytes.starts_with(b"TOY1").then(|| Detected::new(TOY, 1, Content::Model))
//! }
//! let input = Input::bytes_only(b"TOY1....");
//! assert_eq!(detect(input.bytes).map(|d| d.source.format), Some(TOY));
//! assert_eq!(TOY.to_string(), "toy");
//! ```

use std::fmt;
use std::ops::RangeInclusive;

use crate::check::Checks;
use crate::convert::{Converted, WriteOptions};
use crate::error::{ReadError, WriteError};
use crate::info::Info;
use crate::model::{Model, SourceInfo};
use crate::texture::{Image, TextureOptions};

/// The name of a format (`abc`, `m2`, `nod`, `nad`, `gltf`, `blp`, `dtx`): at most 7 lower-case
/// ASCII letters or digits, held inline so that it is `Copy` and can be rebuilt from text (glTF
/// extras name the format a model came from).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FormatId {
    len: u8,
    bytes: [u8; 7],
}

impl FormatId {
    /// A format name known at compile time. Panics (at compile time, in a `const`) for a name
    /// that is empty, longer than 7 bytes or not lower-case ASCII letters and digits.
    // A bad name is a bug in the format crate that names it, found when its constant is built.
    #[allow(clippy::panic)]
    pub const fn new(name: &'static str) -> Self {
        match Self::from_bytes(name.as_bytes()) {
            Some(id) => id,
            None => panic!("a format name is 1 to 7 lower-case ASCII letters or digits"),
        }
    }

    /// The format named by `name` (as [`FormatId::as_str`] prints it), if it is a valid name.
    pub fn parse(name: &str) -> Option<Self> {
        Self::from_bytes(name.as_bytes())
    }

    // `i` stays below `name.len()` ≤ 7 = `bytes.len()` (checked first); `get` is not const.
    #[allow(clippy::indexing_slicing)]
    const fn from_bytes(name: &[u8]) -> Option<Self> {
        if name.is_empty() || name.len() > 7 {
            return None;
        }
        let mut bytes = [0u8; 7];
        let mut i = 0;
        while i < name.len() {
            let c = name[i];
            if !(c.is_ascii_lowercase() || c.is_ascii_digit()) {
                return None;
            }
            bytes[i] = c;
            i += 1;
        }
        Some(Self { len: name.len() as u8, bytes })
    }

    /// The name.
    pub fn as_str(&self) -> &str {
        let bytes = self.bytes.get(..usize::from(self.len)).unwrap_or_default();
        std::str::from_utf8(bytes).unwrap_or_default()
    }
}

impl fmt::Display for FormatId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for FormatId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FormatId({})", self.as_str())
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for FormatId {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// What a recognised file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Content {
    /// A model (skeleton, meshes, animations).
    Model,
    /// Animation clips for a model stored in another file (NAD for NOD).
    Animation,
    /// A texture.
    Texture,
    /// A part of another file's model (an M2 `.skin` or `.anim`): read with that model, not alone.
    Part,
}

/// A file recognised by its bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Detected {
    /// Format and version.
    pub source: SourceInfo,
    /// What the file holds.
    pub content: Content,
}

impl Detected {
    /// A file of `format` version `version` holding `content`.
    pub const fn new(format: FormatId, version: u32, content: Content) -> Self {
        Self { source: SourceInfo { format, version }, content }
    }
}

/// The versions a format crate reads and writes.
#[derive(Debug, Clone, Copy)]
pub struct Versions {
    /// Versions read (others are recognised and refused with the reason).
    pub read: &'static [RangeInclusive<u32>],
    /// Versions written (`--version`).
    pub write: &'static [RangeInclusive<u32>],
    /// Written when the caller names none and the model did not come from this format.
    pub default_write: u32,
    /// Why the written set differs from the read set, if it does (shown by `--help`).
    pub note: &'static str,
}

impl Versions {
    /// True if `version` is read.
    pub fn reads(&self, version: u32) -> bool {
        self.read.iter().any(|r| r.contains(&version))
    }

    /// True if `version` is written.
    pub fn writes(&self, version: u32) -> bool {
        self.write.iter().any(|r| r.contains(&version))
    }

    /// `6, 9–13` for printing.
    pub fn list(ranges: &[RangeInclusive<u32>]) -> String {
        let parts: Vec<String> = ranges
            .iter()
            .map(|r| if r.start() == r.end() { r.start().to_string() } else { format!("{}–{}", r.start(), r.end()) })
            .collect();
        parts.join(", ")
    }
}

/// Files next to the one being read, found by name (an M2's `NAME00.skin`, `NAME0060-00.anim`).
pub trait Siblings {
    /// The bytes of the file called `name` next to the input (matched without regard to letter
    /// case where the file system allows), `Ok(None)` if there is none.
    fn read(&self, name: &str) -> std::io::Result<Option<Vec<u8>>>;
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

/// Reads a file into the common model; the losses list notes (a missing optional part).
pub type ReadModel = fn(&Input<'_>) -> Result<Converted<Model>, ReadError>;
/// Builds a file (and its siblings) from the common model.
pub type WriteModel = fn(&Model, &WriteOptions) -> Result<Converted<Written>, WriteError>;

/// Reading and writing models.
#[derive(Debug, Clone, Copy)]
pub struct ModelCodec {
    /// File → common model.
    pub read: ReadModel,
    /// Common model → file.
    pub write: WriteModel,
}

/// Adding clips from an animation file to a model (NAD onto NOD).
#[derive(Debug, Clone, Copy)]
pub struct AnimationCodec {
    /// The format of the models the animations play on.
    pub model_format: FormatId,
    /// Adds the file's clips to `model`, named `name` (the file's stem).
    pub attach: fn(&mut Model, &Input<'_>, &str) -> Result<(), ReadError>,
}

/// Decodes mip level `level` (0 = full size) of a texture file as RGBA8.
pub type DecodeTexture = fn(&Input<'_>, usize, &TextureOptions) -> Result<Image, ReadError>;
/// Encodes RGBA8 as a texture file (every mip made from the image).
pub type EncodeTexture = fn(&Image, &TextureOptions) -> Result<Converted<Vec<u8>>, WriteError>;

/// Encodes RGBA8 as a texture file of the format of `template` (the file the image was decoded
/// from): what `options` leave open (encoding `Auto`, version and mips `None`) is the template's,
/// and an image equal to the template's level 0, asked for nothing else, gives the template's
/// own bytes (its mips and header fields as they were).
pub type EncodeTextureLike = fn(&Image, &TextureOptions, &Input<'_>) -> Result<Converted<Vec<u8>>, WriteError>;

/// Decoding and encoding textures.
#[derive(Debug, Clone, Copy)]
pub struct TextureCodec {
    /// File → RGBA8.
    pub decode: DecodeTexture,
    /// RGBA8 → file.
    pub encode: EncodeTexture,
    /// RGBA8 → file, shaped like a file of the format (a texture written back to its own format).
    pub encode_like: EncodeTextureLike,
}

/// Runs the format's own checks on one file (`cargo xtask corpus`).
pub type CorpusChecks = fn(&Input<'_>) -> Checks;

/// A format relic knows: how to recognise it, describe it, read, write and check it.
#[derive(Debug, Clone, Copy)]
pub struct FormatEntry {
    /// Short name (`abc`), also the extension written.
    pub name: &'static str,
    /// What it is, for people (`LithTech ABC model (Shogo, Blood 2, NOLF, AVP2)`).
    pub title: &'static str,
    /// Extensions its files usually carry (detection never relies on them).
    pub extensions: &'static [&'static str],
    /// Recognises a file by its bytes.
    pub detect: fn(&[u8]) -> Option<Detected>,
    /// Versions read and written.
    pub versions: Versions,
    /// The format's own counts as the file states them (`relic info`).
    pub info: fn(&Input<'_>) -> Result<Info, ReadError>,
    /// Models, if the format holds them.
    pub model: Option<ModelCodec>,
    /// Animations for models of another file, if the format holds them.
    pub animation: Option<AnimationCodec>,
    /// Textures, if the format holds them.
    pub texture: Option<TextureCodec>,
    /// Corpus checks (built with the format crate's `verify` feature).
    pub checks: Option<CorpusChecks>,
}

impl FormatEntry {
    /// True if `extension` (without the dot, any case) is one of the format's.
    pub fn has_extension(&self, extension: &str) -> bool {
        self.extensions.iter().any(|e| e.eq_ignore_ascii_case(extension))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_ids_are_short_lower_case_names() {
        const ABC: FormatId = FormatId::new("abc");
        assert_eq!(ABC.as_str(), "abc");
        assert_eq!(FormatId::parse("abc"), Some(ABC));
        assert_eq!(FormatId::parse("m2").map(|f| f.to_string()), Some("m2".into()));
        for bad in ["", "ABC", "toolongname", "a.b", "a b"] {
            assert_eq!(FormatId::parse(bad), None, "{bad:?}");
        }
        assert_ne!(FormatId::new("nod"), FormatId::new("nad"));
    }

    #[test]
    fn inputs_know_their_stem() {
        let input = Input { bytes: &[], name: "GnomePounder.m2", siblings: &NoSiblings };
        assert_eq!(input.stem(), "GnomePounder");
        assert_eq!(Input { name: "noext", ..input }.stem(), "noext");
        assert_eq!(Input { name: ".hidden", ..input }.stem(), ".hidden");
        assert_eq!(Input::bytes_only(&[]).stem(), "");
    }

    #[test]
    fn version_sets_print_and_answer() {
        let v = Versions { read: &[6..=6, 9..=13], write: &[6..=6, 12..=12], default_write: 12, note: "" };
        assert!(v.reads(10) && !v.reads(8) && v.writes(6) && !v.writes(9));
        assert_eq!(Versions::list(v.read), "6, 9–13");
    }
}
