//! A registry of formats: the formats a program reads and writes, in detection order. The default
//! one ([`Registry::builtin`]) is [`crate::FORMATS`]; a library user adds a format of their own
//! with [`Registry::with`] and opens and converts through the registry's methods
//! ([`Registry::open`], [`Registry::convert`]), which the free functions of this crate call on the
//! default one.

use std::borrow::Cow;
use std::path::Path;

use relic_core::format::{Content, Detected, FormatEntry};

use crate::error::Error;

/// What a file is, judged by its bytes: the registered format that recognised it, and the format,
/// version and content its detector read.
#[derive(Debug, Clone, Copy)]
pub struct Kind {
    /// The format's entry.
    pub entry: &'static FormatEntry,
    /// Format, version and what the file holds.
    pub detected: Detected,
}

impl Kind {
    /// Short format name as the file states it (`abc`, `m2`, `nod`, `nad`, `gltf`).
    pub fn name(&self) -> &str {
        self.detected.source.format.as_str()
    }

    /// What the file holds.
    pub fn content(&self) -> Content {
        self.detected.content
    }

    /// True for files that hold a model of their own.
    pub fn is_model(&self) -> bool {
        self.content() == Content::Model
    }
}

/// The formats a program reads and writes, in detection order (the first whose `detect` accepts
/// a file reads it).
///
/// ```
/// use relic_core::format::{Content, Detected, FormatEntry, FormatId, ModelCodec, Textures, Versions, Written};
/// use relic_core::{Converted, Info, Model};
///
/// // A toy format: "TOY1" and the model's name.
/// const TOY: FormatId = FormatId::new("toy");
/// static ENTRY: FormatEntry = FormatEntry {
///     name: "toy",
///     title: "a toy format",
///     family: "toy model",
///     extensions: &["toy"],
///     detect: |bytes| bytes.starts_with(b"TOY1").then_some(Detected::new(TOY, 1, Content::Model)),
///     versions: Versions { read: &[1..=1], write: &[1..=1], default_write: 1, note: "" },
///     info: |_| Ok(Info::new(TOY, 1)),
///     model: Some(ModelCodec {
///         read: |input| {
///             let name = String::from_utf8_lossy(&input.bytes[4..]).into_owned();
///             Ok(Converted::lossless(Model { name, ..Model::default() }))
///         },
///         write: |model, _, _| Ok(Converted::lossless(Written::single([b"TOY1", model.name.as_bytes()].concat()))),
///         textures: Textures::NoFiles,
///         beside: &[],
///         references: None,
///         records_original: true,
///         read_with_info: None,
///     }),
///     animation: None,
///     texture: None,
///     checks: None,
///     not_read: None,
/// };
///
/// let registry = relic::Registry::builtin().with(&ENTRY);
/// let file = std::env::temp_dir().join(format!("relic-registry-doc-{}.toy", std::process::id()));
/// std::fs::write(&file, b"TOY1lantern")?;
/// let opened = registry.open(&file)?;
/// assert_eq!((opened.kind.name(), opened.model.name.as_str()), ("toy", "lantern"));
/// // The default registry does not know the toy format.
/// assert!(relic::open(&file).is_err());
/// std::fs::remove_file(&file)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Registry {
    formats: Cow<'static, [&'static FormatEntry]>,
}

impl Default for Registry {
    fn default() -> Self {
        Self::builtin()
    }
}

impl Registry {
    /// The built-in formats ([`crate::FORMATS`], as the cargo features enabled them).
    pub fn builtin() -> Self {
        Self { formats: Cow::Borrowed(crate::formats::FORMATS) }
    }

    /// No format at all (add them with [`Registry::with`]).
    pub fn empty() -> Self {
        Self { formats: Cow::Borrowed(&[]) }
    }

    /// The registry with `entry` added after the formats it has (so it recognises only what they
    /// do not).
    pub fn with(mut self, entry: &'static FormatEntry) -> Self {
        self.formats.to_mut().push(entry);
        self
    }

    /// The formats, in detection order.
    pub fn formats(&self) -> &[&'static FormatEntry] {
        &self.formats
    }

    /// The formats that hold models.
    pub fn models(&self) -> impl Iterator<Item = &'static FormatEntry> + '_ {
        self.formats.iter().copied().filter(|f| f.model.is_some())
    }

    /// The model formats that write models: every model format with a version to write (MDX is
    /// read but not yet written, so it is not offered as an output).
    pub fn writers(&self) -> impl Iterator<Item = &'static FormatEntry> + '_ {
        self.models().filter(|f| !f.versions.write.is_empty())
    }

    /// The formats that hold textures.
    pub fn textures(&self) -> impl Iterator<Item = &'static FormatEntry> + '_ {
        self.formats.iter().copied().filter(|f| f.texture.is_some())
    }

    /// What a file is, judged by its bytes only.
    pub fn detect(&self, bytes: &[u8]) -> Option<Kind> {
        self.formats.iter().find_map(|f| (f.detect)(bytes).map(|detected| Kind { entry: f, detected }))
    }

    /// The format registered as `name` (`abc`, `m2`, …), or whose extensions include `name`
    /// (case-insensitive).
    pub fn by_name(&self, name: &str) -> Option<&'static FormatEntry> {
        let exact = self.formats.iter().find(|f| f.name.eq_ignore_ascii_case(name));
        exact.or_else(|| self.formats.iter().find(|f| f.has_extension(name))).copied()
    }

    /// What the registry reads, for messages: `models: ABC, M2, NOD/NAD; textures: BLP, DTX`.
    pub fn reads(&self) -> String {
        let list = |formats: Vec<String>| if formats.is_empty() { "none".to_string() } else { formats.join(", ") };
        let models = list(self.models().map(FormatEntry::label).collect());
        let textures = list(self.textures().map(FormatEntry::label).collect());
        format!("models: {models}; textures: {textures}")
    }

    /// What `bytes` are when no format reads them but one can tell (its entry's `not_read`), or
    /// relic recognises them without reading them ([`crate::foreign`]).
    pub fn describe(&self, bytes: &[u8]) -> Option<String> {
        let own = self.formats().iter().find_map(|f| f.not_read.and_then(|what| what(bytes)));
        own.or_else(|| crate::foreign::describe(bytes).map(str::to_string))
    }

    /// The error for `file`, whose `bytes` no format of the registry reads as a model: what it is
    /// when relic can tell ([`crate::foreign`]), and what relic reads.
    pub fn not_read(&self, file: &Path, bytes: &[u8]) -> Error {
        Error::NotModel { file: file.to_path_buf(), what: self.describe(bytes), reads: self.reads() }
    }
}

#[cfg(test)]
#[cfg(all(
    feature = "abc",
    feature = "m2",
    feature = "mdx",
    feature = "nod",
    feature = "blp",
    feature = "dtx",
    feature = "ltb",
    feature = "gltf"
))]
mod tests {
    use super::*;

    #[test]
    fn the_message_lists_every_model_and_texture_format() {
        assert_eq!(
            Registry::builtin().reads(),
            "models: ABC, MDX, M2, LTB, NOD/NAD, GLB, GLTF, MDL; textures: BLP, DTX"
        );
        assert_eq!(Registry::empty().reads(), "models: none; textures: none");
    }

    #[test]
    fn an_added_format_comes_after_the_builtin_ones() {
        static COPY: FormatEntry = relic_m2::ENTRY;
        let registry = Registry::builtin().with(&COPY);
        assert_eq!(registry.formats().len(), crate::FORMATS.len() + 1);
        // The built-in M2 still recognises M2 files; the copy only what no other format takes.
        let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/m2/v256_static.m2");
        let m2 = std::fs::read(fixture).unwrap();
        let kind = registry.detect(&m2).unwrap();
        assert!(std::ptr::eq(kind.entry, &relic_m2::ENTRY));
    }
}
