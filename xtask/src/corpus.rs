//! `cargo xtask corpus DIR`: runs every check relic has on every model file under DIR.
//!
//! Files are recognised by their bytes, never by their extension. Each model gets the format
//! crate's own battery (parse, byte-identical re-write, IR round trip, the format's real-data
//! proofs) plus the cross-format checks registered in [`extra_checks`]. One line per file, then
//! `N passed, M failed` (`, K refused` for out-of-scope versions; `, I incomplete` for models whose
//! `.skin`/`.anim` files are not beside them, each named; `, J not models` for other files).

use std::path::Path;
use std::time::Instant;

use relic_core::check::{Checks, Status};

/// Checks that need more than one crate (animation proofs, glTF export).
fn extra_checks(path: &Path, bytes: &[u8]) -> Checks {
    let mut checks = animation_checks(path, bytes);
    // glTF: export, Khronos validator (0 errors, 0 warnings), import back.
    checks.extend(crate::gltf_validator::corpus_checks(path, bytes));
    checks.extend(crate::ltb_probe::checks(path, bytes));
    checks
}

/// How far the rest pose may move a vertex (game units; the corpus's worst is 1e-5).
const REST_TOLERANCE: f32 = 1e-3;
/// How far a posed key box may be from the one the file stores (abc.md §3.4).
const KEY_BOX_TOLERANCE: f32 = 0.01;
/// How far the fast skinning loop may be from the reference loop.
const FAST_TOLERANCE: f32 = 1e-5;

/// The real-data proofs of relic-anim on the common model of a file: the model is posed by
/// relic-anim and compared with what the file itself states, so a wrong axis, quaternion
/// convention, pivot or bind matrix anywhere between the bytes and the pose shows as an error.
/// Each check prints its worst error. Animation files (NAD) have no model of their own: skipped.
/// (M2's sequence boxes are the format's own `sequence-boxes` check, posed by relic-anim too.)
pub fn animation_checks(path: &Path, bytes: &[u8]) -> Checks {
    let mut checks = Checks::new();
    let model = match crate::gltf_validator::read_model(path, bytes) {
        None => {
            checks.skip("anim", "no model of its own");
            return checks;
        }
        Some(Err(e)) => {
            checks.skip("anim", format!("no model of its own ({e})"));
            return checks;
        }
        Some(Ok(model)) => model,
    };
    checks.run("anim-rest-pose", || relic_anim::proofs::rest_pose(&model, REST_TOLERANCE));
    let key_boxes = relic_anim::proofs::stored_key_boxes(&model);
    if !key_boxes.is_empty() {
        checks.run("anim-key-boxes", || relic_anim::proofs::key_boxes(&model, &key_boxes, KEY_BOX_TOLERANCE));
    }
    checks.run("anim-fast-vs-reference", || relic_anim::proofs::fast_matches_reference(&model, FAST_TOLERANCE));
    checks
}

/// Outcome of one file.
enum Outcome {
    Passed,
    Failed,
    /// Failed, and listed in `corpus-known-failures.txt`.
    Known(relic_testkit::KnownFailure),
    Refused,
    /// Files beside the model (an M2's `.skin`, `.anim`) are not there: named, not a failure.
    Incomplete,
    /// A part of a model stored in another file (an M2 `.skin`): checked with that model.
    Part,
    NotModel,
}

fn check_file(root: &Path, path: &Path) -> Outcome {
    let rel = path.strip_prefix(root).unwrap_or(path).display().to_string();
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            println!("FAIL {rel}: cannot read: {e}");
            return Outcome::Failed;
        }
    };
    let Some((format, detected)) = relic::detect_format(&bytes) else {
        println!("--   {rel}: not a model (skipped)");
        return Outcome::NotModel;
    };
    let info = detected.source;
    if detected.content == relic::Content::Part {
        println!("--   {rel} [{} part]: checked with its model", info.format);
        return Outcome::Part;
    }
    let started = Instant::now();
    let siblings = relic::FolderSiblings::of(path);
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let input = relic_core::format::Input { bytes: &bytes, name: &name, siblings: &siblings };
    let mut checks = match format.checks {
        Some(run) => run(&input),
        None => Checks::new(),
    };
    // Animation proofs and glTF export are for models; textures have their own checks only.
    let model_like = detected.content != relic_core::format::Content::Texture;
    if checks.passed() && !checks.refused() && !checks.incomplete() && model_like {
        checks.extend(extra_checks(path, &bytes));
    }
    let summary = checks.0.iter().map(|c| c.to_string()).collect::<Vec<_>>().join("; ");
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    let (mark, outcome) = if !checks.passed() {
        ("FAIL", Outcome::Failed)
    } else if checks.refused() {
        ("REF ", Outcome::Refused)
    } else if checks.incomplete() {
        ("INC ", Outcome::Incomplete)
    } else if checks.0.iter().any(|c| c.status == Status::Pass) {
        ("ok  ", Outcome::Passed)
    } else {
        // A file on which nothing was checked has not passed anything.
        ("FAIL", Outcome::Failed)
    };
    // A refused file (a version or kind relic does not read yet) that the list names is one of
    // its known failures too: it stays listed until relic reads it.
    let failed = matches!(outcome, Outcome::Failed | Outcome::Refused);
    let (mark, outcome) = match crate::known::judge("corpus", &rel, failed) {
        crate::known::Verdict::Known(k) => ("KNOWN", Outcome::Known(k)),
        crate::known::Verdict::NowPasses(k) => {
            println!(
                "FAIL {rel}: listed as a known failure ({}) but passes now: take it off corpus-known-failures.txt",
                k.what
            );
            ("FAIL", Outcome::Failed)
        }
        _ => (mark, outcome),
    };
    println!("{mark} {rel} [{} v{}] {summary} [{ms:.0} ms]", info.format, info.version);
    // The verdict a reader needs first: the first check that failed, with its figures.
    if let Some(first) = checks.failures().next() {
        println!("     first failing check: {first}");
    }
    outcome
}

/// Runs the corpus checks; `Err` if any file failed.
pub fn run(dir: &Path) -> Result<(), String> {
    if !dir.is_dir() {
        return Err(format!("{} is not a folder", dir.display()));
    }
    let (mut passed, mut failed, mut refused, mut incomplete, mut parts, mut other) = (0, 0, 0, 0, 0, 0);
    let mut known = Vec::new();
    let files = crate::walk(dir)?;
    for path in &files {
        match check_file(dir, path) {
            Outcome::Passed => passed += 1,
            Outcome::Failed => failed += 1,
            Outcome::Known(k) => known.push(k),
            Outcome::Refused => refused += 1,
            Outcome::Incomplete => incomplete += 1,
            Outcome::Part => parts += 1,
            Outcome::NotModel => other += 1,
        }
    }
    // Models present in two versions (m2-wrath/GnomePounder.m2 ↔ m2/GnomePounder-vanilla.m2).
    let (pairs_passed, pairs_failed) = crate::corpus_pairs::run(dir, &files, &mut known);
    failed += pairs_failed;
    let mut line = format!("{passed} passed, {failed} failed");
    if pairs_passed + pairs_failed > 0 {
        line.push_str(&format!(" ({pairs_passed} of {} pairs passed)", pairs_passed + pairs_failed));
    }
    if refused > 0 {
        line.push_str(&format!(", {refused} refused"));
    }
    if incomplete > 0 {
        line.push_str(&format!(", {incomplete} incomplete (files beside them missing)"));
    }
    if parts > 0 {
        line.push_str(&format!(", {parts} parts of models"));
    }
    if other > 0 {
        line.push_str(&format!(", {other} not models"));
    }
    if !known.is_empty() {
        line.push_str(&format!(", {} known failures", known.len()));
    }
    println!("{line}");
    println!("{}", crate::known::summary("corpus", &known));
    if failed > 0 { Err(format!("{failed} corpus file(s) failed")) } else { Ok(()) }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// Every fixture model passes relic-anim's proofs (the reference and fast skinning agree to
    /// 1e-5, the rest pose reproduces the stored vertices, stored key boxes are reproduced).
    #[test]
    fn fixtures_pass_the_animation_proofs() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
        let mut checked = 0;
        for path in crate::walk(&dir).unwrap() {
            // Under fixtures/: the checkout's own path may hold the word (a worktree named hostile).
            if path.strip_prefix(&dir).unwrap_or(&path).components().any(|c| c.as_os_str() == "hostile") {
                continue;
            }
            let bytes = std::fs::read(&path).unwrap();
            if relic::detect_format(&bytes).is_none() {
                continue;
            }
            let checks = super::animation_checks(&path, &bytes);
            let failures: Vec<String> = checks.failures().map(ToString::to_string).collect();
            assert!(failures.is_empty(), "{}: {failures:?}", path.display());
            checked += usize::from(checks.0.iter().any(|c| c.name == "anim-fast-vs-reference"));
        }
        assert!(checked >= 30, "only {checked} fixture models were posed");
    }
}
