//! Import of damaged and hostile glTF: typed errors, never a panic, a hang or a giant allocation.

// Test helpers: a failure must stop the test loudly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use relic_gltf::{ExportOptions, GltfError, export_glb, import, samples};
use relic_testkit::{CountingAllocator, Limits, Rng};
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
    relic_testkit::check("edited", &bytes, limits, |b| {
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

/// A base64 data URI holding `bytes`, to add a buffer the edits below control.
fn data_uri(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::from("data:application/octet-stream;base64,");
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            let c = if i <= chunk.len() { ALPHABET[(n >> (18 - 6 * i) & 63) as usize] } else { b'=' };
            out.push(c as char);
        }
    }
    out
}

/// Adds a buffer holding `bytes` and one view per `(offset, length)` of it; returns the index of
/// the first view.
fn add_buffer(j: &mut Value, bytes: &[u8], views: &[(usize, usize)]) -> usize {
    let buffer = j["buffers"].as_array().unwrap().len();
    j["buffers"].as_array_mut().unwrap().push(json!({"byteLength": bytes.len(), "uri": data_uri(bytes)}));
    let first = j["bufferViews"].as_array().unwrap().len();
    for &(offset, length) in views {
        j["bufferViews"]
            .as_array_mut()
            .unwrap()
            .push(json!({"buffer": buffer, "byteOffset": offset, "byteLength": length}));
    }
    first
}

#[test]
fn data_uri_encodes_what_the_reader_decodes() {
    // The test's own encoder, checked against known base64 text.
    assert_eq!(data_uri(b"Man"), "data:application/octet-stream;base64,TWFu");
    assert_eq!(data_uri(b"Ma"), "data:application/octet-stream;base64,TWE=");
    assert_eq!(data_uri(b"M"), "data:application/octet-stream;base64,TQ==");
}

#[test]
fn bad_weights_and_times_are_refused() {
    // Vertex 0 of the face mesh (skinned) gets the weights (0.2, 0, 0, 0) through a sparse
    // override: they sum to 0.2. (Its weights are stored as normalized bytes, as every weight of
    // the sample is a multiple of 1/255; a float accessor gets float values.)
    let e = error_text(edited(|j| {
        let a = j["meshes"][2]["primitives"][0]["attributes"]["WEIGHTS_0"].as_u64().unwrap() as usize;
        let mut bytes = vec![0u8; 4];
        match j["accessors"][a]["componentType"].as_u64() {
            Some(5126) => [0.2f32, 0.0, 0.0, 0.0].iter().for_each(|w| bytes.extend(w.to_le_bytes())),
            Some(5121) => bytes.extend([51u8, 0, 0, 0]),
            other => panic!("weights of component type {other:?}"),
        }
        let views = add_buffer(j, &bytes, &[(0, 1), (4, bytes.len() - 4)]);
        j["accessors"][a]["sparse"] = json!({
            "count": 1,
            "indices": {"bufferView": views, "componentType": 5121},
            "values": {"bufferView": views + 1}
        });
    }));
    assert!(e.contains("vertex 0 weights sum to 0.2, not 1"), "{e}");
    // The first clip's first sampler gets key times that go backwards (same count as before).
    let e = error_text(edited(|j| {
        let input = j["animations"][0]["samplers"][0]["input"].as_u64().unwrap() as usize;
        let count = j["accessors"][input]["count"].as_u64().unwrap() as usize;
        assert!(count >= 2, "the sampler needs two keys for the test");
        let bytes: Vec<u8> = (0..count).map(|k| (count - k) as f32).flat_map(f32::to_le_bytes).collect();
        let view = add_buffer(j, &bytes, &[(0, bytes.len())]);
        let accessors = j["accessors"].as_array().unwrap().len();
        j["accessors"].as_array_mut().unwrap().push(json!({
            "bufferView": view, "componentType": 5126, "count": count, "type": "SCALAR",
            "min": [1.0], "max": [count as f32]
        }));
        j["animations"][0]["samplers"][0]["input"] = json!(accessors);
    }));
    assert!(e.contains("key time 1 does not come after the previous one"), "{e}");
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
    for t in relic_testkit::truncations(&glb, 13) {
        if let Err(e) = relic_testkit::check("truncation", t, limits, |b| import(b, None)) {
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
            relic_testkit::mutate(&glb, &mut rng, count)
        } else {
            let text = relic_testkit::mutate(&json_text, &mut rng, count);
            let container = gltf::binary::Glb {
                header: gltf::binary::Header { magic: *b"glTF", version: 2, length: 0 },
                json: text.into(),
                bin: Some(bin.as_slice().into()),
            };
            container.to_vec().unwrap()
        };
        match relic_testkit::check("mutation", &input, limits, |b| {
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
    let (result, peak) = relic_testkit::peak_allocation(|| import(named.as_bytes(), None));
    assert!(result.is_ok(), "{result:?}");
    println!("{} bytes of JSON, peak {peak} bytes ({:.0}× the input)", named.len(), peak as f64 / named.len() as f64);
    let limits = Limits { per_input_byte: 48, ..Limits::default() };
    relic_testkit::check("dense", named.as_bytes(), limits, |b| import(b, None)).unwrap();
}

/// Regression (gltf fuzz target): a POSITION accessor index past the accessor list made
/// gltf-json's own validation index out of bounds (a panic inside `Document::from_json`).
#[test]
fn a_position_accessor_out_of_range_is_a_document_error() {
    let e = error_text(edited(|j| j["meshes"][0]["primitives"][0]["attributes"]["POSITION"] = json!(999)));
    assert!(e.contains("POSITION") && e.contains("999"), "{e}");
}

// ---- the shared battery ------------------------------------------------------------------------

/// The smallest useful export: one bone, one skinned triangle with normals and UVs (a skin, a
/// mesh, a node tree), small enough for every truncation and every single-byte change.
fn small_glb() -> Vec<u8> {
    use relic_core::model::{Influence, Mesh, Model, Skin};
    let one = |_| [Influence { bone: 0, weight: 1.0 }];
    let mesh = Mesh {
        name: "triangle".into(),
        positions: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
        normals: vec![[0.0, 0.0, 1.0]; 3],
        uv_sets: vec![vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]],
        skin: Skin::from_vertices((0..3).map(one)),
        triangles: vec![[0, 1, 2]],
        ..Mesh::default()
    };
    let model = Model {
        name: "triangle".into(),
        bones: relic_testkit::bone_chain(1, "bone"),
        meshes: vec![mesh],
        ..Model::default()
    };
    export_glb(&model, &ExportOptions::default()).unwrap().value
}

/// Import under the limits, and whatever imports is a valid model (import's promise).
fn import_checked(b: &[u8]) -> Result<relic_core::Model, String> {
    let model = import(b, None).map_err(|e| e.to_string())?;
    model.validate().map_err(|e| format!("import returned an invalid model: {e}"))?;
    Ok(model)
}

fn harness<'a>() -> relic_testkit::Harness<'a> {
    relic_testkit::Harness::new().reader("import", |b: &[u8]| match import_checked(b) {
        Err(e) if e.starts_with("import returned") => panic!("{e}"),
        other => other,
    })
}

#[test]
fn every_truncation_and_single_byte_change_of_a_small_export() {
    let glb = small_glb();
    assert!(glb.len() < 4096, "{} bytes", glb.len());
    let mut h = harness();
    h.truncations("triangle.glb", &glb);
    h.byte_changes("triangle.glb", &glb);
    println!("{} inputs ({} bytes), {} imported", h.inputs(), glb.len(), h.accepted());
    h.finish();
}

#[test]
fn ten_thousand_random_mutations() {
    let inputs = [("triangle.glb", small_glb()), ("skinned_animated.glb", sample_glb())];
    let mut h = harness();
    let mut rng = Rng::new(0x6C7F_0010);
    for (name, bytes) in &inputs {
        h.mutations(name, bytes, &mut rng, 5_000);
    }
    assert!(h.inputs() >= 10_000);
    h.finish();
}

/// The JSON's counts and offsets (accessor `count` and `byteOffset`, view `byteLength`,
/// `byteOffset` and `byteStride`, buffer `byteLength`, the GLB header's total length and chunk
/// lengths) set to 0, 1, 2^16, 2^31 and 2^32 − 1: refused or imported, within the limits.
#[test]
fn hostile_counts_and_offsets() {
    let mut h = harness();
    let (json, bin) = split(&sample_glb());
    let accessors = json["accessors"].as_array().unwrap().len();
    let views = json["bufferViews"].as_array().unwrap().len();
    for value in relic_testkit::COUNT_VALUES.map(u64::from) {
        for a in (0..accessors).step_by(3) {
            for field in ["count", "byteOffset"] {
                let mut j = json.clone();
                j["accessors"][a][field] = json!(value);
                h.input(&format!("accessors[{a}].{field} = {value}"), &join(&j, &bin));
            }
        }
        for v in 0..views {
            for field in ["byteLength", "byteOffset", "byteStride"] {
                let mut j = json.clone();
                j["bufferViews"][v][field] = json!(value);
                h.input(&format!("bufferViews[{v}].{field} = {value}"), &join(&j, &bin));
            }
        }
        let mut j = json.clone();
        j["buffers"][0]["byteLength"] = json!(value);
        h.input(&format!("buffers[0].byteLength = {value}"), &join(&j, &bin));
    }
    // GLB header: total length at 8, JSON chunk length at 12, BIN chunk length after the JSON.
    let glb = sample_glb();
    let json_len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let fields = [
        relic_testkit::Field::u32("header.length", 8),
        relic_testkit::Field::u32("json_chunk.length", 12),
        relic_testkit::Field::u32("bin_chunk.length", 20 + json_len),
    ];
    h.fields("skinned_animated.glb", &glb, &fields, &relic_testkit::COUNT_VALUES);
    h.fields("skinned_animated.glb", &glb, &fields, &relic_testkit::offset_values(glb.len()));
    h.finish();
}

/// NaN and ±∞ in the binary data of every float accessor (positions, normals, UVs, weights,
/// inverse bind matrices, key times and values, morph deltas): import refuses them or returns a
/// valid model, never one with a non-finite value.
#[test]
fn non_finite_floats_in_every_float_accessor() {
    let glb = sample_glb();
    let (json, bin) = split(&glb);
    let mut h = harness();
    let mut refused = 0;
    for (a, accessor) in json["accessors"].as_array().unwrap().iter().enumerate() {
        if accessor["componentType"] != json!(5126) || accessor.get("bufferView").is_none() {
            continue;
        }
        let view = &json["bufferViews"][accessor["bufferView"].as_u64().unwrap() as usize];
        let start = view["byteOffset"].as_u64().unwrap_or(0) + accessor["byteOffset"].as_u64().unwrap_or(0);
        let count = accessor["count"].as_u64().unwrap();
        let stride = view["byteStride"].as_u64().unwrap_or(0);
        let width = match accessor["type"].as_str().unwrap() {
            "SCALAR" => 4,
            "VEC2" => 8,
            "VEC3" => 12,
            "VEC4" => 16,
            _ => 64,
        };
        let element = if stride > 0 { stride } else { width };
        // The first and the last element's first component.
        for at in [start, start + element * (count - 1)] {
            for bad in relic_testkit::BAD_FLOATS {
                let mut b = bin.clone();
                b[at as usize..at as usize + 4].copy_from_slice(&bad.to_le_bytes());
                let input = join(&json, &b);
                h.input(&format!("accessors[{a}] ({}) at {at} = {bad}", accessor["type"]), &input);
                refused += usize::from(import(&input, None).is_err());
            }
        }
    }
    println!("{} inputs, {refused} refused", h.inputs());
    assert!(h.inputs() > 50 && refused > 0);
    h.finish();
}

/// The fuzz findings of issue 42 (`fixtures/gltf/hostile/fuzz_timeline_*.glb`): models the M2 v264
/// writer wrote into files its own reader refused ("the sequences' durations add up past the u32
/// milliseconds of one timeline"). Every M2 version either refuses the model or writes a file
/// its reader reads back.
#[test]
fn fuzz_found_models_are_written_only_as_their_reader_reads_them() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/gltf/hostile");
    let findings: Vec<_> = relic_testkit::files_with_extension(&dir, "glb")
        .into_iter()
        .filter(|(n, _)| n.starts_with("fuzz_timeline_"))
        .collect();
    assert_eq!(findings.len(), 2);
    for (name, glb) in findings {
        let model = import(&glb, None).unwrap_or_else(|e| panic!("{name}: {e}"));
        model.validate().unwrap();
        for version in [256, 263, 264, 272] {
            let options = relic_core::WriteOptions { version: Some(version) };
            let written = match relic_m2::write_files(&model, &options) {
                Ok(written) => written,
                Err(e) => {
                    // The Wrath writer refuses, saying why, what its reader would refuse.
                    assert!(version >= 264 && e.to_string().contains("cannot hold these sequences"), "{name}: {e}");
                    continue;
                }
            };
            let siblings = written.value.siblings.iter().map(|s| (format!("fuzz{}", s.suffix), s.bytes.clone()));
            let siblings = relic_core::format::SiblingBytes(siblings.collect());
            let input = relic_core::format::Input { bytes: &written.value.bytes, name: "fuzz.m2", siblings: &siblings };
            relic_m2::read_input(&input).unwrap_or_else(|e| panic!("{name} as M2 {version}: not read back: {e}"));
        }
    }
}

/// The gltf campaign's finding of issue 42 (`fixtures/gltf/hostile/fuzz_degenerate_bind_*.glb`):
/// a stored inverse bind matrix that is not the bind matrix's inverse (values to 9e35) passes
/// `validate()` (finiteness only); the export derives ±∞ from it, and the re-import refuses it as
/// invalid. That is the known limit of fuzz/README.md (a bound on magnitudes and an inverse check
/// in `validate()` would close it): nothing panics, no invalid model comes back.
#[test]
fn a_degenerate_bind_matrix_is_the_known_limit() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/gltf/hostile");
    let glb = std::fs::read(dir.join("fuzz_degenerate_bind_a2ffe05f.glb")).unwrap();
    let model = import(&glb, None).unwrap();
    model.validate().unwrap();
    let out = export_glb(&model, &ExportOptions::default()).unwrap();
    let e = error_text(import(&out.value, None));
    assert!(e.contains("not finite"), "{e}");
}

/// A document requiring an extension relic does not read (Draco mesh compression, assimp's test
/// suite) is refused naming it, not by its consequences ("accessors[0].bufferView: Missing data"
/// for every Draco accessor, as gltf-json reports them); an extension relic reads may be required.
#[test]
fn a_required_extension_relic_does_not_read_is_refused_by_name() {
    let e = error_text(edited(|j| {
        j["extensionsUsed"] = json!(["KHR_draco_mesh_compression"]);
        j["extensionsRequired"] = json!(["KHR_draco_mesh_compression"]);
        j["accessors"][0].as_object_mut().unwrap().remove("bufferView");
    }));
    assert!(e.contains("requires the extension(s) KHR_draco_mesh_compression"), "{e}");
    assert!(!e.contains("Missing data"), "{e}");
    assert!(
        edited(|j| {
            j["extensionsUsed"] = json!(["KHR_materials_unlit"]);
            j["extensionsRequired"] = json!(["KHR_materials_unlit"]);
        })
        .is_ok()
    );
}

/// The gltf campaign's finding of 2026-12-03 (`fixtures/gltf/hostile/fuzz_abc_far_vertex_*.glb`):
/// a model carrying ABC extras whose vertex lies beyond the grid cells `from_ir::merge` files
/// vertices in (a coordinate over 2⁶³ cells of 4e-3) overflowed the neighbouring cell's index.
/// Every ABC version now writes it or refuses it.
#[test]
fn a_vertex_beyond_the_merge_grid_is_written_or_refused() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/gltf/hostile");
    let findings: Vec<_> = relic_testkit::files_with_extension(&dir, "glb")
        .into_iter()
        .filter(|(n, _)| n.starts_with("fuzz_abc_far_vertex_"))
        .collect();
    assert_eq!(findings.len(), 1);
    for (name, glb) in findings {
        let model = import(&glb, None).unwrap_or_else(|e| panic!("{name}: {e}"));
        for version in [6, 9, 10, 11, 12, 13] {
            let options = relic_core::WriteOptions { version: Some(version) };
            if let Ok(written) = relic_abc::write_model(&model, &options) {
                relic_abc::read_model(&written.value).unwrap_or_else(|e| panic!("{name} as ABC {version}: {e}"));
            }
        }
    }
}
