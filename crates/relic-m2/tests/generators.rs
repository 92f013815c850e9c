//! Random valid M2 files (see `generator`), laid out by an independent byte builder, through every
//! path: read → write → read byte for byte, and format → model → format with nothing lost.
//!
//! 1,200 cases in a normal `cargo test`; `RELIC_GENERATOR_CASES=N` runs N (a failure names its
//! seed: `RELIC_GENERATOR_SEED=S` runs that one alone).

// Test helpers: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod generator;

use relic_core::WriteOptions;

/// Cases in a normal run.
const CASES: u64 = 1200;

fn cases() -> std::ops::Range<u64> {
    if let Some(seed) = std::env::var("RELIC_GENERATOR_SEED").ok().and_then(|s| s.parse().ok()) {
        return seed..seed + 1;
    }
    let n = std::env::var("RELIC_GENERATOR_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(CASES);
    1..n + 1
}

/// One case: every property, with the seed and what was generated in any failure.
fn check(seed: u64) -> Result<(), String> {
    let g = generator::file(seed);
    let fail = |what: String| format!("seed {seed} ({}): {what}", g.what);
    let file = relic_m2::read(&g.bytes).map_err(|e| fail(format!("the generated file does not read: {e}")))?;
    let written = relic_m2::write(&file).map_err(|e| fail(format!("write: {e}")))?;
    if written != g.bytes {
        let at = written.iter().zip(&g.bytes).position(|(a, b)| a != b).unwrap_or(written.len().min(g.bytes.len()));
        return Err(fail(format!("re-write differs from byte {at:#x} ({} vs {} bytes)", written.len(), g.bytes.len())));
    }
    let model = relic_m2::read_model(&g.bytes).map_err(|e| fail(format!("read_model: {e}")))?;
    model.validate().map_err(|e| fail(format!("the model is invalid: {e}")))?;
    let out = relic_m2::write_model(&model, &WriteOptions::default()).map_err(|e| fail(format!("write_model: {e}")))?;
    if !out.losses.is_empty() {
        return Err(fail(format!("losses on an unchanged model: {:?}", out.losses)));
    }
    let again = relic_m2::read(&out.value).map_err(|e| fail(format!("the model's file does not read: {e}")))?;
    if again != file {
        return Err(fail("format → model → format re-parses differently".into()));
    }
    if out.value != g.bytes {
        return Err(fail("format → model → format is not byte-identical".into()));
    }
    // Without its extras the model still writes a file that reads back with the same meshes,
    // skeleton and clips.
    let mut bare = model.clone();
    bare.extras = None;
    let rebuilt = relic_m2::write_model(&bare, &WriteOptions::default()).map_err(|e| fail(format!("rebuild: {e}")))?;
    let back =
        relic_m2::read_model(&rebuilt.value).map_err(|e| fail(format!("the rebuilt file does not read: {e}")))?;
    if back.meshes != bare.meshes {
        return Err(fail(format!("meshes differ after a rebuild from the model ({:?})", rebuilt.losses)));
    }
    if back.bones != bare.bones || back.animations.len() != bare.animations.len() {
        return Err(fail(format!("bones or clips differ after a rebuild ({:?})", rebuilt.losses)));
    }
    // Every channel comes back with its keys (a rebuilt track may add a rest-pose channel to a
    // clip that had none: M2 tracks span every sequence), and every event.
    for (a, b) in back.animations.iter().zip(&bare.animations) {
        let lost = b
            .channels
            .iter()
            .find(|c| !a.channels.iter().any(|d| (d.bone, d.clock, d.times.len()) == (c.bone, c.clock, c.times.len())));
        if let Some(c) = lost {
            return Err(fail(format!(
                "clip {:?}: bone {} lost a channel of {} keys in a rebuild",
                b.name,
                c.bone,
                c.times.len()
            )));
        }
        // Events at the same moment may come back in another order (they have none).
        let sorted = |x: &relic_core::model::Animation| {
            let mut e: Vec<String> = x.events.iter().map(|e| format!("{:?}", (e.time.to_bits(), e))).collect();
            e.sort();
            e
        };
        if sorted(a) != sorted(b) {
            return Err(fail(format!("clip {:?}: events {:?} came back as {:?}", b.name, b.events, a.events)));
        }
    }
    Ok(())
}

#[test]
fn generated_files_round_trip() {
    let mut failures = Vec::new();
    let cases = cases();
    let n = cases.end - cases.start;
    for seed in cases {
        if let Err(e) = check(seed) {
            failures.push(e);
        }
    }
    println!("{n} generated files, {} failures", failures.len());
    assert!(
        failures.is_empty(),
        "{} of {n} failed; the first:\n{}",
        failures.len(),
        failures.iter().take(10).cloned().collect::<Vec<_>>().join("\n")
    );
}
