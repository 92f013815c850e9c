//! The real files of ../shared/corpus through their format crates: glTF export, round trip back to
//! the model, and "animates the same" as relic-anim when a viewer ignores relic's extras.

// Test helpers: a failure must stop the test loudly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

mod common;

use relic_core::Model;

use common::{
    emitter_records_match_then_align, normals_match_then_align, posed, strip_extras, weights_match_then_align, worst,
};
use relic_gltf::{ExportOptions, export, export_glb, import, summary};

fn corpus(rel: &str) -> Option<Vec<u8>> {
    relic_testkit::corpus_file(rel, rel)
}

fn gnome() -> Option<Model> {
    corpus("m2/GnomePounder-vanilla.m2").map(|b| relic_m2::read_model(&b).unwrap())
}

#[test]
fn gnome_pounder_round_trips() {
    let Some(model) = gnome() else { return };
    let options = ExportOptions { quaternion_continuity: false, keep_tangents: true, ..ExportOptions::default() };
    let glb = export_glb(&model, &options).unwrap();
    let mut back = import(&glb.value, None).unwrap();
    // The M2 extras come back as their JSON (the M2 crate decodes it, rebuilding what the JSON
    // leaves out from the model), and the file is written back byte for byte.
    let (a, b) = (model.extras.as_ref().unwrap(), back.extras.as_ref().unwrap());
    assert_eq!(b.format(), relic_m2::FORMAT);
    // The text travels verbatim: the same JSON, byte for byte.
    assert_eq!(a.json_beside(&model), b.json());
    assert!(b.json().unwrap().len() < a.json().unwrap().len() / 2, "the bone tracks the model holds are left out");
    let written = relic_m2::write_model(&back, &relic_core::WriteOptions::default()).unwrap().value;
    assert!(written == corpus("m2/GnomePounder-vanilla.m2").unwrap(), "written back byte for byte");
    back.extras = model.extras.clone();
    weights_match_then_align(&model, &mut back);
    normals_match_then_align(&model, &mut back);
    emitter_records_match_then_align(&model, &mut back);
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

/// Every corpus model a format crate reads: IR → glTF → IR gives the model back (weights to 1e-6,
/// format extras equal as JSON), and a plain viewer poses it like relic-anim at every key.
#[test]
fn every_corpus_model_round_trips_and_animates_the_same() {
    type Read = fn(&[u8]) -> Result<Model, relic_core::ReadError>;
    type Write =
        fn(&Model, &relic_core::WriteOptions) -> Result<relic_core::Converted<Vec<u8>>, relic_core::WriteError>;
    let abc: (Read, Write) = (relic_abc::read_model, relic_abc::write_model);
    let m2: (Read, Write) = (relic_m2::read_model, relic_m2::write_model);
    let files: [(&str, (Read, Write)); 6] = [
        ("abc/INTHERO_ACTION.ABC", abc),
        ("abc/PARTNER_DANCIN.ABC", abc),
        ("abc/SHOTGUN_PV.ABC", abc),
        ("abc/SPIDER.ABC", abc),
        ("abc/WORKGUARD_ACTION.ABC", abc),
        ("m2/GnomePounder-vanilla.m2", m2),
    ];
    for (rel, (read, write)) in files {
        let Some(bytes) = corpus(rel) else { return };
        let model = read(&bytes).unwrap();
        let exact = ExportOptions { quaternion_continuity: false, keep_tangents: true, ..ExportOptions::default() };
        let glb = export_glb(&model, &exact).unwrap();
        let mut back = import(&glb.value, None).unwrap();
        if let (Some(a), Some(b)) = (&model.extras, &back.extras) {
            // The carried text arrives verbatim, and with the model it writes the file back.
            assert_eq!(a.json_beside(&model), b.json(), "{rel}");
            let written = write(&back, &relic_core::WriteOptions::default()).unwrap().value;
            assert!(written == bytes, "{rel}: written back byte for byte");
            back.extras = model.extras.clone();
        }
        assert_eq!(back.extras.is_some(), model.extras.is_some(), "{rel}");
        weights_match_then_align(&model, &mut back);
        normals_match_then_align(&model, &mut back);
        emitter_records_match_then_align(&model, &mut back);
        assert_eq!(back, model, "{rel}");
        // A viewer's view.
        let plain = import(&strip_extras(&export_glb(&model, &ExportOptions::default()).unwrap().value), None).unwrap();
        let mut worst_error = worst(&posed(&model, None, 0.0), &posed(&plain, None, 0.0));
        for (a, anim) in model.animations.iter().enumerate() {
            let mut times = relic_anim::bounds::key_times(anim);
            times.truncate(24);
            for t in times {
                worst_error = worst_error.max(worst(&posed(&model, Some(a), t), &posed(&plain, Some(a), t)));
            }
        }
        println!("{rel}: worst posed vertex difference {worst_error:.1e}");
        assert!(worst_error < 1e-3, "{rel}: posed vertices differ by {worst_error}");
    }
}

/// GnomePounder-vanilla.m2 → ABC v12 → glTF: the glTF (as a plain viewer reads it) poses like the
/// M2 model in relic-anim: the skinned box of the full-detail meshes at every key of every clip.
#[test]
fn gnome_pounder_via_abc_v12_animates_the_same() {
    let Some(model) = gnome() else { return };
    let abc = relic_abc::write_model(&model, &relic_core::WriteOptions { version: Some(12) }).unwrap();
    for loss in abc.losses.iter().take(8) {
        println!("m2 → abc v12 loss: {loss}");
    }
    let via_abc = relic_abc::read_model(&abc.value).unwrap();
    let glb = export_glb(&via_abc, &ExportOptions::default()).unwrap();
    let plain = import(&strip_extras(&glb.value), None).unwrap();
    assert_eq!(plain.animations.len(), model.animations.len());
    let bounds = |m: &Model, a: usize, t: f32| {
        let pos = posed(m, Some(a), t);
        relic_core::model::Aabb::of_points(pos.iter().flatten()).unwrap()
    };
    let size = {
        let b = relic_core::model::Aabb::of_points(model.meshes.iter().flat_map(|m| &m.positions)).unwrap();
        relic_core::math::max_abs_diff(&b.max, &b.min)
    };
    let mut worst_box = (0.0f32, String::new());
    let mut keys = 0;
    for (a, anim) in model.animations.iter().enumerate() {
        for t in relic_anim::bounds::key_times(anim) {
            let d = bounds(&model, a, t).max_corner_distance(&bounds(&plain, a, t));
            keys += 1;
            if d > worst_box.0 {
                worst_box = (d, format!("{} at {t:.3} s", anim.name));
            }
        }
    }
    println!(
        "m2 → abc v12 → glTF: {keys} keys, worst box corner difference {:.2e} ({}), model size {size:.2}",
        worst_box.0, worst_box.1
    );
    assert!(worst_box.0 <= 1e-3 * size.max(1.0), "boxes differ by {} at {}", worst_box.0, worst_box.1);
}
