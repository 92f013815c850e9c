//! Translation and scale keys: linear interpolation per component, `x + (y − x)·f`.

use super::span::{Bounds, Motion, increasing, seconds};
use super::{fraction, near};

/// The unit roundoff of f32 (2⁻²⁴): every f32 operation errs by at most this relative amount.
const F32_ROUNDOFF: f64 = 1.0 / 16_777_216.0;

/// Values past this are not certified: far from overflow in `y − x`.
const LARGEST: f32 = 1e30;

pub(super) struct Linear<'a> {
    times: &'a [f32],
    values: &'a [[f32; 3]],
    tolerance: f32,
    step: bool,
    anchor: usize,
}

impl<'a> Linear<'a> {
    pub(super) fn new(times: &'a [f32], values: &'a [[f32; 3]], tolerance: f32, step: bool) -> Self {
        Self { times, values, tolerance, step, anchor: 0 }
    }

    fn at(&self, i: usize) -> [f32; 3] {
        // `i` is a key, and `reduce` runs only where every key has a value: never the default.
        self.values.get(i).copied().unwrap_or_default()
    }
}

impl Motion<3> for Linear<'_> {
    fn len(&self) -> usize {
        self.times.len()
    }

    fn fits(&self, a: usize, b: usize, k: usize) -> bool {
        let f = fraction(self.times, self.step, a, b, k);
        let lerp = relic_core::math::zip3(self.at(a), self.at(b), |x, y| x + (y - x) * f);
        near(lerp, self.at(k), self.tolerance)
    }

    fn certifiable(&self) -> bool {
        !self.step
            && self.times.len() == self.values.len()
            && increasing(self.times)
            && self.values.iter().flatten().all(|v| v.abs() < LARGEST)
    }

    fn start(&mut self, anchor: usize) {
        self.anchor = anchor;
    }

    /// Key `k` fits a span of slope `s` if `|x + s·dt − v| ≤ tolerance − margin` in exact
    /// arithmetic (x the anchor's value, v the key's, dt its time from the anchor), where the
    /// margin bounds how far the test of record's f32 result `(x + (y − x)·f) − v` strays from the
    /// exact one near the tolerance: with u = 2⁻²⁴, f within 3u of exact, `y − x`, the product,
    /// the sum and the difference each within u, that is at most
    /// `u·|x| + 6u·|v − x| + 7u·tolerance` (first order; the constants below round up), plus this
    /// f64 test's own rounding.
    fn bounds(&mut self, k: usize) -> Bounds<3> {
        let (x, v) = (self.at(self.anchor), self.at(k));
        let per_second = 1.0 / seconds(self.times, self.anchor, k);
        let tolerance = f64::from(self.tolerance);
        Some(std::array::from_fn(|c| {
            let x = x.get(c).copied().map_or(0.0, f64::from);
            let d = v.get(c).copied().map_or(0.0, f64::from) - x;
            let margin = F32_ROUNDOFF * (1.001 * x.abs() + 6.01 * d.abs() + 7.01 * tolerance)
                + 1e-14 * (x.abs() + d.abs() + tolerance)
                + 1e-37;
            let reach = tolerance - margin;
            ((d - reach) * per_second, (d + reach) * per_second)
        }))
    }

    fn slope(&mut self, end: usize) -> Option<[f64; 3]> {
        let (x, y) = (self.at(self.anchor), self.at(end));
        let per_second = 1.0 / seconds(self.times, self.anchor, end);
        Some(relic_core::math::zip3(x, y, |x, y| (f64::from(y) - f64::from(x)) * per_second))
    }

    /// `x + (x − x)·f` is `x` exactly for finite `x` and `f`.
    fn same(&self, k: usize) -> bool {
        self.at(self.anchor) == self.at(k)
    }
}
