//! Test support for hostile input (enabled by the `testkit` feature, for dev-dependencies only).
//!
//! * [`CountingAllocator`]: a global allocator that tracks the live and peak heap bytes of the
//!   current thread, so a test can measure what one parse allocated even while other tests run.
//!   Install it in a test binary with `#[global_allocator] static A: CountingAllocator = CountingAllocator;`.
//! * [`Rng`]: a tiny deterministic generator (fixed seeds, same mutations on every run).
//! * [`truncations`], [`mutate`], [`write_at`]: every prefix, random multi-byte mutations, a value
//!   written over a field.
//! * [`check`]: runs a reader on one input and fails if it panics, takes too long, or allocates
//!   more than a budget (16 × input + 1 MiB unless told otherwise).
//! * [`Harness`]: the battery every format's hostile test runs (one harness for all formats):
//!   a list of readers, then truncations, single-byte changes, random mutations, count and offset
//!   fields set to hostile values, NaN and infinite floats; failures are collected and reported
//!   together.
//! * [`models`]: a deterministic generator of valid common models for writer property tests.
//! * [`corpus_dir`], [`corpus_file`]: the real game files in `../shared/corpus`, with a skip
//!   message `cargo test` does not swallow when they are absent (a user's clone), and a failure
//!   when `RELIC_REQUIRE_CORPUS` is set (CI) or a named file is missing from a present corpus.
//! * [`bone_at`], [`bone_chain`]: bones placed along +Y with matching bind matrices, the skeleton
//!   most hand-built test models start from.

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

/// Values a count field is set to by [`Harness::fields`]: 0, 1, 2^16, 2^31, 2^32 − 1.
pub const COUNT_VALUES: [u32; 5] = [0, 1, 1 << 16, 1 << 31, u32::MAX];

/// NaN and the infinities: what [`Harness::floats`] writes into float fields.
pub const BAD_FLOATS: [f32; 3] = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY];

/// A writer as [`bad_floats_are_refused`] calls it: `None` where it does not apply to the model
/// (a NAD writer given a model without animations).
pub type WriterCheck<'a> = (&'a str, &'a dyn Fn(&crate::Model) -> Option<Result<(), crate::WriteError>>);

/// NaN and ±∞ read from a file stay out of every written file: every float field of every file
/// (`float_fields`) is set to each of [`BAD_FLOATS`]; where `read` gives a model that fails
/// `validate()`, every writer must refuse it with `WriteError::InvalidModel`. Panics listing the
/// writers that did not; returns how many refusals were seen, which callers hold to a minimum so
/// the test cannot pass by testing nothing.
#[allow(clippy::panic)] // test support: a writer that accepts an invalid model fails the test
pub fn bad_floats_are_refused(
    files: &[(String, Vec<u8>)],
    float_fields: impl Fn(&str, &[u8]) -> Vec<Field>,
    read: impl Fn(&str, &[u8]) -> Option<crate::Model>,
    writers: &[WriterCheck<'_>],
) -> usize {
    let mut failures = Vec::new();
    let mut refused = 0;
    for (name, bytes) in files {
        for field in float_fields(name, bytes) {
            for bad in BAD_FLOATS {
                let Some(model) = read(name, &field.with(bytes, bad.to_bits())) else { continue };
                if model.validate().is_ok() {
                    continue;
                }
                for (what, write) in writers {
                    match write(&model) {
                        None => {}
                        Some(Err(crate::WriteError::InvalidModel(_))) => refused += 1,
                        Some(other) => failures.push(format!("{name} {} = {bad} → {what}: {other:?}", field.label)),
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "writers accepted invalid models:\n{}", failures.join("\n"));
    refused
}

/// Values an absolute offset field is set to for a file of `len` bytes: the start of the file,
/// just before the end, at the end, just past it, and as far as a u32 goes.
pub fn offset_values(len: usize) -> [u32; 5] {
    let len = u32::try_from(len).unwrap_or(u32::MAX);
    [0, len.saturating_sub(1), len, len.saturating_add(1), u32::MAX]
}

/// How a field is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Width {
    /// Little-endian u16 (the value is truncated to 16 bits).
    U16,
    /// Little-endian u32.
    U32,
    /// Little-endian f32.
    F32,
}

impl Width {
    /// Bytes the field takes.
    pub fn size(self) -> usize {
        match self {
            Width::U16 => 2,
            Width::U32 | Width::F32 => 4,
        }
    }
}

/// A field of a fixture located by format knowledge: a label for messages (`Header.node_count`),
/// its byte offset and how it is stored.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// What the field is (format path).
    pub label: String,
    /// Byte offset in the file.
    pub at: usize,
    /// Storage.
    pub width: Width,
}

impl Field {
    /// A u32 field.
    pub fn u32(label: impl Into<String>, at: usize) -> Self {
        Self { label: label.into(), at, width: Width::U32 }
    }
    /// A u16 field.
    pub fn u16(label: impl Into<String>, at: usize) -> Self {
        Self { label: label.into(), at, width: Width::U16 }
    }
    /// An f32 field.
    pub fn f32(label: impl Into<String>, at: usize) -> Self {
        Self { label: label.into(), at, width: Width::F32 }
    }
    /// The stored value as an integer (u16/u32) or the float's bits, if the field is in `bytes`.
    pub fn read(&self, bytes: &[u8]) -> Option<u32> {
        let b = bytes.get(self.at..self.at + self.width.size())?;
        Some(match self.width {
            Width::U16 => u32::from(u16::from_le_bytes([*b.first()?, *b.get(1)?])),
            Width::U32 | Width::F32 => u32::from_le_bytes(b.try_into().ok()?),
        })
    }
    /// `bytes` with the field set to `value` (u16 fields keep the low 16 bits; for f32 fields
    /// `value` is the bit pattern).
    pub fn with(&self, bytes: &[u8], value: u32) -> Vec<u8> {
        let mut out = bytes.to_vec();
        match self.width {
            Width::U16 => write_at(&mut out, self.at, &(value as u16).to_le_bytes()),
            Width::U32 | Width::F32 => write_at(&mut out, self.at, &value.to_le_bytes()),
        }
        out
    }
}

type BoxedReader<'a> = Box<dyn Fn(&[u8]) -> bool + 'a>;

/// One battery of hostile inputs for one format, shared by every format's tests.
///
/// Register the format's readers with [`Harness::reader`] (every input is given to each of them),
/// feed inputs with the generators, then [`Harness::finish`]: it panics with the number of
/// failures and the first few (a failure is a panic, an input over the time limit, or a peak
/// allocation over the budget — see [`check`]), and returns how many reader runs passed.
///
/// ```
/// use relic_core::testkit::{Harness, Field, COUNT_VALUES};
/// let mut h = Harness::new().reader("len", |b: &[u8]| if b.len() > 3 { Ok(b.len()) } else { Err(()) });
/// h.truncations("four", b"abcd");
/// h.byte_changes("four", b"abcd");
/// h.fields("four", b"abcd", &[Field::u32("count", 0)], &COUNT_VALUES);
/// assert_eq!(h.finish(), 4 + 4 * 3 + 5);
/// ```
pub struct Harness<'a> {
    readers: Vec<(&'static str, BoxedReader<'a>)>,
    /// The limits each reader run must stay within.
    pub limits: Limits,
    runs: usize,
    inputs: usize,
    accepted: usize,
    failures: Vec<String>,
}

impl Default for Harness<'_> {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for Harness<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self.readers.iter().map(|(n, _)| *n).collect();
        write!(f, "Harness({names:?}, {} inputs, {} failures)", self.inputs, self.failures.len())
    }
}

impl<'a> Harness<'a> {
    /// A harness with the default [`Limits`] (1 s, 16 × input + 1 MiB) and no readers.
    pub fn new() -> Self {
        Self { readers: Vec::new(), limits: Limits::default(), runs: 0, inputs: 0, accepted: 0, failures: Vec::new() }
    }

    /// Adds a reader: every input is given to it.
    pub fn reader<T, E>(mut self, name: &'static str, read: impl Fn(&[u8]) -> Result<T, E> + 'a) -> Self {
        self.readers.push((name, Box::new(move |b| read(b).is_ok())));
        self
    }

    /// Runs every reader on one input; `what` names it in failure messages.
    pub fn input(&mut self, what: &str, bytes: &[u8]) {
        self.inputs += 1;
        for (name, read) in &self.readers {
            let ok = std::cell::Cell::new(false);
            let result = check(&format!("{name}: {what}"), bytes, self.limits, |b| {
                ok.set(read(b));
                if ok.get() { Ok(()) } else { Err(()) }
            });
            self.runs += 1;
            self.accepted += usize::from(ok.get());
            if let Err(e) = result {
                self.failures.push(e);
            }
        }
    }

    /// Every prefix of `bytes` shorter than it.
    pub fn truncations(&mut self, name: &str, bytes: &[u8]) {
        for cut in truncations(bytes, 1) {
            self.input(&format!("{name} cut at {}", cut.len()), cut);
        }
    }

    /// Every byte of `bytes` set to 0x00, 0xFF and its complement (each distinct change once).
    pub fn byte_changes(&mut self, name: &str, bytes: &[u8]) {
        let mut copy = bytes.to_vec();
        for i in 0..bytes.len() {
            let Some(&original) = bytes.get(i) else { continue };
            let mut tried: Vec<u8> = vec![original];
            for value in [0x00, 0xFF, !original] {
                if tried.contains(&value) {
                    continue;
                }
                tried.push(value);
                if let Some(b) = copy.get_mut(i) {
                    *b = value;
                }
                self.input(&format!("{name} byte {i} = {value:#04x}"), &copy);
            }
            if let Some(b) = copy.get_mut(i) {
                *b = original;
            }
        }
    }

    /// `rounds` random mutations of `bytes`, each of 1 to 8 changes ([`mutate`]).
    pub fn mutations(&mut self, name: &str, bytes: &[u8], rng: &mut Rng, rounds: usize) {
        for round in 0..rounds {
            let m = mutate(bytes, rng, 1 + round % 8);
            self.input(&format!("{name} mutation {round}"), &m);
        }
    }

    /// At least `total` random mutations spread evenly over `files` (fixed by `rng`'s seed), and
    /// a check that they were all run. Panics on an empty `files`: a test that mutates nothing
    /// must not pass.
    pub fn mutations_over(&mut self, files: &[(String, Vec<u8>)], rng: &mut Rng, total: usize) {
        assert!(!files.is_empty(), "no files to mutate");
        let before = self.inputs();
        let rounds = total.div_ceil(files.len());
        for (name, bytes) in files {
            self.mutations(name, bytes, rng, rounds);
        }
        assert!(self.inputs() - before >= total, "{} mutations, {total} expected", self.inputs() - before);
    }

    /// Every field set to every value in turn (one field changed per input). Panics if a field
    /// lies outside `bytes` (a wrong field table must not pass silently).
    pub fn fields(&mut self, name: &str, bytes: &[u8], fields: &[Field], values: &[u32]) {
        for field in fields {
            assert!(field.read(bytes).is_some(), "{name}: {} at {} lies outside the file", field.label, field.at);
            for &value in values {
                let input = field.with(bytes, value);
                self.input(&format!("{name} {} (at {}) = {value:#x}", field.label, field.at), &input);
            }
        }
    }

    /// Every float field set to NaN, +∞ and −∞ in turn.
    pub fn floats(&mut self, name: &str, bytes: &[u8], fields: &[Field]) {
        let values = BAD_FLOATS.map(f32::to_bits);
        self.fields(name, bytes, fields, &values);
    }

    /// Failures so far.
    pub fn failures(&self) -> &[String] {
        &self.failures
    }

    /// Reader runs that returned `Ok` so far.
    pub fn accepted(&self) -> usize {
        self.accepted
    }

    /// Inputs given so far.
    pub fn inputs(&self) -> usize {
        self.inputs
    }

    /// Panics if any run failed (with the count and the first ten); else returns the number of
    /// reader runs.
    pub fn finish(self) -> usize {
        assert!(self.runs > 0, "the harness ran no reader on any input: a hostile test that tests nothing");
        let shown: Vec<&String> = self.failures.iter().take(10).collect();
        assert!(
            self.failures.is_empty(),
            "{} of {} reader runs failed; first ones:\n{shown:#?}",
            self.failures.len(),
            self.runs
        );
        self.runs
    }
}

/// Set (to anything) where the corpus must be present: CI. A test that cannot find it then fails
/// instead of skipping.
pub const REQUIRE_CORPUS: &str = "RELIC_REQUIRE_CORPUS";

/// `../shared/corpus` next to the checkout, or `None` when it is absent: then `test` is reported
/// as skipped on the process's standard error (written directly, so the test harness's output
/// capture does not hide it). Panics if [`REQUIRE_CORPUS`] is set and the folder is absent.
pub fn corpus_dir(test: &str) -> Option<std::path::PathBuf> {
    use std::io::Write;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var_os(REQUIRE_CORPUS).is_none(),
        "{test}: {} is absent and {REQUIRE_CORPUS} is set",
        dir.display()
    );
    let _ = writeln!(
        std::io::stderr(),
        "skipping {test}: ../shared/corpus is absent (the real game files are not published with relic)"
    );
    None
}

/// The bytes of corpus file `rel` (`abc/PARTNER_DANCIN.ABC`), `None` when the corpus is absent
/// (see [`corpus_dir`]). Panics if the corpus is present but the file cannot be read: a renamed
/// file must not turn its tests into silent passes.
// Test support: a corpus that is present but lacks the file is a broken test set-up.
#[allow(clippy::panic)]
pub fn corpus_file(test: &str, rel: &str) -> Option<Vec<u8>> {
    let path = corpus_dir(test)?.join(rel);
    Some(std::fs::read(&path).unwrap_or_else(|e| panic!("{test}: {}: {e}", path.display())))
}

/// A bone whose rest translation is `(0, rest_y, 0)` from its parent and whose model-space origin
/// is `(0, model_y, 0)` (no rotation or scale): bind matrix and inverse bind matrix to match.
pub fn bone_at(name: impl Into<String>, parent: Option<usize>, rest_y: f32, model_y: f32) -> crate::model::Bone {
    use crate::model::{Bone, Transform};
    let mut bind = crate::math::IDENTITY;
    bind[13] = model_y;
    let mut inverse_bind = crate::math::IDENTITY;
    inverse_bind[13] = -model_y;
    Bone {
        name: name.into(),
        parent,
        rest: Transform { translation: [0.0, rest_y, 0.0], ..Transform::IDENTITY },
        bind_matrix: bind,
        inverse_bind_matrix: inverse_bind,
        ..Bone::default()
    }
}

/// A chain of `n` bones named `{prefix}0`, `{prefix}1`, …: bone `i` at height `i`, the child of
/// bone `i − 1`, one unit above it.
pub fn bone_chain(n: usize, prefix: &str) -> Vec<crate::model::Bone> {
    (0..n)
        .map(|b| bone_at(format!("{prefix}{b}"), b.checked_sub(1), if b == 0 { 0.0 } else { 1.0 }, b as f32))
        .collect()
}

/// A deterministic generator of valid common models, for writer property tests: any model it
/// makes passes [`Model::validate`](crate::Model::validate), and [`models::poison`] breaks one
/// float of it.
///
/// ```
/// use relic_core::testkit::{Rng, models};
/// let mut rng = Rng::new(1);
/// for _ in 0..50 {
///     let mut model = models::valid_model(&mut rng);
///     model.validate().unwrap();
///     let what = models::poison(&mut model, &mut rng);
///     assert!(model.validate().is_err(), "{what}");
/// }
/// ```
// Test support: every index below is drawn below the length it indexes (`Rng::below`).
#[allow(clippy::indexing_slicing)]
pub mod models {
    use super::Rng;
    use crate::math;
    use crate::model::{
        Aabb, Animation, Attachment, Bone, BoneFlags, Channel, ChannelValues, Clock, Event, Influence, Interpolation,
        Lod, Material, Mesh, Model, MorphChannel, MorphTarget, Skin, TextureRef, Transform,
    };
    use crate::sample::normalize4;

    impl Rng {
        /// A float in `[0, 1)`.
        pub fn unit(&mut self) -> f32 {
            (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
        }
        /// A float in `[lo, hi)`.
        pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
            lo + (hi - lo) * self.unit()
        }
        /// True with probability `p`.
        pub fn chance(&mut self, p: f32) -> bool {
            self.unit() < p
        }
        /// A number in `lo..=hi`.
        pub fn between(&mut self, lo: usize, hi: usize) -> usize {
            lo + self.below(hi.saturating_sub(lo) + 1)
        }
    }

    fn vec3(rng: &mut Rng, r: f32) -> [f32; 3] {
        [rng.range(-r, r), rng.range(-r, r), rng.range(-r, r)]
    }

    fn unit3(rng: &mut Rng) -> [f32; 3] {
        loop {
            if let Some(v) = math::normalize3(vec3(rng, 1.0)).filter(|v| v.iter().all(|x| x.is_finite())) {
                return v;
            }
        }
    }

    /// A random unit quaternion `[x, y, z, w]`.
    pub fn rotation(rng: &mut Rng) -> [f32; 4] {
        loop {
            let q = [rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)];
            if math::quat_norm(q) > 0.2 {
                return normalize4(q);
            }
        }
    }

    fn transform(rng: &mut Rng) -> Transform {
        let scale =
            if rng.chance(0.7) { [1.0; 3] } else { [rng.range(0.5, 1.5), rng.range(0.5, 1.5), rng.range(0.5, 1.5)] };
        Transform { translation: vec3(rng, 2.0), rotation: rotation(rng), scale }
    }

    /// Strictly increasing times in `[0, duration]`, `keys` of them.
    fn times(rng: &mut Rng, keys: usize, duration: f32) -> Vec<f32> {
        if keys == 1 {
            return vec![rng.range(0.0, duration)];
        }
        (0..keys).map(|k| duration * k as f32 / (keys - 1) as f32).collect()
    }

    /// `n` weights ≥ 0 that sum to 1 (within f32 rounding, far inside the validator's tolerance).
    fn weights(rng: &mut Rng, n: usize) -> Vec<f32> {
        let raw: Vec<f64> = (0..n).map(|_| 0.05 + f64::from(rng.unit())).collect();
        let sum: f64 = raw.iter().sum();
        let mut w: Vec<f32> = raw.iter().map(|x| (x / sum) as f32).collect();
        let rest: f32 = w.iter().skip(1).sum();
        if let Some(first) = w.first_mut() {
            *first = 1.0 - rest;
        }
        w
    }

    fn bones(rng: &mut Rng) -> Vec<Bone> {
        let most = if rng.chance(0.2) { 40 } else { 10 };
        let count = if rng.chance(0.1) { 0 } else { rng.between(1, most) };
        let mut bones: Vec<Bone> = Vec::with_capacity(count);
        for i in 0..count {
            // Mostly one root; now and then a second root (glTF gets a synthetic root for it).
            let parent = if i == 0 || rng.chance(0.05) { None } else { Some(rng.below(i)) };
            let rest = transform(rng);
            let local = rest.to_matrix();
            let bind = match parent.and_then(|p| bones.get(p)) {
                Some(p) => math::mul(&p.bind_matrix, &local),
                None => local,
            };
            let inverse = math::inverse(&bind).unwrap_or(math::IDENTITY);
            bones.push(Bone {
                name: format!("bone_{i}"),
                parent,
                rest,
                bind_matrix: bind,
                inverse_bind_matrix: inverse,
                flags: BoneFlags::default(),
            });
        }
        bones
    }

    fn mesh(rng: &mut Rng, index: usize, bones: usize, materials: usize) -> Mesh {
        let n = rng.between(3, 40);
        let positions: Vec<[f32; 3]> = (0..n).map(|_| vec3(rng, 5.0)).collect();
        let normals = if rng.chance(0.8) { (0..n).map(|_| unit3(rng)).collect() } else { Vec::new() };
        let mut uv_sets = Vec::new();
        for _ in 0..rng.below(3) {
            uv_sets.push((0..n).map(|_| [rng.range(0.0, 1.0), rng.range(0.0, 1.0)]).collect());
        }
        let triangles = (0..rng.between(1, 30))
            .map(|_| {
                // Three distinct corners: degenerate triangles are data some writers drop.
                let a = rng.below(n);
                let b = (a + 1 + rng.below(n - 1)) % n;
                let mut c = rng.below(n);
                while c == a || c == b {
                    c = (c + 1) % n;
                }
                [a as u32, b as u32, c as u32]
            })
            .collect();
        let skin = if bones > 0 && rng.chance(0.85) {
            let max = rng.between(1, 8);
            Skin::from_vertices((0..n).map(|_| {
                let k = rng.between(1, max);
                let w = weights(rng, k);
                w.into_iter().map(|weight| Influence { bone: rng.below(bones) as u32, weight }).collect::<Vec<_>>()
            }))
        } else {
            Skin::default()
        };
        let morph_targets = (0..if rng.chance(0.3) { rng.between(1, 3) } else { 0 })
            .map(|t| MorphTarget {
                name: format!("shape_{t}"),
                position_deltas: (0..n).map(|_| vec3(rng, 0.5)).collect(),
                normal_deltas: if rng.chance(0.5) { (0..n).map(|_| vec3(rng, 0.1)).collect() } else { Vec::new() },
            })
            .collect();
        let lod = if index > 0 && rng.chance(0.3) {
            Lod { level: rng.between(1, 3) as u32, distance: rng.range(10.0, 100.0) }
        } else {
            Lod::default()
        };
        Mesh {
            name: format!("mesh_{index}"),
            material: if materials > 0 && rng.chance(0.9) { Some(rng.below(materials)) } else { None },
            positions,
            normals,
            uv_sets,
            skin,
            triangles,
            lod,
            part_id: if rng.chance(0.5) { Some(rng.below(3) as u32 * 100) } else { None },
            morph_targets,
        }
    }

    fn material(rng: &mut Rng, index: usize) -> Material {
        let textures = (0..rng.between(0, 2))
            .map(|t| TextureRef {
                path: format!("TEXTURES\\T{index}_{t}.BLP"),
                replaceable: None,
                uv_set: Some(0),
                wrap_u: rng.chance(0.5),
                wrap_v: rng.chance(0.5),
            })
            .collect();
        Material {
            name: format!("material_{index}"),
            textures,
            double_sided: rng.chance(0.3),
            depth_write: true,
            ..Material::default()
        }
    }

    fn channel(rng: &mut Rng, bone: usize, duration: f32, globals: usize) -> Channel {
        let interpolation = match rng.below(3) {
            0 => Interpolation::Step,
            1 => Interpolation::Linear,
            _ => Interpolation::CubicSpline,
        };
        let keys = rng.between(1, 6);
        let times = times(rng, keys, duration);
        let per_key = if interpolation == Interpolation::CubicSpline { 3 } else { 1 };
        let values = match rng.below(3) {
            0 => ChannelValues::Translation((0..keys * per_key).map(|_| vec3(rng, 2.0)).collect()),
            1 => ChannelValues::Rotation(
                (0..keys * per_key)
                    .map(|i| if per_key == 3 && i % 3 != 1 { [0.0; 4] } else { rotation(rng) })
                    .collect(),
            ),
            _ => ChannelValues::Scale(
                (0..keys * per_key)
                    .map(|i| {
                        if per_key == 3 && i % 3 != 1 {
                            [0.0; 3]
                        } else {
                            [rng.range(0.5, 1.5), rng.range(0.5, 1.5), rng.range(0.5, 1.5)]
                        }
                    })
                    .collect(),
            ),
        };
        let clock = if globals > 0 && rng.chance(0.2) { Clock::Global(rng.below(globals)) } else { Clock::Animation };
        Channel { bone, clock, interpolation, times, values }
    }

    fn animation(rng: &mut Rng, index: usize, model: &Model) -> Animation {
        let duration = rng.range(0.25, 3.0);
        let bones = model.bones.len();
        let mut channels = Vec::new();
        for bone in 0..bones {
            if rng.chance(0.6) {
                channels.push(channel(rng, bone, duration, model.global_sequences.len()));
            }
        }
        let morph_channels = model
            .meshes
            .iter()
            .enumerate()
            .filter(|(_, m)| !m.morph_targets.is_empty())
            .map(|(mesh, m)| {
                let keys = rng.between(1, 4);
                MorphChannel {
                    mesh,
                    interpolation: if rng.chance(0.5) { Interpolation::Step } else { Interpolation::Linear },
                    times: times(rng, keys, duration),
                    weights: (0..keys * m.morph_targets.len()).map(|_| rng.unit()).collect(),
                }
            })
            .collect();
        let events = (0..rng.below(3))
            .map(|e| Event {
                time: rng.range(0.0, duration),
                name: ["$CSS", "Fire", "footstep"][e % 3].to_string(),
                bone: if bones > 0 && rng.chance(0.5) { Some(rng.below(bones)) } else { None },
                position: if rng.chance(0.5) { Some(vec3(rng, 1.0)) } else { None },
                parameter: if rng.chance(0.5) { Some(rng.below(100) as u32) } else { None },
            })
            .collect();
        let bounds = Aabb::of_points(model.meshes.iter().flat_map(|m| &m.positions));
        Animation {
            name: format!("anim_{index}"),
            duration,
            looping: rng.chance(0.5),
            blend_in: if rng.chance(0.5) { 0.0 } else { rng.range(0.0, 0.5) },
            channels,
            morph_channels,
            events,
            bounds,
            key_bounds: Vec::new(),
        }
    }

    /// A random valid model: 0–40 bones in a tree (parents first, now and then a second root),
    /// 1–4 meshes with 3–40 vertices, normals, 0–2 UV sets, 1–8 influences per skinned vertex,
    /// morph targets, LOD levels and part ids, 0–2 materials with textures, 0–3 animations with
    /// step, linear and cubic translation/rotation/scale channels (some on global sequences),
    /// morph weight channels and events, 0–2 attachments.
    pub fn valid_model(rng: &mut Rng) -> Model {
        let mut model = Model { name: format!("generated_{}", rng.below(1_000_000)), ..Model::default() };
        model.bones = bones(rng);
        model.materials = (0..rng.below(3)).map(|i| material(rng, i)).collect();
        let meshes = rng.between(1, 4);
        model.meshes = (0..meshes).map(|i| mesh(rng, i, model.bones.len(), model.materials.len())).collect();
        model.global_sequences = (0..rng.below(3)).map(|_| rng.range(0.5, 3.0)).collect();
        let animations = rng.below(4);
        for i in 0..animations {
            let a = animation(rng, i, &model);
            model.animations.push(a);
        }
        if !model.bones.is_empty() {
            model.attachments = (0..rng.below(3))
                .map(|i| Attachment {
                    name: format!("attachment_{i}"),
                    id: Some(i as u32),
                    bone: rng.below(model.bones.len()),
                    transform: Transform { translation: vec3(rng, 1.0), rotation: rotation(rng), scale: [1.0; 3] },
                })
                .collect();
        }
        model
    }

    /// What [`check_writer`] saw.
    #[derive(Debug, Default)]
    pub struct WriterReport {
        /// Valid models written and read back into valid models.
        pub written: usize,
        /// Valid models the writer refused with a typed error other than `InvalidModel` (a limit
        /// of the format), with the first few reasons.
        pub refused: usize,
        /// Up to five refusal messages, for the test log.
        pub refusals: Vec<String>,
        /// Poisoned models refused with `WriteError::InvalidModel`.
        pub poisoned: usize,
        /// Broken promises: a file its reader refuses, a read-back model that is invalid, a valid
        /// model refused as invalid, a poisoned model written.
        pub failures: Vec<String>,
    }

    /// The writer property: for `count` generated valid models (seeded with `seed`), `write`
    /// either refuses with a typed error that is not `InvalidModel`, or produces bytes that `read`
    /// reads back into a model that passes `validate()`; the same model with one float poisoned
    /// is refused with `WriteError::InvalidModel`.
    pub fn check_writer(
        seed: u64,
        count: usize,
        write: impl Fn(&Model) -> Result<Vec<u8>, crate::WriteError>,
        read: impl Fn(&[u8]) -> Result<Model, crate::ReadError>,
    ) -> WriterReport {
        let mut rng = Rng::new(seed);
        let mut report = WriterReport::default();
        for i in 0..count {
            let model = valid_model(&mut rng);
            if let Err(e) = model.validate() {
                report.failures.push(format!("model {i}: the generator made an invalid model: {e}"));
                continue;
            }
            match write(&model) {
                Ok(bytes) => match read(&bytes) {
                    Ok(back) => match back.validate() {
                        Ok(()) => report.written += 1,
                        Err(e) => report.failures.push(format!("model {i}: read back invalid: {e}")),
                    },
                    Err(e) => report.failures.push(format!("model {i}: the written file does not read: {e}")),
                },
                Err(crate::WriteError::InvalidModel(e)) => {
                    report.failures.push(format!("model {i}: a valid model refused as invalid: {e}"));
                }
                Err(e) => {
                    report.refused += 1;
                    if report.refusals.len() < 5 {
                        report.refusals.push(format!("model {i}: {e}"));
                    }
                }
            }
            let mut poisoned = model;
            let what = poison(&mut poisoned, &mut rng);
            match write(&poisoned) {
                Err(crate::WriteError::InvalidModel(_)) => report.poisoned += 1,
                Err(e) => report
                    .failures
                    .push(format!("model {i} with a non-finite {what}: refused, but not as invalid: {e}")),
                Ok(_) => report.failures.push(format!("model {i} with a non-finite {what}: written")),
            }
        }
        report
    }

    /// Sets one float that [`Model::validate`] checks (a position, normal, UV, weight, rest
    /// translation, bind matrix entry, key time or value, morph delta or weight, event time,
    /// duration or global sequence) to NaN or ±∞. Returns what it broke.
    pub fn poison(model: &mut Model, rng: &mut Rng) -> &'static str {
        let bad = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY][rng.below(3)];
        for _ in 0..64 {
            if let Some(what) = try_poison(model, rng, bad) {
                return what;
            }
        }
        // Every model has a mesh with positions.
        if let Some(p) = model.meshes.first_mut().and_then(|m| m.positions.first_mut()) {
            p[0] = bad;
        }
        "position"
    }

    fn pick<'a, T>(rng: &mut Rng, items: &'a mut [T]) -> Option<&'a mut T> {
        let n = items.len();
        items.get_mut(rng.below(n))
    }

    fn try_poison(model: &mut Model, rng: &mut Rng, bad: f32) -> Option<&'static str> {
        let which = rng.below(12);
        let mesh_count = model.meshes.len();
        let mesh = model.meshes.get_mut(rng.below(mesh_count));
        match which {
            0 => {
                pick(rng, &mut mesh?.positions)?[rng.below(3)] = bad;
                Some("position")
            }
            1 => {
                pick(rng, &mut mesh?.normals)?[rng.below(3)] = bad;
                Some("normal")
            }
            2 => {
                let set = pick(rng, &mut mesh?.uv_sets)?;
                pick(rng, set)?[rng.below(2)] = bad;
                Some("uv")
            }
            3 => {
                pick(rng, &mut mesh?.skin.influences)?.weight = bad;
                Some("weight")
            }
            4 => {
                pick(rng, &mut model.bones)?.rest.translation[rng.below(3)] = bad;
                Some("rest translation")
            }
            5 => {
                pick(rng, &mut model.bones)?.inverse_bind_matrix[rng.below(16)] = bad;
                Some("inverse bind matrix")
            }
            6 => {
                let anim = pick(rng, &mut model.animations)?;
                let channel = pick(rng, &mut anim.channels)?;
                *pick(rng, &mut channel.times)? = bad;
                Some("key time")
            }
            7 => {
                let anim = pick(rng, &mut model.animations)?;
                let channel = pick(rng, &mut anim.channels)?;
                match &mut channel.values {
                    ChannelValues::Translation(v) | ChannelValues::Scale(v) => pick(rng, v)?[rng.below(3)] = bad,
                    ChannelValues::Rotation(v) => {
                        let per_key = if channel.interpolation == Interpolation::CubicSpline { 3 } else { 1 };
                        let key = rng.below(channel.times.len());
                        v.get_mut(key * per_key + per_key / 2)?[rng.below(4)] = bad;
                    }
                }
                Some("key value")
            }
            8 => {
                let target = pick(rng, &mut mesh?.morph_targets)?;
                pick(rng, &mut target.position_deltas)?[rng.below(3)] = bad;
                Some("morph delta")
            }
            9 => {
                let anim = pick(rng, &mut model.animations)?;
                let channel = pick(rng, &mut anim.morph_channels)?;
                *pick(rng, &mut channel.weights)? = bad;
                Some("morph weight")
            }
            10 => {
                let anim = pick(rng, &mut model.animations)?;
                if rng.chance(0.5) {
                    pick(rng, &mut anim.events)?.time = bad;
                    Some("event time")
                } else {
                    anim.duration = bad;
                    Some("duration")
                }
            }
            _ => {
                *pick(rng, &mut model.global_sequences)? = bad;
                Some("global sequence")
            }
        }
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

    #[test]
    fn check_catches_panics() {
        let err = check("x", b"abc", Limits::default(), |_| -> Result<(), ()> { panic!("boom") }).unwrap_err();
        assert!(err.contains("panicked"));
        assert!(check("x", b"abc", Limits::default(), |_| -> Result<(), ()> { Err(()) }).is_ok());
    }
}
