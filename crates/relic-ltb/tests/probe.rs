//! The independent walker (`shared/tools/ltb_probe.py`) agrees with `relic info` on every real
//! file, and reads the streams relic's writer makes. Skips, saying so, without python3 or the
//! probe, or when the probe crashes; under CI (`CI` set) each of these fails instead.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::path::Path;
use std::process::Command;

/// The LTB files of the corpus (MANIFEST.md), and how many of them are LZMA-wrapped.
const CORPUS_LTB_FILES: usize = 12;
const CORPUS_WRAPPED: usize = 9;

fn script() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/tools/ltb_probe.py")
}

/// The probe's JSON line for `path`, or why there is none (python3 or the script missing, or the
/// probe ended without a line: a crash).
fn probe(path: &Path) -> Result<String, String> {
    let script = script();
    if !script.is_file() {
        return Err(format!("{} is absent", script.display()));
    }
    let out = Command::new("python3")
        .arg(&script)
        .arg("--json")
        .arg(path)
        .output()
        .map_err(|e| format!("python3 cannot be run: {e}"))?;
    if !out.status.success() && out.stdout.is_empty() {
        return Err(format!(
            "the probe crashed on {} ({}): {}",
            path.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn the_probe_agrees_with_relic_info() {
    let test = "the_probe_agrees_with_relic_info";
    let Some(dir) = relic_testkit::corpus_dir(test) else { return };
    // Python or the probe missing, or the probe crashing on the smallest file: a printed skip
    // here, a failure under CI (the only independent LTB check may not vanish there).
    if let Err(why) = probe(&dir.join("ltb/Yun_WAIST_GR.LTB")) {
        relic_testkit::skip_or_fail(test, &why);
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let (mut probed, mut rewrapped) = (0, 0);
    for (name, bytes) in relic_testkit::files_in(&dir.join("ltb")) {
        let info = relic_ltb::info(&bytes).unwrap();
        let line = probe(&dir.join("ltb").join(&name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        println!(
            "{name}: {}",
            relic_ltb::verify::probe::compare(&line, &info).unwrap_or_else(|e| panic!("{name}: {e}"))
        );
        // The payload compressed by relic's writer: the probe (Python's lzma) reads it too.
        let mut file = relic_ltb::read(&bytes).unwrap();
        if let Some(w) = &mut file.wrapper {
            w.original.clear();
            w.payload_digest = 0;
            let fresh = relic_ltb::write(&file).unwrap();
            let path = work.path().join(&name);
            std::fs::write(&path, &fresh).unwrap();
            let line = probe(&path).unwrap_or_else(|e| panic!("{name} rewrapped: {e}"));
            relic_ltb::verify::probe::compare(&line, &relic_ltb::info(&fresh).unwrap())
                .unwrap_or_else(|e| panic!("{name} rewrapped: {e}"));
            rewrapped += 1;
        }
        probed += 1;
    }
    assert_eq!((probed, rewrapped), (CORPUS_LTB_FILES, CORPUS_WRAPPED), "LTB files probed, rewrapped streams probed");
}
