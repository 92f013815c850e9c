//! `cargo xtask blender-check DIR`: imports every glTF export under DIR into Blender (headless,
//! one Blender process for all files, `xtask/blender_check.py`) and checks bone, mesh, vertex,
//! triangle, action and image counts (the images Blender shows: as many as textures the export
//! found) against the sidecar `<file>.expect.json` that relic wrote beside
//! each export from its own model (`relic_gltf::summary::expectation`; `cargo xtask
//! gltf-validate` writes both).
//!
//! Blender then exports each imported scene back to glTF (a cross-format export without its
//! clips: [`is_cross`]), and relic imports that (the way from Blender back into the games): it
//! must give a valid model with the same bones and meshes.

use std::path::{Path, PathBuf};
use std::process::Command;

use relic_gltf::summary::Expectation;

/// A glTF document (`.glb` or `.gltf`), recognised by the registry from its bytes.
fn is_gltf(path: &Path) -> bool {
    let bytes = std::fs::read(path).unwrap_or_default();
    relic::detect(&bytes).is_some_and(|k| k.detected.source.format == relic_gltf::FORMAT)
}

/// A cross-format export (`cross/<model>.<format>.glb`: a corpus model converted to another game
/// format, then to glTF). Blender re-exports it without its clips: its bones and meshes come back
/// and are written as every game format, while the clips' way through Blender and back is
/// `cargo xtask blender-roundtrip`'s, for every corpus model in its own format (Blender's exporter
/// baking the 34 clips of a converted creature took 150 s of this step's 700).
fn is_cross(dir: &Path, path: &Path) -> bool {
    path.strip_prefix(dir).ok().and_then(|p| p.components().next()).is_some_and(|c| c.as_os_str() == "cross")
}

fn sidecar(path: &Path) -> PathBuf {
    PathBuf::from(format!("{}.expect.json", path.display()))
}

/// What Blender reported for one file: its counts (or import error), its re-export, and how many
/// textured materials and images it checked.
type Reported = (Result<Expectation, String>, Option<PathBuf>, String);

/// What Blender reported for one file.
fn parse_line(line: &str) -> Result<(String, (Reported, f64)), String> {
    let (file, reported) = parse_reported(line)?;
    let seconds = serde_json::from_str::<serde_json::Value>(line)
        .ok()
        .and_then(|v| v.get("seconds").and_then(serde_json::Value::as_f64))
        .unwrap_or(0.0);
    Ok((file, (reported, seconds)))
}

/// What Blender reported for one file, without its time.
fn parse_reported(line: &str) -> Result<(String, Reported), String> {
    let v: serde_json::Value = serde_json::from_str(line).map_err(|e| format!("blender output {line:?}: {e}"))?;
    let file = v.get("file").and_then(serde_json::Value::as_str).unwrap_or("").to_string();
    let reexport = v.get("reexport").and_then(serde_json::Value::as_str).map(PathBuf::from);
    if let Some(err) = v.get("error").and_then(serde_json::Value::as_str) {
        return Ok((file, (Err(err.to_string()), reexport, String::new())));
    }
    let n = |k: &str| v.get(k).and_then(serde_json::Value::as_u64).unwrap_or(u64::MAX) as usize;
    // Every material with a texture has an image node with the image's true size.
    let problems: Vec<String> = v
        .get("image_problems")
        .and_then(serde_json::Value::as_array)
        .map(|a| a.iter().filter_map(|p| p.as_str().map(str::to_string)).collect())
        .unwrap_or_default();
    if !problems.is_empty() {
        return Ok((file, (Err(format!("images: {}", problems.join("; "))), reexport, String::new())));
    }
    let images = match (
        v.get("textured_materials").and_then(serde_json::Value::as_u64),
        v.get("images").and_then(serde_json::Value::as_u64),
    ) {
        (Some(m), Some(i)) if i > 0 => format!("; {m} textured materials, {i} images of their true size"),
        _ => String::new(),
    };
    let got = Expectation {
        bones: n("bones"),
        meshes: n("meshes"),
        vertices: n("vertices"),
        triangles: n("triangles"),
        actions: n("actions"),
        images: n("blender_images"),
        stand_ins: n("stand_ins"),
    };
    Ok((file, (Ok(got), reexport, images)))
}

/// Runs `processes` Blender processes side by side, process `k` importing files k, k+n, … (each
/// with whether its re-export carries the clips), and
/// returns their reports (one JSON line per file) joined.
fn run_blender(work: &Path, reexports: &Path, files: &[(PathBuf, bool)], processes: usize) -> Result<String, String> {
    let script = crate::workspace_root().join("xtask/blender_check.py");
    let mut children = Vec::new();
    for k in 0..processes {
        let listing = work.join(format!("files-{k}.txt"));
        let output = work.join(format!("counts-{k}.jsonl"));
        let line = |(f, clips): &(PathBuf, bool)| format!("{}\t{}\n", f.display(), u8::from(*clips));
        let text: String = files.iter().skip(k).step_by(processes).map(line).collect();
        std::fs::write(&listing, text).map_err(|e| format!("{}: {e}", listing.display()))?;
        let dir = reexports.join(k.to_string());
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let child = Command::new("blender")
            .args(["-b", "--factory-startup", "--python-exit-code", "1", "--python"])
            .arg(&script)
            .arg("--")
            .arg(&listing)
            .arg(&output)
            .arg(&dir)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot run blender: {e}"))?;
        children.push((child, output));
    }
    let mut report = String::new();
    for (mut child, output) in children {
        let status = child.wait().map_err(|e| format!("blender: {e}"))?;
        let text = std::fs::read_to_string(&output).map_err(|e| format!("blender wrote no report ({status}): {e}"))?;
        report.push_str(&text);
    }
    Ok(report)
}

fn describe(e: &Expectation) -> String {
    format!(
        "{} bones, {} meshes, {} vertices, {} triangles, {} actions, {} images",
        e.bones, e.meshes, e.vertices, e.triangles, e.actions, e.images
    )
}

/// True if Blender's Python can import numpy, which Blender's glTF importer needs (Debian's
/// `blender` package does not depend on `python3-numpy`).
fn numpy_available() -> bool {
    Command::new("blender")
        .args(["-b", "--factory-startup", "--python-exit-code", "1", "--python-expr", "import numpy"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Fails with what to install when Blender's Python lacks numpy (`.ci/run` installs it on CI).
pub fn ensure_numpy() -> Result<(), String> {
    if numpy_available() {
        Ok(())
    } else {
        Err("Blender's Python has no numpy, which its glTF importer needs: apt-get install python3-numpy".into())
    }
}

/// Set where Blender must be present (CI): without it the Blender steps fail instead of skipping.
pub const REQUIRE_BLENDER: &str = "RELIC_REQUIRE_BLENDER";

/// Whether Blender (with the numpy its glTF importer needs) can run here; `Err` says why not.
pub fn available() -> Result<(), String> {
    let found = Command::new("blender").arg("--version").output().is_ok_and(|o| o.status.success());
    if !found {
        return Err("Blender is not installed".into());
    }
    ensure_numpy()
}

/// relic's import of Blender's re-export: a valid model with the bones and meshes expected.
fn back_from_blender(want: &Expectation, reexport: Option<&Path>, clips: bool) -> Result<String, String> {
    let path = reexport.ok_or("Blender did not export the scene back")?;
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let model = relic_gltf::import(&bytes, None).map_err(|e| format!("relic cannot import Blender's export: {e}"))?;
    let line = format!(
        "back from Blender: relic reads {} bones, {} meshes, {}",
        model.bones.len(),
        model.meshes.len(),
        if clips { format!("{} clips", model.animations.len()) } else { "no clips (not re-exported)".into() }
    );
    // The emitters' stand-ins are dropped again: they show where an emitter is.
    if model.bones.len() != want.bones || model.meshes.len() + want.stand_ins != want.meshes {
        return Err(line);
    }
    Ok(format!("{line}; {}", write_as_games(&model)?))
}

/// Writes a model (as it came back from Blender) in each game format of the registry and reads the
/// result back with the same format.
fn write_as_games(model: &relic_core::Model) -> Result<String, String> {
    let mut parts = Vec::new();
    for entry in crate::games::formats() {
        match crate::games::write_and_read(entry, model)? {
            crate::games::Outcome::Read(bytes, _) => parts.push(format!("{} {bytes} bytes", entry.name)),
            crate::games::Outcome::Refused(why) => parts.push(format!("{} refused ({why})", entry.name)),
        }
    }
    Ok(format!("written as {}", parts.join(", ")))
}

pub fn run(dir: &Path) -> Result<(), String> {
    ensure_numpy()?;
    if !dir.is_dir() {
        return Err(format!("{} is not a folder", dir.display()));
    }
    let files: Vec<PathBuf> = crate::walk(dir)?.into_iter().filter(|p| is_gltf(p)).collect();
    if files.is_empty() {
        return Err(format!("no .glb or .gltf under {}", dir.display()));
    }
    let work = std::env::temp_dir().join(format!("relic-blender-check-{}", std::process::id()));
    std::fs::create_dir_all(&work).map_err(|e| format!("{}: {e}", work.display()))?;
    let reexports = work.join("reexport");
    std::fs::create_dir_all(&reexports).map_err(|e| format!("{}: {e}", reexports.display()))?;
    let absolute: Vec<PathBuf> = files.iter().map(|f| std::fs::canonicalize(f).unwrap_or_else(|_| f.clone())).collect();
    let version = Command::new("blender").arg("--version").output().map_err(|e| format!("cannot run blender: {e}"))?;
    let version = String::from_utf8_lossy(&version.stdout).lines().next().unwrap_or("").to_string();
    // One Blender process per core, each importing every n-th file (the big ones are spread).
    let processes = std::thread::available_parallelism().map_or(1, |n| n.get()).min(absolute.len()).max(1);
    println!("blender-check: {version}, {} files, {processes} Blender processes", files.len());
    let listed: Vec<(PathBuf, bool)> =
        files.iter().zip(&absolute).map(|(f, a)| (a.clone(), !is_cross(dir, f))).collect();
    let report = run_blender(&work, &reexports, &listed, processes)?;
    let mut results = std::collections::HashMap::new();
    let mut seconds = Vec::new();
    for line in report.lines().filter(|l| !l.trim().is_empty()) {
        let (file, got) = parse_line(line)?;
        let name = Path::new(&file).file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        seconds.push((got.1, name));
        results.insert(file, got.0);
    }
    seconds.sort_by(|a, b| b.0.total_cmp(&a.0));
    let slowest: Vec<String> = seconds.iter().take(3).map(|(s, f)| format!("{f} {s:.1} s")).collect();
    let (mut passed, mut failed) = (0, 0);
    for (file, abs) in files.iter().zip(&absolute) {
        let rel = file.strip_prefix(dir).unwrap_or(file).display().to_string();
        let expected: Result<Expectation, String> = std::fs::read_to_string(sidecar(file))
            .map_err(|e| format!("no sidecar {}: {e}", sidecar(file).display()))
            .and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string()));
        let (got, reexport, images) = results
            .get(&abs.display().to_string())
            .cloned()
            .unwrap_or_else(|| (Err("Blender did not report it".into()), None, String::new()));
        let verdict = match (expected, got) {
            (Ok(want), Ok(got)) if want == got => back_from_blender(&want, reexport.as_deref(), !is_cross(dir, file))
                .map(|back| format!("{}{images}; {back}", describe(&got))),
            (Ok(want), Ok(got)) => {
                Err(format!("Blender shows {} but relic expects {}", describe(&got), describe(&want)))
            }
            (Err(e), _) | (_, Err(e)) => Err(e.lines().next().unwrap_or("").to_string()),
        };
        match verdict {
            Ok(line) => {
                passed += 1;
                println!("ok   {rel}: {line}");
            }
            Err(e) => {
                failed += 1;
                println!("FAIL {rel}: {e}");
            }
        }
    }
    let _ = std::fs::remove_dir_all(&work);
    println!("blender-check: slowest in Blender: {}", slowest.join(", "));
    println!("blender-check: {passed} passed, {failed} failed");
    if failed > 0 { Err(format!("{failed} file(s) failed the Blender check")) } else { Ok(()) }
}
