//! Damaged input: every truncation, every single-byte change, huge counts and random mutations
//! must end in an error or a model, never a panic, a hang, or an allocation out of proportion
//! (`relic_core::testkit::check`: ≤ 16 × input + 1 MiB, ≤ 1 s per input).

// Test helpers may fail loudly: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use relic_core::testkit::{
    CountingAllocator, INTERESTING_U32, Limits, Rng, check, counting_installed, mutate, truncations, write_at,
};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// Parses and maps to the model (`read_model` does both): within the limits.
fn survive(what: &str, bytes: &[u8]) -> Result<(), String> {
    check(what, bytes, Limits::default(), relic_abc::read_model)
}

fn small_files() -> Vec<(String, Vec<u8>)> {
    let mut files = common::fixtures();
    files.extend(common::hostile_fixtures());
    if let Some(spider) = common::corpus_file("SPIDER.ABC") {
        files.push(("SPIDER.ABC".into(), spider));
    }
    files
}

#[test]
fn the_allocator_is_counting() {
    assert!(counting_installed());
}

/// Every prefix of every fixture and of SPIDER.ABC is an error (exhaustively), and so is a sample
/// of the prefixes of the larger real files.
#[test]
fn every_truncation_is_an_error() {
    let mut files = small_files().into_iter().map(|(n, b)| (n, b, 1)).collect::<Vec<_>>();
    for (name, bytes) in common::corpus().unwrap_or_default() {
        if bytes.len() > 10_000 {
            let step = bytes.len() / 300;
            files.push((name, bytes, step));
        }
    }
    let mut cuts = 0;
    for (name, bytes, step) in &files {
        for cut in truncations(bytes, *step) {
            let what = format!("{name} cut at {}", cut.len());
            survive(&what, cut).unwrap();
            check(&what, cut, Limits::default(), relic_abc::info).unwrap();
            assert!(relic_abc::parse(cut).is_err(), "{what} parsed");
            cuts += 1;
        }
    }
    println!("{cuts} truncations of {} files", files.len());
}

/// Every byte of every fixture and of SPIDER.ABC set to 0x00, 0xFF and its complement (the hostile
/// fixtures are single changes of `v12_full.abc` already).
#[test]
fn every_single_byte_change_is_survived() {
    let mut changes = 0;
    for (name, bytes) in small_files().into_iter().filter(|(n, _)| !common::is_hostile(n)) {
        let mut copy = bytes.clone();
        for i in 0..bytes.len() {
            let original = bytes[i];
            for value in [0x00, 0xFF, !original] {
                copy[i] = value;
                survive(&format!("{name} byte {i} = {value:#x}"), &copy).unwrap();
                changes += 1;
            }
            copy[i] = original;
        }
    }
    println!("{changes} single-byte changes");
}

/// Huge and odd values written over every (unaligned) position: counts past the end of the file
/// are refused before anything proportional to them is allocated.
#[test]
fn huge_counts_are_refused_without_allocating() {
    let mut writes = 0;
    for (name, bytes) in common::fixtures() {
        let mut copy = bytes.clone();
        for at in 0..bytes.len().saturating_sub(3) {
            for value in INTERESTING_U32.into_iter().filter(|v| *v > 2) {
                write_at(&mut copy, at, &value.to_le_bytes());
                survive(&format!("{name} u32 {value:#x} at {at}"), &copy).unwrap();
                writes += 1;
            }
            copy[at..at + 4].copy_from_slice(&bytes[at..at + 4]);
        }
    }
    println!("{writes} u32 writes");
}

/// Random multi-byte mutations (fixed seeds), including larger real files.
#[test]
fn random_mutations_are_survived() {
    let mut files = small_files();
    files.extend(common::corpus().unwrap_or_default());
    for (name, bytes) in files {
        let mut rng = Rng::new(bytes.len() as u64);
        let rounds = if bytes.len() > 100_000 { 30 } else { 300 };
        for round in 0..rounds {
            let mutated = mutate(&bytes, &mut rng, 1 + round % 8);
            survive(&format!("{name} mutation {round}"), &mutated).unwrap();
        }
    }
}

/// A mutated file that still parses re-writes to bytes that parse the same (the writer never
/// produces something its reader disagrees with).
#[test]
fn whatever_parses_rewrites_consistently() {
    let mut rewritten = 0;
    for (name, bytes) in small_files() {
        let mut rng = Rng::new(7 + bytes.len() as u64);
        for round in 0..200 {
            let mutated = mutate(&bytes, &mut rng, 1 + round % 3);
            let Ok(file) = relic_abc::parse(&mutated) else { continue };
            let out = relic_abc::write(&file).unwrap_or_else(|e| panic!("{name} mutation {round}: {e}"));
            let back = relic_abc::parse(&out).unwrap_or_else(|e| panic!("{name} mutation {round}: {e}"));
            // NaN floats compare unequal; compare the bytes of a second rewrite instead.
            assert_eq!(relic_abc::write(&back).unwrap(), out, "{name} mutation {round}");
            rewritten += 1;
        }
    }
    assert!(rewritten > 100, "{rewritten}");
}
