//! The registry is the one list of formats: what each entry says (its default version, its
//! texture format) is what its writer and the facade do, and a file no entry reads is described
//! as what it is when relic can tell.

// Test helpers: a failure must stop the test loudly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use std::path::Path;

use relic::{ConvertOptions, Registry, Target};
use relic_core::format::{Input, Output, Textures};
use relic_core::{Model, WriteOptions};

/// A model that came from no format (no source, no original): every writer chooses its version.
fn foreign_model() -> Model {
    Model { source: None, original: None, ..relic_gltf::samples::skinned_animated() }
}

/// Every format that writes models writes, when asked for no version, the entry's `default_write`:
/// the version its detector then reads back.
#[test]
fn writers_write_the_default_version_their_entry_states() {
    let model = foreign_model();
    let mut checked = 0;
    for entry in Registry::builtin().models() {
        let codec = entry.model.unwrap();
        if entry.versions.write.is_empty() {
            // A format read but not yet written (MDX) refuses, saying so; it states no version.
            let refused = (codec.write)(&model, &WriteOptions::default(), &Output::named("model"));
            assert!(refused.is_err(), "{}: writes no version but wrote", entry.name);
            continue;
        }
        let written = match (codec.write)(&model, &WriteOptions::default(), &Output::named("model")) {
            Ok(w) => w.value,
            // A format that cannot hold the sample refuses with the reason; it is not a version.
            Err(e) => panic!("{}: {e}", entry.name),
        };
        let detected = (entry.detect)(&written.bytes).unwrap_or_else(|| panic!("{}: not recognised", entry.name));
        assert_eq!(detected.source.version, entry.versions.default_write, "{}", entry.name);
        assert!(entry.versions.writes(entry.versions.default_write), "{}", entry.name);
        checked += 1;
    }
    assert!(checked >= 5, "only {checked} model formats");
}

/// The texture files written beside a converted model are of the format its entry names
/// (ABC → DTX, M2 → BLP), found in the registry.
#[test]
fn model_formats_name_their_texture_format() {
    let registry = Registry::builtin();
    for entry in registry.models() {
        if let Textures::Files(format) = entry.model.unwrap().textures {
            let texture = registry.by_name(format).unwrap_or_else(|| panic!("{}: no format {format}", entry.name));
            assert!(texture.texture.is_some(), "{}: {format} holds no textures", entry.name);
        }
    }
    let files = |name: &str| registry.by_name(name).and_then(|e| e.model).map(|m| m.textures);
    assert_eq!(files("abc"), Some(Textures::Files("dtx")));
    assert_eq!(files("m2"), Some(Textures::Files("blp")));
    assert_eq!(files("glb"), Some(Textures::Embedded));
}

/// glTF is an entry like the others: opened, described and written through the registry alone,
/// the `.gltf` with its `.bin` named after the output.
#[test]
fn gltf_is_an_entry_of_the_registry() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/abc/v12_full.abc");
    let opened = relic::open(&fixture).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("hero.gltf");
    let target = Target::for_path(&out).unwrap();
    assert_eq!(target.output_paths(&out), [out.clone(), dir.path().join("hero.bin")]);
    let written = relic::convert(&opened.model, target, &out, &ConvertOptions::default()).unwrap();
    for (path, bytes) in &written.value {
        std::fs::write(path, bytes).unwrap();
    }
    let back = relic::open(&out).unwrap();
    assert_eq!(back.kind.entry.name, "gltf");
    assert_eq!(back.model.bones.len(), opened.model.bones.len());
    // The record of the ABC file travels through the glTF; the glTF is not recorded over it.
    assert_eq!(back.model.original.as_ref().map(|o| o.format.as_str()), Some("abc"));
    let input =
        Input { bytes: &std::fs::read(&out).unwrap(), name: "hero.gltf", siblings: &relic::FolderSiblings::of(&out) };
    let info = (back.kind.entry.info)(&input).unwrap();
    assert_eq!(info.format, relic_gltf::FORMAT);
}

/// The real files relic does not read are named for what they are, and the message lists what
/// relic reads, textures too (issue 27, class 8).
#[test]
fn files_relic_does_not_read_are_named() {
    let dir = tempfile::tempdir().unwrap();
    // A LithTech world renamed `.ltb` (specs/ltb.md §1): version 66, object data inside the file.
    let mut world = 66u32.to_le_bytes().to_vec();
    world.extend(64u32.to_le_bytes());
    world.extend([0u8; 120]);
    // relic-ltb reads `.ltb` files itself and names a world it is given; without it the facade's
    // list of files it recognises does.
    let path = dir.path().join("world.ltb");
    std::fs::write(&path, &world).unwrap();
    let message = relic::open(&path).unwrap_err().to_string();
    assert!(message.contains("a LithTech world") && message.contains("world.ltb"), "{message}");
    let lta = relic_testkit::corpus_file("files_relic_does_not_read_are_named", "abc/INTHERO_ACTION.lta");
    if let Some(bytes) = lta {
        let path = dir.path().join("INTHERO_ACTION.lta");
        std::fs::write(&path, &bytes).unwrap();
        let message = relic::open(&path).unwrap_err().to_string();
        assert!(message.contains("LithTech LTA model text"), "{message}");
        assert!(
            message.contains("models: ABC, MDX, M2, LTB, NOD/NAD, GLB, GLTF, MDL; textures: BLP, DTX"),
            "{message}"
        );
    }
    // CrossFire's LTB, wrapped in LZMA and plain, are models relic reads.
    for rel in ["ltb/PV-M4A1.LTB", "ltb/SAS_BODY_GR.LTB"] {
        if let Some(bytes) = relic_testkit::corpus_file("files_relic_does_not_read_are_named", rel) {
            let path = dir.path().join(rel.replace('/', "_"));
            std::fs::write(&path, &bytes).unwrap();
            assert!(relic::open(&path).is_ok(), "{rel}");
        }
    }
    let text = dir.path().join("notes.txt");
    std::fs::write(&text, "hello").unwrap();
    let message = relic::open(&text).unwrap_err().to_string();
    assert!(message.contains("notes.txt: not a model or texture relic reads"), "{message}");
}

/// No fixture, hostile ones included, is taken for a file relic recognises without reading it:
/// a damaged model must be reported as one, never as something else. The two LTB fixtures that
/// are other LithTech files named `.ltb` (a world, a PS2 model) are named as such.
#[test]
fn no_fixture_is_described_as_a_foreign_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
    let mut dirs = vec![root];
    let mut seen = 0;
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            let bytes = std::fs::read(&path).unwrap();
            let described = relic::Registry::builtin().describe(&bytes);
            match path.file_name().and_then(|n| n.to_str()) {
                Some("world_file.ltb") => assert!(described.is_some_and(|w| w.contains("world")), "{}", path.display()),
                Some("ps2_model.ltb") => {
                    assert!(described.is_some_and(|w| w.contains("PlayStation 2")), "{}", path.display())
                }
                _ => assert_eq!(described, None, "{}", path.display()),
            }
            seen += 1;
        }
    }
    assert!(seen >= 100, "only {seen} fixtures");
}
