//! The options no file can decide (spec §2.4 UV origin, §4.1 angle unit, §9.6 Euler order): every
//! value reads differently from the default and writes a file that reads back the same.

// Test code: a failed unwrap or index is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::path::Path;

use relic_core::{Model, WriteOptions};
use relic_nod::options::{AngleUnit, Choice, EulerOrder, NadOptions, NodOptions, UvOrigin};
use relic_nod::verify::animation_gap;

fn read(name: &str) -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/nod").join(name)).unwrap()
}

#[test]
fn uvs_with_a_bottom_left_origin_are_flipped_and_back() {
    let bytes = read("skinned.nod");
    let top = relic_nod::read_model(&bytes).unwrap();
    let options = NodOptions { uv_origin: UvOrigin::BottomLeft, ..NodOptions::default() };
    let bottom = relic_nod::read_model_with(&bytes, &options).unwrap();
    for (a, b) in top.meshes.iter().zip(&bottom.meshes) {
        for (p, q) in a.uv_sets[0].iter().zip(&b.uv_sets[0]) {
            assert_eq!((q[0], q[1]), (p[0], 1.0 - p[1]));
        }
    }
    // Written with the reading it was made with (kept in its extras): the stored UVs again, to
    // the rounding of 1 − (1 − v).
    let out = relic_nod::write_model(&bottom, &WriteOptions::default()).unwrap();
    let file = relic_nod::read(&out.value).unwrap();
    for (v, w) in relic_nod::read(&bytes).unwrap().vertices.iter().zip(&file.vertices) {
        assert_eq!(v.uv[0], w.uv[0]);
        assert!((v.uv[1] - w.uv[1]).abs() <= f32::EPSILON, "{} vs {}", v.uv[1], w.uv[1]);
    }
    let bare = Model { extras: None, ..bottom.clone() };
    let again = relic_nod::write_model_with(&bare, &WriteOptions::default(), &options).unwrap();
    let back = relic_nod::read_model_with(&again.value, &options).unwrap();
    assert_eq!(back.meshes[0].uv_sets, bottom.meshes[0].uv_sets);
}

#[test]
fn every_angle_unit_and_euler_order_reads_and_writes() {
    let skeleton = relic_nod::read_model(&read("skinned.nod")).unwrap();
    let walk = read("walk.nad");
    let default = relic_nod::read_animation(&skeleton, &walk, "walk", &NadOptions::default()).unwrap();
    let mut variants: Vec<NadOptions> =
        EulerOrder::ALL.iter().map(|&euler_order| NadOptions { euler_order, ..NadOptions::default() }).collect();
    variants.push(NadOptions { angle_unit: AngleUnit::Radians, ..NadOptions::default() });
    for options in variants {
        let animation = relic_nod::read_animation(&skeleton, &walk, "walk", &options).unwrap();
        if options != NadOptions::default() {
            assert!(animation_gap(&default, &animation) > 0.01, "{options:?} reads like the default");
        }
        let mut model = Model { extras: None, ..skeleton.clone() };
        model.animations.push(animation.clone());
        let out = relic_nod::write_animation(&model, 0, &options).unwrap();
        let fixed = NadOptions { polynomial: Choice::Fixed(Default::default()), ..options };
        let back = relic_nod::read_animation(&model, &out.value, "walk", &fixed).unwrap();
        let gap = animation_gap(&animation, &back);
        assert!(gap < 1e-4, "{options:?}: {gap}");
    }
}
