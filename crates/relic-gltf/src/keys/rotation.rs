//! Rotation keys: slerp between unit quaternions, certified in the tangent space at the anchor.
//!
//! Slerp from the anchor `a` follows the geodesic `exp_a(f·w_e)`, `w_e` the logarithm at `a` of the
//! span's end (a vector of R⁴ orthogonal to `a`, as long as the angle). In those coordinates the
//! span is a straight line from the origin whose slope per second is `w_e / dt_e`, and key `k`
//! (logarithm `w_k`) sits at `w_k`. `exp_a` is 1-Lipschitz, and its differential differs from the
//! identity by at most the angle `φ` (radially `2 sin(φ/2)`, tangentially `1 − sin φ / φ`), so a
//! tangent-space distance `δ` per component moves the quaternion by at most `δ·(1 + 2φ)` per
//! component (`|·|∞ ≤ |·|₂ ≤ 2|·|∞` in R⁴). What the f32 test of record adds to the exact geodesic
//! is bounded by measurement, with room to spare:
//!
//! * [`SLERP_ERROR`]: relic's slerp of unit quaternions strays from the exact geodesic by at most
//!   1.5·10⁻⁷ per component (20 million random pairs, every angle up to 90°, both of its branches),
//!   and the f32 fraction moves the point by at most 3·10⁻⁷;
//! * [`LENGTH_ERROR`]: quaternions off unit length by η (M2's 16-bit ones are, by up to 10⁻⁴) move
//!   the slerp by at most 0.62·η per radian of the span (same measurement); a span may spend a set
//!   part of the tolerance that way (its budget), longer ones are not certified;
//! * the key itself compared unnormalized: its own η.

use relic_core::sample::slerp;

use super::span::{Bounds, Motion, increasing, seconds};
use super::{fraction, near};

/// Keys and spans further than this from the anchor (radians between the unit quaternions) are
/// not certified, and no span reaches further ([`Rotation::fits`]): viewers that interpolate
/// each component on its own and normalise (Blender's curves) leave slerp's arc by at most
/// θ³/62, 1.6·10⁻⁵ at this angle, so the keys kept play within the tolerance there too (a span
/// of 70° left Blender 4.8·10⁻³ off the game's curve). The hemisphere the test of record
/// compares in is then certain, and `1 + 2φ` stays small.
pub(crate) const MAX_ANGLE: f64 = 0.1;
/// Twice the measured error of relic's slerp and of its f32 fraction (see the module's notes).
const SLERP_ERROR: f64 = 1e-6;
/// How far a slerp moves per radian and per unit of the ends' length error: 2.4 × the 0.62
/// measured.
const LENGTH_ERROR: f64 = 1.5;
/// Quaternions further than this from unit length are not certified.
const MAX_LENGTH_ERROR: f64 = 1e-3;
/// A span holding the anchor's quaternion fits when that quaternion is within this of unit
/// length: slerp between two equal quaternions gives the quaternion normalized.
const HELD_LENGTH_ERROR: f64 = 5e-5;
/// The most of the tolerance a span may spend on its ends' length error.
const MAX_BUDGET: f64 = 2e-5;

/// The angle between two quaternions as unit quaternions in one hemisphere (as
/// [`Rotation::log`] takes it); the identity stands in for a zero one.
pub(crate) fn angle(p: [f32; 4], q: [f32; 4]) -> f64 {
    let unit = |q: [f32; 4]| {
        let q = q.map(f64::from);
        let length = q.iter().map(|c| c * c).sum::<f64>().sqrt();
        if length > 0.0 { q.map(|c| c / length) } else { [0.0, 0.0, 0.0, 1.0] }
    };
    let (p, q) = (unit(p), unit(q));
    let cos = p.iter().zip(&q).map(|(p, q)| p * q).sum::<f64>();
    let q = if cos < 0.0 { q.map(|c| -c) } else { q };
    let cos = cos.abs();
    let sin = q.iter().zip(&p).map(|(q, p)| (q - cos * p).powi(2)).sum::<f64>().sqrt();
    sin.atan2(cos)
}

pub(super) struct Rotation<'a> {
    times: &'a [f32],
    values: &'a [[f32; 4]],
    /// Per component of the unit quaternion.
    tolerance: f32,
    step: bool,
    /// Each key as a unit quaternion in f64 and how far its length is from 1; empty where the
    /// channel cannot be certified.
    units: Vec<([f64; 4], f64)>,
    /// The tolerance set aside in every key's bounds for the span's ends being off unit length:
    /// `LENGTH_ERROR · η · angle` of a span must stay within it.
    budget: f64,
    anchor: usize,
    /// The anchor as a unit quaternion, and its length error.
    anchor_unit: ([f64; 4], f64),
    /// The last logarithm taken (a span's end is the next span's last inside key): key, vector,
    /// angle.
    last: Option<(usize, [f64; 4], f64)>,
}

impl<'a> Rotation<'a> {
    pub(super) fn new(times: &'a [f32], values: &'a [[f32; 4]], tolerance: f32, step: bool) -> Self {
        let mut units = Vec::new();
        if !step && times.len() == values.len() && increasing(times) {
            units.reserve(values.len());
            for q in values {
                let q = q.map(f64::from);
                let length = q.iter().map(|c| c * c).sum::<f64>().sqrt();
                if !(length.is_finite() && (length - 1.0).abs() <= MAX_LENGTH_ERROR) {
                    units.clear();
                    break;
                }
                units.push((q.map(|c| c / length), (length - 1.0).abs()));
            }
        }
        let worst = units.iter().map(|u| u.1).fold(0.0, f64::max);
        let budget = (LENGTH_ERROR * worst * MAX_ANGLE).min(MAX_BUDGET);
        Self {
            times,
            values,
            tolerance,
            step,
            units,
            budget,
            anchor: 0,
            anchor_unit: ([0.0, 0.0, 0.0, 1.0], 0.0),
            last: None,
        }
    }

    fn at(&self, i: usize) -> [f32; 4] {
        self.values.get(i).copied().unwrap_or([0.0, 0.0, 0.0, 1.0])
    }

    /// The logarithm at the anchor of key `k` taken in the anchor's hemisphere (as slerp and the
    /// test of record take it), its angle and the key's length error.
    fn log(&mut self, k: usize) -> ([f64; 4], f64, f64) {
        let (q, length_error) = self.units.get(k).copied().unwrap_or(([0.0, 0.0, 0.0, 1.0], 0.0));
        if let Some((i, w, angle)) = self.last
            && i == k
        {
            return (w, angle, length_error);
        }
        let a = self.anchor_unit.0;
        let cos = a.iter().zip(&q).map(|(a, q)| a * q).sum::<f64>();
        let q = if cos < 0.0 { q.map(|c| -c) } else { q };
        let cos = cos.abs();
        let mut across = q;
        for (c, a) in across.iter_mut().zip(a) {
            *c -= cos * a;
        }
        let sin = across.iter().map(|c| c * c).sum::<f64>().sqrt();
        let angle = sin.atan2(cos);
        let w = if sin > 0.0 { across.map(|c| c * (angle / sin)) } else { [0.0; 4] };
        self.last = Some((k, w, angle));
        (w, angle, length_error)
    }
}

impl Motion<4> for Rotation<'_> {
    fn len(&self) -> usize {
        self.times.len()
    }

    fn fits(&self, a: usize, b: usize, k: usize) -> bool {
        if !self.step && angle(self.at(a), self.at(b)) > MAX_ANGLE {
            return false;
        }
        let mut want = self.at(k);
        let got = slerp(self.at(a), self.at(b), fraction(self.times, self.step, a, b, k));
        if want.iter().zip(got).map(|(x, y)| x * y).sum::<f32>() < 0.0 {
            want = want.map(|c| -c);
        }
        near(got, want, self.tolerance)
    }

    fn certifiable(&self) -> bool {
        !self.units.is_empty()
    }

    fn start(&mut self, anchor: usize) {
        self.anchor = anchor;
        self.anchor_unit = self.units.get(anchor).copied().unwrap_or(([0.0, 0.0, 0.0, 1.0], 0.0));
        self.last = None;
    }

    /// Key `k` fits if the span's point at its time lies within `reach / (1 + 2(φ + 2·tol))` of
    /// `w_k` per component, `reach` the tolerance less the errors above.
    fn bounds(&mut self, k: usize) -> Bounds<4> {
        let (w, angle, length_error) = self.log(k);
        if angle > MAX_ANGLE {
            return None;
        }
        let per_second = 1.0 / seconds(self.times, self.anchor, k);
        let tolerance = f64::from(self.tolerance);
        let reach = (tolerance - SLERP_ERROR - self.budget - length_error) / (1.0 + 2.0 * (angle + 2.0 * tolerance));
        Some(w.map(|c| ((c - reach) * per_second, (c + reach) * per_second)))
    }

    fn slope(&mut self, end: usize) -> Option<[f64; 4]> {
        let (w, angle, length_error) = self.log(end);
        let per_second = 1.0 / seconds(self.times, self.anchor, end);
        let ends = length_error.max(self.anchor_unit.1);
        (angle <= MAX_ANGLE && LENGTH_ERROR * ends * angle <= self.budget).then(|| w.map(|c| c * per_second))
    }

    /// Slerp between equal quaternions is the quaternion normalized, within a few f32 roundings.
    fn same(&self, k: usize) -> bool {
        self.anchor_unit.1 <= HELD_LENGTH_ERROR && self.at(self.anchor) == self.at(k)
    }
}
