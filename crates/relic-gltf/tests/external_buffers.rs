//! Hostile documents found in review: `.gltf` buffer URIs that leave the document's folder or
//! name things that are not files, buffer files longer than they claim, a relic export whose
//! extras make the bake overflow, a deep node chain, and a mesh instanced many times.

// Test helpers: a failure must stop the test loudly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use relic_gltf::{ExportOptions, GltfError, export_glb, export_gltf, import, referenced_files, samples};
use relic_testkit::CountingAllocator;
use serde_json::{Value, json};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// The skinned sample as `.gltf` JSON (buffer URI `sample.bin`) and its buffer.
fn sample_gltf() -> (Value, Vec<u8>) {
    let (text, bin) = export_gltf(&samples::skinned_animated(), &ExportOptions::default(), "sample.bin").unwrap().value;
    (serde_json::from_str(&text).unwrap(), bin)
}

/// The sample document with its buffer URI replaced, as bytes.
fn with_uri(uri: &str) -> Vec<u8> {
    let (mut doc, _) = sample_gltf();
    doc["buffers"][0]["uri"] = json!(uri);
    serde_json::to_vec(&doc).unwrap()
}

/// `root/model` (the document's folder) and `root/secret/sample.bin` (a valid buffer outside it).
fn layout() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let root = tempfile::tempdir().unwrap();
    let model = root.path().join("model");
    let secret = root.path().join("secret");
    std::fs::create_dir_all(&model).unwrap();
    std::fs::create_dir_all(&secret).unwrap();
    let (_, bin) = sample_gltf();
    std::fs::write(secret.join("sample.bin"), &bin).unwrap();
    (root, model, secret.join("sample.bin"))
}

fn resource_problem(result: Result<relic_core::Model, GltfError>, uri: &str) -> String {
    match result {
        Ok(_) => panic!("{uri}: imported, but the buffer must be refused"),
        Err(GltfError::Resource { uri: stated, problem }) => {
            assert_eq!(stated, uri, "the error names the URI as the document states it");
            problem
        }
        Err(other) => panic!("{uri}: expected a resource error, got {other}"),
    }
}

#[test]
fn the_plain_sample_imports_from_its_folder_and_subfolders() {
    let (_root, model, secret) = layout();
    let bin = std::fs::read(&secret).unwrap();
    std::fs::write(model.join("sample.bin"), &bin).unwrap();
    std::fs::create_dir_all(model.join("buffers")).unwrap();
    std::fs::write(model.join("buffers/my model.bin"), &bin).unwrap();
    for uri in ["sample.bin", "./sample.bin", "buffers/my%20model.bin", "buffers/./my model.bin"] {
        assert!(import(&with_uri(uri), Some(&model)).is_ok(), "{uri}");
    }
}

#[test]
fn absolute_and_parent_uris_are_refused() {
    let (_root, model, secret) = layout();
    let absolute = secret.to_str().unwrap().to_string();
    let cases = [
        (absolute.clone(), "absolute"),
        (format!("file://{absolute}"), "scheme"),
        ("../secret/sample.bin".to_string(), ".."),
        ("%2E%2E/secret/sample.bin".to_string(), ".."),
        ("sub/../../secret/sample.bin".to_string(), ".."),
        ("..\\secret\\sample.bin".to_string(), ".."),
    ];
    for (uri, word) in &cases {
        let problem = resource_problem(import(&with_uri(uri), Some(&model)), uri);
        assert!(problem.contains(word), "{uri}: {problem}");
    }
    // Devices are absolute too; reading /dev/zero would never end.
    let problem = resource_problem(import(&with_uri("/dev/zero"), Some(&model)), "/dev/zero");
    assert!(problem.contains("absolute"), "{problem}");
}

#[cfg(unix)]
#[test]
fn a_symbolic_link_out_of_the_folder_is_refused() {
    let (_root, model, secret) = layout();
    std::os::unix::fs::symlink(&secret, model.join("link.bin")).unwrap();
    let problem = resource_problem(import(&with_uri("link.bin"), Some(&model)), "link.bin");
    assert!(problem.contains("outside"), "{problem}");
    // A link that stays inside the folder is fine.
    std::fs::copy(&secret, model.join("real.bin")).unwrap();
    std::os::unix::fs::symlink(model.join("real.bin"), model.join("inside.bin")).unwrap();
    assert!(import(&with_uri("inside.bin"), Some(&model)).is_ok());
}

#[test]
fn a_folder_is_not_a_buffer() {
    let (_root, model, _) = layout();
    std::fs::create_dir_all(model.join("dir.bin")).unwrap();
    let problem = resource_problem(import(&with_uri("dir.bin"), Some(&model)), "dir.bin");
    assert!(problem.contains("not a regular file"), "{problem}");
}

#[cfg(unix)]
#[test]
fn a_fifo_is_refused_without_hanging() {
    let (_root, model, _) = layout();
    let fifo = model.join("pipe.bin");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.as_ref().is_ok_and(std::process::ExitStatus::success) {
        // A printed skip here; under CI a failure (the FIFO case may not vanish there unseen).
        relic_testkit::skip_or_fail("a_fifo_is_refused_without_hanging", &format!("mkfifo failed: {made:?}"));
        return;
    }
    let (send, receive) = std::sync::mpsc::channel();
    let dir = model.clone();
    // Before the fix the read blocks forever waiting for a writer: run it on a thread.
    std::thread::spawn(move || {
        let _ = send.send(import(&with_uri("pipe.bin"), Some(&dir)).map(|_| ()));
    });
    // A watchdog of minutes: the read returns at once or blocks for ever (a hang).
    let result =
        receive.recv_timeout(relic_testkit::HANG_WATCHDOG).expect("hang: the import of a FIFO buffer never returned");
    let problem = resource_problem(result.map(|()| relic_core::Model::default()), "pipe.bin");
    assert!(problem.contains("not a regular file"), "{problem}");
}

#[test]
fn a_buffer_file_longer_than_byte_length_reads_only_byte_length() {
    let (_root, model, secret) = layout();
    let bin = std::fs::read(&secret).unwrap();
    let path = model.join("sample.bin");
    std::fs::write(&path, &bin).unwrap();
    // 256 MiB more than the document says (sparse: no disk space used).
    let extra = 256u64 << 20;
    std::fs::OpenOptions::new().write(true).open(&path).unwrap().set_len(bin.len() as u64 + extra).unwrap();
    let doc = with_uri("sample.bin");
    let (result, peak) = relic_testkit::peak_allocation(|| import(&doc, Some(&model)));
    let back = result.unwrap();
    assert_eq!(back.meshes.len(), samples::skinned_animated().meshes.len());
    if relic_testkit::counting_installed() {
        assert!(peak < 32 << 20, "import held {peak} bytes at peak: the whole file was read");
    }
}

#[test]
fn a_buffer_file_shorter_than_byte_length_is_refused() {
    let (_root, model, secret) = layout();
    let bin = std::fs::read(&secret).unwrap();
    std::fs::write(model.join("sample.bin"), &bin[..bin.len() - 1]).unwrap();
    let err = import(&with_uri("sample.bin"), Some(&model)).unwrap_err();
    assert!(err.to_string().contains("byteLength"), "{err}");
    assert!(err.to_string().contains("buffers[0]"), "{err}");
}

/// A relic export of the sample with global sequences whose extras say a period of 1e-30 s and a
/// clip of 3e38 s: `ceil(duration / period) + 1` overflowed in the bake on export.
#[test]
fn a_glb_whose_extras_make_the_bake_overflow_exports_without_panicking() {
    let glb = export_glb(&samples::flagged_bones(), &ExportOptions::default()).unwrap().value;
    let parsed = gltf::binary::Glb::from_slice(&glb).unwrap();
    let mut doc: Value = serde_json::from_slice(&parsed.json).unwrap();
    let bin = parsed.bin.unwrap().into_owned();
    // The scene's extras hold the model's as one JSON string (it survives Blender unchanged).
    let mut root_extras: Value = serde_json::from_str(doc["scenes"][0]["extras"]["relic"].as_str().unwrap()).unwrap();
    let sequences = root_extras["global_sequences"].as_array().unwrap().len();
    assert!(sequences > 0, "the sample has global sequences");
    root_extras["global_sequences"] = json!(vec![1e-30f32; sequences]);
    let clips = root_extras["animations"].as_array_mut().unwrap();
    assert!(!clips.is_empty(), "the clips' extras are on the scene");
    for clip in clips {
        clip["duration"] = json!(3e38f32);
    }
    doc["scenes"][0]["extras"]["relic"] = json!(root_extras.to_string());
    let crafted = gltf::binary::Glb {
        header: gltf::binary::Header { magic: *b"glTF", version: 2, length: 0 },
        json: serde_json::to_vec(&doc).unwrap().into(),
        bin: Some(bin.into()),
    }
    .to_vec()
    .unwrap();
    let model = import(&crafted, None).unwrap();
    assert_eq!(model.global_sequences, vec![1e-30; sequences]);
    assert!(model.animations.iter().all(|a| a.duration == 3e38), "the crafted durations are read");
    let outcome =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| export_glb(&model, &ExportOptions::default())));
    let glb = outcome.expect("export panicked").expect("the crafted model exports");
    // No blow-up: the global channels (a period of 1e-30 s in a 3e38 s clip) are not repeated
    // per period, and the grid stops at the sampling cap: every sampler's times count exactly.
    let back = gltf::Gltf::from_slice(&glb.value).unwrap();
    let counts: Vec<usize> =
        back.animations().map(|a| a.samplers().map(|s| s.input().count()).max().unwrap_or(0)).collect();
    assert_eq!(counts, [433], "sampler times of the exported clip");
    let baked: Vec<&str> = glb.losses.iter().map(|l| l.what.as_str()).filter(|w| w.contains("sample times")).collect();
    // 20 000 grid samples (the cap), the clip's two ends, and 60 in the swing's first seconds
    // where a straight line between two samples misses the arc of the bone that keeps its turn.
    assert_eq!(
        baked,
        ["3 bone(s) baked at 20062 sample times (flags glTF cannot express, or global sequences)"],
        "{:?}",
        glb.losses
    );
    assert!(import(&glb.value, None).is_ok());
}

/// A `.glb` of `json` and `bin`.
fn glb(json: &Value, bin: &[u8]) -> Vec<u8> {
    gltf::binary::Glb {
        header: gltf::binary::Header { magic: *b"glTF", version: 2, length: 0 },
        json: serde_json::to_vec(json).unwrap().into(),
        bin: Some(bin.into()),
    }
    .to_vec()
    .unwrap()
}

/// A chain of `n` nodes (each the child of the previous), every node a joint of one skin, and a
/// skinned triangle on a node beside the chain bound to the deepest joint.
fn deep_chain(n: usize) -> Vec<u8> {
    let mut bin = Vec::new();
    for p in [[0.0f32, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]] {
        bin.extend(p.iter().flat_map(|c| c.to_le_bytes()));
    }
    let joints_at = bin.len();
    for _ in 0..3 {
        bin.extend(((n - 1) as u16).to_le_bytes());
        bin.extend([0u8; 6]);
    }
    let weights_at = bin.len();
    for _ in 0..3 {
        bin.extend([1.0f32, 0.0, 0.0, 0.0].iter().flat_map(|c| c.to_le_bytes()));
    }
    let mut nodes: Vec<Value> = (0..n)
        .map(|i| if i + 1 < n { json!({ "children": [i + 1], "translation": [0.0, 0.1, 0.0] }) } else { json!({}) })
        .collect();
    nodes.push(json!({ "mesh": 0, "skin": 0 }));
    let doc = json!({
        "asset": { "version": "2.0" },
        "scene": 0,
        "scenes": [{ "nodes": [0, n] }],
        "nodes": nodes,
        "skins": [{ "joints": (0..n).collect::<Vec<_>>() }],
        "meshes": [{ "primitives": [{ "attributes": { "POSITION": 0, "JOINTS_0": 1, "WEIGHTS_0": 2 } }] }],
        "buffers": [{ "byteLength": bin.len() }],
        "bufferViews": [
            { "buffer": 0, "byteOffset": 0, "byteLength": joints_at },
            { "buffer": 0, "byteOffset": joints_at, "byteLength": weights_at - joints_at },
            { "buffer": 0, "byteOffset": weights_at, "byteLength": bin.len() - weights_at },
        ],
        "accessors": [
            { "bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
              "min": [0.0, 0.0, 0.0], "max": [1.0, 1.0, 0.0] },
            { "bufferView": 1, "componentType": 5123, "count": 3, "type": "VEC4" },
            { "bufferView": 2, "componentType": 5126, "count": 3, "type": "VEC4" },
        ],
    });
    glb(&doc, &bin)
}

/// The hierarchy steps of importing a chain of `n` nodes (the model must come back whole).
fn chain_steps(n: usize) -> u64 {
    let bytes = deep_chain(n);
    let before = relic_gltf::import::hierarchy_steps();
    let model = import(&bytes, None).unwrap_or_else(|e| panic!("a chain of {n} nodes: {e}"));
    let steps = relic_gltf::import::hierarchy_steps() - before;
    assert_eq!((model.bones.len(), model.meshes.len()), (n, 1), "a chain of {n} nodes");
    steps
}

#[test]
fn a_deep_node_chain_imports_in_linear_steps() {
    // A small chain first: the document is right.
    let small = import(&deep_chain(5), None).unwrap();
    assert_eq!(small.bones.len(), 5);
    assert_eq!(small.bones[4].parent, Some(3));
    // Linear, counted: every node costs the same steps of the hierarchy walks (a walk to the
    // root from every node, as import once did, costs 50 000² / 2 for the long chain).
    // 9 steps per node: 5 and 6 nodes, then 50 000.
    assert_eq!((chain_steps(5), chain_steps(6)), (5 * 9, 6 * 9), "hierarchy steps for 5 and 6 chained nodes");
    assert_eq!(chain_steps(50_000), 50_000 * 9, "hierarchy steps for 50 000 chained nodes");
}

/// One mesh of `vertices` vertices drawn by `instances` nodes: float positions, normalized i8
/// normals and u8 texture coordinates (decoded to 4 times their size), u16 indices.
fn instanced(vertices: usize, instances: usize) -> Vec<u8> {
    let mut bin = Vec::new();
    for v in 0..vertices {
        let x = (v % 256) as f32;
        let y = (v / 256) as f32;
        bin.extend([x, y, 0.0f32].iter().flat_map(|c| c.to_le_bytes()));
    }
    let normals_at = bin.len();
    for _ in 0..vertices {
        bin.extend([0u8, 0, 127]);
    }
    let uvs_at = bin.len();
    for v in 0..vertices {
        bin.extend([(v % 256) as u8, (v / 256 % 256) as u8]);
    }
    let indices_at = bin.len();
    let mut triangles = 0;
    for v in 0..vertices.saturating_sub(2) {
        for i in [v, v + 1, v + 2] {
            bin.extend((i as u16).to_le_bytes());
        }
        triangles += 1;
    }
    let max_y = ((vertices - 1) / 256) as f32;
    let nodes: Vec<Value> =
        (0..instances).map(|i| json!({ "mesh": 0, "translation": [0.0, 0.0, i as f32 * 2.0] })).collect();
    let view = |from: usize, to: usize| json!({ "buffer": 0, "byteOffset": from, "byteLength": to - from });
    let doc = json!({
        "asset": { "version": "2.0" },
        "scene": 0,
        "scenes": [{ "nodes": (0..instances).collect::<Vec<_>>() }],
        "nodes": nodes,
        "meshes": [{ "name": "rivet", "primitives": [{
            "attributes": { "POSITION": 0, "NORMAL": 2, "TEXCOORD_0": 3 }, "indices": 1 }] }],
        "buffers": [{ "byteLength": bin.len() }],
        "bufferViews": [
            view(0, normals_at), view(indices_at, bin.len()), view(normals_at, uvs_at), view(uvs_at, indices_at),
        ],
        "accessors": [
            { "bufferView": 0, "componentType": 5126, "count": vertices, "type": "VEC3",
              "min": [0.0, 0.0, 0.0], "max": [255.0, max_y, 0.0] },
            { "bufferView": 1, "componentType": 5123, "count": triangles * 3, "type": "SCALAR" },
            { "bufferView": 2, "componentType": 5120, "normalized": true, "count": vertices, "type": "VEC3" },
            { "bufferView": 3, "componentType": 5121, "normalized": true, "count": vertices, "type": "VEC2" },
        ],
    });
    glb(&doc, &bin)
}

#[test]
fn a_mesh_instanced_forty_times_imports() {
    let bytes = instanced(60_000, 40);
    let model = import(&bytes, None).unwrap();
    assert_eq!(model.meshes.len(), 40);
    for (i, mesh) in model.meshes.iter().enumerate() {
        assert_eq!(mesh.positions.len(), 60_000);
        assert_eq!(mesh.triangles.len(), 59_998);
        // Each instance is placed by its own node.
        assert_eq!(mesh.positions[1], [1.0, 0.0, i as f32 * 2.0], "instance {i}");
        assert_eq!(mesh.normals[1], [0.0, 0.0, 1.0]);
        assert_eq!(mesh.uv_sets[0][257], [1.0 / 255.0, 1.0 / 255.0]);
    }
}

#[test]
fn copies_of_an_instanced_mesh_are_bounded_by_the_input_size() {
    let bytes = instanced(3000, 2000);
    let (result, peak) = relic_testkit::peak_allocation(|| import(&bytes, None));
    let err = result.expect_err("2000 copies of a 3000-vertex mesh from a small file");
    // Refused at the copy the budget no longer covers: nodes 0–254 got theirs (255 copies of
    // 131 976 bytes), node 255 is named. Counted, not timed: the work stops there.
    assert!(matches!(&err, GltfError::Invalid { element, .. } if element == "nodes[255]"), "{err}");
    assert!(err.to_string().contains("another copy of mesh 0"), "{err}");
    if relic_testkit::counting_installed() {
        assert!(peak < 64 * bytes.len() + (64 << 20), "{peak} bytes at peak for a {} byte input", bytes.len());
    }
}

#[test]
fn a_skinned_mesh_drawn_by_two_skins_gets_each_skins_bones() {
    // The deep chain's skinned triangle, drawn again by a node whose skin lists the root joint.
    let bytes = deep_chain(3);
    let parsed = gltf::binary::Glb::from_slice(&bytes).unwrap();
    let mut doc: Value = serde_json::from_slice(&parsed.json).unwrap();
    let bin = parsed.bin.unwrap().into_owned();
    // Joint index 2 of the second skin is node 0.
    doc["skins"].as_array_mut().unwrap().push(json!({ "joints": [2, 1, 0] }));
    doc["nodes"].as_array_mut().unwrap().push(json!({ "mesh": 0, "skin": 1 }));
    doc["scenes"][0]["nodes"].as_array_mut().unwrap().push(json!(4));
    let model = import(&glb(&doc, &bin), None).unwrap();
    assert_eq!(model.meshes.len(), 2);
    let bone_of = |m: usize| model.meshes[m].skin.influences[0].bone as usize;
    assert_eq!(model.bones[bone_of(0)].name, "bone_2");
    assert_eq!(model.bones[bone_of(1)].name, "bone_0");
    assert_eq!(model.meshes[0].positions, model.meshes[1].positions);
}

#[test]
fn referenced_files_names_external_buffers_and_images_but_not_data_uris() {
    let (mut doc, _) = sample_gltf();
    doc["images"] =
        json!([{ "uri": "tex/skin%20a.png" }, { "uri": "data:image/png;base64,AAAA" }, { "uri": "/abs.png" }]);
    let bytes = serde_json::to_vec(&doc).unwrap();
    let dir = std::path::Path::new("models");
    let files = referenced_files(&bytes, dir).unwrap();
    assert_eq!(files, [dir.join("sample.bin"), dir.join("tex/skin a.png"), std::path::PathBuf::from("/abs.png")]);
    // A glb's own chunk is no file.
    let glb = export_glb(&samples::skinned_animated(), &ExportOptions::default()).unwrap().value;
    assert!(referenced_files(&glb, dir).unwrap().is_empty());
}
