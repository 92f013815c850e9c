//! Issue 17 class 1: the v9–v13 animation marker. Either −1 (then `InterpolationTime` from v12,
//! then `KeyframeCount`) or the keyframe count itself (then neither follows), per animation and
//! for every version; anything else is refused naming the marker, its offset and its value.

// Test helpers may fail loudly: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use relic_abc::file::{KeyCountForm, V12File};
use relic_abc::{AbcFile, read, read_model, write, write_model};
use relic_core::WriteOptions;

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(common::fixtures_dir().join(name)).unwrap()
}

fn v12(bytes: &[u8]) -> V12File {
    match read(bytes).unwrap() {
        AbcFile::V12(f) => f,
        AbcFile::V6(_) => panic!("expected v9–v13"),
    }
}

/// Offset of the marker of the animation named `name` (the first such name after the
/// `Animation` section header).
fn marker_at(bytes: &[u8], name: &str) -> usize {
    let find =
        |needle: &[u8], from: usize| bytes[from..].windows(needle.len()).position(|w| w == needle).unwrap() + from;
    let section = find(b"\x09\x00Animation", 0);
    let mut stored = (name.len() as u16).to_le_bytes().to_vec();
    stored.extend_from_slice(name.as_bytes());
    find(&stored, section + 15) + stored.len()
}

/// (fixture, version, form of each animation).
const FIXTURES: [(&str, u32, [KeyCountForm; 2]); 7] = {
    use KeyCountForm::{AfterMarker as M1, InMarker as Count};
    [
        ("v9.abc", 9, [M1, M1]),
        ("v9_marker_count.abc", 9, [Count, Count]),
        ("v10_marker_count.abc", 10, [Count, Count]),
        ("v11.abc", 11, [M1, M1]),
        ("v11_marker_count.abc", 11, [M1, Count]),
        ("v12_marker.abc", 12, [M1, Count]),
        ("v13_marker_count.abc", 13, [Count, Count]),
    ]
};

#[test]
fn both_forms_read_for_every_version_and_write_back() {
    for (name, version, forms) in FIXTURES {
        let bytes = fixture(name);
        let file = v12(&bytes);
        assert_eq!(file.header.version, version, "{name}");
        let anims = &file.animations.as_ref().unwrap().animations;
        assert_eq!(anims.iter().map(|a| a.key_count_form).collect::<Vec<_>>(), forms, "{name}");
        assert_eq!(anims.iter().map(|a| a.keyframes.len()).collect::<Vec<_>>(), [1, 3], "{name}");
        for a in anims {
            let expected = match a.key_count_form {
                KeyCountForm::AfterMarker => -1,
                KeyCountForm::InMarker => a.keyframes.len() as i32,
            };
            assert_eq!(a.marker(), expected, "{name}");
            let stored = i32::from_le_bytes(bytes[marker_at(&bytes, &a.name.to_text())..][..4].try_into().unwrap());
            assert_eq!(stored, expected, "{name}: the marker as stored");
            let blend = a.key_count_form == KeyCountForm::AfterMarker && version >= 12;
            assert_eq!(a.interpolation_time.is_some(), blend, "{name}: InterpolationTime only with −1 from v12");
        }
        assert_eq!(write(&AbcFile::V12(file)).unwrap(), bytes, "{name}: byte-identical rewrite");
    }
}

/// ABC → model → ABC keeps each animation's form: the same bytes, nothing reported lost; the
/// count form's blend-in is the engine's default.
#[test]
fn the_form_survives_the_model() {
    for (name, _, _) in FIXTURES {
        let bytes = fixture(name);
        let model = read_model(&bytes).unwrap();
        let out = write_model(&model, &WriteOptions::default()).unwrap();
        assert!(out.losses.is_empty(), "{name}: {:?}", out.losses);
        assert!(out.value == bytes, "{name}: not byte-identical");
        assert_eq!(read(&out.value).unwrap(), read(&bytes).unwrap(), "{name}");
        let file = v12(&bytes);
        for (a, m) in file.animations.unwrap().animations.iter().zip(&model.animations) {
            let blend = a.interpolation_time.unwrap_or(200) as f32 / 1000.0;
            assert!((m.blend_in - blend).abs() < 1e-6, "{name}: {}", m.blend_in);
        }
    }
}

/// A blend-in the count form cannot hold: from v12 the animation is written with −1 and its
/// InterpolationTime; before v12 the time is reported lost and the form is kept.
#[test]
fn a_changed_blend_in_leaves_the_count_form_where_it_can_be_stored() {
    let mut model = read_model(&fixture("v12_marker.abc")).unwrap();
    model.animations[1].blend_in = 0.5;
    let out = write_model(&model, &WriteOptions::default()).unwrap();
    assert!(out.losses.is_empty(), "{:?}", out.losses);
    let walk = &v12(&out.value).animations.unwrap().animations[1];
    assert_eq!((walk.key_count_form, walk.interpolation_time), (KeyCountForm::AfterMarker, Some(500)));

    let mut model = read_model(&fixture("v9_marker_count.abc")).unwrap();
    model.animations[1].blend_in = 0.5;
    let out = write_model(&model, &WriteOptions::default()).unwrap();
    assert!(out.losses.iter().any(|l| l.to_string().contains("blend-in time 500 ms")), "{:?}", out.losses);
    let walk = &v12(&out.value).animations.unwrap().animations[1];
    assert_eq!((walk.key_count_form, walk.interpolation_time), (KeyCountForm::InMarker, None));
}

/// Refusals name the marker, its offset and its value; they never guess.
#[test]
fn a_marker_that_is_neither_is_refused_naming_it() {
    for (name, value, says) in [
        ("hostile/marker_not_a_count.abc", 7, "neither −1 nor a keyframe count that fits"),
        ("hostile/marker_below_minus_one.abc", -2, "neither −1 nor a keyframe count"),
    ] {
        let bytes = fixture(name);
        let err = read(&bytes).unwrap_err();
        let text = err.to_string();
        assert_eq!(err.path, "Animation.animations[1].marker", "{name}: {text}");
        assert_eq!(err.offset, marker_at(&bytes, "walk") as u64, "{name}: {text}");
        assert!(text.contains(&format!("marker {value} ")) && text.contains(says), "{name}: {text}");
    }
}

/// A count that does not fit the bytes left, and one that leaves bytes before the next
/// section: both are errors at the marker, with what did not fit.
#[test]
fn a_count_that_does_not_fit_is_refused_at_the_marker() {
    let good = fixture("v9_marker_count.abc");
    let at = marker_at(&good, "walk");
    for (count, says) in
        [(100_000i32, "count 100000 of 6-byte records"), (2, "bytes are left after the last animation")]
    {
        let mut bytes = good.clone();
        bytes[at..at + 4].copy_from_slice(&count.to_le_bytes());
        let err = read(&bytes).unwrap_err();
        let text = err.to_string();
        assert_eq!((err.path.as_str(), err.offset), ("Animation.animations[1].marker", at as u64), "{text}");
        assert!(text.contains(&format!("marker {count} is neither −1 nor a keyframe count that fits")), "{text}");
        assert!(text.contains(says), "{text}");
    }
}

/// A struct whose count form cannot be written (more keys than an i32 holds cannot be built in
/// a test, but the rule that the interpolation time goes with the −1 form can).
#[test]
fn the_writer_checks_the_form_against_the_fields() {
    let mut file = v12(&fixture("v12_marker.abc"));
    file.animations.as_mut().unwrap().animations[1].interpolation_time = Some(300);
    let err = write(&AbcFile::V12(file)).unwrap_err().to_string();
    assert!(err.contains("interpolation_time must be present exactly from version 12 with marker −1"), "{err}");
}
