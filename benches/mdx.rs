//! mdx benchmarks beside a memcpy baseline: the largest real model of the corpus (PackHorse.mdx,
//! Hermite-keyed, with emitters, geoset animations and a collision shape) and the Reforged
//! blob.mdx when the corpus is present, and the spec fixture of every chunk (v800_full.mdx):
//! parse, write, MDL text both ways, to and from the common model.

// Benchmark set-up: a failure must stop the run loudly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use relic_benches::{bench_memcpy, corpus_file, fixtures_dir};
use relic_core::WriteOptions;
use relic_mdx::mdl::{FloatStyle, read_mdl, write_mdl};

fn group(c: &mut Criterion, name: &str, bytes: &[u8]) {
    let file = relic_mdx::read(bytes).unwrap();
    let model = relic_mdx::read_model(bytes).unwrap();
    // Built from the model alone (no kept file): what a model edited in Blender is written by.
    let mut rebuilt = model.clone();
    rebuilt.extras = None;
    let mut g = c.benchmark_group(format!("mdx/{name}"));
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    bench_memcpy(&mut g, name, bytes);
    g.bench_function("parse", |b| b.iter(|| relic_mdx::read(black_box(bytes)).unwrap()));
    g.bench_function("write", |b| b.iter(|| relic_mdx::write(black_box(&file)).unwrap()));
    g.bench_function("read_model (parse + to_ir)", |b| b.iter(|| relic_mdx::read_model(black_box(bytes)).unwrap()));
    g.bench_function("from_ir (the model alone)", |b| {
        b.iter(|| relic_mdx::from_ir(black_box(&rebuilt), &WriteOptions::default()).unwrap())
    });
    if file.version() == 800 {
        let text = write_mdl(&file, FloatStyle::Shortest).unwrap().value;
        g.bench_function("write_mdl", |b| b.iter(|| write_mdl(black_box(&file), FloatStyle::Shortest).unwrap()));
        g.bench_function("read_mdl", |b| b.iter(|| read_mdl(black_box(&text)).unwrap()));
    }
    g.finish();
}

fn benches(c: &mut Criterion) {
    for name in ["PackHorse", "blob"] {
        if let Some(bytes) = corpus_file(&format!("mdx/{name}.mdx")) {
            group(c, name, &bytes);
        }
    }
    let fixture = std::fs::read(fixtures_dir().join("mdx/v800_full.mdx")).unwrap();
    group(c, "v800_full", &fixture);
}

criterion_group!(mdx, benches);
criterion_main!(mdx);
