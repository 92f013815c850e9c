//! `cargo xtask blender-addon`: the Blender add-on (`blender/relic_blender`) built into
//! `target/dist/` with the Python module's wheel (`cargo xtask wheel`):
//!
//! * `relic_blender-<version>-linux-x64.zip`, a Blender 4.2+ extension: the add-on's files at
//!   the top with `blender_manifest.toml` naming the bundled wheel (`wheels/…whl`), which Blender
//!   unpacks into the extension's own site-packages;
//! * `relic_blender-<version>-legacy-linux-x64.zip`, a legacy add-on for Blender 3.4–4.1: the
//!   folder `relic_blender/` with the module's package inside it (`vendor/relic`).
//!
//! `cargo xtask blender-addon --test` also installs each zip the way a user does in the two
//! Blenders (Debian's 3.4: `preferences.addon_install` + `addon_enable`; `bpy` 5 from PyPI:
//! `extensions.package_install_files`) and runs `blender/tests/addon_test.py` there: every corpus
//! model imported, exported unedited and compared byte for byte, scripted edits exported and
//! read back, hostile files imported.

use std::path::{Path, PathBuf};
use std::process::Command;

const VERSION: &str = "0.1.0";

/// The platform of this machine's wheel, in the extension manifest's words.
const PLATFORM: &str = "linux-x64";

/// `cargo xtask blender-addon [--wheel FILE --platform NAME]`: the two zips, with this machine's
/// wheel built, or with a wheel built elsewhere (the CI workflow for Windows and macOS,
/// `.github/workflows/wheels.yml`, passes each platform's).
pub fn command(args: &[&str]) -> Result<(), String> {
    match args {
        [] => build().map(|_| ()),
        ["--test"] => test(),
        ["--wheel", wheel, "--platform", platform] => package(Path::new(wheel), platform).map(|_| ()),
        _ => Err("usage: cargo xtask blender-addon [--test | --wheel FILE --platform NAME]".into()),
    }
}

/// The two zips of this machine's wheel: (extension, legacy).
pub fn build() -> Result<(PathBuf, PathBuf), String> {
    let wheel = crate::python::wheel()?;
    package(&wheel, PLATFORM)
}

/// The two zips of `wheel` for `platform` (`linux-x64`, `windows-x64`, `macos-arm64`, …).
pub fn package(wheel: &Path, platform: &str) -> Result<(PathBuf, PathBuf), String> {
    let root = crate::workspace_root();
    let wheel_name = wheel.file_name().map(|n| n.to_string_lossy().into_owned()).ok_or("no wheel name")?;
    let dist = root.join("target/dist");
    let stage = root.join("target/addon-stage");
    let _ = std::fs::remove_dir_all(&stage);
    let source = root.join("blender/relic_blender");
    let files = addon_files(&source)?;

    // The extension: files at the top, the wheel under wheels/.
    let ext = stage.join("extension");
    std::fs::create_dir_all(ext.join("wheels")).map_err(|e| e.to_string())?;
    for f in &files {
        copy(&source.join(f), &ext.join(f))?;
    }
    let manifest = std::fs::read_to_string(source.join("blender_manifest.toml")).map_err(|e| e.to_string())?;
    let manifest = manifest
        .replace("wheels = []", &format!("wheels = [\"./wheels/{wheel_name}\"]"))
        .replace("platforms = [\"linux-x64\"]", &format!("platforms = [\"{platform}\"]"));
    std::fs::write(ext.join("blender_manifest.toml"), manifest).map_err(|e| e.to_string())?;
    copy(wheel, &ext.join("wheels").join(&wheel_name))?;
    let ext_zip = dist.join(format!("relic_blender-{VERSION}-{platform}.zip"));
    zip(&ext, &ext_zip)?;

    // The legacy add-on: relic_blender/ with the module's package vendored.
    let legacy = stage.join("legacy");
    let package = legacy.join("relic_blender");
    for f in &files {
        copy(&source.join(f), &package.join(f))?;
    }
    let unpacked = stage.join("wheel");
    unzip(wheel, &unpacked)?;
    copy_tree(&unpacked.join("relic"), &package.join("vendor/relic"))?;
    let legacy_zip = dist.join(format!("relic_blender-{VERSION}-legacy-{platform}.zip"));
    zip(&legacy, &legacy_zip)?;
    for z in [&ext_zip, &legacy_zip] {
        let bytes = std::fs::metadata(z).map(|m| m.len()).unwrap_or(0);
        println!("blender-addon: {} ({:.1} MB)", z.display(), bytes as f64 / 1e6);
    }
    Ok((ext_zip, legacy_zip))
}

/// The add-on's Python files (not its tests or caches).
fn addon_files(dir: &Path) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))? {
        let name = entry.map_err(|e| e.to_string())?.file_name().to_string_lossy().into_owned();
        if name.ends_with(".py") {
            out.push(name);
        }
    }
    out.sort();
    Ok(out)
}

fn copy(from: &Path, to: &Path) -> Result<(), String> {
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    std::fs::copy(from, to).map(|_| ()).map_err(|e| format!("{} → {}: {e}", from.display(), to.display()))
}

fn copy_tree(from: &Path, to: &Path) -> Result<(), String> {
    for file in crate::walk(from)? {
        let rel = file.strip_prefix(from).map_err(|e| e.to_string())?;
        if rel.components().any(|c| c.as_os_str() == "__pycache__") {
            continue;
        }
        copy(&file, &to.join(rel))?;
    }
    Ok(())
}

/// A zip of everything in `dir` (paths relative to it), through Python's `zipfile`.
fn zip(dir: &Path, out: &Path) -> Result<(), String> {
    if let Some(parent) = out.parent() {
        std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
    }
    let _ = std::fs::remove_file(out);
    let script = "import os, sys, zipfile\n\
        root, out = sys.argv[1], sys.argv[2]\n\
        with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:\n\
        \x20   for folder, _, names in sorted(os.walk(root)):\n\
        \x20       for n in sorted(names):\n\
        \x20           p = os.path.join(folder, n)\n\
        \x20           z.write(p, os.path.relpath(p, root))\n";
    python(&[script, &dir.display().to_string(), &out.display().to_string()])
}

fn unzip(archive: &Path, dir: &Path) -> Result<(), String> {
    let script = "import sys, zipfile\nzipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])\n";
    python(&[script, &archive.display().to_string(), &dir.display().to_string()])
}

fn python(args: &[&str]) -> Result<(), String> {
    let (script, rest) = args.split_first().ok_or("no script")?;
    // `python3` on Linux and macOS; Windows has `python`.
    let python = if cfg!(windows) { "python" } else { "python3" };
    let status =
        Command::new(python).arg("-c").arg(script).args(rest).status().map_err(|e| format!("{python}: {e}"))?;
    if status.success() { Ok(()) } else { Err(format!("{python} failed ({status})")) }
}

/// What one Blender made of the add-on (`blender/tests/addon_test.py`'s JSON).
#[derive(serde::Deserialize)]
struct Results {
    blender: String,
    kind: String,
    corpus: Vec<serde_json::Value>,
    edits: Vec<serde_json::Value>,
    scratch: Vec<serde_json::Value>,
    hostile: Vec<serde_json::Value>,
}

/// The corpus models the add-on is tried on: every model relic reads under the corpus (by
/// content), less the listed known failures and the models whose companion files are missing.
fn corpus_models() -> Result<Vec<PathBuf>, String> {
    let corpus = crate::workspace_root().join(crate::CORPUS);
    if !corpus.is_dir() {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for path in crate::walk(&corpus)? {
        let Ok(bytes) = std::fs::read(&path) else { continue };
        let Some(kind) = relic::detect(&bytes) else { continue };
        if kind.detected.content != relic::Content::Model || !kind.entry.versions.reads(kind.detected.source.version) {
            continue;
        }
        let rel = path.strip_prefix(&corpus).map(|p| p.display().to_string()).unwrap_or_default();
        if relic_testkit::known_failures().iter().any(|k| k.path == rel && k.step == "corpus") {
            println!("blender-addon: {rel}: a known failure (corpus-known-failures.txt), left out");
            continue;
        }
        match relic::load_model(&path, &bytes, kind, &[]) {
            Err(relic::Error::Read { source, .. })
                if matches!(source.kind, relic_core::ReadErrorKind::Incomplete { .. }) =>
            {
                continue;
            }
            _ => out.push(path),
        }
    }
    Ok(out)
}

/// Every hostile fixture and fuzz finding.
fn hostile_files() -> Result<Vec<PathBuf>, String> {
    let root = crate::workspace_root();
    let mut out = Vec::new();
    for entry in std::fs::read_dir(root.join("fixtures")).map_err(|e| e.to_string())?.flatten() {
        let hostile = entry.path().join("hostile");
        if hostile.is_dir() {
            out.extend(crate::walk(&hostile)?);
        }
    }
    let findings = root.join(crate::CORPUS).join("../fuzz-findings");
    if findings.is_dir() {
        out.extend(crate::walk(&findings)?);
    }
    Ok(out)
}

/// `cargo xtask blender-addon --test`: both zips built, installed and tried in both Blenders.
pub fn test() -> Result<(), String> {
    let root = crate::workspace_root();
    let (extension, legacy) = build()?;
    let work = root.join("target/addon-test");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).map_err(|e| e.to_string())?;
    let models = corpus_models()?;
    if models.is_empty() && std::env::var_os("CI").is_some() {
        return Err("the corpus is absent under CI: the add-on must be tried on it".into());
    }
    let list = |name: &str, paths: &[PathBuf]| -> Result<PathBuf, String> {
        let file = work.join(name);
        let text: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        std::fs::write(&file, text.join("\n")).map_err(|e| e.to_string())?;
        Ok(file)
    };
    let models_list = list("models.txt", &models)?;
    let hostile_list = list("hostile.txt", &hostile_files()?)?;
    let mut all = Vec::new();
    // Debian's Blender 3.4 with the legacy add-on.
    match crate::blender::available() {
        Ok(()) => {
            let args = script_args(&legacy, "legacy", &models_list, &hostile_list, &work.join("b34"));
            let mut blender = Command::new("blender");
            blender
                .args(["-b", "--factory-startup", "-noaudio", "--python"])
                .arg(root.join("blender/tests/addon_test.py"));
            blender.arg("--").args(&args);
            all.push(run_script(blender, &work.join("b34"), "Blender 3.4")?);
        }
        Err(why) if std::env::var_os(crate::blender::REQUIRE_BLENDER).is_some() => {
            return Err(format!("Blender: {why}"));
        }
        Err(why) => println!("blender-addon: Blender 3.4 SKIPPED: {why}"),
    }
    // bpy 5 with the extension.
    let bpy = crate::python::venv("bpy", &[crate::python::BPY])?;
    let args = script_args(&extension, "extension", &models_list, &hostile_list, &work.join("b5"));
    let mut python = Command::new(bpy.join("bin/python"));
    python.arg(root.join("blender/tests/addon_test.py")).arg("--").args(&args);
    all.push(run_script(python, &work.join("b5"), "bpy 5")?);
    judge(&all, models.len())
}

fn script_args(zip: &Path, kind: &str, models: &Path, hostile: &Path, work: &Path) -> Vec<String> {
    let root = crate::workspace_root();
    vec![
        zip.display().to_string(),
        kind.to_string(),
        models.display().to_string(),
        hostile.display().to_string(),
        root.join("fixtures").display().to_string(),
        work.display().to_string(),
        work.join("results.json").display().to_string(),
    ]
}

/// Runs the test script with its own user folders (nothing of the user's Blender touched).
fn run_script(mut command: Command, work: &Path, what: &str) -> Result<Results, String> {
    std::fs::create_dir_all(work).map_err(|e| e.to_string())?;
    for (var, dir) in [
        ("BLENDER_USER_RESOURCES", "user"),
        ("BLENDER_USER_CONFIG", "user/config"),
        ("BLENDER_USER_SCRIPTS", "user/scripts"),
        ("BLENDER_USER_EXTENSIONS", "user/extensions"),
        ("BLENDER_USER_DATAFILES", "user/datafiles"),
    ] {
        let path = work.join(dir);
        std::fs::create_dir_all(&path).map_err(|e| e.to_string())?;
        command.env(var, path);
    }
    println!("==> blender-addon: {what}");
    let status = command.status().map_err(|e| format!("{what}: {e}"))?;
    if !status.success() {
        return Err(format!("{what}: the add-on test script failed ({status})"));
    }
    let text = std::fs::read_to_string(work.join("results.json")).map_err(|e| format!("{what}: no results: {e}"))?;
    serde_json::from_str(&text).map_err(|e| format!("{what}: results: {e}"))
}

fn flag(row: &serde_json::Value, key: &str) -> bool {
    row.get(key).and_then(serde_json::Value::as_bool).unwrap_or(false)
}

/// Prints the table (model × Blender) and fails on any row that did not pass.
fn judge(all: &[Results], models: usize) -> Result<(), String> {
    let mut failed = Vec::new();
    for r in all {
        println!("\n{} ({} zip): {} models", r.blender, r.kind, r.corpus.len());
        println!("| model | import | bones | meshes | images | actions | empties | s | byte-identical |");
        println!("|---|---|---:|---:|---:|---:|---:|---:|---|");
        for row in &r.corpus {
            let n = |k: &str| row.get(k).and_then(serde_json::Value::as_u64).unwrap_or(0);
            let model = row.get("model").and_then(serde_json::Value::as_str).unwrap_or("?");
            let short = model.rsplit_once("corpus/").map_or(model, |(_, r)| r);
            println!(
                "| {short} | {} | {} | {} | {} | {} | {} | {:.2} | {} |",
                if flag(row, "import") { "ok" } else { "FAIL" },
                n("bones"),
                n("meshes"),
                n("images"),
                n("actions"),
                n("empties"),
                row.get("seconds").and_then(serde_json::Value::as_f64).unwrap_or(0.0),
                if flag(row, "identical") { "yes" } else { "NO" }
            );
            if !(flag(row, "import") && flag(row, "identical")) {
                failed.push(format!("{}: {short}: {row}", r.blender));
            }
        }
        if r.corpus.len() != models {
            failed.push(format!("{}: {} of {models} models tried", r.blender, r.corpus.len()));
        }
        let ok = |rows: &[serde_json::Value]| rows.iter().filter(|row| flag(row, "ok")).count();
        println!("edits: {} of {} carried", ok(&r.edits), r.edits.len());
        println!("from scratch: {} of {} formats", ok(&r.scratch), r.scratch.len());
        println!("hostile: {} of {} handled (Blender stayed up)", ok(&r.hostile), r.hostile.len());
        for rows in [&r.edits, &r.scratch, &r.hostile] {
            for row in rows.iter().filter(|row| !flag(row, "ok")) {
                failed.push(format!("{}: {row}", r.blender));
            }
        }
        if r.edits.is_empty() || r.scratch.is_empty() || r.hostile.is_empty() {
            failed.push(format!("{}: a part of the test ran nothing", r.blender));
        }
    }
    if failed.is_empty() {
        return Ok(());
    }
    for f in failed.iter().take(40) {
        println!("FAIL {f}");
    }
    Err(format!("blender-addon: {} failures", failed.len()))
}
