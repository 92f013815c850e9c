//! Alpha planes of 1, 4 or 8 bits per pixel, pixels in row order (BLP palettized textures,
//! specs/textures.md §2.3; DTX v−2 alpha masks, §1.7).
//!
//! * 1 bit: pixel `i` is bit `i mod 8` of byte `i / 8`, least significant bit first; 1 → 255.
//! * 4 bits: the even pixel is the low nibble, the odd pixel the high nibble; `n` → `n × 17`.
//! * 8 bits: one byte per pixel.
//!
//! Pixels beyond the bytes given read as alpha 0 (a plane shorter than its image is a caller's
//! rounding choice, e.g. DTX's `w·h/2` for an odd pixel count).

/// Bytes of a `bits`-per-pixel plane for `pixels` pixels (`⌈pixels · bits / 8⌉`; 0 for depth 0).
pub fn plane_bytes(bits: u8, pixels: u64) -> u64 {
    pixels.saturating_mul(u64::from(bits)).div_ceil(8)
}

/// True for the depths a plane can have: 0 (none), 1, 4, 8.
pub fn is_depth(bits: u8) -> bool {
    matches!(bits, 0 | 1 | 4 | 8)
}

/// Writes the alpha of each pixel of `rgba` (every 4th byte from byte 3) from a plane of depth
/// `bits` (1, 4 or 8; any other depth leaves alpha untouched).
pub fn unpack_into(bits: u8, plane: &[u8], rgba: &mut [u8]) {
    let get = |i: usize| -> u8 {
        match bits {
            1 => plane.get(i / 8).map_or(0, |b| if b >> (i % 8) & 1 == 1 { 255 } else { 0 }),
            4 => plane.get(i / 2).map_or(0, |b| (if i.is_multiple_of(2) { b & 0x0F } else { b >> 4 }) * 17),
            // Past the plane: alpha 0 (see the module note; the 1- and 4-bit arms do the same).
            _ => plane.get(i).copied().unwrap_or(0),
        }
    };
    if !matches!(bits, 1 | 4 | 8) {
        return;
    }
    for (i, pixel) in rgba.chunks_exact_mut(4).enumerate() {
        if let Some(a) = pixel.get_mut(3) {
            *a = get(i);
        }
    }
}

/// The plane of depth `bits` (1, 4 or 8; empty for others) holding the alpha of each pixel of
/// `rgba`, rounded to the nearest level (1 bit: 128 and above is 1), `bytes` long (a longer
/// image is cut, a shorter one padded with zeros).
pub fn pack(bits: u8, rgba: &[u8], bytes: usize) -> Vec<u8> {
    let mut plane = vec![0u8; bytes];
    if !matches!(bits, 1 | 4 | 8) {
        return Vec::new();
    }
    for (i, pixel) in rgba.chunks_exact(4).enumerate() {
        let a = pixel.get(3).copied().unwrap_or(255);
        match bits {
            1 => {
                if let Some(b) = plane.get_mut(i / 8) {
                    *b |= u8::from(a >= 128) << (i % 8);
                }
            }
            4 => {
                let n = ((u16::from(a) + 8) / 17) as u8;
                if let Some(b) = plane.get_mut(i / 2) {
                    *b |= if i.is_multiple_of(2) { n } else { n << 4 };
                }
            }
            _ => {
                if let Some(b) = plane.get_mut(i) {
                    *b = a;
                }
            }
        }
    }
    plane
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn planes_are_lsb_and_low_nibble_first() {
        let mut rgba = vec![0u8; 9 * 4];
        unpack_into(1, &[0b0000_0101, 0b1], &mut rgba);
        let alphas: Vec<u8> = rgba.chunks(4).map(|p| p[3]).collect();
        assert_eq!(alphas, [255, 0, 255, 0, 0, 0, 0, 0, 255]);
        unpack_into(4, &[0x1F, 0x00, 0x00, 0x00, 0x0F], &mut rgba);
        let alphas: Vec<u8> = rgba.chunks(4).map(|p| p[3]).collect();
        assert_eq!(alphas, [255, 17, 0, 0, 0, 0, 0, 0, 255]);
        // Beyond the plane: 0.
        unpack_into(8, &[7], &mut rgba);
        assert_eq!(rgba[3], 7);
        assert_eq!(rgba[7], 0);
        assert_eq!(plane_bytes(1, 9), 2);
        assert_eq!(plane_bytes(4, 4), 2);
        assert_eq!(plane_bytes(0, 100), 0);
    }

    #[test]
    fn pack_inverts_unpack() {
        for bits in [1u8, 4, 8] {
            let alphas: Vec<u8> = match bits {
                1 => vec![0, 255, 255, 0, 255, 0, 0, 0, 255],
                4 => (0..9).map(|i| i * 17).collect(),
                _ => (0..9).map(|i| i * 28 + 3).collect(),
            };
            let rgba: Vec<u8> = alphas.iter().flat_map(|&a| [1, 2, 3, a]).collect();
            let plane = pack(bits, &rgba, plane_bytes(bits, 9) as usize);
            let mut back = vec![0u8; rgba.len()];
            unpack_into(bits, &plane, &mut back);
            let got: Vec<u8> = back.chunks(4).map(|p| p[3]).collect();
            assert_eq!(got, alphas, "{bits} bits");
        }
    }
}
