//! Incomplete models (issue 27 class 7): a Wrath-or-later model whose `.anim` files or first
//! `.skin` are not beside it is refused with the typed `ReadErrorKind::Incomplete` naming every
//! missing file (not a damaged file), while `relic info` still describes what there is.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use relic_core::ReadErrorKind;
use relic_core::format::Input;
use relic_m2::wrath::{self, SiblingBytes};

/// What the Wrath fixtures hold, as their builder states it.
#[path = "../../../xtask/src/fixtures/m2_wrath/stated.rs"]
mod stated;

/// `fixtures/m2-wrath/v264_external*` (Stand's keys in `v264_external0000-00.anim`), with the
/// files beside it except those named in `without`.
fn external(without: &[&str]) -> (Vec<u8>, SiblingBytes) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/m2-wrath");
    let files = relic_testkit::files_in(&dir);
    let m2 = files.iter().find(|(n, _)| n == "v264_external.m2").expect("run `cargo xtask fixtures`").1.clone();
    let siblings = files.into_iter().filter(|(n, _)| !without.contains(&n.as_str())).collect();
    (m2, SiblingBytes(siblings))
}

fn input<'a>(m2: &'a [u8], siblings: &'a SiblingBytes) -> Input<'a> {
    Input { bytes: m2, name: "v264_external.m2", siblings }
}

#[test]
fn missing_anim_and_skin_files_are_all_named_in_a_typed_error() {
    let (m2, siblings) = external(&["v264_external0000-00.anim", "v264_external00.skin"]);
    let e = wrath::read(&input(&m2, &siblings)).unwrap_err();
    let ReadErrorKind::Incomplete { missing, .. } = &e.kind else { panic!("not typed as incomplete: {e}") };
    assert_eq!(missing, &["v264_external0000-00.anim", "v264_external00.skin"]);
    // The common model and the corpus checks say the same: incomplete, not failed.
    let e = relic_m2::read_input(&input(&m2, &siblings)).unwrap_err();
    assert!(matches!(e.kind, ReadErrorKind::Incomplete { .. }), "{e}");
    let checks = relic_m2::verify::corpus_checks_input(&input(&m2, &siblings));
    assert!(checks.incomplete() && checks.passed(), "{checks:?}");
}

#[test]
fn info_describes_an_incomplete_model_with_a_note_per_missing_file() {
    let (m2, siblings) = external(&["v264_external0000-00.anim"]);
    let info = format!("{:?}", relic_m2::info_input(&input(&m2, &siblings)).unwrap().facts);
    assert!(info.contains("v264_external0000-00.anim") && info.contains("not found"), "{info}");
    // The partial read keeps every bound: the other sequences' keys and the skins are read.
    let w = wrath::read_partial(&input(&m2, &siblings)).unwrap();
    assert_eq!(w.skins.len(), stated::V264_EXTERNAL.skins);
    // Walk (sequence 0) keeps its keys in the .m2; Stand's are in the missing .anim.
    let rotation = &w.file.bones[1].rotation;
    assert_eq!(rotation.values[0].items, stated::keys(stated::BONE1_ROTATION, stated::WALK.id).1);
    assert!(rotation.values[1].is_empty() && rotation.timestamps[1].is_empty());
    assert_eq!(w.notes.len(), 1, "{:?}", w.notes);
    let (m2, siblings) = external(&["v264_external00.skin"]);
    let info = format!("{:?}", relic_m2::info_input(&input(&m2, &siblings)).unwrap().facts);
    assert!(info.contains("v264_external00.skin"), "{info}");
}

/// A `.anim` that is there but empty is a damaged file, not a missing one (the reader uses an
/// empty buffer internally for "not loaded": it must never stand for real bytes).
#[test]
fn an_empty_anim_file_is_refused_by_name() {
    let (m2, mut siblings) = external(&[]);
    for (n, b) in &mut siblings.0 {
        if n == "v264_external0000-00.anim" {
            b.clear();
        }
    }
    let e = wrath::read(&input(&m2, &siblings)).unwrap_err();
    assert!(matches!(e.kind, ReadErrorKind::Invalid(_)) && e.to_string().contains("empty"), "{e}");
}
