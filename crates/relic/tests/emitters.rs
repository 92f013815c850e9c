//! M2 particle and ribbon emitters through glTF (issue 28 §2): each a node under its bone with
//! its record in the `RELIC_particle_emitter` / `RELIC_ribbon_emitter` extension and a copy in
//! its extras, and a stand-in quad. The M2 written back holds the same emitters without the
//! scene's extras (where relic once kept them alone), through an editor that keeps extras but
//! drops extensions, and without either every emitter lost is a note.

// Test helpers: a failure must stop the test loudly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use std::path::{Path, PathBuf};

use relic::{ConvertOptions, Target};
use relic_core::format::Input;
use serde_json::Value;

mod common;
use common::{edit_glb, json_of};

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/m2/v256_effects.m2");

/// What an editor or a user takes out of relic's glb.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Strip {
    /// `scenes[].extras`, where the M2 file travels whole.
    SceneExtras,
    /// The scene's extras and every extension object (an editor that keeps custom properties).
    SceneExtrasAndExtensions,
    /// Every `extras` and extension object (an editor without custom properties).
    Everything,
}

fn remove_everywhere(v: &mut Value, keys: &[&str]) {
    match v {
        Value::Object(map) => {
            for k in keys {
                map.remove(*k);
            }
            map.values_mut().for_each(|v| remove_everywhere(v, keys));
        }
        Value::Array(items) => items.iter_mut().for_each(|v| remove_everywhere(v, keys)),
        _ => {}
    }
}

fn strip(glb: &[u8], how: Strip) -> Vec<u8> {
    edit_glb(glb, |json| {
        for scene in json["scenes"].as_array_mut().unwrap() {
            scene.as_object_mut().unwrap().remove("extras");
        }
        match how {
            Strip::SceneExtras => {}
            Strip::SceneExtrasAndExtensions => {
                for node in json["nodes"].as_array_mut().unwrap() {
                    node.as_object_mut().unwrap().remove("extensions");
                }
                json.as_object_mut().unwrap().remove("extensionsUsed");
                // Blender writes the unlit materials back with their extension; nothing else.
            }
            Strip::Everything => {
                remove_everywhere(json, &["extras"]);
                for node in json["nodes"].as_array_mut().unwrap() {
                    node.as_object_mut().unwrap().remove("extensions");
                }
            }
        }
    })
}

/// A model's file → glb (edited by `how`) → M2 in the version it came from: the glb, the written
/// file's path (in `dir`) and the conversion's notes.
fn through_glb(path: &Path, how: Option<Strip>, dir: &Path) -> (Vec<u8>, PathBuf, Vec<relic::Loss>) {
    let opened = relic::open(path).unwrap();
    let glb_path = dir.join("model.glb");
    let glb = relic::convert(&opened.model, Target::from_name("glb").unwrap(), &glb_path, &ConvertOptions::default())
        .unwrap();
    let mut bytes = glb.value[0].1.clone();
    if let Some(how) = how {
        bytes = strip(&bytes, how);
    }
    std::fs::write(&glb_path, &bytes).unwrap();
    let back = relic::open(&glb_path).unwrap();
    let out = dir.join(path.file_name().unwrap());
    let written =
        relic::convert(&back.model, Target::from_name("m2").unwrap(), &out, &ConvertOptions::default()).unwrap();
    for (name, data) in &written.value {
        std::fs::write(dir.join(name), data).unwrap();
    }
    let written_path = dir.join(&written.value[0].0);
    (bytes, written_path, written.losses)
}

/// The file's particle and ribbon emitters as JSON, their bone and texture indices replaced by
/// what they point at (a file rebuilt from the model may order its bones and textures otherwise).
fn emitters_of(path: &Path) -> Vec<Value> {
    let bytes = std::fs::read(path).unwrap();
    let version = u32::from_le_bytes(bytes[4..8].try_into().unwrap());
    let (particles, ribbons, textures, pivots) = if version >= 264 {
        let siblings = relic::FolderSiblings::of(path);
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let w = relic_m2::wrath::read(&Input { bytes: &bytes, name: &name, siblings: &siblings }).unwrap();
        let f = &w.file;
        (
            serde_json::to_value(&f.particle_emitters).unwrap(),
            serde_json::to_value(&f.ribbon_emitters).unwrap(),
            f.textures.iter().map(|t| t.filename_text()).collect::<Vec<_>>(),
            f.bones.iter().map(|b| b.pivot).collect::<Vec<_>>(),
        )
    } else {
        let f = relic_m2::read(&bytes).unwrap();
        (
            serde_json::to_value(&f.particle_emitters).unwrap(),
            serde_json::to_value(&f.ribbon_emitters).unwrap(),
            f.textures.iter().map(|t| t.filename_text()).collect::<Vec<_>>(),
            f.bones.iter().map(|b| b.pivot).collect::<Vec<_>>(),
        )
    };
    let resolve = |mut e: Value| {
        let bone = e["bone"].as_u64().unwrap() as usize;
        e["bone"] = serde_json::json!(pivots[bone]);
        if let Some(t) = e["texture"].as_u64() {
            e["texture"] = serde_json::json!(textures.get(t as usize));
        }
        if let Some(list) = e["textures"].as_array_mut() {
            for t in list {
                *t = serde_json::json!(textures.get(t.as_u64().unwrap() as usize));
            }
        }
        e
    };
    let all = particles.as_array().unwrap().iter().chain(ribbons.as_array().unwrap());
    all.cloned().map(resolve).collect()
}

fn temp(test: &str) -> tempfile::TempDir {
    tempfile::Builder::new().prefix(&format!("relic-emitters-{test}-")).tempdir().unwrap()
}

/// Every emitter node of relic's glb: its name, extension and extras.
fn emitter_nodes(json: &Value) -> Vec<(String, Value, Value)> {
    let nodes = json["nodes"].as_array().unwrap();
    nodes
        .iter()
        .filter_map(|n| {
            let ext = n.get("extensions")?;
            let (_, record) = ext.as_object()?.iter().find(|(k, _)| k.starts_with("RELIC_"))?;
            Some((n["name"].as_str().unwrap().to_string(), record.clone(), n["extras"].clone()))
        })
        .collect()
}

fn check_model(path: &Path, test: &str) {
    let dir = temp(test);
    let original = emitters_of(path);
    assert!(!original.is_empty(), "{test}: the file has emitters");
    // relic's own glb: every emitter a node with its extension, listed as used only.
    let (glb, _, _) = through_glb(path, None, dir.path());
    let json = json_of(&glb);
    let used: Vec<&str> = json["extensionsUsed"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    assert!(used.contains(&"RELIC_particle_emitter") || used.contains(&"RELIC_ribbon_emitter"), "{used:?}");
    assert!(json.get("extensionsRequired").is_none(), "{test}: no extension is required");
    let nodes = emitter_nodes(&json);
    assert_eq!(nodes.len(), original.len(), "{test}: one node per emitter");
    for (name, ext, extras) in &nodes {
        assert!(ext["record"]["data"].is_object(), "{test}: {name}: the record whole in the extension");
        assert!(extras["relic"]["record"].is_string(), "{test}: {name}: the record in the extras");
    }
    let stand_ins =
        json["meshes"].as_array().unwrap().iter().filter(|m| m["name"].as_str().unwrap().ends_with(" (stand-in)"));
    assert_eq!(stand_ins.count(), original.len(), "{test}: one stand-in per emitter");
    for how in [Strip::SceneExtras, Strip::SceneExtrasAndExtensions] {
        let (_, written, losses) = through_glb(path, Some(how), dir.path());
        let back = emitters_of(&written);
        assert_eq!(back.len(), original.len(), "{test}: {how:?}: every emitter comes back");
        for (i, (a, b)) in original.iter().zip(&back).enumerate() {
            let differ: Vec<&String> =
                a.as_object().unwrap().keys().filter(|k| a[k.as_str()] != b[k.as_str()]).collect();
            assert!(
                differ.is_empty(),
                "{test}: {how:?}: emitter {i} differs in {differ:?}: {} → {}",
                a[differ[0].as_str()],
                b[differ[0].as_str()]
            );
        }
        let noted: Vec<String> = losses.iter().map(ToString::to_string).collect();
        assert!(!noted.iter().any(|n| n.contains("particles") || n.contains("ribbons")), "{test}: {how:?}: {noted:?}");
    }
    let (_, written, losses) = through_glb(path, Some(Strip::Everything), dir.path());
    assert!(emitters_of(&written).is_empty(), "{test}: nothing carries an emitter without extras");
    let noted: Vec<String> = losses.iter().map(ToString::to_string).collect();
    let particles = original.iter().filter(|e| e.get("emission_speed").is_some()).count();
    let expected = format!("particles: {particles} in the original, 0 written");
    assert!(noted.iter().any(|n| n.contains(&expected)), "{test}: {noted:?}");
}

#[test]
fn the_fixture_keeps_its_particle_and_ribbon_without_the_scene_extras() {
    check_model(Path::new(FIXTURE), "fixture");
}

fn corpus(test: &str, rel: &str) -> Option<PathBuf> {
    relic_testkit::corpus_dir(test).map(|d| d.join(rel))
}

#[test]
fn ui_autocast_button_keeps_its_four_emitters_without_the_scene_extras() {
    let Some(path) = corpus("autocast", "wow-tbc/Interface/Buttons/UI-AutoCastButton.m2") else { return };
    check_model(&path, "autocast");
    // Nothing else of it is lost without the scene extras but what the notes say: the file
    // written from relic's glb alone is the original but for those.
    let dir = temp("autocast-whole");
    let (_, written, _) = through_glb(&path, None, dir.path());
    assert_eq!(std::fs::read(&written).unwrap(), std::fs::read(&path).unwrap(), "with its extras, byte for byte");
}

#[test]
fn glue_screens_and_the_gnome_keep_their_emitters() {
    for rel in [
        "wow-tbc/Interface/Glues/Models/UI_MainMenu/UI_MainMenu.m2",
        "wow-tbc/Interface/Glues/Models/UI_Draenei/UI_Draenei.m2",
        "m2/GnomePounder-vanilla.m2",
        "m2-wrath/GnomePounder.m2",
    ] {
        let Some(path) = corpus("glues", rel) else { return };
        check_model(&path, rel.rsplit('/').next().unwrap());
    }
}
