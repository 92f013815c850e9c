//! Lights, cameras and collision shapes through glTF: each MDX fixture and corpus file that has
//! them exports them as nodes (a `KHR_lights_punctual` light per light that is not ambient, a
//! glTF camera per camera, an empty node per shape) and imports them back as the model had them;
//! without relic's extras (a tool that drops them) the glTF lights and cameras still come back.

// Test code: a failed unwrap or index is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::path::{Path, PathBuf};

use relic_core::model::LightKind;

/// The MDX files with lights, cameras or collision shapes, and their counts (the probe's:
/// `python3 /work/shared/tools/mdx_probe.py`, `counts.lights`, `cameras`, `collision_shapes`).
fn files() -> Vec<(PathBuf, [usize; 3])> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut out = vec![(root.join("fixtures/mdx/v800_full.mdx"), [1, 1, 4])];
    if let Some(corpus) = relic_testkit::corpus_dir("scene") {
        for (name, counts) in [
            ("File00001202_98f1fm0.mdx", [1, 0, 0]),
            ("PackHorse.mdx", [0, 0, 1]),
            ("SmileyGW_004.mdx", [0, 0, 1]),
            ("blob.mdx", [1, 0, 1]),
        ] {
            out.push((corpus.join("mdx").join(name), counts));
        }
    }
    out
}

fn strip_extras(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Object(map) => {
            map.remove("extras");
            map.values_mut().for_each(strip_extras);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(strip_extras),
        _ => {}
    }
}

#[test]
fn lights_cameras_and_collision_shapes_go_through_gltf_and_back() {
    for (path, [lights, cameras, shapes]) in files() {
        let name = path.display().to_string();
        let model = relic_mdx::read_model(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!([model.lights.len(), model.cameras.len(), model.collision_shapes.len()], [lights, cameras, shapes]);
        let out = relic_gltf::export::export_gltf(&model, &relic_gltf::ExportOptions::default(), "scene.bin").unwrap();
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("scene.bin"), &out.value.1).unwrap();
        let ambient = model.lights.iter().filter(|l| l.kind == LightKind::Ambient).count();
        let noted = out.losses.iter().filter(|l| l.element == "lights").count();
        assert_eq!(noted, usize::from(ambient > 0), "{name}: {:?}", out.losses);
        let mut json: serde_json::Value = serde_json::from_str(&out.value.0).unwrap();
        let khr = json["extensions"]["KHR_lights_punctual"]["lights"].as_array().map_or(0, Vec::len);
        assert_eq!(khr, lights - ambient, "{name}");
        assert_eq!(json["cameras"].as_array().map_or(0, Vec::len), cameras, "{name}");
        let back = relic_gltf::import::import(out.value.0.as_bytes(), Some(dir.path())).unwrap();
        back.validate().unwrap();
        assert_eq!(back.lights, model.lights, "{name}");
        assert_eq!(back.cameras, model.cameras, "{name}");
        assert_eq!(back.collision_shapes, model.collision_shapes, "{name}");
        assert_eq!(back.attachments.len(), model.attachments.len(), "{name}: no scene node is an attachment");
        // Without extras: the glTF lights and cameras, no shapes (an empty node is nothing).
        strip_extras(&mut json);
        let bare = relic_gltf::import::import(json.to_string().as_bytes(), Some(dir.path())).unwrap();
        bare.validate().unwrap();
        assert_eq!([bare.lights.len(), bare.cameras.len()], [lights - ambient, cameras], "{name}");
        for (a, b) in bare.lights.iter().zip(model.lights.iter().filter(|l| l.kind != LightKind::Ambient)) {
            assert_eq!((&a.name, a.kind, a.bone), (&b.name, b.kind, b.bone), "{name}");
            assert_eq!(a.attenuation.map(|x| x[1]), b.attenuation.map(|x| x[1]), "{name}: range");
        }
        for (a, b) in bare.cameras.iter().zip(&model.cameras) {
            assert!(a.position.iter().zip(b.position).all(|(x, y)| (x - y).abs() < 1e-3), "{name}");
            assert_eq!((a.yfov, a.znear, a.zfar), (b.yfov, b.znear, b.zfar), "{name}");
            // The target is on the line of sight, one unit from the camera.
            let d = |p: [f32; 3], q: [f32; 3]| -> [f32; 3] { [q[0] - p[0], q[1] - p[1], q[2] - p[2]] };
            let (u, v) = (d(a.position, a.target), d(b.position, b.target));
            let len = |x: [f32; 3]| x.iter().map(|c| c * c).sum::<f32>().sqrt();
            let cos = u.iter().zip(v).map(|(x, y)| x * y).sum::<f32>() / (len(u) * len(v));
            assert!((cos - 1.0).abs() < 1e-4, "{name}: {cos}");
        }
        // And into an MDX from that model alone.
        let mut plain = back.clone();
        plain.extras = None;
        plain.original = None;
        let mdx = relic_mdx::from_ir(&plain, &relic_core::WriteOptions::default()).unwrap().value;
        let info = relic_mdx::info(&relic_mdx::write(&mdx).unwrap()).unwrap();
        for (key, n) in [("lights", lights), ("cameras", cameras), ("collision_shapes", shapes)] {
            let got = match info.get(key) {
                Some(relic_core::info::Fact::Count(c)) => *c as usize,
                None => 0,
                other => panic!("{key}: {other:?}"),
            };
            assert_eq!(got, n, "{name}: {key}");
        }
    }
}
