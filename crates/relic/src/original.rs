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
    Original { format: entry.name.to_string(), version: info.version, counts, files: Vec::new() }
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
    /// Whether the game file kept with the model ([`Original::files`]) was written back as it was
    /// (`Ok`), or why the file was built from the model instead (`Err`: the first difference,
    /// `relic_core::still::judge`); `None` when no file of this format and version was kept.
    pub kept: Option<Result<(), String>>,
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
        match &self.kept {
            Some(Ok(())) => line.push_str("; the game file written back as it was"),
            Some(Err(why)) => line.push_str(&format!("; built from the model: {why}")),
            None => {}
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
        kept: None,
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

/// Where two files part: `None` if they are equal, else `N of M bytes differ, the first at 0x94
/// (957968 → 957504 bytes)` (bytes past the shorter file's end count as differing).
pub fn byte_difference(source: &[u8], written: &[u8]) -> Option<String> {
    if source == written {
        return None;
    }
    let common = source.len().min(written.len());
    let first = source.iter().zip(written).position(|(a, b)| a != b).unwrap_or(common);
    let differing =
        source.iter().zip(written).filter(|(a, b)| a != b).count() + source.len().max(written.len()) - common;
    Some(format!(
        "{differing} of {} bytes differ, the first at {first:#x} ({} → {} bytes)",
        source.len().max(written.len()),
        source.len(),
        written.len()
    ))
}

/// A same-format write compared with its source byte for byte: for each file written (the model
/// file, then the files beside it, an M2's `.skin` and `.anim`), the file of the same role beside
/// the source (`hero00.skin` for `out00.skin`). `None` when the output is of another format than
/// the source; else one line — `byte-identical to its source (3 files)`, or which files differ,
/// where and by how much. `why` says what the writer changed (another version, a layout not kept),
/// when it knows. `read_beside`: the files read beside the source, by the names its format gives
/// them ([`Original::files`](relic_core::model::Original::files) after the first), looked at before
/// the source's folder (a `.skin` found through a listfile has another name on disk).
pub fn compare_with_source(
    source: &std::path::Path,
    source_bytes: &[u8],
    source_format: &str,
    target_format: &str,
    written: &[(std::path::PathBuf, Vec<u8>)],
    read_beside: &[(String, Vec<u8>)],
) -> Option<SourceComparison> {
    if source_format != target_format {
        return None;
    }
    let ((first, model), rest) = written.split_first()?;
    let out_stem = crate::names::stem(first);
    let in_stem = crate::names::stem(source);
    let siblings = crate::FolderSiblings::of(source);
    let mut differences = Vec::new();
    if let Some(d) = byte_difference(source_bytes, model) {
        differences.push(format!("{}: {d}", crate::names::file_name(first)));
    }
    for (path, bytes) in rest {
        let name = crate::names::file_name(path);
        let suffix = name.strip_prefix(out_stem.as_str()).unwrap_or(&name);
        // Found in any letter case: extracted game folders mix `Velen2.M2` with `velen20060-00.anim`.
        let wanted = format!("{in_stem}{suffix}");
        let counterpart = siblings.find(&wanted).unwrap_or_else(|| source.with_file_name(&wanted));
        let read = read_beside.iter().find(|(n, _)| n.eq_ignore_ascii_case(&wanted)).map(|(_, b)| b.clone());
        match read.map_or_else(|| std::fs::read(&counterpart), Ok) {
            Ok(original) => {
                if let Some(d) = byte_difference(&original, bytes) {
                    differences.push(format!("{name}: {d}"));
                }
            }
            Err(_) => {
                differences.push(format!("{name}: no {} beside the source to compare with", counterpart.display()))
            }
        }
    }
    Some(SourceComparison { files: written.len(), differences })
}

/// What [`compare_with_source`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceComparison {
    /// Files written.
    pub files: usize,
    /// One line per file that differs from its source (`out.m2: 464 of 957968 bytes differ, …`).
    pub differences: Vec<String>,
}

impl SourceComparison {
    /// Whether every file written equals its source.
    pub fn identical(&self) -> bool {
        self.differences.is_empty()
    }

    /// One line: `byte-identical to its source (2 files)`, or `NOT byte-identical to its source:
    /// …; why: …` with `why` (the writer's notes, the version asked for) when given.
    pub fn summary(&self, why: &[String]) -> String {
        if self.identical() {
            let files = if self.files == 1 { "1 file".to_string() } else { format!("{} files", self.files) };
            return format!("same format: byte-identical to its source ({files})");
        }
        let mut line = format!("same format: NOT byte-identical to its source: {}", self.differences.join("; "));
        if why.is_empty() {
            line.push_str("; why: the writer laid the file out anew (its layout was not kept) and gave no other note");
        } else {
            line.push_str(&format!("; why: {}", why.join("; ")));
        }
        line
    }
}
