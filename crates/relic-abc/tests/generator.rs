//! Random valid ABC files (issue 17), built by this test's own byte builder (`build/`, from
//! abc.md, not relic-abc's writer): each must read, write back byte for byte, and go through the
//! common model and back to the same file with no loss reported. 1,200 cases by default (seeded,
//! the same every run); `RELIC_GENERATOR_CASES=N` runs N.

// Test helpers may fail loudly: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod build;

use relic_abc::{read, read_model, write, write_model};
use relic_core::WriteOptions;

/// What one generated file did wrong, or `None`.
fn trouble(bytes: &[u8]) -> Option<String> {
    let file = match read(bytes) {
        Ok(f) => f,
        Err(e) => return Some(format!("read: {e}")),
    };
    match write(&file) {
        Ok(out) if out == bytes => {}
        Ok(out) => {
            let at = out.iter().zip(bytes).position(|(a, b)| a != b).unwrap_or(out.len().min(bytes.len()));
            return Some(format!("rewrite: {} bytes for {}, first difference at {at:#x}", out.len(), bytes.len()));
        }
        Err(e) => return Some(format!("write: {e}")),
    }
    let model = match read_model(bytes) {
        Ok(m) => m,
        Err(e) => return Some(format!("read_model: {e}")),
    };
    if let Err(e) = model.validate() {
        return Some(format!("model invalid: {e}"));
    }
    let out = match write_model(&model, &WriteOptions::default()) {
        Ok(o) => o,
        Err(e) => return Some(format!("write_model: {e}")),
    };
    let back = match read(&out.value) {
        Ok(b) => b,
        Err(e) => return Some(format!("re-read: {e}")),
    };
    let losses: Vec<String> = out.losses.iter().map(ToString::to_string).collect();
    if back != file {
        return Some(format!("the model round trip re-reads different ({} losses: {losses:?})", losses.len()));
    }
    if !losses.is_empty() {
        return Some(format!("nothing changed, yet losses: {losses:?}"));
    }
    if out.value != bytes {
        return Some("the model round trip re-reads equal but not byte-identical".into());
    }
    None
}

#[test]
fn random_valid_files_survive_every_round_trip() {
    let cases: u64 = std::env::var("RELIC_GENERATOR_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(1200);
    let mut failures = Vec::new();
    let (mut v6, mut v12) = (0, 0);
    for seed in 1..=cases {
        let mut g = build::Gen::new(seed);
        let (bytes, what) = if seed % 3 == 0 {
            v6 += 1;
            build::v6::file(&mut g)
        } else {
            v12 += 1;
            build::v12::file(&mut g)
        };
        if let Some(why) = trouble(&bytes) {
            failures.push(format!("seed {seed} ({what}): {why}"));
        }
    }
    println!("{cases} generated files ({v6} v6, {v12} v9–v13), {} failed", failures.len());
    assert!(
        failures.is_empty(),
        "{} of {cases} failed:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}
