//! The real-data proofs and the corpus checks on the real 1.12 file, detection and refusals.

// Test helpers: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::{corpus, corpus_files};
use relic_core::model::ChannelValues;

/// The real-data proof through the common model and relic-anim: every sequence box of Blizzard's
/// files is what the exporter's rule says (the posed mesh every 100 ms; not stored; or a mesh box
/// plus effects), and wrong bone math contradicts it.
#[test]
fn stated_boxes_follow_the_exporters_rule_and_wrong_math_contradicts_them() {
    use relic_anim::stated_boxes::{StatedBox, judge};
    let Some(bytes) = corpus() else { return };
    let model = relic_m2::read_model(&bytes).unwrap();
    relic_anim::proofs::rest_pose(&model, 1e-5).unwrap();
    let verdicts: Vec<StatedBox> = (0..model.animations.len())
        .map(|i| judge(&model, i, model.animations[i].bounds.unwrap()).unwrap().unwrap())
        .collect();
    // GnomePounder: sequence 0 is the posed mesh's box; 1–10 add a particle emitter's reach.
    let StatedBox::Fits(first) = verdicts[0] else { panic!("{:?}", verdicts[0]) };
    println!("sequence 0: {first:?}");
    assert!(first.overreach <= first.overreach_tolerance() && first.underreach < 0.005, "{first:?}");
    assert!(verdicts[1..].iter().all(|v| matches!(v, StatedBox::NotAMeshBox(_))), "{verdicts:?}");
    // Pivots ignored (inverse binds left out) and quaternions conjugated both contradict box 0.
    let mut no_pivot = model.clone();
    for b in &mut no_pivot.bones {
        b.inverse_bind_matrix = relic_core::math::IDENTITY;
    }
    let bad = judge(&no_pivot, 0, model.animations[0].bounds.unwrap()).unwrap().unwrap();
    assert!(matches!(bad, StatedBox::Contradicts(_)), "pivots ignored: {bad:?}");
    let mut conjugated = model.clone();
    for a in &mut conjugated.animations {
        for c in &mut a.channels {
            if let ChannelValues::Rotation(v) = &mut c.values {
                v.iter_mut().for_each(|q| *q = [-q[0], -q[1], -q[2], q[3]]);
            }
        }
    }
    let bad = judge(&conjugated, 0, model.animations[0].bounds.unwrap()).unwrap().unwrap();
    assert!(matches!(bad, StatedBox::Contradicts(_)), "conjugated: {bad:?}");
}

#[test]
fn detection_and_refusals() {
    assert_eq!(relic_m2::detect(b"MD20\x00\x01\x00\x00").unwrap().source.version, 256);
    assert_eq!(relic_m2::detect(b"MD20\x08\x01\x00\x00").unwrap().source.version, 264);
    assert!(relic_m2::detect(b"MD21").is_some());
    assert!(relic_m2::detect(b"LTMX").is_none());
    assert!(relic_m2::detect(b"MD").is_none());
    // 264 and 272 are read with the files beside them, not from bare bytes.
    let msg = relic_m2::read(b"MD20\x10\x01\x00\x00").unwrap_err().to_string();
    assert!(msg.contains("272") && msg.contains(".skin"), "{msg}");
    let msg = relic_m2::read(b"MD20\x0c\x01\x00\x00").unwrap_err().to_string();
    assert!(msg.contains("268") && msg.contains("unknown"), "{msg}");
    let input = relic_core::format::Input::bytes_only(b"MD21\x00\x00\x00\x00MD20\x10\x01\x00\x00");
    let msg = relic_m2::read_input(&input).unwrap_err().to_string();
    assert!(msg.contains("named file"), "{msg}");
    // Chunked files are read with their skins (`md21`); an inner version without a documented
    // layout is refused by name.
    let msg = relic_m2::read(b"MD21\x00\x00\x00\x00MD20\x10\x01\x00\x00").unwrap_err().to_string();
    assert!(msg.contains("chunked") && msg.contains(".skin"), "{msg}");
    let input = relic_core::format::Input::bytes_only(b"MD21\x00\x00\x00\x00MD20\x11\x01\x00\x00");
    let msg = relic_m2::read_input(&input).unwrap_err().to_string();
    assert!(msg.contains("273") && msg.contains("disputed"), "{msg}");
    let input = relic_core::format::Input::bytes_only(b"MD20\x08\x01\x00\x00");
    let msg = relic_m2::read_input(&input).unwrap_err().to_string();
    assert!(msg.contains("named file"), "{msg}");
    let checks = relic_m2::verify::corpus_checks(b"MD20\x08\x01\x00\x00");
    assert!(checks.refused());
}

/// Every check of `cargo xtask corpus` passes on every real file, and `info` names its counts
/// (the character-select orc stores no sequence box: its header's box is judged instead).
#[test]
fn corpus_checks_pass_on_the_real_files() {
    for (name, bytes) in corpus_files() {
        if relic_testkit::known_failure("corpus checks", &name).is_some() {
            continue;
        }
        let checks = relic_m2::verify::corpus_checks(&bytes);
        for c in &checks.0 {
            println!("{name}: {c}");
            assert!(c.status != relic_core::check::Status::Fail, "{name}: {c}");
        }
        assert!(!checks.refused(), "{name}");
        assert_eq!(checks.0.len(), 7, "{name}");
        let info = relic_m2::info(&bytes).unwrap();
        for key in [
            "bones",
            "vertices",
            "views",
            "submeshes",
            "textures",
            "sequences",
            "global_sequences",
            "attachments",
            "particles",
            "ribbons",
        ] {
            assert!(info.get(key).is_some(), "{key}");
        }
    }
}
