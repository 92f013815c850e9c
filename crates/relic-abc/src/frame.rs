//! LithTech's coordinate frames, as data (`relic_core::frame`): the only place where ABC
//! coordinates meet the common model's (glTF's: right-handed, +Y up, facing +Z).

use relic_core::frame::{Axis, Frame};
use relic_core::math::zip3;
use relic_core::model::Aabb;

/// ABC v9–v13, and v6 with `TransformInfo.FlipMat` 0: left-handed, +Y up, facing +Z; canonical
/// `(−x, y, z)` (a mirror on X, so the model still faces glTF's front).
pub const LITHTECH: Frame = Frame::new([Axis::NegX, Axis::Y, Axis::Z]);

/// ABC v6 as LithTech 1.0/1.5 exported it when the engine flips Z on load (`TransformInfo`
/// FlipMat ≠ 0, or no `TransformInfo`): right-handed, +Y up, facing −Z; canonical `(−x, y, −z)`
/// (a half turn about Y).
pub const LITHTECH_FLIPPED_Z: Frame = Frame::new([Axis::NegX, Axis::Y, Axis::NegZ]);

/// A stored box in the model's frame.
pub(crate) fn box_to_ir(frame: Frame, min: [f32; 3], max: [f32; 3]) -> Aabb {
    let (a, b) = (frame.vector_to_ir(min), frame.vector_to_ir(max));
    Aabb { min: zip3(a, b, f32::min), max: zip3(a, b, f32::max) }
}

/// A model box in the file's frame.
pub(crate) fn box_from_ir(frame: Frame, b: &Aabb) -> ([f32; 3], [f32; 3]) {
    let (p, q) = (frame.vector_from_ir(b.min), frame.vector_from_ir(b.max));
    (zip3(p, q, f32::min), zip3(p, q, f32::max))
}
