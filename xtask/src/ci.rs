//! `cargo xtask ci`: everything CI runs, in order, stopping at the first failure.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

fn cargo(args: &[&str]) -> Result<(), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new(&cargo);
    // Where the corpus is here, every test that needs it must find it (a wrong path or a renamed
    // file fails instead of skipping); a user's clone without it skips with a message.
    if crate::workspace_root().join(crate::CORPUS).is_dir() {
        command.env("RELIC_REQUIRE_CORPUS", "1");
    }
    let status = command
        .args(args)
        .current_dir(crate::workspace_root())
        .env("CI", "true")
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if status.success() { Ok(()) } else { Err(format!("`cargo {}` failed ({status})", args.join(" "))) }
}

fn step(name: &str, f: impl FnOnce() -> Result<(), String>) -> Result<(), String> {
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

pub fn run() -> Result<(), String> {
    step("fmt", || cargo(&["fmt", "--all", "--", "--check"]))?;
    step("clippy", || cargo(&["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"]))?;
    step("test", || cargo(&["test", "--workspace"]))?;
    step("fixtures --check", || crate::fixtures::run(true))?;
    step("bench smoke (cargo test --benches)", || cargo(&["test", "--workspace", "--benches"]))?;
    // The fuzz targets live outside the workspace (they need libFuzzer); type-checking them keeps
    // them in step with the crates. Running them is `cargo fuzz` (fuzz/README.md).
    step("fuzz targets build (cargo check)", || {
        cargo(&["check", "--locked", "--manifest-path", "fuzz/Cargo.toml", "--bins"])
    })?;
    // glTF: every sample, fixture and corpus export through the Khronos validator, then into Blender.
    let exports = crate::workspace_root().join("target/gltf-exports");
    step("gltf-validate", || crate::gltf_validator::run(Some(&exports)))?;
    step("blender-check", || crate::blender::run(&exports))?;
    let corpus = crate::workspace_root().join(crate::CORPUS);
    if corpus.is_dir() {
        step("corpus", || crate::corpus::run(&corpus))?;
    } else {
        println!(
            "==> corpus: SKIPPED, {} is absent (CI always has it; a user's clone may not)",
            Path::new(crate::CORPUS).display()
        );
    }
    println!("ci: all steps passed");
    Ok(())
}
