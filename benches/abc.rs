//! abc benchmarks (parse, write, to/from the common model) beside a memcpy baseline: the real
//! PARTNER_DANCIN.ABC (v12, 5 LODs, 13 animations) when the corpus is present, and a synthetic v12
//! file of more than 10 MB built in memory (70 000 vertices with 4 weights each in 4 pieces, 32
//! nodes with 8 animations of 60 keys).

// Benchmark set-up: a failure must stop the run loudly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use relic_benches::{bench_memcpy, corpus_file, large_abc};
use relic_core::WriteOptions;

fn group(c: &mut Criterion, name: &str, bytes: &[u8]) {
    let file = relic_abc::read(bytes).unwrap();
    let model = relic_abc::read_model(bytes).unwrap();
    let mut g = c.benchmark_group(format!("abc/{name}"));
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    bench_memcpy(&mut g, name, bytes);
    g.bench_function("parse", |b| b.iter(|| relic_abc::read(black_box(bytes)).unwrap()));
    g.bench_function("write", |b| b.iter(|| relic_abc::write(black_box(&file)).unwrap()));
    g.bench_function("read_model (parse + to_ir)", |b| b.iter(|| relic_abc::read_model(black_box(bytes)).unwrap()));
    g.bench_function("to_ir", |b| b.iter(|| relic_abc::to_ir(black_box(&file)).unwrap()));
    g.bench_function("from_ir", |b| {
        b.iter(|| relic_abc::from_ir(black_box(&model), &WriteOptions::default()).unwrap())
    });
    g.finish();
}

fn benches(c: &mut Criterion) {
    if let Some(bytes) = corpus_file("abc/PARTNER_DANCIN.ABC") {
        group(c, "PARTNER_DANCIN", &bytes);
    }
    let large = large_abc();
    eprintln!("synthetic ABC v12: {} bytes", large.len());
    group(c, "synthetic", &large);
}

criterion_group!(abc, benches);
criterion_main!(abc);
