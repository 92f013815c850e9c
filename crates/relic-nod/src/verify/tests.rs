//! The NAD curves through the crate's own evaluation: translation and scale channels are the NAD
//! cubics exactly, and the 30 fps rotation sampling stays within its documented error bound.

// Test code: a failed unwrap or index is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::path::Path;

use nalgebra::Quaternion;
use relic_core::model::{Animation, ChannelValues, Interpolation, Model};
use relic_core::sample::Sample;

use super::nad::rotation_error;
use crate::decide::{NadChoices, decide_nad};
use crate::file::{NadFile, NadKey, NadTrack, parse_nad};
use crate::from_ir::animation::rotation_angle;
use crate::options::{EulerOrder, FRAMES_PER_SECOND, NadOptions, Polynomial};
use crate::to_ir::NOD_FRAME;

fn read(name: &str) -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/nod").join(name)).unwrap()
}

fn skeleton() -> Model {
    crate::read_model(&read("skinned.nod")).unwrap()
}

fn walk() -> (NadFile, Animation, NadChoices) {
    let bytes = read("walk.nad");
    let nad = parse_nad(&bytes).unwrap();
    let anim = crate::read_animation(&skeleton(), &bytes, "walk", &NadOptions::default()).unwrap();
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
            let want = convert(track.eval(f, Polynomial::Ascending).map(|x| x as f32));
            let Some(Sample::Vector(got)) = channel.sample((f / 30.0) as f32) else { panic!() };
            let err = relic_core::math::max_abs_diff(&want, &got);
            assert!(err < 2e-5, "track type {} frame {f}: {want:?} vs {got:?}", track.track_type);
            compared += 1;
        }
    }
    assert_eq!(compared, 2 * 121);
}

/// `Δt²/4 · max‖q̈‖` over the curve (≤ the documented `Δt²(|ω̇|/8 + |ω|²/16)`), by finite
/// differences of the true rotation curve, and the documented bound.
fn measured_bound(track: &NadTrack, choices: &NadChoices) -> (f64, f64) {
    let q = |f: f64| {
        let a = track.eval(f, choices.polynomial.value).map(|x| x * choices.angle_unit.to_radians());
        choices.euler_order.rotation(a).into_inner()
    };
    let (first, last) = (f64::from(track.keys[0].frame), f64::from(track.keys.last().unwrap().frame));
    let h = 1e-3; // frames
    let hemisphere = |x: Quaternion<f64>, y: Quaternion<f64>| if x.dot(&y) < 0.0 { -y } else { y };
    // World angular velocity (rad/s): ω = 2 q̇ q*.
    let omega_at = |f: f64| {
        let b = q(f);
        let (a, c) = (hemisphere(b, q(f - h)), hemisphere(b, q(f + h)));
        let qd = (c - a) / (2.0 * h) * 30.0;
        (qd * b.conjugate()).imag() * 2.0
    };
    let (mut qdd, mut omega, mut omega_dot) = (0.0f64, 0.0f64, 0.0f64);
    let mut f = first + 2.0 * h;
    while f < last - 2.0 * h {
        let b = q(f);
        let (a, c) = (hemisphere(b, q(f - h)), hemisphere(b, q(f + h)));
        qdd = qdd.max(((a - b * 2.0 + c) / (h * h)).norm() * 900.0);
        omega = omega.max(omega_at(f).norm());
        let wd = (omega_at(f + h) - omega_at(f - h)) / (2.0 * h) * 30.0;
        omega_dot = omega_dot.max(wd.norm());
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
            let a = track.eval(f64::from(*t) * 30.0, Polynomial::Ascending).map(f64::to_radians);
            let r = EulerOrder::Xyz.rotation(a);
            let truth = NOD_FRAME.quat_to_ir([r.i, r.j, r.k, r.w].map(|c| c as f32));
            assert!(rotation_angle(*q, truth) < 1e-5);
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
    let anim = crate::read_animation(&skeleton(), &bytes, "stress", &NadOptions::default()).unwrap();
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

/// The analytic bound on the rotation sampling error, in radians, for angular speed `omega` (rad/s)
/// and angular acceleration `omega_dot` (rad/s²): `Δt² · (ω̇/8 + ω²/16)` with `Δt = 1/30 s`.
fn rotation_sampling_bound(omega: f64, omega_dot: f64) -> f64 {
    let dt = 1.0 / f64::from(FRAMES_PER_SECOND);
    dt * dt * (omega_dot.abs() / 8.0 + omega * omega / 16.0)
}
