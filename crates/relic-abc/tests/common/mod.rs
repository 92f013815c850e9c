//! Shared test helpers: where the fixtures and the real files are.

#![allow(dead_code, clippy::unwrap_used, clippy::panic)]

use std::path::PathBuf;

/// `fixtures/abc` of the workspace.
pub(crate) fn fixtures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/abc")
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

/// Every real ABC file, or `None` (after a visible skip message) if the corpus is absent.
pub(crate) fn corpus() -> Option<Vec<(String, Vec<u8>)>> {
    relic_testkit::corpus_dir("the real ABC files").map(|dir| files_in(dir.join("abc"), "ABC"))
}

/// One real file by name, or `None` if the corpus is absent; a missing file in a present corpus
/// fails.
pub(crate) fn corpus_file(name: &str) -> Option<Vec<u8>> {
    relic_testkit::corpus_file(name, &format!("abc/{name}"))
}

fn files_in(dir: PathBuf, ext: &str) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x.eq_ignore_ascii_case(ext)))
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap()))
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no .{ext} files in {}", dir.display());
    out
}

/// The corpus check `name` of a file (`relic_abc::verify`): its status and detail.
pub(crate) fn check(bytes: &[u8], name: &str) -> (relic_core::check::Status, String) {
    let checks = relic_abc::verify::corpus_checks(bytes);
    let check = checks.0.into_iter().find(|c| c.name == name).unwrap_or_else(|| panic!("no check {name}"));
    (check.status, check.detail)
}
