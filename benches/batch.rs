//! `relic batch` throughput: a folder of models converted to `.glb` with 1 and with 2 worker
//! threads, through `relic_cli::batch::run` itself (walk, detect, read, convert, atomic write).
//!
//! The folder holds copies of the real corpus models (when ../shared/corpus is present), of every
//! valid fixture, and of synthetic ABC, M2 and NOD files of about 1–2 MB each, so that no single
//! file dominates and two threads have work to share. It lives in /dev/shm when that exists, so
//! the per-file `fsync` of the atomic writes measures the converter, not the disk. Throughput is
//! in input bytes; the scaling 1 → 2 threads is the ratio of the two medians
//! (`cargo xtask bench-report` prints it).

// Benchmark set-up: a failure must stop the run loudly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use std::path::{Path, PathBuf};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use relic::{ConvertOptions, Target};
use relic_benches::{corpus_dir, fixtures_dir, mb, synthetic_model};
use relic_cli::batch::{BatchRequest, run};
use relic_core::WriteOptions;

/// Copies every regular file of `from` (not recursing: hostile fixtures live in subfolders) whose
/// extension is one of `extensions` into `to`, prefixed with `prefix`. Returns the bytes copied.
fn copy_models(from: &Path, to: &Path, prefix: &str, extensions: &[&str]) -> u64 {
    let Ok(entries) = std::fs::read_dir(from) else { return 0 };
    let mut total = 0;
    for entry in entries {
        let path = entry.unwrap().path();
        let ext = path.extension().map(|e| e.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
        if path.is_file() && extensions.contains(&ext.as_str()) {
            let name = format!("{prefix}{}", path.file_name().unwrap().to_string_lossy());
            total += std::fs::copy(&path, to.join(name)).unwrap();
        }
    }
    total
}

/// Builds the input folder; returns the bytes of model files in it.
fn fill(input: &Path) -> u64 {
    let mut total = 0;
    for (sub, ext) in [("abc", "abc"), ("m2", "m2"), ("nod", "nod")] {
        total += copy_models(&fixtures_dir().join(sub), input, "fixture_", &[ext]);
        if let Some(corpus) = corpus_dir() {
            total += copy_models(&corpus.join(sub), input, "corpus_", &[ext]);
        }
    }
    // Synthetic files: 4 of each format, each a different shape so the work is not identical.
    for i in 0..4usize {
        let model = synthetic_model(8_000 + 1_000 * i, 8, 24 + 8 * i, 4, 4, 30);
        let files = [
            ("abc", relic_abc::write_model(&model, &WriteOptions { version: Some(12) }).unwrap().value),
            ("m2", relic_m2::write_model(&model, &WriteOptions::default()).unwrap().value),
            ("nod", relic_nod::write_model(&model, &WriteOptions::default()).unwrap().value),
        ];
        for (ext, bytes) in files {
            total += bytes.len() as u64;
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
            target: relic_cli::batch::BatchTarget::Model(Target::Glb),
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
