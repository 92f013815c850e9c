//! Every fixture (`fixtures/mdx/`, built by `cargo xtask fixtures` from the spec, not by this
//! crate) reads, rewrites byte for byte, and shows the version differences in its types.

// Test code: a failed unwrap or index is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::path::{Path, PathBuf};

use relic_mdx::file::{Chunk, HdSection, Keys, MdxFile, Shape};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/mdx")
}

fn read(name: &str) -> (Vec<u8>, MdxFile) {
    let bytes = std::fs::read(dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e} (run `cargo xtask fixtures`)"));
    let file = relic_mdx::read(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    (bytes, file)
}

const MODELS: [&str; 5] = ["v800_full.mdx", "v900_emissive.mdx", "v1000_hd.mdx", "v1100_slots.mdx", "v1200_shadow.mdx"];

#[test]
fn every_fixture_rewrites_byte_for_byte() {
    for name in MODELS {
        let (bytes, file) = read(name);
        assert_eq!(relic_mdx::write(&file).unwrap(), bytes, "{name}");
        let checks = relic_mdx::verify::corpus_checks(&bytes);
        assert_eq!(checks.failures().count(), 0, "{name}: {checks:?}");
        assert_eq!(relic_mdx::detect(&bytes).map(|d| d.source.version), Some(file.version()), "{name}");
    }
}

fn materials(file: &MdxFile) -> &[relic_mdx::file::Material] {
    file.chunks.iter().find_map(|c| if let Chunk::Materials(m) = c { Some(m.as_slice()) } else { None }).unwrap()
}

fn geoset(file: &MdxFile) -> &relic_mdx::file::Geoset {
    file.chunks.iter().find_map(|c| if let Chunk::Geosets(g) = c { g.first() } else { None }).unwrap()
}

#[test]
fn version_differences_are_visible_in_the_types() {
    let (_, v800) = read("v800_full.mdx");
    let layer = &materials(&v800)[0].layers[0];
    assert_eq!((layer.emissive_gain, layer.fresnel, layer.slots.is_some()), (None, None, false));
    assert!(materials(&v800)[0].shader.is_none() && geoset(&v800).lod.is_none() && geoset(&v800).hd.is_empty());
    // The INFO chunk first, kept; the empty PREM kept; PDR after the animation file's NUL kept.
    assert!(matches!(&v800.chunks[0], Chunk::Unknown { tag, .. } if tag.0 == *b"INFO"));
    assert!(v800.chunks.iter().any(|c| matches!(c, Chunk::ParticleEmitters(e) if e.is_empty())));
    let Some(Chunk::Model(model)) = v800.chunks.iter().find(|c| matches!(c, Chunk::Model(_))) else { panic!() };
    assert_eq!(&model.animation_file.0[252..255], b"PDR");
    let Some(Chunk::CollisionShapes(shapes)) = v800.chunks.iter().find(|c| matches!(c, Chunk::CollisionShapes(_)))
    else {
        panic!()
    };
    assert!(matches!(
        shapes.iter().map(|s| s.shape).collect::<Vec<_>>()[..],
        [Shape::Box(_), Shape::Plane(_), Shape::Sphere(_, 20.0), Shape::Cylinder(_, 4.0)]
    ));

    let (_, v900) = read("v900_emissive.mdx");
    let layer = &materials(&v900)[0].layers[0];
    assert_eq!((layer.emissive_gain, layer.fresnel), (Some(1.5), None));
    assert_eq!(materials(&v900)[0].shader.map(|s| s.to_text()), Some(String::new()));
    assert_eq!(geoset(&v900).lod.as_ref().map(|l| l.name.to_text()), Some("LOD0".into()));

    let (_, v1000) = read("v1000_hd.mdx");
    let layer = &materials(&v1000)[0].layers[0];
    assert_eq!(layer.fresnel.map(|f| f.team_color), Some(0.0625));
    assert_eq!(materials(&v1000)[0].shader.map(|s| s.to_text()), Some("Shader_HD_DefaultUnit".into()));
    let g = geoset(&v1000);
    assert!(g.vertex_groups.is_empty());
    assert!(
        matches!(&g.hd[..], [HdSection::Tangents(t), HdSection::Skin(s)] if t.tangents.len() == 4 && s.bytes.len() == 32)
    );

    let (_, v1100) = read("v1100_slots.mdx");
    let m = &materials(&v1100)[0];
    assert!(m.shader.is_none());
    let slots = m.layers[0].slots.as_ref().unwrap();
    assert_eq!(slots.shader_type_id, 1);
    assert_eq!(slots.slots.iter().map(|s| (s.texture_id, s.slot)).collect::<Vec<_>>(), [(0, 0), (1, 1)]);
    let kmtf = slots.slots[1].track.as_ref().unwrap();
    assert!(matches!(&kmtf.keys, Keys::Int(k) if k.len() == 2 && k[0].value == 1));
    // The KMTA after the slot keeps its Hermite tangents.
    let kmta = &m.layers[0].tracks[0];
    assert!(matches!(&kmta.keys, Keys::Float(k) if k[1].tangents == Some([0.125, 0.5])));

    let (_, v1200) = read("v1200_shadow.mdx");
    let Some(Chunk::Lights(lights)) = v1200.chunks.iter().find(|c| matches!(c, Chunk::Lights(_))) else { panic!() };
    assert_eq!(lights[0].shadow_intensity, Some(0.4));
}

#[test]
fn a_file_whose_fields_disagree_with_its_version_is_not_written() {
    let (_, mut file) = read("v1100_slots.mdx");
    for chunk in &mut file.chunks {
        if let Chunk::Version(v) = chunk {
            *v = 1000;
        }
    }
    let err = relic_mdx::write(&file).unwrap_err().to_string();
    assert!(err.contains("MTLS[0].layers[0].slots: version 1000 has no such field"), "{err}");
}

#[test]
fn info_names_the_unknown_chunks_and_the_order() {
    let (bytes, _) = read("v800_full.mdx");
    let info = relic_mdx::info(&bytes).unwrap();
    let text = |k: &str| match info.get(k) {
        Some(relic_core::info::Fact::Text(t)) => t.clone(),
        other => panic!("{k}: {other:?}"),
    };
    assert_eq!(text("unknown_chunks"), "INFO (36 bytes)");
    assert!(text("chunks").starts_with("INFO VERS MODL SEQS GLBS MTLS TEXS TXAN GEOS"), "{}", text("chunks"));
}
