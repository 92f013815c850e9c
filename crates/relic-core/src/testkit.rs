//! Test support for hostile input (enabled by the `testkit` feature, for dev-dependencies only).
//!
//! * [`CountingAllocator`]: a global allocator that tracks the live and peak heap bytes of the
//!   current thread, so a test can measure what one parse allocated even while other tests run.
//!   Install it in a test binary with `#[global_allocator] static A: CountingAllocator = CountingAllocator;`.
//! * [`Rng`]: a tiny deterministic generator (fixed seeds, same mutations on every run).
//! * [`mutations`]: every truncation, every single-byte change, random multi-byte mutations.
//! * [`check`]: runs a reader on one input and fails if it panics, takes too long, or allocates
//!   more than a budget (16 × input + 1 MiB unless told otherwise).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::time::{Duration, Instant};

thread_local! {
    static LIVE: Cell<usize> = const { Cell::new(0) };
    static PEAK: Cell<usize> = const { Cell::new(0) };
}

/// The system allocator, counting this thread's live and peak bytes.
#[derive(Debug, Default, Clone, Copy)]
pub struct CountingAllocator;

fn grow(bytes: usize) {
    // `try_with`: thread-locals may already be gone while a thread shuts down.
    let _ = LIVE.try_with(|live| {
        let now = live.get().saturating_add(bytes);
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

fn shrink(bytes: usize) {
    let _ = LIVE.try_with(|live| live.set(live.get().saturating_sub(bytes)));
}

// SAFETY: every method forwards to `System` with the caller's layout unchanged; the counters are
// const-initialised thread-locals that never allocate.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grow(layout.size());
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) };
        shrink(layout.size());
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grow(layout.size());
        }
        p
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            shrink(layout.size());
            grow(new_size);
        }
        p
    }
}

/// Runs `f` and returns its result with the peak number of heap bytes this thread held above what
/// it held before (0 if the counting allocator is not installed).
pub fn peak_allocation<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(base));
    let out = f();
    let peak = PEAK.with(Cell::get);
    (out, peak.saturating_sub(base))
}

/// True if the counting allocator is the global allocator of this binary.
pub fn counting_installed() -> bool {
    let (_, peak) = peak_allocation(|| std::hint::black_box(vec![0u8; 1024]));
    peak >= 1024
}

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

/// Limits for [`check`].
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Peak heap bytes allowed: `per_input_byte × input length + fixed`.
    pub per_input_byte: usize,
    /// See `per_input_byte`.
    pub fixed: usize,
    /// Longest one input may take.
    pub time: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Self { per_input_byte: 16, fixed: 1 << 20, time: Duration::from_secs(1) }
    }
}

/// Runs `read` on `input` and returns an error text if it panicked, ran longer than the limit, or
/// allocated more than the budget. `what` names the input in the message.
pub fn check<T, E>(
    what: &str,
    input: &[u8],
    limits: Limits,
    read: impl Fn(&[u8]) -> Result<T, E>,
) -> Result<(), String> {
    let started = Instant::now();
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| peak_allocation(|| read(input).is_ok())));
    let elapsed = started.elapsed();
    let (ok, peak) = outcome.map_err(|_| format!("{what}: panicked ({} bytes)", input.len()))?;
    let budget = limits.per_input_byte.saturating_mul(input.len()).saturating_add(limits.fixed);
    if peak > budget {
        return Err(format!(
            "{what}: allocated {peak} bytes at peak, budget {budget} ({} byte input, ok={ok})",
            input.len()
        ));
    }
    if elapsed > limits.time {
        return Err(format!("{what}: took {elapsed:?} (limit {:?})", limits.time));
    }
    Ok(())
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

    #[test]
    fn check_catches_panics() {
        let err = check("x", b"abc", Limits::default(), |_| -> Result<(), ()> { panic!("boom") }).unwrap_err();
        assert!(err.contains("panicked"));
        assert!(check("x", b"abc", Limits::default(), |_| -> Result<(), ()> { Err(()) }).is_ok());
    }
}
