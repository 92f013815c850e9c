//! Every real DTX of the shared corpus: parsed, written back byte for byte, every mip decoded,
//! and the corpus checks of `src/verify/` passed.

// Test code: a failed unwrap or index is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use relic_testkit::corpus_dir;

mod common;
use common::CORPUS_DTXS;

#[test]
fn every_corpus_dtx_passes_the_checks() {
    let Some(dir) = corpus_dir("every_corpus_dtx_passes_the_checks") else { return };
    for rel in CORPUS_DTXS {
        let bytes = std::fs::read(dir.join(rel)).unwrap();
        assert!(relic_dtx::detect(&bytes).is_some(), "{rel}: not detected");
        let input = relic_core::format::Input::bytes_only(&bytes);
        let checks = relic_dtx::verify::corpus_checks(&input);
        let line: Vec<String> = checks.0.iter().map(ToString::to_string).collect();
        println!("{rel}: {}", line.join("; "));
        assert!(checks.passed(), "{rel}: {line:?}");
        assert_eq!(checks.0.len(), 4, "{rel}: {line:?}");
    }
}
