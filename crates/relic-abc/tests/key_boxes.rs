//! Issue 17 class 2: v6 keyframe boxes that do not bound their own key's pose. The stored boxes
//! are game data: the model carries them (`Animation::key_bounds`) and ABC → model → ABC gives
//! them back as stored; they are recomputed only when the mesh or the animation changed. The
//! key-box proof skips, and counts, exactly the boxes that state nothing (all zero, or never
//! filled: JUGGERNAUT, issue 27 class 4) and the boxes stored from a
//! neighbouring key's pose; any other mismatch fails.

// Test helpers may fail loudly: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use relic_abc::file::V6File;
use relic_abc::{AbcFile, read, read_model, write, write_model};
use relic_core::WriteOptions;
use relic_core::check::Status;
use relic_core::model::{ChannelValues, Model};

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(common::fixtures_dir().join(name)).unwrap()
}

fn v6(bytes: &[u8]) -> V6File {
    match read(bytes).unwrap() {
        AbcFile::V6(f) => f,
        AbcFile::V12(_) => panic!("expected v6"),
    }
}

fn key_box_check(bytes: &[u8]) -> (Status, String) {
    common::check(bytes, "v6-key-boxes")
}

fn write_lossless(model: &Model) -> Vec<u8> {
    let out = write_model(model, &WriteOptions::default()).unwrap();
    assert!(out.losses.is_empty(), "{:?}", out.losses);
    out.value
}

/// The proof skips and counts the empty box and the neighbour's box; the relic-anim proof on the
/// model says the same (one rule).
#[test]
fn the_proof_skips_exactly_the_two_kinds_and_counts_them() {
    for (name, detail) in [
        ("v6_basic.abc", "5 key boxes, 0 empty skipped, 0 stored from a neighbouring pose skipped"),
        ("v6_empty_key_box.abc", "4 key boxes, 1 empty skipped, 0 stored from a neighbouring pose skipped"),
        // Issue 27 class 4: JUGGERNAUT's box of "Fire" at 733 ms is not all zero but never filled.
        ("v6_unset_key_box.abc", "4 key boxes, 1 empty skipped, 0 stored from a neighbouring pose skipped"),
        ("v6_neighbour_key_box.abc", "4 key boxes, 0 empty skipped, 1 stored from a neighbouring pose skipped"),
    ] {
        let bytes = fixture(name);
        let (status, text) = key_box_check(&bytes);
        assert_eq!(status, Status::Pass, "{name}: {text}");
        assert!(text.starts_with(detail), "{name}: {text}");
        let model = read_model(&bytes).unwrap();
        let boxes = relic_anim::proofs::stored_key_boxes(&model);
        assert_eq!(relic_anim::proofs::key_boxes(&model, &boxes, 0.01).unwrap(), text, "{name}");
    }
}

/// A box that is neither empty nor a neighbour's still fails.
#[test]
fn any_other_stale_box_fails() {
    let mut file = v6(&fixture("v6_basic.abc"));
    file.animations.animations[0].keyframes[1].bounds_max[1] += 1.99;
    let (status, text) = key_box_check(&write(&AbcFile::V6(file)).unwrap());
    assert_eq!(status, Status::Fail, "{text}");
    assert!(text.contains("0 stored from a neighbouring pose skipped, worst corner error 1.99e0"), "{text}");
}

/// ABC → model → ABC gives back the stale boxes as stored: the same bytes, 0 losses.
#[test]
fn stale_boxes_survive_the_model() {
    for name in ["v6_empty_key_box.abc", "v6_unset_key_box.abc", "v6_neighbour_key_box.abc", "v6_flags.abc"] {
        let bytes = fixture(name);
        let model = read_model(&bytes).unwrap();
        assert!(write_lossless(&model) == bytes, "{name}: not byte-identical");
        let (status, text) = common::check(&bytes, "ir-round-trip");
        assert_eq!((status, text.as_str()), (Status::Pass, "byte-identical, 0 losses"), "{name}");
    }
}

fn turn_key(model: &mut Model, animation: usize, key: usize) {
    let anim = &mut model.animations[animation];
    let channel = anim.channels.iter_mut().find(|c| c.bone == 2 && matches!(c.values, ChannelValues::Rotation(_)));
    let ChannelValues::Rotation(q) = &mut channel.unwrap().values else { unreachable!() };
    q[key] = [0.0, 0.0, std::f32::consts::FRAC_1_SQRT_2, std::f32::consts::FRAC_1_SQRT_2];
}

/// A changed animation gets its boxes recomputed by posing the written file (the stale box is
/// gone; the other animation keeps its stored boxes); so does a changed mesh, everywhere.
#[test]
fn boxes_are_recomputed_when_the_pose_changes_and_only_then() {
    let bytes = fixture("v6_neighbour_key_box.abc");
    let stored = v6(&bytes);
    let stored_key = |f: &V6File, a: usize, k: usize| {
        let key = &f.animations.animations[a].keyframes[k];
        (key.bounds_min, key.bounds_max)
    };

    let mut model = read_model(&bytes).unwrap();
    turn_key(&mut model, 1, 1);
    let other = write_lossless(&model);
    let (status, text) = key_box_check(&other);
    assert_eq!(status, Status::Pass, "{text}");
    assert!(text.contains("1 stored from a neighbouring pose skipped"), "the untouched clip keeps its boxes: {text}");
    assert_eq!(stored_key(&v6(&other), 0, 1), stored_key(&stored, 0, 1));

    let mut model = read_model(&bytes).unwrap();
    turn_key(&mut model, 0, 2);
    let changed = write_lossless(&model);
    let (status, text) = key_box_check(&changed);
    assert_eq!(status, Status::Pass, "{text}");
    assert!(text.starts_with("5 key boxes, 0 empty skipped, 0 stored from a neighbouring pose skipped"), "{text}");
    assert_ne!(stored_key(&v6(&changed), 0, 1), stored_key(&stored, 0, 1), "recomputed from its own pose");
    assert_eq!(stored_key(&v6(&changed), 1, 1), stored_key(&stored, 1, 1), "the other clip is untouched");

    for name in ["v6_neighbour_key_box.abc", "v6_empty_key_box.abc"] {
        let mut model = read_model(&fixture(name)).unwrap();
        model.meshes[0].positions[0][1] += 0.25;
        let moved = write_lossless(&model);
        let (status, text) = key_box_check(&moved);
        assert_eq!(status, Status::Pass, "{name}: {text}");
        assert!(text.starts_with("5 key boxes, 0 empty skipped, 0 stored"), "{name}: {text}");
    }
}

/// Boxes edited in the model (nothing else changed) are written as edited: they are the model's.
#[test]
fn edited_boxes_are_written_as_edited() {
    let mut model = read_model(&fixture("v6_basic.abc")).unwrap();
    model.animations[1].key_bounds[0].bounds.max[1] += 2.0;
    let bounds = model.animations[1].key_bounds[0].bounds;
    let out = write_lossless(&model);
    assert_eq!(read_model(&out).unwrap().animations[1].key_bounds[0].bounds, bounds);
}

/// A box stored inverted (min > max on an axis), or with a NaN, comes back as stored: the frame
/// change of boxes is exact and keeps each corner (it used to sort the corners).
#[test]
fn inverted_and_nan_boxes_come_back_as_stored() {
    let mut file = v6(&fixture("v6_basic.abc"));
    let key = &mut file.animations.animations[0].keyframes[1];
    std::mem::swap(&mut key.bounds_min, &mut key.bounds_max);
    file.animations.animations[1].keyframes[0].bounds_min[2] = f32::NAN;
    let bytes = write(&AbcFile::V6(file)).unwrap();
    assert!(write_lossless(&read_model(&bytes).unwrap()) == bytes);
}

/// Node flags beyond 1 and 2 come back as stored, 4 (mesh deformation) without any deformed
/// vertex too (the writer used to set bit 4 from the deformed vertices, silently).
#[test]
fn node_flags_come_back_as_stored() {
    let bytes = fixture("v6_flags.abc");
    assert_eq!(v6(&bytes).nodes.nodes.iter().map(|n| n.flags).collect::<Vec<_>>(), [1, 6, 10]);
    let back = v6(&write_lossless(&read_model(&bytes).unwrap()));
    assert_eq!(back.nodes.nodes.iter().map(|n| n.flags).collect::<Vec<_>>(), [1, 6, 10]);
}
