//! Damaged input: every truncation, every single-byte change, huge values at every position and
//! random mutations of every fixture (and of the real files, wrapped ones through their LZMA
//! stream) end in an error or a model, never a panic, a hang or an allocation out of proportion
//! (`relic_testkit::check`: ≤ 16 × input + 1 MiB, ≤ 1 s per input).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use relic_core::WriteOptions;
use relic_testkit::{
    CountingAllocator, Field, Harness, INTERESTING_U32, Limits, Rng, check, counting_installed, mutate, truncations,
    write_at,
};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

fn fixtures() -> Vec<(String, Vec<u8>)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/ltb");
    relic_testkit::files_with_extension(&dir, "ltb")
}

fn good_fixtures() -> Vec<(String, Vec<u8>)> {
    fixtures().into_iter().filter(|(n, _)| !n.starts_with("hostile")).collect()
}

fn corpus() -> Vec<(String, Vec<u8>)> {
    relic_testkit::corpus_dir("hostile").map(|d| relic_testkit::files_in(&d.join("ltb"))).unwrap_or_default()
}

fn survive(what: &str, bytes: &[u8]) -> Result<(), String> {
    check(what, bytes, Limits::default(), relic_ltb::read_model)
}

#[test]
fn the_allocator_is_counting() {
    assert!(counting_installed());
}

/// Every prefix of every fixture is an error, and so is a sample of the prefixes of the real files
/// (each is survived within the limits too).
#[test]
fn every_truncation_is_an_error() {
    let mut files: Vec<(String, Vec<u8>, usize)> = fixtures().into_iter().map(|(n, b)| (n, b, 1)).collect();
    for (name, bytes) in corpus() {
        let step = (bytes.len() / 100).max(1);
        files.push((name, bytes, step));
    }
    let mut cuts = 0;
    for (name, bytes, step) in &files {
        for cut in truncations(bytes, *step) {
            let what = format!("{name} cut at {}", cut.len());
            survive(&what, cut).unwrap();
            check(&what, cut, Limits::default(), relic_ltb::info).unwrap();
            // Trailing bytes are kept, not required: v25_trailing cut into them is v25_full.
            let into_trailing = name.contains("trailing") && cut.len() + 4 >= bytes.len();
            assert!(into_trailing || relic_ltb::read(cut).is_err(), "{what} parsed");
            cuts += 1;
        }
    }
    println!("{cuts} truncations of {} files", files.len());
}

#[test]
fn every_single_byte_change_is_survived() {
    let mut h = Harness::new().reader("read_model", relic_ltb::read_model).reader("info", relic_ltb::info);
    for (name, bytes) in good_fixtures() {
        h.byte_changes(&name, &bytes);
    }
    println!("{} single-byte changes", h.inputs());
    h.finish();
}

/// Huge and odd values written over every (unaligned) position of the unwrapped fixtures.
#[test]
fn huge_values_at_every_position_are_survived() {
    let mut writes = 0;
    for (name, bytes) in good_fixtures().into_iter().filter(|(n, _)| !n.contains("wrapped")) {
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

#[test]
fn ten_thousand_random_mutations() {
    let mut h = Harness::new().reader("read_model", relic_ltb::read_model);
    h.mutations_over(&fixtures(), &mut Rng::new(25), 10_000);
    h.finish();
}

/// The real files, wrapped ones mutated through their LZMA stream and header.
#[test]
fn random_mutations_of_the_real_files_are_survived() {
    // Without the corpus: a printed skip (a failure under CI, where the corpus is required).
    let Some(dir) = relic_testkit::corpus_dir("random_mutations_of_the_real_files_are_survived") else { return };
    let mut h = Harness::new().reader("read_model", relic_ltb::read_model);
    let (mut files, mut expected) = (0, 0);
    for (name, bytes) in relic_testkit::files_in(&dir.join("ltb")) {
        let mut rng = Rng::new(bytes.len() as u64);
        let count = if bytes.len() > 100_000 { 20 } else { 100 };
        h.mutations(&name, &bytes, &mut rng, count);
        (files, expected) = (files + 1, expected + count);
    }
    // The 12 LTB files of MANIFEST.md, each mutated its count of times.
    assert_eq!(files, 12, "LTB files mutated");
    assert_eq!(h.finish(), expected, "reader runs");
}

/// The header counts and the LZMA size field set to 0, 1, 2^16, 2^31 and 2^32 − 1.
#[test]
fn count_fields_take_every_hostile_value() {
    let mut h = Harness::new().reader("read_model", relic_ltb::read_model);
    for (name, bytes) in good_fixtures() {
        let fields: Vec<Field> = if name.contains("wrapped") {
            vec![
                Field::u32("LzmaHeader.size (low)", 5),
                Field::u32("LzmaHeader.size (high)", 9),
                Field::u32("LzmaHeader.dict_size", 1),
            ]
        } else {
            let mut f: Vec<Field> = (0..15).map(|i| Field::u32(format!("header.counts[{i}]"), 24 + 4 * i)).collect();
            f.push(Field::u16("header.command_string.len", 84));
            f
        };
        h.fields(&name, &bytes, &fields, &relic_testkit::COUNT_VALUES);
    }
    h.finish();
}

/// A mutated file that still parses writes bytes that parse the same.
#[test]
fn whatever_parses_rewrites_consistently() {
    let mut rewritten = 0;
    for (name, bytes) in good_fixtures() {
        let mut rng = Rng::new(11 + bytes.len() as u64);
        for round in 0..300 {
            let mutated = mutate(&bytes, &mut rng, 1 + round % 3);
            let Ok(file) = relic_ltb::read(&mutated) else { continue };
            let out = relic_ltb::write(&file).unwrap_or_else(|e| panic!("{name} mutation {round}: {e}"));
            assert!(out == mutated, "{name} mutation {round}: the rewrite differs from what was read");
            rewritten += 1;
        }
    }
    assert!(rewritten > 100, "only {rewritten} mutations parsed");
}

/// NaN and ±∞ read into positions or the radius never reach a written file.
#[test]
fn non_finite_floats_never_reach_a_written_file() {
    let (_, full) = good_fixtures().into_iter().find(|(n, _)| n == "v25_full.ltb").unwrap();
    // The radius (after the 15 counts and the 15-byte command string) and the first vertex
    // position (type, ObjSize, 4 counts, a bool, 4 flags, a bool of the first render object).
    let fields =
        [Field::f32("header.radius", 84 + 2 + 15), Field::f32("pieces[0].lods[0] first x", 168 + 4 + 16 + 1 + 16 + 1)];
    let files = vec![("v25_full.ltb".to_string(), full)];
    let write = |m: &relic_core::Model| Some(relic_ltb::write_model(m, &WriteOptions::default()).map(|_| ()));
    let refused = relic_testkit::bad_floats_are_refused(
        &files,
        |_, _| fields.to_vec(),
        |_, b| relic_ltb::read_model(b).ok(),
        &[("ltb", &write)],
    );
    assert!(refused >= 3, "{refused} refusals");
}

/// The fuzz findings of issue 42 (`fixtures/ltb/hostile/fuzz_*.ltb`): LZMA properties 0xE0
/// (lc 8, lp 4) and 0x2A (lc 6, lp 4), whose literal tables alone are megabytes. Every reader
/// stays within 16 × input + 1 MiB; the header is refused by its properties.
#[test]
fn fuzz_findings_stay_within_the_budget() {
    let findings: Vec<_> = fixtures().into_iter().filter(|(n, _)| n.starts_with("hostile/fuzz_")).collect();
    assert_eq!(findings.len(), 2);
    for (name, bytes) in &findings {
        let _ = relic_ltb::detect(bytes);
        survive(name, bytes).unwrap();
        check(&format!("{name} info"), bytes, Limits::default(), relic_ltb::info).unwrap();
        check(&format!("{name} read"), bytes, Limits::default(), relic_ltb::read).unwrap();
        let e = relic_ltb::read(bytes).unwrap_err();
        assert_eq!(e.path, "LzmaHeader.props", "{name}: {e}");
    }
}
