//! The rest skeleton of a NOD in the game's frame, in f64 (nalgebra): the inverse rest matrices
//! under a [`MatrixLayout`], their inverses (the bones' model-space rest transforms), rotations
//! of their 3×3 blocks, and how far a block is from a rotation. The plausibility checks, the
//! mapping to the model and the bind-pose proof share these.

use nalgebra::{Affine3, Matrix3, Matrix4, Point3, Rotation3, UnitQuaternion, Vector3};
use relic_core::math::Mat4;

use crate::file::NodFile;
use crate::options::MatrixLayout;

/// Each bone's `RestMatrixInverse` under `layout` (model → bone space).
pub(crate) fn inverse_rest(file: &NodFile, layout: MatrixLayout) -> Vec<Affine3<f64>> {
    file.bones.iter().map(|b| affine(&layout.matrix(&b.rest_matrix_inverse))).collect()
}

/// Model-space rest transforms from the inverse rest matrices: the identity where a matrix cannot
/// be inverted.
pub(crate) fn rest_worlds(inverse: &[Affine3<f64>]) -> Vec<Affine3<f64>> {
    inverse.iter().map(|m| invert(m).unwrap_or_else(Affine3::identity)).collect()
}

/// A column-major f32 matrix (relic-core's) as an f64 affine transform (the fourth row is taken
/// to be `0 0 0 1`).
pub(crate) fn affine(m: &Mat4) -> Affine3<f64> {
    let mut wide = Matrix4::from_column_slice(m).cast::<f64>();
    wide.set_row(3, &nalgebra::RowVector4::new(0.0, 0.0, 0.0, 1.0));
    Affine3::from_matrix_unchecked(wide)
}

/// An f64 affine transform as a column-major f32 matrix.
pub(crate) fn to_mat4(a: &Affine3<f64>) -> Mat4 {
    let narrow = a.matrix().cast::<f32>();
    // A 4 × 4 matrix has 16 elements, i < 16: the default is never taken.
    std::array::from_fn(|i| narrow.as_slice().get(i).copied().unwrap_or(0.0))
}

/// The 3×3 block of an affine transform.
pub(crate) fn block(a: &Affine3<f64>) -> Matrix3<f64> {
    a.matrix().fixed_view::<3, 3>(0, 0).into_owned()
}

/// The translation of an affine transform.
pub(crate) fn translation(a: &Affine3<f64>) -> Vector3<f64> {
    a.matrix().fixed_view::<3, 1>(0, 3).into_owned()
}

/// `R·p + t`.
pub(crate) fn point(a: &Affine3<f64>, p: [f64; 3]) -> [f64; 3] {
    let q = a.transform_point(&Point3::from(p));
    [q.x, q.y, q.z]
}

/// A model-space `RestTranslate` as a translation in the parent's frame, as the model holds it:
/// `parent_inverse · rest_translate`, rounded once to f32. The one place this product is taken
/// (reading, and the writer's search for a value that reads back exactly).
pub(crate) fn in_parent_space(parent_inverse: &Affine3<f64>, rest_translate: [f32; 3]) -> [f32; 3] {
    point(parent_inverse, rest_translate.map(f64::from)).map(|c| c as f32)
}

/// The inverse of an affine transform from the inverse of its 3×3 block; `None` if the block's
/// determinant is zero or not finite.
pub(crate) fn invert(a: &Affine3<f64>) -> Option<Affine3<f64>> {
    let b = block(a);
    let det = b.determinant();
    if det == 0.0 || !det.is_finite() {
        return None;
    }
    let r = b.try_inverse()?;
    Some(from_parts(&r, &-(r * translation(a))))
}

/// The affine transform `p ↦ R·p + t`.
pub(crate) fn from_parts(r: &Matrix3<f64>, t: &Vector3<f64>) -> Affine3<f64> {
    let mut m = Matrix4::identity();
    m.fixed_view_mut::<3, 3>(0, 0).copy_from(r);
    m.fixed_view_mut::<3, 1>(0, 3).copy_from(t);
    Affine3::from_matrix_unchecked(m)
}

/// The rotation of the 3×3 block, after removing any scale column by column, as a unit
/// quaternion with w ≥ 0 (the identity if it is not finite).
pub(crate) fn rotation(a: &Affine3<f64>) -> UnitQuaternion<f64> {
    let mut r = block(a);
    for mut column in r.column_iter_mut() {
        let len = column.norm();
        if len > 0.0 && len.is_finite() {
            column /= len;
        }
    }
    let q = UnitQuaternion::from_rotation_matrix(&Rotation3::from_matrix_unchecked(r)).into_inner();
    let n = q.norm();
    if !(n > 0.0 && n.is_finite()) {
        return UnitQuaternion::identity();
    }
    let q = q / n;
    UnitQuaternion::new_unchecked(if q.w < 0.0 { -q } else { q })
}

/// How far a 3×3 block is from a rotation: the larger of `max |BᵀB − I|` and `|det B − 1|`
/// (infinite if the determinant is not finite).
pub(crate) fn rotation_error(b: &Matrix3<f64>) -> f64 {
    let worst = (b.tr_mul(b) - Matrix3::identity()).iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let det = b.determinant();
    if det.is_finite() { worst.max((det - 1.0).abs()) } else { f64::INFINITY }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::EulerOrder;

    #[test]
    fn layouts_are_permutations() {
        let f: [f32; 12] = std::array::from_fn(|i| i as f32 + 1.0);
        for layout in MatrixLayout::ALL {
            assert_eq!(layout.floats(&layout.matrix(&f)), f);
        }
        let at = |m: &Mat4, r: usize, c: usize| relic_core::math::at(m, r, c);
        let h1 = MatrixLayout::H1.matrix(&f);
        assert_eq!((at(&h1, 0, 1), at(&h1, 1, 0), at(&h1, 2, 3)), (2.0, 4.0, 12.0));
        let h2 = MatrixLayout::H2.matrix(&f);
        assert_eq!((at(&h2, 0, 1), at(&h2, 1, 0)), (4.0, 2.0));
        let h3 = MatrixLayout::H3.matrix(&f);
        assert_eq!((at(&h3, 0, 3), at(&h3, 1, 0), at(&h3, 2, 3)), (4.0, 5.0, 12.0));
    }

    #[test]
    fn inverse_and_rotation() {
        let q = EulerOrder::Xyz.rotation([0.3, -0.7, 1.1]);
        let mut m = q.to_homogeneous();
        m.fixed_view_mut::<3, 1>(0, 3).copy_from(&Vector3::new(1.0, -2.0, 3.0));
        let a = Affine3::from_matrix_unchecked(m);
        let id = a * invert(&a).unwrap();
        assert!(rotation_error(&block(&id)) < 1e-12 && translation(&id).norm() < 1e-12);
        assert!(rotation(&a).angle_to(&q) < 1e-9);
        assert!(rotation_error(&block(&a)) < 1e-12);
        assert!(invert(&Affine3::from_matrix_unchecked(Matrix4::zeros())).is_none());
    }
}
