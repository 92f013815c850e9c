//! One test per bug the random-file generator (`generator.rs`) or its making found, each on the
//! smallest file that shows it.

// Test helpers may fail loudly: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod build;
mod common;

use relic_abc::file::{KeyCountForm, SectionId, V12File};
use relic_abc::{AbcFile, read, read_model, write, write_model};
use relic_core::{Loss, WriteOptions};

fn v12(name: &str) -> V12File {
    match read(&std::fs::read(common::fixtures_dir().join(name)).unwrap()).unwrap() {
        AbcFile::V12(f) => f,
        AbcFile::V6(_) => panic!("expected v9–v13"),
    }
}

/// The file's bytes, and the model round trip: (re-read equal, byte-identical, losses).
fn round_trip(file: V12File) -> (bool, bool, Vec<Loss>) {
    let bytes = write(&AbcFile::V12(file)).unwrap();
    let out = write_model(&read_model(&bytes).unwrap(), &WriteOptions::default()).unwrap();
    (read(&out.value).unwrap() == read(&bytes).unwrap(), out.value == bytes, out.losses)
}

/// `v12_full` without nodes (and so without pieces, sockets and relations).
fn without_nodes() -> V12File {
    let mut f = v12("v12_full.abc");
    f.pieces = None;
    f.order.retain(|s| *s != SectionId::Pieces);
    f.nodes.as_mut().unwrap().nodes.clear();
    f.nodes.as_mut().unwrap().weight_sets.clear();
    let c = f.child_models.as_mut().unwrap();
    c.self_entry.as_mut().unwrap().relations.clear();
    c.children.iter_mut().for_each(|c| c.relations.clear());
    f.sockets.as_mut().unwrap().sockets.clear();
    f.header.counts.node_count = 0;
    for a in &mut f.animations.as_mut().unwrap().animations {
        a.tracks.transforms.clear();
    }
    f
}

/// The smallest animation is 18 bytes (a count-form marker of 0 keys, no nodes), not 22: the
/// reader refused a last animation of that size ("count 1 of 22-byte records needs 22 bytes but
/// only 18 are left").
#[test]
fn the_smallest_animation_is_18_bytes() {
    let mut f = without_nodes();
    let anims = &mut f.animations.as_mut().unwrap().animations;
    anims.truncate(1);
    anims[0].name.0.clear();
    anims[0].keyframes.clear();
    anims[0].key_count_form = KeyCountForm::InMarker;
    anims[0].interpolation_time = None;
    f.anim_bindings.as_mut().unwrap().groups[0].bindings.truncate(1);
    let bytes = write(&AbcFile::V12(f.clone())).unwrap();
    assert_eq!(write(&read(&bytes).unwrap()).unwrap(), bytes);
    assert_eq!(round_trip(f), (true, true, vec![]));
}

/// `ChildModels` with count 0 (no self entry) sizes `AnimBindings` to 0 groups: writing through
/// the model failed ("AnimBindings: 1 groups for 0 child models").
#[test]
fn no_self_entry_means_no_binding_groups() {
    let mut f = v12("v12_full.abc");
    f.child_models = Some(relic_abc::file::ChildModels { self_entry: None, children: vec![] });
    f.anim_bindings.as_mut().unwrap().groups.clear();
    assert_eq!(round_trip(f), (true, true, vec![]));
}

/// A file without nodes: its animations' key times have no channel to travel in; keys without a
/// command string were dropped silently.
#[test]
fn key_times_of_a_file_without_nodes_survive() {
    assert_eq!(round_trip(without_nodes()), (true, true, vec![]));
}

/// Header counts of sections the file does not have were reset silently (WeightSetCount without
/// Nodes, ChildModelCount without ChildModels and AnimBindings, …): they are kept.
#[test]
fn counts_of_absent_sections_are_kept() {
    let mut f = without_nodes();
    f.nodes = None;
    f.child_models = None;
    f.anim_bindings = None;
    f.order.retain(|s| !matches!(s, SectionId::Nodes | SectionId::ChildModels | SectionId::AnimBindings));
    f.header.counts.weight_set_count = 4;
    f.header.counts.child_model_count = 3;
    assert_eq!(round_trip(f), (true, true, vec![]));
}

/// NodeCount without a Nodes section: the model has no bones for those nodes' tracks; the
/// round trip differs and says so.
#[test]
fn node_count_without_nodes_is_reported() {
    let mut f = v12("v12_full.abc");
    f.nodes = None;
    f.pieces = None;
    f.sockets.as_mut().unwrap().sockets.clear();
    f.order.retain(|s| !matches!(s, SectionId::Nodes | SectionId::Pieces));
    let (same, _, losses) = round_trip(f);
    assert!(
        !same && losses.iter().any(|l| l.to_string().contains("NodeCount 3 without a Nodes section")),
        "{losses:?}"
    );
}

/// LOD distance lists of another length than LODCount − 1 (io_scene_abc writes none) came back
/// as LODCount − 1 values.
#[test]
fn lod_distance_lists_keep_their_length() {
    for distances in [vec![], vec![300.0, 600.0, 900.0]] {
        let mut f = v12("v12_full.abc");
        f.header.lod_distances = distances;
        assert_eq!(round_trip(f), (true, true, vec![]));
    }
}

/// An AnimBindings group 0 that does not list the own animations (a hand-edited file) was
/// rebuilt from them.
#[test]
fn a_group_0_that_differs_is_kept() {
    let mut f = v12("v12_full.abc");
    f.anim_bindings.as_mut().unwrap().groups[0].bindings.pop();
    assert_eq!(round_trip(f), (true, true, vec![]));
}

/// A v9–v13 animation without keys got a key at 0 s.
#[test]
fn animations_without_keys_stay_without() {
    let mut f = v12("v12_full.abc");
    let a = &mut f.animations.as_mut().unwrap().animations[1];
    a.keyframes.clear();
    a.tracks.transforms.clear();
    assert_eq!(round_trip(f), (true, true, vec![]));
}

/// A v6 animation without keys (the games crash on one) gets a key at 0 s, and says so.
#[test]
fn a_v6_animation_without_keys_gets_one_and_says_so() {
    let AbcFile::V6(mut f) = read(&std::fs::read(common::fixtures_dir().join("v6_basic.abc")).unwrap()).unwrap() else {
        panic!()
    };
    let a = &mut f.animations.animations[1];
    a.keyframes.clear();
    a.node_anims.iter_mut().for_each(|t| t.keys.clear());
    let bytes = write(&AbcFile::V6(f)).unwrap();
    let out = write_model(&read_model(&bytes).unwrap(), &WriteOptions::default()).unwrap();
    assert!(out.losses.iter().any(|l| l.to_string().contains("no keys: a key at 0 s")), "{:?}", out.losses);
}

/// Key times that do not increase (two keys on one millisecond): the model stays valid and
/// writing back merges the keys, reporting it.
#[test]
fn keys_on_one_millisecond_are_merged_and_reported() {
    let mut f = v12("v12_full.abc");
    f.animations.as_mut().unwrap().animations[1].keyframes[2].time = 500;
    let bytes = write(&AbcFile::V12(f)).unwrap();
    let model = read_model(&bytes).unwrap();
    model.validate().unwrap();
    let out = write_model(&model, &WriteOptions::default()).unwrap();
    assert!(out.losses.iter().any(|l| l.to_string().contains("keys less than 1 ms apart merged")), "{:?}", out.losses);
}

/// The sections of a file: (name, body).
fn split(bytes: &[u8]) -> Vec<(Vec<u8>, Vec<u8>)> {
    let mut out = Vec::new();
    let mut at = 0usize;
    loop {
        let len = usize::from(u16::from_le_bytes([bytes[at], bytes[at + 1]]));
        let name = bytes[at + 2..at + 2 + len].to_vec();
        let next = i32::from_le_bytes(bytes[at + 2 + len..at + 6 + len].try_into().unwrap());
        let end = if next < 0 { bytes.len() } else { next as usize };
        out.push((name, bytes[at + 6 + len..end].to_vec()));
        if next < 0 {
            return out;
        }
        at = end;
    }
}

/// Any section order reads in v9–v13 (the reader dispatches on names); v6 needs Geometry before
/// Nodes and Nodes before Animation (their sizes come from there) and says so, with the offset.
#[test]
fn section_order() {
    let v12 = std::fs::read(common::fixtures_dir().join("v12_full.abc")).unwrap();
    let mut list = split(&v12);
    list.swap(2, 5);
    let swapped = build::sections(&list);
    assert_eq!(write(&read(&swapped).unwrap()).unwrap(), swapped);
    assert!(write_model(&read_model(&swapped).unwrap(), &WriteOptions::default()).unwrap().value == swapped);

    let v6 = std::fs::read(common::fixtures_dir().join("v6_basic.abc")).unwrap();
    let mut list = split(&v6);
    list.swap(2, 3);
    let swapped = build::sections(&list);
    let err = read(&swapped).unwrap_err();
    let animation_at = swapped.windows(11).position(|w| w == b"\x09\x00Animation").unwrap() as u64;
    assert_eq!((err.path.as_str(), err.offset), ("Animation", animation_at), "{err}");
    assert!(err.to_string().contains("the section must come after Nodes"), "{err}");
    list.swap(2, 3);
    list.push(list[1].clone());
    let twice = build::sections(&list);
    assert!(read(&twice).unwrap_err().to_string().contains("Geometry: the section appears twice"));
}
