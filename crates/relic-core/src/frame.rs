//! The one place where the games' coordinate frames meet the common model's.
//!
//! The common model uses glTF's frame: right-handed, +Y up, and a model's front facing +Z (glTF
//! §3.4 "the front of a glTF asset faces +Z"). Each game frame differs from it by a signed
//! permutation of the axes, so every conversion here is exact in floating point (a copy and sign
//! flips, no arithmetic). Mapping every game's *forward* to +Z means a model faces the same way
//! whichever game it came from — in a viewer (Blender's front view shows the face) and when it is
//! converted into another game.
//!
//! A format crate states its frame as data (a [`Frame`] constant built with [`Frame::new`]) and
//! calls these functions in its `to_ir`/`from_ir` and nowhere else:
//!
//! | constant | games | game axes | canonical from game `(x, y, z)` | kind |
//! |---|---|---|---|---|
//! | `relic_abc::frame::LITHTECH`, `relic_lithtech::frame::LITHTECH` | ABC v9–v13, v6 with FlipMat 0, LTB | left-handed, +Y up, facing +Z | `(−x, y, z)` | mirror: winding and rotation sense flip |
//! | `relic_abc::frame::LITHTECH_FLIPPED_Z` | ABC v6 as LithTech 1.0/1.5 exported it (the engine flips Z) | right-handed, +Y up, facing −Z | `(−x, y, −z)` | half turn about Y |
//! | `relic_m2::frame::WARCRAFT` | WoW M2 | right-handed, +Z up, facing +X | `(y, z, x)` | rotation |
//! | `relic_nod::frame::NOD` | Nod NOD/NAD | right-handed, +Z up, facing +Y | `(−x, z, y)` | rotation |
//!
//! One more turn lives here, of a model's rest rather than its axes: [`HalfTurn`], applied by
//! relic-ltb to CrossFire models, whose exporter turned every bind pose half a turn about Y and
//! not the animations (at rest they face away, animated they face the front).
//!
//! ```
//! use relic_core::frame::{Axis, Frame};
//! // A game that is right-handed, +Z up, facing +X: canonical (x, y, z) = game (y, z, x).
//! const GAME: Frame = Frame::new([Axis::Y, Axis::Z, Axis::X]);
//! assert_eq!(GAME.vector_to_ir([1.0, 2.0, 3.0]), [2.0, 3.0, 1.0]);
//! assert!(!GAME.is_mirror());
//! ```

// Indices here are the constants 0..3 into fixed-size axis arrays, never file data.
#![allow(clippy::indexing_slicing)]

use crate::math::Mat4;

/// A game axis, signed, as one canonical axis takes it (see [`Frame::new`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Axis {
    /// The game's +X.
    X,
    /// The game's +Y.
    Y,
    /// The game's +Z.
    Z,
    /// The game's −X.
    NegX,
    /// The game's −Y.
    NegY,
    /// The game's −Z.
    NegZ,
}

impl Axis {
    const fn parts(self) -> (usize, f32) {
        match self {
            Axis::X => (0, 1.0),
            Axis::Y => (1, 1.0),
            Axis::Z => (2, 1.0),
            Axis::NegX => (0, -1.0),
            Axis::NegY => (1, -1.0),
            Axis::NegZ => (2, -1.0),
        }
    }
}

/// A game's model-space frame: which signed game axis each canonical axis is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Frame {
    axes: Axes,
    /// The inverse permutation and the determinant's sign, worked out once in [`Frame::new`]
    /// (the conversions run per vertex and per key).
    inverse: Axes,
    det: f32,
}

/// A signed axis permutation: canonical axis `i` = `sign[i]` × game axis `source[i]`.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Axes {
    source: [usize; 3],
    sign: [f32; 3],
}

impl Axes {
    fn apply(self, v: [f32; 3]) -> [f32; 3] {
        // source holds axis numbers < 3 (Axis::parts): never taken.
        std::array::from_fn(|i| self.sign[i] * v.get(self.source[i]).copied().unwrap_or(0.0))
    }

    /// The inverse permutation (game axis from canonical axes); `source` names each of 0, 1, 2
    /// once ([`Frame::new`] checks).
    const fn inverse(self) -> Self {
        let mut source = [0; 3];
        let mut sign = [1.0; 3];
        let mut i = 0;
        while i < 3 {
            let j = self.source[i];
            source[j] = i;
            sign[j] = self.sign[i];
            i += 1;
        }
        Self { source, sign }
    }

    const fn determinant_sign(self) -> f32 {
        let parity = match self.source {
            [0, 1, 2] | [1, 2, 0] | [2, 0, 1] => 1.0,
            _ => -1.0,
        };
        parity * self.sign[0] * self.sign[1] * self.sign[2]
    }

    /// `C · M · C⁻¹` for a column-major affine matrix.
    fn conjugate_matrix(self, m: &Mat4) -> Mat4 {
        // Index 3 (the homogeneous row/column) maps to itself with sign 1.
        let src = |i: usize| if i < 3 { self.source[i] } else { 3 };
        let sgn = |i: usize| if i < 3 { self.sign[i] } else { 1.0 };
        std::array::from_fn(|k| {
            let (col, row) = (k / 4, k % 4);
            // src(…) < 4, so the index is < 16: never taken.
            sgn(row) * sgn(col) * m.get(src(col) * 4 + src(row)).copied().unwrap_or(0.0)
        })
    }
}

impl Frame {
    /// The common model's own frame (glTF).
    pub const CANONICAL: Frame = Frame::new([Axis::X, Axis::Y, Axis::Z]);

    /// The frame in which canonical axis `i` is `canonical[i]` of the game: `[Axis::NegX, Axis::Y,
    /// Axis::Z]` means canonical `(x, y, z)` = game `(−x, y, z)`. Panics (at compile time, in a
    /// `const`) unless the three name three different game axes.
    pub const fn new(canonical: [Axis; 3]) -> Frame {
        let (a, sa) = canonical[0].parts();
        let (b, sb) = canonical[1].parts();
        let (c, sc) = canonical[2].parts();
        assert!(a != b && b != c && a != c, "a frame names each game axis once");
        let axes = Axes { source: [a, b, c], sign: [sa, sb, sc] };
        Frame { axes, inverse: axes.inverse(), det: axes.determinant_sign() }
    }

    fn axes(self) -> Axes {
        self.axes
    }

    /// The canonical axis (0 = X, 1 = Y, 2 = Z) that game axis `axis` becomes, for values that
    /// name an axis rather than carry coordinates (M2's billboard lock axes).
    pub fn axis_to_ir(self, axis: usize) -> usize {
        let axes = self.axes();
        axes.source.iter().position(|&s| s == axis).unwrap_or(axis)
    }

    /// The game axis that canonical axis `axis` comes from (the inverse of [`Frame::axis_to_ir`]).
    pub fn axis_from_ir(self, axis: usize) -> usize {
        self.axes().source.get(axis).copied().unwrap_or(axis)
    }

    /// True if the conversion is a mirror: triangle winding must be reversed to keep the same
    /// front faces, and rotations change sense.
    pub fn is_mirror(self) -> bool {
        self.det < 0.0
    }

    /// A position or direction (normal, translation, pivot) into the common frame.
    pub fn vector_to_ir(self, v: [f32; 3]) -> [f32; 3] {
        self.axes().apply(v)
    }

    /// A position or direction from the common frame back into the game frame.
    pub fn vector_from_ir(self, v: [f32; 3]) -> [f32; 3] {
        self.inverse.apply(v)
    }

    /// A rotation quaternion `[x, y, z, w]` into the common frame: the vector part is permuted
    /// like a position, and negated as well for a mirror (a mirrored rotation turns the other way).
    pub fn quat_to_ir(self, q: [f32; 4]) -> [f32; 4] {
        Self::quat_by(self.axes, self.det, q)
    }

    /// A rotation quaternion from the common frame back into the game frame.
    pub fn quat_from_ir(self, q: [f32; 4]) -> [f32; 4] {
        Self::quat_by(self.inverse, self.det, q)
    }

    /// `det`: the frame's determinant sign (a permutation and its inverse share it).
    fn quat_by(axes: Axes, det: f32, q: [f32; 4]) -> [f32; 4] {
        let v = axes.apply([q[0], q[1], q[2]]);
        [det * v[0], det * v[1], det * v[2], q[3]]
    }

    /// A per-axis scale into the common frame (permuted, never negated).
    pub fn scale_to_ir(self, s: [f32; 3]) -> [f32; 3] {
        let axes = self.axes();
        std::array::from_fn(|i| s.get(axes.source[i]).copied().unwrap_or(1.0))
    }

    /// A per-axis scale from the common frame back into the game frame.
    pub fn scale_from_ir(self, s: [f32; 3]) -> [f32; 3] {
        let axes = self.inverse;
        std::array::from_fn(|i| s.get(axes.source[i]).copied().unwrap_or(1.0))
    }

    /// An affine transform (column-major) into the common frame: `C · M · C⁻¹`.
    pub fn matrix_to_ir(self, m: &Mat4) -> Mat4 {
        self.axes().conjugate_matrix(m)
    }

    /// An affine transform from the common frame back into the game frame.
    pub fn matrix_from_ir(self, m: &Mat4) -> Mat4 {
        self.inverse.conjugate_matrix(m)
    }
}

/// A half turn about +Y, `(x, y, z) → (−x, y, −z)`, of a model's *rest* (its bind matrices, its
/// model-space vertices) but not of its animation keys: what a format applies where the exporter
/// turned the bind pose and not the keys, so that the model at rest faces the way its animations
/// pose it in the game. CrossFire's LTB exporter stores every root node's bind as this turn
/// (ltb.md §7.1) while the game's animations key the root without it: its bodies face −Z at rest
/// and +Z (the front) when animated. Every function is exact (sign flips and a permutation) and
/// turning with [`HalfTurn::Undo`] gives the stored values back bit for bit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HalfTurn {
    /// Turn (reading the file).
    Do,
    /// Turn back (writing it).
    Undo,
}

impl HalfTurn {
    /// A position, normal or offset in model space (the turn is its own inverse).
    pub fn vector(self, v: [f32; 3]) -> [f32; 3] {
        [-v[0], v[1], -v[2]]
    }

    /// A model-space transform (a bind matrix, column-major): `H · M`, rows X and Z negated.
    pub fn matrix(self, m: &Mat4) -> Mat4 {
        std::array::from_fn(|k| if k % 4 == 0 || k % 4 == 2 { -m[k] } else { m[k] })
    }

    /// An inverse bind matrix: `M⁻¹ · H⁻¹` (`H⁻¹ = H`), columns X and Z negated.
    pub fn inverse_matrix(self, m: &Mat4) -> Mat4 {
        std::array::from_fn(|k| if k / 4 == 0 || k / 4 == 2 { -m[k] } else { m[k] })
    }

    /// A root bone's rotation `[x, y, z, w]`: `h ⊗ q` with `h = (0, 1, 0, 0)` to turn,
    /// `h⁻¹ = (0, −1, 0, 0)` to turn back (so that the stored quaternion returns, not its negation).
    pub fn quat(self, q: [f32; 4]) -> [f32; 4] {
        let [x, y, z, w] = q;
        match self {
            HalfTurn::Do => [z, w, -x, -y],
            HalfTurn::Undo => [-z, -w, x, y],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{from_trs, max_abs_diff, transform_point};

    // The games' frames, as their crates define them (restated here as test data).
    const LITHTECH: Frame = Frame::new([Axis::NegX, Axis::Y, Axis::Z]);
    const LITHTECH_FLIPPED_Z: Frame = Frame::new([Axis::NegX, Axis::Y, Axis::NegZ]);
    const WARCRAFT: Frame = Frame::new([Axis::Y, Axis::Z, Axis::X]);
    const NOD: Frame = Frame::new([Axis::NegX, Axis::Z, Axis::Y]);
    const FRAMES: [Frame; 5] = [Frame::CANONICAL, LITHTECH, LITHTECH_FLIPPED_Z, WARCRAFT, NOD];

    /// The canonical frame: +Y up, front +Z, right-handed.
    const UP: [f32; 3] = [0.0, 1.0, 0.0];
    const FRONT: [f32; 3] = [0.0, 0.0, 1.0];

    #[test]
    fn every_game_stands_up_and_faces_the_front() {
        // (frame, the game's up, the game's forward, the character's left in game axes)
        let games = [
            (LITHTECH, [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [-1.0, 0.0, 0.0]),
            (LITHTECH_FLIPPED_Z, [0.0, 1.0, 0.0], [0.0, 0.0, -1.0], [-1.0, 0.0, 0.0]),
            (WARCRAFT, [0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]),
            (NOD, [0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [-1.0, 0.0, 0.0]),
        ];
        for (f, up, forward, left) in games {
            assert_eq!(f.vector_to_ir(up), UP, "{f:?} up");
            assert_eq!(f.vector_to_ir(forward), FRONT, "{f:?} forward");
            // glTF: facing +Z with +Y up, the character's left is +X.
            assert_eq!(f.vector_to_ir(left), [1.0, 0.0, 0.0], "{f:?} left");
        }
        assert!(LITHTECH.is_mirror());
        assert!(!LITHTECH_FLIPPED_Z.is_mirror() && !WARCRAFT.is_mirror() && !NOD.is_mirror());
        assert_eq!(WARCRAFT.vector_to_ir([1.0, 2.0, 3.0]), [2.0, 3.0, 1.0]);
        assert_eq!(WARCRAFT.quat_to_ir([0.1, 0.2, 0.3, 0.9]), [0.2, 0.3, 0.1, 0.9]);
        assert_eq!(WARCRAFT.scale_to_ir([1.0, 2.0, 3.0]), [2.0, 3.0, 1.0]);
        assert_eq!(LITHTECH.quat_to_ir([0.1, 0.2, 0.3, 0.9]), [0.1, -0.2, -0.3, 0.9]);
        assert_eq!((0..3).map(|a| WARCRAFT.axis_to_ir(a)).collect::<Vec<_>>(), [2, 0, 1]);
        for f in FRAMES {
            for a in 0..3 {
                assert_eq!(f.axis_from_ir(f.axis_to_ir(a)), a);
            }
        }
    }

    #[test]
    fn the_half_turn_turns_the_rest_and_undoes_it_bit_for_bit() {
        let q = [0.1f32, -0.2, 0.3, 0.927_361_8];
        let m = from_trs([1.5, -2.0, 3.0], q, [1.0, 2.0, 3.0]);
        let turned = HalfTurn::Do.matrix(&m);
        // H · M as a product, and the turned point is H of the point.
        let h = from_trs([0.0; 3], [0.0, 1.0, 0.0, 0.0], [1.0; 3]);
        assert!(max_abs_diff(&turned, &crate::math::mul(&h, &m)) < 1e-6);
        let p = [0.5f32, 0.25, -4.0];
        assert_eq!(transform_point(&turned, p), HalfTurn::Do.vector(transform_point(&m, p)));
        // The rotation of H · M is h ⊗ q.
        assert!(
            max_abs_diff(
                &from_trs([0.0; 3], HalfTurn::Do.quat(q), [1.0; 3]),
                &crate::math::mul(&h, &from_trs([0.0; 3], q, [1.0; 3]))
            ) < 1e-6
        );
        // (H · M)⁻¹ = M⁻¹ · H.
        let inv = crate::math::inverse(&m).unwrap_or_default();
        let turned_inv = HalfTurn::Do.inverse_matrix(&inv);
        assert!(max_abs_diff(&crate::math::mul(&turned, &turned_inv), &crate::math::IDENTITY) < 1e-5);
        // Undone: the same bits, −0.0 included.
        let q0 = [-0.0f32, 0.7, -0.0, 0.714_142_8];
        assert_eq!(HalfTurn::Undo.quat(HalfTurn::Do.quat(q0)).map(f32::to_bits), q0.map(f32::to_bits));
        assert_eq!(HalfTurn::Undo.quat(HalfTurn::Do.quat(q)), q);
        assert_eq!(HalfTurn::Undo.matrix(&turned).map(f32::to_bits), m.map(f32::to_bits));
        assert_eq!(HalfTurn::Undo.inverse_matrix(&turned_inv).map(f32::to_bits), inv.map(f32::to_bits));
        assert_eq!(
            HalfTurn::Undo.vector(HalfTurn::Do.vector([-0.0, 1.0, 2.0])).map(f32::to_bits),
            [-0.0f32, 1.0, 2.0].map(f32::to_bits)
        );
        // The front turns: a model facing −Z at rest faces +Z.
        assert_eq!(HalfTurn::Do.vector([0.0, 0.0, -1.0]), [-0.0, 0.0, 1.0]);
    }

    #[test]
    fn conversions_are_exact_inverses() {
        let v = [0.1f32, -7.25, 1e-3];
        let q = [0.1f32, 0.2, 0.3, 0.927_361_8];
        let m = from_trs([1.5, -2.0, 3.0], q, [1.0, 2.0, 3.0]);
        for f in FRAMES {
            assert_eq!(f.vector_from_ir(f.vector_to_ir(v)), v);
            assert_eq!(f.quat_from_ir(f.quat_to_ir(q)), q);
            assert_eq!(f.scale_from_ir(f.scale_to_ir([1.0, 2.0, 3.0])), [1.0, 2.0, 3.0]);
            assert_eq!(f.matrix_from_ir(&f.matrix_to_ir(&m)), m);
        }
    }

    #[test]
    fn matrices_quaternions_and_points_agree() {
        // Converting the transform and then applying it equals applying it and converting the result.
        let q = {
            let raw = [0.3f32, -0.5, 0.2, 0.8];
            let n = crate::math::quat_norm(raw);
            raw.map(|c| c / n)
        };
        let t = [1.0, 2.0, -3.0];
        let p = [0.25, -1.5, 4.0];
        for f in FRAMES {
            let m = from_trs(t, q, [1.0; 3]);
            let via_matrix = transform_point(&f.matrix_to_ir(&m), f.vector_to_ir(p));
            let direct = f.vector_to_ir(transform_point(&m, p));
            assert!(max_abs_diff(&via_matrix, &direct) < 1e-5, "{f:?}");
            let m_ir = from_trs(f.vector_to_ir(t), f.quat_to_ir(q), [1.0; 3]);
            assert!(max_abs_diff(&m_ir, &f.matrix_to_ir(&m)) < 1e-6, "{f:?}");
        }
    }
}
