//! Deterministic randomness and byte mutations.

/// xorshift64*: deterministic, good enough to pick mutation sites.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator with a fixed seed (0 is replaced by a constant).
    pub fn new(seed: u64) -> Self {
        Self(if seed == 0 { 0x9E37_79B9_7F4A_7C15 } else { seed })
    }
    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// A number in `0..n` (0 when n is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { (self.next_u64() % n as u64) as usize }
    }
    /// `n` random bytes: data nothing compresses, a file no format recognises.
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| (self.next_u64() >> 56) as u8).collect()
    }
}

/// Values worth writing into a count or offset field.
pub const INTERESTING_U32: [u32; 9] = [0, 1, 2, 0xFF, 0xFFFF, 0x1_0000, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF];

/// Interesting floats (as bits): NaN, ±∞, huge, tiny, −0.
pub const INTERESTING_F32: [f32; 7] =
    [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, f32::MAX, f32::MIN_POSITIVE, -0.0, 1e30];

/// Every prefix of `bytes` shorter than it (`step` > 1 samples every step-th length plus the last 64).
pub fn truncations(bytes: &[u8], step: usize) -> impl Iterator<Item = &[u8]> {
    let n = bytes.len();
    let step = step.max(1);
    (0..n).filter(move |&len| len % step == 0 || len + 64 >= n).filter_map(move |len| bytes.get(..len))
}

/// `bytes` with `count` random mutations: random bytes, interesting u32s or f32s written at random
/// (possibly unaligned) positions, chunks deleted or duplicated.
pub fn mutate(bytes: &[u8], rng: &mut Rng, count: usize) -> Vec<u8> {
    let mut out = bytes.to_vec();
    for _ in 0..count.max(1) {
        if out.is_empty() {
            out.push(rng.next_u64() as u8);
            continue;
        }
        let at = rng.below(out.len());
        match rng.below(6) {
            0 => {
                if let Some(b) = out.get_mut(at) {
                    *b = rng.next_u64() as u8;
                }
            }
            1 | 2 => {
                let v = INTERESTING_U32.get(rng.below(INTERESTING_U32.len())).copied().unwrap_or(0);
                write_at(&mut out, at, &v.to_le_bytes());
            }
            3 => {
                let v = INTERESTING_F32.get(rng.below(INTERESTING_F32.len())).copied().unwrap_or(0.0);
                write_at(&mut out, at, &v.to_le_bytes());
            }
            4 => {
                let len = rng.below(16).min(out.len() - at);
                out.drain(at..at + len);
            }
            _ => {
                let len = rng.below(16).min(out.len() - at);
                let chunk: Vec<u8> = out.get(at..at + len).map(<[u8]>::to_vec).unwrap_or_default();
                let to = rng.below(out.len() + 1);
                out.splice(to..to, chunk);
            }
        }
    }
    out
}

/// Overwrites `out[at..]` with `data` as far as it fits.
pub fn write_at(out: &mut [u8], at: usize, data: &[u8]) {
    for (dst, src) in out.iter_mut().skip(at).zip(data) {
        *dst = *src;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutations_are_deterministic_and_truncations_complete() {
        let bytes: Vec<u8> = (0..100).collect();
        let a = mutate(&bytes, &mut Rng::new(7), 5);
        let b = mutate(&bytes, &mut Rng::new(7), 5);
        assert_eq!(a, b);
        assert_eq!(truncations(&bytes, 1).count(), 100);
        let sampled: Vec<usize> = truncations(&bytes, 10).map(<[u8]>::len).collect();
        assert!(sampled.contains(&0) && sampled.contains(&99) && sampled.contains(&50) && !sampled.contains(&5));
    }
}
