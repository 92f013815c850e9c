//! MDX → common model: every fixture and corpus file maps to a valid model with a bone per node,
//! a mesh per geoset and a clip per sequence; pivots, rest offsets and keys land where spec §6
//! puts them.

// Test code: a failed unwrap or index is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::path::Path;

use relic_core::info::Fact;
use relic_core::model::{ChannelValues, Clock, Interpolation};

fn count(info: &relic_core::Info, key: &str) -> usize {
    match info.get(key) {
        Some(Fact::Count(n)) => *n as usize,
        other => panic!("{key}: {other:?}"),
    }
}

#[test]
fn every_file_maps_to_a_valid_model_of_its_counts() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/mdx");
    let mut files: Vec<_> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_file()).collect();
    if let Some(corpus) = relic_testkit::corpus_dir("every_file_maps_to_a_valid_model_of_its_counts") {
        files.extend(
            std::fs::read_dir(corpus.join("mdx"))
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "mdx")),
        );
    }
    assert!(files.len() >= 5);
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let model = relic_mdx::read_model(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        model.validate().unwrap();
        let info = relic_mdx::info(&bytes).unwrap();
        let nodes: usize = ["bones", "lights", "helpers", "attachments", "particle_emitters", "particle_emitters2"]
            .iter()
            .chain(&["popcorn_emitters", "ribbons", "events", "collision_shapes"])
            .map(|k| count(&info, k))
            .sum();
        let name = path.display();
        assert_eq!(model.bones.len(), nodes, "{name}");
        assert_eq!(model.meshes.len(), count(&info, "geosets"), "{name}");
        assert_eq!(model.meshes.iter().map(|m| m.positions.len()).sum::<usize>(), count(&info, "vertices"), "{name}");
        assert_eq!(model.meshes.iter().map(|m| m.triangles.len()).sum::<usize>(), count(&info, "faces"), "{name}");
        assert_eq!(model.animations.len(), count(&info, "sequences"), "{name}");
        assert_eq!(model.attachments.len(), count(&info, "attachments"), "{name}");
        assert_eq!(model.materials.len(), count(&info, "materials"), "{name}");
        // One parse gives the same model and facts.
        let (with, facts) = relic_mdx::read_model_with_info(&bytes).unwrap();
        assert_eq!((with.value, facts), (model, info), "{name}");
    }
}

#[test]
fn pivots_offsets_and_keys_land_as_the_spec_says() {
    let bytes = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/mdx/v800_full.mdx")).unwrap();
    let model = relic_mdx::read_model(&bytes).unwrap();
    // PIVT[i] = (i, 0, 1) in MDX; the model's frame is (y, z, x).
    let root = model.bones.iter().position(|b| b.name == "Root").unwrap();
    let arm = model.bones.iter().position(|b| b.name == "Arm").unwrap();
    assert_eq!(model.bones[arm].parent, Some(root));
    assert_eq!(&model.bones[root].bind_matrix[12..15], &[0.0, 1.0, 0.0]);
    assert_eq!(&model.bones[arm].bind_matrix[12..15], &[0.0, 1.0, 1.0]);
    assert_eq!(model.bones[arm].rest.translation, [0.0, 0.0, 1.0]);
    // Arm's flags 0x102: 0x2 drops the parent's scaling (the engine's reading).
    assert!(!model.bones[arm].flags.inherit_scale && model.bones[arm].flags.inherit_rotation);
    // Root's KGTR at 1000 ms: (0, 0, 2) + pivot (0, 0, 1) → (0, 3, 0) in the model, at 1 s of "Stand".
    let stand = &model.animations[0];
    assert_eq!((stand.name.as_str(), stand.duration, stand.looping), ("Stand", 1.0, true));
    let t =
        stand.channels.iter().find(|c| c.bone == root && matches!(c.values, ChannelValues::Translation(_))).unwrap();
    assert_eq!(t.times, [0.0, 1.0]);
    assert_eq!(t.values, ChannelValues::Translation(vec![[0.0, 1.0, 0.0], [0.0, 3.0, 0.0]]));
    // Arm's KGSC is Bezier on global sequence 0: a cubic spline on that clock in every clip.
    for a in &model.animations {
        let s = a.channels.iter().find(|c| c.bone == arm).unwrap();
        assert_eq!((s.clock, s.interpolation), (Clock::Global(0), Interpolation::CubicSpline));
        assert_eq!(s.values.len(), 3 * s.times.len());
    }
    assert_eq!(model.global_sequences, [1.5]);
    // The event at 2500 ms lies in "Death" (2000–3000): 0.5 s into it.
    let death = &model.animations[1];
    assert_eq!(death.events.iter().map(|e| (e.name.as_str(), e.time)).collect::<Vec<_>>(), [("SNDXDHOR", 0.5)]);
    assert!(!death.looping);
    // Two geoset vertices in group 0 (node 0), two in group 1 (node 1).
    let skin = &model.meshes[0].skin;
    assert_eq!(skin.vertex(0)[0].bone as usize, root);
    assert_eq!(skin.vertex(3)[0].bone as usize, arm);
}

/// Regression (fuzz target mdx): a texture's replaceable id of 2³² − 1 reached the M2 writer as a
/// replaceable type, which sized its lookup table by it (8 GB). Only the ids the game knows are
/// passed on.
#[test]
fn unknown_replaceable_ids_are_not_passed_on() {
    use relic_mdx::file::Chunk;
    let bytes = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/mdx/v800_full.mdx")).unwrap();
    let mut file = relic_mdx::read(&bytes).unwrap();
    for chunk in &mut file.chunks {
        if let Chunk::Textures(t) = chunk {
            t[1].replaceable_id = u32::MAX;
        }
    }
    let model = relic_mdx::to_ir(&file).unwrap();
    assert!(model.materials.iter().flat_map(|m| &m.textures).all(|t| t.replaceable.is_none()));
    let bytes = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/mdx/v800_full.mdx")).unwrap();
    let model = relic_mdx::read_model(&bytes).unwrap();
    assert_eq!(model.materials[0].textures[1].replaceable, Some(1));
}

/// A quaternion Hermite track is played by squad in the game (spec §6.4): `slerp(slerp(a, b, s),
/// slerp(outTan_a, inTan_b, s), 2s(1 − s))`. The model holds linear keys on that curve (spec §7:
/// "resample rather than convert"), on whole milliseconds; before, the control quaternions were
/// taken for cubic-spline tangents, a curve neither the game nor Blender plays.
#[test]
fn a_hermite_rotation_plays_as_the_games_squad() {
    use relic_core::sample::{Sample, normalize4, slerp};
    use relic_mdx::file::{Chunk, Key, Keys, Tag, Track};
    let bytes = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/mdx/v800_full.mdx")).unwrap();
    let mut file = relic_mdx::read(&bytes).unwrap();
    let about_x = |angle: f32| [(angle / 2.0).sin(), 0.0, 0.0, (angle / 2.0).cos()];
    // Control quaternions near the keys, as squad's exporters make them (on a steady turn they are
    // the keys themselves).
    let (a, b, out_a, in_b) = (about_x(0.0), about_x(0.3), about_x(0.02), about_x(0.27));
    let track = Track {
        tag: Tag(*b"KGRT"),
        interpolation: 2,
        global_sequence_id: -1,
        keys: Keys::Quat(vec![
            Key { frame: 0, value: a, tangents: Some([a, out_a]) },
            Key { frame: 1000, value: b, tangents: Some([in_b, b]) },
        ]),
    };
    let mut arm = None;
    for chunk in &mut file.chunks {
        if let Chunk::Bones(v) = chunk {
            let node = &mut v.iter_mut().find(|b| b.node.name.to_text() == "Arm").unwrap().node;
            node.tracks.retain(|t| t.tag.0 != *b"KGRT");
            node.tracks.push(track.clone());
            arm = Some(node.object_id);
        }
    }
    assert!(arm.is_some());
    let model = relic_mdx::to_ir(&file).unwrap();
    let bone = model.bones.iter().position(|b| b.name == "Arm").unwrap();
    let stand = &model.animations[0];
    let rotation = stand
        .channels
        .iter()
        .find(|c| c.bone == bone && matches!(c.values, ChannelValues::Rotation(_)))
        .expect("the Hermite rotation is a channel of Stand (0–1000 ms)");
    assert_eq!(rotation.interpolation, Interpolation::Linear);
    assert!(rotation.times.len() > 2, "the curve needs keys between the file's: {:?}", rotation.times);
    assert!(rotation.times.iter().all(|t| ((t * 1000.0).round() - t * 1000.0).abs() < 1e-3), "{:?}", rotation.times);
    // MDX (x, y, z) → the model's (y, z, x): a turn about MDX x is one about the model's z.
    let to_ir = |q: [f32; 4]| [q[1], q[2], q[0], q[3]];
    let game = |s: f32| to_ir(normalize4(slerp(slerp(a, b, s), slerp(out_a, in_b, s), 2.0 * s * (1.0 - s))));
    let close = |q: [f32; 4], want: [f32; 4], tolerance: f32| {
        let dot: f32 = q.iter().zip(&want).map(|(x, y)| x * y).sum();
        let sign = dot.signum();
        q.iter().zip(&want).all(|(x, y)| (x - sign * y).abs() <= tolerance)
    };
    // Every key lies on the curve; midway between two the slerp stays within 5e-4 of it.
    let ChannelValues::Rotation(values) = &rotation.values else { unreachable!() };
    for (t, q) in rotation.times.iter().zip(values) {
        assert!(close(*q, game(*t), 1e-6), "key at {t} s: {q:?}, the game's squad {:?}", game(*t));
    }
    for w in rotation.times.windows(2) {
        let mid = (w[0] + w[1]) / 2.0;
        let Some(Sample::Rotation(q)) = rotation.sample(mid) else { panic!("no sample at {mid}") };
        assert!(close(q, game(mid), 5e-4), "at {mid} s: {q:?}, the game's squad {:?}", game(mid));
    }
}
