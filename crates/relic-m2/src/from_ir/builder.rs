//! What every part of the mapping shares: the builder (the model, the extras' file, the file
//! being built, the losses) and small conversions.

use relic_core::{Loss, Model, WriteError};

use crate::file::{M2File, Vertex};

pub(super) type Result<T> = std::result::Result<T, WriteError>;

pub(super) fn unsupported(message: impl Into<String>) -> WriteError {
    WriteError::Unsupported(message.into())
}

/// The state of one mapping: what it reads, what it builds, what it reports.
pub(super) struct Builder<'a> {
    /// The model mapped.
    pub(super) model: &'a Model,
    /// The file the model's extras hold (retargeted to `version`), if any.
    pub(super) base: Option<&'a M2File>,
    /// The version written.
    pub(super) version: u32,
    /// What the file cannot hold.
    pub(super) losses: &'a mut Vec<Loss>,
    /// The file being built.
    pub(super) file: M2File,
    /// Model bone → file bone: the extras' bone order when their skeleton fits (a file may store
    /// children before their parents; the model never does), else the model's order.
    pub(super) to_file: Vec<usize>,
    /// The extras' digest of the vertex array the file was read with.
    pub(super) vertex_digest: Option<&'a str>,
    /// The extras' vertices no view names, by index ([`crate::extras::M2Extras::unviewed_vertices`]).
    pub(super) unviewed: &'a [(u32, Vertex)],
    /// How many views the extras' file had (the count rebuilt views follow).
    pub(super) stored_views: usize,
    /// How many views (`.skin` files from Wrath on) the game file the model came from had, by
    /// its record ([`relic_core::model::Original`]; 0 without one): the count views rebuilt
    /// without extras follow, so an editor's round trip gives back as many `.skin` files.
    pub(super) original_views: usize,
    /// The extras' file was moved between Classic and The Burning Crusade: its views' submesh
    /// records have the other size, so the views are rebuilt.
    pub(super) retargeted: bool,
    /// Every bone track is built from the model, none taken from the extras' file (to find which
    /// of the file's tracks the model gives back exactly: [`super::rebuilt_bones`]).
    pub(super) rebuild_tracks: bool,
    /// The extras' material tables are not taken (built from the model): they came from a
    /// chunked file whose texture lookup a converter damaged, which only a chunked file tolerates,
    /// and the file written is a plain one.
    pub(super) stored_materials_unfit: bool,
}

impl<'a> Builder<'a> {
    /// A mapping of `model` at `version`, taking sections from `base` while they fit.
    pub(super) fn new(model: &'a Model, base: Option<&'a M2File>, version: u32, losses: &'a mut Vec<Loss>) -> Self {
        Builder {
            model,
            base,
            version,
            losses,
            file: M2File::default(),
            to_file: Vec::new(),
            vertex_digest: None,
            unviewed: &[],
            stored_views: 0,
            original_views: 0,
            retargeted: false,
            rebuild_tracks: false,
            stored_materials_unfit: false,
        }
    }
}

/// Seconds → milliseconds, clamped to ±2^40 ms (35 years, far past any u32 time the file can
/// hold): sums and negations of a few such values can then never overflow an i64.
pub(super) fn ms(seconds: f32) -> i64 {
    const LIMIT: i64 = 1 << 40;
    ((f64::from(seconds) * 1000.0).round() as i64).clamp(-LIMIT, LIMIT)
}

/// A millisecond count clamped into a u32 field.
pub(super) fn to_u32(v: i64) -> u32 {
    v.clamp(0, i64::from(u32::MAX)) as u32
}

impl Builder<'_> {
    /// Reports what the file cannot hold.
    pub(super) fn loss(&mut self, element: impl Into<String>, what: impl Into<String>) {
        self.losses.push(Loss::new(element, what));
    }

    /// `text` as the NUL-terminated Windows-1252 bytes the file stores, characters outside that
    /// code page as `?`; a loss for `element` if the text will not read back the same.
    pub(super) fn text_bytes(&mut self, text: &str, element: &str) -> Vec<u8> {
        let bytes: Vec<u8> = cp1252_lossy(text).chain([0]).collect();
        self.text_loss(text, &bytes, element);
        bytes
    }

    /// A loss for `element` if `bytes`, written for `text`, do not read back as `text`.
    pub(super) fn text_loss(&mut self, text: &str, bytes: &[u8], element: &str) {
        let back = crate::file::text(bytes);
        if back != text {
            self.loss(element, format!("{text:?} written as {back:?} (Windows-1252, up to the first NUL)"));
        }
    }
}

/// Windows-1252 bytes of `text`, `?` for a character outside that code page (the reader decodes
/// every stored string as Windows-1252).
pub(super) fn cp1252_lossy(text: &str) -> impl Iterator<Item = u8> + '_ {
    text.chars().map(|c| relic_core::text::encode_cp1252_char(c).unwrap_or(b'?'))
}

/// The inverse of a bone order (`to_file[model] = file` → `rank[file] = model`).
pub(super) fn inverse(to_file: &[usize]) -> Vec<usize> {
    let mut rank = vec![0; to_file.len()];
    for (model, &file) in to_file.iter().enumerate() {
        if let Some(r) = rank.get_mut(file) {
            *r = model;
        }
    }
    rank
}

/// The identity bone order of `n` bones.
pub(super) fn identity(n: usize) -> Vec<usize> {
    (0..n).collect()
}

/// The index of `item` in `list`, appended if it is not there.
pub(super) fn index_of<T: PartialEq>(list: &mut Vec<T>, item: T) -> usize {
    match list.iter().position(|x| *x == item) {
        Some(i) => i,
        None => {
            list.push(item);
            list.len() - 1
        }
    }
}
