//! m2 benchmarks (parse, write, to/from the common model) beside a memcpy baseline: the real 1.12
//! file, the Wrath GnomePounder and a chunked (MD21) model with the files beside them when the
//! corpus is present, the MD21 fixture with its `.skel`, `.anim` and `.bone`, and a synthetic file of more than 10 MB built in memory
//! (10 000 vertices in four views, 120 bones with 400 linear keys per channel in 8 sequences).

// Benchmark set-up: a failure must stop the run loudly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use relic_benches::{bench_memcpy, corpus_dir, corpus_file, fixtures_dir, large_m2};
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

/// The files beside a model in `dir` (its `.skin`, `.anim`, `.skel` and `.bone` files, every
/// file of the folder whose name starts with its stem or is a `.skel`), by name.
fn beside(dir: &std::path::Path, stem: &str) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| {
            let lower = n.to_ascii_lowercase();
            let ours = lower.starts_with(&stem.to_ascii_lowercase()) || lower.ends_with(".skel");
            ours && [".skin", ".anim", ".skel", ".bone"].iter().any(|x| lower.ends_with(x))
        })
        .map(|n| (n.clone(), std::fs::read(dir.join(&n)).unwrap()))
        .collect();
    files.sort();
    files
}

/// A model read with the files beside it (`wrath::read` for 264–272, `md21::read` for a chunked
/// model), beside memcpy of all its files: throughput counts the `.m2` and every file beside it.
fn beside_group(c: &mut Criterion, label: &str, path: &std::path::Path) {
    use relic_core::format::Input;
    use relic_m2::wrath::SiblingBytes;
    let m2 = std::fs::read(path).unwrap();
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let stem = name.trim_end_matches(".m2");
    let siblings = SiblingBytes(beside(path.parent().unwrap(), stem));
    let count = siblings.0.len();
    let all: Vec<u8> = m2.iter().chain(siblings.0.iter().flat_map(|s| s.1.iter())).copied().collect();
    let input = Input { bytes: &m2, name: &name, siblings: &siblings };
    let model = relic_m2::read_input(&input).unwrap().value;
    let mut g = c.benchmark_group(format!("m2/{label}"));
    g.throughput(Throughput::Bytes(all.len() as u64));
    bench_memcpy(&mut g, label, &all);
    if m2.starts_with(b"MD21") {
        use relic_m2::md21;
        let parsed = md21::read(&input).unwrap();
        g.bench_function(format!("parse (.m2 + {count} beside)"), |b| {
            b.iter(|| md21::read(black_box(&input)).unwrap())
        });
        g.bench_function(format!("write (.m2 + {count} beside)"), |b| {
            b.iter(|| md21::write(black_box(&parsed)).unwrap())
        });
    } else {
        use relic_m2::wrath;
        let parsed = wrath::read(&input).unwrap();
        g.bench_function(format!("parse (.m2 + {count} beside)"), |b| {
            b.iter(|| wrath::read(black_box(&input)).unwrap())
        });
        g.bench_function(format!("write (.m2 + {count} beside)"), |b| {
            b.iter(|| wrath::write(black_box(&parsed)).unwrap())
        });
    }
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
    if let Some(corpus) = corpus_dir() {
        beside_group(c, "GnomePounder-wrath", &corpus.join("m2-wrath/GnomePounder.m2"));
        beside_group(c, "manafiend_holy-md21", &corpus.join("m2-md21/manafiend_holy/manafiend_holy.m2"));
    }
    beside_group(c, "v274_skeletal-md21", &fixtures_dir().join("m2-md21/v274_skeletal.m2"));
    let large = large_m2();
    eprintln!("synthetic M2: {} bytes", large.len());
    group(c, "synthetic", &large);
}

criterion_group!(m2, benches);
criterion_main!(m2);
