//! Byte-identical round trips: read → write for every fixture and real file, format → model →
//! format, the rebuild from the model alone, version changes, and the regressions found on them.

// Test helpers: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::{all_files, corpus_files, fixture, fixtures, palettes_hold};
use relic_core::WriteOptions;
use relic_core::model::{ChannelValues, Model};

#[test]
fn fixtures_round_trip_byte_for_byte() {
    for (name, bytes) in fixtures() {
        let file = relic_m2::read(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let out = relic_m2::write(&file).unwrap();
        // The foreign layout too: the writer keeps the layout a file was read with.
        assert!(out == bytes, "{name}: re-write differs");
    }
}

/// Every real M2 of the corpus (GnomePounder and the 1.12.1 interface models) comes back byte
/// for byte.
#[test]
fn real_files_round_trip_byte_for_byte() {
    for (name, bytes) in corpus_files() {
        let file = relic_m2::read(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        if name.contains("GnomePounder") {
            assert_eq!((file.version, file.bones.len(), file.vertices.len(), file.views.len()), (256, 104, 3902, 4));
            assert_eq!((file.sequences.len(), file.particle_emitters.len()), (11, 12));
        }
        assert!(relic_m2::write(&file).unwrap() == bytes, "{name}: re-write differs");
    }
}

#[test]
fn ir_round_trip_is_byte_identical() {
    for (name, bytes) in all_files() {
        let model = relic_m2::read_model(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        model.validate().unwrap_or_else(|e| panic!("{name}: {e}"));
        let out = relic_m2::write_model(&model, &WriteOptions::default()).unwrap();
        assert!(out.losses.is_empty(), "{name}: {:?}", out.losses);
        let original = relic_m2::read(&bytes).unwrap();
        let again = relic_m2::read(&out.value).unwrap();
        assert_eq!(again, original, "{name}: format → model → format re-parses differently");
        // A foreign layout too: the model's extras keep where the blocks were read.
        assert!(out.value == bytes, "{name}: not byte-identical");
        // Through JSON extras (glTF's path) the model still writes a file that reads the same.
        let mut via_json = model.clone();
        let json = model.extras.as_ref().unwrap().json().unwrap();
        via_json.extras = Some(relic_core::model::FormatExtras::from_json(relic_m2::FORMAT, json));
        let out = relic_m2::write_model(&via_json, &WriteOptions::default()).unwrap();
        assert_eq!(relic_m2::read_model(&out.value).unwrap().meshes, model.meshes, "{name} via JSON");
    }
}

/// Channels compared with a tolerance (the pivot offset makes translations round differently).
fn assert_animations_close(a: &Model, b: &Model, what: &str) {
    assert_eq!(a.animations.len(), b.animations.len(), "{what}");
    for (x, y) in a.animations.iter().zip(&b.animations) {
        assert_eq!((x.name.as_str(), x.looping), (y.name.as_str(), y.looping), "{what}");
        assert!((x.duration - y.duration).abs() < 1e-6, "{what}");
        assert_eq!(x.channels.len(), y.channels.len(), "{what} {}", x.name);
        for (c, d) in x.channels.iter().zip(&y.channels) {
            assert_eq!((c.bone, c.clock, c.interpolation), (d.bone, d.clock, d.interpolation), "{what} {}", x.name);
            assert_eq!(c.times.len(), d.times.len());
            for (t, u) in c.times.iter().zip(&d.times) {
                assert!((t - u).abs() < 1e-6, "{what}: time {t} vs {u}");
            }
            let (p, q): (Vec<f32>, Vec<f32>) = match (&c.values, &d.values) {
                (ChannelValues::Rotation(p), ChannelValues::Rotation(q)) => (p.concat(), q.concat()),
                (ChannelValues::Translation(p), ChannelValues::Translation(q))
                | (ChannelValues::Scale(p), ChannelValues::Scale(q)) => (p.concat(), q.concat()),
                _ => panic!("{what}: channel kinds differ"),
            };
            let worst = relic_core::math::max_abs_diff(&p, &q);
            assert!(worst < 1e-4, "{what} {}: values differ by {worst}", x.name);
        }
        assert_eq!(x.events, y.events, "{what}");
    }
}

#[test]
fn rebuild_without_extras_re_reads_the_same_model() {
    for (name, bytes) in all_files() {
        let mut model = relic_m2::read_model(&bytes).unwrap();
        model.extras = None;
        let out = relic_m2::write_model(&model, &WriteOptions::default()).unwrap();
        let back =
            relic_m2::read_model(&out.value).unwrap_or_else(|e| panic!("{name}: rebuilt file does not read: {e}"));
        assert_eq!(back.meshes, model.meshes, "{name}");
        assert_eq!(back.materials, model.materials, "{name}");
        assert_eq!(back.bones, model.bones, "{name}");
        assert_eq!(back.attachments, model.attachments, "{name}");
        assert_eq!(back.global_sequences, model.global_sequences, "{name}");
        assert_animations_close(&back, &model, &name);
        // All four views satisfy the palette rule.
        let file = relic_m2::read(&out.value).unwrap();
        assert_eq!(file.views.len(), 4);
        for v in file.views.iter() {
            assert!(palettes_hold(v, &file), "{name}");
        }
    }
}

#[test]
fn versions_convert_both_ways() {
    let bytes = fixture("v256_hermite.m2");
    let model = relic_m2::read_model(&bytes).unwrap();
    for version in [260, 263, 256] {
        let out = relic_m2::write_model(&model, &WriteOptions { version: Some(version) }).unwrap();
        let back = relic_m2::read_model(&out.value).unwrap();
        assert_eq!(back.source.unwrap().version, version);
        assert_eq!(back.meshes, model.meshes);
        assert_animations_close(&back, &model, &format!("v{version}"));
    }
    assert!(relic_m2::write_model(&model, &WriteOptions { version: Some(264) }).is_err());
}

/// Regression (m2 fuzz target, a mutated GnomePounder): an empty texture-flipbook array with a
/// stale offset read as `[0, 15]`, the layout pass wrote `(0, 0)`, so the re-parse differed.
#[test]
fn an_empty_flipbook_array_with_a_stale_offset_re_parses_equal() {
    let mut bytes = fixture("v256_linear.m2");
    bytes[108 + 4..108 + 8].copy_from_slice(&15u32.to_le_bytes()); // texture_flipbooks.offset
    let file = relic_m2::read(&bytes).unwrap();
    let again = relic_m2::read(&relic_m2::write(&file).unwrap()).unwrap();
    assert!(again == file, "flipbooks {:?} re-parse as {:?}", file.texture_flipbooks, again.texture_flipbooks);
}

/// Regression (writer property test): a model without bones whose animation has an event. The
/// writer put the event on bone 0 of a file with no bones, which its reader refuses.
#[test]
fn events_of_a_model_without_bones_do_not_break_the_file() {
    use relic_core::model::*;
    let model = Model {
        name: "no bones".into(),
        meshes: vec![Mesh {
            name: "m".into(),
            positions: vec![[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
            triangles: vec![[0, 1, 2]],
            ..Mesh::default()
        }],
        animations: vec![Animation {
            name: "Stand".into(),
            duration: 1.0,
            events: vec![Event { time: 0.5, name: "$CSS".into(), ..Event::default() }],
            ..Animation::default()
        }],
        ..Model::default()
    };
    model.validate().unwrap();
    let out = relic_m2::write_model(&model, &WriteOptions::default()).unwrap();
    let back = relic_m2::read_model(&out.value).unwrap_or_else(|e| panic!("the written file does not read: {e}"));
    back.validate().unwrap();
}

/// Regression (gltf fuzz target): M2 extras that come back as edited JSON (through glTF) with
/// cross-references the model does not satisfy (a key-bone lookup naming bone −2, a transparency
/// lookup past the texture weights) were written as they were, into files the reader refuses.
#[test]
fn inconsistent_json_extras_never_make_a_file_the_reader_refuses() {
    let bytes = fixture("v256_linear.m2");
    let model = relic_m2::read_model(&bytes).unwrap();
    let json = model.extras.as_ref().unwrap().json().unwrap();
    for (field, bad) in [("\"key_bone_lookup\":[", "-2,"), ("\"transparency_lookup\":[", "7,")] {
        let at = json.find(field).unwrap_or_else(|| panic!("{field} not in the extras")) + field.len();
        let edited = format!("{}{bad}{}", &json[..at], &json[at..]);
        let mut m = model.clone();
        m.extras = Some(relic_core::model::FormatExtras::from_json(relic_m2::FORMAT, edited));
        match relic_m2::write_model(&m, &WriteOptions::default()) {
            Ok(out) => {
                let back = relic_m2::read_model(&out.value);
                assert!(back.is_ok(), "{field}: the written file does not read: {}", back.unwrap_err());
                assert!(out.losses.iter().any(|l| l.element == "extras"), "{field}: {:?}", out.losses);
            }
            Err(e) => panic!("{field}: {e}"),
        }
    }
}

/// Regression (gltf fuzz target, key times of 1.9e34 s from an edited .glb): milliseconds were
/// summed in i64 without bounds, an overflow (a panic in debug builds, wrapped garbage in release).
#[test]
fn huge_key_and_event_times_do_not_overflow() {
    let bytes = fixture("v256_linear.m2");
    let mut model = relic_m2::read_model(&bytes).unwrap();
    model.extras = None;
    for (i, a) in model.animations.iter_mut().enumerate() {
        for c in &mut a.channels {
            if c.times.len() >= 2 {
                let n = c.times.len();
                c.times[n - 1] = if i == 0 { 1.8e34 } else { f32::MAX };
            }
        }
        a.events.push(relic_core::model::Event { time: -1.0e34, name: "$CSS".into(), ..Default::default() });
        a.duration = 1.0e30;
    }
    model.validate().unwrap();
    let out = relic_m2::write_model(&model, &WriteOptions::default()).unwrap();
    relic_m2::read_model(&out.value).unwrap();
}

/// `format → model → format` of patched fixture bytes: no loss, the same bytes.
fn same_through_the_model(bytes: &[u8], what: &str) {
    let model = relic_m2::read_model(bytes).unwrap_or_else(|e| panic!("{what}: {e}"));
    let out = relic_m2::write_model(&model, &WriteOptions::default()).unwrap();
    assert!(out.losses.is_empty(), "{what}: {:?}", out.losses);
    assert!(out.value == bytes, "{what}: not byte-identical");
}

/// Regression (generator): a Classic file with global flag 0x8 (blend overrides exist only from
/// 260, but the bit may be set) lost the bit through the model.
#[test]
fn a_classic_file_keeps_flag_8() {
    let mut bytes = fixture("v256_linear.m2");
    bytes[0x10..0x14].copy_from_slice(&0x9u32.to_le_bytes());
    let file = relic_m2::read(&bytes).unwrap();
    assert_eq!((file.flags, file.blend_overrides.is_none()), (0x9, true));
    same_through_the_model(&bytes, "flags 0x9");
}

/// Regression (generator): sequences of one id whose `next_variation` is −1 (not chained, as
/// another tool may write them) came back chained, with rebuilt lookups.
#[test]
fn unchained_variations_stay_unchained() {
    let mut bytes = fixture("v256_linear.m2");
    let sequences = u32::from_le_bytes(bytes[0x20..0x24].try_into().unwrap()) as usize;
    bytes[sequences + 68..sequences + 70].copy_from_slice(&0u16.to_le_bytes()); // sequence 1: Walk → Stand
    let file = relic_m2::read(&bytes).unwrap();
    assert_eq!(file.sequences.iter().map(|s| (s.id, s.next_variation)).collect::<Vec<_>>(), [(0, -1), (0, -1)]);
    same_through_the_model(&bytes, "unchained variations");
}

/// Regression (generator): bones stored before their parents (spec §6: do not rely on parents
/// coming first) were written back in the model's order, with every section rebuilt.
#[test]
fn children_before_parents_keep_the_file_order() {
    let mut bytes = fixture("v256_linear.m2");
    let bones = u32::from_le_bytes(bytes[0x38..0x3C].try_into().unwrap()) as usize;
    // Parents [1, -1, 1]: bone 0 hangs from bone 1, which comes after it.
    for (b, parent) in [(0usize, 1i16), (1, -1), (2, 1)] {
        bytes[bones + b * 108 + 8..bones + b * 108 + 10].copy_from_slice(&parent.to_le_bytes());
    }
    let model = relic_m2::read_model(&bytes).unwrap();
    assert_eq!(model.bones.iter().map(|b| b.parent).collect::<Vec<_>>(), [None, Some(0), Some(0)]);
    same_through_the_model(&bytes, "children before parents");
    // A change to the model still writes the file's order, with the bones' references mapped.
    let mut moved = model.clone();
    moved.meshes[0].positions[0][1] += 0.5;
    let out = relic_m2::write_model(&moved, &WriteOptions::default()).unwrap();
    let file = relic_m2::read(&out.value).unwrap();
    assert_eq!(file.bones.iter().map(|b| b.parent).collect::<Vec<_>>(), [1, -1, 1]);
    assert_eq!(relic_m2::read_model(&out.value).unwrap().meshes[0].skin, model.meshes[0].skin);
}

/// Moving a file with blend overrides to Classic drops them, and says so.
#[test]
fn blend_overrides_dropped_for_classic_are_a_loss() {
    let model = relic_m2::read_model(&fixture("v263_effects_overrides.m2")).unwrap();
    let out = relic_m2::write_model(&model, &WriteOptions { version: Some(256) }).unwrap();
    let loss = out.losses.iter().find(|l| l.element == "blend overrides").expect("a loss");
    assert!(loss.what.contains("1 blend-mode overrides dropped"), "{loss}");
    let file = relic_m2::read(&out.value).unwrap();
    assert_eq!((file.flags & 0x8, file.blend_overrides.is_none()), (0, true));
}

/// A clip added to (or removed from) a model keeps every other clip's animation id: each takes
/// the stored sequence of its name (before: `Walk.0` came back as `Stand.1`, the added clip's
/// fresh sequence standing in for every sequence whose position had moved).
#[test]
fn a_clip_added_keeps_the_others_ids() {
    let bytes = fixture("v256_linear.m2");
    let mut model = relic_m2::read_model(&bytes).unwrap();
    let before: Vec<String> = model.animations.iter().map(|a| a.name.clone()).collect();
    assert_eq!(before, ["Stand.0", "Walk.0"]);
    model.animations.push(relic_core::model::Animation { name: "Run.0".into(), duration: 1.0, ..Default::default() });
    let written = relic_m2::write_model(&model, &WriteOptions::default()).unwrap().value;
    let back = relic_m2::read_model(&written).unwrap();
    let names: Vec<&str> = back.animations.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["Stand.0", "Walk.0", "Run.0"]);
    // And one removed: the other keeps its id too.
    model.animations.remove(0);
    let written = relic_m2::write_model(&model, &WriteOptions::default()).unwrap().value;
    let back = relic_m2::read_model(&written).unwrap();
    let names: Vec<&str> = back.animations.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["Walk.0", "Run.0"]);
}
