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

/// One case through Wrath: the generated file's model written as 264 (and 272) with its `.skin`
/// files, read back from them, written back byte for byte (file layer and through the model),
/// then written in the generated file's version again with the same meshes and bones, every
/// count equal and every channel there.
fn check_wrath(seed: u64, version: u32) -> Result<(), String> {
    use relic_core::format::Input;
    use relic_m2::wrath::{self, SiblingBytes};
    let g = generator::file(seed);
    let fail = |what: String| format!("seed {seed} → {version} ({}): {what}", g.what);
    let model = relic_m2::read_model(&g.bytes).map_err(|e| fail(format!("read_model: {e}")))?;
    let out = relic_m2::write_files(&model, &WriteOptions { version: Some(version) })
        .map_err(|e| fail(format!("write_files: {e}")))?;
    let siblings =
        SiblingBytes(out.value.siblings.iter().map(|s| (format!("G{}", s.suffix), s.bytes.clone())).collect());
    let input = Input { bytes: &out.value.bytes, name: "G.m2", siblings: &siblings };
    let w = wrath::read(&input).map_err(|e| fail(format!("the Wrath file does not read: {e}")))?;
    let (bytes, files) = wrath::write(&w).map_err(|e| fail(format!("wrath::write: {e}")))?;
    let same_files = |bytes: &[u8], files: &[relic_core::format::SiblingFile]| {
        bytes == out.value.bytes.as_slice()
            && files.len() == out.value.siblings.len()
            && files.iter().zip(&out.value.siblings).all(|(a, b)| a == b)
    };
    if !same_files(&bytes, &files) {
        return Err(fail("the Wrath files are not written back byte for byte".into()));
    }
    let wmodel = relic_m2::read_input(&input).map_err(|e| fail(format!("read_input: {e}")))?.value;
    let again = relic_m2::write_files(&wmodel, &WriteOptions::default()).map_err(|e| fail(format!("{e}")))?;
    if !same_files(&again.value.bytes, &again.value.siblings) {
        return Err(fail("Wrath → model → Wrath is not byte-identical".into()));
    }
    let source = relic_m2::read(&g.bytes).map_err(|e| fail(e.to_string()))?.version;
    let back =
        relic_m2::write_model(&wmodel, &WriteOptions { version: Some(source) }).map_err(|e| fail(format!("{e}")))?;
    let counts = |b: &[u8]| relic_m2::info(b).map(|i| format!("{:?}", i.facts)).unwrap_or_default();
    if counts(&back.value) != counts(&g.bytes) {
        return Err(fail(format!(
            "counts differ after → {version} → {source}: {} vs {}",
            counts(&back.value),
            counts(&g.bytes)
        )));
    }
    let classic = relic_m2::read_model(&back.value).map_err(|e| fail(format!("{e}")))?;
    if classic.meshes != model.meshes || classic.bones != model.bones {
        return Err(fail(format!("meshes or bones differ after → {version} → {source} ({:?})", back.losses)));
    }
    for (a, b) in classic.animations.iter().zip(&model.animations) {
        if let Some(c) = b.channels.iter().find(|c| !a.channels.iter().any(|d| (d.bone, d.clock) == (c.bone, c.clock)))
        {
            return Err(fail(format!("clip {:?}: bone {} lost its channel", b.name, c.bone)));
        }
    }
    Ok(())
}

#[test]
fn generated_files_round_trip_through_wrath() {
    let mut failures = Vec::new();
    // A sixth of the cases: each runs eight writes and reads.
    let cases = cases();
    let n = (cases.end - cases.start).div_ceil(6);
    for seed in cases.take(n as usize) {
        for version in [264, 272] {
            if let Err(e) = check_wrath(seed, version) {
                failures.push(e);
            }
        }
    }
    println!("{n} generated files through 264 and 272, {} failures", failures.len());
    assert!(
        failures.is_empty(),
        "{} of {n} failed; the first:\n{}",
        failures.len(),
        failures.iter().take(10).cloned().collect::<Vec<_>>().join("\n")
    );
}
