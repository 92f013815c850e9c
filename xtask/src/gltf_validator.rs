//! Runs the Khronos glTF-Validator (npm package `gltf-validator`, pinned in tools/package.json,
//! installed by `npm ci --prefix tools`) on exported files, through `tools/gltf-validate.js`.
//!
//! One node process serves every file of a run: it reads paths on stdin and answers one JSON line
//! each ([`Validator`]). `cargo xtask gltf-validate [OUT]` exports the sample models (and every
//! fixture and corpus file a format crate can read) to OUT with Blender expectation sidecars and
//! validates them all; `cargo xtask corpus` validates each corpus file's export as one of its checks.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Mutex, OnceLock};

use relic_core::Model;
use relic_gltf::ExportOptions;
use relic_gltf::summary::Expectation;

/// The validator's verdict on one file.
#[derive(Debug, Clone)]
pub struct Report {
    pub errors: u64,
    pub warnings: u64,
    pub infos: u64,
    /// `CODE at /pointer: message` of the first errors and warnings.
    pub messages: Vec<String>,
}

impl Report {
    pub fn clean(&self) -> bool {
        self.errors == 0 && self.warnings == 0
    }

    pub fn line(&self) -> String {
        let mut s = format!("{} errors, {} warnings, {} infos", self.errors, self.warnings, self.infos);
        for m in self.messages.iter().take(5) {
            s.push_str(&format!("; {m}"));
        }
        s
    }
}

/// A running `node tools/gltf-validate.js`, answering one path at a time.
pub struct Validator {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Validator {
    pub fn start() -> Result<Self, String> {
        let root = crate::workspace_root();
        let script = root.join("tools/gltf-validate.js");
        if !root.join("tools/node_modules/gltf-validator").is_dir() {
            return Err("the glTF validator is not installed: run `npm ci --prefix tools`".into());
        }
        let mut child = Command::new("node")
            .arg(&script)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot run node {}: {e}", script.display()))?;
        let stdin = child.stdin.take().ok_or("node: no stdin")?;
        let stdout = BufReader::new(child.stdout.take().ok_or("node: no stdout")?);
        Ok(Self { child, stdin, stdout })
    }

    /// Validates one file (`.glb`, or `.gltf` with its resources beside it).
    pub fn validate(&mut self, path: &Path) -> Result<Report, String> {
        let absolute = std::fs::canonicalize(path).map_err(|e| format!("{}: {e}", path.display()))?;
        writeln!(self.stdin, "{}", absolute.display()).map_err(|e| format!("validator: {e}"))?;
        self.stdin.flush().map_err(|e| format!("validator: {e}"))?;
        let mut line = String::new();
        self.stdout.read_line(&mut line).map_err(|e| format!("validator: {e}"))?;
        let v: serde_json::Value =
            serde_json::from_str(&line).map_err(|e| format!("validator answered {line:?}: {e}"))?;
        let n = |k: &str| v.get(k).and_then(serde_json::Value::as_u64).unwrap_or(0);
        let messages = v
            .get("messages")
            .and_then(serde_json::Value::as_array)
            .map(|ms| {
                ms.iter()
                    .map(|m| {
                        let s = |k: &str| m.get(k).and_then(serde_json::Value::as_str).unwrap_or("");
                        format!("{} at {}: {}", s("code"), s("pointer"), s("message"))
                    })
                    .collect()
            })
            .unwrap_or_default();
        Ok(Report { errors: n("errors"), warnings: n("warnings"), infos: n("infos"), messages })
    }
}

impl Drop for Validator {
    fn drop(&mut self) {
        // Closing stdin ends the script's loop; then reap it.
        let _ = self.stdin.flush();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The process shared by the checks of one `cargo xtask corpus` run.
fn shared() -> &'static Mutex<Option<Validator>> {
    static SHARED: OnceLock<Mutex<Option<Validator>>> = OnceLock::new();
    SHARED.get_or_init(|| Mutex::new(None))
}

/// Validates one file with the shared validator process (started on first use).
pub fn validate_shared(path: &Path) -> Result<Report, String> {
    let mut guard = shared().lock().map_err(|_| "validator lock poisoned".to_string())?;
    if guard.is_none() {
        *guard = Some(Validator::start()?);
    }
    let validator = guard.as_mut().ok_or("validator did not start")?;
    let result = validator.validate(path);
    if result.is_err() {
        *guard = None;
    }
    result
}

/// An export and the verdict of the textured-export check on it ([`crate::textured::check`]).
pub type Exported = (PathBuf, Result<Option<String>, String>);

/// Exports `model` (read from `source`, `None` for a sample) to `dir/<stem>.glb` with its Blender
/// expectation `dir/<stem>.glb.expect.json`, and checks its images.
pub fn export_glb(
    model: &Model,
    dir: &Path,
    stem: &str,
    options: &ExportOptions,
    source: Option<&Path>,
) -> Result<Exported, String> {
    let glb = relic_gltf::export_glb(model, options).map_err(|e| format!("{stem}: export: {e}"))?;
    let path = dir.join(format!("{stem}.glb"));
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    std::fs::write(&path, &glb.value).map_err(|e| format!("{}: {e}", path.display()))?;
    let expect = write_expectation(model, options, &path)?;
    let textured = crate::textured::check(source, &glb.value, &expect);
    Ok((path, textured))
}

/// Writes `<file>.expect.json`: the counts `cargo xtask blender-check` wants Blender to show.
pub fn write_expectation(model: &Model, options: &ExportOptions, file: &Path) -> Result<Expectation, String> {
    let expect = relic_gltf::summary::expectation(model, options);
    let text = serde_json::to_string_pretty(&expect).map_err(|e| e.to_string())?;
    let sidecar = PathBuf::from(format!("{}.expect.json", file.display()));
    std::fs::write(&sidecar, text).map_err(|e| format!("{}: {e}", sidecar.display()))?;
    Ok(expect)
}

/// The common model of a game file (read with the files next to it), through the format registry;
/// `None` if no game format of the registry recognises the file as a model.
pub fn read_model(path: &Path, bytes: &[u8]) -> Option<Result<Model, String>> {
    let kind = relic::detect(bytes)?;
    if !kind.is_model() || !kind.entry.model.is_some_and(|m| m.records_original) {
        return None;
    }
    Some(relic::load_model(path, bytes, kind, &[]).map(|c| c.value).map_err(|e| e.to_string()))
}

/// The glTF checks of one corpus file (for `cargo xtask corpus`): export to `.glb` (refused
/// models fail), validate with the shared validator process (0 errors and 0 warnings), and
/// import the export back into a valid model with the same bone, mesh and clip counts.
pub fn corpus_checks(path: &Path, bytes: &[u8]) -> relic_core::check::Checks {
    let mut checks = relic_core::check::Checks::new();
    let model = match read_model(path, bytes) {
        None => {
            checks.skip("gltf", "the format crate cannot map this file to the model yet");
            return checks;
        }
        Some(Err(e)) => {
            checks.skip("gltf", format!("no model: {e}"));
            return checks;
        }
        Some(Ok(m)) => m,
    };
    let options = ExportOptions {
        textures: Some(std::sync::Arc::new(crate::textured::game_textures(path))),
        ..ExportOptions::default()
    };
    let glb = match relic_gltf::export_glb(&model, &options) {
        Ok(g) => g,
        Err(e) => {
            checks.fail("gltf export", e.to_string());
            return checks;
        }
    };
    let size = glb.value.len();
    let losses = glb.losses.len();
    checks.pass("gltf export", format!("{size} bytes, {losses} losses"));
    // Issue 28 §1: every texture the search finds is in the export, each corpus skin among them.
    let expect = relic_gltf::summary::expectation(&model, &options);
    match crate::textured::check(Some(path), &glb.value, &expect) {
        Ok(Some(line)) => checks.pass("gltf textures", line),
        Ok(None) => {}
        Err(e) => checks.fail("gltf textures", e),
    }
    let dir = std::env::temp_dir().join(format!("relic-corpus-gltf-{}", std::process::id()));
    let path = dir.join("export.glb");
    let written = std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&path, &glb.value));
    checks.run("gltf validator", || {
        written.map_err(|e| e.to_string())?;
        let report = validate_shared(&path)?;
        if report.clean() { Ok(report.line()) } else { Err(report.line()) }
    });
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_dir(&dir);
    checks.run("gltf import", || {
        let back = relic_gltf::import(&glb.value, None).map_err(|e| e.to_string())?;
        let counts = |m: &Model| (m.bones.len(), m.meshes.len(), m.animations.len());
        if counts(&back) == counts(&model) {
            Ok(format!(
                "{} bones, {} meshes, {} clips back",
                back.bones.len(),
                back.meshes.len(),
                back.animations.len()
            ))
        } else {
            Err(format!("counts {:?} came back as {:?}", counts(&model), counts(&back)))
        }
    });
    checks
}

/// Models from the format crates: every fixture and corpus file whose format crate reads it,
/// as (relative name, model), and their cross-format files (`failures`: each written file its own
/// reader refused). Files a crate cannot read yet are listed as skipped.
fn real_models(failures: &mut Vec<String>) -> Vec<(String, Model, Option<PathBuf>)> {
    let mut out = Vec::new();
    let root = crate::workspace_root();
    for (label, dir) in [("fixtures", root.join("fixtures")), ("corpus", root.join(crate::CORPUS))] {
        let Ok(files) = crate::walk(&dir) else { continue };
        for path in files {
            // Under the folder: the checkout's own path may hold the word (a worktree named hostile).
            if path.strip_prefix(&dir).unwrap_or(&path).components().any(|c| c.as_os_str() == "hostile") {
                continue;
            }
            let Ok(bytes) = std::fs::read(&path) else { continue };
            let rel = path.strip_prefix(&dir).unwrap_or(&path).display().to_string();
            match read_model(&path, &bytes) {
                Some(Ok(model)) => {
                    out.extend(cross(&rel, &bytes, &model, failures));
                    out.push((format!("{label}/{rel}"), model, Some(path.clone())));
                }
                Some(Err(e)) => println!("--   {label}/{rel}: not exported ({e})"),
                None => {}
            }
        }
    }
    out
}

/// Cross-format: the model of a game file written in every other game format of the registry (at
/// its default version) and read back, for export (issue 7: GnomePounder-vanilla.m2 → ABC v12 →
/// glTF must validate). A writer's typed refusal of what its format cannot hold is listed, not
/// failed; a written file its reader refuses fails.
fn cross(rel: &str, bytes: &[u8], model: &Model, failures: &mut Vec<String>) -> Vec<(String, Model, Option<PathBuf>)> {
    let own = relic::detect(bytes).map(|k| k.entry.name);
    let mut out = Vec::new();
    for entry in crate::games::formats().filter(|e| Some(e.name) != own) {
        let name = format!("cross/{rel}.{}", entry.name);
        match crate::games::write_and_read(entry, model) {
            Ok(crate::games::Outcome::Read(_, via)) => out.push((name, *via, None)),
            Ok(crate::games::Outcome::Refused(why)) => println!("--   {name}: not written ({why})"),
            Err(e) => {
                println!("FAIL {name}: {e}");
                failures.push(name);
            }
        }
    }
    out
}

/// `cargo xtask gltf-validate [OUT]`: export every sample, fixture and corpus model to OUT
/// (default `target/gltf-exports`) as `.glb` (and the first sample also as `.gltf` + `.bin`),
/// with Blender sidecars, then validate every export in one validator process.
pub fn run(out: Option<&Path>) -> Result<(), String> {
    let out = out.map(Path::to_path_buf).unwrap_or_else(|| crate::workspace_root().join("target/gltf-exports"));
    if out.exists() {
        std::fs::remove_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let options = ExportOptions::default();
    let mut files = Vec::new();
    for (name, model) in relic_gltf::samples::all() {
        files.push(export_glb(&model, &out, &format!("samples/{name}"), &options, None)?);
        let lod0 = ExportOptions { lod0_only: true, ..options.clone() };
        files.push(export_glb(&model, &out, &format!("samples/{name}.lod0"), &lod0, None)?);
    }
    // The richest sample with PNG textures embedded.
    let textures = out.join("texture-source");
    relic_gltf::samples::write_textures(&textures).map_err(|e| format!("{}: {e}", textures.display()))?;
    let source = relic_gltf::textures::DirTextures::new(&textures);
    let textured = ExportOptions { textures: Some(std::sync::Arc::new(source)), ..options.clone() };
    files.push(export_glb(
        &relic_gltf::samples::skinned_animated(),
        &out,
        "samples/skinned_animated.textured",
        &textured,
        None,
    )?);
    // The .gltf + .bin form of the richest sample.
    let sample = relic_gltf::samples::skinned_animated();
    let gltf = relic_gltf::export_gltf(&sample, &options, "skinned_animated.bin").map_err(|e| e.to_string())?;
    let (json, bin) = gltf.value;
    let path = out.join("samples/skinned_animated.gltf");
    std::fs::write(&path, json).map_err(|e| e.to_string())?;
    std::fs::write(out.join("samples/skinned_animated.bin"), bin).map_err(|e| e.to_string())?;
    write_expectation(&sample, &options, &path)?;
    files.push((path, Ok(None)));
    let mut cross_failures = Vec::new();
    for (name, model, path) in real_models(&mut cross_failures) {
        let stem = name.replace(['\\', ' '], "_");
        // Textured as a user's game folder would give them (the corpus keeps LithTech skins in
        // its dtx/ folder, which `--skin` names).
        let textured = match &path {
            Some(p) => ExportOptions {
                textures: Some(std::sync::Arc::new(crate::textured::game_textures(p))),
                ..options.clone()
            },
            None => options.clone(),
        };
        match export_glb(&model, &out, &stem, &textured, path.as_deref()) {
            Ok(p) => files.push(p),
            Err(e) => {
                println!("FAIL {name}: {e}");
                return Err(format!("{name} could not be exported"));
            }
        }
    }
    let mut validator = Validator::start()?;
    // A cross-format file its own reader refused (listed as FAIL above) fails the run too.
    let (mut passed, mut failed, mut textured) = (0, cross_failures.len(), 0);
    for (file, images) in &files {
        let rel = file.strip_prefix(&out).unwrap_or(file).display().to_string();
        let report = validator.validate(file)?;
        match (report.clean(), images) {
            (true, Ok(images)) => {
                passed += 1;
                textured += usize::from(images.is_some());
                let images = images.as_ref().map(|i| format!("; {i}")).unwrap_or_default();
                println!("ok   {rel}: {}{images}", report.line());
            }
            (clean, images) => {
                failed += 1;
                let validator = (!clean).then(|| report.line());
                let images = images.as_ref().err().map(|e| format!("images: {e}"));
                println!("FAIL {rel}: {}", validator.into_iter().chain(images).collect::<Vec<_>>().join("; "));
            }
        }
    }
    println!("gltf-validate: exports in {}", out.display());
    println!("gltf-validate: {textured} textured exports, each with as many images as textures found");
    println!(
        "gltf-validate: {passed} passed, {failed} failed ({} cross-format files refused by their own reader)",
        cross_failures.len()
    );
    if failed > 0 {
        Err(format!(
            "{failed} failed: exports with validator errors or warnings, or cross-format files their reader refused ({})",
            cross_failures.join(", ")
        ))
    } else {
        Ok(())
    }
}
