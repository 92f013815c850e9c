//! Skinning, morphs and bounds on hand-built models whose answers are known.

use relic_anim::bounds::{ModelSkinner, clip_bounds, key_times};
use relic_anim::pose::{ClipTime, Evaluator, Pose};
use relic_anim::proofs;
use relic_core::model::*;

const H: f32 = std::f32::consts::FRAC_1_SQRT_2;

/// Root at the origin, child at (0, 1, 0); one quad skinned half to each; a clip that turns the
/// child 90° about Z over one second; one morph target that lifts vertex 0 by 1 in Z.
fn model() -> Model {
    let bones = relic_testkit::bone_chain(2, "b");
    let one = |b| vec![Influence { bone: b, weight: 1.0 }];
    let mesh = Mesh {
        name: "quad".into(),
        positions: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 2.0, 0.0], [1.0, 2.0, 0.0]],
        normals: vec![[0.0, 0.0, 1.0]; 4],
        skin: Skin::from_vertices([one(0), one(0), one(1), one(1)]),
        triangles: vec![[0, 1, 3], [0, 3, 2]],
        morph_targets: vec![MorphTarget {
            name: "lift".into(),
            position_deltas: vec![[0.0, 0.0, 1.0], [0.0; 3], [0.0; 3], [0.0; 3]],
            normal_deltas: vec![],
        }],
        ..Mesh::default()
    };
    let anim = Animation {
        name: "turn".into(),
        duration: 1.0,
        channels: vec![Channel {
            bone: 1,
            clock: Clock::Animation,
            interpolation: Interpolation::Linear,
            times: vec![0.0, 1.0],
            values: ChannelValues::Rotation(vec![[0.0, 0.0, 0.0, 1.0], [0.0, 0.0, H, H]]),
        }],
        morph_channels: vec![MorphChannel {
            mesh: 0,
            interpolation: Interpolation::Linear,
            times: vec![0.0, 1.0],
            weights: vec![0.0, 1.0],
        }],
        ..Animation::default()
    };
    Model { bones, meshes: vec![mesh], animations: vec![anim], ..Model::default() }
}

fn close(a: [f32; 3], b: [f32; 3]) -> bool {
    relic_core::math::max_abs_diff(&a, &b) < 1e-5
}

#[test]
fn model_is_valid() {
    assert_eq!(model().validate(), Ok(()));
}

#[test]
fn turning_the_child_moves_its_vertices_and_the_morph_lifts() {
    let m = model();
    let mut ev = Evaluator::new(&m, &m.animations[0]);
    let mut skinner = ModelSkinner::new(&m);
    let t = ClipTime::at(1.0);
    let pose = ev.evaluate(t);
    skinner.skin(&m, pose, Some(&m.animations[0]), t).unwrap();
    let p = &skinner.positions[0];
    // Child joint at (0,1,0); vertex (0,2,0) is 1 above it, turned 90° about Z → (−1, 1, 0).
    assert!(close(p[2], [-1.0, 1.0, 0.0]), "{:?}", p[2]);
    assert!(close(p[3], [-1.0, 2.0, 0.0]), "{:?}", p[3]);
    // Root vertices do not move, but the morph (weight 1 at t=1) lifts vertex 0.
    assert!(close(p[0], [0.0, 0.0, 1.0]), "{:?}", p[0]);
    assert!(close(p[1], [1.0, 0.0, 0.0]));
    // Normals turn with the bone too (about Z they stay +Z).
    assert!(close(skinner.normals[0][2], [0.0, 0.0, 1.0]));
    // Halfway: 45°, morph weight 0.5.
    let t = ClipTime::at(0.5);
    let pose = ev.evaluate(t);
    skinner.skin(&m, pose, Some(&m.animations[0]), t).unwrap();
    let p = &skinner.positions[0];
    assert!(close(p[2], [-H, 1.0 + H, 0.0]), "{:?}", p[2]);
    assert!(close(p[0], [0.0, 0.0, 0.5]));
}

#[test]
fn clip_bounds_cover_every_key() {
    let m = model();
    assert_eq!(key_times(&m.animations[0]), vec![0.0, 1.0]);
    let b = clip_bounds(&m, 0).unwrap().unwrap();
    // t=0: x 0..1, y 0..2, z 0; t=1: x −1..1, y 0..2, z 0..1.
    assert!(close(b.min, [-1.0, 0.0, 0.0]), "{b:?}");
    assert!(close(b.max, [1.0, 2.0, 1.0]), "{b:?}");
}

#[test]
fn fast_and_reference_skinning_agree_with_many_influences() {
    let mut m = model();
    // Six influences on vertex 3 (weights summing to 1), spread over both bones.
    let w = [0.1, 0.2, 0.15, 0.25, 0.2, 0.1];
    let infl: Vec<_> = w.iter().enumerate().map(|(i, &w)| Influence { bone: (i % 2) as u32, weight: w }).collect();
    let mut per_vertex: Vec<Vec<Influence>> = (0..4).map(|v| m.meshes[0].skin.vertex(v).to_vec()).collect();
    per_vertex[3] = infl;
    per_vertex[1] = vec![Influence { bone: 0, weight: 0.3 }, Influence { bone: 1, weight: 0.7 }];
    m.meshes[0].skin = Skin::from_vertices(per_vertex);
    assert_eq!(m.validate(), Ok(()));
    proofs::fast_matches_reference(&m, 1e-5).unwrap();
}

#[test]
fn rest_pose_proof_passes_and_catches_a_wrong_bind() {
    let mut m = model();
    assert!(proofs::rest_pose(&m, 1e-6).is_ok());
    m.bones[1].inverse_bind_matrix[13] = 0.0; // forget the child's bind offset
    let err = proofs::rest_pose(&m, 1e-3).unwrap_err();
    assert!(err.contains("worst error 1.00e0"), "{err}");
}

#[test]
fn key_box_proof() {
    let m = model();
    let good = proofs::KeyBox { animation: 0, time: 1.0, bounds: Aabb { min: [-1.0, 0.0, 0.0], max: [1.0, 2.0, 1.0] } };
    proofs::key_boxes(&m, &[good], 1e-5).unwrap();
    let bad = proofs::KeyBox { time: 0.0, ..good };
    assert!(proofs::key_boxes(&m, &[bad], 0.01).is_err());
    let empty = proofs::KeyBox { bounds: Aabb { min: [0.0; 3], max: [0.0; 3] }, ..good };
    assert!(proofs::key_boxes(&m, &[empty], 0.01).unwrap().contains("1 empty skipped"));
}

/// A key whose stored box is the posed box of the key before or after it is skipped and counted;
/// one that equals the box of a key further away still fails.
#[test]
fn key_box_stored_from_a_neighbouring_pose() {
    let m = model();
    let at = |t: f32| relic_anim::bounds::posed_bounds(&m, 0, relic_anim::ClipTime::at(t)).unwrap().unwrap();
    assert!(at(0.5).max_corner_distance(&at(1.0)) > 0.1, "the test needs poses that differ");
    let key = |time: f32, bounds| proofs::KeyBox { animation: 0, time, bounds };
    let stale = [key(0.0, at(0.0)), key(0.5, at(1.0)), key(1.0, at(1.0))];
    let detail = proofs::key_boxes(&m, &stale, 0.01).unwrap();
    assert!(detail.starts_with("2 key boxes, 0 empty skipped, 1 stored from a neighbouring pose skipped"), "{detail}");
    let far = [key(0.0, at(1.0)), key(0.5, at(0.5)), key(1.0, at(1.0))];
    assert!(proofs::key_boxes(&m, &far, 0.01).is_err(), "two keys away is not a neighbour");
}

#[test]
fn rest_pose_of_the_model_is_its_bind_pose() {
    let m = model();
    let pose = Pose::rest(&m);
    let mut skinner = ModelSkinner::new(&m);
    skinner.skin(&m, &pose, None, ClipTime::default()).unwrap();
    assert_eq!(skinner.positions[0], m.meshes[0].positions);
}
