//! Hostile documents found in review: `.gltf` buffer URIs that leave the document's folder or
//! name things that are not files, buffer files longer than they claim, and a relic export whose
//! extras make the bake overflow.

// Test helpers: a failure must stop the test loudly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use std::time::{Duration, Instant};

use relic_core::testkit::{self, CountingAllocator};
use relic_gltf::{ExportOptions, GltfError, export_glb, export_gltf, import, samples};
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
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipping: mkfifo is not available");
        return;
    }
    let (send, receive) = std::sync::mpsc::channel();
    let dir = model.clone();
    // Before the fix the read blocks forever waiting for a writer: run it on a thread.
    std::thread::spawn(move || {
        let _ = send.send(import(&with_uri("pipe.bin"), Some(&dir)).map(|_| ()));
    });
    let result = receive.recv_timeout(Duration::from_secs(10)).expect("import of a FIFO buffer hangs");
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
    let (result, peak) = testkit::peak_allocation(|| import(&doc, Some(&model)));
    let back = result.unwrap();
    assert_eq!(back.meshes.len(), samples::skinned_animated().meshes.len());
    if testkit::counting_installed() {
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
    let sequences = doc["extras"]["relic"]["global_sequences"].as_array().unwrap().len();
    assert!(sequences > 0, "the sample has global sequences");
    doc["extras"]["relic"]["global_sequences"] = json!(vec![1e-30f32; sequences]);
    for anim in doc["animations"].as_array_mut().unwrap() {
        anim["extras"]["relic"]["duration"] = json!(3e38f32);
    }
    let crafted = gltf::binary::Glb {
        header: gltf::binary::Header { magic: *b"glTF", version: 2, length: 0 },
        json: serde_json::to_vec(&doc).unwrap().into(),
        bin: Some(bin.into()),
    }
    .to_vec()
    .unwrap();
    let model = import(&crafted, None).unwrap();
    assert_eq!(model.global_sequences, vec![1e-30; sequences]);
    let started = Instant::now();
    let outcome =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| export_glb(&model, &ExportOptions::default())));
    let exported = outcome.expect("export panicked");
    assert!(started.elapsed() < Duration::from_secs(20), "export took {:?}", started.elapsed());
    if let Ok(glb) = exported {
        assert!(import(&glb.value, None).is_ok());
    }
}
