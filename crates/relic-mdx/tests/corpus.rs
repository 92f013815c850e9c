//! Every real MDX of the corpus parses, rewrites byte for byte, and `info` reports the counts of
//! the spec's independent probe (`../shared/tools/mdx_probe.py`).

// Test code: a failed unwrap or index is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::path::{Path, PathBuf};

use relic_core::info::Fact;

/// The corpus's MDX files (`None`, reported as skipped, when the corpus is absent).
fn corpus_mdx(test: &str) -> Option<Vec<PathBuf>> {
    let dir = relic_testkit::corpus_dir(test)?.join("mdx");
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("mdx")))
        .collect();
    out.sort();
    assert!(out.len() >= 9, "{}: {} MDX files", dir.display(), out.len());
    Some(out)
}

#[test]
fn every_corpus_file_rewrites_byte_for_byte() {
    let Some(files) = corpus_mdx("every_corpus_file_rewrites_byte_for_byte") else { return };
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let file = relic_mdx::read(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let out = relic_mdx::write(&file).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(out == bytes, "{}: {} bytes written for {}", path.display(), out.len(), bytes.len());
        assert_eq!(relic_mdx::read(&out).unwrap(), file);
    }
}

/// The probe's script, next to the spec.
fn probe() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/tools/mdx_probe.py")
}

#[test]
fn info_counts_equal_the_probe() {
    let test = "info_counts_equal_the_probe";
    let Some(files) = corpus_mdx(test) else { return };
    if !probe().is_file() {
        relic_testkit::skip_or_fail(test, &format!("the probe {} is absent", probe().display()));
        return;
    }
    let mut command = std::process::Command::new("python3");
    command.arg(probe()).args(&files);
    let output = match command.output() {
        Ok(o) if o.status.success() => o,
        Ok(o) => panic!("the probe failed: {}", String::from_utf8_lossy(&o.stderr)),
        Err(e) => {
            relic_testkit::skip_or_fail(test, &format!("python3 cannot be run: {e}"));
            return;
        }
    };
    let text = String::from_utf8(output.stdout).unwrap();
    // One file: one object; several: an array of them.
    let reports = match serde_json::from_str::<serde_json::Value>(&text).unwrap() {
        serde_json::Value::Array(all) => all,
        one => vec![one],
    };
    assert_eq!(reports.len(), files.len());
    let mut compared = 0;
    for (path, report) in files.iter().zip(&reports) {
        assert_eq!(report["complete"], true, "{}: the probe did not walk it whole", path.display());
        let info = relic_mdx::info(&std::fs::read(path).unwrap()).unwrap();
        assert_eq!(u64::from(info.version), report["version"].as_u64().unwrap(), "{}", path.display());
        for (key, value) in report["counts"].as_object().unwrap() {
            if key == "gliders" {
                // DILG (one source only) is kept as an unknown chunk; no real file has one.
                assert_eq!(value, 0, "{}", path.display());
                continue;
            }
            let ours = match info.get(key) {
                Some(Fact::Count(n)) => *n,
                other => panic!("{}: info has no count {key} ({other:?})", path.display()),
            };
            assert_eq!(ours, value.as_u64().unwrap(), "{}: {key}", path.display());
            compared += 1;
        }
    }
    assert!(compared >= 9 * 28, "{compared} counts compared");
}
