//! `cargo xtask perf`: relic's conversions as whole processes against copying the same bytes, in
//! one run (issue 29), and the CI guard that keeps them there.
//!
//! In each of `--runs` rounds (default 5), for the binary under test (`after`: this checkout's
//! release `relic`, built first) and, with `--before BIN`, an older one, in turn:
//!
//! * `relic batch CORPUS OUT --to glb` beside `cp -r OUT COPY` of what it wrote;
//! * `relic convert MODEL OUT.glb` of every model the batch converted, beside `cp MODEL` and a
//!   memcpy of the model's bytes in this process.
//!
//! Each process is timed from its start to its exit (wall) and by the CPU time the system
//! accounts to it (user + system: the figure a busy machine disturbs least). The report gives
//! medians, the load average before and after, and the glb sizes of both binaries.
//!
//! `--check` compares the guard's figures with `benches/perf-baseline.txt` and fails when one is
//! more than [`guard::LIMIT`] times its baseline; `--update-baseline` writes that file from the
//! run. See docs/PERFORMANCE.md.

mod clock;
mod guard;

use std::path::{Path, PathBuf};
use std::process::Command;

use clock::{Sample, best, median, seconds};

pub use guard::run_guard as guard;

/// What to run.
struct Options {
    before: Option<PathBuf>,
    after: Option<PathBuf>,
    corpus: PathBuf,
    runs: usize,
    check: bool,
    update_baseline: bool,
}

fn options(args: &[&str]) -> Result<Options, String> {
    let mut o = Options {
        before: None,
        after: None,
        corpus: crate::workspace_root().join(crate::CORPUS),
        runs: 5,
        check: false,
        update_baseline: false,
    };
    let mut args = args.iter();
    while let Some(&a) = args.next() {
        let mut value = || args.next().copied().ok_or(format!("{a} needs a value"));
        match a {
            "--before" => o.before = Some(PathBuf::from(value()?)),
            "--after" => o.after = Some(PathBuf::from(value()?)),
            "--corpus" => o.corpus = PathBuf::from(value()?),
            "--runs" => o.runs = value()?.parse().map_err(|e| format!("--runs: {e}"))?,
            "--check" => o.check = true,
            "--update-baseline" => o.update_baseline = true,
            _ => return Err(format!("unknown argument {a} (see `cargo xtask` for usage)")),
        }
    }
    if o.runs == 0 {
        return Err("--runs must be at least 1".into());
    }
    Ok(o)
}

/// `cargo xtask perf [--before BIN] [--after BIN] [--corpus DIR] [--runs N] [--check] [--update-baseline]`
pub fn run(args: &[&str]) -> Result<(), String> {
    let o = options(args)?;
    let report = measure(&o)?;
    println!("{}", report.markdown());
    let figures = report.guard_figures();
    if o.update_baseline {
        guard::write_baseline(&figures)?;
    }
    if o.check { guard::check(&figures) } else { Ok(()) }
}

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| crate::workspace_root().join("target"), PathBuf::from)
}

/// Builds this checkout's `relic` in release and returns its path.
fn build_relic() -> Result<PathBuf, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    eprintln!("perf: cargo build --release -p relic-cli --bin relic");
    let status = Command::new(cargo)
        .args(["build", "--quiet", "--release", "-p", "relic-cli", "--bin", "relic"])
        .current_dir(crate::workspace_root())
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err(format!("cargo build --release -p relic-cli failed ({status})"));
    }
    Ok(target_dir().join("release/relic"))
}

/// One binary measured.
struct Binary {
    label: &'static str,
    path: PathBuf,
}

/// One corpus model.
struct Model {
    input: PathBuf,
    /// Its path under the corpus.
    name: String,
    /// The bytes relic read for it (the model and the files beside it it needs).
    bytes_read: u64,
}

/// The rounds of one binary's batch.
#[derive(Default)]
struct BatchRuns {
    batch: Vec<Sample>,
    copy: Vec<Sample>,
    written: u64,
}

/// The rounds of one model.
struct ModelRuns {
    model: Model,
    /// Per binary: each round's conversion, and the glb's size (`None`: it failed).
    convert: Vec<(Vec<Sample>, Option<u64>)>,
    copy: Vec<Sample>,
    memcpy: Vec<f64>,
}

struct Report {
    binaries: Vec<Binary>,
    corpus: PathBuf,
    runs: usize,
    load_after: String,
    batches: Vec<BatchRuns>,
    /// Each round's memcpy of as many bytes as the batch read (every model's `bytes_read`).
    batch_memcpy: Vec<f64>,
    models: Vec<ModelRuns>,
}

fn fresh(dir: &Path) -> Result<(), String> {
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))
}

fn bytes_under(dir: &Path) -> u64 {
    crate::walk(dir).unwrap_or_default().iter().filter_map(|p| p.metadata().ok()).map(|m| m.len()).sum()
}

/// The models `relic batch --json` converts under `corpus` (this also warms the caches).
fn models(relic: &Path, corpus: &Path, work: &Path) -> Result<Vec<Model>, String> {
    let out = work.join("list");
    fresh(&out)?;
    let output = Command::new(relic)
        .args(["batch", "--force", "--json", "--to", "glb"])
        .arg(corpus)
        .arg(&out)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", relic.display()))?;
    let mut models = Vec::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else { continue };
        if v["status"] != "converted" {
            continue;
        }
        let Some(input) = v["input"].as_str().map(PathBuf::from) else { continue };
        let name = input.strip_prefix(corpus).unwrap_or(&input).display().to_string();
        let bytes_read = v["bytes_read"].as_u64().unwrap_or(0);
        models.push(Model { input, name, bytes_read });
    }
    models.sort_by(|a, b| a.name.cmp(&b.name));
    if models.is_empty() {
        return Err(format!("`relic batch` converted no model under {}", corpus.display()));
    }
    Ok(models)
}

fn measure(o: &Options) -> Result<Report, String> {
    let after = match &o.after {
        Some(p) => p.clone(),
        None => build_relic()?,
    };
    let mut binaries = Vec::new();
    if let Some(before) = &o.before {
        binaries.push(Binary { label: "before", path: before.clone() });
    }
    binaries.push(Binary { label: "after", path: after.clone() });
    let work = target_dir().join("perf");
    let list = models(&after, &o.corpus, &work)?;
    eprintln!("perf: {} models, {} rounds, load average {}", list.len(), o.runs, clock::load());
    let mut batches: Vec<BatchRuns> = binaries.iter().map(|_| BatchRuns::default()).collect();
    let mut models: Vec<ModelRuns> = list
        .into_iter()
        .map(|model| ModelRuns {
            model,
            convert: binaries.iter().map(|_| (Vec::new(), None)).collect(),
            copy: Vec::new(),
            memcpy: Vec::new(),
        })
        .collect();
    let read: u64 = models.iter().map(|m| m.model.bytes_read).sum();
    let all_read = vec![1u8; usize::try_from(read).unwrap_or(0)];
    let mut batch_memcpy = Vec::new();
    for round in 0..o.runs {
        eprintln!("perf: round {} of {}", round + 1, o.runs);
        batch_memcpy.push(clock::memcpy(&all_read));
        for (binary, runs) in binaries.iter().zip(&mut batches) {
            let (out, copy) = (work.join(binary.label).join("batch"), work.join(binary.label).join("copy"));
            fresh(&out)?;
            let _ = std::fs::remove_dir_all(&copy);
            let mut batch = Command::new(&binary.path);
            batch.args(["batch", "--force", "--no-progress", "--to", "glb"]).arg(&o.corpus).arg(&out);
            // Exit status 1: a file failed (corpus-known-failures.txt lists them); the rest is done.
            runs.batch.push(clock::run(&mut batch, &[0, 1])?);
            runs.copy.push(clock::run(Command::new("cp").arg("-r").arg(&out).arg(&copy), &[0])?);
            runs.written = bytes_under(&out);
        }
        let one = work.join("one");
        fresh(&one)?;
        for (i, m) in models.iter_mut().enumerate() {
            for (binary, (runs, size)) in binaries.iter().zip(&mut m.convert) {
                let glb = one.join(format!("{}-{i}.glb", binary.label));
                let mut convert = Command::new(&binary.path);
                convert.args(["convert", "--force"]).arg(&m.model.input).arg(&glb);
                let sample = clock::run(&mut convert, &[0])?;
                *size = if sample.ok { glb.metadata().ok().map(|x| x.len()) } else { None };
                runs.push(sample);
            }
            m.copy.push(clock::run(Command::new("cp").arg(&m.model.input).arg(one.join(format!("copy-{i}"))), &[0])?);
            let bytes = std::fs::read(&m.model.input).map_err(|e| format!("{}: {e}", m.model.input.display()))?;
            let mut same = bytes;
            same.resize(usize::try_from(m.model.bytes_read).unwrap_or(0).max(same.len()), 0);
            m.memcpy.push(clock::memcpy(&same));
        }
    }
    Ok(Report {
        binaries,
        corpus: o.corpus.clone(),
        runs: o.runs,
        load_after: clock::load(),
        batches,
        batch_memcpy,
        models,
    })
}

fn walls(samples: &[Sample]) -> Vec<f64> {
    samples.iter().filter(|s| s.ok).map(|s| s.wall).collect()
}

fn cpus(samples: &[Sample]) -> Vec<f64> {
    samples.iter().filter(|s| s.ok).map(|s| s.cpu).collect()
}

/// The median of the per-round ratios `a / b` (pairing keeps a drifting machine out of it).
fn paired(a: &[Sample], b: &[Sample], of: fn(&Sample) -> f64) -> f64 {
    median(&a.iter().zip(b).filter(|(a, _)| a.ok).map(|(a, b)| of(a) / of(b)).collect::<Vec<_>>())
}

/// A model's guard figure: its conversion's CPU time over its `cp`'s, each the best round. Both
/// are processes, so what the machine charges every process (start-up, page faults) is on both
/// sides; a memcpy of a few kilobytes is not (it took 1 µs in one run, 16 µs in another).
fn model_figure(convert: &[Sample], copy: &[Sample]) -> f64 {
    best(&cpus(convert)) / best(&cpus(copy))
}

fn ratio(x: f64) -> String {
    if x.is_finite() { format!("{x:.1}×") } else { "—".into() }
}

impl Report {
    fn markdown(&self) -> String {
        let mut s = String::new();
        s += &crate::bench_report::machine(false);
        s += &format!(
            "- load average after the run: {}\n- corpus: {}\n- rounds: {} (the binaries in turn; every process timed whole: wall clock, and the CPU time the system accounts to it)\n",
            self.load_after,
            self.corpus.display(),
            self.runs,
        );
        s += "\n| `relic batch --to glb` | batch (wall) | `cp -r` of its outputs (wall) | batch ÷ cp -r (wall) | batch (cpu) | cp -r (cpu) | batch ÷ cp -r (cpu) | memcpy of what it read | batch ÷ memcpy (cpu, best) | written |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
        for (b, r) in self.binaries.iter().zip(&self.batches) {
            s += &format!(
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.2} MB |\n",
                b.label,
                seconds(median(&walls(&r.batch))),
                seconds(median(&walls(&r.copy))),
                ratio(paired(&r.batch, &r.copy, |x| x.wall)),
                seconds(median(&cpus(&r.batch))),
                seconds(median(&cpus(&r.copy))),
                ratio(paired(&r.batch, &r.copy, |x| x.cpu)),
                seconds(best(&self.batch_memcpy)),
                ratio(best(&cpus(&r.batch)) / best(&self.batch_memcpy)),
                r.written as f64 / 1e6
            );
        }
        let labels: Vec<&str> = self.binaries.iter().map(|b| b.label).collect();
        s += "\n| model | read | ";
        for l in &labels {
            s += &format!("glb {l} | convert {l} (wall) | convert {l} (cpu) | ");
        }
        s += "`cp` (wall) | `cp` (cpu) | memcpy | convert ÷ cp (wall) | convert ÷ memcpy (cpu, best) | convert ÷ cp (cpu, best) |\n|---|---:|";
        s += &"---:|---:|---:|".repeat(labels.len());
        s += "---:|---:|---:|---:|---:|---:|\n";
        for m in &self.models {
            s += &format!("| {} | {} | ", m.model.name, m.model.bytes_read);
            for (runs, size) in &m.convert {
                s += &format!(
                    "{} | {} | {} | ",
                    size.map_or("failed".into(), |x| x.to_string()),
                    seconds(median(&walls(runs))),
                    seconds(median(&cpus(runs)))
                );
            }
            let after = m.convert.last().map(|c| c.0.as_slice()).unwrap_or_default();
            s += &format!(
                "{} | {} | {} | {} | {} | {} |\n",
                seconds(median(&walls(&m.copy))),
                seconds(median(&cpus(&m.copy))),
                seconds(best(&m.memcpy)),
                ratio(paired(after, &m.copy, |x| x.wall)),
                ratio(best(&cpus(after)) / best(&m.memcpy)),
                ratio(model_figure(after, &m.copy))
            );
        }
        s
    }

    /// What the guard holds: the batch's CPU time over a memcpy of the bytes it read, and each
    /// model's conversion CPU time over its `cp`'s; each the best round of the binary under test.
    fn guard_figures(&self) -> Vec<(String, f64)> {
        let mut out = Vec::new();
        if let Some(r) = self.batches.last() {
            // Not over `cp -r` of its outputs: that copy's CPU time varied from 27 to 58 ms between
            // runs of one afternoon (dirty pages of the batch's 27 MB), the batch's by 8 %.
            out.push((guard::BATCH.to_string(), best(&cpus(&r.batch)) / best(&self.batch_memcpy)));
        }
        for m in &self.models {
            let after = m.convert.last().map(|c| c.0.as_slice()).unwrap_or_default();
            out.push((m.model.name.clone(), model_figure(after, &m.copy)));
        }
        out
    }
}
