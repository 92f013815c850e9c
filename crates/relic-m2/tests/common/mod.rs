//! What the test binaries share: the fixtures, the real files, and the palette rule.

// Each test binary uses a different part of this module.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::path::{Path, PathBuf};

pub(crate) fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/m2")
}

/// Every fixture, by file name.
pub(crate) fn fixtures() -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(fixtures_dir())
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "m2"))
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap()))
        .collect();
    out.sort();
    assert!(out.len() >= 10, "fixtures missing: run `cargo xtask fixtures`");
    out
}

/// A fixture's bytes.
pub(crate) fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(fixtures_dir().join(name)).unwrap()
}

/// Every hostile fixture, by file name.
pub(crate) fn hostile() -> Vec<(String, Vec<u8>)> {
    let dir = fixtures_dir().join("hostile");
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| (e.file_name().to_string_lossy().into_owned(), std::fs::read(e.path()).unwrap()))
        .collect();
    out.sort();
    assert!(out.len() >= 8);
    out
}

/// The real 1.12 creature (GnomePounder), `None` without the corpus.
pub(crate) fn corpus() -> Option<Vec<u8>> {
    relic_testkit::corpus_file("GnomePounder-vanilla.m2", "m2/GnomePounder-vanilla.m2")
}

/// Every real M2 of versions 256–263 in the corpus: GnomePounder and the 1.12.1 files under
/// `wow-data/` (empty without the corpus).
pub(crate) fn corpus_files() -> Vec<(String, Vec<u8>)> {
    let Some(dir) = relic_testkit::corpus_dir("real M2 files") else { return Vec::new() };
    let mut paths = vec![dir.join("m2/GnomePounder-vanilla.m2")];
    let mut stack = vec![dir.join("wow-data")];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x.eq_ignore_ascii_case("m2")) {
                paths.push(p);
            }
        }
    }
    paths.sort();
    let out: Vec<_> = paths
        .into_iter()
        .map(|p| (p.strip_prefix(&dir).unwrap().display().to_string(), std::fs::read(&p).unwrap()))
        .collect();
    assert!(
        out.len() >= 3,
        "expected GnomePounder and the wow-data models: {:?}",
        out.iter().map(|f| &f.0).collect::<Vec<_>>()
    );
    out
}

/// The fixtures and the real files.
pub(crate) fn all_files() -> Vec<(String, Vec<u8>)> {
    let mut files = fixtures();
    files.extend(corpus_files());
    files
}

/// False for the fixture written in a foreign layout (kept by the writer, but not through JSON).
pub(crate) fn blizzard_layout(name: &str) -> bool {
    !name.contains("reordered") && !name.contains("overlapping")
}

/// The palette rule of a view (spec §10), checked here independently of the writer: for every
/// weighted slot j of view vertex k in submesh s,
/// `bone_lookup[s.bone_combo_index + properties[k][j]] == vertex[indices[k]].bone_indices[j]`,
/// with `properties[k][j] < s.bone_count ≤ bone_count_max`.
pub(crate) fn palettes_hold(view: &relic_m2::file::View, file: &relic_m2::M2File) -> bool {
    view.submeshes.iter().all(|s| {
        let (start, count) = s.vertices();
        u32::from(s.bone_count) <= view.bone_count_max
            && (start..start + count).all(|k| {
                let v = &file.vertices[usize::from(view.indices[k])];
                (0..4).all(|j| {
                    let slot = view.properties[k][j];
                    v.bone_weights[j] == 0
                        || (u16::from(slot) < s.bone_count
                            && file.bone_lookup[usize::from(s.bone_combo_index) + usize::from(slot)]
                                == u16::from(v.bone_indices[j]))
                })
            })
    })
}

/// The `.m2` files of a folder, each with every file of the folder as its siblings.
pub(crate) fn models_in(dir: &Path) -> Vec<(String, Vec<u8>, relic_m2::wrath::SiblingBytes)> {
    let all = relic_testkit::files_in(dir);
    let siblings = relic_m2::wrath::SiblingBytes(all.clone());
    all.into_iter()
        .filter(|(n, _)| n.to_ascii_lowercase().ends_with(".m2"))
        .map(|(n, b)| (n, b, siblings.clone()))
        .collect()
}

/// The real m2-wrath/creature.m2 (wowserhq/format) and every file beside it, `None` without the
/// corpus (said on the test's output); a corpus without it fails the test.
pub(crate) fn corpus_creature() -> Option<(Vec<u8>, relic_m2::wrath::SiblingBytes)> {
    let dir = relic_testkit::corpus_dir("the real creature.m2")?;
    let files = relic_testkit::files_in(&dir.join("m2-wrath"));
    let (_, bytes) =
        files.iter().find(|(n, _)| n == "creature.m2").cloned().expect("the corpus holds m2-wrath/creature.m2");
    Some((bytes, relic_m2::wrath::SiblingBytes(files)))
}

/// The Wrath file `write_files` made, read back with the files written beside it.
pub(crate) fn read_written(written: &relic_core::format::Written) -> relic_m2::wrath::Wrath {
    let files = written.siblings.iter().map(|s| (format!("back{}", s.suffix), s.bytes.clone())).collect();
    let siblings = relic_m2::wrath::SiblingBytes(files);
    let input = relic_core::format::Input { bytes: &written.bytes, name: "back.m2", siblings: &siblings };
    relic_m2::wrath::read(&input).unwrap()
}
