//! Hostile input: every truncation and single-byte change of the small fixtures, header fields
//! (size, level offsets and sizes) set to hostile values on the fixtures and the real files, and
//! random mutations, are refused or read without a panic, within a second, allocating at most
//! 16 × the input + 1 MiB — through reading, `info` and decoding every level.

// Test code: a failed unwrap or index is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::path::Path;

use relic_core::texture::TextureOptions;
use relic_testkit::{
    COUNT_VALUES, CountingAllocator, Field, Harness, Rng, corpus_dir, counting_installed, files_with_extension,
    offset_values,
};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// Reads and decodes every level the file lists.
fn decode_all(bytes: &[u8]) -> Result<usize, relic_core::ReadError> {
    let file = relic_blp::read(bytes)?;
    let levels = relic_blp::validate::levels(&file)?;
    for i in 0..levels.len() {
        relic_blp::decode(&file, i, &TextureOptions::default())?;
    }
    Ok(levels.len())
}

/// The header fields of a BLP2 or BLP1: size, and every level slot's offset and size.
fn fields(bytes: &[u8]) -> Vec<Field> {
    let (width, offsets, sizes) = if bytes.starts_with(b"BLP1") { (12, 0x1C, 0x5C) } else { (12, 0x14, 0x54) };
    let mut out = vec![Field::u32("width", width), Field::u32("height", width + 4)];
    for i in 0..4 {
        out.push(Field::u32(format!("mip_offsets[{i}]"), offsets + 4 * i));
        out.push(Field::u32(format!("mip_sizes[{i}]"), sizes + 4 * i));
    }
    out
}

#[test]
fn hostile_inputs_are_refused_without_panic_or_huge_allocation() {
    assert!(counting_installed());
    let fixtures = files_with_extension(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/blp"), "blp");
    let mut corpus = Vec::new();
    if let Some(dir) = corpus_dir("blp hostile inputs") {
        corpus = files_with_extension(&dir, "blp");
    }
    let mut h = Harness::new()
        .reader("read", relic_blp::read)
        .reader("info", relic_blp::info)
        .reader("decode every level", decode_all)
        .reader("decode_bytes", |b| relic_blp::decode_bytes(b, 0, &TextureOptions::default()));
    for (name, bytes) in &fixtures {
        h.input(name, bytes);
        if !name.starts_with("hostile") && bytes.len() < 2048 {
            h.truncations(name, bytes);
            h.byte_changes(name, &bytes[..bytes.len().min(0x94)]);
        }
    }
    for (name, bytes) in fixtures.iter().chain(&corpus) {
        let header = fields(bytes);
        h.fields(name, bytes, &header, &COUNT_VALUES);
        h.fields(name, bytes, &header[2..], &offset_values(bytes.len()));
    }
    let all: Vec<(String, Vec<u8>)> = fixtures.iter().chain(&corpus).cloned().collect();
    h.mutations_over(&all, &mut Rng::new(0xB1B2), 1500);
    let accepted = h.accepted();
    let runs = h.finish();
    assert!(runs > 20_000 && accepted > 1_000, "{runs} runs, {accepted} accepted");
}

/// The fuzz findings of issue 42 (`fixtures/blp/hostile/fuzz_*.blp`): thin DXT levels of
/// 134 million texels declared over 64 bytes (`decode` held 100 MB, `decode_bytes` 69 MB), and a
/// BLP1 whose level size overflowed `u64`. Each is refused, within 16 × input + 1 MiB and
/// without a panic, by every reader the fuzz target runs.
#[test]
fn fuzz_findings_are_refused_within_the_budget() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/blp/hostile");
    let findings: Vec<_> =
        files_with_extension(&dir, "blp").into_iter().filter(|(n, _)| n.starts_with("fuzz_")).collect();
    assert_eq!(findings.len(), 3);
    let limits = relic_testkit::Limits::default();
    for (name, bytes) in &findings {
        for level in 0..16 {
            let decode = |b: &[u8]| relic_blp::decode_bytes(b, level, &TextureOptions::default());
            relic_testkit::check(&format!("{name} decode_bytes {level}"), bytes, limits, decode).unwrap();
        }
        relic_testkit::check(&format!("{name} info"), bytes, limits, relic_blp::info).unwrap();
        relic_testkit::check(&format!("{name} decode every level"), bytes, limits, decode_all).unwrap();
        let e = relic_blp::read(bytes).unwrap_err();
        assert!(e.path.contains("mip_sizes"), "{name}: {e}");
    }
}
