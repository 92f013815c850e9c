//! ltb benchmarks (parse, write, to/from the common model, the LZMA wrapper) beside a memcpy
//! baseline: the real PV-M82A1_S_BornBeast.LTB (1.08 MB payload: 12 pieces, 7 uncompressed
//! animations) when the corpus is present, unwrapped and wrapped, and a synthetic file of more than
//! 10 MB (the synthetic ABC of `abc.rs` written as LTB: 70 000 vertices in bone sets, 8 animations).

// Benchmark set-up: a failure must stop the run loudly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use relic_benches::{bench_memcpy, corpus_file, large_abc};
use relic_core::WriteOptions;

fn group(c: &mut Criterion, name: &str, bytes: &[u8]) {
    let file = relic_ltb::read(bytes).unwrap();
    let model = relic_ltb::read_model(bytes).unwrap();
    let mut g = c.benchmark_group(format!("ltb/{name}"));
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    bench_memcpy(&mut g, name, bytes);
    g.bench_function("parse", |b| b.iter(|| relic_ltb::read(black_box(bytes)).unwrap()));
    g.bench_function("write", |b| b.iter(|| relic_ltb::write(black_box(&file)).unwrap()));
    g.bench_function("read_model (parse + to_ir)", |b| b.iter(|| relic_ltb::read_model(black_box(bytes)).unwrap()));
    g.bench_function("to_ir", |b| b.iter(|| relic_ltb::to_ir(black_box(&file)).unwrap()));
    let mut plain = model.clone();
    plain.extras = None;
    g.bench_function("from_ir (from the model alone)", |b| {
        b.iter(|| relic_ltb::from_ir(black_box(&plain), &WriteOptions::default()).unwrap())
    });
    g.finish();
}

/// The LZMA wrapper: decoding a CrossFire stream (throughput in payload bytes) and compressing a
/// changed payload anew.
fn lzma(c: &mut Criterion, name: &str, wrapped: &[u8]) {
    let limits = relic_lithtech::lzma::Limits::default();
    let (payload, _) = relic_lithtech::lzma::unwrap(wrapped, &limits).unwrap();
    let mut g = c.benchmark_group(format!("ltb/{name}"));
    g.throughput(Throughput::Bytes(payload.len() as u64));
    g.sample_size(10);
    g.bench_function("lzma unwrap", |b| b.iter(|| relic_lithtech::lzma::unwrap(black_box(wrapped), &limits).unwrap()));
    g.bench_function("lzma wrap (a changed payload)", |b| {
        b.iter(|| relic_lithtech::lzma::wrap(black_box(&payload), None).unwrap())
    });
    g.bench_function("read (unwrap + parse)", |b| b.iter(|| relic_ltb::read(black_box(wrapped)).unwrap()));
    g.finish();
}

fn benches(c: &mut Criterion) {
    if let Some(wrapped) = corpus_file("ltb/PV-M82A1_S_BornBeast.LTB") {
        let mut file = relic_ltb::read(&wrapped).unwrap();
        file.wrapper = None;
        let payload = relic_ltb::write(&file).unwrap();
        group(c, "PV-M82A1 (unwrapped)", &payload);
        lzma(c, "PV-M82A1 (wrapped)", &wrapped);
    }
    let model = relic_abc::read_model(&large_abc()).unwrap();
    let large = relic_ltb::write_model(&model, &WriteOptions::default()).unwrap().value;
    eprintln!("synthetic LTB: {} bytes", large.len());
    group(c, "synthetic", &large);
}

criterion_group!(ltb, benches);
criterion_main!(ltb);
