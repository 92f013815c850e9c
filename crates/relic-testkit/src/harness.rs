//! The hostile-input battery every format's tests run.

use crate::check::{BAD_FLOATS, Limits, check};
use crate::field::Field;
use crate::mutate::{Rng, mutate, truncations};

type BoxedReader<'a> = Box<dyn Fn(&[u8]) -> bool + 'a>;

/// One battery of hostile inputs for one format, shared by every format's tests.
///
/// Register the format's readers with [`Harness::reader`] (every input is given to each of them),
/// feed inputs with the generators, then [`Harness::finish`]: it panics with the number of
/// failures and the first few (a failure is a panic, an input over the time limit, or a peak
/// allocation over the budget — see [`check`]), and returns how many reader runs passed.
///
/// ```
/// use relic_testkit::{Harness, Field, COUNT_VALUES};
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
