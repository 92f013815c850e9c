//! The game file a model came from, recorded when it is read ([`record`]) and carried through
//! glTF (see `relic_gltf`'s naming), so that the file written back into that format can be
//! compared with it count by count ([`compare`]): what an editor's round trip lost is then said,
//! with the numbers, instead of being written silently.

use relic_core::format::{FormatEntry, Input, SiblingBytes};
use relic_core::info::{Fact, Info};
use relic_core::model::{ANIMATION_MS, MODEL_VERTICES, Model, Original};

/// The key under which the file's size travels with its counts.
pub const FILE_BYTES: &str = "file_bytes";

/// The record of a game file: its counts as `relic info` gives them (the non-zero ones), its
/// size, and the model read from it ([`Original::model_counts`]: its vertices, its clips'
/// lengths). `None` when the format gives no facts for it.
pub fn record(entry: &FormatEntry, input: &Input<'_>, model: &Model) -> Option<Original> {
    let info = (entry.info)(input).ok()?;
    Some(from_info(entry, &info, input.bytes.len(), model))
}

/// [`record`] from the facts the format's reader gave with the model
/// ([`ModelCodec::read_with_info`](relic_core::format::ModelCodec::read_with_info)): a file of
/// `file_bytes` bytes.
pub fn from_info(entry: &FormatEntry, info: &Info, file_bytes: usize, model: &Model) -> Original {
    let mut counts: Vec<(String, u64)> = counts(&info.facts).filter(|(_, n)| *n > 0).collect();
    counts.push((FILE_BYTES.to_string(), file_bytes as u64));
    counts.extend(Original::model_counts(model).iter().filter(|(_, n)| *n > 0).map(|(k, n)| (k.to_string(), *n)));
    Original { format: entry.name.to_string(), version: info.version, counts }
}

/// Whether `key` describes the model rather than the file (compared with the model written).
fn is_model_key(key: &str) -> bool {
    matches!(key, MODEL_VERTICES | ANIMATION_MS)
}

/// How a written file compares with the original it was made from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comparison {
    /// The original's format and version (`m2 v256`).
    pub original: String,
    /// Counts equal in both.
    pub equal: usize,
    /// `(key, original, written)` for every count that differs.
    pub differences: Vec<(String, u64, u64)>,
    /// The sizes in bytes: the original's (if recorded) and the written file's.
    pub sizes: (Option<u64>, u64),
}

impl Comparison {
    /// One line: `compared with the original (m2 v256): 17 counts equal, 2 differ; 835056 → 902144 bytes (1.08×)`.
    pub fn summary(&self) -> String {
        let mut line = format!(
            "compared with the original ({}): {} counts equal, {} differ",
            self.original,
            self.equal,
            self.differences.len()
        );
        if let (Some(before), after) = self.sizes {
            let ratio = if before > 0 { after as f64 / before as f64 } else { 0.0 };
            line.push_str(&format!("; {before} → {after} bytes ({ratio:.2}×)"));
        }
        line
    }
}

/// Compares `written`, a file of `entry`'s format (with the sibling files written with it)
/// written from `model`, whose original is `original`, with that original. `None` when the
/// original was of another format or the written file gives no facts.
pub fn compare(original: &Original, entry: &FormatEntry, written: &Input<'_>, model: &Model) -> Option<Comparison> {
    if original.format != entry.name {
        return None;
    }
    let bytes = written.bytes;
    let info = (entry.info)(written).ok()?;
    let mut written: Vec<(String, u64)> = counts(&info.facts).collect();
    // The clips' lengths, from the model written (the vertices are the file's own count).
    written.extend(
        Original::model_counts(model).iter().filter(|(k, _)| *k == ANIMATION_MS).map(|(k, n)| (k.to_string(), *n)),
    );
    let count_of = |list: &[(String, u64)], key: &str| list.iter().find(|(k, _)| k == key).map_or(0, |(_, n)| *n);
    let mut keys: Vec<&str> = original
        .counts
        .iter()
        .map(|(k, _)| k.as_str())
        .filter(|k| *k != FILE_BYTES && (!is_model_key(k) || *k == ANIMATION_MS))
        .collect();
    for (key, _) in &written {
        if !keys.contains(&key.as_str()) {
            keys.push(key);
        }
    }
    let mut equal = 0;
    let mut differences = Vec::new();
    for key in keys {
        let (before, after) = (original.count(key), count_of(&written, key));
        if before == after {
            equal += 1;
        } else {
            differences.push((key.to_string(), before, after));
        }
    }
    let before_bytes = original.counts.iter().find(|(k, _)| k == FILE_BYTES).map(|(_, n)| *n);
    Some(Comparison {
        original: format!("{} v{}", original.format, original.version),
        equal,
        differences,
        sizes: (before_bytes, bytes.len() as u64),
    })
}

fn counts<'f>(facts: &'f [(&'static str, Fact)]) -> impl Iterator<Item = (String, u64)> + 'f {
    facts.iter().filter_map(|(k, f)| match f {
        Fact::Count(n) => Some((k.to_string(), *n)),
        _ => None,
    })
}

/// [`compare`] for the files a conversion wrote: the first is the model file, the others its
/// sibling files (an M2's `.skin` and `.anim` files), found by their names.
pub fn compare_files(
    original: &Original,
    entry: &FormatEntry,
    files: &[(std::path::PathBuf, Vec<u8>)],
    model: &Model,
) -> Option<Comparison> {
    let ((first, bytes), rest) = files.split_first()?;
    let siblings = SiblingBytes(rest.iter().map(|(p, b)| (crate::names::file_name(p), b.clone())).collect());
    let name = crate::names::file_name(first);
    compare(original, entry, &Input { bytes, name: &name, siblings: &siblings }, model)
}
