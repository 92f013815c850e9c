//! The game file a model was read from, written back as it is: a model read by the facade keeps
//! its file and the files read beside it ([`Original::files`](relic_core::model::Original::files),
//! carried through glTF), and a conversion into that format and version writes them unchanged
//! while the model is still the one they map to ([`relic_core::still::judge`]: exactly, or but
//! for the float noise, vertex order and resampled keys of an editor's round trip). An edited
//! model is written from the model, and the comparison with the original says what made it
//! another model ([`crate::original::Comparison::kept`]).

use std::path::{Path, PathBuf};

use relic_core::Model;
use relic_core::format::{FormatEntry, Input, Listfile, SiblingBytes, Siblings};

/// Files to write: each path and its bytes.
type Files = Vec<(PathBuf, Vec<u8>)>;

/// The kept files, named for the output `out`, when `model` is still the one they map to; `Err`
/// why the file is built from the model (the first difference); `None` when no file of `entry`'s
/// format (and `version`, if asked) is kept.
pub(crate) fn unchanged(
    model: &Model,
    entry: &FormatEntry,
    options: &crate::ConvertOptions,
    out: &Path,
) -> Option<Result<Files, String>> {
    let version = options.version;
    let original = model.original.as_ref().filter(|o| o.format == entry.name)?;
    let ((name, bytes), siblings) = original.files.split_first()?;
    // A name that is not a plain file name (a hostile glTF's `../x`) is never written to.
    let plain = |n: &str| !n.is_empty() && n != "." && n != ".." && !n.contains(['/', '\\', ':']);
    if version.is_some_and(|v| v != original.version) || !original.files.iter().all(|(n, _)| plain(n)) {
        return None;
    }
    let codec = entry.model?;
    let siblings =
        Kept { files: SiblingBytes(siblings.to_vec()), listfile: options.listed.as_ref().map(|l| &*l.listfile) };
    let input = Input { bytes, name, siblings: &siblings };
    let still = match (codec.read)(&input) {
        Ok(read) => relic_core::still::judge(model, &read.value),
        Err(e) => Err(format!("the kept file does not read: {e}")),
    };
    Some(match still {
        Ok(()) => Ok(renamed(&original.files, out)),
        Err(why) => Err(format!("the model is no longer the one read from {name} ({why})")),
    })
}

/// The files kept beside the game file, recorded under the names its format gives them, and the
/// listfile it was read through (which names its textures again as they were named).
struct Kept<'a> {
    files: SiblingBytes,
    listfile: Option<&'a Listfile>,
}

impl Siblings for Kept<'_> {
    fn read(&self, name: &str) -> std::io::Result<Option<Vec<u8>>> {
        self.files.read(name)
    }

    fn listfile(&self) -> Option<&Listfile> {
        self.listfile
    }
}

/// The kept files as written for `out`: the file itself as `out`, a file named after its stem
/// (`GnomePounder00.skin`) after `out`'s (`Edited00.skin`), any other by its own name beside it.
fn renamed(files: &[(String, Vec<u8>)], out: &Path) -> Files {
    let first = files.first().map(|(n, _)| crate::names::stem(Path::new(n))).unwrap_or_default();
    let out_stem = crate::names::stem(out);
    files
        .iter()
        .enumerate()
        .map(|(i, (name, bytes))| {
            let path = match name.get(..first.len()) {
                _ if i == 0 => out.to_path_buf(),
                Some(head) if head.eq_ignore_ascii_case(&first) => {
                    out.with_file_name(format!("{out_stem}{}", &name[first.len()..]))
                }
                _ => out.with_file_name(name),
            };
            (path, bytes.clone())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn siblings_named_after_the_file_follow_the_output() {
        let files = vec![
            ("Gnome.m2".to_string(), vec![1]),
            ("GNOME00.skin".to_string(), vec![2]),
            ("other.anim".to_string(), vec![3]),
        ];
        let out = renamed(&files, Path::new("/x/Edited.m2"));
        let names: Vec<_> = out.iter().map(|(p, _)| p.to_string_lossy().into_owned()).collect();
        assert_eq!(names, ["/x/Edited.m2", "/x/Edited00.skin", "/x/other.anim"]);
        assert_eq!(out.iter().map(|(_, b)| b[0]).collect::<Vec<_>>(), [1, 2, 3]);
    }
}
