//! nod benchmarks (parse, write, to/from the common model) beside a memcpy baseline.
//!
//! Inputs are built in memory: a NOD of about 13 MB (250 000 vertices in 8 groups, 64 bones,
//! two influences per vertex) written from the synthetic model, and a NAD of about 14 MB
//! (64 bones × rotation and translation tracks × 2 000 cubic keys), plus a 30-second NAD of
//! ordinary density for the mapping to the common model (rotations sampled at 30 fps).

// Benchmark set-up: a failure must stop the run loudly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use relic_benches::{bench_memcpy, mb, nad, synthetic_model};
use relic_core::{Model, WriteOptions};
use relic_nod::options::NadOptions;

/// The large synthetic NOD and its common model (read back as a NOD model, with its extras).
fn large_nod() -> (Vec<u8>, Model) {
    let bytes = relic_benches::large_nod();
    let model = relic_nod::read_model(&bytes).unwrap();
    (bytes, model)
}

fn nod_benches(c: &mut Criterion) {
    let (bytes, model) = large_nod();
    let file = relic_nod::read(&bytes).unwrap();
    let label = mb(bytes.len());

    let mut g = c.benchmark_group("nod parse");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    bench_memcpy(&mut g, &label, &bytes);
    g.bench_function(format!("read (parse + checks + layout decisions)/{label}"), |b| {
        b.iter(|| black_box(relic_nod::read(black_box(&bytes)).unwrap()))
    });
    g.bench_function(format!("read_model (parse + decisions + to_ir)/{label}"), |b| {
        b.iter(|| black_box(relic_nod::read_model(black_box(&bytes)).unwrap()))
    });
    g.finish();

    let mut g = c.benchmark_group("nod write");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    bench_memcpy(&mut g, &label, &bytes);
    g.bench_function(format!("write/{label}"), |b| b.iter(|| black_box(relic_nod::write(black_box(&file)).unwrap())));
    g.bench_function(format!("write_model (from_ir + to_bytes)/{label}"), |b| {
        b.iter(|| black_box(relic_nod::write_model(black_box(&model), &Default::default()).unwrap()))
    });
    g.finish();

    let mut g = c.benchmark_group("nod model");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function(format!("to_ir (layout decisions + mapping)/{label}"), |b| {
        b.iter(|| black_box(relic_nod::to_ir(black_box(&file)).unwrap()))
    });
    g.bench_function(format!("from_ir (with extras)/{label}"), |b| {
        b.iter(|| black_box(relic_nod::from_ir(black_box(&model), &WriteOptions::default()).unwrap()))
    });
    let foreign = synthetic_model(250_000, 8, 64, 2, 0, 0);
    g.bench_function(format!("from_ir (synthetic model, no extras)/{label}"), |b| {
        b.iter(|| black_box(relic_nod::from_ir(black_box(&foreign), &WriteOptions::default()).unwrap()))
    });
    g.finish();
}

fn nad_benches(c: &mut Criterion) {
    let big = nad(64, 2_000);
    let parsed = relic_nod::read_nad(&big).unwrap();
    let label = mb(big.len());
    let mut g = c.benchmark_group("nad parse");
    g.throughput(Throughput::Bytes(big.len() as u64));
    bench_memcpy(&mut g, &label, &big);
    g.bench_function(format!("read_nad/{label}"), |b| {
        b.iter(|| black_box(relic_nod::read_nad(black_box(&big)).unwrap()))
    });
    g.finish();

    let mut g = c.benchmark_group("nad write");
    g.throughput(Throughput::Bytes(big.len() as u64));
    bench_memcpy(&mut g, &label, &big);
    g.bench_function(format!("write_nad/{label}"), |b| {
        b.iter(|| black_box(relic_nod::write_nad(black_box(&parsed)).unwrap()))
    });
    g.finish();

    // 30 seconds of a 64-bone clip with a key every frame: 900 keys per track.
    let clip = nad(64, 900);
    let mut skeleton = synthetic_model(100, 1, 64, 1, 0, 0);
    skeleton.extras = None;
    let label = mb(clip.len());
    let mut g = c.benchmark_group("nad model");
    g.throughput(Throughput::Bytes(clip.len() as u64));
    g.bench_function(format!("read_animation (to_ir, rotations sampled at 30 fps)/{label}"), |b| {
        b.iter(|| {
            black_box(relic_nod::read_animation(&skeleton, black_box(&clip), "clip", &NadOptions::default()).unwrap())
        })
    });
    // The other way: 64 bones with a 900-key linear clip in the model (translation and rotation),
    // written as NAD. (A clip read from a NAD is not used here: its 30 fps rotation samples land
    // within float rounding of the translation keys' frames, and write_animation refuses it.)
    let mut with = synthetic_model(100, 1, 64, 1, 1, 900);
    with.extras = None;
    let written = relic_nod::write_animation(&with, 0, &NadOptions::default()).unwrap().value;
    let label = mb(written.len());
    g.throughput(Throughput::Bytes(written.len() as u64));
    g.bench_function(format!("write_animation (from_ir, rotations to Euler keys)/{label}"), |b| {
        b.iter(|| black_box(relic_nod::write_animation(black_box(&with), 0, &NadOptions::default()).unwrap()))
    });
    g.finish();
}

criterion_group!(group, nod_benches, nad_benches);
criterion_main!(group);
