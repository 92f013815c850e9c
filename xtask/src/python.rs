//! The Python module: `cargo xtask wheel` builds it into one wheel for every CPython from 3.9
//! (abi3) tagged manylinux2014, so that it loads on an older glibc than the builder's (maturin
//! links with zig against glibc 2.17); `cargo xtask python` installs that wheel into a new virtual
//! environment and runs the pytest suite (`crates/relic-py/tests`) against it, then imports it in
//! Debian's Blender and in `bpy` 5 from PyPI.
//!
//! Everything the steps need comes from PyPI at pinned versions into virtual environments under
//! `target/python` (maturin, zig, pytest; `bpy`), made when missing: a fresh clone needs only
//! Python 3 with `venv` and pip.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The build tools: maturin and the zig it links with.
const BUILD_TOOLS: &[&str] = &["maturin==1.16.0", "ziglang==0.17.1"];
/// The test runner, and NumPy for the test of reading the arrays with it (the module itself never
/// imports it: a test says so).
const TEST_TOOLS: &[&str] = &["pytest==9.2.0", "numpy==2.2.6"];
/// Blender 5 as a Python module (Python 3.11).
pub const BPY: &str = "bpy==5.0.1";

/// Where the virtual environments live.
pub fn venvs() -> PathBuf {
    crate::workspace_root().join("target/python")
}

fn run(command: &mut Command, what: &str) -> Result<(), String> {
    let status = command.status().map_err(|e| format!("{what}: cannot run {:?}: {e}", command.get_program()))?;
    if status.success() { Ok(()) } else { Err(format!("{what} failed ({status})")) }
}

/// A virtual environment at `target/python/<name>` with `packages` installed (made, or
/// completed, when something is missing); returns its folder.
pub fn venv(name: &str, packages: &[&str]) -> Result<PathBuf, String> {
    let dir = venvs().join(name);
    let python = dir.join("bin/python");
    if !python.is_file() {
        println!("python: making the virtual environment {}", dir.display());
        run(Command::new("python3").args(["-m", "venv"]).arg(&dir), "python3 -m venv")?;
    }
    let stamp = dir.join("relic-packages.txt");
    let wanted = packages.join("\n");
    if std::fs::read_to_string(&stamp).ok().as_deref() != Some(wanted.as_str()) {
        println!("python: pip install {} into {}", packages.join(" "), dir.display());
        let mut pip = Command::new(&python);
        pip.args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check"]).args(packages);
        run(&mut pip, "pip install")?;
        std::fs::write(&stamp, wanted).map_err(|e| format!("{}: {e}", stamp.display()))?;
    }
    Ok(dir)
}

/// `cargo xtask wheel`: `target/wheels/relic-<version>-cp39-abi3-manylinux…2014….whl`.
pub fn wheel() -> Result<PathBuf, String> {
    let root = crate::workspace_root();
    let tools = venv("build", BUILD_TOOLS)?;
    let out = root.join("target/wheels");
    // One wheel in the folder: the one just built.
    if let Ok(entries) = std::fs::read_dir(&out) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with("relic-") && name.ends_with(".whl") {
                std::fs::remove_file(entry.path()).map_err(|e| format!("{name}: {e}"))?;
            }
        }
    }
    let mut maturin = Command::new(tools.join("bin/maturin"));
    maturin
        .args(["build", "--release", "--strip", "--zig", "--compatibility", "manylinux2014", "--out"])
        .arg(&out)
        .args(["--manifest-path", "crates/relic-py/Cargo.toml"])
        // maturin finds zig through the environment's Python (`python -m ziglang`).
        .env("PATH", path_with(&tools.join("bin")))
        .current_dir(&root);
    run(&mut maturin, "maturin build")?;
    let wheel = std::fs::read_dir(&out)
        .map_err(|e| format!("{}: {e}", out.display()))?
        .flatten()
        .map(|e| e.path())
        .find(|p| p.file_name().is_some_and(|n| n.to_string_lossy().ends_with(".whl")))
        .ok_or("maturin wrote no wheel")?;
    let name = wheel.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    if !(name.starts_with("relic-") && name.contains("-abi3-") && name.contains("manylinux2014")) {
        return Err(format!("{name}: not an abi3 manylinux2014 wheel"));
    }
    let bytes = std::fs::metadata(&wheel).map(|m| m.len()).unwrap_or(0);
    println!("wheel: {} ({:.1} MB)", wheel.display(), bytes as f64 / 1e6);
    Ok(wheel)
}

/// `PATH` with `dir` first.
fn path_with(dir: &Path) -> std::ffi::OsString {
    let mut paths = vec![dir.to_path_buf()];
    paths.extend(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()));
    std::env::join_paths(paths).unwrap_or_default()
}

/// A new virtual environment (removed first if it exists) with `wheel` and `packages`.
pub fn fresh_venv(name: &str, wheel: &Path, packages: &[&str]) -> Result<PathBuf, String> {
    let dir = venvs().join(name);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    run(Command::new("python3").args(["-m", "venv"]).arg(&dir), "python3 -m venv")?;
    let mut pip = Command::new(dir.join("bin/python"));
    pip.args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check"]).arg(wheel).args(packages);
    run(&mut pip, "pip install")?;
    Ok(dir)
}

/// `cargo xtask python`: the wheel (built), a fresh virtual environment with it and pytest, the
/// suite, and the module imported in both Blenders.
pub fn test() -> Result<(), String> {
    let root = crate::workspace_root();
    let wheel = wheel()?;
    // The suite compares with the command's own output.
    run(
        Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args(["build", "--release", "--quiet", "-p", "relic-cli"])
            .current_dir(&root),
        "cargo build --release -p relic-cli",
    )?;
    let env = fresh_venv("test", &wheel, TEST_TOOLS)?;
    let mut pytest = Command::new(env.join("bin/python"));
    pytest
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider", "crates/relic-py/tests"])
        .env("RELIC_ROOT", &root)
        .env("RELIC_CLI", root.join("target/release/relic"))
        .current_dir(&root);
    if root.join(crate::CORPUS).is_dir() || std::env::var_os("CI").is_some() {
        pytest.env("RELIC_REQUIRE_CORPUS", "1");
    }
    run(&mut pytest, "pytest crates/relic-py/tests")?;
    import_in_blenders(&wheel)
}

/// The module imported, and a model opened, in Debian's Blender and in `bpy` 5 (each as its own
/// Python, the wheel unpacked onto its `sys.path`).
fn import_in_blenders(wheel: &Path) -> Result<(), String> {
    let root = crate::workspace_root();
    let fixture = root.join("fixtures/abc/v12_full.abc");
    let check = format!(
        "import sys, relic, bpy; m = relic.open({:?}); \
         print('relic', relic.__version__, 'in Blender', bpy.app.version_string, 'Python', sys.version.split()[0], \
         len(m.bones), 'bones')",
        fixture.display().to_string()
    );
    // Blender 3.4 (Debian): its own Python, the wheel's files on the path.
    let unpacked = venvs().join("unpacked");
    let _ = std::fs::remove_dir_all(&unpacked);
    let tools = venv("build", BUILD_TOOLS)?;
    run(
        Command::new(tools.join("bin/python")).args(["-m", "zipfile", "-e"]).arg(wheel).arg(&unpacked),
        "unpack the wheel",
    )?;
    match crate::blender::available() {
        Ok(()) => {
            let expr = format!("import sys; sys.path.insert(0, {:?}); {check}", unpacked.display().to_string());
            let out = Command::new("blender")
                .args(["-b", "--factory-startup", "-noaudio", "--python-exit-code", "1", "--python-expr", &expr])
                .output()
                .map_err(|e| format!("blender: {e}"))?;
            let text = String::from_utf8_lossy(&out.stdout);
            let line = text.lines().find(|l| l.starts_with("relic ")).map(str::to_string);
            match (out.status.success(), line) {
                (true, Some(line)) => println!("python: {line}"),
                _ => {
                    return Err(format!(
                        "Blender could not import relic:\n{text}{}",
                        String::from_utf8_lossy(&out.stderr)
                    ));
                }
            }
        }
        Err(why) if std::env::var_os(crate::blender::REQUIRE_BLENDER).is_some() => {
            return Err(format!("Blender: {why}"));
        }
        Err(why) => println!("python: Blender 3.4 import SKIPPED: {why}"),
    }
    // bpy 5 from PyPI (its own environment, which the add-on's tests install the extension
    // into): the wheel's files on the path.
    let bpy = venv("bpy", &[BPY])?;
    let out = Command::new(bpy.join("bin/python"))
        .args(["-c", &format!("import sys; sys.path.insert(0, {:?}); {check}", unpacked.display().to_string())])
        .output()
        .map_err(|e| format!("bpy: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    match text.lines().find(|l| l.starts_with("relic ")) {
        Some(line) if out.status.success() => println!("python: {line}"),
        _ => return Err(format!("bpy could not import relic:\n{text}{}", String::from_utf8_lossy(&out.stderr))),
    }
    Ok(())
}
