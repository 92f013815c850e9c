//! The command on LTB files: `info` names what a `.ltb` is (a model, or a PS2 model, a world file),
//! `convert` goes to glb and back with every count equal, `batch` converts the models of a folder
//! and reports the files that are not models.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use std::path::Path;

use assert_cmd::Command;

fn fixture(rel: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures").join(rel)
}

fn relic() -> Command {
    Command::cargo_bin("relic").unwrap()
}

#[test]
fn info_names_what_a_file_called_ltb_is() {
    let out = relic().args(["info", "--json"]).arg(fixture("ltb/v25_wrapped.ltb")).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("\"lzma_wrapped\":1") && text.contains("\"nodes\":3"), "{text}");
    for (rel, says) in
        [("ltb/hostile/world_file.ltb", "LithTech world file"), ("ltb/hostile/ps2_model.ltb", "PlayStation 2 model")]
    {
        let out = relic().arg("info").arg(fixture(rel)).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{rel}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{rel}: {err}");
    }
}

#[test]
fn convert_to_glb_and_back_keeps_every_count() {
    let dir = tempfile::tempdir().unwrap();
    let glb = dir.path().join("full.glb");
    let back = dir.path().join("full.ltb");
    let source = fixture("ltb/v25_wrapped.ltb");
    relic().arg("convert").arg(&source).arg(&glb).assert().success();
    let out = relic().arg("convert").arg(&glb).arg(&back).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("0 differ"), "{err}");
    assert_eq!(std::fs::read(&back).unwrap(), std::fs::read(&source).unwrap());
}

#[test]
fn batch_converts_the_models_and_names_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    std::fs::create_dir_all(&input).unwrap();
    for rel in ["ltb/v24_skeletal.ltb", "ltb/v25_vertex_animated.ltb", "ltb/hostile/world_file.ltb"] {
        std::fs::copy(fixture(rel), input.join(Path::new(rel).file_name().unwrap())).unwrap();
    }
    let out = relic().arg("batch").arg(&input).arg(dir.path().join("out")).args(["--to", "glb"]).output().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(
        dir.path().join("out/v24_skeletal.glb").is_file() && dir.path().join("out/v25_vertex_animated.glb").is_file(),
        "{text}"
    );
    assert!(text.contains("world"), "{text}");
}

/// Pieces and LODs that draw nothing (null, unknown types) have no glTF mesh: they come back from
/// the extras.
#[test]
fn empty_pieces_and_lods_survive_gltf() {
    let dir = tempfile::tempdir().unwrap();
    for rel in ["ltb/v25_opaque_object.ltb", "ltb/v25_full.ltb", "ltb/v25_geometry_less.ltb"] {
        let glb = dir.path().join("x.glb");
        let back = dir.path().join("x.ltb");
        relic().arg("convert").arg(fixture(rel)).arg(&glb).arg("--force").assert().success();
        relic().arg("convert").arg(&glb).arg(&back).arg("--force").assert().success();
        assert_eq!(std::fs::read(&back).unwrap(), std::fs::read(fixture(rel)).unwrap(), "{rel}");
    }
}
