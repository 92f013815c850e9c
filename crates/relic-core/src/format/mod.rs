//! The shape every format crate registers in: one [`FormatEntry`] per crate, assembled into the
//! default registry by the `relic` facade crate (in the manner of Symphonia's codec registry).
//!
//! relic-core knows no format. A format is named by a [`FormatId`] its own crate defines
//! (`relic_abc::FORMAT`), recognised by its own `detect`, and read and written through the
//! function pointers of its entry. Adding a format is adding a crate with an entry and listing that
//! entry in `relic::FORMATS` (docs/ARCHITECTURE.md, "Adding a format").
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

use std::ops::RangeInclusive;
use std::path::PathBuf;

use crate::check::Checks;
use crate::convert::{Converted, WriteOptions};
use crate::error::{ReadError, WriteError};
use crate::info::Info;
use crate::model::{Model, SourceInfo};
use crate::texture::{Image, TextureOptions};

pub(crate) mod id;
mod io;
mod listfile;

pub use id::FormatId;
pub use io::{Input, NoSiblings, Output, SiblingBytes, SiblingFile, Siblings, Written};
pub use listfile::{Listfile, Malformed, file_name_of};

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

/// Reads a file into the common model; the losses list notes (a missing optional part).
pub type ReadModel = fn(&Input<'_>) -> Result<Converted<Model>, ReadError>;
/// Reads a model and the file's facts from one parse: see [`ModelCodec::read_with_info`].
pub type ReadModelWithInfo = fn(&Input<'_>) -> Result<(Converted<Model>, Info), ReadError>;

/// Builds a file (and the files beside it) from the common model, to be written as `output`.
pub type WriteModel = fn(&Model, &WriteOptions, &Output) -> Result<Converted<Written>, WriteError>;

/// Where the textures of a model format's files are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Textures {
    /// Nowhere relic writes: the files name no texture file (NOD: the game finds its skins).
    NoFiles,
    /// In files of the registered texture format of this name beside the model (`dtx` for ABC,
    /// `blp` for M2): the facade writes an editor's images as such files.
    Files(&'static str),
    /// Inside the model file (glTF): the writer embeds the pixels [`Output::textures`] finds.
    Embedded,
}

/// Reading and writing models.
#[derive(Debug, Clone, Copy)]
pub struct ModelCodec {
    /// File → common model.
    pub read: ReadModel,
    /// Common model → file.
    pub write: WriteModel,
    /// Where the format's textures are.
    pub textures: Textures,
    /// The suffixes of the files every write puts beside the output, each named
    /// `<output stem><suffix>` (a `.gltf`'s `.bin`), so that a tool can check them before any
    /// work. Files that depend on the model (an M2's `.skin` files) are not listed.
    pub beside: &'static [&'static str],
    /// The files outside an input that belong to it as much as the file itself (a `.gltf`'s
    /// buffers and images, resolved in [`Siblings::folder`]), so that a tool never writes over
    /// them; `None` for formats whose files name no other file by path.
    pub references: Option<fn(&Input<'_>) -> Vec<PathBuf>>,
    /// Whether a file of this format is a game's own file, which the facade records as the
    /// model's [`Model::original`] when it reads it (to compare the file written back with it);
    /// `false` for glTF, whose reader takes the record the file carries.
    pub records_original: bool,
    /// `read`, and the entry's `info` of the same file, from one parse (and one decompression):
    /// for a format the facade records ([`ModelCodec::records_original`]), so that a conversion
    /// reads each file once. `None`: the facade calls `read`, then `info`. Both ways must give
    /// the same model and the same facts.
    pub read_with_info: Option<ReadModelWithInfo>,
}

/// Adding clips from an animation file to a model (NAD onto NOD).
#[derive(Debug, Clone, Copy)]
pub struct AnimationCodec {
    /// The format of the models the animations play on.
    pub model_format: FormatId,
    /// Adds the file's clips to `model`, named `name` (the file's stem).
    pub attach: fn(&mut Model, &Input<'_>, &str) -> Result<(), ReadError>,
    /// The extension its files are written with (`nad`).
    pub extension: &'static str,
    /// Writes clip `index` of `model` as a file of the format (on the skeleton the model's
    /// format writes): what a conversion into the model format writes beside the model, one file
    /// a clip named after it.
    pub write: Option<WriteAnimation>,
}

/// Writes one clip of a model as an animation file: [`AnimationCodec::write`].
pub type WriteAnimation = fn(&Model, usize) -> Result<Converted<Vec<u8>>, WriteError>;

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

/// Names a file of a format's family that the format does not read (`FormatEntry::not_read`).
pub type NotRead = fn(&[u8]) -> Option<String>;

/// A format relic knows: how to recognise it, describe it, read, write and check it.
#[derive(Debug, Clone, Copy)]
pub struct FormatEntry {
    /// Short name (`abc`), also the extension written.
    pub name: &'static str,
    /// What it is, for people (`LithTech ABC model (Shogo, Blood 2, NOLF, AVP2)`).
    pub title: &'static str,
    /// The family it belongs to, as an editor's menu names it (`LithTech model`: ABC and LTB
    /// share one File > Import entry); formats of one family have the same.
    pub family: &'static str,
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
    /// What a file this format's `detect` leaves is, when the format can tell it is a file of
    /// its family that is not one it reads (`a LithTech world file (world version 66), not a model`):
    /// messages say so instead of only "not a model".
    pub not_read: Option<NotRead>,
}

impl FormatEntry {
    /// True if `extension` (without the dot, any case) is one of the format's.
    pub fn has_extension(&self, extension: &str) -> bool {
        self.extensions.iter().any(|e| e.eq_ignore_ascii_case(extension))
    }

    /// The format as messages name it: its extensions in capitals (`ABC`, `NOD/NAD`).
    pub fn label(&self) -> String {
        self.extensions.join("/").to_uppercase()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_sets_print_and_answer() {
        let v = Versions { read: &[6..=6, 9..=13], write: &[6..=6, 12..=12], default_write: 12, note: "" };
        assert!(v.reads(10) && !v.reads(8) && v.writes(6) && !v.writes(9));
        assert_eq!(Versions::list(v.read), "6, 9–13");
    }
}
