//! LithTech's coordinate frame, as data (`relic_core::frame`).

use relic_core::frame::{Axis, Frame};

/// LithTech 2.x and Jupiter models (ABC v9–v13, LTB): left-handed, +Y up, facing +Z; canonical
/// `(−x, y, z)` (a mirror on X, so that the model still faces glTF's front). The same constant as
/// `relic_abc::frame::LITHTECH`, so that ABC ↔ LTB keeps every coordinate.
pub const LITHTECH: Frame = Frame::new([Axis::NegX, Axis::Y, Axis::Z]);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lithtech_is_a_mirror_on_x() {
        assert_eq!(LITHTECH.vector_to_ir([1.0, 2.0, 3.0]), [-1.0, 2.0, 3.0]);
        assert!(LITHTECH.is_mirror());
    }
}
