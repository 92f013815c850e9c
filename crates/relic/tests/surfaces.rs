//! Tints and UV animations (MDX geoset animations, layer alpha, texture animations) through glTF:
//! exact in the scene's extras, the fixed colour and opacity of a mesh whose material it alone
//! uses in that material's `baseColorFactor`; and on to an MDX built from the model alone, whose
//! GEOA and TXAN records are the original's.

// Test helpers: a failure must stop the test loudly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use std::path::{Path, PathBuf};

use relic::{ConvertOptions, Target};
use relic_core::model::TintTarget;

mod common;
use common::json_of;

fn files(test: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/mdx");
    let mut out: Vec<PathBuf> =
        ["v800_full.mdx", "v900_emissive.mdx", "v1000_hd.mdx"].iter().map(|f| root.join(f)).collect();
    if let Some(corpus) = relic_testkit::corpus_dir(test) {
        for f in ["File00001202_98f1fm0.mdx", "PackHorse.mdx", "SmileyGW_004.mdx", "blob.mdx"] {
            out.push(corpus.join("mdx").join(f));
        }
    }
    out
}

#[test]
fn tints_and_uv_animations_come_back_from_relics_glb_and_show_in_the_base_colour() {
    let dir = tempfile::Builder::new().prefix("relic-surfaces-").tempdir().unwrap();
    for path in files("tints_and_uv_animations_come_back_from_relics_glb_and_show_in_the_base_colour") {
        let name = path.display();
        let model = relic::open(&path).unwrap().model;
        assert!(!model.tints.is_empty(), "{name}: the file has geoset animations");
        let glb_path = dir.path().join("model.glb");
        let glb =
            relic::convert(&model, Target::from_name("glb").unwrap(), &glb_path, &ConvertOptions::default()).unwrap();
        let bytes = glb.value[0].1.clone();
        std::fs::write(&glb_path, &bytes).unwrap();
        if let Some(out) = std::env::var_os("RELIC_SURFACES_GLB_DIR") {
            // For the Khronos validator (`node tools/gltf-validate.js DIR/*.glb`).
            std::fs::write(Path::new(&out).join(path.with_extension("glb").file_name().unwrap()), &bytes).unwrap();
        }
        let back = relic::open(&glb_path).unwrap().model;
        assert_eq!(back.tints, model.tints, "{name}");
        assert_eq!(back.uv_animations, model.uv_animations, "{name}");
        // A mesh alone with its material shows its fixed tint there.
        let json = json_of(&bytes);
        for (i, mesh) in model.meshes.iter().enumerate() {
            let Some(m) = mesh.material else { continue };
            if model.meshes.iter().filter(|x| x.material == Some(m)).count() > 1 {
                continue;
            }
            let Some(tint) = model.tints.iter().find(|t| t.target == TintTarget::Mesh(i)) else { continue };
            let factor = &json["materials"][m]["pbrMetallicRoughness"]["baseColorFactor"];
            let alpha = factor.as_array().map_or(1.0, |f| f[3].as_f64().unwrap()) as f32;
            let layer = model
                .tints
                .iter()
                .filter(|t| matches!(t.target, TintTarget::Layer(l) if l.material == m && l.texture == 0))
                .map(|t| t.alpha)
                .product::<f32>();
            assert!((alpha - tint.alpha.clamp(0.0, 1.0) * layer).abs() < 1e-6, "{name}: mesh {i}: {factor}");
        }
        // glb → MDX built from the model: the kept file written back (it is still the model) …
        let mdx_path = dir.path().join("back.mdx");
        let written =
            relic::convert(&back, Target::from_name("mdx").unwrap(), &mdx_path, &ConvertOptions::default()).unwrap();
        assert_eq!(written.value[0].1, std::fs::read(&path).unwrap(), "{name}: the kept file");
        // … and without it, built from the model: the same tints again.
        let mut plain = back.clone();
        plain.extras = None;
        plain.original = None;
        let rebuilt = relic_mdx::from_ir(&plain, &relic_core::WriteOptions::default()).unwrap().value;
        let again = relic_mdx::to_ir(&rebuilt).unwrap();
        assert_eq!(again.tints, model.tints, "{name}");
        assert_eq!(again.uv_animations, model.uv_animations, "{name}");
    }
}
