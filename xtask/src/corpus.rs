//! `cargo xtask corpus DIR`: runs every check relic has on every model file under DIR.
//!
//! Files are recognised by their bytes, never by their extension. Each model gets the format
//! crate's own battery (parse, byte-identical re-write, IR round trip, the format's real-data
//! proofs) plus the cross-format checks registered in [`extra_checks`]. One line per file, then
//! `N passed, M failed` (`, K refused` for out-of-scope versions; `, J not models` for other files).

use std::path::Path;
use std::time::Instant;

use relic_core::check::{Checks, Status};

/// Checks that need more than one crate (animation proofs, glTF export), by format name.
fn extra_checks(_format: &str, bytes: &[u8]) -> Checks {
    let mut checks = Checks::new();
    // glTF: export, Khronos validator (0 errors, 0 warnings), import back.
    checks.extend(crate::gltf_validator::corpus_checks(bytes));
    checks
}

/// Outcome of one file.
enum Outcome {
    Passed,
    Failed,
    Refused,
    NotModel,
}

fn check_file(root: &Path, path: &Path) -> Outcome {
    let rel = path.strip_prefix(root).unwrap_or(path).display().to_string();
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            println!("FAIL {rel}: cannot read: {e}");
            return Outcome::Failed;
        }
    };
    let Some((format, info)) = relic_cli::formats::detect(&bytes) else {
        println!("--   {rel}: not a model (skipped)");
        return Outcome::NotModel;
    };
    let started = Instant::now();
    let mut checks = (format.corpus_checks)(&bytes);
    if checks.passed() && !checks.refused() {
        checks.extend(extra_checks(format.name, &bytes));
    }
    let summary = checks.0.iter().map(|c| c.to_string()).collect::<Vec<_>>().join("; ");
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    let (mark, outcome) = if !checks.passed() {
        ("FAIL", Outcome::Failed)
    } else if checks.refused() {
        ("REF ", Outcome::Refused)
    } else if checks.0.iter().any(|c| c.status == Status::Pass) {
        ("ok  ", Outcome::Passed)
    } else {
        // A file on which nothing was checked has not passed anything.
        ("FAIL", Outcome::Failed)
    };
    println!("{mark} {rel} [{} v{}] {summary} [{ms:.0} ms]", info.format, info.version);
    outcome
}

/// Runs the corpus checks; `Err` if any file failed.
pub fn run(dir: &Path) -> Result<(), String> {
    if !dir.is_dir() {
        return Err(format!("{} is not a folder", dir.display()));
    }
    let (mut passed, mut failed, mut refused, mut other) = (0, 0, 0, 0);
    for path in crate::walk(dir)? {
        match check_file(dir, &path) {
            Outcome::Passed => passed += 1,
            Outcome::Failed => failed += 1,
            Outcome::Refused => refused += 1,
            Outcome::NotModel => other += 1,
        }
    }
    let mut line = format!("{passed} passed, {failed} failed");
    if refused > 0 {
        line.push_str(&format!(", {refused} refused"));
    }
    if other > 0 {
        line.push_str(&format!(", {other} not models"));
    }
    println!("{line}");
    if failed > 0 { Err(format!("{failed} corpus file(s) failed")) } else { Ok(()) }
}
