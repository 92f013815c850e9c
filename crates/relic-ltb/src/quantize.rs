//! The 16-bit values of compressed tracks (ltb.md §9.3): positions `i16 / 16` (mode 2),
//! rotations `i16 / 32767` (modes 2 and 3). The packer encodes with a C cast of `value × 16` and
//! `value × 32767`: truncation toward zero, no rounding; values past the i16 range saturate here
//! (the C cast would be undefined) and the writer reports them.

/// Position units per stored step (mode 2).
pub const POSITION_SCALE: f32 = 16.0;
/// Rotation units per stored step (modes 2 and 3).
pub const ROTATION_SCALE: f32 = 32767.0;

/// A mode-2 position.
pub fn position(v: [i16; 3]) -> [f32; 3] {
    v.map(|c| f32::from(c) / POSITION_SCALE)
}

/// A mode-2/3 rotation `[x, y, z, w]` (not renormalised, as the engine reads it).
pub fn rotation(v: [i16; 4]) -> [f32; 4] {
    v.map(|c| f32::from(c) / ROTATION_SCALE)
}

/// The packer's encoding of a position: `trunc(value × 16)`.
pub fn encode_position(p: [f32; 3]) -> [i16; 3] {
    p.map(|c| (c * POSITION_SCALE) as i16)
}

/// The packer's encoding of a rotation: `trunc(value × 32767)`.
pub fn encode_rotation(q: [f32; 4]) -> [i16; 4] {
    q.map(|c| (c * ROTATION_SCALE) as i16)
}

/// Whether a position fits mode 2's range (±2047.94) without saturating.
pub fn position_fits(p: [f32; 3]) -> bool {
    p.iter().all(|c| (c * POSITION_SCALE).abs() < 32768.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_packer_truncates_toward_zero() {
        // ltb.md §9.3: bind offset −3.2936 → −52 → −3.25; 4.8688 → 77 → 4.8125.
        assert_eq!(encode_position([-3.2936, 4.8688, 0.0]), [-52, 77, 0]);
        assert_eq!(position([-52, 77, 0]), [-3.25, 4.8125, 0.0]);
        assert_eq!(encode_rotation([0.99999, -0.5, 0.0, 1.0]), [32766, -16383, 0, 32767]);
        assert_eq!(rotation([32767, 0, 0, -32767]), [1.0, 0.0, 0.0, -1.0]);
        assert!(position_fits([2047.9, 0.0, 0.0]) && !position_fits([2048.0, 0.0, 0.0]));
    }
}
