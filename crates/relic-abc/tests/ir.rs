//! The common-model mapping: round trips, the winding and frame choice, the real-data proofs
//! through the model and relic-anim, and models that did not come from ABC.

// Test helpers may fail loudly: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use relic_abc::{AbcFile, read, read_model, write_model};
use relic_anim::pose::ClipTime;
use relic_anim::proofs::{key_boxes, rest_pose, stored_key_boxes};
use relic_core::model::{
    Animation, Attachment, Bone, Channel, ChannelValues, Clock, Event, FormatExtras, Influence, Interpolation,
    Material, Mesh, Model, MorphChannel, MorphTarget, Skin, Transform,
};
use relic_core::{Loss, WriteOptions};

fn all_files() -> Vec<(String, Vec<u8>)> {
    let mut files = common::fixtures();
    files.extend(common::corpus().unwrap_or_default());
    files
}

fn v12_opts(version: u32) -> WriteOptions {
    WriteOptions { version: Some(version) }
}

/// The corpus checks of an ABC file `what` wrote pass, and all five of them ran: `parse`,
/// `rewrite`, `header-counts` (a skip for v6, which has none), `ir-round-trip` and the version's
/// proof (`v12-weights` for v9–v13, `v6-key-boxes` for v6). Returns how many passed (5, or 4 for
/// v6): an empty list of checks passes nothing.
fn assert_checks_pass(bytes: &[u8], what: &str) -> usize {
    use relic_core::check::Status;
    let checks = relic_abc::verify::corpus_checks(bytes);
    let v6 = relic_abc::detect(bytes).unwrap().source.version == 6;
    let proof = if v6 { "v6-key-boxes" } else { "v12-weights" };
    let names: Vec<&str> = checks.0.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["parse", "rewrite", "header-counts", "ir-round-trip", proof], "{what}: {:?}", checks.0);
    assert!(checks.passed(), "{what}: {:?}", checks.0);
    let passes = checks.0.iter().filter(|c| c.status == Status::Pass).count();
    assert_eq!(passes, if v6 { 4 } else { 5 }, "{what}: checks passed: {:?}", checks.0);
    passes
}

/// ABC → model → ABC: the same bytes, nothing reported lost.
#[test]
fn round_trip_through_the_model_is_byte_identical() {
    for (name, bytes) in all_files() {
        let model = read_model(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        model.validate().unwrap_or_else(|e| panic!("{name}: model invalid: {e}"));
        let out = write_model(&model, &WriteOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(out.losses.is_empty(), "{name}: {:?}", out.losses);
        assert!(out.value == bytes, "{name}: not byte-identical");
        assert_eq!(read(&out.value).unwrap(), read(&bytes).unwrap(), "{name}");
    }
}

/// The extras also work in their JSON form (what glTF export carries).
#[test]
fn json_extras_give_the_same_bytes() {
    for (name, bytes) in all_files() {
        let mut model = read_model(&bytes).unwrap();
        let json = model.extras.as_ref().unwrap().json().unwrap();
        model.extras = Some(FormatExtras::from_json(relic_abc::FORMAT, json));
        let out = write_model(&model, &WriteOptions::default()).unwrap();
        assert!(out.value == bytes && out.losses.is_empty(), "{name}: {:?}", out.losses);
    }
}

/// Fraction of triangles whose right-hand normal `(b − a) × (c − a)` agrees with their vertex
/// normals: 1 means counter-clockwise front faces with outward normals.
fn ccw_fraction(model: &Model, lod0_only: bool) -> f64 {
    let (mut agree, mut total) = (0usize, 0usize);
    for mesh in model.meshes.iter().filter(|m| !lod0_only || m.lod.level == 0) {
        for t in &mesh.triangles {
            let [a, b, c] = t.map(|i| mesh.positions[i as usize]);
            let (u, v) = ([b[0] - a[0], b[1] - a[1], b[2] - a[2]], [c[0] - a[0], c[1] - a[1], c[2] - a[2]]);
            let n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
            let s = t.iter().fold([0.0f32; 3], |s, &i| {
                let x = mesh.normals[i as usize];
                [s[0] + x[0], s[1] + x[1], s[2] + x[2]]
            });
            let dot = n[0] * s[0] + n[1] * s[1] + n[2] * s[2];
            if n == [0.0; 3] {
                continue;
            }
            total += 1;
            agree += usize::from(dot > 0.0);
        }
    }
    agree as f64 / total.max(1) as f64
}

/// §3.2: both families come out counter-clockwise around their normals (LOD 0 of every real
/// file and fixture > 0.99), and reversing the triangles would make it fail.
#[test]
fn triangles_are_counter_clockwise_around_the_normals() {
    for (name, bytes) in all_files() {
        let mut model = read_model(&bytes).unwrap();
        if model.meshes.is_empty() {
            continue;
        }
        let lod0 = ccw_fraction(&model, true);
        println!("{name}: LOD 0 {lod0:.4}, all LODs {:.4}", ccw_fraction(&model, false));
        assert!(lod0 > 0.99, "{name}: {lod0}");
        for mesh in &mut model.meshes {
            mesh.triangles.iter_mut().for_each(|t| t.swap(1, 2));
        }
        assert!(ccw_fraction(&model, true) < 0.01, "{name}: the test must be able to fail");
    }
}

/// §3.4 through the model: relic-anim posing the converted v6 model reproduces every stored
/// keyframe box within 0.01.
#[test]
fn v6_key_boxes_through_the_model_and_relic_anim() {
    let mut worst = Vec::new();
    for (name, bytes) in all_files() {
        if relic_abc::detect(&bytes).unwrap().source.version != 6 {
            continue;
        }
        if relic_testkit::known_failure("v6 key boxes", &format!("abc/{name}")).is_some() {
            continue;
        }
        let model = read_model(&bytes).unwrap();
        let detail = key_boxes(&model, &stored_key_boxes(&model), 0.01).unwrap_or_else(|e| panic!("{name}: {e}"));
        println!("{name}: {detail}");
        worst.push(name);
    }
    assert!(worst.len() >= 4);
}

/// §4.7 through the model: the rest pose of the converted v9–v13 model, skinned by relic-anim,
/// gives back the stored LOD-0 vertices.
#[test]
fn v12_rest_pose_through_the_model_and_relic_anim() {
    for (name, bytes) in all_files() {
        if relic_abc::detect(&bytes).unwrap().source.version == 6 {
            continue;
        }
        let mut model = read_model(&bytes).unwrap();
        model.meshes.retain(|m| m.lod.level == 0);
        let detail = rest_pose(&model, 1e-3).unwrap_or_else(|e| panic!("{name}: {e}"));
        println!("{name}: {detail}");
    }
}

/// v6 rotations are conjugated unless TransformInfo says otherwise: reading the LithTech 1.5
/// fixture (FixAnimKeyframes 0) as if it had no TransformInfo misses its keyframe boxes.
#[test]
fn conjugation_follows_transform_info() {
    let bytes = std::fs::read(common::fixtures_dir().join("v6_transform_info.abc")).unwrap();
    let (status, detail) = common::check(&bytes, "v6-key-boxes");
    assert_eq!(status, relic_core::check::Status::Pass, "{detail}");
    let AbcFile::V6(mut file) = read(&bytes).unwrap() else { panic!() };
    file.transform_info = None;
    file.order.retain(|s| *s != relic_abc::file::V6SectionId::TransformInfo);
    let without = relic_abc::write(&AbcFile::V6(file)).unwrap();
    let (status, detail) = common::check(&without, "v6-key-boxes");
    assert_eq!(status, relic_core::check::Status::Fail, "conjugating the keys must miss the boxes: {detail}");
}

/// Without extras the writers rebuild everything from the model; the files read back and, for
/// v9–v13, give back the same geometry exactly.
#[test]
fn models_without_extras_rebuild_files_that_read_back() {
    for (name, bytes) in all_files() {
        let mut model = read_model(&bytes).unwrap();
        model.extras = None;
        for version in [6, 12] {
            let out = write_model(&model, &v12_opts(version)).unwrap_or_else(|e| panic!("{name} → v{version}: {e}"));
            let back = read_model(&out.value).unwrap_or_else(|e| panic!("{name} → v{version}: {e}"));
            back.validate().unwrap_or_else(|e| panic!("{name} → v{version}: {e}"));
            let checks = relic_abc::verify::corpus_checks(&out.value);
            let known = relic_testkit::known_failure("rebuilt files' checks", &format!("abc/{name}")).is_some();
            assert!(checks.passed() || known, "{name} → v{version}: {:?}", checks.failures().collect::<Vec<_>>());
            if version == 12 && model.source.unwrap().version != 6 {
                assert_eq!(back.meshes.len(), model.meshes.len(), "{name}");
                for (a, b) in model.meshes.iter().zip(&back.meshes) {
                    assert_eq!(a.positions, b.positions, "{name} {}", a.name);
                    assert_eq!(a.triangles, b.triangles, "{name} {}", a.name);
                    assert_eq!(a.uv_sets, b.uv_sets, "{name} {}", a.name);
                }
            }
        }
    }
}

/// Editing the model takes effect: a moved vertex is written where it now is, with weight
/// offsets recomputed for its mesh (the §4.7 proof still holds), the other meshes stay exact.
#[test]
fn edits_in_the_model_are_written() {
    let bytes = std::fs::read(common::fixtures_dir().join("v12_full.abc")).unwrap();
    let mut model = read_model(&bytes).unwrap();
    model.meshes[0].positions[1][1] += 0.25;
    let out = write_model(&model, &WriteOptions::default()).unwrap();
    let back = read_model(&out.value).unwrap();
    assert_eq!(back.meshes[0].positions[1], model.meshes[0].positions[1]);
    assert_checks_pass(&out.value, "the edited model");
    let (AbcFile::V12(a), AbcFile::V12(b)) = (read(&bytes).unwrap(), read(&out.value).unwrap()) else { panic!() };
    let (pa, pb) = (&a.pieces.unwrap().pieces, &b.pieces.unwrap().pieces);
    assert_ne!(pa[0].lods[0], pb[0].lods[0]);
    assert_eq!(pa[1].lods, pb[1].lods, "the untouched piece is written exactly");
}

fn pose_positions(model: &Model, animation: usize, t: f32) -> Vec<Vec<[f32; 3]>> {
    relic_anim::bounds::posed_positions(model, Some(animation), ClipTime::at(t)).unwrap()
}

/// A v12 model written as v6 (rigid skinning, rotation-only nodes baked) poses the same: every
/// vertex with one influence lands where the original puts it, at every key of every animation.
#[test]
fn v12_model_written_as_v6_poses_like_the_original() {
    let Some(bytes) = common::corpus_file("PARTNER_DANCIN.ABC") else { return };
    let model = read_model(&bytes).unwrap();
    let out = write_model(&model, &v12_opts(6)).unwrap();
    let text: Vec<String> = out.losses.iter().map(Loss::to_string).collect();
    assert!(text.iter().any(|l| l.contains("sockets dropped")), "{text:?}");
    assert!(text.iter().any(|l| l.contains("strongest bone")), "{text:?}");
    assert!(text.iter().any(|l| l.contains("child models")), "{text:?}");
    let back = read_model(&out.value).unwrap();
    let lod0: Vec<&Mesh> = model.meshes.iter().filter(|m| m.lod.level == 0).collect();
    let mut worst = 0.0f32;
    let mut compared = 0usize;
    let lod0_vertices: usize = lod0.iter().map(|m| m.positions.len()).sum();
    for (a, anim) in model.animations.iter().enumerate().step_by(3) {
        for t in [0.0, anim.duration * 0.37, anim.duration] {
            let original = pose_positions(&model, a, t);
            let written = pose_positions(&back, a, t);
            assert_eq!(written.len(), 1, "a v6 file has one mesh");
            assert_eq!(written[0].len(), lod0_vertices, "the LOD-0 meshes merged into it");
            let mut v6_vertex = 0;
            for (m, mesh) in model.meshes.iter().enumerate().filter(|(_, m)| m.lod.level == 0) {
                for v in 0..mesh.positions.len() {
                    if mesh.skin.vertex(v).len() == 1 {
                        let (p, q) = (original[m][v], written[0][v6_vertex + v]);
                        worst = worst.max((0..3).map(|i| (p[i] - q[i]).abs()).fold(0.0, f32::max));
                        compared += 1;
                    }
                }
                v6_vertex += mesh.positions.len();
            }
        }
    }
    println!(
        "{} LOD-0 meshes merged; {compared} single-influence vertex poses, worst difference {worst:.2e}",
        lod0.len()
    );
    assert!(compared > 1000, "{compared} vertex poses compared");
    assert!(worst < 1e-3, "{worst}");
}

fn channel(bone: usize, interpolation: Interpolation, times: Vec<f32>, values: ChannelValues) -> Channel {
    Channel { bone, clock: Clock::Animation, interpolation, times, values }
}

/// A model that is nothing like an ABC file: two roots, two meshes, five influences on a vertex,
/// two UV sets, morph targets, scale keys, cubic and step keys, a socket with scale and id.
fn foreign_model() -> Model {
    let bone = |name: &str, parent: Option<usize>, y: f32| {
        relic_testkit::bone_at(name, parent, if parent.is_some() { 1.0 } else { y }, y)
    };
    let bones = vec![bone("hips", None, 0.0), bone("spine", Some(0), 1.0), bone("prop", None, 3.0)];
    let quad = |name: &str, y: f32| Mesh {
        name: name.into(),
        material: Some(0),
        positions: vec![[-1.0, y, 0.0], [1.0, y, 0.0], [1.0, y + 1.0, 0.0], [-1.0, y + 1.0, 0.0]],
        normals: vec![[0.0, 0.0, 1.0]; 4],
        uv_sets: vec![vec![[0.0, 1.0], [1.0, 1.0], [1.0, 0.0], [0.0, 0.0]], vec![[0.5; 2]; 4]],
        triangles: vec![[0, 1, 2], [0, 2, 3]],
        ..Mesh::default()
    };
    let mut a = quad("body", 0.0);
    let five: Vec<Influence> = (0..5).map(|i| Influence { bone: (i % 3) as u32, weight: 0.2 }).collect();
    a.skin = Skin::from_vertices([
        five.clone(),
        five,
        vec![Influence { bone: 1, weight: 1.0 }],
        vec![Influence { bone: 1, weight: 1.0 }],
    ]);
    let mut b = quad("flag", 2.0);
    b.skin = Skin::from_vertices((0..4).map(|_| vec![Influence { bone: 2, weight: 1.0 }]));
    b.morph_targets = vec![MorphTarget {
        name: "wave".into(),
        position_deltas: vec![[0.0; 3], [0.0, 0.0, 0.5], [0.0, 0.0, 0.5], [0.0; 3]],
        normal_deltas: Vec::new(),
    }];
    let q = |deg: f32| {
        let h = deg.to_radians() / 2.0;
        [0.0, h.sin(), 0.0, h.cos()]
    };
    let walk = Animation {
        name: "walk".into(),
        duration: 1.0,
        looping: true,
        blend_in: 0.25,
        channels: vec![
            channel(
                1,
                Interpolation::CubicSpline,
                vec![0.0, 1.0],
                ChannelValues::Rotation(vec![[0.0; 4], q(0.0), [0.0; 4], [0.0; 4], q(90.0), [0.0; 4]]),
            ),
            channel(
                0,
                Interpolation::Step,
                vec![0.0, 0.5],
                ChannelValues::Translation(vec![[0.0; 3], [0.0, 0.5, 0.0]]),
            ),
            channel(1, Interpolation::Linear, vec![0.0, 1.0], ChannelValues::Scale(vec![[1.0; 3], [2.0; 3]])),
            channel(
                2,
                Interpolation::Linear,
                vec![0.0, 0.25, 1.0],
                ChannelValues::Rotation(vec![q(0.0), q(30.0), q(-30.0)]),
            ),
        ],
        morph_channels: vec![MorphChannel {
            mesh: 1,
            interpolation: Interpolation::Linear,
            times: vec![0.0, 0.5, 1.0],
            weights: vec![0.0, 1.0, 0.0],
        }],
        events: vec![Event { time: 0.5, name: "step".into(), parameter: Some(3), ..Event::default() }],
        ..Animation::default()
    };
    Model {
        name: "foreign".into(),
        bones,
        meshes: vec![a, b],
        materials: vec![Material { name: "cloth".into(), ..Material::default() }],
        animations: vec![walk],
        attachments: vec![Attachment {
            name: "hand".into(),
            id: Some(4),
            bone: 1,
            transform: Transform { scale: [2.0; 3], ..Transform::IDENTITY },
        }],
        ..Model::default()
    }
}

fn has(losses: &[Loss], what: &str) -> bool {
    losses.iter().any(|l| l.to_string().contains(what))
}

#[test]
fn a_foreign_model_writes_v12_and_v6_and_reports_losses() {
    let model = foreign_model();
    model.validate().unwrap();
    let out = write_model(&model, &WriteOptions::default()).unwrap();
    for what in [
        "added a node \"root\"",
        "scale keys dropped",
        "cubic-spline",
        "step keys",
        "morph targets dropped",
        "UV sets",
        "numeric id",
        "scale dropped",
        "parameter dropped",
        "looping flag",
    ] {
        assert!(has(&out.losses, what), "v12 should report {what:?}: {:?}", out.losses);
    }
    let back = read_model(&out.value).unwrap();
    back.validate().unwrap();
    assert_eq!(relic_abc::detect(&out.value).unwrap().source.version, 12);
    assert_eq!(back.bones.len(), 4);
    assert_eq!(back.bones[0].name, "root");
    assert_eq!(back.meshes.len(), 2);
    assert_eq!(back.meshes[0].skin.max_influences(), 5, "ABC keeps every influence");
    assert_eq!(back.attachments[0].name, "hand");
    assert_eq!(back.animations[0].events[0].name, "step");
    assert!((back.animations[0].blend_in - 0.25).abs() < 1e-6);
    assert_checks_pass(&out.value, "v12");

    let out = write_model(&model, &v12_opts(6)).unwrap();
    for what in ["strongest bone", "meshes merged", "materials", "sockets dropped", "scale keys dropped"] {
        assert!(has(&out.losses, what), "v6 should report {what:?}: {:?}", out.losses);
    }
    let back = read_model(&out.value).unwrap();
    back.validate().unwrap();
    assert_eq!(back.meshes.len(), 1);
    assert_eq!(back.meshes[0].skin.max_influences(), 1);
    assert!(!back.meshes[0].morph_targets.is_empty(), "the morph target becomes mesh deformation");
    assert_checks_pass(&out.value, "v6");
    let mut passed = 0;
    for version in [9, 10, 11, 13] {
        let out = write_model(&model, &v12_opts(version)).unwrap();
        assert_eq!(relic_abc::detect(&out.value).unwrap().source.version, version);
        passed += assert_checks_pass(&out.value, &format!("v{version}"));
    }
    assert_eq!(passed, 4 * 5, "checks passed over v9, v10, v11 and v13");
}

/// Morph targets written as v6 mesh deformation pose (after reading back) where the model put
/// them, within the byte quantisation.
#[test]
fn morph_targets_become_v6_mesh_deformation() {
    let mut model = foreign_model();
    model.meshes.remove(0);
    model.animations[0].morph_channels[0].mesh = 0;
    model.bones.truncate(1);
    model.bones.push(Bone { name: "prop".into(), ..model.bones[0].clone() });
    model.bones[1].parent = Some(0);
    model.meshes[0].skin = Skin::from_vertices((0..4).map(|_| vec![Influence { bone: 1, weight: 1.0 }]));
    model.animations[0].channels.retain(|c| c.bone < 2 && !matches!(c.values, ChannelValues::Scale(_)));
    model.attachments.clear();
    let out = write_model(&model, &v12_opts(6)).unwrap();
    let back = read_model(&out.value).unwrap();
    let AbcFile::V6(file) = read(&out.value).unwrap() else { panic!() };
    assert_eq!(file.nodes.nodes.iter().map(|n| n.md_vertices.len()).sum::<usize>(), 2, "{:?}", file.nodes);
    let mut worst = 0.0f32;
    for t in [0.0, 0.5, 1.0] {
        let (a, b) = (pose_positions(&model, 0, t), pose_positions(&back, 0, t));
        for (p, q) in a[0].iter().zip(&b[0]) {
            worst = worst.max((0..3).map(|i| (p[i] - q[i]).abs()).fold(0.0, f32::max));
        }
    }
    assert!(worst < 0.5 / 255.0 + 1e-5, "{worst}");
}

#[test]
fn a_v6_model_always_has_an_animation() {
    let mut model = foreign_model();
    model.animations.clear();
    let out = write_model(&model, &v12_opts(6)).unwrap();
    assert!(has(&out.losses, "added animation \"base\""));
    let AbcFile::V6(file) = read(&out.value).unwrap() else { panic!() };
    assert_eq!(file.animations.animations.len(), 1);
    assert_eq!(file.animations.animations[0].keyframes.len(), 1);
}

#[test]
fn version_is_chosen_from_the_options_and_the_source() {
    let v11 = std::fs::read(common::fixtures_dir().join("v11.abc")).unwrap();
    let model = read_model(&v11).unwrap();
    assert_eq!(
        relic_abc::detect(&write_model(&model, &WriteOptions::default()).unwrap().value).unwrap().source.version,
        11
    );
    assert_eq!(relic_abc::detect(&write_model(&model, &v12_opts(13)).unwrap().value).unwrap().source.version, 13);
    assert_eq!(
        relic_abc::detect(&write_model(&foreign_model(), &WriteOptions::default()).unwrap().value)
            .unwrap()
            .source
            .version,
        12
    );
    assert!(write_model(&model, &v12_opts(7)).unwrap_err().to_string().contains("choose 6 or 9–13"));
    assert!(write_model(&model, &v12_opts(107)).is_err());
}

/// The frame: a v9–v13 position (x, y, z) is (−x, y, z) in the model (LithTech faces +Z like glTF:
/// the mirror is on X); a v6 position is (−x, y, −z) (its Z is flipped by the engine's FlipMat
/// before it is in LithTech's frame, so the two mirrors make a half turn).
#[test]
fn frames_of_both_families() {
    let bytes = std::fs::read(common::fixtures_dir().join("v12_full.abc")).unwrap();
    let AbcFile::V12(file) = read(&bytes).unwrap() else { panic!() };
    let model = read_model(&bytes).unwrap();
    let p = file.pieces.as_ref().unwrap().pieces[1].lods[0].vertices[0].position;
    assert_eq!(model.meshes[2].positions[0], [-p[0], p[1], p[2]]);
    let bytes = std::fs::read(common::fixtures_dir().join("v6_basic.abc")).unwrap();
    let model = read_model(&bytes).unwrap();
    // Vertex 5 is "arm"-local (0, 0, 0); animation 0 key 0 places "arm" at (0, 1, 0) + (1, 2, 0).
    assert_eq!(model.meshes[0].positions[5], [-1.0, 3.0, -0.0]);
}

/// Issue 28 §1: LithTech models name no texture file, so every mesh's material names its skin
/// slot (v9–v13: the piece's material index; v6: the model's one skin, slot 0) for the texture
/// search (`--skin`, the game's SKINS folder) to fill; without it no export ever asked for a skin.
#[test]
fn every_mesh_names_its_skin_slot() {
    for (name, bytes) in all_files() {
        let model = read_model(&bytes).unwrap();
        let slots: Vec<u32> = match read(&bytes).unwrap() {
            AbcFile::V6(_) => vec![0],
            AbcFile::V12(f) => f
                .pieces
                .iter()
                .flat_map(|p| &p.pieces)
                .flat_map(|p| p.lods.iter().map(move |_| u32::from(p.material_index)))
                .collect(),
        };
        assert_eq!(slots.len(), model.meshes.len(), "{name}");
        for (mesh, slot) in model.meshes.iter().zip(slots) {
            let material = &model.materials[mesh.material.unwrap_or_else(|| panic!("{name}: {} has none", mesh.name))];
            let texture = &material.textures[0];
            assert_eq!((texture.slot, texture.path.as_str(), texture.uv_set), (Some(slot), "", Some(0)), "{name}");
        }
    }
}
