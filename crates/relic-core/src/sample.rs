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
    // No keys: any time is "at or before the first" (segment 0 below), which is what the default gives.
    let first_time = times.first().copied().unwrap_or(0.0);
    if times.len() < 2 || t.is_nan() || t <= first_time {
        return Segment { key: 0, fraction: 0.0, span: 0.0 };
    }
    // last < len here (at least two keys): never taken.
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

/// Shortest-path spherical interpolation of unit quaternions `[x, y, z, w]`.
///
/// The two weights `sin((1−s)θ)/sin θ` and `sin(sθ)/sin θ` are evaluated, for keys up to about
/// 91° apart (`cos θ ≥ 0.7`, nearly every pair of neighbouring keys), with D. Eberly's polynomial
/// ("A Fast and Accurate Algorithm for Computing SLERP", Journal of Graphics, GPU, and Game Tools
/// 15(3), 2011): two short Horner chains, no trigonometry, no division, error ≤ 2·10⁻⁸ there.
/// Wider angles take the polynomial-trigonometry path ([`acos_unit`], [`sin_half_pi`]). Both are
/// accurate to f32 precision; a test checks slerp against the textbook formula in f64 over the
/// whole range. The result is renormalised.
#[inline]
pub fn slerp(a: [f32; 4], b: [f32; 4], s: f32) -> [f32; 4] {
    let mut x = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    let sign = if x < 0.0 {
        x = -x;
        -1.0
    } else {
        1.0
    };
    let x = x.min(1.0);
    let (wa, wb) = if x >= EBERLY_MIN_COS {
        eberly_weights::<f32>(s, x)
    } else {
        let theta = acos_unit(x);
        let inv_sin = 1.0 / sin_half_pi(theta);
        (sin_half_pi((1.0 - s) * theta) * inv_sin, sin_half_pi(s * theta) * inv_sin)
    };
    let wb = wb * sign;
    normalize4([wa * a[0] + wb * b[0], wa * a[1] + wb * b[1], wa * a[2] + wb * b[2], wa * a[3] + wb * b[3]])
}

/// Below this `cos θ` Eberly's eight-term polynomial loses accuracy (1.7·10⁻⁸ at 0.7, 2·10⁻⁵ near 0);
/// slerp switches to polynomial trigonometry there.
pub const EBERLY_MIN_COS: f32 = 0.7;

/// Eberly's coefficients `u[i] = 1/((i+1)(2i+3))`, `v[i] = (i+1)/(2i+3)`, the last two scaled by
/// his correction factor μ = 1.852 981 092 408 30 that absorbs the truncated tail of the series.
const SLERP_MU: f32 = 1.852_981_1;
const SLERP_U: [f32; 8] =
    [1.0 / 3.0, 1.0 / 10.0, 1.0 / 21.0, 1.0 / 36.0, 1.0 / 55.0, 1.0 / 78.0, 1.0 / 105.0, SLERP_MU / 136.0];
const SLERP_V: [f32; 8] =
    [1.0 / 3.0, 2.0 / 5.0, 3.0 / 7.0, 4.0 / 9.0, 5.0 / 11.0, 6.0 / 13.0, 7.0 / 15.0, SLERP_MU * 8.0 / 17.0];

/// The slerp weights `(sin((1−s)θ)/sin θ, sin(sθ)/sin θ)` for `cos θ = x ∈ [0, 1]`.
///
/// Eberly's nested form `1 + b₁(1 + b₂(1 + … (1 + b₈)))` equals `1 + b₁ + b₁b₂ + … + b₁⋯b₈`;
/// computing the prefix products as a tree keeps the dependency chain short. Generic over
/// [`Lanes`] so one implementation serves single samples (`f32`) and SIMD batches (relic-anim).
#[inline(always)]
pub fn eberly_weights<T: Lanes>(s: T, x: T) -> (T, T) {
    let one = T::splat(1.0);
    let xm1 = x - one;
    let d = one - s;
    (d * eberly_series(d * d, xm1), s * eberly_series(s * s, xm1))
}

#[inline(always)]
fn eberly_series<T: Lanes>(t2: T, xm1: T) -> T {
    let b = |i: usize| {
        // i < 8 = the tables' length (the eight calls below): never taken.
        let (u, v) = (SLERP_U.get(i).copied().unwrap_or(0.0), SLERP_V.get(i).copied().unwrap_or(0.0));
        (T::splat(u) * t2 - T::splat(v)) * xm1
    };
    let (b1, b2, b3, b4, b5, b6, b7, b8) = (b(0), b(1), b(2), b(3), b(4), b(5), b(6), b(7));
    let (p2, b34, b56, b78) = (b1 * b2, b3 * b4, b5 * b6, b7 * b8);
    let (p3, p4) = (p2 * b3, p2 * b34);
    let (p5, p6) = (p4 * b5, p4 * b56);
    let (p7, p8) = (p6 * b7, p6 * b78);
    ((T::splat(1.0) + b1) + (p2 + p3)) + ((p4 + p5) + (p6 + p7)) + p8
}

/// The arithmetic [`eberly_weights`] needs: `f32` here; relic-anim implements it for four SIMD
/// lanes to slerp four bones at once.
pub trait Lanes:
    Copy + std::ops::Add<Output = Self> + std::ops::Sub<Output = Self> + std::ops::Mul<Output = Self>
{
    /// The value in every lane.
    fn splat(v: f32) -> Self;
}

impl Lanes for f32 {
    #[inline(always)]
    fn splat(v: f32) -> Self {
        v
    }
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

/// How far apart two unit quaternions are, per component, taking `q` and `−q` as one rotation:
/// the largest component difference after turning `b` into `a`'s hemisphere.
pub fn rotation_gap(a: [f32; 4], b: [f32; 4]) -> f32 {
    let sign = if a.iter().zip(&b).map(|(x, y)| x * y).sum::<f32>() < 0.0 { -1.0 } else { 1.0 };
    a.iter().zip(&b).map(|(x, y)| (x - sign * y).abs()).fold(0.0, f32::max)
}

/// The fewest of `steps` (ascending) linear pieces that follow `curve` over `[0, 1]`: each piece
/// is interpolated as glTF's LINEAR does (a lerp of vectors, a slerp of rotations) between two
/// samples of the curve, and `within(linear, exact)` must hold at its quarter points (a midpoint
/// alone misses an S-shaped cubic, on its chord midway and off it either side). `None` when even
/// the last does not; a point the curve has no sample for is not judged.
pub fn fewest_linear_steps(
    curve: impl Fn(f32) -> Option<Sample>,
    steps: &[usize],
    within: impl Fn(Sample, Sample) -> bool,
) -> Option<usize> {
    let fits = |n: usize| {
        (0..n).all(|j| {
            let (s0, s1) = (j as f32 / n as f32, (j + 1) as f32 / n as f32);
            let (Some(a), Some(b)) = (curve(s0), curve(s1)) else { return true };
            [0.25f32, 0.5, 0.75].iter().all(|&u| {
                let exact = curve(s0 + (s1 - s0) * u);
                let linear = match (a, b) {
                    (Sample::Vector(a), Sample::Vector(b)) => Some(Sample::Vector(lerp3(a, b, u))),
                    (Sample::Rotation(a), Sample::Rotation(b)) => Some(Sample::Rotation(slerp(a, b, u))),
                    _ => None,
                };
                linear.zip(exact).is_none_or(|(l, e)| within(l, e))
            })
        })
    };
    steps.iter().copied().find(|&n| fits(n))
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
    fn a_quaternion_and_its_opposite_are_no_gap_apart() {
        let q = [0.0, 0.0, 0.6, 0.8];
        assert_eq!(rotation_gap(q, q.map(|c| -c)), 0.0);
        assert!((rotation_gap(q, [0.0, 0.0, 0.0, 1.0]) - 0.6).abs() < 1e-6);
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
    fn slerp_matches_the_textbook_formula() {
        // Pairs of unit quaternions at angles from 0 to 180° (both hemispheres), every s.
        let mut worst = 0.0f64;
        // (At exactly 180° the shortest path is ambiguous: stop at 178°.)
        for k in 0..=89 {
            let half = f64::from(k) * std::f64::consts::PI / 180.0; // half-angle 0..89°, then the flip side
            let axis = [0.48f64, -0.6, 0.64];
            let a = normalize4([0.1, 0.7, -0.2, 0.5]);
            for flip in [1.0f64, -1.0] {
                // b = a rotated by 2·half about `axis`, possibly with the opposite sign.
                let r = [axis[0] * half.sin(), axis[1] * half.sin(), axis[2] * half.sin(), half.cos()];
                let a64 = a.map(f64::from);
                let b64 = [
                    r[3] * a64[0] + r[0] * a64[3] + r[1] * a64[2] - r[2] * a64[1],
                    r[3] * a64[1] - r[0] * a64[2] + r[1] * a64[3] + r[2] * a64[0],
                    r[3] * a64[2] + r[0] * a64[1] - r[1] * a64[0] + r[2] * a64[3],
                    r[3] * a64[3] - r[0] * a64[0] - r[1] * a64[1] - r[2] * a64[2],
                ]
                .map(|c| c * flip);
                let b = b64.map(|c| c as f32);
                for j in 0..=20 {
                    let s = j as f32 / 20.0;
                    let q = slerp(a, b, s);
                    let d: f64 = (0..4).map(|i| a64[i] * b64[i]).sum();
                    let th = d.abs().min(1.0).acos();
                    let (wa, wb) = if th < 1e-9 {
                        (1.0 - f64::from(s), f64::from(s))
                    } else {
                        (((1.0 - f64::from(s)) * th).sin() / th.sin(), (f64::from(s) * th).sin() / th.sin())
                    };
                    let wb = wb * d.signum();
                    for i in 0..4 {
                        let e = wa * a64[i] + wb * b64[i];
                        worst = worst.max((f64::from(q[i]) - e).abs());
                    }
                }
            }
        }
        assert!(worst < 3e-7, "worst component error {worst:e}");
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
