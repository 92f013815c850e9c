//! Every real DTX of the shared corpus (every `.dtx` under it, not only the listed ones):
//! parsed, written back byte for byte, every mip decoded, and the corpus checks of `src/verify/`
//! passed, mip 0 re-encoded the way the file stores it without a channel changing.

// Test code: a failed unwrap or index is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use relic_testkit::{corpus_dir, files_with_extension};

#[test]
fn every_corpus_dtx_passes_the_checks() {
    let Some(dir) = corpus_dir("every_corpus_dtx_passes_the_checks") else { return };
    let files = files_with_extension(&dir, "dtx");
    assert!(files.len() >= 13, "{} DTXs under {}", files.len(), dir.display());
    for (rel, bytes) in &files {
        assert!(relic_dtx::detect(bytes).is_some(), "{rel}: not detected");
        let input = relic_core::format::Input::bytes_only(bytes);
        let checks = relic_dtx::verify::corpus_checks(&input);
        let line: Vec<String> = checks.0.iter().map(ToString::to_string).collect();
        println!("{rel}: {}", line.join("; "));
        assert!(checks.passed() && !checks.refused(), "{rel}: {line:?}");
        assert!(line.iter().any(|c| c.starts_with("round-trip")), "{rel}: {line:?}");
    }
}
