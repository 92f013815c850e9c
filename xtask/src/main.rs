//! Project automation for relic, run as `cargo xtask <command>`:
//!
//! * `fixtures [--check]`: (re)generate `fixtures/`, or fail if it is stale.
//! * `circles`: fail on any module circle in any crate (see `circles.rs`).
//! * `features`: the `relic` facade with each format feature alone, without a warning.
//! * `corpus DIR`: run every check on every model file under DIR.
//! * `gltf-validate [OUT]`: export samples, fixtures and corpus files to glTF and run the Khronos validator.
//! * `blender-check DIR`: import every glTF under DIR into Blender and compare counts.
//! * `bench-report [--no-run] [--update FILE] [-- ARGS]`: run the benches, print one table of
//!   medians, throughputs, ratios to memcpy and targets (see `bench_report.rs`).
//! * `perf [--before BIN] [--runs N] [--check] [--update-baseline]`: conversions as whole processes
//!   against copying the same bytes, and the CI guard (see `perf/mod.rs`).
//! * `public-api [--check]`: the public API listings in `docs/public-api/`.
//! * `sweep DIR...`: what a user does, over every file of whole game trees.
//! * `man [OUT]`: the man page and shell completions of `relic`.
//! * `fresh-clone [--full]`: the README's two commands on a fresh clone.
//! * `render [MODEL [OUT]]`: a picture of a textured export as Blender shows it (the README's).
//! * `fuzz --minutes N [TARGET…]`: fuzz campaigns (installs cargo-fuzz, seeds, builds, runs each
//!   target N minutes at the lowest priority, prints per target what it found; see `fuzz.rs`).
//! * `ci`: everything CI runs (set-up, fmt, module circles, clippy, one format per feature, doc,
//!   tests, fixtures --check, public API, bench smoke and conversion guard, glTF validation, Blender, corpus, fresh clone).

// A binary: `pub` marks what sibling modules use, not an API.
#![allow(unreachable_pub)]
// xtask indexes and unwraps only data it builds itself (fixture generators); a panic there is a
// generator bug and should be loud. File data goes through the format crates, which never panic.
#![allow(clippy::indexing_slicing, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod bench_report;
mod blender;
mod blender_addon;
mod blender_roundtrip;
mod ci;
mod circles;
mod corpus;
mod corpus_pairs;
mod features;
mod fixtures;
mod fresh_clone;
mod fuzz;
mod games;
mod gltf_validator;
mod known;
mod ltb_probe;
mod man;
mod perf;
mod public_api;
mod python;
mod render;
mod sweep;
mod textured;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

const USAGE: &str = "usage: cargo xtask <command>

commands:
  fixtures [--check]   generate fixtures/ (--check: fail if the checked-in files are stale)
  circles              fail if two modules of a crate use each other (directly or in a loop)
  features             build the relic facade with each format feature alone (and none)
  corpus DIR           run every check on every model under DIR (e.g. ../shared/corpus)
  gltf-validate [OUT]  export samples, fixtures and corpus models to glTF under OUT (default
                       target/gltf-exports) and validate each with the Khronos glTF-Validator
  blender-check DIR    import every .glb/.gltf under DIR into Blender and check its counts
  blender-roundtrip [DIR]
                       every model under DIR (default ../shared/corpus) through Blender and
                       back (with and without Custom Properties), compared with the original
  bench-report [--no-run] [--update FILE] [-- CRITERION-ARGS]
                       run the benches (unless --no-run) and print one table: median,
                       throughput, ratio to memcpy, target, met; --update replaces the table in
                       FILE (docs/PERFORMANCE.md)
  perf [--before BIN] [--after BIN] [--corpus DIR] [--runs N] [--check] [--update-baseline]
                       time `relic batch` of the corpus to glb against `cp -r` of its outputs and
                       `relic convert` of each model against a copy of its bytes, as whole
                       processes (this checkout's release build; BIN: another, e.g. an older one);
                       --check: fail past 2× benches/perf-baseline.txt (the CI guard)
  public-api [--check]  list every library crate's public items in docs/public-api/
                       (--check: fail if a listing is stale)
  sweep DIR...         what a user does (info, open, convert to glb + validator, textures to
                       PNG, same-format write byte for byte) over every file of whole trees;
                       per tree `N files, F failed (by check)` and the failures by message
  wheel                build the Python module into target/wheels (abi3, manylinux2014; maturin
                       and zig from PyPI into target/python/build)
  blender-addon [--test | --wheel FILE --platform NAME]
                       the Blender add-on (blender/relic_blender) with the wheel: a 4.2+ extension
                       zip and a legacy add-on zip (3.4–4.1) in target/dist; --test installs each
                       in Blender 3.4 and bpy 5 and tries every corpus model, edits, hostile files;
                       --wheel packages a wheel built elsewhere for another platform
  python               the wheel, installed in a new virtual environment: the pytest suite
                       (crates/relic-py/tests), then imported in Blender 3.4 and in bpy 5
  man [OUT]            write the man page and shell completions of `relic` to OUT
                       (default target/dist)
  fresh-clone [--full] clone this repository into a temporary folder and run the README's
                       two commands there (default: quick; --full runs `cargo xtask ci` too)
  render [MODEL [OUT]]  a picture of MODEL's glTF export (textured) as Blender shows it, rendered
                       headless with Eevee (default: the README's PARTNER_DANCIN picture,
                       docs/images/partner_dancin.png)
  fuzz --minutes N [TARGET…]
                       install cargo-fuzz where missing, seed fuzz/corpus from the fixtures and
                       the corpus, build the targets (stable, RUSTC_BOOTSTRAP=1) and run each
                       (default: all) N minutes under nice -n 19, one at a time; per target:
                       duration, executions, crashes (budget breaches), timeouts, ooms
  ci                   everything CI runs";

/// The real game files, next to the checkout. Never copied into the repository.
pub const CORPUS: &str = "../shared/corpus";

/// The workspace root (the parent of `xtask/`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map(Path::to_path_buf).unwrap_or_default()
}

/// Every file under `dir`, recursively, sorted.
pub fn walk(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d).map_err(|e| format!("{}: {e}", d.display()))?;
        for entry in entries {
            let path = entry.map_err(|e| format!("{}: {e}", d.display()))?.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let result = match args.as_slice() {
        ["fixtures"] => fixtures::run(false),
        ["fixtures", "--check"] => fixtures::run(true),
        ["circles"] => circles::run(),
        ["features"] => features::run(),
        ["corpus", dir] => corpus::run(Path::new(dir)),
        ["gltf-validate"] => gltf_validator::run(None),
        ["gltf-validate", out] => gltf_validator::run(Some(Path::new(out))),
        ["blender-check", dir] => blender::run(Path::new(dir)),
        ["blender-roundtrip"] => blender_roundtrip::run(None),
        ["blender-roundtrip", dir] => blender_roundtrip::run(Some(Path::new(dir))),
        ["bench-report", rest @ ..] => bench_report::run(rest),
        ["perf", rest @ ..] => perf::run(rest),
        ["public-api"] => public_api::run(false),
        ["public-api", "--check"] => public_api::run(true),
        ["sweep", dirs @ ..] => sweep::run(&dirs.iter().map(Path::new).collect::<Vec<_>>()),
        ["wheel"] => python::wheel().map(|_| ()),
        ["python"] => python::test(),
        ["blender-addon", rest @ ..] => blender_addon::command(rest),
        ["man"] => man::run(None),
        ["man", out] => man::run(Some(Path::new(out))),
        ["fresh-clone"] => fresh_clone::run(false),
        ["fresh-clone", "--full"] => fresh_clone::run(true),
        ["render"] => render::run(None, None),
        ["render", model] => render::run(Some(Path::new(model)), None),
        ["render", model, out] => render::run(Some(Path::new(model)), Some(Path::new(out))),
        ["fuzz", rest @ ..] => fuzz::run(rest),
        ["ci"] => ci::run(),
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
