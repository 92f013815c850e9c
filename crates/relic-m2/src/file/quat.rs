//! The compressed quaternions of versions 260–263 (spec §8): four int16 codes `(x, y, z, w)`.

/// Decodes one int16 quaternion component: excess-32767 on the unsigned value,
/// `f = (v < 0 ? v + 32768 : v − 32767) / 32767`. Identity is `(32767, 32767, 32767, −1)`.
/// (The seed's `(v > 0 ? v − 32767 : v + 32767) / 32767` is wrong: it maps 0 to +1.)
#[inline]
pub fn decode_component(v: i16) -> f32 {
    let shifted = if v < 0 { i32::from(v) + 32768 } else { i32::from(v) - 32767 };
    shifted as f32 / 32767.0
}

/// Encodes one component (the inverse of [`decode_component`] on every code except −32768, an
/// alias of 0 = code 32767): `f > 0 → round(32767 f) − 32768`, `f ≤ 0 → round(32767 f) + 32767`.
/// Values outside [−1, 1] are clamped.
#[inline]
pub fn encode_component(f: f32) -> i16 {
    let f = if f.is_nan() { 0.0 } else { f.clamp(-1.0, 1.0) };
    let r = (f64::from(f) * 32767.0).round() as i32;
    let v = if f > 0.0 { r - 32768 } else { r + 32767 };
    v.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16
}

/// Decodes a compressed quaternion `(x, y, z, w)`.
#[inline]
pub fn decode_quat(q: [i16; 4]) -> [f32; 4] {
    q.map(decode_component)
}

/// Encodes a quaternion `(x, y, z, w)`.
#[inline]
pub fn encode_quat(q: [f32; 4]) -> [i16; 4] {
    q.map(encode_component)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_and_extremes() {
        assert_eq!(decode_quat([32767, 32767, 32767, -1]), [0.0, 0.0, 0.0, 1.0]);
        assert_eq!(encode_quat([0.0, 0.0, 0.0, 1.0]), [32767, 32767, 32767, -1]);
        assert_eq!(decode_component(0), -1.0);
        assert_eq!(decode_component(-32768), 0.0);
        assert_eq!(encode_component(-1.0), 0);
    }
}
