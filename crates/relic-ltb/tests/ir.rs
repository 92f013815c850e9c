//! LTB → model → LTB on every real file: byte for byte with the extras, a valid file with every
//! count the model holds without them, and the stored parts again after float noise.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use relic_core::WriteOptions;
use relic_core::model::{ChannelValues, Model};

/// The LTB files of the corpus (MANIFEST.md lists 12); none when it is absent (a printed skip).
fn corpus() -> Vec<(String, Vec<u8>)> {
    relic_testkit::corpus_dir("ir").map(|d| relic_testkit::files_in(&d.join("ltb"))).unwrap_or_default()
}

/// How many files each test must have checked: the 12 of MANIFEST.md where the corpus is here,
/// none where it is absent (then [`corpus`] printed the skip).
fn expected() -> usize {
    if relic_testkit::corpus_dir("ir").is_some() { 12 } else { 0 }
}

fn counts(m: &Model) -> (usize, usize, usize, usize, usize, usize) {
    let keys = m.animations.iter().map(|a| a.events.len()).sum();
    (m.bones.len(), m.meshes.len(), m.animations.len(), m.attachments.len(), m.triangle_count(), keys)
}

#[test]
fn unchanged_models_write_their_file_back() {
    let mut checked = 0;
    for (name, bytes) in corpus() {
        checked += 1;
        let model = relic_ltb::read_model(&bytes).unwrap();
        let out = relic_ltb::write_model(&model, &WriteOptions::default()).unwrap();
        assert!(out.losses.is_empty(), "{name}: {:?}", out.losses);
        assert!(out.value == bytes, "{name}: not byte-identical");
        // Through the JSON form of the extras too.
        let json = model.extras.as_ref().unwrap().json().unwrap();
        let mut via = model.clone();
        via.extras = Some(relic_core::model::FormatExtras::from_json(relic_ltb::FORMAT, json));
        let again = relic_ltb::write_model(&via, &WriteOptions::default()).unwrap();
        assert!(again.value == bytes, "{name}: not byte-identical through JSON");
    }
    assert_eq!(checked, expected(), "LTB files written back");
}

#[test]
fn models_without_extras_write_valid_files_with_their_counts() {
    let mut checked = 0;
    for (name, bytes) in corpus() {
        checked += 1;
        let mut model = relic_ltb::read_model(&bytes).unwrap();
        model.extras = None;
        let out = relic_ltb::write_model(&model, &WriteOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let back = relic_ltb::read_model(&out.value).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(counts(&back), counts(&model), "{name}");
        let vertices = |m: &Model| m.meshes.iter().map(|x| x.positions.len()).sum::<usize>();
        println!(
            "{name}: {} → {} bytes, {} → {} vertices, {} losses",
            bytes.len(),
            out.value.len(),
            vertices(&model),
            vertices(&back),
            out.losses.len()
        );
        relic_anim::proofs::rest_pose(&back, 1e-3).unwrap();
    }
    assert_eq!(checked, expected(), "LTB files written without extras");
}

/// Float noise on every value (what a tool such as Blender leaves) brings back the stored parts.
#[test]
fn noisy_models_come_back_as_stored() {
    let mut checked = 0;
    for (name, bytes) in corpus() {
        checked += 1;
        let mut model = relic_ltb::read_model(&bytes).unwrap();
        let noise = |v: &mut f32| *v += 1e-6 * v.abs().max(1.0);
        for mesh in &mut model.meshes {
            mesh.positions.iter_mut().flatten().for_each(noise);
            mesh.normals.iter_mut().flatten().for_each(noise);
        }
        for bone in &mut model.bones {
            bone.bind_matrix.iter_mut().for_each(noise);
        }
        for anim in &mut model.animations {
            for c in &mut anim.channels {
                match &mut c.values {
                    ChannelValues::Translation(v) => v.iter_mut().flatten().for_each(noise),
                    ChannelValues::Rotation(v) => v.iter_mut().flatten().for_each(noise),
                    ChannelValues::Scale(_) => {}
                }
            }
        }
        let out = relic_ltb::write_model(&model, &WriteOptions::default()).unwrap();
        let original = relic_ltb::read(&bytes).unwrap();
        let back = relic_ltb::read(&out.value).unwrap();
        assert!(back.pieces == original.pieces, "{name}: pieces differ");
        assert!(back.nodes == original.nodes, "{name}: nodes differ");
        let differ = back.animations.iter().zip(&original.animations).position(|(a, b)| a != b);
        assert!(differ.is_none(), "{name}: animation {differ:?} differs");
        assert_eq!(back.header.counts, original.header.counts, "{name}");
        assert!(out.value == bytes, "{name}: {:?}", out.losses);
    }
    assert_eq!(checked, expected(), "LTB files written after float noise");
}
