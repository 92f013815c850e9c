//! Import of damaged and hostile glTF: typed errors, never a panic, a hang or a giant allocation.

// Test helpers: a failure must stop the test loudly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use relic_core::testkit::{self, CountingAllocator, Limits, Rng};
use relic_gltf::{ExportOptions, GltfError, export_glb, import, samples};
use serde_json::{Value, json};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

fn sample_glb() -> Vec<u8> {
    export_glb(&samples::skinned_animated(), &ExportOptions::default()).unwrap().value
}

fn split(glb: &[u8]) -> (Value, Vec<u8>) {
    let parsed = gltf::binary::Glb::from_slice(glb).unwrap();
    (serde_json::from_slice(&parsed.json).unwrap(), parsed.bin.unwrap().into_owned())
}

fn join(json: &Value, bin: &[u8]) -> Vec<u8> {
    let glb = gltf::binary::Glb {
        header: gltf::binary::Header { magic: *b"glTF", version: 2, length: 0 },
        json: serde_json::to_vec(json).unwrap().into(),
        bin: Some(bin.into()),
    };
    glb.to_vec().unwrap()
}

/// The sample with one change to its JSON, imported.
fn edited(change: impl FnOnce(&mut Value)) -> Result<relic_core::Model, GltfError> {
    let (mut json, bin) = split(&sample_glb());
    change(&mut json);
    let bytes = join(&json, &bin);
    let out = std::cell::RefCell::new(None);
    let limits = Limits::default();
    testkit::check("edited", &bytes, limits, |b| {
        let r = import(b, None);
        *out.borrow_mut() = Some(r.clone());
        r
    })
    .unwrap();
    out.into_inner().unwrap()
}

fn error_text(r: Result<relic_core::Model, GltfError>) -> String {
    match r {
        Ok(_) => panic!("expected an error"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn the_unedited_sample_imports() {
    assert!(edited(|_| {}).is_ok());
}

#[test]
fn a_huge_count_is_refused_before_allocating() {
    // `edited` runs the import under the allocation limit (16 × input + 1 MiB).
    let e = error_text(edited(|j| j["accessors"][0]["count"] = json!(4_000_000_000u64)));
    assert!(e.contains("accessors[0]") && e.contains("need"), "{e}");
    // An accessor without a buffer view is all zeros, a count backed by no bytes: gltf-json
    // refuses it (we depend on that: the decode budget is the second line of defence).
    let e = error_text(edited(|j| {
        j["accessors"][0].as_object_mut().unwrap().remove("bufferView");
        j["accessors"][0]["count"] = json!(4_000_000_000u64);
    }));
    assert!(e.contains("bufferView"), "{e}");
}

#[test]
fn accessors_past_their_view_are_refused() {
    let e = error_text(edited(|j| j["accessors"][0]["count"] = json!(1_000_000)));
    assert!(e.contains("accessors[0]") && e.contains("need"), "{e}");
    let e = error_text(edited(|j| j["accessors"][0]["byteOffset"] = json!(u64::MAX / 2)));
    assert!(e.contains("accessors[0]"), "{e}");
}

#[test]
fn views_past_their_buffer_are_refused() {
    let e = error_text(edited(|j| j["bufferViews"][0]["byteLength"] = json!(u32::MAX)));
    assert!(e.contains("runs past its buffer"), "{e}");
    let e = error_text(edited(|j| j["buffers"][0]["byteLength"] = json!(u32::MAX)));
    assert!(e.contains("buffers[0]"), "{e}");
}

#[test]
fn small_strides_are_refused() {
    let e = error_text(edited(|j| j["bufferViews"][0]["byteStride"] = json!(4)));
    assert!(e.contains("stride"), "{e}");
}

#[test]
fn out_of_range_vertex_and_joint_indices_are_refused() {
    // Index accessor of the first primitive: point it at the JOINTS accessor, whose values are
    // small, then at the positions' count (all out of range) by changing a POSITION count.
    let e = error_text(edited(|j| {
        let prim = j["meshes"][0]["primitives"][0].clone();
        let pos = prim["attributes"]["POSITION"].as_u64().unwrap() as usize;
        j["accessors"][pos]["count"] = json!(3);
        for attr in ["NORMAL", "TEXCOORD_0", "TEXCOORD_1", "JOINTS_0", "WEIGHTS_0", "JOINTS_1", "WEIGHTS_1"] {
            let a = prim["attributes"][attr].as_u64().unwrap() as usize;
            j["accessors"][a]["count"] = json!(3);
        }
    }));
    assert!(e.contains("past the 3 vertices"), "{e}");
    let e = error_text(edited(|j| {
        // Skin with one joint: every other joint index is out of range.
        let joints = j["skins"][0]["joints"].as_array().unwrap()[..1].to_vec();
        j["skins"][0]["joints"] = Value::Array(joints);
    }));
    assert!(e.contains("inverse bind matrices") || e.contains("joint"), "{e}");
}

#[test]
fn non_tree_hierarchies_are_refused() {
    let e = error_text(edited(|j| j["nodes"][2]["children"] = json!([1])));
    assert!(e.contains("more than one parent") || e.contains("cycle"), "{e}");
    let e = error_text(edited(|j| {
        // 1 → 2 → 1 with node 1 detached from the root: a cycle.
        j["nodes"][0]["children"] = json!([]);
        j["nodes"][2]["children"] = json!([1]);
    }));
    assert!(e.contains("cycle") || e.contains("more than one parent"), "{e}");
}

#[test]
fn bad_weights_and_times_are_refused() {
    let e = error_text(edited(|j| {
        let w = j["meshes"][3]["primitives"][0]["attributes"]["WEIGHTS_0"].as_u64();
        // Mesh 3 (prop) is unskinned; use the face mesh's weights accessor, scaled by a sparse
        // override that halves vertex 0.
        let _ = w;
        let a = j["meshes"][2]["primitives"][0]["attributes"]["WEIGHTS_0"].as_u64().unwrap() as usize;
        let views = j["bufferViews"].as_array().unwrap().len();
        // A view of 4 bytes at the start of the buffer that holds index 0 (u8) and one with 0.5.
        j["bufferViews"].as_array_mut().unwrap().push(json!({"buffer": 0, "byteOffset": 0, "byteLength": 4}));
        j["accessors"][a]["sparse"] = json!({
            "count": 1,
            "indices": {"bufferView": views, "componentType": 5121},
            "values": {"bufferView": views}
        });
    }));
    // Whatever the 4 bytes at the buffer start are, vertex 0 no longer sums to 1 (or the sparse
    // value view is too short for a VEC4 of floats).
    assert!(e.contains("sum") || e.contains("need") || e.contains("sparse"), "{e}");
    let e = error_text(edited(|j| {
        let s = j["animations"][0]["samplers"][0]["input"].as_u64().unwrap() as usize;
        let out = j["animations"][0]["samplers"][0]["output"].clone();
        j["animations"][0]["samplers"][0]["input"] = out;
        let _ = s;
    }));
    assert!(!e.is_empty());
}

#[test]
fn garbage_is_a_document_error() {
    for bytes in [&b""[..], b"{", b"[]", b"glTF", b"{\"asset\":{\"version\":\"1.0\"}}", b"\xff\xfe\x00"] {
        assert!(matches!(import(bytes, None), Err(GltfError::Document(_))), "{bytes:?}");
    }
    // A minimal valid document imports as an empty model.
    let empty = import(br#"{"asset":{"version":"2.0"}}"#, None).unwrap();
    assert!(empty.bones.is_empty() && empty.meshes.is_empty());
}

#[test]
fn every_truncation_fails_cleanly() {
    let glb = sample_glb();
    let limits = Limits::default();
    let mut failures = Vec::new();
    for t in testkit::truncations(&glb, 13) {
        if let Err(e) = testkit::check("truncation", t, limits, |b| import(b, None)) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn random_mutations_never_panic_or_overallocate() {
    let glb = sample_glb();
    let (json, bin) = split(&glb);
    let json_text = serde_json::to_vec(&json).unwrap();
    let limits = Limits::default();
    let mut rng = Rng::new(0x67_6c_54_46);
    let mut failures = Vec::new();
    let errors = std::cell::Cell::new(0);
    for i in 0..3000 {
        let count = 1 + rng.below(6);
        // Half the cases damage the container bytes, half the JSON inside a sound container.
        let input = if i % 2 == 0 {
            testkit::mutate(&glb, &mut rng, count)
        } else {
            let text = testkit::mutate(&json_text, &mut rng, count);
            let container = gltf::binary::Glb {
                header: gltf::binary::Header { magic: *b"glTF", version: 2, length: 0 },
                json: text.into(),
                bin: Some(bin.as_slice().into()),
            };
            container.to_vec().unwrap()
        };
        match testkit::check("mutation", &input, limits, |b| {
            let r = import(b, None);
            if r.is_err() {
                errors.set(errors.get() + 1);
            }
            r
        }) {
            Ok(()) => {}
            Err(e) => failures.push(format!("case {i}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(errors.get() > 100, "mutations should break most inputs ({} errors)", errors.get());
}

/// The densest JSON (empty objects) would cost gltf-json's typed document ~140 × its size: such
/// documents are refused; the densest accepted one stays within 48 × the input (+ 1 MiB).
#[test]
fn dense_json_is_refused_or_bounded() {
    let dense = |n: usize, object: &str| {
        let mut text = String::from(r#"{"asset":{"version":"2.0"},"nodes":["#);
        text.push_str(&vec![object; n].join(","));
        text.push_str("]}");
        text
    };
    let empty = dense(100_000, "{}");
    assert!(matches!(import(empty.as_bytes(), None), Err(GltfError::Document(e)) if e.contains("dense")));
    // 12 bytes per node: accepted, and bounded.
    let named = dense(100_000, r#"{"name":"b"}"#);
    let (result, peak) = testkit::peak_allocation(|| import(named.as_bytes(), None));
    assert!(result.is_ok(), "{result:?}");
    println!("{} bytes of JSON, peak {peak} bytes ({:.0}× the input)", named.len(), peak as f64 / named.len() as f64);
    let limits = Limits { per_input_byte: 48, ..Limits::default() };
    testkit::check("dense", named.as_bytes(), limits, |b| import(b, None)).unwrap();
}

/// Regression (gltf fuzz target): a POSITION accessor index past the accessor list made
/// gltf-json's own validation index out of bounds (a panic inside `Document::from_json`).
#[test]
fn a_position_accessor_out_of_range_is_a_document_error() {
    let e = error_text(edited(|j| j["meshes"][0]["primitives"][0]["attributes"]["POSITION"] = json!(999)));
    assert!(e.contains("POSITION") && e.contains("999"), "{e}");
}
