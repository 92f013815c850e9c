//! One input under panic and allocation limits, with a hang watchdog; NaN writers.

use std::time::Duration;

use crate::alloc::peak_allocation;
use crate::field::Field;

/// Limits for [`check`].
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Peak heap bytes allowed: `per_input_byte × input length + fixed`.
    pub per_input_byte: usize,
    /// See `per_input_byte`.
    pub fixed: usize,
    /// The hang watchdog: CPU time (of the reading thread) past which one input is reported as a
    /// hang. Minutes, never a performance limit (no timing assertion below a minute in `cargo
    /// test`): what a test means by "linear" or "no blow-up" it asserts as a count.
    pub time: Duration,
}

/// The default hang watchdog of [`Limits::time`]: two minutes of CPU time for one input.
pub const HANG_WATCHDOG: Duration = Duration::from_secs(120);

impl Default for Limits {
    fn default() -> Self {
        Self { per_input_byte: 16, fixed: 1 << 20, time: HANG_WATCHDOG }
    }
}

/// Runs `read` on `input` and returns an error text if it panicked, allocated more than the
/// budget, or ran past the hang watchdog (the thread's own CPU time, minutes: a hang, not a
/// slowness). `what` names the input in the message.
pub fn check<T, E>(
    what: &str,
    input: &[u8],
    limits: Limits,
    read: impl Fn(&[u8]) -> Result<T, E>,
) -> Result<(), String> {
    // The thread's CPU time, not the wall clock, against a watchdog of minutes: it catches a hang
    // (a loop that never ends within reason), never a slow machine busy with other builds.
    let started = cpu_time::ThreadTime::now();
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
        return Err(format!("{what}: hang: ran {elapsed:?} of CPU time (watchdog {:?})", limits.time));
    }
    Ok(())
}

/// Values a count field is set to by [`Harness::fields`](crate::Harness::fields): 0, 1, 2^16, 2^31, 2^32 − 1.
pub const COUNT_VALUES: [u32; 5] = [0, 1, 1 << 16, 1 << 31, u32::MAX];

/// NaN and the infinities: what [`Harness::floats`](crate::Harness::floats) writes into float fields.
pub const BAD_FLOATS: [f32; 3] = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY];

/// A writer as [`bad_floats_are_refused`] calls it: `None` where it does not apply to the model
/// (a NAD writer given a model without animations).
pub type WriterCheck<'a> = (&'a str, &'a dyn Fn(&relic_core::Model) -> Option<Result<(), relic_core::WriteError>>);

/// NaN and ±∞ read from a file stay out of every written file: every float field of every file
/// (`float_fields`) is set to each of [`BAD_FLOATS`]; where `read` gives a model that fails
/// `validate()`, every writer must refuse it with `WriteError::InvalidModel`. Panics listing the
/// writers that did not; returns how many refusals were seen, which callers hold to a minimum so
/// the test cannot pass by testing nothing.
#[allow(clippy::panic)] // test support: a writer that accepts an invalid model fails the test
pub fn bad_floats_are_refused(
    files: &[(String, Vec<u8>)],
    float_fields: impl Fn(&str, &[u8]) -> Vec<Field>,
    read: impl Fn(&str, &[u8]) -> Option<relic_core::Model>,
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
                        Some(Err(relic_core::WriteError::InvalidModel(_))) => refused += 1,
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

/// Runs `f` and returns its result with the CPU time the calling thread spent in it: a figure to
/// print, or to compare with a hang watchdog of minutes ([`HANG_WATCHDOG`]); never a performance
/// limit in a test (assert a count of the work done instead).
pub fn cpu_timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let started = cpu_time::ThreadTime::now();
    let value = f();
    (value, started.elapsed())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_catches_panics() {
        let err = check("x", b"abc", Limits::default(), |_| -> Result<(), ()> { panic!("boom") }).unwrap_err();
        assert!(err.contains("panicked"));
        assert!(check("x", b"abc", Limits::default(), |_| -> Result<(), ()> { Err(()) }).is_ok());
    }

    #[test]
    fn the_time_limit_is_a_hang_watchdog_of_minutes() {
        assert!(Limits::default().time >= Duration::from_secs(60), "{:?}", Limits::default().time);
        // Past the watchdog: reported as a hang (a zero watchdog stands in for a stuck reader).
        let stuck = Limits { time: Duration::ZERO, ..Limits::default() };
        let err = check("x", b"abc", stuck, |_| -> Result<u64, ()> {
            Ok((0..std::hint::black_box(100_000u64)).map(|i| i * i).sum())
        });
        assert!(err.as_ref().is_err_and(|e| e.contains("x: hang:")), "{err:?}");
    }
}
