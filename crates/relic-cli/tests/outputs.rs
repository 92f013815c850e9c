//! Outputs that would land on other files: two batch inputs that map to the same output, and a
//! conversion whose output would replace a file a `.gltf` input refers to (its `.bin`, images).

// Test helpers may unwrap and index: a failure is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures").join(rel)
}

fn run(args: &[&str]) -> Output {
    Command::cargo_bin("relic").unwrap().args(args).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Names of the files in `dir` (not recursive), sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut out: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    out.sort();
    out
}

#[test]
fn batch_reports_inputs_that_map_to_the_same_output_and_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("game");
    std::fs::create_dir_all(input.join("sub")).unwrap();
    std::fs::copy(fixture("abc/v12_full.abc"), input.join("walk.abc")).unwrap();
    std::fs::copy(fixture("m2/v256_linear.m2"), input.join("walk.m2")).unwrap();
    std::fs::copy(fixture("abc/v6_basic.abc"), input.join("other.abc")).unwrap();
    // Not a model: skipped, so it collides with nothing.
    std::fs::write(input.join("sub/run.txt"), "notes").unwrap();
    std::fs::copy(fixture("abc/v6_basic.abc"), input.join("sub/run.abc")).unwrap();
    let output = dir.path().join("out");

    for force in [false, true] {
        for to in ["glb", "gltf"] {
            let mut args = vec!["batch", path(&input), path(&output), "--to", to, "--jobs", "2", "--no-progress"];
            if force {
                args.push("--force");
            }
            let out = run(&args);
            let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
            assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
            let summary = stdout.lines().last().unwrap();
            // The notes: the two v6 models' skin (slot 0), which no SKINS folder holds here.
            assert!(
                summary.starts_with(
                    "batch: 2 converted, 0 skipped (exists), 1 skipped (not models), 2 failed, 2 notes; 5 files"
                ),
                "{summary}"
            );
            // Each colliding input is reported, naming the other and the shared output.
            for (me, other) in [("walk.abc", "walk.m2"), ("walk.m2", "walk.abc")] {
                let line = stderr
                    .lines()
                    .find(|l| l.starts_with("FAIL") && l.contains(&format!("{me}: ")))
                    .unwrap_or_else(|| panic!("{me} is not reported:\n{stderr}"));
                assert!(line.contains(other), "{line}");
                assert!(line.contains(&format!("walk.{to}")), "{line}");
            }
            // Nothing was written for them, with or without --force.
            assert!(!output.join(format!("walk.{to}")).exists(), "{to}: a colliding output was written");
            assert!(!output.join("walk.bin").exists());
            assert!(output.join(format!("other.{to}")).exists());
            assert!(output.join(format!("sub/run.{to}")).exists());
        }
    }
    // An existing output of that name is kept, even with --force.
    std::fs::write(output.join("walk.glb"), b"keep me").unwrap();
    let out = run(&["batch", path(&input), path(&output), "--to", "glb", "--force", "--no-progress"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(std::fs::read(output.join("walk.glb")).unwrap(), b"keep me");
    // The inputs are untouched and no temporary file is left.
    assert_eq!(std::fs::read(input.join("walk.abc")).unwrap(), std::fs::read(fixture("abc/v12_full.abc")).unwrap());
    assert!(names(&output).iter().all(|n| !n.contains("relic-tmp")), "{:?}", names(&output));
}

#[test]
fn one_model_beside_a_file_that_is_not_one_converts() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("game");
    std::fs::create_dir_all(&input).unwrap();
    std::fs::copy(fixture("abc/v12_full.abc"), input.join("walk.abc")).unwrap();
    std::fs::write(input.join("walk.txt"), "notes").unwrap();
    std::fs::copy(fixture("nod/walk.nad"), input.join("walk.nad")).unwrap();
    let output = dir.path().join("out");
    let out = run(&["batch", path(&input), path(&output), "--to", "glb", "--no-progress"]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    assert!(stdout.contains("batch: 1 converted, 0 skipped (exists), 2 skipped (not models), 0 failed"), "{stdout}");
    assert!(std::fs::read(output.join("walk.glb")).unwrap().starts_with(b"glTF"));
}

#[test]
fn convert_refuses_to_overwrite_the_files_a_gltf_input_refers_to() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // a.gltf whose buffer is b.bin, and whose image is c.bin.
    let out = run(&["convert", path(&fixture("abc/v12_full.abc")), path(&d.join("b.gltf"))]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mut doc: serde_json::Value = serde_json::from_slice(&std::fs::read(d.join("b.gltf")).unwrap()).unwrap();
    assert_eq!(doc["buffers"][0]["uri"], "b.bin");
    doc["images"] = serde_json::json!([{ "uri": "c.bin" }]);
    std::fs::write(d.join("a.gltf"), serde_json::to_vec(&doc).unwrap()).unwrap();
    std::fs::remove_file(d.join("b.gltf")).unwrap();
    std::fs::write(d.join("c.bin"), b"image bytes").unwrap();
    let buffer = std::fs::read(d.join("b.bin")).unwrap();
    let before = names(d);

    for (output, protected) in [("b.gltf", "b.bin"), ("c.gltf", "c.bin")] {
        let out = run(&["convert", path(&d.join("a.gltf")), path(&d.join(output)), "--force"]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{output}: {stderr}");
        // One error line after the notes (the model's skin slots, which no SKINS folder holds).
        let errors: Vec<&str> = stderr.lines().filter(|l| !l.starts_with("relic: note:")).collect();
        assert_eq!(errors.len(), 1, "{stderr}");
        assert!(errors[0].contains(protected) && errors[0].contains("input"), "{stderr}");
        assert_eq!(names(d), before, "{output}: nothing is written");
    }
    assert_eq!(std::fs::read(d.join("b.bin")).unwrap(), buffer);
    assert_eq!(std::fs::read(d.join("c.bin")).unwrap(), b"image bytes");
    // Elsewhere it converts.
    let out = run(&["convert", path(&d.join("a.gltf")), path(&d.join("e.gltf"))]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(d.join("e.bin").exists());
}

#[test]
fn batch_never_overwrites_a_file_a_gltf_input_refers_to() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("game");
    let output = dir.path().join("out");
    std::fs::create_dir_all(&input).unwrap();
    std::fs::create_dir_all(&output).unwrap();
    let out = run(&["convert", path(&fixture("abc/v12_full.abc")), path(&input.join("a.gltf"))]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // Its image lies in the output folder, where the batch writes a.gltf's new .bin.
    let mut doc: serde_json::Value = serde_json::from_slice(&std::fs::read(input.join("a.gltf")).unwrap()).unwrap();
    doc["images"] = serde_json::json!([{ "uri": "../out/a.bin" }]);
    std::fs::write(input.join("a.gltf"), serde_json::to_vec(&doc).unwrap()).unwrap();
    std::fs::write(output.join("a.bin"), b"image bytes").unwrap();
    let out = run(&["batch", path(&input), path(&output), "--to", "gltf", "--force", "--no-progress"]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(stdout.contains("batch: 0 converted, 0 skipped (exists), 1 skipped (not models), 1 failed"), "{stdout}");
    assert!(stderr.contains("a.bin is an input file"), "{stderr}");
    assert_eq!(std::fs::read(output.join("a.bin")).unwrap(), b"image bytes");
    assert!(!output.join("a.gltf").exists());
}
