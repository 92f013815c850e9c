//! MDX emitters (PREM, PRE2, RIBB) through glTF without the file kept in the scene's extras:
//! each comes back with its record and is written as the same MDX record; an editor that keeps
//! neither relic's extensions nor its extras gives back a particle emitter per stand-in.

// Test code: a failed unwrap or index is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::path::{Path, PathBuf};

use relic_core::WriteOptions;
use relic_core::model::EmitterKind;
use relic_gltf::{ExportOptions, export_glb, import};
use relic_mdx::EmitterChunk;
use relic_mdx::file::{Chunk, MdxFile};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `(file, particles, ribbons)`: PREM + PRE2 and RIBB as `mdx_probe.py` counts them.
const FILES: [(&str, usize, usize); 8] = [
    ("fixtures/mdx/v800_full.mdx", 2, 1),
    ("fixtures/mdx/v900_emissive.mdx", 2, 1),
    ("fixtures/mdx/v1000_hd.mdx", 2, 1),
    ("corpus/DustEmitter.mdx", 1, 0),
    ("corpus/FireSmallBurn.mdx", 1, 0),
    ("corpus/InfernalMagicFire.mdx", 1, 0),
    ("corpus/PackHorse.mdx", 1, 0),
    ("corpus/blob.mdx", 0, 1),
];

fn files(test: &str) -> Vec<(PathBuf, usize, usize)> {
    let corpus = relic_testkit::corpus_dir(test).map(|c| c.join("mdx"));
    FILES
        .iter()
        .filter_map(|&(name, p, r)| {
            let path = match name.strip_prefix("corpus/") {
                Some(file) => corpus.as_ref()?.join(file),
                None => root().join(name),
            };
            Some((path, p, r))
        })
        .collect()
}

fn kinds(model: &relic_core::Model) -> (usize, usize) {
    let n = |k: EmitterKind| model.emitters.iter().filter(|e| e.kind == k).count();
    (n(EmitterKind::Particle), n(EmitterKind::Ribbon))
}

/// The emitter records of a file, their node tracks (the bones' channels, through glTF within
/// float noise) aside.
fn records(file: &MdxFile) -> Vec<EmitterChunk> {
    let mut out = Vec::new();
    for c in &file.chunks {
        match c {
            Chunk::ParticleEmitters(v) => out.extend(v.iter().cloned().map(EmitterChunk::Prem)),
            Chunk::ParticleEmitters2(v) => out.extend(v.iter().cloned().map(EmitterChunk::Pre2)),
            Chunk::RibbonEmitters(v) => out.extend(v.iter().cloned().map(EmitterChunk::Ribbon)),
            _ => {}
        }
    }
    for r in &mut out {
        match r {
            EmitterChunk::Prem(e) => e.node.tracks.clear(),
            EmitterChunk::Pre2(e) => e.node.tracks.clear(),
            EmitterChunk::Ribbon(e) => e.node.tracks.clear(),
        }
    }
    out
}

/// Takes every extension and every `extras` out of a glb (an editor without custom properties).
fn plain(glb: &[u8]) -> Vec<u8> {
    fn strip(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(map) => {
                map.remove("extras");
                map.remove("extensions");
                map.remove("extensionsUsed");
                map.values_mut().for_each(strip);
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let parsed = gltf::binary::Glb::from_slice(glb).unwrap();
    let mut json: serde_json::Value = serde_json::from_slice(&parsed.json).unwrap();
    strip(&mut json);
    let glb = gltf::binary::Glb {
        header: gltf::binary::Header { magic: *b"glTF", version: 2, length: 0 },
        json: serde_json::to_vec(&json).unwrap().into(),
        bin: parsed.bin.clone(),
    };
    glb.to_vec().unwrap()
}

#[test]
fn mdx_emitters_come_back_from_gltf_with_their_records() {
    let test = "mdx_emitters_come_back_from_gltf_with_their_records";
    for (path, particles, ribbons) in files(test) {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let mut model = relic_mdx::read_model(&std::fs::read(&path).unwrap()).unwrap();
        model.extras = None;
        assert_eq!(kinds(&model), (particles, ribbons), "{name}");
        let glb = export_glb(&model, &ExportOptions::default()).unwrap().value;
        let back = import(&glb, None).unwrap();
        assert_eq!(kinds(&back), (particles, ribbons), "{name}");
        for (a, b) in model.emitters.iter().zip(&back.emitters) {
            assert_eq!((&a.name, a.bone, a.kind, &a.texture), (&b.name, b.bone, b.kind, &b.texture), "{name}");
            let (x, y) = (a.record.as_ref().unwrap(), b.record.as_ref().unwrap());
            assert!(!y.is_typed() && x.same_data(y), "{name}: {}: the record", a.name);
        }
        // Written as MDX: the records written from the model read from the file.
        let direct = relic_mdx::from_ir(&model, &WriteOptions::default()).unwrap().value;
        let out = relic_mdx::from_ir(&back, &WriteOptions::default()).unwrap();
        assert!(!out.losses.iter().any(|l| l.element == "emitters"), "{name}: {:?}", out.losses);
        assert_eq!(records(&out.value), records(&direct), "{name}");
        assert_eq!(records(&out.value).len(), particles + ribbons, "{name}");

        // Without relic's extensions and extras: a particle emitter per stand-in, built as PRE2.
        let bare = import(&plain(&glb), None).unwrap();
        assert_eq!(bare.emitters.len(), particles + ribbons, "{name}: one per stand-in");
        assert!(bare.emitters.iter().all(|e| e.record.is_none() && e.kind == EmitterKind::Particle), "{name}");
        for (a, b) in model.emitters.iter().zip(&bare.emitters) {
            assert_eq!((&a.name, a.bone), (&b.name, b.bone), "{name}");
            // The stand-in shows the texture where the export found its image (none here: no
            // texture folder), which names it.
            if let Some(t) = &b.texture {
                assert_eq!(a.texture.as_ref().map(|t| &t.path), Some(&t.path), "{name}");
            }
            assert!((a.size - b.size).abs() <= 1e-4 * a.size.max(1.0), "{name}: {} {}", a.size, b.size);
        }
        let out = relic_mdx::write_model(&bare, &WriteOptions::default()).unwrap();
        let info = relic_mdx::info(&out.value).unwrap();
        let pre2 = match info.get("particle_emitters2") {
            Some(relic_core::info::Fact::Count(n)) => *n as usize,
            other => panic!("{name}: {other:?}"),
        };
        assert_eq!(pre2, particles + ribbons, "{name}: every stand-in a PRE2");
    }
}
