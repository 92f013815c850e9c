//! Four bones at once: SIMD lanes for the slerp series of [`relic_core::sample::eberly_weights`].

use relic_core::sample::{EBERLY_MIN_COS, Lanes, eberly_weights, slerp};
use wide::f32x4;

/// Four `f32` lanes (one SSE register).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct F4(pub f32x4);

impl Lanes for F4 {
    #[inline(always)]
    fn splat(v: f32) -> Self {
        F4(f32x4::splat(v))
    }
}

impl std::ops::Add for F4 {
    type Output = F4;
    #[inline(always)]
    fn add(self, o: F4) -> F4 {
        F4(self.0 + o.0)
    }
}

impl std::ops::Sub for F4 {
    type Output = F4;
    #[inline(always)]
    fn sub(self, o: F4) -> F4 {
        F4(self.0 - o.0)
    }
}

impl std::ops::Mul for F4 {
    type Output = F4;
    #[inline(always)]
    fn mul(self, o: F4) -> F4 {
        F4(self.0 * o.0)
    }
}

/// Four quaternions as structure of arrays: `[x, y, z, w]`, each holding one component of four
/// quaternions (lane `i` is quaternion `i`).
pub(crate) type QuatLanes = [f32x4; 4];

/// Four slerps at once (lane `i` interpolates quaternion `i` of `a` to that of `b` by `s[i]`),
/// with the results of [`relic_core::sample::slerp`] per lane.
#[inline]
pub(crate) fn slerp4(a: QuatLanes, b: QuatLanes, s: f32x4) -> QuatLanes {
    let [ax, ay, az, aw] = a;
    let [bx, by, bz, bw] = b;
    let dot = (ax * bx + ay * by) + (az * bz + aw * bw);
    let x = dot.abs().min(f32x4::splat(1.0));
    if x.simd_lt(f32x4::splat(EBERLY_MIN_COS)).any() {
        // A wide angle in some lane (rare between neighbouring keys): one lane at a time.
        let (a, b, s) = (a.map(f32x4::to_array), b.map(f32x4::to_array), s.to_array());
        let out: [[f32; 4]; 4] = std::array::from_fn(|i| {
            // i < 4 lanes (array::from_fn over four): the defaults here and below are never taken.
            let lane = |q: &[[f32; 4]; 4]| q.map(|c| c.get(i).copied().unwrap_or(0.0));
            slerp(lane(&a), lane(&b), s.get(i).copied().unwrap_or(0.0))
        });
        // c < 4 components: never taken.
        return std::array::from_fn(|c| f32x4::from(out.map(|q| q.get(c).copied().unwrap_or(0.0))));
    }
    let (F4(wa), F4(wb)) = eberly_weights(F4(s), F4(x));
    let sign = f32x4::splat(1.0).copysign(dot);
    let wb = wb * sign;
    let (qx, qy, qz, qw) = (wa * ax + wb * bx, wa * ay + wb * by, wa * az + wb * bz, wa * aw + wb * bw);
    // Unit inputs give a length near 1, never 0: normalise without a branch.
    let inv = f32x4::splat(1.0) / ((qx * qx + qy * qy) + (qz * qz + qw * qw)).sqrt();
    [qx * inv, qy * inv, qz * inv, qw * inv]
}

#[cfg(test)]
mod tests {
    use super::*;
    use relic_core::sample::normalize4;

    #[test]
    fn slerp4_equals_four_slerps() {
        let q = |a: f32, axis: [f32; 3]| {
            let (s, c) = (a * 0.5).sin_cos();
            normalize4([axis[0] * s, axis[1] * s, axis[2] * s, c])
        };
        let soa = |qs: [[f32; 4]; 4]| -> QuatLanes { std::array::from_fn(|c| f32x4::from(qs.map(|v| v[c]))) };
        let a = [q(0.1, [1.0, 0.0, 0.0]), q(-0.7, [0.0, 1.0, 0.0]), q(2.0, [0.6, 0.8, 0.0]), q(0.3, [0.0, 0.0, 1.0])];
        let b = [q(0.4, [1.0, 0.0, 0.0]), q(0.2, [0.0, 1.0, 0.0]), q(2.5, [0.6, 0.8, 0.0]), q(-0.3, [0.0, 0.0, 1.0])];
        let s = [0.0, 0.25, 0.5, 0.9];
        let mut wide_b = b;
        wide_b[1] = q(2.8, [0.0, 1.0, 0.0]); // a wide angle: the per-lane path
        let mut opposite = b;
        opposite[3] = opposite[3].map(|c| -c); // the other hemisphere: the short way round
        for b in [b, wide_b, opposite] {
            let batch = slerp4(soa(a), soa(b), f32x4::from(s));
            for i in 0..4 {
                let lane = batch.map(|c| c.to_array()[i]);
                assert!(relic_core::math::max_abs_diff(&lane, &slerp(a[i], b[i], s[i])) < 2e-7, "lane {i}");
            }
        }
    }
}
