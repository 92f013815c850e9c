//! Particle emitters (PREM, PRE2) and ribbons (RIBB) as the common model's emitters: every fixture
//! and corpus MDX keeps its emitters (the probe's counts) and their records through MDX → model →
//! MDX built from the model, and M2 emitters are written as PRE2 and RIBB.

// Test code: a failed unwrap or index is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::path::{Path, PathBuf};

use relic_core::WriteOptions;
use relic_core::model::EmitterKind;
use relic_mdx::file::{Chunk, Keys, Material, MdxFile, Texture};
use relic_mdx::{EmitterChunk, EmitterRecord};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `(file, PREM, PRE2, CORN, RIBB)` as `mdx_probe.py` counts them (`particle_emitters`,
/// `particle_emitters2`, `popcorn_emitters`, `ribbons`), for every file that has one.
const COUNTS: [(&str, usize, usize, usize, usize); 10] = [
    ("fixtures/mdx/v800_full.mdx", 1, 1, 0, 1),
    ("fixtures/mdx/v900_emissive.mdx", 1, 1, 1, 1),
    ("fixtures/mdx/v1000_hd.mdx", 1, 1, 1, 1),
    ("fixtures/mdx/v1100_slots.mdx", 1, 1, 1, 1),
    ("fixtures/mdx/v1200_shadow.mdx", 1, 1, 1, 1),
    ("corpus/DustEmitter.mdx", 0, 1, 0, 0),
    ("corpus/FireSmallBurn.mdx", 0, 1, 0, 0),
    ("corpus/InfernalMagicFire.mdx", 0, 1, 0, 0),
    ("corpus/PackHorse.mdx", 0, 1, 0, 0),
    ("corpus/blob.mdx", 0, 0, 1, 1),
];

/// The files of [`COUNTS`] that are present (the corpus's only when it is).
fn files(test: &str) -> Vec<(PathBuf, [usize; 4])> {
    let corpus = relic_testkit::corpus_dir(test).map(|c| c.join("mdx"));
    COUNTS
        .iter()
        .filter_map(|&(name, a, b, c, d)| {
            let path = match name.strip_prefix("corpus/") {
                Some(file) => corpus.as_ref()?.join(file),
                None => root().join(name),
            };
            Some((path, [a, b, c, d]))
        })
        .collect()
}

/// Every emitter record of a file with what its indices name: (record, its texture, its
/// material's textures).
fn records(file: &MdxFile) -> Vec<(EmitterChunk, Option<Texture>, Vec<Texture>)> {
    let textures: Vec<&Texture> =
        file.chunks.iter().filter_map(|c| if let Chunk::Textures(t) = c { Some(t) } else { None }).flatten().collect();
    let materials: Vec<&Material> =
        file.chunks.iter().filter_map(|c| if let Chunk::Materials(m) = c { Some(m) } else { None }).flatten().collect();
    let texture = |id: i32| usize::try_from(id).ok().and_then(|i| textures.get(i)).map(|t| (*t).clone());
    let mut out = Vec::new();
    for c in &file.chunks {
        match c {
            Chunk::ParticleEmitters(v) => out.extend(v.iter().map(|e| (EmitterChunk::Prem(e.clone()), None, vec![]))),
            Chunk::ParticleEmitters2(v) => {
                out.extend(v.iter().map(|e| (EmitterChunk::Pre2(e.clone()), texture(e.texture_id), vec![])))
            }
            Chunk::RibbonEmitters(v) => out.extend(v.iter().map(|e| {
                let layers = usize::try_from(e.material_id).ok().and_then(|i| materials.get(i)).map(|m| &m.layers);
                let named = layers.into_iter().flatten().filter_map(|l| texture(l.texture_id)).collect();
                (EmitterChunk::Ribbon(e.clone()), None, named)
            })),
            _ => {}
        }
    }
    out
}

/// A record with what the file that holds it numbers (object and parent ids, texture and
/// material indices, key frames: the clips are laid on the timeline again) and the node tracks
/// (the bone's channels, rebuilt from the model) cleared.
fn numbered_aside(mut e: EmitterChunk) -> EmitterChunk {
    for t in e.tracks_mut() {
        match &mut t.keys {
            Keys::Int(k) => k.iter_mut().for_each(|k| k.frame = 0),
            Keys::Float(k) => k.iter_mut().for_each(|k| k.frame = 0),
            Keys::Vec3(k) => k.iter_mut().for_each(|k| k.frame = 0),
            Keys::Quat(k) => k.iter_mut().for_each(|k| k.frame = 0),
        }
    }
    let node = match &mut e {
        EmitterChunk::Prem(p) => &mut p.node,
        EmitterChunk::Pre2(p) => {
            p.texture_id = 0;
            &mut p.node
        }
        EmitterChunk::Ribbon(r) => {
            r.material_id = 0;
            &mut r.node
        }
    };
    node.object_id = 0;
    node.parent_id = 0;
    node.tracks.clear();
    e
}

fn kinds(model: &relic_core::Model) -> (usize, usize) {
    let n = |k: EmitterKind| model.emitters.iter().filter(|e| e.kind == k).count();
    (n(EmitterKind::Particle), n(EmitterKind::Ribbon))
}

#[test]
fn every_mdx_keeps_its_emitters_through_the_model_and_a_file_built_from_it() {
    let files = files("every_mdx_keeps_its_emitters_through_the_model_and_a_file_built_from_it");
    let mut identical = Vec::new();
    for (path, [prem, pre2, corn, ribb]) in files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let bytes = std::fs::read(&path).unwrap();
        let file = relic_mdx::read(&bytes).unwrap();
        let read = relic_mdx::read_model_with_losses(&bytes).unwrap();
        let mut model = read.value;
        assert_eq!(kinds(&model), (prem + pre2, ribb), "{name}: particles and ribbons");
        // Each carries its record, the file's own, and sits on its node's bone.
        let original = records(&file);
        assert_eq!(original.len(), model.emitters.len(), "{name}");
        for (e, (r, _, _)) in model.emitters.iter().zip(&original) {
            let record = e.record.as_ref().unwrap().get::<EmitterRecord>().unwrap();
            assert_eq!(&record.emitter, r, "{name}");
            assert_eq!(model.bones[e.bone].name, e.name, "{name}: on its own node");
        }
        // CORN stays a loss, counted; the others are no loss.
        let popcorn: Vec<_> = read.losses.iter().filter(|l| l.element == "CORN").collect();
        assert_eq!(popcorn.len(), usize::from(corn > 0), "{name}: {:?}", read.losses);
        if corn > 0 {
            assert!(popcorn[0].what.starts_with(&format!("{corn} PopcornFX emitters")), "{name}: {popcorn:?}");
        }
        assert!(!read.losses.iter().any(|l| ["PREM", "PRE2", "RIBB"].contains(&l.element.as_str())), "{name}");
        // Without the kept file: the same records, each naming the same texture or textures.
        model.extras = None;
        let out = relic_mdx::from_ir(&model, &WriteOptions::default()).unwrap();
        assert!(!out.losses.iter().any(|l| l.element == "emitters"), "{name}: {:?}", out.losses);
        let info = relic_mdx::info(&relic_mdx::write(&out.value).unwrap()).unwrap();
        let count = |key: &str| match info.get(key) {
            Some(relic_core::info::Fact::Count(n)) => *n as usize,
            other => panic!("{name}: {key} {other:?}"),
        };
        assert_eq!(
            [count("particle_emitters"), count("particle_emitters2"), count("ribbons")],
            [prem, pre2, ribb],
            "{name}"
        );
        let written = records(&out.value);
        for ((a, ta, la), (b, tb, lb)) in original.iter().zip(&written) {
            assert_eq!(numbered_aside(a.clone()), numbered_aside(b.clone()), "{name}");
            assert_eq!((ta, la), (tb, lb), "{name}: what the record names");
        }
        let chunks = |f: &MdxFile| -> Vec<Chunk> {
            f.chunks
                .iter()
                .filter(|c| {
                    matches!(c, Chunk::ParticleEmitters(v) if !v.is_empty())
                        || matches!(c, Chunk::ParticleEmitters2(_) | Chunk::RibbonEmitters(_))
                })
                .cloned()
                .collect()
        };
        if chunks(&file) == chunks(&out.value) {
            identical.push(name.clone());
        }
        // Read back: the same emitters, on bones of the same names.
        let back = relic_mdx::to_ir(&out.value).unwrap();
        assert_eq!(kinds(&back), kinds(&model), "{name}");
        for (a, b) in model.emitters.iter().zip(&back.emitters) {
            assert_eq!((&a.name, a.kind, &a.texture, a.size), (&b.name, b.kind, &b.texture, b.size), "{name}");
            assert_eq!(a.tracks, b.tracks, "{name}: {}", a.name);
        }
    }
    // Where nothing else is renumbered (one node, one texture, no keys or clips from frame 0 on),
    // the chunks are the file's.
    if relic_testkit::corpus_dir("every_mdx_keeps_its_emitters_through_the_model_and_a_file_built_from_it").is_some() {
        for name in ["DustEmitter.mdx", "FireSmallBurn.mdx"] {
            assert!(identical.iter().any(|n| n == name), "{name}: {identical:?}");
        }
    }
    eprintln!("emitter chunks byte-identical: {identical:?}");
}

#[test]
fn m2_emitters_are_written_as_pre2_and_ribb() {
    let mut files = vec![root().join("fixtures/m2/v256_effects.m2"), root().join("fixtures/m2/v260_effects_wide.m2")];
    if let Some(corpus) = relic_testkit::corpus_dir("m2_emitters_are_written_as_pre2_and_ribb") {
        files.push(corpus.join("m2/GnomePounder-vanilla.m2"));
    }
    for path in files {
        let name = path.display().to_string();
        let model = relic_m2::read_model(&std::fs::read(&path).unwrap()).unwrap();
        let (particles, ribbons) = kinds(&model);
        assert!(particles + ribbons > 0, "{name}: a model with emitters");
        let out = relic_mdx::write_model(&model, &WriteOptions::default()).unwrap();
        let info = relic_mdx::info(&out.value).unwrap();
        let count = |key: &str| match info.get(key) {
            Some(relic_core::info::Fact::Count(n)) => *n as usize,
            other => panic!("{name}: {key} {other:?}"),
        };
        assert_eq!((count("particle_emitters2"), count("ribbons")), (particles, ribbons), "{name}");
        let foreign = out.losses.iter().find(|l| l.element == "emitters" && l.what.contains("another format"));
        let expected = format!("{} emitters of another format", particles + ribbons);
        assert!(foreign.is_some_and(|l| l.what.starts_with(&expected)), "{name}: {:?}", out.losses);
        // What the M2 record says that PRE2 says too: scale, alpha and colour over life, rows.
        let file = relic_mdx::read(&out.value).unwrap();
        let pre2: Vec<&relic_mdx::file::ParticleEmitter2> = file
            .chunks
            .iter()
            .filter_map(|c| if let Chunk::ParticleEmitters2(v) = c { Some(v) } else { None })
            .flatten()
            .collect();
        let m2: Vec<relic_m2::EmitterRecord> = model
            .emitters
            .iter()
            .filter(|e| e.kind == EmitterKind::Particle)
            .map(|e| e.record.as_ref().unwrap().get::<relic_m2::EmitterRecord>().unwrap().clone())
            .collect();
        assert_eq!(pre2.len(), m2.len(), "{name}");
        for (p, r) in pre2.iter().zip(&m2) {
            let particle = r.particle.as_ref().unwrap();
            let life = &particle.life;
            assert_eq!(p.segment_scaling, life.sizes.map(|s| 2.0 * s.abs()), "{name}");
            assert_eq!(p.segment_alpha, [0, 1, 2].map(|k| life.colors[k][3]), "{name}");
            let [b, g, r, _] = life.colors[0];
            assert_eq!(p.segment_color[0], [b, g, r].map(|x| f32::from(x) / 255.0), "{name}");
            assert_eq!((p.rows, p.columns), (u32::from(particle.texture_rows), u32::from(particle.texture_cols)));
        }
        let back = relic_mdx::read_model(&out.value).unwrap();
        assert_eq!(kinds(&back), (particles, ribbons), "{name}");
        for (a, b) in model.emitters.iter().zip(&back.emitters) {
            assert_eq!(a.kind, b.kind, "{name}");
            assert_eq!(a.texture.as_ref().map(|t| &t.path), b.texture.as_ref().map(|t| &t.path), "{name}");
        }
    }
}

/// An emitter a tool gave back a hair off its bone is still that bone's node; one moved is a
/// node of its own under the bone, noted.
#[test]
fn an_emitter_moved_off_its_bone_gets_a_node_of_its_own() {
    let bytes = std::fs::read(root().join("fixtures/mdx/v800_full.mdx")).unwrap();
    let mut model = relic_mdx::read_model(&bytes).unwrap();
    model.extras = None;
    let nodes = |m: &relic_core::Model| {
        let out = relic_mdx::from_ir(m, &WriteOptions::default()).unwrap();
        let back = relic_mdx::to_ir(&out.value).unwrap();
        let added = out.losses.iter().any(|l| l.what.contains("not a bone of their own"));
        (back.bones.len(), back.emitters.len(), added)
    };
    let (bones, emitters, added) = nodes(&model);
    assert_eq!((emitters, added), (3, false));
    model.emitters[1].transform.translation[0] += 1e-6;
    assert_eq!(nodes(&model), (bones, 3, false), "float noise");
    model.emitters[1].transform.translation[0] += 1.0;
    assert_eq!(nodes(&model), (bones + 1, 3, true), "moved");
}
