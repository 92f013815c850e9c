//! `cargo xtask ci`: everything CI runs, in order, stopping at the first failure. It does its own
//! set-up (the pinned glTF validator, `npm ci --prefix tools`, when it is missing), so the README's
//! two commands are all a fresh clone needs. Blender is used where it is installed; elsewhere that
//! step is skipped with one line saying how to enable it (`RELIC_REQUIRE_BLENDER=1` makes its
//! absence a failure, as CI sets it).

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use crate::blender::REQUIRE_BLENDER;

fn cargo(args: &[&str]) -> Result<(), String> {
    cargo_with(args, &[])
}

fn cargo_with(args: &[&str], env: &[(&str, &str)]) -> Result<(), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new(&cargo);
    // Under CI, and wherever the corpus is here, every test that needs it must find it (a wrong
    // path, a renamed file or a CI machine without it fails instead of skipping); a user's clone
    // without it skips with a message.
    if corpus_required() || crate::workspace_root().join(crate::CORPUS).is_dir() {
        command.env("RELIC_REQUIRE_CORPUS", "1");
    }
    command.envs(env.iter().copied());
    let status = command
        .args(args)
        .current_dir(crate::workspace_root())
        .env("CI", "true")
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if status.success() { Ok(()) } else { Err(format!("`cargo {}` failed ({status})", args.join(" "))) }
}

/// Whether this run is CI's (`CI` set, as CI services set it): the corpus is then required. The
/// same function the tests ask ([`relic_testkit::under_ci`]), so xtask and `cargo test` agree.
pub fn corpus_required() -> bool {
    relic_testkit::under_ci()
}

/// Whether step `name` runs: all do, unless `RELIC_CI_ONLY` lists the ones that do (by the
/// first word of their name: `setup`, `fmt`, `clippy`, `doc`, `test`, `fixtures`, …).
fn wanted(name: &str) -> bool {
    let Ok(only) = std::env::var(crate::fresh_clone::ONLY) else { return true };
    let first = name.split_whitespace().next().unwrap_or(name);
    only.split(',').any(|s| s.trim() == first)
}

pub fn step(name: &str, f: impl FnOnce() -> Result<(), String>) -> Result<(), String> {
    if !wanted(name) {
        println!("==> {name}: not run ({} is set)", crate::fresh_clone::ONLY);
        return Ok(());
    }
    println!("==> {name}");
    let started = Instant::now();
    let result = f();
    println!(
        "<== {name}: {} in {:.1} s",
        if result.is_ok() { "ok" } else { "FAILED" },
        started.elapsed().as_secs_f64()
    );
    result
}

/// Installs the pinned Khronos glTF-Validator (tools/package-lock.json) if it is not there.
pub fn ensure_validator() -> Result<(), String> {
    let root = crate::workspace_root();
    if root.join("tools/node_modules/gltf-validator").is_dir() {
        println!("setup: the glTF validator is installed (tools/node_modules)");
        return Ok(());
    }
    println!("setup: installing the pinned glTF validator: npm ci --prefix tools");
    let status = Command::new("npm")
        .args(["ci", "--prefix", "tools", "--no-audit", "--no-fund", "--loglevel=error"])
        .current_dir(&root)
        .status()
        .map_err(|e| format!("cannot run npm ({e}): install Node.js and npm (e.g. apt-get install nodejs npm)"))?;
    if status.success() { Ok(()) } else { Err(format!("`npm ci --prefix tools` failed ({status})")) }
}

/// Runs `f` with Blender, or prints one line saying what was skipped and how to enable it (or
/// fails, where [`REQUIRE_BLENDER`] is set).
pub fn with_blender(name: &str, f: impl FnOnce() -> Result<(), String>) -> Result<(), String> {
    if !wanted(name) {
        return step(name, f);
    }
    match crate::blender::available() {
        Ok(()) => step(name, f),
        Err(why) if std::env::var_os(REQUIRE_BLENDER).is_some() => {
            Err(format!("{name}: {why} and {REQUIRE_BLENDER} is set"))
        }
        Err(why) => {
            println!(
                "==> {name}: SKIPPED, {why} (apt-get install blender python3-numpy, then run `cargo xtask ci` again; CI installs it)"
            );
            Ok(())
        }
    }
}

pub fn run() -> Result<(), String> {
    let corpus = crate::workspace_root().join(crate::CORPUS);
    if !corpus.is_dir() && corpus_required() {
        return Err(format!(
            "{} is absent and CI is set: CI must run the corpus checks (a user's clone without it runs \
             `cargo xtask ci` without CI set, and the corpus steps are skipped with a line saying so)",
            Path::new(crate::CORPUS).display()
        ));
    }
    step("setup (glTF validator)", ensure_validator)?;
    step("fmt", || cargo(&["fmt", "--all", "--", "--check"]))?;
    step("circles (no module uses one that uses it back)", crate::circles::run)?;
    step("clippy", || cargo(&["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"]))?;
    step("features (the relic facade with each format alone)", crate::features::run)?;
    step("doc (cargo doc -D warnings)", || {
        cargo_with(&["doc", "--workspace", "--no-deps", "--quiet"], &[("RUSTDOCFLAGS", "-D warnings")])
    })?;
    step("test", || cargo(&["test", "--workspace"]))?;
    // The Python module: its wheel, its pytest suite in a new virtual environment, and its import
    // in both Blenders.
    step("python (cargo xtask python: wheel, pytest, Blender imports)", crate::python::test)?;
    // The Blender add-on: both zips installed as a user does in Blender 3.4 and bpy 5, every
    // corpus model imported and exported byte for byte, edits, hostile files.
    with_blender("blender-addon (cargo xtask blender-addon --test)", crate::blender_addon::test)?;
    step("fixtures --check", || crate::fixtures::run(true))?;
    step("public API unchanged (docs/public-api)", || crate::public_api::run(true))?;
    // The benches once each, then the conversions timed against copying the same bytes.
    step("bench smoke (cargo test --benches) and conversion guard (cargo xtask perf --check)", || {
        cargo(&["test", "--workspace", "--benches"])?;
        crate::perf::guard()
    })?;
    // The fuzz targets live outside the workspace (they need libFuzzer); type-checking them keeps
    // them in step with the crates. Running them is `cargo fuzz` (fuzz/README.md).
    step("fuzz targets build (cargo check)", || {
        cargo(&["check", "--locked", "--manifest-path", "fuzz/Cargo.toml", "--bins"])
    })?;
    // glTF: every sample, fixture and corpus export through the Khronos validator, then into Blender.
    let exports = crate::workspace_root().join("target/gltf-exports");
    step("gltf-validate", || crate::gltf_validator::run(Some(&exports)))?;
    with_blender("blender-check", || crate::blender::run(&exports))?;
    if corpus.is_dir() || !wanted("corpus") {
        step("corpus", || crate::corpus::run(&corpus))?;
        // Every corpus model through Blender and back, with and without Custom Properties.
        with_blender("blender-roundtrip", || {
            crate::blender_roundtrip::run(Some(&corpus))?;
            // Every channel Blender baked, reduced by the certified spans and the literal check.
            let test = ["test", "-p", "relic-gltf", "--lib", "keys::tests::every_blender", "--", "--ignored"];
            cargo_with(&test, &[("RELIC_REQUIRE_BLENDER_ROUNDTRIP", "1")])
        })?;
    } else {
        println!(
            "==> corpus: SKIPPED, {} is absent (CI always has it; a user's clone may not)",
            Path::new(crate::CORPUS).display()
        );
    }
    step("fresh clone (README commands, quick)", || crate::fresh_clone::run(false))?;
    println!("ci: all steps passed");
    Ok(())
}
