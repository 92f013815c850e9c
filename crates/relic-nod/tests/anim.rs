//! NAD ↔ animation: tags, byte-identical write-back through the kept bytes, and rebuilding from
//! the animation alone. (The exact cubic segments and the 30 fps rotation sampling bound are
//! tested against the crate's own curve evaluation in `src/verify/tests.rs`.)

// Test code: a failed unwrap or index is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::path::Path;

use relic_core::model::{Animation, Channel, ChannelValues, Clock, Event, Interpolation, Model};
use relic_core::sample::Sample;
use relic_nod::decide::{NadChoices, decide_nad};
use relic_nod::options::{Choice, EulerOrder, NadOptions, Polynomial};
use relic_nod::{NadFile, read_nad as parse_nad};

fn read(name: &str) -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/nod").join(name)).unwrap()
}

fn skeleton() -> Model {
    relic_nod::read_model(&read("skinned.nod")).unwrap()
}

fn walk() -> (NadFile, Animation, NadChoices) {
    let bytes = read("walk.nad");
    let nad = parse_nad(&bytes).unwrap();
    let anim = relic_nod::read_animation(&skeleton(), &bytes, "walk", &NadOptions::default()).unwrap();
    let choices = decide_nad(&nad, &NadOptions::default());
    (nad, anim, choices)
}

#[test]
fn tags_become_events() {
    let (_, anim, _) = walk();
    let events: Vec<(String, f32, Option<u32>)> =
        anim.events.iter().map(|e| (e.name.clone(), e.time, e.parameter)).collect();
    assert_eq!(
        events,
        vec![
            ("Lwalk".to_string(), 0.0, Some(0)),
            ("Rwalk".to_string(), 0.5, Some(1)),
            ("Fire".to_string(), (20.5f64 / 30.0) as f32, Some(4)),
            ("Codex1".to_string(), (29.0f64 / 30.0) as f32, Some(13)),
        ]
    );
    assert_eq!(anim.duration, 1.0);
}

#[test]
fn attached_nads_are_written_back_byte_for_byte() {
    for name in ["walk.nad", "single_keys.nad"] {
        let bytes = read(name);
        let mut model = skeleton();
        let index = relic_nod::attach_animation(&mut model, &bytes, name, &NadOptions::default()).unwrap();
        let out = relic_nod::write_animation(&model, index, &NadOptions::default()).unwrap();
        assert!(out.value == bytes && out.losses.is_empty(), "{name}: {:?}", out.losses);
        // Also after the extras went through JSON (glTF extras), and with the NOD written too.
        let json = model.extras.as_ref().unwrap().json().unwrap();
        model.extras = Some(relic_core::model::FormatExtras::from_json(relic_nod::FORMAT, json));
        assert!(relic_nod::write_animation(&model, index, &NadOptions::default()).unwrap().value == bytes, "{name}");
        let nod = relic_nod::write_model(&model, &Default::default()).unwrap();
        assert!(nod.value == read("skinned.nod"), "{name}");
        assert!(nod.losses.iter().all(relic_core::Loss::is_clips_apart), "{:?}", nod.losses);
    }
}

#[test]
fn an_edited_animation_is_rebuilt_from_the_model() {
    let bytes = read("walk.nad");
    let mut model = skeleton();
    let index = relic_nod::attach_animation(&mut model, &bytes, "walk", &NadOptions::default()).unwrap();
    model.animations[index].events.pop();
    let out = relic_nod::write_animation(&model, index, &NadOptions::default()).unwrap();
    assert!(out.value != bytes);
    let again = parse_nad(&out.value).unwrap();
    assert_eq!(again.tags.len(), 3);
}

#[test]
fn rebuilt_without_the_kept_bytes_the_clip_is_the_same() {
    let bytes = read("walk.nad");
    let mut model = skeleton();
    model.extras = None;
    let index = relic_nod::attach_animation(&mut model, &bytes, "walk", &NadOptions::default()).unwrap();
    let mut bare = model.clone();
    bare.extras = None;
    let out = relic_nod::write_animation(&bare, index, &NadOptions::default()).unwrap();
    println!("losses: {:?}", out.losses);
    let original = parse_nad(&bytes).unwrap();
    let rebuilt = parse_nad(&out.value).unwrap();
    // Same tracks; cubic tracks keep their keys' frames and values exactly.
    assert_eq!(
        rebuilt.tracks.iter().map(|t| (t.bone, t.track_type)).collect::<Vec<_>>(),
        original.tracks.iter().map(|t| (t.bone, t.track_type)).collect::<Vec<_>>()
    );
    for (a, b) in original.tracks.iter().zip(&rebuilt.tracks).filter(|(t, _)| t.track_type != 0) {
        assert_eq!(
            a.keys.iter().map(|k| (k.frame, k.value)).collect::<Vec<_>>(),
            b.keys.iter().map(|k| (k.frame, k.value)).collect::<Vec<_>>()
        );
        for (x, y) in a.keys.iter().zip(&b.keys) {
            for (p, q) in x.c.iter().chain(&x.b).chain(&x.a).zip(y.c.iter().chain(&y.b).chain(&y.a)) {
                assert!((p - q).abs() <= 1e-5 * (1.0 + p.abs()), "{x:?} vs {y:?}");
            }
            assert!(x.frame_scale == y.frame_scale, "{x:?} vs {y:?}");
        }
    }
    assert_eq!(rebuilt.tags, original.tags);
    assert_eq!(rebuilt.duration, original.duration);
    let again = relic_nod::read_animation(&bare, &out.value, "walk", &NadOptions::default()).unwrap();
    let gap = relic_nod::verify::animation_gap(&bare.animations[index], &again);
    assert!(gap < 1e-4, "{gap}");
}

#[test]
fn animations_from_other_models_become_nads() {
    let mut model = skeleton();
    model.extras = None;
    let h = std::f32::consts::FRAC_1_SQRT_2;
    model.animations.push(Animation {
        name: "wave".into(),
        duration: 2.0,
        channels: vec![
            // Linear quaternions far apart: resampled at 30 fps into Euler keys.
            Channel {
                bone: 2,
                clock: Clock::Animation,
                interpolation: Interpolation::Linear,
                times: vec![0.0, 0.7, 2.0],
                values: ChannelValues::Rotation(vec![[0.0, 0.0, 0.0, 1.0], [h, 0.0, 0.0, h], [0.0, h, 0.0, h]]),
            },
            // Step translation: constant segments.
            Channel {
                bone: 0,
                clock: Clock::Animation,
                interpolation: Interpolation::Step,
                times: vec![0.0, 1.0],
                values: ChannelValues::Translation(vec![[0.0, 1.0, 0.0], [0.0, 2.0, 0.5]]),
            },
        ],
        events: vec![
            Event { time: 0.5, name: "Strike".into(), ..Event::default() },
            Event { time: 1.0, name: "$CSS".into(), parameter: Some(0), ..Event::default() },
        ],
        ..Animation::default()
    });
    let out = relic_nod::write_animation(&model, 0, &NadOptions::default()).unwrap();
    let text: Vec<String> = out.losses.iter().map(ToString::to_string).collect();
    assert!(text.iter().any(|l| l.contains("\"$CSS\"") && l.contains("dropped")), "{text:?}");
    let back = relic_nod::read_animation(&model, &out.value, "wave", &NadOptions::default()).unwrap();
    assert_eq!(back.events.len(), 1);
    let gap = relic_nod::verify::animation_gap(&model.animations[0], &back);
    assert!(gap < 2e-3, "{gap}"); // radians, about 0.1°
    // The step holds until the next key, then jumps.
    let Some(Sample::Vector(v)) = back.channels[1].sample(0.99) else { panic!() };
    assert_eq!(v, [0.0, 1.0, 0.0]);
    let Some(Sample::Vector(v)) = back.channels[1].sample(1.0) else { panic!() };
    assert_eq!(v, [0.0, 2.0, 0.5]);
}

#[test]
fn euler_order_and_polynomial_are_options() {
    let bytes = read("walk.nad");
    let model = skeleton();
    let xyz = relic_nod::read_animation(&model, &bytes, "walk", &NadOptions::default()).unwrap();
    let zyx_options = NadOptions { euler_order: EulerOrder::Zyx, ..NadOptions::default() };
    let zyx = relic_nod::read_animation(&model, &bytes, "walk", &zyx_options).unwrap();
    assert!(relic_nod::verify::animation_gap(&xyz, &zyx) > 0.05, "the order changes the rotations");
    // Writing with an order and reading with the same gives the clip back.
    let mut with = model.clone();
    with.extras = None;
    with.animations.push(zyx.clone());
    let out = relic_nod::write_animation(&with, 0, &zyx_options).unwrap();
    let back = relic_nod::read_animation(&with, &out.value, "walk", &zyx_options).unwrap();
    assert!(relic_nod::verify::animation_gap(&zyx, &back) < 1e-4);
    // P2 written, P2 detected, same clip.
    let p2 = NadOptions { polynomial: Choice::Fixed(Polynomial::Descending), ..NadOptions::default() };
    let mut bare = model.clone();
    bare.extras = None;
    bare.animations.push(xyz.clone());
    let out = relic_nod::write_animation(&bare, 0, &p2).unwrap();
    let nad = parse_nad(&out.value).unwrap();
    let c = decide_nad(&nad, &NadOptions::default());
    assert_eq!(c.polynomial.value, Polynomial::Descending, "{}", c.polynomial);
    let back = relic_nod::read_animation(&bare, &out.value, "walk", &NadOptions::default()).unwrap();
    assert!(relic_nod::verify::animation_gap(&xyz, &back) < 1e-4);
}

#[test]
fn animations_on_dropped_or_global_clocks_are_reported() {
    let mut model = skeleton();
    model.extras = None;
    model.global_sequences.push(1.0);
    model.animations.push(Animation {
        name: "g".into(),
        duration: 1.0,
        looping: true,
        channels: vec![Channel {
            bone: 1,
            clock: Clock::Global(0),
            interpolation: Interpolation::Linear,
            times: vec![0.0, 1.0],
            values: ChannelValues::Scale(vec![[1.0; 3], [2.0; 3]]),
        }],
        ..Animation::default()
    });
    let out = relic_nod::write_animation(&model, 0, &NadOptions::default()).unwrap();
    let text = out.losses.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n");
    assert!(text.contains("global sequence 0"), "{text}");
    assert!(text.contains("looping"), "{text}");
    assert!(text.contains("scale tracks"), "{text}");
    assert!(relic_nod::write_animation(&model, 5, &NadOptions::default()).is_err());
}

/// Key times beyond what a `u64` of frames holds (1e30 s, from an edited glTF: found by the CLI's
/// memory test converting a fuzz-found `.glb` to `.nod`): the frame count saturates and the
/// sampling budget refuses the animation, where it overflowed (a panic in debug).
#[test]
fn rotations_spanning_more_frames_than_a_u64_are_refused() {
    let mut model = skeleton();
    model.extras = None;
    let h = std::f32::consts::FRAC_1_SQRT_2;
    model.animations.push(Animation {
        name: "forever".into(),
        duration: 1e30,
        channels: vec![Channel {
            bone: 2,
            clock: Clock::Animation,
            interpolation: Interpolation::Linear,
            times: vec![0.0, 1e30],
            values: ChannelValues::Rotation(vec![[0.0, 0.0, 0.0, 1.0], [h, 0.0, 0.0, h]]),
        }],
        ..Animation::default()
    });
    let e = relic_nod::write_animation(&model, 0, &NadOptions::default()).unwrap_err();
    assert!(e.to_string().contains("Euler keys"), "{e}");
}
