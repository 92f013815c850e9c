//! The few exact, dependency-free math helpers the format crates need at their IR boundary and for
//! their own checks. Matrices are column-major `[f32; 16]` (glTF's and nalgebra's order), quaternions
//! `[x, y, z, w]`. The animation crate does the heavy lifting with nalgebra.

/// A 4×4 matrix, column-major: element (row r, column c) is at `c * 4 + r`.
pub type Mat4 = [f32; 16];

/// The identity matrix.
pub const IDENTITY: Mat4 = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0];

/// Element (row, column).
#[inline]
pub fn at(m: &Mat4, row: usize, col: usize) -> f32 {
    // row, col < 4 for every caller; an element outside a 4 × 4 matrix reads as 0.
    m.get(col * 4 + row).copied().unwrap_or(0.0)
}

/// `a · b`.
pub fn mul(a: &Mat4, b: &Mat4) -> Mat4 {
    std::array::from_fn(|i| {
        let (col, row) = (i / 4, i % 4);
        (0..4).map(|k| at(a, row, k) * at(b, k, col)).sum()
    })
}

/// `m · (p, 1)`.
pub fn transform_point(m: &Mat4, p: [f32; 3]) -> [f32; 3] {
    std::array::from_fn(|r| at(m, r, 0) * p[0] + at(m, r, 1) * p[1] + at(m, r, 2) * p[2] + at(m, r, 3))
}

/// `m · (v, 0)`.
pub fn transform_vector(m: &Mat4, v: [f32; 3]) -> [f32; 3] {
    std::array::from_fn(|r| at(m, r, 0) * v[0] + at(m, r, 1) * v[1] + at(m, r, 2) * v[2])
}

/// Transpose.
pub fn transpose(m: &Mat4) -> Mat4 {
    std::array::from_fn(|i| at(m, i / 4, i % 4))
}

/// Builds `T · R · S` from translation, unit quaternion `[x, y, z, w]` and scale.
pub fn from_trs(t: [f32; 3], q: [f32; 4], s: [f32; 3]) -> Mat4 {
    let [x, y, z, w] = q;
    let (xx, yy, zz) = (x * x, y * y, z * z);
    let (xy, xz, yz) = (x * y, x * z, y * z);
    let (wx, wy, wz) = (w * x, w * y, w * z);
    [
        (1.0 - 2.0 * (yy + zz)) * s[0],
        2.0 * (xy + wz) * s[0],
        2.0 * (xz - wy) * s[0],
        0.0,
        2.0 * (xy - wz) * s[1],
        (1.0 - 2.0 * (xx + zz)) * s[1],
        2.0 * (yz + wx) * s[1],
        0.0,
        2.0 * (xz + wy) * s[2],
        2.0 * (yz - wx) * s[2],
        (1.0 - 2.0 * (xx + yy)) * s[2],
        0.0,
        t[0],
        t[1],
        t[2],
        1.0,
    ]
}

/// General 4×4 inverse (cofactors, in f64); `None` if singular. No allocation: the 16 minors
/// are computed once, and the determinant reuses those of row 0.
pub fn inverse(m: &Mat4) -> Option<Mat4> {
    let a: [f64; 16] = m.map(f64::from);
    // r, c < 4 (row and column numbers below, and the minors' index triples): never taken.
    let g = |r: usize, c: usize| a.get(c * 4 + r).copied().unwrap_or(0.0);
    // The three indices other than `x`, in order.
    let others = |x: usize| match x {
        0 => [1, 2, 3],
        1 => [0, 2, 3],
        2 => [0, 1, 3],
        _ => [0, 1, 2],
    };
    // 3×3 minor with row r and column c removed.
    let minor = |r: usize, c: usize| {
        let (rows, cols) = (others(r), others(c));
        // i, j < 3 (the three other rows and columns): never taken.
        let e = |i: usize, j: usize| g(rows.get(i).copied().unwrap_or(0), cols.get(j).copied().unwrap_or(0));
        e(0, 0) * (e(1, 1) * e(2, 2) - e(1, 2) * e(2, 1)) - e(0, 1) * (e(1, 0) * e(2, 2) - e(1, 2) * e(2, 0))
            + e(0, 2) * (e(1, 0) * e(2, 1) - e(1, 1) * e(2, 0))
    };
    let minors: [f64; 16] = std::array::from_fn(|i| minor(i / 4, i % 4));
    // r, c < 4: never taken.
    let m = |r: usize, c: usize| minors.get(r * 4 + c).copied().unwrap_or(0.0);
    let sign = |r: usize, c: usize| if (r + c).is_multiple_of(2) { 1.0 } else { -1.0 };
    let det: f64 = (0..4).map(|c| g(0, c) * sign(0, c) * m(0, c)).sum();
    if det == 0.0 || !det.is_finite() {
        return None;
    }
    // inverse(r, c) = cofactor(c, r) / det
    Some(std::array::from_fn(|i| {
        let (col, row) = (i / 4, i % 4);
        (sign(col, row) * m(col, row) / det) as f32
    }))
}

/// Largest absolute element difference.
pub fn max_abs_diff(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f32::max)
}

/// Component-wise `f` over two 3-vectors.
#[inline]
pub fn zip3<A, B, T>(a: [A; 3], b: [B; 3], f: impl Fn(A, B) -> T) -> [T; 3] {
    let ([a0, a1, a2], [b0, b1, b2]) = (a, b);
    [f(a0, b0), f(a1, b1), f(a2, b2)]
}

/// `a + b`.
#[inline]
pub fn add3(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    zip3(a, b, |x, y| x + y)
}

/// `a − b`.
#[inline]
pub fn sub3(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    zip3(a, b, |x, y| x - y)
}

/// `a × b`.
#[inline]
pub fn cross3(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    let ([ax, ay, az], [bx, by, bz]) = (a, b);
    [ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx]
}

/// Area-weighted vertex normals of a triangle mesh (the sum of the unnormalised face normals
/// `(b − a) × (c − a)` around each vertex, normalised; `+Y` for a vertex on no face or on
/// degenerate faces only). Indices outside `positions` read as the origin.
pub fn vertex_normals(positions: &[[f32; 3]], triangles: &[[u32; 3]]) -> Vec<[f32; 3]> {
    let mut sums = vec![[0.0f32; 3]; positions.len()];
    // The callers (the ABC and NOD writers) pass validated meshes, whose corners index their positions: never
    // taken (documented above for other callers).
    let p = |i: u32| positions.get(i as usize).copied().unwrap_or_default();
    for tri in triangles {
        let [a, b, c] = tri.map(p);
        let n = cross3(sub3(b, a), sub3(c, a));
        for &i in tri {
            if let Some(s) = sums.get_mut(i as usize) {
                *s = add3(*s, n);
            }
        }
    }
    sums.into_iter().map(|s| normalize3(s).unwrap_or([0.0, 1.0, 0.0])).collect()
}

/// Unit vector in the direction of `v`; `None` for a zero or non-finite vector.
pub fn normalize3(v: [f32; 3]) -> Option<[f32; 3]> {
    let len = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    (len > 0.0 && len.is_finite()).then(|| v.map(|c| c / len))
}

/// Quaternion product `a · b` (`[x, y, z, w]`).
pub fn quat_mul(a: [f32; 4], b: [f32; 4]) -> [f32; 4] {
    let [ax, ay, az, aw] = a;
    let [bx, by, bz, bw] = b;
    [
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    ]
}

/// Conjugate (the inverse of a unit quaternion).
pub fn quat_conjugate(q: [f32; 4]) -> [f32; 4] {
    [-q[0], -q[1], -q[2], q[3]]
}

/// Vector `v` turned by unit quaternion `q` (`q · v · q⁻¹`).
pub fn quat_rotate(q: [f32; 4], v: [f32; 3]) -> [f32; 3] {
    let [x, y, z, _] = quat_mul(quat_mul(q, [v[0], v[1], v[2], 0.0]), quat_conjugate(q));
    [x, y, z]
}

/// Length of a quaternion.
pub fn quat_norm(q: [f32; 4]) -> f32 {
    (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).sqrt()
}

/// Rotation quaternion of an orthonormal 3×3 block (Shepperd's method); scale is not removed.
pub fn quat_from_matrix(m: &Mat4) -> [f32; 4] {
    let e = |r, c| f64::from(at(m, r, c));
    let trace = e(0, 0) + e(1, 1) + e(2, 2);
    let q = if trace > 0.0 {
        let s = (trace + 1.0).sqrt() * 2.0;
        [(e(2, 1) - e(1, 2)) / s, (e(0, 2) - e(2, 0)) / s, (e(1, 0) - e(0, 1)) / s, 0.25 * s]
    } else if e(0, 0) > e(1, 1) && e(0, 0) > e(2, 2) {
        let s = (1.0 + e(0, 0) - e(1, 1) - e(2, 2)).sqrt() * 2.0;
        [0.25 * s, (e(0, 1) + e(1, 0)) / s, (e(0, 2) + e(2, 0)) / s, (e(2, 1) - e(1, 2)) / s]
    } else if e(1, 1) > e(2, 2) {
        let s = (1.0 + e(1, 1) - e(0, 0) - e(2, 2)).sqrt() * 2.0;
        [(e(0, 1) + e(1, 0)) / s, 0.25 * s, (e(1, 2) + e(2, 1)) / s, (e(0, 2) - e(2, 0)) / s]
    } else {
        let s = (1.0 + e(2, 2) - e(0, 0) - e(1, 1)).sqrt() * 2.0;
        [(e(0, 2) + e(2, 0)) / s, (e(1, 2) + e(2, 1)) / s, 0.25 * s, (e(1, 0) - e(0, 1)) / s]
    };
    let n = q.iter().map(|c| c * c).sum::<f64>().sqrt();
    let q = q.map(|c| (c / n) as f32);
    // Keep w ≥ 0 so equal rotations decompose to equal quaternions.
    if q[3] < 0.0 { q.map(|c| -c) } else { q }
}

/// Decomposes an affine matrix with positive scale into translation, rotation and scale.
pub fn decompose(m: &Mat4) -> ([f32; 3], [f32; 4], [f32; 3]) {
    let t = [at(m, 0, 3), at(m, 1, 3), at(m, 2, 3)];
    let col_len = |c| (0..3).map(|r| at(m, r, c) * at(m, r, c)).sum::<f32>().sqrt();
    let s = [col_len(0), col_len(1), col_len(2)];
    let mut r = *m;
    for c in 0..3 {
        for row in 0..3 {
            if let (Some(v), Some(&sc)) = (r.get_mut(c * 4 + row), s.get(c))
                && sc != 0.0
            {
                *v /= sc;
            }
        }
    }
    (t, quat_from_matrix(&r), s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trs_inverse_and_decompose() {
        let q = {
            let h = 0.6f32;
            let n = (h * h + 0.3 * 0.3 + 0.2 * 0.2 + 0.7 * 0.7).sqrt();
            [h / n, 0.3 / n, 0.2 / n, 0.7 / n]
        };
        let m = from_trs([1.0, -2.0, 3.0], q, [1.0, 1.0, 1.0]);
        let inv = inverse(&m).unwrap();
        assert!(max_abs_diff(&mul(&m, &inv), &IDENTITY) < 1e-6);
        let (t, r, s) = decompose(&m);
        assert_eq!(t, [1.0, -2.0, 3.0]);
        assert!(max_abs_diff(&r, &q) < 1e-6);
        assert!(max_abs_diff(&s, &[1.0; 3]) < 1e-6);
        // Rotation of a point equals q p q*.
        let p = [0.5, 0.25, -1.0];
        let via_m = transform_vector(&m, p);
        let via_q = quat_mul(quat_mul(q, [p[0], p[1], p[2], 0.0]), quat_conjugate(q));
        assert!(max_abs_diff(&via_m, &via_q[..3]) < 1e-6);
        assert!(inverse(&[0.0; 16]).is_none());
    }
}
