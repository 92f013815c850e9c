//! The game file's counts travel through glTF and the file written back is compared with them:
//! with relic's extras nothing is lost; without them (Blender's default export) every kind of
//! data that could not come back is a note with the counts, never a silent loss.

// Test helpers: a failure must stop the test loudly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use std::path::Path;

use relic::{ConvertOptions, Target};

mod common;

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/m2/v256_effects.m2");

fn round_trip(test: &str, strip: bool) -> (relic::Model, Vec<relic::Loss>) {
    let (model, losses, _) = round_trip_file(FIXTURE, "m2", test, strip);
    (model, losses)
}

/// `fixture` → glb (stripped of its extras when `strip`) → the format `ext` without `--version`:
/// the model read from the glb, the conversion's notes and the file written.
fn round_trip_file(fixture: &str, ext: &str, test: &str, strip: bool) -> (relic::Model, Vec<relic::Loss>, Vec<u8>) {
    // A folder per test and case: the tests run in parallel.
    let dir = std::env::temp_dir().join(format!("relic-original-{}-{test}-{strip}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let opened = relic::open(Path::new(fixture)).unwrap();
    let glb_path = dir.join("model.glb");
    let glb = relic::convert(&opened.model, Target::from_name("glb").unwrap(), &glb_path, &ConvertOptions::default())
        .unwrap();
    let mut bytes = glb.value[0].1.clone();
    if strip {
        bytes = common::strip_extras(&bytes);
    }
    std::fs::write(&glb_path, &bytes).unwrap();
    let back = relic::open(&glb_path).unwrap();
    let target = Target::from_name(ext).unwrap();
    let mut written =
        relic::convert(&back.model, target, &dir.join(format!("model.{ext}")), &ConvertOptions::default()).unwrap();
    std::fs::remove_dir_all(&dir).ok();
    (back.model, written.losses, written.value.swap_remove(0).1)
}

#[test]
fn the_original_counts_survive_glb_with_and_without_extras() {
    for strip in [false, true] {
        let (model, _) = round_trip("counts", strip);
        let original = model.original.expect("the record of the game file");
        assert_eq!((original.format.as_str(), original.version), ("m2", 256), "stripped: {strip}");
        assert_eq!(original.count("particles"), 1, "stripped: {strip}");
        assert_eq!(original.count("cameras"), 1, "stripped: {strip}");
        assert!(original.count(relic::original::FILE_BYTES) > 0, "stripped: {strip}");
    }
}

#[test]
fn with_extras_nothing_is_lost_and_without_them_each_lost_kind_is_named_with_counts() {
    let (_, losses) = round_trip("losses", false);
    let compared: Vec<_> = losses.iter().filter(|l| l.what.contains("in the original")).collect();
    assert!(compared.is_empty(), "{compared:?}");

    let (_, losses) = round_trip("losses", true);
    let lost: Vec<String> =
        losses.iter().filter(|l| l.what.contains("in the original")).map(ToString::to_string).collect();
    for kind in ["lights: 1", "cameras: 1", "events: 1"] {
        assert!(lost.iter().any(|l| l.starts_with(kind)), "no note {kind:?} in {lost:#?}");
    }
    // The emitters travel on their own nodes, in the `RELIC_…_emitter` extensions an editor
    // that drops extras may keep (tests/emitters.rs takes the extensions away too).
    for kind in ["particles", "ribbons"] {
        assert!(!lost.iter().any(|l| l.starts_with(kind)), "{kind} lost: {lost:#?}");
    }
}

/// Without `--version` the file goes back into the original's version (a v6 ABC is not turned
/// into v12 by an editor's round trip), and each lost kind is one note: the count compared with
/// the original joined with the writer's reason.
#[test]
fn without_extras_the_original_version_is_written_and_each_kind_is_said_once() {
    let v6 = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/abc/v6_basic.abc");
    for strip in [false, true] {
        let (_, losses, written) = round_trip_file(v6, "abc", "v6", strip);
        let (_, detected) = relic::detect_format(&written).unwrap();
        assert_eq!(detected.source.version, 6, "stripped: {strip}");
        let mut kinds: Vec<&str> = losses.iter().map(|l| l.element.as_str()).collect();
        kinds.sort_unstable();
        let before = kinds.len();
        kinds.dedup();
        assert_eq!(kinds.len(), before, "a kind named twice (stripped: {strip}): {losses:#?}");
    }
    let (_, losses, _) =
        round_trip_file(concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/abc/v12_full.abc"), "abc", "v12", true);
    let sets = losses.iter().find(|l| l.element == "weight sets").expect("a note on weight sets");
    assert!(
        sets.what.contains("in the original, 0 written") && sets.what.contains("Custom Properties"),
        "the count and the reason in one note: {sets}"
    );
}

/// A Wrath model through a glb without extras comes back as a Wrath model with as many `.skin`
/// files as it had, and the playable lookup relic builds for the model is not reported lost
/// (Wrath has none; it held nothing the sequences do not say).
#[test]
fn without_extras_a_wrath_model_keeps_its_skin_count() {
    let wrath = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/m2-wrath/v264_skins.m2");
    let (model, losses, written) = round_trip_file(wrath, "m2", "wrath", true);
    let (_, detected) = relic::detect_format(&written).unwrap();
    assert_eq!(detected.source.version, 264);
    assert_eq!(model.original.as_ref().unwrap().count("skin_profiles"), 3);
    let text: Vec<String> = losses.iter().map(ToString::to_string).collect();
    assert!(!text.iter().any(|l| l.contains("skin profiles")), "{text:#?}");
    assert!(!text.iter().any(|l| l.starts_with("playable animation lookup")), "{text:#?}");
}
