//! The small amount of geometry the NOD and NAD mappings need, in the game's own frame: reading
//! `Matrix34` under each layout hypothesis, rigid transforms, Euler angles ↔ quaternions. Matrices
//! are relic-core's column-major [`Mat4`]; Euler and quaternion work is done in f64.

// Indices here are constants or loop counters over fixed-size arrays (0..3, 0..4, 0..12), never
// file data.
#![allow(clippy::indexing_slicing)]

use relic_core::math::{IDENTITY, Mat4, at};

use crate::options::{EulerOrder, MatrixLayout};

/// A 3×3 block, row-major, in f64.
pub type Block = [[f64; 3]; 3];

/// `(row, col)` of the 3×3 block and `row` of the translation for each of the 12 stored floats.
fn slots(layout: MatrixLayout) -> [(usize, usize); 12] {
    // (r, c) with c = 3 for the translation column.
    match layout {
        MatrixLayout::H1 => {
            [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2), (0, 3), (1, 3), (2, 3)]
        }
        MatrixLayout::H2 => {
            [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1), (0, 2), (1, 2), (2, 2), (0, 3), (1, 3), (2, 3)]
        }
        MatrixLayout::H3 => {
            [(0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 1), (1, 2), (1, 3), (2, 0), (2, 1), (2, 2), (2, 3)]
        }
    }
}

/// The affine matrix (model → bone space) that 12 stored floats mean under `layout`. Exact: a
/// permutation of the floats.
pub fn matrix34_to_mat4(f: &[f32; 12], layout: MatrixLayout) -> Mat4 {
    let mut m = IDENTITY;
    for (value, (r, c)) in f.iter().zip(slots(layout)) {
        m[c * 4 + r] = *value;
    }
    m
}

/// The 12 floats that store `m` under `layout` (the inverse of [`matrix34_to_mat4`]; the fourth
/// row of `m` is not stored).
pub fn mat4_to_matrix34(m: &Mat4, layout: MatrixLayout) -> [f32; 12] {
    let s = slots(layout);
    std::array::from_fn(|i| {
        let (r, c) = s[i];
        m[c * 4 + r]
    })
}

/// The 3×3 block of an affine matrix, in f64.
pub fn block(m: &Mat4) -> Block {
    std::array::from_fn(|r| std::array::from_fn(|c| f64::from(at(m, r, c))))
}

/// Largest deviation of a block from a rotation: `max |BᵀB − I|` and `|det B − 1|`.
pub fn rotation_error(b: &Block) -> f64 {
    let mut worst = 0.0f64;
    for i in 0..3 {
        for j in 0..3 {
            let dot: f64 = (0..3).map(|k| b[k][i] * b[k][j]).sum();
            let expected = if i == j { 1.0 } else { 0.0 };
            worst = worst.max((dot - expected).abs());
        }
    }
    let det = b[0][0] * (b[1][1] * b[2][2] - b[1][2] * b[2][1]) - b[0][1] * (b[1][0] * b[2][2] - b[1][2] * b[2][0])
        + b[0][2] * (b[1][0] * b[2][1] - b[1][1] * b[2][0]);
    if det.is_finite() { worst.max((det - 1.0).abs()) } else { f64::INFINITY }
}

/// A rigid (or general affine) transform in f64: `p ↦ R·p + t`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Affine64 {
    /// Linear part, row-major.
    pub r: Block,
    /// Translation.
    pub t: [f64; 3],
}

impl Affine64 {
    /// The identity.
    pub const IDENTITY: Affine64 = Affine64 { r: [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]], t: [0.0; 3] };

    /// From a column-major matrix.
    pub fn from_mat4(m: &Mat4) -> Self {
        Self { r: block(m), t: [0, 1, 2].map(|r| f64::from(at(m, r, 3))) }
    }

    /// To a column-major matrix.
    pub fn to_mat4(&self) -> Mat4 {
        let mut m = IDENTITY;
        for r in 0..3 {
            for c in 0..3 {
                m[c * 4 + r] = self.r[r][c] as f32;
            }
            m[12 + r] = self.t[r] as f32;
        }
        m
    }

    /// `self · other`.
    pub fn mul(&self, o: &Affine64) -> Affine64 {
        let r = std::array::from_fn(|i| std::array::from_fn(|j| (0..3).map(|k| self.r[i][k] * o.r[k][j]).sum()));
        Affine64 { r, t: self.point(o.t) }
    }

    /// `R·p + t`.
    pub fn point(&self, p: [f64; 3]) -> [f64; 3] {
        std::array::from_fn(|i| self.r[i][0] * p[0] + self.r[i][1] * p[1] + self.r[i][2] * p[2] + self.t[i])
    }

    /// `R·v`.
    pub fn vector(&self, v: [f64; 3]) -> [f64; 3] {
        std::array::from_fn(|i| self.r[i][0] * v[0] + self.r[i][1] * v[1] + self.r[i][2] * v[2])
    }

    /// General inverse; `None` if the linear part is singular.
    pub fn inverse(&self) -> Option<Affine64> {
        let b = &self.r;
        let cof = |r: usize, c: usize| {
            let (r1, r2) = ((r + 1) % 3, (r + 2) % 3);
            let (c1, c2) = ((c + 1) % 3, (c + 2) % 3);
            b[r1][c1] * b[r2][c2] - b[r1][c2] * b[r2][c1]
        };
        let det: f64 = (0..3).map(|c| b[0][c] * cof(0, c)).sum();
        if det == 0.0 || !det.is_finite() {
            return None;
        }
        let r: Block = std::array::from_fn(|i| std::array::from_fn(|j| cof(j, i) / det));
        let inv = Affine64 { r, t: [0.0; 3] };
        let t = inv.vector(self.t).map(|x| -x);
        Some(Affine64 { r, t })
    }

    /// The rotation of the linear part as a unit quaternion `[x, y, z, w]` (w ≥ 0), after
    /// removing any scale column by column.
    pub fn rotation(&self) -> [f64; 4] {
        let mut r = self.r;
        for c in 0..3 {
            let len = (0..3).map(|k| r[k][c] * r[k][c]).sum::<f64>().sqrt();
            if len > 0.0 && len.is_finite() {
                for row in &mut r {
                    row[c] /= len;
                }
            }
        }
        quat_from_block(&r)
    }
}

/// Shepperd's method on a rotation block; `[x, y, z, w]` with w ≥ 0 (identity if not finite).
pub fn quat_from_block(m: &Block) -> [f64; 4] {
    let trace = m[0][0] + m[1][1] + m[2][2];
    let q = if trace > 0.0 {
        let s = (trace + 1.0).sqrt() * 2.0;
        [(m[2][1] - m[1][2]) / s, (m[0][2] - m[2][0]) / s, (m[1][0] - m[0][1]) / s, 0.25 * s]
    } else if m[0][0] > m[1][1] && m[0][0] > m[2][2] {
        let s = (1.0 + m[0][0] - m[1][1] - m[2][2]).sqrt() * 2.0;
        [0.25 * s, (m[0][1] + m[1][0]) / s, (m[0][2] + m[2][0]) / s, (m[2][1] - m[1][2]) / s]
    } else if m[1][1] > m[2][2] {
        let s = (1.0 + m[1][1] - m[0][0] - m[2][2]).sqrt() * 2.0;
        [(m[0][1] + m[1][0]) / s, 0.25 * s, (m[1][2] + m[2][1]) / s, (m[0][2] - m[2][0]) / s]
    } else {
        let s = (1.0 + m[2][2] - m[0][0] - m[1][1]).sqrt() * 2.0;
        [(m[0][2] + m[2][0]) / s, (m[1][2] + m[2][1]) / s, 0.25 * s, (m[1][0] - m[0][1]) / s]
    };
    let n = q.iter().map(|c| c * c).sum::<f64>().sqrt();
    if !(n > 0.0 && n.is_finite()) {
        return [0.0, 0.0, 0.0, 1.0];
    }
    let q = q.map(|c| c / n);
    if q[3] < 0.0 { q.map(|c| -c) } else { q }
}

/// Rotation block of a unit quaternion.
pub fn block_from_quat(q: [f64; 4]) -> Block {
    let [x, y, z, w] = q;
    [
        [1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - w * z), 2.0 * (x * z + w * y)],
        [2.0 * (x * y + w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - w * x)],
        [2.0 * (x * z - w * y), 2.0 * (y * z + w * x), 1.0 - 2.0 * (x * x + y * y)],
    ]
}

/// Quaternion product `a · b`.
pub fn quat_mul(a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
    let [ax, ay, az, aw] = a;
    let [bx, by, bz, bw] = b;
    [
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    ]
}

/// Angle in radians between two rotations given as unit quaternions.
pub fn quat_angle(a: [f64; 4], b: [f64; 4]) -> f64 {
    // 2·atan2(|a − b|, |a + b|) on the same hemisphere: accurate for tiny angles, unlike acos.
    let dot: f64 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
    let s = if dot < 0.0 { -1.0 } else { 1.0 };
    let norm = |f: &dyn Fn(f64, f64) -> f64| a.iter().zip(&b).map(|(x, y)| f(*x, *y).powi(2)).sum::<f64>().sqrt();
    2.0 * norm(&|x, y| x - s * y).atan2(norm(&|x, y| x + s * y))
}

/// The rotation of Euler angles `(about X, about Y, about Z)` in radians, applied in `order`.
pub fn euler_to_quat(angles: [f64; 3], order: EulerOrder) -> [f64; 4] {
    let mut q = [0.0, 0.0, 0.0, 1.0];
    for axis in order.axes() {
        let half = angles[axis] * 0.5;
        let mut r = [0.0, 0.0, 0.0, half.cos()];
        r[axis] = half.sin();
        // Later rotations act after earlier ones: q ← r · q.
        q = quat_mul(r, q);
    }
    q
}

/// Euler angles `(about X, about Y, about Z)` in radians of a rotation, for `order`; the middle
/// angle lies in [−π/2, π/2]. At gimbal lock the last angle is 0.
pub fn quat_to_euler(q: [f64; 4], order: EulerOrder) -> [f64; 3] {
    let m = block_from_quat(q);
    let [i, j, k] = order.axes();
    // +1 for the cyclic orders (xyz, yzx, zxy), −1 for the others.
    let s = if (j + 3 - i) % 3 == 1 { 1.0 } else { -1.0 };
    let sb = (-s * m[k][i]).clamp(-1.0, 1.0);
    let b = sb.asin();
    let (a, c) = if sb.abs() < 1.0 - 1e-12 {
        ((s * m[k][j]).atan2(m[k][k]), (s * m[j][i]).atan2(m[i][i]))
    } else {
        ((-s * m[j][k]).atan2(m[j][j]), 0.0)
    };
    let mut out = [0.0; 3];
    out[i] = a;
    out[j] = b;
    out[k] = c;
    out
}

/// Of the two Euler triples that give the same rotation, each shifted by whole turns, the one
/// closest to `previous` (keeps curves continuous from key to key).
pub fn nearest_euler(angles: [f64; 3], order: EulerOrder, previous: [f64; 3]) -> [f64; 3] {
    use std::f64::consts::{PI, TAU};
    let [i, j, k] = order.axes();
    let mut flipped = angles;
    flipped[i] += PI;
    flipped[j] = PI - flipped[j];
    flipped[k] += PI;
    let shift = |mut e: [f64; 3]| {
        for (x, p) in e.iter_mut().zip(previous) {
            *x += TAU * ((p - *x) / TAU).round();
        }
        e
    };
    let (a, b) = (shift(angles), shift(flipped));
    let dist = |e: &[f64; 3]| e.iter().zip(previous).map(|(x, p)| (x - p).abs()).sum::<f64>();
    if dist(&b) < dist(&a) { b } else { a }
}
/// Component-wise `f` over two 3-vectors (one implementation for the workspace).
pub use relic_core::math::zip3;

/// Component-wise `f` over four 3-vectors.
#[inline]
pub fn zip3x4<A, B, C, D, T>(a: [A; 3], b: [B; 3], c: [C; 3], d: [D; 3], f: impl Fn(A, B, C, D) -> T) -> [T; 3] {
    let ([a0, a1, a2], [b0, b1, b2], [c0, c1, c2], [d0, d1, d2]) = (a, b, c, d);
    [f(a0, b0, c0, d0), f(a1, b1, c1, d1), f(a2, b2, c2, d2)]
}

/// Largest absolute difference of two 3-vectors.
pub fn max_diff3(a: [f64; 3], b: [f64; 3]) -> f64 {
    a.iter().zip(&b).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max)
}

/// Euclidean length.
pub fn length3(v: [f64; 3]) -> f64 {
    (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt()
}

/// f32 → f64 for a 3-vector.
pub fn wide3(v: [f32; 3]) -> [f64; 3] {
    v.map(f64::from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use relic_testkit::Rng;

    fn random_angles(rng: &mut Rng) -> [f64; 3] {
        std::array::from_fn(|_| (rng.next_u64() % 100_000) as f64 / 100_000.0 * 6.0 - 3.0)
    }

    #[test]
    fn layouts_are_permutations() {
        let f: [f32; 12] = std::array::from_fn(|i| i as f32 + 1.0);
        for layout in [MatrixLayout::H1, MatrixLayout::H2, MatrixLayout::H3] {
            let m = matrix34_to_mat4(&f, layout);
            assert_eq!(mat4_to_matrix34(&m, layout), f);
        }
        let h1 = matrix34_to_mat4(&f, MatrixLayout::H1);
        assert_eq!((at(&h1, 0, 1), at(&h1, 1, 0), at(&h1, 2, 3)), (2.0, 4.0, 12.0));
        let h2 = matrix34_to_mat4(&f, MatrixLayout::H2);
        assert_eq!((at(&h2, 0, 1), at(&h2, 1, 0)), (4.0, 2.0));
        let h3 = matrix34_to_mat4(&f, MatrixLayout::H3);
        assert_eq!((at(&h3, 0, 3), at(&h3, 1, 0), at(&h3, 2, 3)), (4.0, 5.0, 12.0));
    }

    #[test]
    fn euler_round_trips_in_every_order() {
        let mut rng = Rng::new(5);
        for order in EulerOrder::ALL {
            for n in 0..500 {
                let mut e = random_angles(&mut rng);
                if n % 50 == 0 {
                    // Gimbal lock.
                    e[order.axes()[1]] = std::f64::consts::FRAC_PI_2 * if n % 100 == 0 { 1.0 } else { -1.0 };
                }
                let q = euler_to_quat(e, order);
                let back = euler_to_quat(quat_to_euler(q, order), order);
                assert!(quat_angle(q, back) < 1e-6, "{order:?} {e:?}: {}", quat_angle(q, back));
                let near = nearest_euler(quat_to_euler(q, order), order, e);
                if n % 50 != 0 {
                    assert!(max_diff3(near, e) < 1e-6, "{order:?} {e:?} → {near:?}");
                }
            }
        }
    }

    #[test]
    fn euler_order_means_first_axis_first() {
        // xyz: rotate (1,0,0) by 90° about X (no change) then 90° about Z → (0,1,0).
        let h = std::f64::consts::FRAC_PI_2;
        let q = euler_to_quat([h, 0.0, h], EulerOrder::Xyz);
        let m = block_from_quat(q);
        let v = [m[0][0], m[1][0], m[2][0]];
        assert!(max_diff3(v, [0.0, 1.0, 0.0]) < 1e-12, "{v:?}");
        // zyx: 90° about Z first ((1,0,0) → (0,1,0)) then about X → (0,0,1).
        let m = block_from_quat(euler_to_quat([h, 0.0, h], EulerOrder::Zyx));
        assert!(max_diff3([m[0][0], m[1][0], m[2][0]], [0.0, 0.0, 1.0]) < 1e-12);
    }

    #[test]
    fn affine_inverse_and_rotation() {
        let q = euler_to_quat([0.3, -0.7, 1.1], EulerOrder::Xyz);
        let a = Affine64 { r: block_from_quat(q), t: [1.0, -2.0, 3.0] };
        let inv = a.inverse().unwrap();
        let id = a.mul(&inv);
        assert!(rotation_error(&id.r) < 1e-12 && max_diff3(id.t, [0.0; 3]) < 1e-12);
        assert!(quat_angle(a.rotation(), q) < 1e-9);
        assert!(rotation_error(&a.r) < 1e-12);
        assert!(Affine64 { r: [[0.0; 3]; 3], t: [0.0; 3] }.inverse().is_none());
    }
}
