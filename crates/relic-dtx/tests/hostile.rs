//! Hostile input: every truncation and single-byte change of the small fixtures, header fields
//! (size, mip and section counts, flags) set to hostile values on the fixtures and the real
//! files, and random mutations, are refused or read without a panic, within a second, allocating
//! at most 16 × the input + 1 MiB — through detection, reading, `info` and decoding every mip.

// Test code: a failed unwrap or index is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::path::Path;

use relic_core::texture::TextureOptions;
use relic_testkit::{
    COUNT_VALUES, CountingAllocator, Field, Harness, Rng, corpus_dir, counting_installed, files_with_extension,
};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// Reads and decodes every mip (idents that are not decoded are an error, as for a caller).
fn decode_all(bytes: &[u8]) -> Result<usize, relic_core::ReadError> {
    let file = relic_dtx::read(bytes)?;
    for i in 0..file.mips.len() {
        relic_dtx::decode(&file, i, &TextureOptions::default())?;
    }
    Ok(file.mips.len())
}

const FIELDS: [(&str, usize, bool); 5] = [
    ("width", 8, false),
    ("height", 10, false),
    ("mip_count", 12, false),
    ("section_count", 14, false),
    ("flags", 16, true),
];

#[test]
fn hostile_inputs_are_refused_without_panic_or_huge_allocation() {
    assert!(counting_installed());
    let fixtures = files_with_extension(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/dtx"), "dtx");
    let mut corpus = Vec::new();
    if let Some(dir) = corpus_dir("dtx hostile inputs") {
        corpus = files_with_extension(&dir, "dtx");
    }
    let mut h = Harness::new()
        .reader("detect", |b| relic_dtx::detect(b).ok_or(()))
        .reader("read", relic_dtx::read)
        .reader("info", relic_dtx::info)
        .reader("decode every mip", decode_all)
        .reader("decode_bytes", |b| relic_dtx::decode_bytes(b, 0, &TextureOptions::default()));
    for (name, bytes) in &fixtures {
        h.input(name, bytes);
        if !name.starts_with("hostile") && bytes.len() < 2048 {
            h.truncations(name, bytes);
            h.byte_changes(name, &bytes[..bytes.len().min(0x2C)]);
        }
    }
    let header: Vec<Field> =
        FIELDS.iter().map(|&(name, at, wide)| if wide { Field::u32(name, at) } else { Field::u16(name, at) }).collect();
    for (name, bytes) in fixtures.iter().chain(&corpus) {
        h.fields(name, bytes, &header, &COUNT_VALUES);
        h.fields(name, bytes, &header[..4], &[2, 3, 15, 16, 255, 4096, 65_534]);
    }
    let all: Vec<(String, Vec<u8>)> = fixtures.iter().chain(&corpus).cloned().collect();
    h.mutations_over(&all, &mut Rng::new(0xD7D7), 1500);
    let accepted = h.accepted();
    let runs = h.finish();
    assert!(runs > 10_000 && accepted > 1_000, "{runs} runs, {accepted} accepted");
}

/// The fuzz findings of issue 42 (`fixtures/dtx/hostile/fuzz_*.dtx`): LZMA properties whose
/// literal table alone is megabytes (lc 7–8, lp 2–4; `detect` held 3.1 MB for 80 bytes). Each
/// reader stays within 16 × input + 1 MiB and the header is refused by its properties.
#[test]
fn fuzz_findings_stay_within_the_budget() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/dtx/hostile");
    let findings: Vec<_> =
        files_with_extension(&dir, "dtx").into_iter().filter(|(n, _)| n.starts_with("fuzz_")).collect();
    assert_eq!(findings.len(), 2);
    let limits = relic_testkit::Limits::default();
    let options = TextureOptions::default();
    for (name, bytes) in &findings {
        relic_testkit::check(&format!("{name} detect"), bytes, limits, |b| relic_dtx::detect(b).ok_or(())).unwrap();
        relic_testkit::check(&format!("{name} info"), bytes, limits, relic_dtx::info).unwrap();
        relic_testkit::check(&format!("{name} read"), bytes, limits, relic_dtx::read).unwrap();
        relic_testkit::check(&format!("{name} decode"), bytes, limits, |b| relic_dtx::decode_bytes(b, 0, &options))
            .unwrap();
        let e = relic_lithtech::lzma::unwrap(bytes, &relic_lithtech::lzma::Limits::default()).unwrap_err();
        assert_eq!(e.path, "LzmaHeader.props", "{name}: {e}");
    }
}
