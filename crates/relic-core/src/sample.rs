//! The one implementation of keyframe interpolation, shared by the format crates (which resample
//! channels when a format needs keys at common times) and `relic-anim` (which adds cursors and
//! poses on top).
//!
//! * Step holds the earlier key.
//! * Linear lerps translation and scale and **slerps** rotation along the shortest path: that is
//!   what glTF's LINEAR means for rotations, and what the games' runtimes do, so an exported clip
//!   moves exactly as the original.
//! * CubicSpline is glTF's cubic Hermite: three values per key (in-tangent, value, out-tangent),
//!   tangents in units per second, scaled by the segment length.
//! * Before the first key the first value holds, after the last key the last value: never
//!   extrapolate.

use crate::model::{Channel, ChannelValues, Interpolation};

/// Where a time falls among the keys.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Segment {
    /// The key at or before the time.
    pub key: usize,
    /// Position between `key` and `key + 1` in [0, 1); 0 when clamped.
    pub fraction: f32,
    /// Seconds between `key` and `key + 1` (0 when clamped).
    pub span: f32,
}

/// Finds the segment of `times` (strictly increasing) that holds `t`, clamping outside.
pub fn find_segment(times: &[f32], t: f32) -> Segment {
    let last = times.len().saturating_sub(1);
    let first_time = times.first().copied().unwrap_or(0.0);
    if times.len() < 2 || t.is_nan() || t <= first_time {
        return Segment { key: 0, fraction: 0.0, span: 0.0 };
    }
    if t >= times.get(last).copied().unwrap_or(0.0) {
        return Segment { key: last, fraction: 0.0, span: 0.0 };
    }
    // Index of the first key after t, at least 1 here.
    let next = times.partition_point(|&k| k <= t);
    segment_at(times, next - 1, t)
}

/// The segment starting at `key` for time `t` (the caller knows `times[key] <= t < times[key+1]`).
#[inline]
pub fn segment_at(times: &[f32], key: usize, t: f32) -> Segment {
    match (times.get(key), times.get(key + 1)) {
        (Some(&a), Some(&b)) if b > a => Segment { key, fraction: ((t - a) / (b - a)).clamp(0.0, 1.0), span: b - a },
        _ => Segment { key, fraction: 0.0, span: 0.0 },
    }
}

/// Linear interpolation of 3-vectors.
#[inline]
pub fn lerp3(a: [f32; 3], b: [f32; 3], s: f32) -> [f32; 3] {
    [a[0] + (b[0] - a[0]) * s, a[1] + (b[1] - a[1]) * s, a[2] + (b[2] - a[2]) * s]
}

/// Shortest-path spherical interpolation of unit quaternions `[x, y, z, w]`, normalised.
///
/// The angle and sines come from polynomial approximations accurate to a few parts in 10⁸
/// ([`acos_unit`], [`sin_half_pi`]), i.e. to f32 precision, at a fraction of the cost of the
/// library calls (a 64-bone pose samples up to 64 of these).
#[inline]
pub fn slerp(a: [f32; 4], b: [f32; 4], s: f32) -> [f32; 4] {
    let mut dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    let b = if dot < 0.0 {
        dot = -dot;
        [-b[0], -b[1], -b[2], -b[3]]
    } else {
        b
    };
    let (wa, wb) = if dot > 0.9995 {
        // Nearly parallel: linear is exact to float precision and avoids dividing by sin ≈ 0.
        (1.0 - s, s)
    } else {
        let theta = acos_unit(dot);
        let inv_sin = 1.0 / sin_half_pi(theta);
        (sin_half_pi((1.0 - s) * theta) * inv_sin, sin_half_pi(s * theta) * inv_sin)
    };
    normalize4([wa * a[0] + wb * b[0], wa * a[1] + wb * b[1], wa * a[2] + wb * b[2], wa * a[3] + wb * b[3]])
}

/// `acos(x)` for `x` in [0, 1] (Abramowitz & Stegun 4.4.46, |error| ≤ 2·10⁻⁸), evaluated in f64.
#[inline]
pub fn acos_unit(x: f32) -> f32 {
    let x = f64::from(x.clamp(0.0, 1.0));
    let p = 1.570_796_305_0
        + x * (-0.214_598_801_6
            + x * (0.088_978_987_4
                + x * (-0.050_174_304_6
                    + x * (0.030_891_881_0 + x * (-0.017_088_125_6 + x * (0.006_670_090_1 + x * -0.001_262_491_1))))));
    ((1.0 - x).sqrt() * p) as f32
}

/// `sin(x)` for `x` in [0, π/2] (odd Taylor polynomial to x¹⁵, |error| < 10⁻¹⁰ there), in f64.
#[inline]
pub fn sin_half_pi(x: f32) -> f32 {
    let x = f64::from(x);
    let x2 = x * x;
    let p = 1.0
        + x2 * (-1.0 / 6.0
            + x2 * (1.0 / 120.0
                + x2 * (-1.0 / 5040.0
                    + x2 * (1.0 / 362_880.0
                        + x2 * (-1.0 / 39_916_800.0
                            + x2 * (1.0 / 6_227_020_800.0 + x2 * (-1.0 / 1_307_674_368_000.0)))))));
    (x * p) as f32
}

/// Normalises a quaternion (identity for zero length).
#[inline]
pub fn normalize4(q: [f32; 4]) -> [f32; 4] {
    let n = crate::math::quat_norm(q);
    if n > 0.0 && n.is_finite() { q.map(|c| c / n) } else { [0.0, 0.0, 0.0, 1.0] }
}

/// Cubic Hermite basis weights for value 0, out-tangent 0, value 1, in-tangent 1 at `s`.
#[inline]
pub fn hermite_weights(s: f32) -> [f32; 4] {
    let (s2, s3) = (s * s, s * s * s);
    [2.0 * s3 - 3.0 * s2 + 1.0, s3 - 2.0 * s2 + s, -2.0 * s3 + 3.0 * s2, s3 - s2]
}

/// Interpolates `N` components of one segment of a channel's flat value list.
/// `values` is `keys × per_key` entries; for cubic channels entry `3k + 1` is key k's value.
// `i` ranges over 0..N of `[f32; N]` arrays: in bounds by construction.
#[allow(clippy::indexing_slicing)]
#[inline(always)]
fn interpolate<const N: usize>(values: &[[f32; N]], interpolation: Interpolation, seg: Segment) -> Option<[f32; N]> {
    let k = seg.key;
    match interpolation {
        Interpolation::Step => values.get(k).copied(),
        Interpolation::Linear => {
            let a = *values.get(k)?;
            if seg.fraction == 0.0 {
                return Some(a);
            }
            let b = *values.get(k + 1)?;
            Some(std::array::from_fn(|i| a[i] + (b[i] - a[i]) * seg.fraction))
        }
        Interpolation::CubicSpline => {
            let p0 = *values.get(3 * k + 1)?;
            if seg.fraction == 0.0 {
                return Some(p0);
            }
            let b0 = *values.get(3 * k + 2)?;
            let a1 = *values.get(3 * k + 3)?;
            let p1 = *values.get(3 * k + 4)?;
            let [h00, h10, h01, h11] = hermite_weights(seg.fraction);
            let d = seg.span;
            Some(std::array::from_fn(|i| h00 * p0[i] + h10 * d * b0[i] + h01 * p1[i] + h11 * d * a1[i]))
        }
    }
}

/// A sampled channel value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Sample {
    /// Translation or scale.
    Vector([f32; 3]),
    /// Rotation, unit quaternion.
    Rotation([f32; 4]),
}

/// Samples translation or scale values (one per key, or three per key for cubic) at a segment
/// found with [`find_segment`] or a cursor.
#[inline(always)]
pub fn sample_vector(values: &[[f32; 3]], interpolation: Interpolation, seg: Segment) -> Option<[f32; 3]> {
    if interpolation == Interpolation::Linear {
        let a = *values.get(seg.key)?;
        return Some(match values.get(seg.key + 1) {
            Some(b) if seg.fraction != 0.0 => lerp3(a, *b, seg.fraction),
            _ => a,
        });
    }
    interpolate(values, interpolation, seg)
}

/// Samples rotation values at a segment: slerp for linear keys, normalised otherwise.
#[inline(always)]
pub fn sample_rotation(values: &[[f32; 4]], interpolation: Interpolation, seg: Segment) -> Option<[f32; 4]> {
    match interpolation {
        Interpolation::Linear if seg.fraction != 0.0 => {
            Some(slerp(*values.get(seg.key)?, *values.get(seg.key + 1)?, seg.fraction))
        }
        Interpolation::Linear => values.get(seg.key).copied(),
        other => interpolate(values, other, seg).map(normalize4),
    }
}

/// Samples one channel at a segment found with [`find_segment`] (or a cursor).
#[inline]
pub fn sample_segment(channel: &Channel, seg: Segment) -> Option<Sample> {
    match &channel.values {
        ChannelValues::Translation(v) | ChannelValues::Scale(v) => {
            sample_vector(v, channel.interpolation, seg).map(Sample::Vector)
        }
        ChannelValues::Rotation(v) => sample_rotation(v, channel.interpolation, seg).map(Sample::Rotation),
    }
}

impl Channel {
    /// The channel's value at `t` seconds (of its own clock), clamped outside its keys; `None` for
    /// a channel without keys or with fewer values than keys.
    pub fn sample(&self, t: f32) -> Option<Sample> {
        sample_segment(self, find_segment(&self.times, t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Clock;

    fn channel(interpolation: Interpolation, times: Vec<f32>, values: ChannelValues) -> Channel {
        Channel { bone: 0, clock: Clock::Animation, interpolation, times, values }
    }

    #[test]
    fn linear_clamps_and_interpolates() {
        let c = channel(
            Interpolation::Linear,
            vec![1.0, 2.0],
            ChannelValues::Translation(vec![[0.0, 0.0, 0.0], [2.0, 4.0, -2.0]]),
        );
        assert_eq!(c.sample(0.0), Some(Sample::Vector([0.0; 3])));
        assert_eq!(c.sample(1.5), Some(Sample::Vector([1.0, 2.0, -1.0])));
        assert_eq!(c.sample(9.0), Some(Sample::Vector([2.0, 4.0, -2.0])));
        assert_eq!(c.sample(f32::NAN), Some(Sample::Vector([0.0; 3])));
    }

    #[test]
    fn step_holds() {
        let c = channel(Interpolation::Step, vec![0.0, 1.0], ChannelValues::Scale(vec![[1.0; 3], [2.0; 3]]));
        assert_eq!(c.sample(0.99), Some(Sample::Vector([1.0; 3])));
        assert_eq!(c.sample(1.0), Some(Sample::Vector([2.0; 3])));
    }

    #[test]
    fn slerp_takes_the_short_way_and_stays_unit() {
        let h = std::f32::consts::FRAC_1_SQRT_2;
        // 0° and 90° about Z, the second stored with the opposite sign.
        let a = [0.0, 0.0, 0.0, 1.0];
        let b = [0.0, 0.0, -h, -h];
        let q = slerp(a, b, 0.5);
        let expected = [0.0, 0.0, (std::f32::consts::PI / 8.0).sin(), (std::f32::consts::PI / 8.0).cos()];
        assert!(crate::math::max_abs_diff(&q, &expected) < 1e-6, "{q:?}");
        assert!((crate::math::quat_norm(q) - 1.0).abs() < 1e-6);
    }

    #[test]
    fn polynomial_trig_matches_the_library() {
        let mut worst = (0.0f64, 0.0f64);
        for i in 0..=10_000 {
            let x = i as f32 / 10_000.0;
            worst.0 = worst.0.max((f64::from(acos_unit(x)) - f64::from(x).acos()).abs());
            let y = x * std::f32::consts::FRAC_PI_2;
            worst.1 = worst.1.max((f64::from(sin_half_pi(y)) - f64::from(y).sin()).abs());
        }
        // f32 rounding of results near 1.57 is 6e-8; the polynomials add no more than that.
        assert!(worst.0 < 2e-7 && worst.1 < 1e-7, "{worst:?}");
        // slerp against the textbook formula in f64.
        let a = normalize4([0.1, 0.7, -0.2, 0.5]);
        let b = normalize4([-0.6, 0.1, 0.3, 0.4]);
        for k in 0..=20 {
            let s = k as f32 / 20.0;
            let q = slerp(a, b, s);
            let d: f64 = (0..4).map(|i| f64::from(a[i]) * f64::from(b[i])).sum();
            let th = d.abs().acos();
            let sign = if d < 0.0 { -1.0 } else { 1.0 };
            let (wa, wb) = (((1.0 - f64::from(s)) * th).sin() / th.sin(), (f64::from(s) * th).sin() / th.sin() * sign);
            for i in 0..4 {
                let e = wa * f64::from(a[i]) + wb * f64::from(b[i]);
                assert!((f64::from(q[i]) - e).abs() < 3e-7, "s={s} {q:?}");
            }
        }
    }

    #[test]
    fn cubic_matches_hermite_and_hits_keys() {
        // p(t) = t³ on [0, 2]: p0 = 0, p1 = 8, m0 = 0, m1 = 12 (per second).
        let c = channel(
            Interpolation::CubicSpline,
            vec![0.0, 2.0],
            ChannelValues::Translation(vec![[0.0; 3], [0.0; 3], [0.0; 3], [12.0; 3], [8.0; 3], [0.0; 3]]),
        );
        for t in [0.0f32, 0.5, 1.0, 1.5, 2.0] {
            let Some(Sample::Vector(v)) = c.sample(t) else { panic!() };
            assert!((v[0] - t * t * t).abs() < 1e-5, "t={t}: {v:?}");
        }
    }

    #[test]
    fn segments() {
        let times = [0.0, 1.0, 3.0];
        assert_eq!(find_segment(&times, 2.0), Segment { key: 1, fraction: 0.5, span: 2.0 });
        assert_eq!(find_segment(&times, 1.0), Segment { key: 1, fraction: 0.0, span: 2.0 });
        assert_eq!(find_segment(&times, 5.0).key, 2);
        assert_eq!(find_segment(&[], 5.0).key, 0);
    }
}
