//! ABC v12 ↔ LTB (the same concepts, ltb.md §0): every NOLF model written as LTB and every LTB
//! written as ABC v12 reads back with the common model's counts equal, or the conversion reports
//! the reduction.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use relic_core::model::Model;
use relic_core::{Loss, WriteOptions};

/// `(what, count)` for the counts the two formats share.
fn counts(m: &Model) -> Vec<(&'static str, usize)> {
    vec![
        ("bones", m.bones.len()),
        ("meshes", m.meshes.len()),
        ("triangles", m.triangle_count()),
        ("animations", m.animations.len()),
        // Lengths, not key counts: relic-abc reduces keys on a frame grid it takes for a tool's
        // bake (CrossFire keys on 30-fps frames) within its tolerance.
        ("animation milliseconds", m.animations.iter().map(|a| (a.duration * 1000.0).round() as usize).sum()),
        ("events", m.animations.iter().map(|a| a.events.len()).sum()),
        ("attachments", m.attachments.len()),
    ]
}

/// Every count equal, or a loss that names it.
fn compare(name: &str, a: &Model, b: &Model, losses: &[Loss]) -> usize {
    let text: Vec<String> = losses.iter().map(|l| l.to_string().to_lowercase()).collect();
    let mut differing = 0;
    for ((what, x), (_, y)) in counts(a).into_iter().zip(counts(b)) {
        if x != y {
            let word = what.trim_end_matches('s');
            let said = text.iter().any(|t| t.contains(word) || (what.starts_with("animation") && t.contains("key")));
            assert!(said, "{name}: {what} {x} → {y} and no loss says so: {losses:?}");
            differing += 1;
        }
    }
    differing
}

#[test]
fn nolf_models_become_ltb() {
    let Some(dir) = relic_testkit::corpus_dir("nolf_models_become_ltb") else { return };
    let mut converted = 0;
    for (name, bytes) in relic_testkit::files_in(&dir.join("abc")) {
        if relic_abc::detect(&bytes).map(|d| d.source.version) != Some(12) {
            continue;
        }
        let model = relic_abc::read_model(&bytes).unwrap();
        let out = relic_ltb::write_model(&model, &WriteOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let back = relic_ltb::read_model(&out.value).unwrap_or_else(|e| panic!("{name}: the LTB does not read: {e}"));
        let differing = compare(&name, &model, &back, &out.losses);
        println!(
            "{name}: {} → {} bytes, {differing} counts differ (reported), {} losses",
            bytes.len(),
            out.value.len(),
            out.losses.len()
        );
        converted += 1;
    }
    assert!(converted >= 5, "{converted} NOLF models");
}

#[test]
fn ltb_models_become_abc_v12() {
    let Some(dir) = relic_testkit::corpus_dir("ltb_models_become_abc_v12") else { return };
    for (name, bytes) in relic_testkit::files_in(&dir.join("ltb")) {
        let model = relic_ltb::read_model(&bytes).unwrap();
        let out = relic_abc::write_model(&model, &WriteOptions { version: Some(12) })
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let back = relic_abc::read_model(&out.value).unwrap_or_else(|e| panic!("{name}: the ABC does not read: {e}"));
        let differing = compare(&name, &model, &back, &out.losses);
        println!(
            "{name}: {} → {} bytes, {differing} counts differ (reported), {} losses",
            bytes.len(),
            out.value.len(),
            out.losses.len()
        );
        // And back into LTB: a valid file again.
        let again = relic_ltb::write_model(&back, &WriteOptions::default()).unwrap();
        relic_ltb::read(&again.value).unwrap_or_else(|e| panic!("{name}: ABC → LTB does not read: {e}"));
    }
}
