//! Peak heap memory of reading a model, per format: the real corpus files (when present) and the
//! large synthetic files, through the format parser alone and through `read_model` (parse + the
//! mapping to the common model).
//!
//! A counting global allocator ([`relic_testkit::CountingAllocator`]) tracks the bytes this
//! thread holds; the figure is the peak held during the call above what was held before it (the
//! input bytes themselves are the caller's and are not counted). The budget of issue 9 is 3× the
//! file size plus 1 MiB: a row over it fails the run, in `cargo bench` and in CI's
//! `cargo test --benches` alike (this is a size, not a timing, so it is the same on any machine).
//!
//! The figures are printed and written as JSON to `<target>/criterion/relic-memory.json`, where
//! `cargo xtask bench-report` reads them.

// Benchmark set-up: a failure must stop the run loudly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use std::hint::black_box;
use std::path::PathBuf;

use relic_benches::{corpus_file, large_abc, large_m2, large_nod, nad};
use relic_testkit::{CountingAllocator, counting_installed, peak_allocation};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// The budget: 3× the file plus this constant.
const CONSTANT: usize = 1 << 20;

type Reader = fn(&[u8]);

/// One measured row.
struct Row {
    name: String,
    file_bytes: usize,
    peak_bytes: usize,
}

impl Row {
    fn budget(&self) -> usize {
        3 * self.file_bytes + CONSTANT
    }
    fn ok(&self) -> bool {
        self.peak_bytes <= self.budget()
    }
}

fn measure(rows: &mut Vec<Row>, file: &str, bytes: &[u8], readers: &[(&str, Reader)]) {
    for (what, read) in readers {
        // Once to warm up lazily allocated statics (none are expected), then measured.
        read(bytes);
        let ((), peak) = peak_allocation(|| read(black_box(bytes)));
        rows.push(Row { name: format!("{file} {what}"), file_bytes: bytes.len(), peak_bytes: peak });
    }
}

fn abc_readers() -> [(&'static str, Reader); 2] {
    [
        ("parse", |b| drop(black_box(relic_abc::read(b).unwrap()))),
        ("read_model", |b| drop(black_box(relic_abc::read_model(b).unwrap()))),
    ]
}

fn m2_readers() -> [(&'static str, Reader); 2] {
    [
        ("read", |b| drop(black_box(relic_m2::read(b).unwrap()))),
        ("read_model", |b| drop(black_box(relic_m2::read_model(b).unwrap()))),
    ]
}

fn nod_readers() -> [(&'static str, Reader); 2] {
    [
        ("read (parse + checks + layout decisions)", |b| drop(black_box(relic_nod::read(b).unwrap()))),
        ("read_model", |b| drop(black_box(relic_nod::read_model(b).unwrap()))),
    ]
}

/// `<target>/criterion`: the bench executable is `<target>/<profile>/deps/memory-<hash>`.
fn output_dir() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    Some(exe.parent()?.parent()?.parent()?.join("criterion"))
}

fn json(rows: &[Row]) -> String {
    let items: Vec<String> = rows
        .iter()
        .map(|r| {
            format!(
                "{{\"name\":\"{}\",\"file_bytes\":{},\"peak_bytes\":{},\"budget_bytes\":{}}}",
                r.name,
                r.file_bytes,
                r.peak_bytes,
                r.budget()
            )
        })
        .collect();
    format!("[\n  {}\n]\n", items.join(",\n  "))
}

fn main() {
    assert!(counting_installed(), "the counting allocator is not the global allocator");
    let mut rows = Vec::new();
    if let Some(bytes) = corpus_file("abc/PARTNER_DANCIN.ABC") {
        measure(&mut rows, "abc PARTNER_DANCIN", &bytes, &abc_readers());
    }
    measure(&mut rows, "abc synthetic", &large_abc(), &abc_readers());
    if let Some(bytes) = corpus_file("m2/GnomePounder-vanilla.m2") {
        measure(&mut rows, "m2 GnomePounder", &bytes, &m2_readers());
    }
    measure(&mut rows, "m2 synthetic", &large_m2(), &m2_readers());
    measure(&mut rows, "nod synthetic", &large_nod(), &nod_readers());
    let nad_readers: [(&str, Reader); 1] = [("read_nad", |b| drop(black_box(relic_nod::read_nad(b).unwrap())))];
    measure(&mut rows, "nad synthetic", &nad(64, 2_000), &nad_readers);

    println!("{:<36} {:>12} {:>12} {:>8}  budget (3x file + 1 MiB)", "memory", "file", "peak heap", "x file");
    for r in &rows {
        println!(
            "{:<36} {:>12} {:>12} {:>8.2}  {}",
            r.name,
            r.file_bytes,
            r.peak_bytes,
            r.peak_bytes as f64 / r.file_bytes as f64,
            if r.ok() { "ok" } else { "OVER" }
        );
    }
    if let Some(dir) = output_dir() {
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("relic-memory.json"), json(&rows)).unwrap();
    }
    let over: Vec<&str> = rows.iter().filter(|r| !r.ok()).map(|r| r.name.as_str()).collect();
    assert!(over.is_empty(), "over the memory budget: {over:?}");
}
