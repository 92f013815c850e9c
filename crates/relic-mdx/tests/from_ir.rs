//! Common model → MDX: every fixture and corpus file goes MDX → model → MDX byte for byte (the
//! file kept with the model) and, without the kept file, MDX → model → MDX 800 → model to the
//! same model; models of other formats (M2, ABC) are written as MDX that reads back with their
//! counts, the reductions listed.

// Test code: a failed unwrap or index is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::path::{Path, PathBuf};

use relic_core::WriteOptions;
use relic_mdx::file::Chunk;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn files_in(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == ext))
        .collect();
    files.sort();
    files
}

fn mdx_files(test: &str) -> Vec<PathBuf> {
    let mut files = files_in(&root().join("fixtures/mdx"), "mdx");
    assert_eq!(files.len(), 5);
    match relic_testkit::corpus_dir(test) {
        Some(corpus) => {
            let more = files_in(&corpus.join("mdx"), "mdx");
            assert_eq!(more.len(), 9, "the corpus's MDX files");
            files.extend(more);
        }
        None => eprintln!("{test}: the corpus (../shared/corpus) is absent: fixtures only"),
    }
    files
}

#[test]
fn mdx_to_model_to_mdx_is_byte_identical_and_the_rebuild_is_the_same_model() {
    for path in mdx_files("mdx_to_model_to_mdx_is_byte_identical_and_the_rebuild_is_the_same_model") {
        let name = path.display();
        let bytes = std::fs::read(&path).unwrap();
        let model = relic_mdx::read_model(&bytes).unwrap();
        let out = relic_mdx::write_model(&model, &WriteOptions::default()).unwrap();
        assert!(out.value == bytes, "{name}: not byte-identical");
        assert!(out.losses.is_empty(), "{name}: {:?}", out.losses);
        // A file without a model name is named after itself by `relic::load_model`: still the
        // model read from it (File00001202_98f1fm0.mdx of the corpus has no name).
        if model.name.is_empty() {
            let mut named = model.clone();
            named.name = "named_after_its_file".into();
            let out = relic_mdx::write_model(&named, &WriteOptions::default()).unwrap();
            assert!(out.value == bytes && out.losses.is_empty(), "{name}: named after its file: {:?}", out.losses);
        }
        // Without the kept file: built from the model, as version 800, and read back the same.
        let rebuilt = relic_mdx::verify::rebuild(&model).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(rebuilt.contains("the same model"), "{name}: {rebuilt}");
        // The corpus check agrees.
        let checks = relic_mdx::verify::corpus_checks(&bytes);
        assert_eq!(checks.failures().count(), 0, "{name}: {checks:?}");
    }
}

#[test]
fn an_edited_model_is_built_from_the_model_and_keeps_sequence_speed_and_rarity() {
    let bytes = std::fs::read(root().join("fixtures/mdx/v800_full.mdx")).unwrap();
    let file = relic_mdx::read(&bytes).unwrap();
    let mut model = relic_mdx::read_model(&bytes).unwrap();
    model.name.push_str(" edited");
    let out = relic_mdx::from_ir(&model, &WriteOptions::default()).unwrap();
    assert!(out.losses.iter().any(|l| l.element == "extras"), "{:?}", out.losses);
    let seqs = |f: &relic_mdx::MdxFile| -> Vec<(String, f32, f32)> {
        f.chunks
            .iter()
            .filter_map(|c| if let Chunk::Sequences(s) = c { Some(s) } else { None })
            .flatten()
            .map(|s| (s.name.to_text(), s.move_speed, s.rarity))
            .collect()
    };
    assert!(!seqs(&file).is_empty());
    assert_eq!(seqs(&out.value), seqs(&file));
    assert_eq!(out.value.version(), 800);
    let back = relic_mdx::read_model(&relic_mdx::write(&out.value).unwrap()).unwrap();
    assert_eq!(back.name, model.name);
}

#[test]
fn a_version_past_1000_is_refused_for_a_model_built_from_scratch() {
    let bytes = std::fs::read(root().join("fixtures/mdx/v800_full.mdx")).unwrap();
    let mut model = relic_mdx::read_model(&bytes).unwrap();
    model.extras = None;
    let e = relic_mdx::from_ir(&model, &WriteOptions { version: Some(1100) }).unwrap_err();
    assert!(e.to_string().contains("version 1100"), "{e}");
    // The kept file of a Reforged model goes back as it was.
    let hd = std::fs::read(root().join("fixtures/mdx/v1000_hd.mdx")).unwrap();
    let model = relic_mdx::read_model(&hd).unwrap();
    let out = relic_mdx::write_model(&model, &WriteOptions { version: Some(1000) }).unwrap();
    assert!(out.value == hd);
}

/// Writes `model` as MDX, reads it back and checks the counts the conversion keeps.
fn cross(name: &str, model: &relic_core::Model) -> (relic_core::Model, Vec<relic_core::Loss>) {
    let out = relic_mdx::write_model(model, &WriteOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
    let info = relic_mdx::info(&out.value).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(info.get("geosets").is_some(), "{name}");
    let back = relic_mdx::read_model(&out.value).unwrap_or_else(|e| panic!("{name}: {e}"));
    back.validate().unwrap();
    let drawn: Vec<&relic_core::model::Mesh> = model.meshes.iter().filter(|m| m.lod.level == 0).collect();
    let vertices: usize = drawn.iter().map(|m| m.positions.len()).sum();
    let triangles: usize = drawn.iter().map(|m| m.triangles.len()).sum();
    assert_eq!(back.meshes.iter().map(|m| m.triangles.len()).sum::<usize>(), triangles, "{name}");
    assert!(back.meshes.iter().map(|m| m.positions.len()).sum::<usize>() <= vertices, "{name}");
    assert!(back.bones.len() >= model.bones.len(), "{name}");
    // Bones keep their names and parents (in the order MDX reads them: parents first by depth).
    let parent_name = |m: &relic_core::Model, b: &relic_core::model::Bone| {
        b.parent.and_then(|p| m.bones.get(p)).map(|p| p.name.clone())
    };
    for a in &model.bones {
        let b = back.bones.iter().find(|b| b.name == a.name).unwrap_or_else(|| panic!("{name}: bone {:?}", a.name));
        assert_eq!(parent_name(model, a), parent_name(&back, b), "{name}: bone {:?}", a.name);
    }
    assert_eq!(back.animations.len(), model.animations.len(), "{name}");
    for (a, b) in model.animations.iter().zip(&back.animations) {
        assert_eq!((&a.name, a.looping), (&b.name, b.looping), "{name}");
        assert!((a.duration - b.duration).abs() <= 0.0005, "{name}: {} {}", a.duration, b.duration);
    }
    assert_eq!(back.global_sequences.len(), model.global_sequences.len(), "{name}");
    (back, out.losses)
}

#[test]
fn m2_models_convert_to_mdx_with_their_reductions_listed() {
    let mut files = files_in(&root().join("fixtures/m2"), "m2");
    if let Some(corpus) = relic_testkit::corpus_dir("m2_models_convert_to_mdx_with_their_reductions_listed") {
        files.extend(files_in(&corpus.join("m2"), "m2").into_iter().take(3));
    }
    let mut weighted = 0;
    for path in files {
        let name = path.display().to_string();
        let Ok(model) = relic_m2::read_model(&std::fs::read(&path).unwrap()) else { continue };
        let (_, losses) = cross(&name, &model);
        let unequal = model.meshes.iter().any(|m| {
            (0..m.skin.vertex_count()).any(|v| {
                let w = m.skin.vertex(v);
                w.iter().any(|i| (i.weight - 1.0 / w.len() as f32).abs() > 1e-3)
            })
        });
        if unequal {
            weighted += 1;
            assert!(losses.iter().any(|l| l.what.contains("weighted unequally")), "{name}: {losses:?}");
        }
        if !model.emitters.is_empty() {
            assert!(losses.iter().any(|l| l.element == "emitters"), "{name}: {losses:?}");
        }
    }
    eprintln!("{weighted} M2 models with unequal weights");
}

#[test]
fn abc_models_convert_to_mdx_with_their_reductions_listed() {
    for name in ["v12_full.abc", "v6_lods.abc", "v13.abc"] {
        let path = root().join("fixtures/abc").join(name);
        let model = relic_abc::read_model(&std::fs::read(&path).unwrap()).unwrap();
        let (_, losses) = cross(name, &model);
        if model.meshes.iter().any(|m| m.lod.level > 0) {
            assert!(losses.iter().any(|l| l.what.contains("level of detail")), "{name}: {losses:?}");
        }
    }
}

#[test]
fn an_m2_to_mdx_conversion_keeps_the_fixture_counts() {
    let path = root().join("fixtures/m2/v256_hermite.m2");
    let model = relic_m2::read_model(&std::fs::read(&path).unwrap()).unwrap();
    let (back, _) = cross("v256_hermite.m2", &model);
    assert_eq!(back.meshes.len(), model.meshes.iter().filter(|m| m.lod.level == 0).count());
    assert_eq!(back.bones.len(), model.bones.len() + back.bones.len() - model.bones.len());
    let keys = |m: &relic_core::Model| m.animations.iter().map(|a| a.channels.len()).sum::<usize>();
    assert!(keys(&back) > 0);
}

/// A small model of another source: two bones, one triangle of three vertices (one weighted
/// 0.7/0.3, one 0.5/0.5, one rigid), no normals, one clip with a key past its end.
fn small_model() -> relic_core::Model {
    use relic_core::model::*;
    let bones = relic_testkit::bone_chain(2, "b");
    let skin = Skin::from_vertices([
        vec![Influence { bone: 0, weight: 0.7 }, Influence { bone: 1, weight: 0.3 }],
        vec![Influence { bone: 0, weight: 0.5 }, Influence { bone: 1, weight: 0.5 }],
        vec![Influence { bone: 1, weight: 1.0 }],
    ]);
    let mesh = Mesh {
        name: "geoset 0".into(),
        material: Some(0),
        positions: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
        uv_sets: vec![vec![[0.0, 0.0]; 3]],
        skin,
        triangles: vec![[0, 1, 2]],
        ..Mesh::default()
    };
    let channel = Channel {
        bone: 1,
        clock: Clock::Animation,
        interpolation: Interpolation::Linear,
        times: vec![0.0, 1.0, 3.0],
        values: ChannelValues::Translation(vec![[0.0, 1.0, 0.0], [0.0, 2.0, 0.0], [0.0, 4.0, 0.0]]),
    };
    Model {
        name: "small".into(),
        bones,
        meshes: vec![mesh],
        materials: vec![Material {
            name: "material 0".into(),
            textures: vec![TextureRef { path: "a.blp".into(), uv_set: Some(0), ..TextureRef::default() }],
            depth_write: true,
            ..Material::default()
        }],
        animations: vec![Animation {
            name: "Stand".into(),
            duration: 2.0,
            looping: true,
            channels: vec![channel],
            ..Animation::default()
        }],
        ..Model::default()
    }
}

#[test]
fn weights_become_matrix_groups_and_a_clip_is_cut_at_its_end_with_counts() {
    let model = small_model();
    model.validate().unwrap();
    let out = relic_mdx::write_model(&model, &WriteOptions::default()).unwrap();
    let has = |what: &str| out.losses.iter().any(|l| l.what.contains(what));
    // Only the 0.7/0.3 vertex is counted: 0.5/0.5 is an equal split, and one bone is one share.
    assert!(has("1 vertices weighted unequally"), "{:?}", out.losses);
    assert!(has("1 meshes without normals"), "{:?}", out.losses);
    assert!(has("1 channels with keys outside their clip"), "{:?}", out.losses);
    let back = relic_mdx::read_model(&out.value).unwrap();
    let mesh = &back.meshes[0];
    let shares: Vec<Vec<(u32, f32)>> =
        (0..3).map(|v| mesh.skin.vertex(v).iter().map(|i| (i.bone, i.weight)).collect()).collect();
    assert_eq!(shares, [vec![(0, 0.5), (1, 0.5)], vec![(0, 0.5), (1, 0.5)], vec![(1, 1.0)]]);
    assert_eq!(mesh.normals.len(), 3);
    // The key at 3 s is dropped and one sampled at the clip's end (2 s): halfway from 2 to 4.
    let c = &back.animations[0].channels[0];
    assert_eq!(c.times, [0.0, 1.0, 2.0]);
    let relic_core::model::ChannelValues::Translation(v) = &c.values else { panic!() };
    assert!((v[2][1] - 3.0).abs() < 1e-5, "{v:?}");
    assert_eq!(back.animations[0].duration, 2.0);
}

#[test]
fn a_mesh_over_the_geoset_limits_is_split_by_triangles() {
    use relic_core::model::*;
    // 30 bones; vertex i of 70,002 weighted to the pair (i mod 30, i/30 mod 30): 900 groups, and
    // more vertices than a u16 index reaches.
    let mut model = small_model();
    model.bones = relic_testkit::bone_chain(30, "b");
    model.animations.clear();
    let n = 70_002usize;
    let mesh = &mut model.meshes[0];
    mesh.positions = (0..n).map(|i| [i as f32 * 0.001, (i % 3) as f32, 0.0]).collect();
    mesh.uv_sets = vec![vec![[0.0, 0.0]; n]];
    mesh.skin = Skin::from_vertices((0..n).map(|i| {
        let (a, b) = ((i % 30) as u32, ((i / 30) % 30) as u32);
        if a == b {
            vec![Influence { bone: a, weight: 1.0 }]
        } else {
            vec![Influence { bone: a, weight: 0.5 }, Influence { bone: b, weight: 0.5 }]
        }
    }));
    mesh.triangles = (0..n as u32 / 3).map(|t| [3 * t, 3 * t + 1, 3 * t + 2]).collect();
    model.validate().unwrap();
    let out = relic_mdx::write_model(&model, &WriteOptions::default()).unwrap();
    assert!(out.losses.iter().any(|l| l.what.contains("split into several geosets")), "{:?}", out.losses);
    let back = relic_mdx::read_model(&out.value).unwrap();
    assert!(back.meshes.len() > 1);
    assert_eq!(back.meshes.iter().map(|m| m.triangles.len()).sum::<usize>(), n / 3);
    assert_eq!(back.meshes.iter().map(|m| m.positions.len()).sum::<usize>(), n);
    // Every vertex keeps its bone pair.
    let pairs = |m: &relic_core::Model| -> std::collections::BTreeSet<(u64, Vec<String>)> {
        m.meshes
            .iter()
            .flat_map(|mesh| {
                (0..mesh.positions.len()).map(move |v| {
                    let names = mesh.skin.vertex(v).iter().map(|i| m.bones[i.bone as usize].name.clone()).collect();
                    ((mesh.positions[v][0] * 1000.0).round() as u64, names)
                })
            })
            .collect()
    };
    assert_eq!(pairs(&back), pairs(&model));
}

/// The largest distance between the posed vertices of `model`'s level-0 meshes and `back`'s
/// (mesh for mesh, vertex for vertex), over a few times of every clip, counting the vertices of
/// one bone or equal shares only (the others are reduced and move otherwise), relative to the
/// model's size.
fn posed_difference(model: &relic_core::Model, back: &relic_core::Model) -> f32 {
    use relic_anim::ClipTime;
    use relic_anim::bounds::posed_positions;
    let drawn: Vec<usize> = (0..model.meshes.len()).filter(|&m| model.meshes[m].lod.level == 0).collect();
    let exact = |m: usize, v: usize| {
        let w = model.meshes[m].skin.vertex(v);
        w.iter().all(|i| (i.weight - 1.0 / w.len() as f32).abs() <= 1e-6)
    };
    let size = model.meshes.iter().flat_map(|m| &m.positions).flatten().fold(1f32, |s, c| s.max(c.abs()));
    let mut worst = 0f32;
    for a in 0..model.animations.len() {
        let d = model.animations[a].duration;
        for t in [0.0, 0.3 * d, 0.5 * d, 0.77 * d, d] {
            let p = posed_positions(model, Some(a), ClipTime::at(t)).unwrap();
            let q = posed_positions(back, Some(a), ClipTime::at(t)).unwrap();
            for (k, &m) in drawn.iter().enumerate() {
                for (v, (x, y)) in p[m].iter().zip(&q[k]).enumerate() {
                    if exact(m, v) {
                        let d = (0..3).map(|c| (x[c] - y[c]).abs()).fold(0f32, f32::max);
                        worst = worst.max(d / size);
                    }
                }
            }
        }
    }
    worst
}

#[test]
fn converted_models_pose_as_their_source() {
    let m2 = ["v256_hermite.m2", "v256_linear.m2", "v256_global_sequence.m2", "v256_bezier.m2"]
        .map(|n| (n, relic_m2::read_model(&std::fs::read(root().join("fixtures/m2").join(n)).unwrap()).unwrap()));
    let abc = ["v12_full.abc", "v13.abc", "v6_basic.abc"]
        .map(|n| (n, relic_abc::read_model(&std::fs::read(root().join("fixtures/abc").join(n)).unwrap()).unwrap()));
    let mut models: Vec<(String, relic_core::Model)> =
        m2.into_iter().chain(abc).map(|(n, m)| (n.to_string(), m)).collect();
    if let Some(corpus) = relic_testkit::corpus_dir("converted_models_pose_as_their_source") {
        for path in files_in(&corpus.join("m2"), "m2") {
            models.push((path.display().to_string(), relic_m2::read_model(&std::fs::read(&path).unwrap()).unwrap()));
        }
        for path in files_in(&corpus.join("abc"), "abc").into_iter().chain(files_in(&corpus.join("abc"), "ABC")) {
            if let Ok(m) = relic_abc::read_model(&std::fs::read(&path).unwrap()) {
                models.push((path.display().to_string(), m));
            }
        }
    }
    for (name, model) in models {
        let out = relic_mdx::write_model(&model, &WriteOptions::default()).unwrap();
        let back = relic_mdx::read_model(&out.value).unwrap();
        // Bones in the order of the source (MDX reads them parents first by depth).
        let worst = posed_difference(&model, &reordered(&back, &model));
        eprintln!(
            "{name}: {} clips, {} bones, {} vertices, worst {worst}",
            model.animations.len(),
            model.bones.len(),
            model.meshes.iter().map(|m| m.positions.len()).sum::<usize>()
        );
        assert!(worst < 1e-3, "{name}: posed vertices differ by {worst} of the model's size");
    }
}

/// `back` with its bones put in `model`'s order (by name) and the references remapped; bones
/// `model` lacks go after.
fn reordered(back: &relic_core::Model, model: &relic_core::Model) -> relic_core::Model {
    let mut order: Vec<usize> =
        model.bones.iter().filter_map(|b| back.bones.iter().position(|c| c.name == b.name)).collect();
    let rest: Vec<usize> = (0..back.bones.len()).filter(|i| !order.contains(i)).collect();
    order.extend(rest);
    let mut new_of = vec![0; back.bones.len()];
    for (new, &old) in order.iter().enumerate() {
        new_of[old] = new;
    }
    let mut out = back.clone();
    out.bones = order.iter().map(|&o| back.bones[o].clone()).collect();
    for b in &mut out.bones {
        b.parent = b.parent.map(|p| new_of[p]);
    }
    for m in &mut out.meshes {
        for i in &mut m.skin.influences {
            i.bone = new_of[i.bone as usize] as u32;
        }
    }
    for a in &mut out.animations {
        for c in &mut a.channels {
            c.bone = new_of[c.bone];
        }
        for e in &mut a.events {
            e.bone = e.bone.map(|b| new_of[b]);
        }
    }
    for a in &mut out.attachments {
        a.bone = new_of[a.bone];
    }
    out
}

/// A clip too long for MDX's u32 milliseconds is refused naming its interval, never an integer
/// overflow (the gltf fuzz target's finding: a duration of 3.4e38 s panicked on `start + end`).
#[test]
fn a_clip_past_the_u32_milliseconds_is_refused_not_overflowed() {
    let path = files_in(&root().join("fixtures/mdx"), "mdx").into_iter().next().unwrap();
    let mut model = relic_mdx::read_model(&std::fs::read(&path).unwrap()).unwrap();
    assert!(!model.animations.is_empty(), "{}: a fixture with clips", path.display());
    model.extras = None;
    model.animations[0].duration = f32::MAX;
    let e = relic_mdx::write_model(&model, &WriteOptions::default()).unwrap_err().to_string();
    assert!(e.contains("interval_end"), "{e}");
}

/// A model written as Reforged's 900 or 1000 (a Reforged file exported without relic's extras,
/// `relic convert x.glb x.mdx --version 1000`): the version's added fields get values that change
/// nothing, and the file reads back to the model written as 800 does.
#[test]
fn a_model_is_written_as_900_and_1000_too() {
    let bytes = std::fs::read(root().join("fixtures/mdx/v800_full.mdx")).unwrap();
    let mut model = relic_mdx::read_model(&bytes).unwrap();
    model.extras = None;
    let back = |version: Option<u32>| {
        let out = relic_mdx::write_model(&model, &WriteOptions { version }).unwrap();
        let file = relic_mdx::read(&out.value).unwrap();
        (file.version(), relic_mdx::to_ir(&file).unwrap())
    };
    let (v800, classic) = back(None);
    assert_eq!(v800, 800);
    for version in [900, 1000] {
        let (v, reforged) = back(Some(version));
        assert_eq!(v, version);
        let mut reforged = reforged;
        reforged.source = classic.source;
        reforged.extras = None;
        let mut classic = classic.clone();
        classic.extras = None;
        // The emitters' records say the version they were read from; the records are the same.
        let records = |m: &mut relic_core::Model| -> Vec<relic_mdx::EmitterChunk> {
            m.emitters
                .iter_mut()
                .map(|e| e.record.take().unwrap().get::<relic_mdx::EmitterRecord>().unwrap().emitter.clone())
                .collect()
        };
        assert_eq!(records(&mut reforged), records(&mut classic), "version {version}");
        assert_eq!(classic.emitters.len(), 3, "PREM, PRE2 and RIBB (the probe: 1, 1, 1)");
        assert_eq!(reforged, classic, "version {version}");
    }
    let refused = relic_mdx::write_model(&model, &WriteOptions { version: Some(1100) }).unwrap_err();
    assert!(refused.to_string().contains("800, 900 and 1000"), "{refused}");
}
