//! The CLI's memory budget (issue 42): `relic info` and `relic convert` of any input hold at most
//! 16 × its size + [`FIXED`] bytes of heap at once. Every hostile fixture of every format (the
//! fuzz findings among them) goes through both commands' library entry points (`info::run`,
//! `convert::run`, as `main` calls them) under the counting allocator, each alone in a folder
//! (the commands read the files beside an input: textures, `.skin`, `.anim`); the valid fixtures
//! measure what the fixed amount is made of.

// Test code: a failed unwrap or index is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::path::{Path, PathBuf};

use clap::Parser;
use relic_cli::cli::{Cli, Command};
use relic_testkit::{CountingAllocator, counting_installed, peak_allocation};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// The fixed part of the budget: what the commands hold whatever the input (the registry, the
/// command line, the glTF document and the buffers of a small export, the PNG encoder's tables).
/// Measured (these tests print the largest overhead over 16 × input they see): 342 KiB for
/// `relic convert v5_dxt1.dtx out.png`, 133 KiB for the hostile fixtures (a fuzz-found .glb
/// converted to .m2); the bound is the readers' own, 1 MiB.
const FIXED: usize = 1 << 20;

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures")
}

fn run(args: &[&str]) {
    let cli = Cli::try_parse_from(args).unwrap_or_else(|e| panic!("{args:?}: {e}"));
    let _ = match cli.command {
        Command::Info { files, json, .. } => relic_cli::info::run(&files, json),
        Command::Convert(a) => relic_cli::convert::run(&a),
        other => panic!("not measured: {other:?}"),
    };
}

/// The outputs an input is converted to.
fn outputs(name: &str) -> Vec<&'static str> {
    let ext = Path::new(name).extension().and_then(|e| e.to_str()).unwrap_or_default().to_ascii_lowercase();
    match ext.as_str() {
        "blp" | "dtx" => vec!["out.png"],
        "glb" | "gltf" => vec!["out.m2", "out.abc", "out.nod"],
        _ => vec!["out.glb"],
    }
}

/// Peak heap bytes above 16 × `size` of `relic info` and of each `relic convert` of `input`
/// (the files in `dir`).
fn overheads(dir: &Path, input: &str, size: usize) -> Vec<(String, isize)> {
    overheads_to(dir, input, size, dir, &[])
}

/// [`overheads`] of `dir/input` with the outputs written into `out`, `extra` arguments to convert.
fn overheads_to(dir: &Path, input: &str, size: usize, out_dir: &Path, extra: &[&str]) -> Vec<(String, isize)> {
    let path = dir.join(input);
    let path = path.to_str().unwrap();
    let mut out = Vec::new();
    let ((), peak) = peak_allocation(|| run(&["relic", "info", path]));
    out.push(("info".to_string(), peak as isize - (16 * size) as isize));
    for output in outputs(input) {
        let to = out_dir.join(output);
        let _ = std::fs::remove_file(&to);
        let args: Vec<&str> =
            ["relic", "convert", path, to.to_str().unwrap()].into_iter().chain(extra.iter().copied()).collect();
        let ((), peak) = peak_allocation(|| run(&args));
        out.push((format!("convert to {output}"), peak as isize - (16 * size) as isize));
    }
    out
}

/// Files of one input, written into its folder: `(file name, bytes)`, the input first.
type Files = Vec<(String, Vec<u8>)>;

/// `(name, files)`: every file under `fixtures/` whose path has `hostile` (or not),
/// each alone; a `.skin` found by fuzzing beside the model it was found with.
fn inputs(hostile: bool) -> Vec<(String, Files)> {
    let root = fixtures_dir();
    let mut out = Vec::new();
    for entry in walk(&root) {
        let rel = entry.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/");
        if rel.contains("/hostile/") != hostile || rel == "README.md" {
            continue;
        }
        let name = entry.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&entry).unwrap();
        let mut files = vec![(name.clone(), bytes.clone())];
        if name.starts_with("fuzz_skin_") {
            // Read as the m2_skin target reads it: as the first view of v264_skins.m2.
            let m2 = std::fs::read(root.join("m2-wrath/v264_skins.m2")).unwrap();
            files = vec![("v264_skins.m2".into(), m2), ("v264_skins00.skin".into(), bytes)];
        }
        out.push((rel, files));
    }
    out
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() { stack.push(p) } else { out.push(p) }
        }
    }
    out.sort();
    out
}

/// Runs every input through the commands; returns the failures over [`FIXED`] and the largest
/// overhead seen.
fn measure(hostile: bool) -> (Vec<String>, isize, String) {
    assert!(counting_installed());
    let mut failures = Vec::new();
    let (mut largest, mut at) = (0isize, String::new());
    for (rel, files) in inputs(hostile) {
        let dir = tempfile::tempdir().unwrap();
        for (name, bytes) in &files {
            std::fs::write(dir.path().join(name), bytes).unwrap();
        }
        // The input is the first file; its size is every file given (a model and its .skin).
        let size: usize = files.iter().map(|(_, b)| b.len()).sum();
        for (what, overhead) in overheads(dir.path(), &files[0].0, size) {
            if overhead > largest {
                (largest, at) = (overhead, format!("{rel}: {what}"));
            }
            if overhead > FIXED as isize {
                failures.push(format!("{rel} ({size} bytes): {what} held {overhead} bytes over 16 × its size"));
            }
        }
    }
    (failures, largest, at)
}

#[test]
fn hostile_fixtures_of_every_format_stay_within_the_budget() {
    let (failures, largest, at) = measure(true);
    println!("hostile fixtures: largest overhead over 16 × input: {largest} bytes ({at})");
    assert!(failures.is_empty(), "over 16 × input + {FIXED}:\n{}", failures.join("\n"));
}

/// The valid fixtures through the same commands: what the fixed amount is (printed), within the
/// same bound (they are small: every conversion of one of them is mostly fixed cost).
#[test]
fn the_fixed_amount_is_measured() {
    let (failures, largest, at) = measure(false);
    println!("valid fixtures: largest overhead over 16 × input: {largest} bytes ({at})");
    assert!(failures.is_empty(), "over 16 × input + {FIXED}:\n{}", failures.join("\n"));
}

/// The payload a CrossFire LTB or DTX states in its LZMA header (ltb.md §2: byte 0 > 20, then the
/// dictionary size and the `u64` payload size), 0 for another file: the reader holds the payload,
/// and the budget counts it as input, as the fuzz targets do (the header's size is checked
/// against 64 × the stream before anything is allocated).
fn wrapped_payload(bytes: &[u8], ext: &str) -> usize {
    match (ext, bytes.first(), bytes.get(5..13)) {
        ("ltb" | "dtx", Some(&b), Some(size)) if b > 20 => u64::from_le_bytes(size.try_into().unwrap()) as usize,
        _ => 0,
    }
}

/// The real files (with the corpus): each model and texture where it lies, its `.skin` and `.anim`
/// files (the files named after it) and a wrapped file's LZMA payload counted as input; models
/// converted `--no-textures` (a texture beside a model is an input of its own, measured as one
/// here).
#[test]
fn real_files_stay_within_the_budget() {
    let Some(corpus) = relic_testkit::corpus_dir("the CLI's memory budget on real files") else { return };
    let out = tempfile::tempdir().unwrap();
    let (mut failures, mut largest, mut at) = (Vec::new(), 0isize, String::new());
    for sub in ["abc", "ltb", "m2", "m2-wrath", "blp", "dtx"] {
        let dir = corpus.join(sub);
        let mut names: Vec<String> =
            std::fs::read_dir(&dir).unwrap().filter_map(|e| e.ok()?.file_name().into_string().ok()).collect();
        names.sort();
        for name in &names {
            let lower = name.to_ascii_lowercase();
            let ext = lower.rsplit('.').next().unwrap_or_default();
            if !["abc", "ltb", "m2", "blp", "dtx"].contains(&ext) {
                continue;
            }
            let stem = lower.trim_end_matches(&format!(".{ext}")).to_string();
            let size: usize = names
                .iter()
                .filter(|n| {
                    *n == name || (ext == "m2" && n.to_ascii_lowercase().starts_with(&stem) && !n.ends_with(".m2"))
                })
                .map(|n| std::fs::metadata(dir.join(n)).map_or(0, |m| m.len() as usize))
                .sum();
            let size = size + wrapped_payload(&std::fs::read(dir.join(name)).unwrap(), ext);
            let extra: &[&str] = if ext == "blp" || ext == "dtx" { &[] } else { &["--no-textures"] };
            for (what, overhead) in overheads_to(&dir, name, size, out.path(), extra) {
                if overhead > largest {
                    (largest, at) = (overhead, format!("{sub}/{name}: {what}"));
                }
                if overhead > FIXED as isize {
                    failures
                        .push(format!("{sub}/{name} ({size} bytes): {what} held {overhead} bytes over 16 × its size"));
                }
            }
        }
    }
    println!("real files: largest overhead over 16 × input: {largest} bytes ({at})");
    assert!(failures.is_empty(), "over 16 × input + {FIXED}:\n{}", failures.join("\n"));
}
