//! Each file is parsed once per conversion (issue 29): a format's `read_with_info` gives the
//! model `read` gives and the facts `info` gives, on every fixture and every real file.

// Test helpers: a failure must stop the test loudly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use std::path::{Path, PathBuf};

use relic::Registry;
use relic_core::format::{Input, SiblingBytes};

/// Every file under `dir`, recursively.
fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files_under(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// Compares both ways of reading every model file under `dir`; returns how many were compared
/// per format.
fn compare_under(dir: &Path, compared: &mut std::collections::BTreeMap<&'static str, usize>) {
    let registry = Registry::builtin();
    let mut files = Vec::new();
    files_under(dir, &mut files);
    files.sort();
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let Some(kind) = registry.detect(&bytes) else { continue };
        let Some(codec) = kind.entry.model else { continue };
        let Some(read_with_info) = codec.read_with_info else { continue };
        let folder = path.parent().unwrap();
        let siblings = SiblingBytes(relic_testkit::files_in(folder));
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let input = Input { bytes: &bytes, name: &name, siblings: &siblings };
        let (once, twice) = (read_with_info(&input), (codec.read)(&input));
        let shown = path.display();
        match (once, twice) {
            (Ok((model, info)), Ok(read)) => {
                assert!(model.value == read.value, "{shown}: the models differ");
                assert_eq!(model.losses, read.losses, "{shown}");
                assert_eq!(info, (kind.entry.info)(&input).unwrap(), "{shown}: the facts differ");
                *compared.entry(kind.entry.name).or_default() += 1;
            }
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{shown}"),
            (a, b) => panic!("{shown}: one way reads, the other not: {:?} / {:?}", a.err(), b.err()),
        }
    }
}

#[test]
fn one_parse_gives_the_model_and_the_facts_of_two() {
    let mut compared = std::collections::BTreeMap::new();
    compare_under(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures"), &mut compared);
    for format in ["abc", "ltb", "m2", "nod"] {
        assert!(compared.get(format).is_some_and(|&n| n > 0), "no {format} fixture compared: {compared:?}");
    }
    if let Some(dir) = relic_testkit::corpus_dir("reading each real model once") {
        for folder in ["abc", "ltb", "m2", "m2-wrath", "m2-incomplete", "wow-data", "wow-tbc"] {
            compare_under(&dir.join(folder), &mut compared);
        }
    }
    println!("compared: {compared:?}");
}
