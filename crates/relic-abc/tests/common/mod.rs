//! Shared test helpers: where the fixtures and the real files are.

#![allow(dead_code, clippy::unwrap_used, clippy::panic)]

use std::path::PathBuf;

/// `fixtures/abc` of the workspace.
pub(crate) fn fixtures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/abc")
}

/// The real files, next to the checkout.
pub(crate) fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/abc")
}

/// Every well-formed fixture: (file name, bytes), sorted.
pub(crate) fn fixtures() -> Vec<(String, Vec<u8>)> {
    files_in(fixtures_dir(), "abc")
}

/// Every hostile fixture.
pub(crate) fn hostile_fixtures() -> Vec<(String, Vec<u8>)> {
    files_in(fixtures_dir().join("hostile"), "abc")
}

/// True for the names of the hostile fixtures.
pub(crate) fn is_hostile(name: &str) -> bool {
    hostile_fixtures().iter().any(|(n, _)| n == name)
}

/// Every real ABC file, or `None` (after printing why) if the corpus is absent.
pub(crate) fn corpus() -> Option<Vec<(String, Vec<u8>)>> {
    let dir = corpus_dir();
    if !dir.is_dir() {
        println!("skipping: ../shared/corpus is absent");
        return None;
    }
    Some(files_in(dir, "ABC"))
}

/// One real file by name, or `None` if the corpus is absent.
pub(crate) fn corpus_file(name: &str) -> Option<Vec<u8>> {
    let path = corpus_dir().join(name);
    match std::fs::read(&path) {
        Ok(b) => Some(b),
        Err(_) => {
            println!("skipping: ../shared/corpus is absent");
            None
        }
    }
}

fn files_in(dir: PathBuf, ext: &str) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == ext))
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap()))
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no .{ext} files in {}", dir.display());
    out
}
