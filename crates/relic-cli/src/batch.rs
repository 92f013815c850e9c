//! `relic batch`: every model under a folder, converted in parallel into a mirrored folder tree.
//! A bad file is reported and skipped; it never stops the batch. Models that would be written to
//! the same output (`walk.abc` and `walk.m2` both to `walk.glb`) are each reported as failed and
//! none of them is written, so no output silently replaces another.

use std::collections::HashMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

use crate::error::CliError;
use crate::output::OutputPolicy;
use relic::{ConvertOptions, Target, convert};

/// What `relic batch` was asked to do.
#[derive(Debug, Clone)]
pub struct BatchRequest {
    /// The folder searched (recursively) for models.
    pub input_dir: PathBuf,
    /// Where the converted files go, mirroring `input_dir`'s folders.
    pub output_dir: PathBuf,
    /// The format written: a model format (textures are skipped) or a texture format (models
    /// are skipped).
    pub target: BatchTarget,
    /// Worker threads (at least 1).
    pub jobs: usize,
    /// Overwrite existing outputs.
    pub force: bool,
    /// Conversion choices (version, LOD).
    pub options: ConvertOptions,
    /// Where each model's textures are looked for (glTF outputs).
    pub textures: relic::textures::TextureSearch,
    /// Choices for texture outputs.
    pub texture_options: relic_core::texture::TextureOptions,
    /// From glTF to a game format: leave the glTF's images out (`--no-textures`).
    pub no_textures: bool,
    /// Draw a progress bar (else one plain line per file).
    pub progress: bool,
    /// One JSON object per file on standard output instead of the plain lines.
    pub json: bool,
}

/// What a batch writes.
#[derive(Debug, Clone, Copy)]
pub enum BatchTarget {
    /// Every model, to this format.
    Model(Target),
    /// Every texture (BLP, DTX, PNG), to this format.
    Texture(relic::TextureTarget),
}

impl BatchTarget {
    /// The target of a `--to` name.
    pub fn from_name(name: &str) -> Option<BatchTarget> {
        relic::TextureTarget::from_name(name)
            .map(BatchTarget::Texture)
            .or_else(|| Target::from_name(name).map(BatchTarget::Model))
    }

    /// The extension of the outputs.
    pub fn extension(&self) -> &'static str {
        match self {
            BatchTarget::Model(t) => t.extension(),
            BatchTarget::Texture(t) => t.extension(),
        }
    }

    /// Every file written for the output `out`.
    pub fn output_paths(&self, out: &Path) -> Vec<PathBuf> {
        match self {
            BatchTarget::Model(t) => t.output_paths(out),
            BatchTarget::Texture(_) => vec![out.to_path_buf()],
        }
    }
}

/// How one file ended.
#[derive(Debug)]
pub enum FileOutcome {
    /// Converted: bytes read and written, and what the target could not hold.
    Converted {
        /// Input size.
        read: u64,
        /// Output size (all files).
        written: u64,
        /// What the target could not hold, and notes on what could not be read.
        notes: Vec<String>,
    },
    /// Its output exists and `--force` was not given: kept, not converted.
    Exists(PathBuf),
    /// Not a model relic reads (a texture, an animation or a part without its model, a foreign file).
    Skipped(String),
    /// The file is damaged, of a version relic does not read, or its output could not be written.
    Failed(CliError),
}

impl FileOutcome {
    /// The status word of the JSON lines and the plain lines.
    pub fn status(&self) -> &'static str {
        match self {
            FileOutcome::Converted { .. } => "converted",
            FileOutcome::Exists(_) => "exists",
            FileOutcome::Skipped(_) => "skipped",
            FileOutcome::Failed(_) => "failed",
        }
    }
}

/// The closing figures of a batch.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct BatchSummary {
    /// Files found.
    pub files: usize,
    /// Models converted.
    pub converted: usize,
    /// Models whose output existed (kept, not converted: no `--force`).
    pub exists: usize,
    /// Files that are not models.
    pub skipped: usize,
    /// Files that failed.
    pub failed: usize,
    /// Notes over all converted models (what their targets could not hold).
    pub notes: usize,
    /// Bytes read from converted models.
    pub bytes_read: u64,
    /// Bytes written.
    pub bytes_written: u64,
    /// Wall time.
    pub elapsed: Duration,
}

impl std::fmt::Display for BatchSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let secs = self.elapsed.as_secs_f64();
        let mb = |b: u64| b as f64 / 1e6;
        let rate = if secs > 0.0 { mb(self.bytes_read) / secs } else { 0.0 };
        write!(
            f,
            "batch: {} converted, {} skipped (exists), {} skipped (not models), {} failed, {} notes; {} files, read {:.2} MB, wrote {:.2} MB in {:.2} s ({:.1} MB/s, {:.1} models/s)",
            self.converted,
            self.exists,
            self.skipped,
            self.failed,
            self.notes,
            self.files,
            mb(self.bytes_read),
            mb(self.bytes_written),
            secs,
            rate,
            if secs > 0.0 { self.converted as f64 / secs } else { 0.0 },
        )
    }
}

/// Every file under `dir` (recursively, not following symbolic links), sorted, leaving out the
/// folder `exclude` (the output folder when it lies inside the input folder).
pub fn walk(dir: &Path, exclude: Option<&Path>) -> Result<Vec<PathBuf>, CliError> {
    let exclude = exclude.and_then(|e| e.canonicalize().ok());
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        if exclude.is_some() && d.canonicalize().ok() == exclude {
            continue;
        }
        let entries = std::fs::read_dir(&d).map_err(|e| CliError::io(&d, e))?;
        for entry in entries {
            let entry = entry.map_err(|e| CliError::io(&d, e))?;
            let kind = entry.file_type().map_err(|e| CliError::io(&entry.path(), e))?;
            if kind.is_dir() {
                stack.push(entry.path());
            } else if kind.is_file() {
                out.push(entry.path());
            }
        }
    }
    out.sort();
    Ok(out)
}

/// `files` in the order the workers take them: the most work first, so that no worker is left
/// with a large file while the others have finished (largest first). The work is guessed from the
/// file's size, an LTB's five times (CrossFire's are LZMA-compressed: a few hundred KB are
/// megabytes to decode); a file whose size cannot be read goes last, and fails there.
fn largest_first(files: &[PathBuf]) -> Vec<&PathBuf> {
    let work = |f: &PathBuf| {
        let size = std::fs::metadata(f).map_or(0, |m| m.len());
        let compressed = f.extension().is_some_and(|e| e.eq_ignore_ascii_case("ltb"));
        if compressed { size.saturating_mul(5) } else { size }
    };
    let mut order: Vec<(u64, &PathBuf)> = files.iter().map(|f| (work(f), f)).collect();
    order.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(b.1)));
    order.into_iter().map(|(_, f)| f).collect()
}

/// Where the batch writes the conversion of `path` (a file under `input_dir`).
fn output_path(request: &BatchRequest, path: &Path) -> PathBuf {
    let rel = path.strip_prefix(&request.input_dir).unwrap_or(path);
    request.output_dir.join(rel).with_extension(request.target.extension())
}

/// An output shared by several models of a batch: the output, and the other inputs writing it.
type Clash = (PathBuf, Vec<PathBuf>);

/// Models of `files` that would be converted to the same output file (`walk.abc` and `walk.m2`
/// both to `walk.glb`, or to `walk.gltf` + `walk.bin`), each with the output and the other
/// inputs. Found before anything runs, so the outcome does not depend on which worker is first:
/// every one of them fails, none is written, with or without `--force`. Only the files whose
/// output names clash are read (in parallel), to leave out files that are not models.
fn clashes(request: &BatchRequest, files: &[PathBuf]) -> HashMap<PathBuf, Clash> {
    let mut writers: HashMap<PathBuf, Vec<usize>> = HashMap::new();
    for (i, f) in files.iter().enumerate() {
        for out in request.target.output_paths(&output_path(request, f)) {
            writers.entry(out).or_default().push(i);
        }
    }
    writers.retain(|_, inputs| inputs.len() > 1);
    if writers.is_empty() {
        return HashMap::new();
    }
    let mut candidates: Vec<usize> = writers.values().flatten().copied().collect();
    candidates.sort_unstable();
    candidates.dedup();
    let is_model: HashMap<usize, bool> = candidates
        .par_iter()
        .map(|&i| {
            let model = files.get(i).is_some_and(|f| {
                relic::read_file(f).ok().and_then(|bytes| relic::detect(&bytes)).is_some_and(|k| k.is_model())
            });
            (i, model)
        })
        .collect();
    let mut out: HashMap<PathBuf, Clash> = HashMap::new();
    for (i, file) in files.iter().enumerate() {
        if is_model.get(&i) != Some(&true) {
            continue;
        }
        // Named by its first shared output (the .gltf before its .bin).
        let mut clash: Option<Clash> = None;
        for output in request.target.output_paths(&output_path(request, file)) {
            let Some(inputs) = writers.get(&output) else { continue };
            let others = inputs.iter().filter(|&&j| j != i && is_model.get(&j) == Some(&true));
            let others: Vec<PathBuf> = others.filter_map(|&j| files.get(j).cloned()).collect();
            if !others.is_empty() {
                clash.get_or_insert_with(|| (output, Vec::new())).1.extend(others);
            }
        }
        if let Some((output, mut others)) = clash {
            others.sort();
            others.dedup();
            out.insert(file.clone(), (output, others));
        }
    }
    out
}

/// Converts one file of the batch.
fn convert_one(
    request: &BatchRequest,
    policy: &OutputPolicy,
    clashes: &HashMap<PathBuf, Clash>,
    path: &Path,
) -> (PathBuf, PathBuf, FileOutcome) {
    let rel = path.strip_prefix(&request.input_dir).unwrap_or(path).to_path_buf();
    let out = output_path(request, path);
    if let Some((output, others)) = clashes.get(path) {
        let error = CliError::SameOutput { file: path.to_path_buf(), output: output.clone(), others: others.clone() };
        return (rel, out, FileOutcome::Failed(error));
    }
    let outcome = (|| {
        let bytes = relic::read_file(path)?;
        if let BatchTarget::Texture(target) = request.target {
            return convert_texture(request, policy, path, &bytes, target, &out);
        }
        let Some(kind) = relic::detect(&bytes) else {
            let what = relic::Registry::builtin().describe(&bytes).map_or(String::new(), |what| format!(" ({what})"));
            return Ok(FileOutcome::Skipped(format!("not a model{what}")));
        };
        let why = match kind.content() {
            relic::Content::Model => None,
            relic::Content::Animation => Some("animation (convert it with its model and --anim)"),
            relic::Content::Part => Some("part of a model in another file (read with that model)"),
            relic::Content::Texture => Some("texture"),
        };
        if let Some(why) = why {
            return Ok(FileOutcome::Skipped(format!("{} {why}", kind.name())));
        }
        // An output kept from an earlier run is not converted again (nothing to lose or redo).
        if !request.force
            && let Some(existing) = request.target.output_paths(&out).into_iter().find(|p| p.exists())
        {
            return Ok(FileOutcome::Exists(existing));
        }
        let loaded =
            relic::Registry::builtin().load_model_listed(path, &bytes, kind, &[], request.options.listed.as_ref())?;
        let BatchTarget::Model(target) = request.target else { return Ok(FileOutcome::Skipped("model".into())) };
        let textures = relic::textures::GameTextures::new(path, request.textures.clone());
        let mut options = ConvertOptions { textures: Some(std::sync::Arc::new(textures)), ..request.options.clone() };
        if !request.no_textures {
            options.skins.images = crate::convert::gltf_images(path, target);
        }
        let converted = convert(&loaded.value, target, &out, &options)?;
        // Every file of the input folder is protected already; a .gltf's .bin or images may lie
        // elsewhere (an image URI may leave the folder).
        let written = match policy.write_all_sparing(&converted.value, &relic::referenced_files(path, &bytes, kind)) {
            Err(crate::output::OutputError::Exists(existing)) if !request.force => {
                return Ok(FileOutcome::Exists(existing));
            }
            other => other?,
        };
        let mut notes: Vec<String> = loaded.losses.iter().chain(&converted.losses).map(ToString::to_string).collect();
        // A write into the file's own format that does not give its bytes back says so.
        let source = crate::convert::source_line(path, &bytes, kind, target, &loaded.value, &options, &converted);
        notes.extend(source.filter(|line| line.contains("NOT byte-identical")));
        Ok(FileOutcome::Converted { read: bytes.len() as u64, written, notes })
    })();
    (rel, out, outcome.unwrap_or_else(FileOutcome::Failed))
}

/// One texture of a batch whose target is a texture format (anything else is skipped).
fn convert_texture(
    request: &BatchRequest,
    policy: &OutputPolicy,
    path: &Path,
    bytes: &[u8],
    target: relic::TextureTarget,
    out: &Path,
) -> Result<FileOutcome, CliError> {
    if !relic::is_texture(bytes) {
        let what =
            relic::detect(bytes).map_or("not a texture".to_string(), |k| format!("{} (not a texture)", k.name()));
        return Ok(FileOutcome::Skipped(what));
    }
    if !request.force && out.exists() {
        return Ok(FileOutcome::Exists(out.to_path_buf()));
    }
    let converted = relic::convert_texture(path, bytes, target, out, &request.texture_options)?;
    let written = match policy.write_all(&[(out.to_path_buf(), converted.value)]) {
        Err(crate::output::OutputError::Exists(existing)) if !request.force => {
            return Ok(FileOutcome::Exists(existing));
        }
        other => other?,
    };
    let notes = converted.losses.iter().map(ToString::to_string).collect();
    Ok(FileOutcome::Converted { read: bytes.len() as u64, written, notes })
}

/// `relic batch` from its arguments: checks them before any work, runs, prints the summary.
pub fn run_command(args: &crate::cli::BatchArgs) -> Result<bool, CliError> {
    let Some(target) = BatchTarget::from_name(&args.to) else {
        return Err(CliError::Usage(format!("unknown output format {}", args.to)));
    };
    let mut texture_options = relic_core::texture::TextureOptions::default();
    match target {
        BatchTarget::Model(t) => crate::check_version(t, args.common.version)?,
        BatchTarget::Texture(t) => {
            texture_options = crate::convert::texture_options_for(t, args.common.version, crate::cli::Encoding::Auto)?
        }
    }
    let jobs = args.jobs.map_or_else(|| std::thread::available_parallelism().map_or(1, usize::from), usize::from);
    let request = BatchRequest {
        input_dir: args.input_dir.clone(),
        output_dir: args.output_dir.clone(),
        target,
        jobs,
        force: args.force,
        options: ConvertOptions {
            version: args.common.version,
            lod0_only: args.common.lod == crate::cli::Lods::Zero,
            textures: None,
            skins: relic::skins::SkinOptions { images: Vec::new(), data_root: args.common.data.first().cloned() },
            listed: args.common.listed()?,
        },
        textures: args.common.texture_search(),
        no_textures: args.common.no_textures,
        texture_options,
        progress: !args.no_progress && !args.json,
        json: args.json,
    };
    let summary = run(&request)?;
    if args.json {
        eprintln!("{summary}");
    } else {
        println!("{summary}");
    }
    Ok(summary.failed == 0)
}

/// Refuses folders that cannot work: an input that is not a folder, an output that is the input
/// folder itself (its outputs would be walked as inputs) or an existing file.
fn check_folders(request: &BatchRequest) -> Result<(), CliError> {
    let input = &request.input_dir;
    if !input.is_dir() {
        return Err(CliError::Usage(format!("{}: not a folder (batch takes an input folder)", input.display())));
    }
    let output = &request.output_dir;
    if output.exists() && !output.is_dir() {
        return Err(CliError::Usage(format!(
            "{}: exists and is not a folder (batch writes into a folder)",
            output.display()
        )));
    }
    if let (Ok(a), Ok(b)) = (input.canonicalize(), output.canonicalize())
        && a == b
    {
        return Err(CliError::Usage(format!(
            "{}: the output folder is the input folder; give another one (a folder inside the input is fine: the walk leaves it out)",
            output.display()
        )));
    }
    Ok(())
}

/// One JSON object for a file: input, output, status, notes (and the error of a failed file).
fn json_line(path: &Path, out: &Path, outcome: &FileOutcome) -> String {
    let mut v = serde_json::Map::new();
    v.insert("input".into(), path.display().to_string().into());
    v.insert("output".into(), out.display().to_string().into());
    v.insert("status".into(), outcome.status().into());
    let notes: Vec<String> = match outcome {
        FileOutcome::Converted { read, written, notes } => {
            v.insert("bytes_read".into(), (*read).into());
            v.insert("bytes_written".into(), (*written).into());
            notes.clone()
        }
        FileOutcome::Exists(existing) => vec![format!("{} exists (--force to overwrite)", existing.display())],
        FileOutcome::Skipped(why) => vec![why.clone()],
        FileOutcome::Failed(e) => {
            v.insert("error".into(), e.to_string().into());
            Vec::new()
        }
    };
    v.insert("notes".into(), notes.into());
    serde_json::Value::Object(v).to_string()
}

/// Runs a batch: prints one line per file (or a progress bar, or JSON lines) and returns the
/// summary.
pub fn run(request: &BatchRequest) -> Result<BatchSummary, CliError> {
    check_folders(request)?;
    let started = Instant::now();
    let files = walk(&request.input_dir, Some(&request.output_dir))?;
    let mut policy = OutputPolicy { force: request.force, ..OutputPolicy::default() };
    for f in &files {
        policy.protect(f);
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(request.jobs.max(1))
        .build()
        .map_err(|e| CliError::Usage(format!("cannot start {} worker threads: {e}", request.jobs)))?;
    let clashes = pool.install(|| clashes(request, &files));
    let bar = progress_bar(request.progress, files.len());
    let counts: [AtomicUsize; 5] = Default::default();
    let (read, written) = (AtomicU64::new(0), AtomicU64::new(0));
    let count = |i: usize, n: usize| counts.get(i).map(|c| c.fetch_add(n, Ordering::Relaxed));
    let order = largest_first(&files);
    let next = AtomicUsize::new(0);
    // Each worker takes the next file of `order` until none is left.
    pool.broadcast(|_| {
        while let Some(path) = order.get(next.fetch_add(1, Ordering::Relaxed)).copied() {
            let (rel, out, outcome) = convert_one(request, &policy, &clashes, path);
            let line = match &outcome {
                FileOutcome::Converted { read: r, written: w, notes } => {
                    count(0, 1);
                    count(4, notes.len());
                    read.fetch_add(*r, Ordering::Relaxed);
                    written.fetch_add(*w, Ordering::Relaxed);
                    let lost = if notes.is_empty() { String::new() } else { format!(", {} notes", notes.len()) };
                    format!("ok   {} ({r} -> {w} bytes{lost})", rel.display())
                }
                FileOutcome::Exists(existing) => {
                    count(1, 1);
                    format!("skip {}: {} exists (--force to overwrite)", rel.display(), existing.display())
                }
                FileOutcome::Skipped(why) => {
                    count(2, 1);
                    format!("skip {}: {why}", rel.display())
                }
                FileOutcome::Failed(e) => {
                    count(3, 1);
                    format!("FAIL {e}")
                }
            };
            let failed = matches!(outcome, FileOutcome::Failed(_));
            match &bar {
                _ if request.json => println!("{}", json_line(path, &out, &outcome)),
                Some(bar) => {
                    if failed {
                        bar.println(&line);
                    }
                    bar.inc(1);
                }
                None if failed => eprintln!("{line}"),
                None => println!("{line}"),
            }
        }
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let [converted, exists, skipped, failed, notes] = counts.map(AtomicUsize::into_inner);
    Ok(BatchSummary {
        files: files.len(),
        converted,
        exists,
        skipped,
        failed,
        notes,
        bytes_read: read.into_inner(),
        bytes_written: written.into_inner(),
        elapsed: started.elapsed(),
    })
}

fn progress_bar(wanted: bool, len: usize) -> Option<ProgressBar> {
    if !wanted || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} files, {elapsed} elapsed, {eta} left") {
        bar.set_style(style);
    }
    Some(bar)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The workers take the most work first: larger files first, an LTB as five times its size,
    /// equal work in name order, a file whose size cannot be read last.
    #[test]
    fn the_workers_take_the_largest_files_first() {
        let dir = tempfile::tempdir().unwrap();
        let file = |name: &str, size: usize| {
            let path = dir.path().join(name);
            std::fs::write(&path, vec![0u8; size]).unwrap();
            path
        };
        let files = vec![
            file("a.abc", 100),
            file("b.m2", 400),
            file("c.LTB", 90),
            file("d.blp", 100),
            dir.path().join("gone.m2"),
            file("e.abc", 1),
        ];
        let names: Vec<String> =
            largest_first(&files).into_iter().map(|f| f.file_name().unwrap().to_string_lossy().into_owned()).collect();
        assert_eq!(names, ["c.LTB", "b.m2", "a.abc", "d.blp", "e.abc", "gone.m2"]);
    }
}
