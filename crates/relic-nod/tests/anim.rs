//! NAD ↔ animation: exact cubic segments, the 30 fps rotation sampling and its error bound, tags,
//! byte-identical write-back through the kept bytes, and rebuilding from the animation alone.

// Test code: a failed unwrap or index is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::path::Path;

use relic_core::model::{Animation, Channel, ChannelValues, Clock, Event, Interpolation, Model};
use relic_core::sample::Sample;
use relic_nod::anim::{NadChoices, decide_nad, eval_track, rotation_error, rotation_sampling_bound};
use relic_nod::decide::NOD_FRAME;
use relic_nod::geometry::{euler_to_quat, quat_angle};
use relic_nod::nad::{NadFile, NadKey, NadTrack, parse_nad};
use relic_nod::options::{Choice, EulerOrder, NadOptions, Polynomial};

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
fn cubic_tracks_are_the_nad_curves_exactly() {
    let (nad, anim, _) = walk();
    let mut compared = 0;
    for (track, channel) in nad.tracks.iter().zip(&anim.channels) {
        assert_eq!(channel.bone, track.bone as usize);
        let convert: fn([f32; 3]) -> [f32; 3] = match track.track_type {
            1 => |v| NOD_FRAME.vector_to_ir(v),
            2 => |v| NOD_FRAME.scale_to_ir(v),
            _ => continue,
        };
        assert_eq!(channel.interpolation, Interpolation::CubicSpline);
        assert_eq!(channel.times.len(), track.keys.len(), "one model key per NAD key");
        for step in 0..=120 {
            let f = step as f64 * 0.25;
            let want = convert(eval_track(&track.keys, f, Polynomial::Ascending).map(|x| x as f32));
            let Some(Sample::Vector(got)) = channel.sample((f / 30.0) as f32) else { panic!() };
            let err = relic_core::math::max_abs_diff(&want, &got);
            assert!(err < 2e-5, "track type {} frame {f}: {want:?} vs {got:?}", track.track_type);
            compared += 1;
        }
    }
    assert_eq!(compared, 2 * 121);
}

/// `Δt²/4 · max‖q̈‖` over the curve (≤ the documented `Δt²(|ω̇|/8 + |ω|²/16)`), by finite
/// differences of the true rotation curve.
fn measured_bound(track: &NadTrack, choices: &NadChoices) -> (f64, f64) {
    let q = |f: f64| {
        let a = eval_track(&track.keys, f, choices.polynomial.value).map(|x| x * choices.angle_unit.to_radians());
        euler_to_quat(a, choices.euler_order)
    };
    let (first, last) = (f64::from(track.keys[0].frame), f64::from(track.keys.last().unwrap().frame));
    let h = 1e-3; // frames
    let hemisphere = |x: [f64; 4], y: [f64; 4]| {
        if x.iter().zip(&y).map(|(p, q)| p * q).sum::<f64>() < 0.0 { y.map(|v| -v) } else { y }
    };
    // World angular velocity (rad/s): ω = 2 q̇ q*.
    let omega_at = |f: f64| {
        let b = q(f);
        let (a, c) = (hemisphere(b, q(f - h)), hemisphere(b, q(f + h)));
        let qd: [f64; 4] = std::array::from_fn(|i| (c[i] - a[i]) / (2.0 * h) * 30.0);
        let conj = [-b[0], -b[1], -b[2], b[3]];
        let w = relic_nod::geometry::quat_mul(qd, conj);
        [2.0 * w[0], 2.0 * w[1], 2.0 * w[2]]
    };
    let (mut qdd, mut omega, mut omega_dot) = (0.0f64, 0.0f64, 0.0f64);
    let mut f = first + 2.0 * h;
    while f < last - 2.0 * h {
        let b = q(f);
        let (a, c) = (hemisphere(b, q(f - h)), hemisphere(b, q(f + h)));
        let dd: f64 = (0..4).map(|i| ((a[i] - 2.0 * b[i] + c[i]) / (h * h)).powi(2)).sum::<f64>().sqrt() * 900.0;
        qdd = qdd.max(dd);
        let w = omega_at(f);
        omega = omega.max(relic_nod::geometry::length3(w));
        let (w0, w1) = (omega_at(f - h), omega_at(f + h));
        let wd: [f64; 3] = std::array::from_fn(|i| (w1[i] - w0[i]) / (2.0 * h) * 30.0);
        omega_dot = omega_dot.max(relic_nod::geometry::length3(wd));
        f += 0.05;
    }
    let dt = 1.0 / 30.0;
    (dt * dt / 4.0 * qdd, rotation_sampling_bound(omega, omega_dot))
}

#[test]
fn rotation_sampling_error_stays_within_the_bound() {
    let (nad, anim, choices) = walk();
    let mut report = Vec::new();
    for (track, channel) in nad.tracks.iter().zip(&anim.channels).filter(|(t, _)| t.track_type == 0) {
        let err = rotation_error(channel, track, &choices, 16);
        let (bound, _) = measured_bound(track, &choices);
        report.push(format!("bone {}: {:.4}° (bound {:.4}°)", track.bone, err.to_degrees(), bound.to_degrees()));
        assert!(err <= bound * 1.05 + 1e-6, "{report:?}");
        // At the sample times themselves the keys are the curve (to f32).
        let ChannelValues::Rotation(values) = &channel.values else { panic!() };
        for (t, q) in channel.times.iter().zip(values) {
            let a = eval_track(&track.keys, f64::from(*t) * 30.0, Polynomial::Ascending).map(f64::to_radians);
            let truth = NOD_FRAME.quat_to_ir(euler_to_quat(a, EulerOrder::Xyz).map(|c| c as f32));
            assert!(quat_angle(q.map(f64::from), truth.map(f64::from)) < 1e-5);
        }
    }
    println!("walk.nad: {report:?}");
    // A stress clip: 360°/s about X with the other two angles swinging ±40° twice a second.
    let frames: Vec<f32> = (0..=12).map(|k| k as f32 * 5.0).collect();
    let angle = |f: f64| {
        [12.0 * f, 40.0 * (f / 15.0 * std::f64::consts::PI).sin(), 40.0 * (f / 15.0 * std::f64::consts::PI).cos()]
    };
    let slope = |f: f64| {
        [
            12.0,
            40.0 * std::f64::consts::PI / 15.0 * (f / 15.0 * std::f64::consts::PI).cos(),
            -40.0 * std::f64::consts::PI / 15.0 * (f / 15.0 * std::f64::consts::PI).sin(),
        ]
    };
    let keys: Vec<NadKey> =
        frames.iter().enumerate().map(|(k, &f)| hermite_key(f, frames.get(k + 1).copied(), angle, slope)).collect();
    let track = NadTrack { bone: 1, track_type: 0, keys };
    let nad = NadFile { version: 3, flags: 0, duration: 60.0, tracks: vec![track], tags: vec![] };
    let bytes = nad.to_bytes().unwrap();
    let anim = relic_nod::read_animation(&skeleton(), &bytes, "stress", &NadOptions::default()).unwrap();
    let choices = decide_nad(&nad, &NadOptions::default());
    let err = rotation_error(&anim.channels[0], &nad.tracks[0], &choices, 16);
    let (bound, documented) = measured_bound(&nad.tracks[0], &choices);
    println!(
        "stress: {:.4}° (bound {:.4}°, documented formula {:.4}°)",
        err.to_degrees(),
        bound.to_degrees(),
        documented.to_degrees()
    );
    assert!(err <= bound * 1.05 && bound <= documented * 1.05, "{err} {bound} {documented}");
    assert!(err.to_degrees() < 1.0);
}

/// A P1 key at `f` whose cubic runs to the curve's value at `next` with matching slopes.
fn hermite_key(f: f32, next: Option<f32>, value: impl Fn(f64) -> [f64; 3], slope: impl Fn(f64) -> [f64; 3]) -> NadKey {
    let (f0, v0, m0) = (f64::from(f), value(f64::from(f)), slope(f64::from(f)));
    let Some(n) = next else {
        return NadKey {
            frame: f,
            frame_scale: f32::INFINITY,
            value: v0.map(|x| x as f32),
            c: [0.0; 3],
            b: [0.0; 3],
            a: [0.0; 3],
        };
    };
    let (f1, v1, m1) = (f64::from(n), value(f64::from(n)), slope(f64::from(n)));
    let d = f1 - f0;
    let c: [f64; 3] = std::array::from_fn(|i| d * m0[i]);
    let b: [f64; 3] = std::array::from_fn(|i| 3.0 * (v1[i] - v0[i]) - 2.0 * d * m0[i] - d * m1[i]);
    let a: [f64; 3] = std::array::from_fn(|i| 2.0 * (v0[i] - v1[i]) + d * m0[i] + d * m1[i]);
    let f32s = |x: [f64; 3]| x.map(|v| v as f32);
    NadKey { frame: f, frame_scale: (1.0 / d) as f32, value: f32s(v0), c: f32s(c), b: f32s(b), a: f32s(a) }
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
        assert!(nod.losses.iter().all(|l| l.element == "animations"), "{:?}", nod.losses);
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
    let gap = relic_nod::checks::animation_gap(&bare.animations[index], &again);
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
    let gap = relic_nod::checks::animation_gap(&model.animations[0], &back);
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
    assert!(relic_nod::checks::animation_gap(&xyz, &zyx) > 0.05, "the order changes the rotations");
    // Writing with an order and reading with the same gives the clip back.
    let mut with = model.clone();
    with.extras = None;
    with.animations.push(zyx.clone());
    let out = relic_nod::write_animation(&with, 0, &zyx_options).unwrap();
    let back = relic_nod::read_animation(&with, &out.value, "walk", &zyx_options).unwrap();
    assert!(relic_nod::checks::animation_gap(&zyx, &back) < 1e-4);
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
    assert!(relic_nod::checks::animation_gap(&xyz, &back) < 1e-4);
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
