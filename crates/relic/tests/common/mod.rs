//! Helpers shared by the integration tests of relic (`mod common;` in each test file).

// Test helpers: a failure must stop the test loudly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic, dead_code)]

use relic_anim::pose::ClipTime;
use relic_core::Model;

/// A GLB with its JSON chunk changed by `edit` (the binary chunk as it was).
pub(crate) fn edit_glb(glb: &[u8], edit: impl FnOnce(&mut serde_json::Value)) -> Vec<u8> {
    let parsed = gltf::binary::Glb::from_slice(glb).unwrap();
    let mut json: serde_json::Value = serde_json::from_slice(&parsed.json).unwrap();
    edit(&mut json);
    gltf::binary::Glb {
        header: parsed.header,
        json: serde_json::to_vec(&json).unwrap().into(),
        bin: parsed.bin.clone(),
    }
    .to_vec()
    .unwrap()
}

/// A GLB's JSON chunk.
pub(crate) fn json_of(glb: &[u8]) -> serde_json::Value {
    let parsed = gltf::binary::Glb::from_slice(glb).unwrap();
    serde_json::from_slice(&parsed.json).unwrap()
}

/// Removes every `extras` object from a GLB's JSON: what a viewer that ignores relic's extras sees
/// (and an editor that drops custom properties writes).
pub(crate) fn strip_extras(glb: &[u8]) -> Vec<u8> {
    fn strip(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(map) => {
                map.remove("extras");
                map.values_mut().for_each(strip);
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    edit_glb(glb, strip)
}

/// Skinned positions of every mesh of `model` in clip `a` at `t` (rest pose for `None`).
pub(crate) fn posed(model: &Model, a: Option<usize>, t: f32) -> Vec<Vec<[f32; 3]>> {
    relic_anim::bounds::posed_positions(model, a, ClipTime::at(t)).unwrap()
}

/// Largest coordinate difference between two sets of posed meshes, which must have the same
/// meshes and vertex counts.
pub(crate) fn worst(a: &[Vec<[f32; 3]>], b: &[Vec<[f32; 3]>]) -> f32 {
    assert_eq!(a.len(), b.len(), "mesh count");
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        assert_eq!(x.len(), y.len(), "vertex count of mesh {i}");
    }
    a.iter().flatten().zip(b.iter().flatten()).map(|(p, q)| relic_core::math::max_abs_diff(p, q)).fold(0.0, f32::max)
}

/// Checks skin weights to 1e-6 (export renormalises in f64) with the same bones and the same
/// influence lists, then copies them over so the rest of the model can be compared exactly.
pub(crate) fn weights_match_then_align(original: &Model, back: &mut Model) {
    assert_eq!(original.meshes.len(), back.meshes.len());
    for (a, b) in original.meshes.iter().zip(back.meshes.iter_mut()) {
        assert_eq!(a.skin.offsets, b.skin.offsets, "{}", a.name);
        assert_eq!(a.skin.influences.len(), b.skin.influences.len(), "{}", a.name);
        for (x, y) in a.skin.influences.iter().zip(&b.skin.influences) {
            assert_eq!(x.bone, y.bone, "{}", a.name);
            assert!((x.weight - y.weight).abs() <= 1e-6, "{}: {} vs {}", a.name, x.weight, y.weight);
        }
        b.skin = a.skin.clone();
    }
}

/// Checks that every normal came back as it was or, where export renormalised it (a normal
/// further than 0.5 % from unit length, reported as a loss), as its unit vector to 1e-6; then
/// copies the originals over so the rest of the model can be compared exactly.
pub(crate) fn normals_match_then_align(original: &Model, back: &mut Model) {
    assert_eq!(original.meshes.len(), back.meshes.len());
    for (a, b) in original.meshes.iter().zip(back.meshes.iter_mut()) {
        assert_eq!(a.normals.len(), b.normals.len(), "{}", a.name);
        for (x, y) in a.normals.iter().zip(&b.normals) {
            let unit = relic_core::math::normalize3(*x).unwrap_or(*x);
            assert!(
                x == y || relic_core::math::max_abs_diff(&unit, y) <= 1e-6,
                "{}: normal {x:?} came back as {y:?}",
                a.name
            );
        }
        b.normals = a.normals.clone();
    }
}

/// Checks that every emitter's record came back as the same JSON (typed before, text after the
/// glb: the same value, its keys perhaps in another order); then copies the typed records over
/// so the rest of the model can be compared exactly.
pub(crate) fn emitter_records_match_then_align(original: &Model, back: &mut Model) {
    assert_eq!(original.emitters.len(), back.emitters.len());
    let value = |e: &relic_core::model::Emitter| -> serde_json::Value {
        serde_json::from_str(&e.record.as_ref().unwrap().json().unwrap()).unwrap()
    };
    for (a, b) in original.emitters.iter().zip(back.emitters.iter_mut()) {
        assert_eq!(value(a), value(b), "{}", a.name);
        b.record = a.record.clone();
    }
}
