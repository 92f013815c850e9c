//! The real game files next to the checkout.

/// Set (to anything) where the corpus must be present: CI. A test that cannot find it then fails
/// instead of skipping.
pub const REQUIRE_CORPUS: &str = "RELIC_REQUIRE_CORPUS";

/// Whether this run is CI's: `CI` set to anything but empty, `false` or `0` (as CI services and
/// `.ci/run` set it). Under CI the corpus is required and nothing a test needs may be skipped;
/// `cargo xtask ci` decides "corpus required" with this same function.
pub fn under_ci() -> bool {
    std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// Whether a test that needs something absent (the corpus, a program such as `python3` or
/// `mkfifo`) must fail instead of skipping: under CI ([`under_ci`]) or where [`REQUIRE_CORPUS`]
/// is set.
pub fn skips_forbidden() -> bool {
    under_ci() || std::env::var_os(REQUIRE_CORPUS).is_some()
}

/// `test` cannot run because `why` (a missing program, a probe that crashed): under CI
/// ([`skips_forbidden`]) a failure naming both; elsewhere a skip printed on the process's
/// standard error (written directly, so the test harness's capture does not hide it).
// Test support: a skip CI cannot see is a failure there.
#[allow(clippy::panic)]
pub fn skip_or_fail(test: &str, why: &str) {
    use std::io::Write;
    if skips_forbidden() {
        panic!("{test}: {why} (under CI nothing is skipped: CI or {REQUIRE_CORPUS} is set)");
    }
    let _ = writeln!(std::io::stderr(), "skipping {test}: {why}");
}

/// `../shared/corpus` next to the checkout, or `None` when it is absent: then `test` is reported
/// as skipped on the process's standard error (written directly, so the test harness's output
/// capture does not hide it). Panics if the folder is absent where [`skips_forbidden`] (CI, or
/// [`REQUIRE_CORPUS`] set).
pub fn corpus_dir(test: &str) -> Option<std::path::PathBuf> {
    use std::io::Write;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(!skips_forbidden(), "{test}: {} is absent and CI or {REQUIRE_CORPUS} is set", dir.display());
    let _ = writeln!(
        std::io::stderr(),
        "skipping {test}: ../shared/corpus is absent (the real game files are not published with relic)"
    );
    None
}

/// The bytes of corpus file `rel` (`abc/PARTNER_DANCIN.ABC`), `None` when the corpus is absent
/// (see [`corpus_dir`]). Panics if the corpus is present but the file cannot be read: a renamed
/// file must not turn its tests into silent passes.
// Test support: a corpus that is present but lacks the file is a broken test set-up.
#[allow(clippy::panic)]
pub fn corpus_file(test: &str, rel: &str) -> Option<Vec<u8>> {
    let path = corpus_dir(test)?.join(rel);
    Some(std::fs::read(&path).unwrap_or_else(|e| panic!("{test}: {}: {e}", path.display())))
}

/// Every file directly in `dir` (not in its sub-folders) with its name, sorted by name: a model
/// with the files beside it (`.skin`, `.anim`). Panics if the folder cannot be read.
// Test support: an unreadable fixture folder is a broken test set-up.
#[allow(clippy::panic)]
pub fn files_in(dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut out: Vec<(String, Vec<u8>)> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(), bytes)
        })
        .collect();
    out.sort();
    out
}

/// Every file under `dir` (recursively) whose extension is `extension` (any case), with its path
/// relative to `dir`, sorted by that path. Panics if a folder cannot be read.
// Test support: an unreadable fixture folder is a broken test set-up.
#[allow(clippy::panic)]
pub fn files_with_extension(dir: &std::path::Path, extension: &str) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        let entries = std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
        for path in entries.filter_map(Result::ok).map(|e| e.path()) {
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e.eq_ignore_ascii_case(extension)) {
                let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                let name = path.strip_prefix(dir).unwrap_or(&path).display().to_string();
                out.push((name, bytes));
            }
        }
    }
    out.sort();
    out
}

/// A corpus file that fails a check today, as `corpus-known-failures.txt` (at the workspace root)
/// lists it: an explicit, counted list that every run prints, never a silent skip.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnownFailure {
    /// The path under `../shared/corpus` (`abc/JUGGERNAUT.ABC`), or a pair (`pair A ↔ B`).
    pub path: String,
    /// Where it fails: `corpus` (`cargo xtask corpus` and the crates' tests) or `blender`
    /// (`cargo xtask blender-roundtrip`).
    pub step: String,
    /// What fails.
    pub what: String,
    /// The class of the issue that tracks it.
    pub class: String,
}

/// The list's text, built into every test binary and xtask.
const KNOWN_FAILURES: &str = include_str!("../../../corpus-known-failures.txt");

/// Every entry of `corpus-known-failures.txt` (lines of `path | step | what fails | class`; `#`
/// starts a comment).
pub fn known_failures() -> Vec<KnownFailure> {
    KNOWN_FAILURES
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut parts = l.split(" | ").map(str::trim);
            let mut next = || parts.next().unwrap_or_default().to_string();
            KnownFailure { path: next(), step: next(), what: next(), class: next() }
        })
        .collect()
}

/// The `corpus` entry for corpus file `rel` (a path under `../shared/corpus`, `/`-separated), if
/// it is a known failure of the corpus checks (which the crates' tests share); `test` names the
/// caller in the line printed to the standard error (written directly, so the test harness's
/// capture does not hide it) for every listed file it meets.
pub fn known_failure(test: &str, rel: &str) -> Option<KnownFailure> {
    use std::io::Write;
    let rel = rel.replace('\\', "/");
    let all = known_failures();
    let found = all.iter().find(|k| k.path == rel && k.step == "corpus")?.clone();
    let _ = writeln!(
        std::io::stderr(),
        "{test}: {rel}: known failure ({} of {} in corpus-known-failures.txt, issue 27 class {}): {}",
        all.iter().position(|k| k.path == rel && k.step == "corpus").map_or(0, |i| i + 1),
        all.len(),
        found.class,
        found.what
    );
    Some(found)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_known_failures_list_parses() {
        // Every entry line of the file (counted here without the parser) is one parsed entry.
        let lines: Vec<&str> =
            super::KNOWN_FAILURES.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).collect();
        let all = super::known_failures();
        assert_eq!(all.len(), lines.len(), "entries parsed of the {} entry lines", lines.len());
        let mut checked = 0;
        for (k, line) in all.iter().zip(&lines) {
            assert_eq!(line.matches(" | ").count(), 3, "{line}: not `path | step | what | class`");
            assert!(line.starts_with(&k.path), "{line}: parsed as {k:?}");
            assert!(!k.path.is_empty() && !k.what.is_empty() && !k.class.is_empty(), "{k:?}");
            assert!(matches!(k.step.as_str(), "corpus" | "blender"), "{k:?}");
            assert!(!k.path.starts_with('/') && !k.path.contains(".."), "{k:?}");
            checked += 1;
        }
        assert_eq!(checked, lines.len(), "entries checked");
    }
}
