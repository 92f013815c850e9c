//! m2 benchmarks (parse, write, to/from the common model) beside a memcpy baseline: the real 1.12
//! file when the corpus is present, and a synthetic file of more than 10 MB built in memory
//! (10 000 vertices in four views, 120 bones with 400 linear keys per channel in 8 sequences).

// Benchmark set-up: a failure must stop the run loudly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use relic_benches::{bench_memcpy, corpus_file, large_m2};
use relic_core::WriteOptions;

fn group(c: &mut Criterion, name: &str, bytes: &[u8]) {
    let file = relic_m2::read(bytes).unwrap();
    let model = relic_m2::read_model(bytes).unwrap();
    let mut g = c.benchmark_group(format!("m2/{name}"));
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    bench_memcpy(&mut g, name, bytes);
    g.bench_function("parse", |b| b.iter(|| relic_m2::read(black_box(bytes)).unwrap()));
    g.bench_function("write", |b| b.iter(|| relic_m2::write(black_box(&file))));
    g.bench_function("read_model (parse + to_ir)", |b| b.iter(|| relic_m2::read_model(black_box(bytes)).unwrap()));
    g.bench_function("to_ir", |b| b.iter(|| relic_m2::to_ir(black_box(&file)).unwrap()));
    g.bench_function("from_ir", |b| b.iter(|| relic_m2::from_ir(black_box(&model), &WriteOptions::default()).unwrap()));
    g.finish();
}

/// The Wrath GnomePounder (264) with its three skins, beside the Classic one and memcpy of all
/// four files: throughput counts the `.m2` and its `.skin` files.
fn wrath_group(c: &mut Criterion) {
    use relic_core::format::Input;
    use relic_m2::wrath::{self, SiblingBytes};
    let Some(m2) = corpus_file("m2-wrath/GnomePounder.m2") else { return };
    let skins: Vec<(String, Vec<u8>)> = (0..3)
        .filter_map(|i| {
            let name = format!("GnomePounder{i:02}.skin");
            corpus_file(&format!("m2-wrath/{name}")).map(|b| (name, b))
        })
        .collect();
    let total = m2.len() + skins.iter().map(|s| s.1.len()).sum::<usize>();
    let all: Vec<u8> = m2.iter().chain(skins.iter().flat_map(|s| s.1.iter())).copied().collect();
    let siblings = SiblingBytes(skins);
    let input = Input { bytes: &m2, name: "GnomePounder.m2", siblings: &siblings };
    let parsed = wrath::read(&input).unwrap();
    let model = relic_m2::read_input(&input).unwrap().value;
    let mut g = c.benchmark_group("m2/GnomePounder-wrath");
    g.throughput(Throughput::Bytes(total as u64));
    bench_memcpy(&mut g, "GnomePounder-wrath", &all);
    g.bench_function("parse (.m2 + 3 skins)", |b| b.iter(|| wrath::read(black_box(&input)).unwrap()));
    g.bench_function("write (.m2 + 3 skins)", |b| b.iter(|| wrath::write(black_box(&parsed)).unwrap()));
    g.bench_function("read_input (parse + to_ir)", |b| b.iter(|| relic_m2::read_input(black_box(&input)).unwrap()));
    g.bench_function("write_files (from_ir + write)", |b| {
        b.iter(|| relic_m2::write_files(black_box(&model), &WriteOptions::default()).unwrap())
    });
    g.finish();
}

fn benches(c: &mut Criterion) {
    if let Some(bytes) = corpus_file("m2/GnomePounder-vanilla.m2") {
        group(c, "GnomePounder", &bytes);
    }
    wrath_group(c);
    let large = large_m2();
    eprintln!("synthetic M2: {} bytes", large.len());
    group(c, "synthetic", &large);
}

criterion_group!(m2, benches);
criterion_main!(m2);
