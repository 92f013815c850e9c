//! `cargo xtask sweep DIR...`: what a user does with relic, over whole game trees. Every file
//! under each DIR is recognised by its bytes and put through the commands a user runs on it:
//!
//! | what | checks |
//! |---|---|
//! | a model | `info` (the format's own counts), `open` (the common model, with the files beside it), `glb` (export, textured as `relic convert` finds the textures) and `validator` (Khronos glTF-Validator: 0 errors, 0 warnings), `rewrite` (`relic convert` into its own format: byte for byte, its `.skin`/`.anim` files too) |
//! | a texture | `info`, `png` (mip 0 as PNG), `rewrite` (`relic convert` into its own format: byte for byte) |
//! | a part of a model (`.skin`, `.anim`) | checked with its model |
//! | anything else | counted; a file named like a format relic reads (`.m2`, `.blp`, …) that is not recognised fails `detect` |
//!
//! A model whose files beside it (an M2's `.skin`, `.anim`) are not there is `incomplete`, naming
//! them: `info` must still work, and `open` refuses it with relic-m2's typed
//! `ReadErrorKind::Incomplete` (neither passed nor failed; counted on its own). A glTF input that
//! relic refuses and the Khronos validator finds errors in (a test suite's deliberately broken
//! files, glTF 1.0), or that requires an extension relic does not read (Draco: the spec forbids
//! loading it), is refused as the spec asks, counted on its own with the reason; any other glTF
//! relic refuses stays a failure.
//!
//! Each tree ends with `N files, F failed (by check), I incomplete` and the failures grouped by message (numbers
//! and quoted names folded so that one cause is one line), with up to three files each. A panic is
//! a failure of its check, never the end of the sweep. Exit status: failure if any file failed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use relic::{Content, ConvertOptions, Kind, Target, TextureTarget};

/// What became of one file.
#[derive(Default)]
struct FileResult {
    /// `model`, `texture`, `part`, `other`.
    class: &'static str,
    /// (check, message) of each check that failed.
    failures: Vec<(&'static str, String)>,
    /// The files beside a model that it needs and that are not there (an M2's `.skin`, `.anim`):
    /// the model is incomplete, a verdict of its own (neither passed nor failed).
    missing: Vec<String>,
    /// A glTF input relic refused that the Khronos validator finds invalid too (errors: a test
    /// suite's broken files, glTF 1.0), or that requires an extension relic does not read (the
    /// spec forbids loading it): the refusal is right, a verdict of its own. Holds the reason.
    invalid: Option<String>,
}

/// The checks of one file; a panic inside a check is that check's failure.
fn guarded(
    check: &'static str,
    failures: &mut Vec<(&'static str, String)>,
    f: impl FnOnce() -> Result<(), String>,
) -> bool {
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
        .unwrap_or_else(|panic| Err(format!("panicked: {}", panic_text(panic.as_ref()))));
    match result {
        Ok(()) => true,
        Err(why) => {
            failures.push((check, why));
            false
        }
    }
}

fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_string()))
        .unwrap_or_else(|| "(no message)".into())
}

/// Every extension of the formats relic reads, lower case (glTF's too).
fn extensions() -> Vec<String> {
    let mut out: Vec<String> =
        relic::FORMATS.iter().flat_map(|f| f.extensions.iter()).map(|e| e.to_ascii_lowercase()).collect();
    out.extend(["glb".into(), "gltf".into()]);
    out
}

fn check_file(path: &Path, validator: &mut Option<crate::gltf_validator::Validator>, scratch: &Path) -> FileResult {
    let mut result = FileResult::default();
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            result.class = "other";
            result.failures.push(("read", e.to_string()));
            return result;
        }
    };
    let Some(kind) = relic::detect(&bytes) else {
        result.class = "other";
        let ext = path.extension().map(|e| e.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
        if extensions().contains(&ext) {
            result.failures.push(("detect", format!("named .{ext} but not recognised as a file relic reads")));
        }
        return result;
    };
    match kind.content() {
        Content::Part | Content::Animation => result.class = "part",
        Content::Texture => {
            result.class = "texture";
            check_texture(path, &bytes, kind, &mut result.failures);
        }
        Content::Model => {
            result.class = "model";
            result.missing = check_model(path, &bytes, kind, validator, scratch, &mut result.failures);
            if !result.failures.is_empty() && !kind.entry.model.is_some_and(|m| m.records_original) {
                result.invalid = invalid_gltf(path, validator).or_else(|| required_extension(&result.failures));
                if result.invalid.is_some() {
                    result.failures.clear();
                }
            }
        }
    }
    result
}

/// relic's refusal of a glTF requiring an extension relic does not read (Draco, techniques):
/// the glTF spec forbids loading it, so refusing is right; named on its own line.
fn required_extension(failures: &[(&'static str, String)]) -> Option<String> {
    let all = !failures.is_empty() && failures.iter().all(|(_, why)| why.contains("requires the extension(s)"));
    let why = failures.first().filter(|_| all)?;
    Some(why.1.rsplit(": ").next().unwrap_or_default().to_string())
}

/// The validator's line for a glTF input it finds errors in (`None` when it finds none, or
/// cannot run: then relic's refusal stays a failure).
fn invalid_gltf(path: &Path, validator: &mut Option<crate::gltf_validator::Validator>) -> Option<String> {
    if validator.is_none() {
        *validator = crate::gltf_validator::Validator::start().ok();
    }
    let report = validator.as_mut()?.validate(path);
    if report.is_err() {
        *validator = None;
    }
    report.ok().filter(|r| r.errors > 0).map(|r| format!("the validator: {}", r.line()))
}

fn info(path: &Path, bytes: &[u8]) -> Result<(), String> {
    relic_cli::info::describe(path, bytes).map(drop).map_err(|e| e.to_string())
}

fn check_texture(path: &Path, bytes: &[u8], kind: Kind, failures: &mut Vec<(&'static str, String)>) {
    guarded("info", failures, || info(path, bytes));
    let options = relic_core::texture::TextureOptions::default();
    guarded("png", failures, || {
        relic::convert_texture(path, bytes, TextureTarget::Png, Path::new("out.png"), &options)
            .map(drop)
            .map_err(|e| e.to_string())
    });
    let entry = kind.entry;
    guarded("rewrite", failures, || {
        let out = Path::new("out").with_extension(entry.name);
        let written = relic::convert_texture(path, bytes, TextureTarget::Format(entry), &out, &options)
            .map_err(|e| e.to_string())?;
        same_bytes(bytes, &written.value)
    });
}

/// `Ok` if `written` is `original`, else where they part.
fn same_bytes(original: &[u8], written: &[u8]) -> Result<(), String> {
    relic::original::byte_difference(original, written).map_or(Ok(()), Err)
}

fn check_model(
    path: &Path,
    bytes: &[u8],
    kind: Kind,
    validator: &mut Option<crate::gltf_validator::Validator>,
    scratch: &Path,
    failures: &mut Vec<(&'static str, String)>,
) -> Vec<String> {
    guarded("info", failures, || info(path, bytes));
    let mut model = None;
    let mut missing = Vec::new();
    let opened = guarded("open", failures, || {
        match relic::load_model(path, bytes, kind, &[]) {
            Ok(loaded) => model = Some(loaded.value),
            Err(relic::Error::Read { source, .. })
                if matches!(source.kind, relic_core::ReadErrorKind::Incomplete { .. }) =>
            {
                if let relic_core::ReadErrorKind::Incomplete { missing: names, .. } = source.kind {
                    missing = names;
                }
            }
            Err(e) => return Err(e.to_string()),
        }
        Ok(())
    });
    let (true, Some(model)) = (opened, model) else { return missing };
    let textures = crate::textured::game_textures(path);
    let options = ConvertOptions { textures: Some(std::sync::Arc::new(textures)), ..ConvertOptions::default() };
    let mut glb = None;
    guarded("glb", failures, || {
        let out =
            relic::convert(&model, Target::from_name("glb").ok_or("no glb target")?, Path::new("out.glb"), &options)
                .map_err(|e| e.to_string())?;
        glb = out.value.into_iter().next().map(|(_, b)| b);
        Ok(())
    });
    if let Some(glb) = glb {
        guarded("validator", failures, || {
            let file = scratch.join("sweep.glb");
            std::fs::write(&file, &glb).map_err(|e| format!("{}: {e}", file.display()))?;
            if validator.is_none() {
                *validator = Some(crate::gltf_validator::Validator::start()?);
            }
            let v = validator.as_mut().ok_or("no validator")?;
            let report = v.validate(&file);
            if report.is_err() {
                *validator = None;
            }
            let report = report?;
            if report.clean() { Ok(()) } else { Err(report.line()) }
        });
    }
    // A game format writes its own files back; glTF (no original recorded) is not swept for that.
    if kind.entry.model.is_some_and(|m| m.records_original) {
        guarded("rewrite", failures, || rewrite(path, bytes, kind.entry, &model));
    }
    missing
}

/// `relic convert` of the model into its own format, compared byte for byte with the file and the
/// files beside it that the writer writes again.
fn rewrite(path: &Path, bytes: &[u8], entry: &'static relic::FormatEntry, model: &relic::Model) -> Result<(), String> {
    let out = path.with_file_name(format!("{}.sweep", relic::stem(path))).with_extension(entry.name);
    let written = relic::convert(
        model,
        Target::new(entry).ok_or("the format writes no models")?,
        &out,
        &ConvertOptions::default(),
    )
    .map_err(|e| e.to_string())?;
    let stem = relic::stem(&out);
    let siblings = relic::FolderSiblings::of(path);
    for (file, data) in &written.value {
        if *file == out {
            same_bytes(bytes, data)?;
            continue;
        }
        let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        // A file beside the output (`NAME00.skin`) is compared with the one beside the input.
        let original_name = name.replacen(&stem, &relic::stem(path), 1);
        let original = siblings
            .find(&original_name)
            .ok_or_else(|| format!("wrote {name}, which the input has no {original_name} for"))?;
        let original = std::fs::read(&original).map_err(|e| format!("{}: {e}", original.display()))?;
        same_bytes(&original, data).map_err(|e| format!("{original_name}: {e}"))?;
    }
    Ok(())
}

/// A failure message with its file-specific parts folded: numbers become `#`, quoted text `"…"`.
fn cause(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut quoted = false;
    let mut chars = message.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '"' {
            quoted = !quoted;
            if quoted {
                out.push_str("\"…\"");
            }
            continue;
        }
        if quoted {
            continue;
        }
        if c.is_ascii_digit() {
            while chars.peek().is_some_and(|d| d.is_ascii_hexdigit() || *d == 'x' || *d == '.') {
                chars.next();
            }
            out.push('#');
        } else {
            out.push(c);
        }
    }
    out
}

/// Sweeps one tree; returns the number of failed files.
fn sweep_tree(dir: &Path) -> Result<usize, String> {
    let started = Instant::now();
    let files = crate::walk(dir)?;
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(PathBuf, FileResult)>> = Mutex::new(Vec::new());
    let scratch_root = std::env::temp_dir().join(format!("relic-sweep-{}", std::process::id()));
    let workers = std::thread::available_parallelism().map_or(2, usize::from).min(8);
    std::thread::scope(|scope| {
        for w in 0..workers {
            let (files, next, results) = (&files, &next, &results);
            let scratch = scratch_root.join(w.to_string());
            scope.spawn(move || {
                let _ = std::fs::create_dir_all(&scratch);
                let mut validator = None;
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(path) = files.get(i) else { break };
                    let result = check_file(path, &mut validator, &scratch);
                    if let Ok(mut all) = results.lock() {
                        all.push((path.clone(), result));
                    }
                }
            });
        }
    });
    let _ = std::fs::remove_dir_all(&scratch_root);
    let mut results = results.into_inner().map_err(|_| "a sweep worker's results were lost")?;
    results.sort_by(|a, b| a.0.cmp(&b.0));
    print_tree(dir, &results, started.elapsed().as_secs_f64());
    Ok(results.iter().filter(|(_, r)| !r.failures.is_empty()).count())
}

fn print_tree(dir: &Path, results: &[(PathBuf, FileResult)], seconds: f64) {
    let mut classes: BTreeMap<&str, usize> = BTreeMap::new();
    let mut by_check: BTreeMap<&str, usize> = BTreeMap::new();
    let mut by_cause: BTreeMap<(&str, String), Vec<String>> = BTreeMap::new();
    let mut failed = 0;
    let mut incomplete = Vec::new();
    let mut invalid = Vec::new();
    for (path, result) in results {
        *classes.entry(result.class).or_default() += 1;
        failed += usize::from(!result.failures.is_empty());
        let rel = path.strip_prefix(dir).unwrap_or(path).display().to_string();
        if !result.missing.is_empty() {
            incomplete.push(format!("{rel} (missing {})", result.missing.join(", ")));
        }
        if let Some(line) = &result.invalid {
            invalid.push(format!("{rel} ({line})"));
        }
        // Errors name the file; the cause is what remains.
        let own = format!("{}: ", path.display());
        for (check, why) in &result.failures {
            let why = why.replace(&own, "");
            let why = &why;
            *by_check.entry(check).or_default() += 1;
            by_cause.entry((check, cause(why))).or_default().push(format!("{rel}: {why}"));
        }
    }
    let classes: Vec<String> = classes.iter().map(|(c, n)| format!("{n} {c}")).collect();
    let checks: Vec<String> = by_check.iter().map(|(c, n)| format!("{c} {n}")).collect();
    let checks = if checks.is_empty() { String::new() } else { format!(" ({})", checks.join(", ")) };
    let incomplete_count =
        if incomplete.is_empty() { String::new() } else { format!(", {} incomplete", incomplete.len()) };
    let invalid_count = if invalid.is_empty() {
        String::new()
    } else {
        format!(
            ", {} glTF refused as the spec asks (invalid, or a required extension relic does not read)",
            invalid.len()
        )
    };
    println!(
        "{}: {} files ({}), {failed} failed{checks}{incomplete_count}{invalid_count} in {seconds:.1} s",
        dir.display(),
        results.len(),
        classes.join(", ")
    );
    for model in &incomplete {
        println!("  incomplete: {model}");
    }
    for file in &invalid {
        let short: String = file.chars().take(300).collect();
        println!("  refused: {short}");
    }
    let mut causes: Vec<_> = by_cause.into_iter().collect();
    causes.sort_by_key(|c| std::cmp::Reverse(c.1.len()));
    for ((check, _), files) in causes {
        println!("  {check}: {} file(s), e.g. {}", files.len(), files.first().map_or("", String::as_str));
        for f in files.iter().skip(1).take(2) {
            println!("      also {f}");
        }
    }
}

/// `cargo xtask sweep DIR...`.
pub fn run(dirs: &[&Path]) -> Result<(), String> {
    if dirs.is_empty() {
        return Err("sweep: name at least one folder".into());
    }
    let started = Instant::now();
    let mut failed = 0;
    for dir in dirs {
        if !dir.is_dir() {
            return Err(format!("{} is not a folder", dir.display()));
        }
        failed += sweep_tree(dir)?;
    }
    println!("sweep: {} tree(s), {failed} failed file(s) in {:.1} s", dirs.len(), started.elapsed().as_secs_f64());
    if failed == 0 { Ok(()) } else { Err(format!("{failed} file(s) failed")) }
}

#[cfg(test)]
mod tests {
    #[test]
    fn causes_fold_numbers_and_quoted_names() {
        assert_eq!(
            super::cause("views[0].texture_units[3]: combo 12 out of range (at byte 0x1782) in \"AXE.M2\""),
            "views[#].texture_units[#]: combo # out of range (at byte #) in \"…\""
        );
    }

    #[test]
    fn byte_comparisons_name_where_the_files_part() {
        assert!(super::same_bytes(b"abc", b"abc").is_ok());
        assert_eq!(
            super::same_bytes(b"abc", b"abd").unwrap_err(),
            "1 of 3 bytes differ, the first at 0x2 (3 → 3 bytes)"
        );
        assert_eq!(
            super::same_bytes(b"abc", b"ab").unwrap_err(),
            "1 of 3 bytes differ, the first at 0x2 (3 → 2 bytes)"
        );
    }
}
