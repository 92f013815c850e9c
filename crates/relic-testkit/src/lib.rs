//! Test support for hostile input (a dev-dependency only: no product crate depends on it).
//!
//! * [`CountingAllocator`]: a global allocator that tracks the live and peak heap bytes of the
//!   current thread, so a test can measure what one parse allocated even while other tests run.
//!   Install it in a test binary with `#[global_allocator] static A: CountingAllocator = CountingAllocator;`.
//! * [`Rng`]: a tiny deterministic generator (fixed seeds, same mutations on every run).
//! * [`truncations`], [`mutate`], [`write_at`]: every prefix, random multi-byte mutations, a value
//!   written over a field.
//! * [`check`]: runs a reader on one input and fails if it panics, allocates more than a budget
//!   (16 × input + 1 MiB unless told otherwise), or runs past a hang watchdog of minutes.
//! * [`Harness`]: the battery every format's hostile test runs (one harness for all formats):
//!   a list of readers, then truncations, single-byte changes, random mutations, count and offset
//!   fields set to hostile values, NaN and infinite floats; failures are collected and reported
//!   together.
//! * [`m2`]: an independent byte builder of M2 files (the M2 fixtures and generator tests).
//! * [`models`]: a deterministic generator of valid common models for writer property tests.
//! * [`corpus_dir`], [`corpus_file`]: the real game files in `../shared/corpus`, with a skip
//!   message `cargo test` does not swallow when they are absent (a user's clone), and a failure
//!   when `RELIC_REQUIRE_CORPUS` is set (CI) or a named file is missing from a present corpus.
//! * [`LeBytes`]: the little-endian byte builder the generator tests lay files out with.
//! * [`bone_at`], [`bone_chain`]: bones placed along +Y with matching bind matrices, the skeleton
//!   most hand-built test models start from.

mod alloc;
mod bones;
mod bytes;
mod check;
mod corpus;
mod field;
mod harness;
pub mod m2;
pub mod models;
mod mutate;

pub use alloc::{CountingAllocator, counting_installed, peak_allocation};
pub use bones::{bone_at, bone_chain};
pub use bytes::LeBytes;
pub use check::{
    BAD_FLOATS, COUNT_VALUES, HANG_WATCHDOG, Limits, WriterCheck, bad_floats_are_refused, check, cpu_timed,
    offset_values,
};
pub use corpus::{
    KnownFailure, REQUIRE_CORPUS, corpus_dir, corpus_file, files_in, files_with_extension, known_failure,
    known_failures, skip_or_fail, skips_forbidden, under_ci,
};
pub use field::{Field, Width};
pub use harness::Harness;
pub use mutate::{INTERESTING_F32, INTERESTING_U32, Rng, mutate, truncations, write_at};

/// The README's example, compiled and run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctest;
