//! The independent walker (`shared/tools/ltb_probe.py`) agrees with `relic info` on every real
//! file, and reads the streams relic's writer makes. Skips, saying so, without python3.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::path::Path;
use std::process::Command;

fn probe(path: &Path) -> Option<String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/tools/ltb_probe.py");
    let out = Command::new("python3").arg(&script).arg("--json").arg(path).output().ok()?;
    if !script.is_file() || !out.status.success() && out.stdout.is_empty() {
        return None;
    }
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn the_probe_agrees_with_relic_info() {
    let Some(dir) = relic_testkit::corpus_dir("the_probe_agrees_with_relic_info") else { return };
    if probe(&dir.join("ltb/Yun_WAIST_GR.LTB")).is_none() {
        eprintln!("skipping the_probe_agrees_with_relic_info: python3 or shared/tools/ltb_probe.py is absent");
        return;
    }
    let work = tempfile::tempdir().unwrap();
    for (name, bytes) in relic_testkit::files_in(&dir.join("ltb")) {
        let info = relic_ltb::info(&bytes).unwrap();
        let line = probe(&dir.join("ltb").join(&name)).unwrap();
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
            let line = probe(&path).unwrap();
            relic_ltb::verify::probe::compare(&line, &relic_ltb::info(&fresh).unwrap())
                .unwrap_or_else(|e| panic!("{name} rewrapped: {e}"));
        }
    }
}
