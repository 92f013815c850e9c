//! The coordinate frame of M2 (spec §15): right-handed, +Z up, a creature facing +X.

use relic_core::frame::{Axis, Frame};

/// WoW's model space to the common model's (glTF's): canonical `(x, y, z)` = M2 `(y, z, x)`.
/// Z up becomes Y up and the creature's forward, +X, becomes glTF's front, +Z. A rotation, so
/// triangle winding and rotation sense are unchanged.
pub const WARCRAFT: Frame = Frame::new([Axis::Y, Axis::Z, Axis::X]);
