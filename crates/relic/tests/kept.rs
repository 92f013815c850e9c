//! The game file a model was read from travels with it through glTF and is written back as it
//! was while the model is still its model (`relic/src/kept.rs`, `relic_core::still`): byte for
//! byte with the files beside it; an edited model is built from the model, the comparison with the
//! original naming what changed; a kept file's name is never a path.

// Test helpers: a failure must stop the test loudly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use std::path::{Path, PathBuf};

use relic::{ConvertOptions, Target};

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures").join(rel)
}

/// `path` → glb (as `relic convert` writes it) → the model read back from the glb.
fn through_glb(path: &Path, test: &str) -> relic::Model {
    let dir = std::env::temp_dir().join(format!("relic-kept-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let opened = relic::open(path).unwrap();
    let glb = dir.join("model.glb");
    let written =
        relic::convert(&opened.model, Target::from_name("glb").unwrap(), &glb, &ConvertOptions::default()).unwrap();
    std::fs::write(&glb, &written.value[0].1).unwrap();
    let back = relic::open(&glb).unwrap().model;
    std::fs::remove_dir_all(&dir).ok();
    back
}

/// `model` converted to `out` in its original's format: the files and the notes, and whether the
/// kept game file went back as it was.
fn back_compared(model: &relic::Model, out: &str) -> (relic::Outputs, Option<Result<(), String>>) {
    let target = Target::for_path(Path::new(out)).unwrap();
    let registry = relic::Registry::builtin();
    let (written, compared) =
        registry.convert_compared(model, target, Path::new(out), &ConvertOptions::default()).unwrap();
    (written, compared.and_then(|c| c.kept))
}

fn back(model: &relic::Model, out: &str) -> relic::Outputs {
    back_compared(model, out).0
}

#[test]
fn an_unedited_model_comes_back_from_glb_byte_for_byte_with_its_skin_files() {
    let m2 = fixture("m2-wrath/v264_skins.m2");
    let model = through_glb(&m2, "m2");
    let files: Vec<&str> = model.original.as_ref().unwrap().files.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(files, ["v264_skins.m2", "v264_skins00.skin", "v264_skins01.skin", "v264_skins02.skin"]);
    let (written, kept) = back_compared(&model, "/out/Edited.m2");
    assert_eq!(kept, Some(Ok(())));
    let names: Vec<String> = written.value.iter().map(|(p, _)| p.display().to_string()).collect();
    assert_eq!(names, ["/out/Edited.m2", "/out/Edited00.skin", "/out/Edited01.skin", "/out/Edited02.skin"]);
    for ((_, bytes), name) in written.value.iter().zip(&files) {
        assert!(*bytes == std::fs::read(fixture(&format!("m2-wrath/{name}"))).unwrap(), "{name}");
    }
    let abc = fixture("abc/v12_full.abc");
    let written = back(&through_glb(&abc, "abc"), "/out/x.abc");
    assert!(written.value[0].1 == std::fs::read(&abc).unwrap());
}

#[test]
fn an_edited_model_is_built_from_the_model_with_a_note_naming_the_change() {
    let abc = fixture("abc/v12_full.abc");
    let mut model = through_glb(&abc, "edited");
    model.meshes[0].positions[0][1] += 1.0;
    let (written, kept) = back_compared(&model, "/out/x.abc");
    assert!(written.value[0].1 != std::fs::read(&abc).unwrap());
    // Said in the comparison with the original, not a loss (`--strict` refuses losses only).
    let why = kept.unwrap().unwrap_err();
    assert!(why.starts_with("the model is no longer the one read from v12_full.abc"), "{why}");
    assert!(why.contains("mesh 0") && why.contains("(position)"), "{why}");
    assert!(written.losses.iter().all(|l| !l.what.contains("no longer")), "{:?}", written.losses);
    let reread =
        relic::load_model(Path::new("x.abc"), &written.value[0].1, relic::detect(&written.value[0].1).unwrap(), &[])
            .unwrap()
            .value;
    assert!((reread.meshes[0].positions[0][1] - model.meshes[0].positions[0][1]).abs() < 1e-3);
}

#[test]
fn a_kept_file_named_as_a_path_is_never_written() {
    let m2 = fixture("m2-wrath/v264_skins.m2");
    let mut model = through_glb(&m2, "hostile");
    // A hostile glTF names a kept file `../x`: nothing is taken from the kept files, the file is
    // built from the model and every output stays beside `out`.
    for name in ["../evil00.skin", "/etc/evil00.skin", "a\\..\\evil00.skin", ".."] {
        model.original.as_mut().unwrap().files[1].0 = name.to_string();
        let written = back(&model, "/out/x.m2");
        assert!(written.value.iter().all(|(p, _)| p.parent() == Some(Path::new("/out"))), "{name}");
        assert!(written.value.iter().all(|(p, _)| !p.display().to_string().contains("evil")), "{name}");
    }
}
