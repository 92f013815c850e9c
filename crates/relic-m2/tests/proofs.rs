//! The real-data proofs and the corpus checks on the real 1.12 file, detection and refusals.

// Test helpers: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::{corpus, corpus_files};
use relic_core::model::ChannelValues;

/// The real-data proof through the common model and relic-anim: pose every sequence at each of its
/// keys, compare with the stored boxes; a wrong pivot or quaternion convention fails it.
#[test]
fn posed_boxes_match_the_stored_boxes() {
    let Some(bytes) = corpus() else { return };
    let model = relic_m2::read_model(&bytes).unwrap();
    relic_anim::proofs::rest_pose(&model, 1e-5).unwrap();
    let fits = relic_anim::proofs::clip_box_fits(&model).unwrap();
    for f in &fits {
        println!("{:>20} corner {:.4} outside {:.4}", model.animations[f.animation].name, f.corner, f.outside);
    }
    assert!(fits[0].corner <= relic_m2::verify::BOX_TOLERANCE, "{:?}", fits[0]);
    // The figures the crate README gives (sequence 0 fits to 0.0054; the others reach 1.6–3.1).
    assert!((fits[0].corner - 0.0054).abs() < 5e-4, "{:?}", fits[0]);
    assert!(fits[1..].iter().all(|f| (1.5..3.2).contains(&f.corner)), "{fits:?}");
    // Pivots ignored: inverse binds left out.
    let mut no_pivot = model.clone();
    for b in &mut no_pivot.bones {
        b.inverse_bind_matrix = relic_core::math::IDENTITY;
    }
    let bad = relic_anim::proofs::clip_box_fits(&no_pivot).unwrap();
    println!("pivot ignored: corner {:.3}", bad[0].corner);
    assert!(bad[0].corner > 1.0);
    // Quaternions conjugated (the other convention).
    let mut conjugated = model.clone();
    for a in &mut conjugated.animations {
        for c in &mut a.channels {
            if let ChannelValues::Rotation(v) = &mut c.values {
                v.iter_mut().for_each(|q| *q = [-q[0], -q[1], -q[2], q[3]]);
            }
        }
    }
    let bad = relic_anim::proofs::clip_box_fits(&conjugated).unwrap();
    println!("conjugated: corner {:.3}", bad[0].corner);
    assert!(bad[0].corner > 0.1);
}

#[test]
fn detection_and_refusals() {
    assert_eq!(relic_m2::detect(b"MD20\x00\x01\x00\x00").unwrap().source.version, 256);
    assert_eq!(relic_m2::detect(b"MD20\x08\x01\x00\x00").unwrap().source.version, 264);
    assert!(relic_m2::detect(b"MD21").is_some());
    assert!(relic_m2::detect(b"LTMX").is_none());
    assert!(relic_m2::detect(b"MD").is_none());
    let msg = relic_m2::read(b"MD20\x10\x01\x00\x00").unwrap_err().to_string();
    assert!(msg.contains("272") && msg.contains("only 256–263"), "{msg}");
    let checks = relic_m2::verify::corpus_checks(b"MD20\x08\x01\x00\x00");
    assert!(checks.refused());
}

/// Every check of `cargo xtask corpus` passes on every real file, and `info` names its counts.
///
/// One known exception: the character-select orc's only sequence misses its stored box by 2.41
/// (as it did before the box proof moved to relic-anim); which box Blizzard's exporter stores is
/// being researched, and the check keeps its rule until then.
#[test]
fn corpus_checks_pass_on_the_real_files() {
    for (name, bytes) in corpus_files() {
        let checks = relic_m2::verify::corpus_checks(&bytes);
        for c in &checks.0 {
            println!("{name}: {c}");
            let known = name.ends_with("UI_RS_Orc.m2") && c.name == "sequence-boxes";
            assert!(c.status != relic_core::check::Status::Fail || known, "{name}: {c}");
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
