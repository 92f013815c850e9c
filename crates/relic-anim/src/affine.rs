//! The affine matrix layout shared by poses and the skinning loop: four columns of four floats
//! (column-major; row 3 is `0 0 0 1`), so that products and blends are 4-wide vector operations
//! the compiler vectorises, and skin matrices feed the skinning loop without conversion.

use nalgebra::Matrix4;
use wide::f32x4;

/// An affine transform, column-major, columns padded to four lanes.
pub type Affine = [[f32; 4]; 4];

/// The identity.
pub const IDENTITY: Affine = [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]];

/// `acc + v · s`, lane by lane.
#[inline(always)]
pub fn madd(acc: [f32; 4], v: [f32; 4], s: f32) -> [f32; 4] {
    [acc[0] + v[0] * s, acc[1] + v[1] * s, acc[2] + v[2] * s, acc[3] + v[3] * s]
}

/// `v · s`, lane by lane.
#[inline(always)]
pub fn scale(v: [f32; 4], s: f32) -> [f32; 4] {
    [v[0] * s, v[1] * s, v[2] * s, v[3] * s]
}

/// `a · b` for affine `a` and `b` (row 3 of both is `0 0 0 1`, so the first three result columns
/// need only `a`'s first three columns).
#[inline]
pub fn mul(a: &Affine, b: &Affine) -> Affine {
    let (a0, a1, a2, a3) = (f32x4::from(a[0]), f32x4::from(a[1]), f32x4::from(a[2]), f32x4::from(a[3]));
    let col = |c: &[f32; 4]| (a0 * f32x4::splat(c[0]) + a1 * f32x4::splat(c[1])) + a2 * f32x4::splat(c[2]);
    [col(&b[0]).to_array(), col(&b[1]).to_array(), col(&b[2]).to_array(), (col(&b[3]) + a3).to_array()]
}

/// `T · R · S` from translation, unit quaternion `[x, y, z, w]` and scale.
#[inline]
pub fn from_trs(t: [f32; 3], q: [f32; 4], s: [f32; 3]) -> Affine {
    let [x, y, z, w] = q;
    let (x2, y2, z2) = (x + x, y + y, z + z);
    let (xx, yy, zz) = (x * x2, y * y2, z * z2);
    let (xy, xz, yz) = (x * y2, x * z2, y * z2);
    let (wx, wy, wz) = (w * x2, w * y2, w * z2);
    let [sx, sy, sz] = s;
    [
        [(1.0 - (yy + zz)) * sx, (xy + wz) * sx, (xz - wy) * sx, 0.0],
        [(xy - wz) * sy, (1.0 - (xx + zz)) * sy, (yz + wx) * sy, 0.0],
        [(xz + wy) * sz, (yz - wx) * sz, (1.0 - (xx + yy)) * sz, 0.0],
        [t[0], t[1], t[2], 1.0],
    ]
}

/// From a column-major `[f32; 16]` (the model's matrices).
#[inline]
pub fn from_columns(m: &[f32; 16]) -> Affine {
    [[m[0], m[1], m[2], m[3]], [m[4], m[5], m[6], m[7]], [m[8], m[9], m[10], m[11]], [m[12], m[13], m[14], m[15]]]
}

/// To a column-major `[f32; 16]`.
#[inline]
pub fn to_columns(a: &Affine) -> [f32; 16] {
    let [c0, c1, c2, c3] = a;
    [c0[0], c0[1], c0[2], c0[3], c1[0], c1[1], c1[2], c1[3], c2[0], c2[1], c2[2], c2[3], c3[0], c3[1], c3[2], c3[3]]
}

/// As a nalgebra matrix.
pub fn to_matrix4(a: &Affine) -> Matrix4<f32> {
    Matrix4::from_column_slice(&to_columns(a))
}

/// `a · (p, 1)`.
#[inline(always)]
pub fn transform_point(a: &Affine, p: &[f32; 3]) -> [f32; 3] {
    let v = madd(madd(madd(a[3], a[0], p[0]), a[1], p[1]), a[2], p[2]);
    [v[0], v[1], v[2]]
}

/// `a · (v, 0)`.
#[inline(always)]
pub fn transform_vector(a: &Affine, v: &[f32; 3]) -> [f32; 3] {
    let r = madd(madd(scale(a[0], v[0]), a[1], v[1]), a[2], v[2]);
    [r[0], r[1], r[2]]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_core_math() {
        let q = relic_core::sample::normalize4([0.2, -0.4, 0.1, 0.9]);
        let a = from_trs([1.0, 2.0, 3.0], q, [1.0, 2.0, 0.5]);
        let b = from_trs([-1.0, 0.5, 0.0], relic_core::sample::normalize4([0.0, 0.3, 0.0, 1.0]), [1.0; 3]);
        let core_a = relic_core::math::from_trs([1.0, 2.0, 3.0], q, [1.0, 2.0, 0.5]);
        assert_eq!(to_columns(&a), core_a);
        let prod = relic_core::math::mul(&core_a, &to_columns(&b));
        assert!(relic_core::math::max_abs_diff(&to_columns(&mul(&a, &b)), &prod) < 1e-5);
        let p = [0.3, -0.7, 2.0];
        let expect = relic_core::math::transform_point(&core_a, p);
        assert!(relic_core::math::max_abs_diff(&transform_point(&a, &p), &expect) < 1e-6);
        assert_eq!(from_columns(&to_columns(&a)), a);
    }
}
