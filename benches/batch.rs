//! `relic batch` throughput: a folder of models converted to `.glb` with 1 and with 2 worker
//! threads, through `relic_cli::batch::run` itself (walk, detect, read, convert, atomic write).
//!
//! The folder holds copies of the real corpus models (when ../shared/corpus is present), of every
//! valid fixture, and of synthetic ABC, M2 and NOD files of about 1–2 MB each, so that no single
//! file dominates and two threads have work to share. It lives in /dev/shm when that exists, so
//! that the atomic writes measure the converter, not the disk. Throughput is
//! in input bytes; the scaling 1 → 2 threads is the ratio of the two medians
//! (`cargo xtask bench-report` prints it).

// Benchmark set-up: a failure must stop the run loudly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use std::path::{Path, PathBuf};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use relic::{ConvertOptions, FormatEntry, Target};
use relic_benches::{corpus_dir, fixtures_dir, mb, synthetic_model};
use relic_cli::batch::{BatchRequest, run};
use relic_core::WriteOptions;
use relic_core::format::Output;

/// Copies every regular file of `from` (not recursing: hostile fixtures live in subfolders) that
/// the registry reads as a model of `entry` into `to`, prefixed with `prefix`. Returns the bytes
/// copied.
fn copy_models(from: &Path, to: &Path, prefix: &str, entry: &FormatEntry) -> u64 {
    let Ok(entries) = std::fs::read_dir(from) else { return 0 };
    let mut total = 0;
    for dir_entry in entries {
        let path = dir_entry.unwrap().path();
        let ext = path.extension().map(|e| e.to_string_lossy().into_owned()).unwrap_or_default();
        let model = || relic::detect(&std::fs::read(&path).unwrap()).is_some_and(|k| k.is_model());
        if path.is_file() && entry.has_extension(&ext) && model() {
            let name = format!("{prefix}{}", path.file_name().unwrap().to_string_lossy());
            total += std::fs::copy(&path, to.join(name)).unwrap();
        }
    }
    total
}

/// The game formats of the registry (the models a batch converts to `.glb`).
fn game_formats() -> Vec<&'static FormatEntry> {
    relic::Registry::builtin().models().filter(|f| f.model.is_some_and(|m| m.records_original)).collect()
}

/// Builds the input folder; returns the bytes of model files in it.
fn fill(input: &Path) -> u64 {
    let mut total = 0;
    for entry in game_formats() {
        total += copy_models(&fixtures_dir().join(entry.name), input, "fixture_", entry);
        if let Some(corpus) = corpus_dir() {
            total += copy_models(&corpus.join(entry.name), input, "corpus_", entry);
        }
    }
    // Synthetic files: 4 of each format (its default version), each a different shape so the work
    // is not identical.
    for i in 0..4usize {
        let model = synthetic_model(8_000 + 1_000 * i, 8, 24 + 8 * i, 4, 4, 30);
        // A format whose common model is not yet written (MDX, issue 41) gets no synthetic files.
        for entry in game_formats().into_iter().filter(|e| !e.versions.write.is_empty()) {
            let write = entry.model.unwrap().write;
            let bytes = write(&model, &WriteOptions::default(), &Output::default()).unwrap().value.bytes;
            total += bytes.len() as u64;
            let ext = entry.name;
            std::fs::write(input.join(format!("synthetic_{i}_{ext}.{ext}")), bytes).unwrap();
        }
    }
    total
}

fn scratch_root() -> PathBuf {
    let shm = Path::new("/dev/shm");
    if shm.is_dir() { shm.to_path_buf() } else { std::env::temp_dir() }
}

fn batch(c: &mut Criterion) {
    let scratch = tempfile::Builder::new().prefix("relic-bench-batch").tempdir_in(scratch_root()).unwrap();
    let input = scratch.path().join("in");
    std::fs::create_dir_all(&input).unwrap();
    let bytes = fill(&input);
    let files = std::fs::read_dir(&input).unwrap().count();
    let label = format!("{files} models, {}", mb(bytes as usize));
    eprintln!("batch input: {label} in {}", input.display());

    let mut g = c.benchmark_group("batch");
    g.throughput(Throughput::Bytes(bytes));
    g.sample_size(10);
    for jobs in [1usize, 2] {
        let request = BatchRequest {
            input_dir: input.clone(),
            output_dir: scratch.path().join(format!("out{jobs}")),
            target: relic_cli::batch::BatchTarget::Model(Target::from_name("glb").unwrap()),
            jobs,
            force: true,
            options: ConvertOptions::default(),
            textures: Default::default(),
            texture_options: Default::default(),
            no_textures: false,
            progress: false,
            json: false,
        };
        g.bench_function(format!("to glb, {jobs} thread{}/{label}", if jobs == 1 { "" } else { "s" }), |b| {
            b.iter(|| {
                let summary = run(&request).unwrap();
                assert_eq!(summary.failed, 0, "{summary}");
                summary.converted
            })
        });
    }
    g.finish();
}

criterion_group!(group, batch);
criterion_main!(group);
