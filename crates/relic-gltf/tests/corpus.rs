//! The real files of ../shared/corpus through their format crates: glTF export, round trip back to
//! the model, and "animates the same" as relic-anim when a viewer ignores relic's extras.

// Test helpers: a failure must stop the test loudly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use std::path::PathBuf;

use relic_anim::pose::{ClipTime, Evaluator};
use relic_anim::{ModelSkinner, Pose};
use relic_core::Model;
use relic_gltf::{ExportOptions, export, export_glb, import, summary};

fn corpus(rel: &str) -> Option<Vec<u8>> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    if !dir.is_dir() {
        println!("skipping: ../shared/corpus is absent");
        return None;
    }
    Some(std::fs::read(dir.join(rel)).unwrap())
}

fn gnome() -> Option<Model> {
    corpus("m2/GnomePounder-vanilla.m2").map(|b| relic_m2::read_model(&b).unwrap())
}

/// Removes every `extras` object from a GLB's JSON: what a viewer that ignores them sees.
fn strip_extras(glb: &[u8]) -> Vec<u8> {
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
    let parsed = gltf::binary::Glb::from_slice(glb).unwrap();
    let mut json: serde_json::Value = serde_json::from_slice(&parsed.json).unwrap();
    strip(&mut json);
    gltf::binary::Glb {
        header: parsed.header,
        json: serde_json::to_vec(&json).unwrap().into(),
        bin: parsed.bin.clone(),
    }
    .to_vec()
    .unwrap()
}

/// Skinned LOD-0 positions of `model` in clip `a` at `t`, or at rest.
fn posed(model: &Model, a: Option<usize>, t: f32) -> Vec<Vec<[f32; 3]>> {
    let mut skinner = ModelSkinner::new(model);
    match a {
        Some(a) => {
            let anim = &model.animations[a];
            let time = ClipTime::at(t);
            let pose = Evaluator::new(model, anim).evaluate(time).clone();
            skinner.skin(model, &pose, Some(anim), time).unwrap();
        }
        None => skinner.skin(model, &Pose::rest(model), None, ClipTime::default()).unwrap(),
    }
    skinner.positions
}

fn worst(a: &[Vec<[f32; 3]>], b: &[Vec<[f32; 3]>]) -> f32 {
    a.iter().flatten().zip(b.iter().flatten()).map(|(p, q)| relic_core::math::max_abs_diff(p, q)).fold(0.0, f32::max)
}

#[test]
fn gnome_pounder_round_trips() {
    let Some(model) = gnome() else { return };
    let options = ExportOptions { quaternion_continuity: false, ..ExportOptions::default() };
    let glb = export_glb(&model, &options).unwrap();
    let mut back = import(&glb.value, None).unwrap();
    // The M2 extras come back as their JSON (the M2 crate decodes it), equal in content.
    let (a, b) = (model.extras.as_ref().unwrap(), back.extras.as_ref().unwrap());
    assert_eq!(b.format(), relic_core::model::FormatKind::M2);
    let parse = |s: String| serde_json::from_str::<serde_json::Value>(&s).unwrap();
    assert_eq!(parse(a.json().unwrap()), parse(b.json().unwrap()));
    back.extras = model.extras.clone();
    // Weights: renormalised in f64 on export, equal to 1e-6.
    for (m, n) in model.meshes.iter().zip(back.meshes.iter_mut()) {
        assert_eq!(m.skin.offsets, n.skin.offsets);
        for (x, y) in m.skin.influences.iter().zip(&n.skin.influences) {
            assert_eq!(x.bone, y.bone);
            assert!((x.weight - y.weight).abs() <= 1e-6);
        }
        n.skin = m.skin.clone();
    }
    // Normals further than 0.5 % from unit length were renormalised (reported as losses).
    let renormalised = glb.losses.iter().any(|l| l.what.contains("normals"));
    if renormalised {
        for (m, n) in model.meshes.iter().zip(back.meshes.iter_mut()) {
            n.normals = m.normals.clone();
        }
    }
    assert_eq!(back.bones, model.bones);
    assert_eq!(back.meshes, model.meshes);
    assert_eq!(back.materials, model.materials);
    assert_eq!(back.attachments, model.attachments);
    assert_eq!(back.global_sequences, model.global_sequences);
    assert_eq!(back.animations, model.animations);
    assert_eq!(back, model);
}

#[test]
fn gnome_pounder_animates_the_same_in_a_plain_viewer() {
    let Some(model) = gnome() else { return };
    let glb = export_glb(&model, &ExportOptions::default()).unwrap();
    let plain = import(&strip_extras(&glb.value), None).unwrap();
    let rest = worst(&posed(&model, None, 0.0), &posed(&plain, None, 0.0));
    assert!(rest < 1e-4, "rest pose differs by {rest}");
    let mut report = Vec::new();
    for (a, anim) in model.animations.iter().enumerate() {
        // Every key time of the clip (capped), where a baked channel has a sample too.
        let mut times = relic_anim::bounds::key_times(anim);
        times.truncate(40);
        let max =
            times.iter().map(|&t| worst(&posed(&model, Some(a), t), &posed(&plain, Some(a), t))).fold(0.0, f32::max);
        report.push(format!("{} {:.1e}", anim.name, max));
        assert!(max < 1e-3, "{}: posed vertices differ by {max} ({report:?})", anim.name);
    }
    println!("{}", report.join(", "));
}

#[test]
fn gnome_pounder_export_summary() {
    let Some(model) = gnome() else { return };
    let options = ExportOptions::default();
    let built = export::build(&model, &options, None).unwrap();
    let doc = summary::summarize(&built.value.root, &built.value.bin);
    // Facts of the file (counts, names), not details of the M2 crate's mapping or of baking, so
    // that the snapshot changes only when what the game file holds is exported differently.
    #[derive(serde::Serialize)]
    struct Snapshot {
        expectation: summary::Expectation,
        nodes: usize,
        meshes: Vec<relic_gltf::summary::MeshSummary>,
        materials: Vec<String>,
        animations: Vec<String>,
    }
    let snapshot = Snapshot {
        expectation: summary::expectation(&model, &options),
        nodes: doc.nodes.len(),
        meshes: doc.meshes.clone(),
        materials: doc.materials.clone(),
        animations: doc.animations.iter().map(|a| a.name.clone()).collect(),
    };
    insta::assert_yaml_snapshot!(snapshot);
}
