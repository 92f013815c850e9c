//! LithTech's coordinate frames, as data (`relic_core::frame`): the only place where ABC
//! coordinates meet the common model's (glTF's: right-handed, +Y up, facing +Z).

use relic_core::frame::{Axis, Frame};
use relic_core::model::Aabb;

/// ABC v9–v13, and v6 with `TransformInfo.FlipMat` 0: left-handed, +Y up, facing +Z; canonical
/// `(−x, y, z)` (a mirror on X, so the model still faces glTF's front).
pub const LITHTECH: Frame = relic_lithtech::frame::LITHTECH;

/// ABC v6 as LithTech 1.0/1.5 exported it when the engine flips Z on load (`TransformInfo`
/// FlipMat ≠ 0, or no `TransformInfo`): right-handed, +Y up, facing −Z; canonical `(−x, y, −z)`
/// (a half turn about Y).
pub const LITHTECH_FLIPPED_Z: Frame = Frame::new([Axis::NegX, Axis::Y, Axis::NegZ]);

/// A stored box in the model's frame. Exact and reversible: an axis the frame negates swaps the
/// box's two corners on that axis (no min/max, so a box stored inverted or with NaN comes back
/// as stored).
pub(crate) fn box_to_ir(frame: Frame, min: [f32; 3], max: [f32; 3]) -> Aabb {
    let negated = frame.vector_to_ir([1.0; 3]).map(|s| s < 0.0);
    let (min, max) = swapped(frame.vector_to_ir(min), frame.vector_to_ir(max), negated);
    Aabb { min, max }
}

/// The inverse of [`box_to_ir`]: `(min, max)` in the file's frame.
pub(crate) fn box_from_ir(frame: Frame, b: &Aabb) -> ([f32; 3], [f32; 3]) {
    let negated = frame.vector_from_ir([1.0; 3]).map(|s| s < 0.0);
    swapped(frame.vector_from_ir(b.min), frame.vector_from_ir(b.max), negated)
}

/// Two corners with their coordinates exchanged on the `negated` axes.
fn swapped(mut lo: [f32; 3], mut hi: [f32; 3], negated: [bool; 3]) -> ([f32; 3], [f32; 3]) {
    for ((l, h), n) in lo.iter_mut().zip(hi.iter_mut()).zip(negated) {
        if n {
            std::mem::swap(l, h);
        }
    }
    (lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxes_convert_exactly_both_ways() {
        for frame in [LITHTECH, LITHTECH_FLIPPED_Z] {
            for (min, max) in [([-1.0, 2.0, -3.0], [4.0, 5.0, 6.0]), ([1.0, 0.0, f32::NAN], [-1.0, -0.0, 2.0])] {
                let ir = box_to_ir(frame, min, max);
                let (a, b) = box_from_ir(frame, &ir);
                assert_eq!(a.map(f32::to_bits), min.map(f32::to_bits));
                assert_eq!(b.map(f32::to_bits), max.map(f32::to_bits));
            }
            let ir = box_to_ir(frame, [-1.0, 2.0, -3.0], [4.0, 5.0, 6.0]);
            assert!((0..3).all(|i| ir.min[i] <= ir.max[i]), "{ir:?}");
        }
    }
}
