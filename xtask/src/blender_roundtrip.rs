//! `cargo xtask blender-roundtrip [DIR]`: the workflow modders use, on every model under DIR
//! (default `../shared/corpus`): relic → glb → Blender import → Blender export (with "Custom
//! Properties" ticked, and with Blender's defaults) → relic → the model's own format and version,
//! compared with the original.
//!
//! Compared: every count `relic info` lists for the format (bones, LODs, pieces, child models,
//! sockets, weight sets, particles, …), the animations' count and lengths, the texture names, the
//! LOD-0 vertex positions (within 1e-4), and the output's size. With Custom Properties nothing may
//! differ but what [`ALLOWED`] lists with its reason; without them every difference must be one the
//! conversion reported in a note (a loss with no note is the worst bug relic can ship). Sizes must
//! stay within 1.5× the original. Each written file is also compared with the original byte for
//! byte (issue 38 §8): with Custom Properties it must be identical (the game file travels in the
//! glTF's extras and is written back while Blender's model is still the one it maps to,
//! `relic_core::still`), and the count of identical ones is printed per Blender.
//!
//! Both Blenders run the same script (`xtask/blender_roundtrip.py`): Debian's 3.4 (`blender -b`)
//! and Blender 5 (`bpy` from PyPI, in the virtual environment `cargo xtask python` makes).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use relic::{ConvertOptions, Target};
use relic_core::format::{FormatEntry, Input};
use relic_core::{Fact, Info, Model};

/// A difference that is expected, with why. It names one file, one way of exporting, one fact
/// and the exact difference (`was → is`), so it can excuse nothing else: not the same loss
/// grown, not another file of the class (an entry for one duplicate triangle in Rabbit.m2 once
/// hid 440 lost triangles in UI_Draenei.m2).
pub struct Allowed {
    /// The file, as the table names it (a path under the corpus).
    pub file: &'static str,
    /// `custom` or `plain`.
    pub variant: &'static str,
    /// The fact (`triangles`, `vertices`, `LOD-0 positions`, …).
    pub fact: &'static str,
    /// The difference exactly as the table prints it.
    pub difference: &'static str,
    /// Why it cannot be helped.
    pub reason: &'static str,
}

/// The expected differences: gains, not losses. (Blender's one loss of this kind, triangles that
/// repeat another's corners or name a vertex twice, no longer happens: the export keeps them apart
/// with vertex copies, `relic_gltf` `faces.rs`.)
pub const ALLOWED: &[Allowed] = &[
    Allowed {
        file: "m2-wrath/creature.m2",
        variant: "plain",
        fact: "skins",
        difference: "NAME00.skin → NAME00.skin, NAME01.skin",
        reason: "the corpus lacks the model's second .skin file (read without it, with a note); without relic's \
                 extras the views are built anew from the model, both LODs the header counts, so the file written \
                 has the LOD the original lacked here: more than it had, nothing lost",
    },
    Allowed {
        file: "m2-wrath/creature.m2",
        variant: "plain",
        fact: "note",
        difference: "NAME01.skin (LOD 1) was not found next to the model: read without it and the LODs after it → absent",
        reason: "the note on the missing second .skin file goes because the file written has it (see `skins`)",
    },
    Allowed {
        file: "m2-wrath/Rabbit.m2",
        variant: "custom",
        fact: "sequence_lookup",
        difference: "0 → 11",
        reason: "the file ships with an empty sequence lookup; the file rebuilt from the model Blender gives \
                 back builds one from the sequences' ids: more than it had, nothing of the model lost",
    },
    Allowed {
        file: "m2-wrath/Interface/Vehicles/vehicle_target_02.m2",
        variant: "custom",
        fact: "sequence_lookup",
        difference: "0 → 3",
        reason: "as Rabbit.m2: no sequence lookup in the file, one built from the sequences' ids when rebuilt",
    },
];

/// The reason `ALLOWED` gives for this difference, if it excuses it.
fn allowed(file: &str, variant: &str, fact: &str, difference: &str) -> Option<&'static str> {
    let mut matching = ALLOWED.iter().filter(|a| a.file == file && a.variant == variant && a.fact == fact);
    matching.find(|a| a.difference == difference).map(|a| a.reason)
}

/// How far a LOD-0 vertex may move through Blender.
const POSITION_TOLERANCE: f32 = 1e-4;
/// How much larger than the original the file that comes back may be.
const SIZE_LIMIT: f64 = 1.5;

/// One model to take through Blender.
struct Original {
    rel: String,
    path: PathBuf,
    entry: &'static FormatEntry,
    version: u32,
    bytes: u64,
    model: Model,
    facts: Info,
    glb: PathBuf,
}

/// What came back through one way of exporting.
struct Back {
    /// The written file's name without extension (its sibling files are named after it).
    stem: String,
    facts: Info,
    model: Model,
    bytes: u64,
    notes: Vec<String>,
    /// The written file against the original, byte for byte ([`byte_difference`]).
    same_bytes: String,
}

/// A model, its `info` facts and its size; `Ok(Err(message))` when the model is
/// incomplete (files beside it missing: counted by `cargo xtask corpus`, nothing to take through
/// Blender).
type Read = Result<Result<(Model, Info, u64), String>, String>;

fn read_with_siblings(entry: &FormatEntry, path: &Path) -> Read {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let siblings = relic::FolderSiblings::of(path);
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let input = Input { bytes: &bytes, name: &name, siblings: &siblings };
    let codec = entry.model.ok_or("not a model format")?;
    let model = match (codec.read)(&input) {
        Ok(read) => read.value,
        Err(e) if matches!(e.kind, relic_core::ReadErrorKind::Incomplete { .. }) => return Ok(Err(e.to_string())),
        Err(e) => return Err(e.to_string()),
    };
    let facts = (entry.info)(&input).map_err(|e| e.to_string())?;
    Ok(Ok((model, facts, bytes.len() as u64)))
}

fn originals(dir: &Path, work: &Path, known: &mut Vec<relic_testkit::KnownFailure>) -> Result<Vec<Original>, String> {
    let mut out = Vec::new();
    for path in crate::walk(dir)? {
        let Ok(bytes) = std::fs::read(&path) else { continue };
        let Some(relic::Kind { entry, detected: d }) = relic::detect(&bytes) else { continue };
        let game_model = entry.model.is_some_and(|m| m.records_original);
        if d.content != relic::Content::Model || !entry.versions.reads(d.source.version) || !game_model {
            continue;
        }
        let rel = path.strip_prefix(dir).unwrap_or(&path).display().to_string();
        let (mut model, facts, size) = match read_with_siblings(entry, &path) {
            Ok(Ok(read)) => read,
            Ok(Err(incomplete)) => {
                println!("INC  {rel}: not taken through Blender: {incomplete}");
                continue;
            }
            // A model the corpus step lists as one that cannot be opened.
            Err(e) => match crate::known::judge("corpus", &rel, true) {
                crate::known::Verdict::Known(k) => {
                    println!("KNOWN {rel}: not taken through Blender: {e}");
                    known.push(k);
                    continue;
                }
                _ => return Err(format!("{rel}: {e}")),
            },
        };
        // The record of the game file, as `relic convert` carries it into the glTF.
        model.original = relic::open(&path).ok().and_then(|o| o.model.original);
        let glb = work.join(format!("{}.glb", out.len()));
        let textures = crate::textured::game_textures(&path);
        let options = ConvertOptions { textures: Some(std::sync::Arc::new(textures)), ..ConvertOptions::default() };
        let exported = relic::convert(&model, Target::for_path(&glb).map_err(|e| e.to_string())?, &glb, &options)
            .map_err(|e| format!("{rel}: {e}"))?;
        for (file, bytes) in &exported.value {
            std::fs::write(file, bytes).map_err(|e| format!("{}: {e}", file.display()))?;
        }
        out.push(Original { rel, path, entry, version: d.source.version, bytes: size, model, facts, glb });
    }
    Ok(out)
}

/// Converts a glTF that came back from Blender into the original's format and version.
fn back(original: &Original, glb: &Path) -> Result<Back, String> {
    let bytes = std::fs::read(glb).map_err(|e| format!("{}: {e}", glb.display()))?;
    let kind = relic::detect(&bytes).ok_or_else(|| format!("{}: not read as glTF", glb.display()))?;
    let loaded = relic::load_model(glb, &bytes, kind, &[]).map_err(|e| e.to_string())?;
    let ext = original.path.extension().map(|e| e.to_string_lossy().into_owned()).unwrap_or_default();
    let out = glb.with_extension(format!("back.{ext}"));
    let options = ConvertOptions { version: Some(original.version), ..ConvertOptions::default() };
    let target = Target::new(original.entry).ok_or("the original's format writes no models")?;
    let converted = relic::convert(&loaded.value, target, &out, &options).map_err(|e| e.to_string())?;
    for (file, bytes) in &converted.value {
        std::fs::write(file, bytes).map_err(|e| format!("{}: {e}", file.display()))?;
    }
    let (model, facts, size) = read_with_siblings(original.entry, &out)??;
    let notes = loaded.losses.iter().chain(&converted.losses).map(ToString::to_string).collect();
    let same_bytes = companions_too(original, &out, byte_difference(&original.path, &out), &converted.value);
    Ok(Back { stem: stem_of(&out), facts, model, bytes: size, notes, same_bytes })
}

/// `main` (the file's own comparison), and when that is `identical` each companion written beside
/// `out` against the original's: one named after the file (an M2's `.skin`, `.anim`, `.skel` and
/// `.bone` files) against the original's of the same suffix, one named otherwise (a parent `.skel`
/// named by its FileDataID, `1000301.skel`) against the original's of the same name. The first
/// that differs is named.
fn companions_too(original: &Original, out: &Path, main: String, written: &[(PathBuf, Vec<u8>)]) -> String {
    if main != "identical" {
        return main;
    }
    let (out_stem, stem) = (stem_of(out), stem_of(&original.path));
    for (file, _) in written.iter().skip(1) {
        let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let after_stem = name
            .get(..out_stem.len())
            .filter(|s| s.eq_ignore_ascii_case(&out_stem))
            .and_then(|_| name.get(out_stem.len()..));
        let (theirs, which) = match after_stem {
            Some(suffix) => (original.path.with_file_name(format!("{stem}{suffix}")), suffix.to_string()),
            None => (original.path.with_file_name(&name), name.clone()),
        };
        let same = byte_difference(&theirs, file);
        if same != "identical" {
            return format!("identical file; its {which}: {same}");
        }
    }
    main
}

/// `identical`, or how many bytes of the written file differ from the original's (issue 38 §8
/// asks for identical files through Blender with Custom Properties).
fn byte_difference(original: &Path, written: &Path) -> String {
    match (std::fs::read(original), std::fs::read(written)) {
        (Ok(a), Ok(b)) if a == b => "identical".into(),
        (Ok(a), Ok(b)) => {
            let differ = a.iter().zip(&b).filter(|(x, y)| x != y).count() + a.len().abs_diff(b.len());
            format!("{differ} of {} differ", a.len())
        }
        (Err(e), _) | (_, Err(e)) => format!("not compared: {e}"),
    }
}

fn stem_of(path: &Path) -> String {
    path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
}

fn fact_text(f: &Fact) -> String {
    match f {
        Fact::Count(n) => n.to_string(),
        Fact::Number(x) => format!("{x:.4}"),
        Fact::Text(t) => t.clone(),
    }
}

fn same_fact(a: &Fact, b: &Fact) -> bool {
    match (a, b) {
        (Fact::Number(x), Fact::Number(y)) => (x - y).abs() <= 1e-3 * x.abs().max(1.0),
        _ => a == b,
    }
}

/// The tags of `relic info`'s chunk list (`MD21 (5344 bytes), SFID (16 bytes)` → `MD21, SFID`).
fn chunk_tags(chunks: &str) -> String {
    let mut depth = 0usize;
    let outside: String = chunks
        .chars()
        .filter(|&c| {
            match c {
                '(' => depth += 1,
                ')' => depth = depth.saturating_sub(1),
                _ => return depth == 0,
            }
            false
        })
        .collect();
    outside.split(',').map(str::trim).collect::<Vec<_>>().join(", ")
}

/// Every difference between the original and what came back, as (kind, "was → is").
fn differences(original: &Original, back: &Back) -> Vec<(String, String)> {
    let mut out = Vec::new();
    // File names listed in the facts (an M2's `.skin` files, and notes naming one) are named
    // after the file itself: compared and shown with the file's own name as NAME.
    let named = |key: &str, f: &Fact, stem: &str| match f {
        Fact::Text(t) if matches!(key, "skins" | "anims" | "skel" | "note") => Fact::Text(t.replace(stem, "NAME")),
        other => other.clone(),
    };
    let original_stem = stem_of(&original.path);
    // Notes are compared where they name a file beside the model (a `.skin` not found): that
    // note goes only when the file written has it. Any other note is on the source's own bytes
    // (an inconsistency the game loads, a converter's damage kept as read): the file written from
    // the model does not repeat it, and nothing of the model is lost.
    let back_notes: Vec<Fact> =
        back.facts.facts.iter().filter(|(k, _)| *k == "note").map(|(k, f)| named(k, f, &back.stem)).collect();
    for (key, fact) in &original.facts.facts {
        let was = named(key, fact, &original_stem);
        if *key == "note" {
            if fact_text(&was).contains("NAME") && !back_notes.contains(&was) {
                out.push((key.to_string(), format!("{} → absent", fact_text(&was))));
            }
            continue;
        }
        // A chunked file's chunks by tag: their sizes follow the layout the writer chose.
        let tags = |f: Fact| match f {
            Fact::Text(t) if *key == "chunks" => Fact::Text(chunk_tags(&t)),
            other => other,
        };
        let was = tags(was);
        match back.facts.get(key).map(|b| tags(named(key, b, &back.stem))) {
            Some(b) if same_fact(&was, &b) => {}
            Some(b) => out.push((key.to_string(), format!("{} → {}", fact_text(&was), fact_text(&b)))),
            None => out.push((key.to_string(), format!("{} → absent", fact_text(&was)))),
        }
    }
    let (a, b) = (&original.model, &back.model);
    let durations = |m: &Model| m.animations.iter().map(|x| (x.name.clone(), x.duration)).collect::<BTreeMap<_, _>>();
    let (da, db) = (durations(a), durations(b));
    let changed: Vec<&String> =
        da.iter().filter(|(n, d)| db.get(*n).is_none_or(|e| (*d - e).abs() > 1e-3)).map(|(n, _)| n).collect();
    if !changed.is_empty() {
        out.push((
            "animation lengths".into(),
            format!(
                "{} differ or are missing ({})",
                changed.len(),
                changed.iter().take(3).map(|n| format!("{n:?}")).collect::<Vec<_>>().join(", ")
                    + if changed.len() > 3 { ", …" } else { "" }
            ),
        ));
    }
    let textures = |m: &Model| {
        let mut t: Vec<String> = m.materials.iter().flat_map(|x| x.textures.iter().map(|t| t.path.clone())).collect();
        t.sort();
        t
    };
    if textures(a) != textures(b) {
        out.push(("texture names".into(), format!("{:?} → {:?}", textures(a), textures(b))));
    }
    if let Some(why) = lod0_positions(a, b) {
        out.push(("LOD-0 positions".into(), why));
    }
    out
}

/// Whether every LOD-0 vertex of `a` has one in `b` within the tolerance (and the counts agree):
/// the positions of `b` are bucketed on a grid of the tolerance, each of `a` looked up nearby.
fn lod0_positions(a: &Model, b: &Model) -> Option<String> {
    let lod0 = |m: &Model| -> Vec<[f32; 3]> {
        m.meshes.iter().filter(|x| x.lod.level == 0).flat_map(|x| x.positions.clone()).collect()
    };
    let (pa, pb) = (lod0(a), lod0(b));
    if pa.len() != pb.len() {
        return Some(format!("{} LOD-0 vertices → {}", pa.len(), pb.len()));
    }
    let cell = |p: [f32; 3]| p.map(|c| (c / POSITION_TOLERANCE).floor() as i64);
    let mut grid: std::collections::HashMap<[i64; 3], Vec<[f32; 3]>> = std::collections::HashMap::new();
    for p in &pb {
        grid.entry(cell(*p)).or_default().push(*p);
    }
    let mut missing = 0usize;
    for p in &pa {
        let [x, y, z] = cell(*p);
        let found = (-1..=1).any(|dx| {
            (-1..=1).any(|dy| {
                (-1..=1).any(|dz| {
                    grid.get(&[x + dx, y + dy, z + dz])
                        .is_some_and(|ps| ps.iter().any(|q| relic_core::math::max_abs_diff(p, q) <= POSITION_TOLERANCE))
                })
            })
        });
        missing += usize::from(!found);
    }
    (missing > 0)
        .then(|| format!("{missing} of {} LOD-0 vertices moved by more than {POSITION_TOLERANCE:.0e}", pa.len()))
}

/// The words a note about losing `kind` uses.
fn keywords(kind: &str) -> Vec<String> {
    let base = kind.trim_end_matches('s').replace('_', " ");
    let mut words = vec![base.clone()];
    match kind {
        "lods" | "lod_distances" => words.push("LOD".into()),
        "keyframes" => words.push("key".into()),
        "sockets" | "attachments" => words.extend(["socket".into(), "attachment".into()]),
        "views" | "submeshes" => words.extend(["view".into(), "geoset".into()]),
        // A note that the textures are gone covers their names.
        "texture names" => words.push("textures:".into()),
        // A chunked M2's chunks beside the model name files by FileDataID: a note on those
        // (`file data ids: 2 in the original, 0 written`) covers them and the container.
        "container" | "chunks" | "skin_file_ids" | "texture_file_ids" | "anim_file_ids" | "bone_file_ids" => {
            words.push("file data id".into())
        }
        // A skeleton written into the MD20 block (no `.skel`): the note on the `.skel` files
        // (`skel files: 2 in the original, 0 written`) covers its facts.
        "skel" | "parent_skels" => words.push("skel file".into()),
        "skeleton_file_id" => words.extend(["skel file".into(), "file data id".into()]),
        // Chunks relic does not know, kept as bytes: `unknown chunks: 1 in the original`.
        "raw_chunks" => words.push("unknown chunk".into()),
        // A note on the vertex count covers where LOD 0's vertices are.
        "LOD-0 positions" => words.push("vertices".into()),
        _ => {}
    }
    words
}

/// The chunk list follows the records: a file whose record counts changed, each change noted, has
/// other chunks (an MDX rebuilt without its extras loses its PRE2 chunk with its emitter, noted
/// as `particle emitters2: 1 in the original, 0 written`). A chunk list that changed alone is not
/// covered.
fn layout_follows(kind: &str, diffs: &[(String, String)], notes: &[String]) -> bool {
    let mut others = diffs.iter().filter(|(k, _)| k != "chunks").peekable();
    kind == "chunks" && others.peek().is_some() && others.all(|(k, _)| reported(k, notes))
}

/// A note of the original's that names a `.skel` beside it (`NAME.skel: 2 sequences, … → absent`)
/// goes with the `.skel`: covered by the note that counts the `.skel` files written.
fn file_beside_noted(what: &str, notes: &[String]) -> bool {
    what.starts_with("NAME.skel") && reported("skel", notes)
}

fn reported(kind: &str, notes: &[String]) -> bool {
    let words = keywords(kind);
    notes.iter().any(|n| words.iter().any(|w| n.to_lowercase().contains(&w.to_lowercase())))
}

/// Converts back what one Blender (`label`) wrote for each original, prints a table row per
/// way of exporting, and adds what fails to `failures`; returns how many came back byte for byte
/// identical with Custom Properties and without.
fn judge_records<'a>(
    label: &str,
    originals: &'a [Original],
    records: &[serde_json::Value],
    failures: &mut Vec<(&'a String, String)>,
) -> [usize; 2] {
    let mut identical = [0usize; 2];
    // A model Blender did not report on (it stopped, or crashed, before it) fails.
    for original in originals.iter().skip(records.len()) {
        failures.push((&original.rel, format!("Blender {label} stopped before this model")));
    }
    for (original, record) in originals.iter().zip(records) {
        if let Some(e) = record.get("error").and_then(serde_json::Value::as_str) {
            failures.push((&original.rel, format!("Blender {label}: {e}")));
            continue;
        }
        for variant in ["custom", "plain"] {
            let Some(glb) = record.get(variant).and_then(serde_json::Value::as_str) else { continue };
            let row = match back(original, Path::new(glb)) {
                Ok(b) => b,
                Err(e) => {
                    failures.push((&original.rel, format!("(Blender {label}, {variant}): {e}")));
                    continue;
                }
            };
            let diffs = differences(original, &row);
            let ratio = row.bytes as f64 / original.bytes as f64;
            let shown: Vec<String> = diffs.iter().map(|(k, d)| format!("{k} {d}")).collect();
            println!(
                "| {} | {label} | {variant} | {} | {} | {ratio:.2}× | {} |",
                original.rel,
                if shown.is_empty() { "none".into() } else { shown.join("; ") },
                row.notes.len(),
                row.same_bytes
            );
            if row.same_bytes == "identical" {
                identical[usize::from(variant == "plain")] += 1;
            } else if variant == "custom" {
                failures.push((
                    &original.rel,
                    format!("(Blender {label}, custom): not byte-identical ({})", row.same_bytes),
                ));
            }
            for (kind, what) in &diffs {
                let reason = allowed(&original.rel, variant, kind, what);
                if let Some(reason) = reason {
                    println!("allowed {} (Blender {label}, {variant}): {kind} {what}: {reason}", original.rel);
                }
                let allowed = reason.is_some();
                let noted = reported(kind, &row.notes)
                    || layout_follows(kind, &diffs, &row.notes)
                    || (kind == "note" && file_beside_noted(what, &row.notes));
                let silent = !noted;
                if variant == "custom" && !allowed {
                    failures.push((&original.rel, format!("(Blender {label}, custom): {kind} {what}")));
                } else if variant == "plain" && silent && !allowed {
                    failures
                        .push((&original.rel, format!("(Blender {label}, plain): {kind} {what}, and no note says so")));
                }
            }
            if ratio > SIZE_LIMIT {
                failures
                    .push((&original.rel, format!("(Blender {label}, {variant}): {ratio:.2}× the original's size")));
            }
        }
    }
    identical
}

pub fn run(dir: Option<&Path>) -> Result<(), String> {
    crate::blender::available()?;
    let dir = dir.map(Path::to_path_buf).unwrap_or_else(|| crate::workspace_root().join(crate::CORPUS));
    let work = crate::workspace_root().join("target/blender-roundtrip");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).map_err(|e| format!("{}: {e}", work.display()))?;
    let mut known = Vec::new();
    let originals = originals(&dir, &work, &mut known)?;
    let listing = work.join("files.txt");
    let text: String = originals.iter().map(|o| format!("{}\n", o.glb.display())).collect();
    std::fs::write(&listing, text).map_err(|e| e.to_string())?;
    let script = crate::workspace_root().join("xtask/blender_roundtrip.py");
    // Debian's Blender 3.4 and Blender 5 (`bpy` from PyPI): the same script in each.
    let mut blender = Command::new("blender");
    blender.args(["-b", "--factory-startup", "--python-exit-code", "1", "--python"]).arg(&script);
    let bpy = crate::python::venv("bpy", &[crate::python::BPY])?;
    let mut python = Command::new(bpy.join("bin/python"));
    python.arg(&script);
    println!("| model | Blender | way | differences (was → is) | notes | size | bytes |");
    println!("|---|---|---|---|---:|---:|---|");
    let mut failures = Vec::new();
    let mut identical = Vec::new();
    for (label, mut command) in [("3.4", blender), ("5", python)] {
        let out = work.join(format!("blender-{label}"));
        std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
        let report = out.join("report.jsonl");
        let status = command
            .arg("--")
            .args([&listing, &out, &report])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .map_err(|e| format!("cannot run Blender {label}: {e}"))?;
        let lines =
            std::fs::read_to_string(&report).map_err(|e| format!("Blender {label} wrote no report ({status}): {e}"))?;
        let records: Vec<serde_json::Value> = lines.lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
        identical.push((label, judge_records(label, &originals, &records, &mut failures)));
    }
    // A listed known failure's differences are printed and counted, not failed on.
    let mut failed = 0;
    for (rel, what) in &failures {
        match crate::known::judge("blender", rel, true) {
            crate::known::Verdict::Known(k) => {
                println!("KNOWN {rel} {what}");
                if !known.contains(&k) {
                    known.push(k);
                }
            }
            _ => {
                println!("FAIL {rel} {what}");
                failed += 1;
            }
        }
    }
    // A listed model that came through without a failure: the list is stale.
    for original in &originals {
        let clean = failures.iter().all(|(rel, _)| **rel != original.rel);
        if let (true, crate::known::Verdict::NowPasses(k)) =
            (clean, crate::known::judge("blender", &original.rel, false))
        {
            println!(
                "FAIL {}: listed as a known failure ({}) but passes now: take it off corpus-known-failures.txt",
                original.rel, k.what
            );
            failed += 1;
        }
    }
    println!("{}", crate::known::summary("blender", &known));
    let identical: Vec<String> = identical
        .iter()
        .map(|(label, [custom, plain])| format!("Blender {label}: {custom} with Custom Properties, {plain} without"))
        .collect();
    println!(
        "blender-roundtrip: {} models, {failed} failures; byte-identical: {}",
        originals.len(),
        identical.join("; ")
    );
    if failed == 0 { Ok(()) } else { Err(format!("{failed} Blender round-trip failure(s)")) }
}

#[cfg(test)]
mod tests {
    #[test]
    fn chunk_lists_compare_by_tag() {
        assert_eq!(super::chunk_tags("MD21 (391296 bytes, declared 264), SFID (8 bytes)"), "MD21, SFID");
        assert_eq!(
            super::chunk_tags("MD21 (5344 bytes), SFID (16 bytes), TXID (8 bytes), RLX1 (6 bytes)"),
            "MD21, SFID, TXID, RLX1"
        );
    }
}
