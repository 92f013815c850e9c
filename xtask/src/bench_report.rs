//! `cargo xtask bench-report`: runs the criterion benches of `benches/` and prints one table of
//! every result: median time, throughput, time relative to the `memcpy` of the same bytes in the
//! same group (the physical-limit baseline), the target of issue 9 where one applies, and whether
//! it is met. Peak-memory rows come from `benches/memory.rs`; the batch scaling row is the ratio of
//! the 1-thread and 2-thread medians.
//!
//! Usage: `cargo xtask bench-report [--no-run] [--update FILE] [-- CRITERION-ARGS...]`
//!
//! * `--no-run`: only read criterion's output of an earlier run.
//! * `--update FILE`: also replace the text between `<!-- bench-report:begin -->` and
//!   `<!-- bench-report:end -->` in FILE (docs/PERFORMANCE.md) with the machine and the table.
//! * criterion arguments (default `--warm-up-time 2 --measurement-time 5`) go to every bench.
//!
//! Results are read from `<target>/criterion/**/new/{benchmark,estimates}.json`, where `<target>`
//! is `$CARGO_TARGET_DIR` or `target/`. After a run, only results that run wrote are shown.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

use serde_json::Value;

const BEGIN: &str = "<!-- bench-report:begin -->";
const END: &str = "<!-- bench-report:end -->";
const DEFAULT_ARGS: [&str; 4] = ["--warm-up-time", "2", "--measurement-time", "5"];

/// A target of issue 9.
#[derive(Debug, Clone, Copy)]
enum Target {
    /// Throughput at least this many bytes per second (decimal GB/s as the issue states).
    BytesPerSec(f64),
    /// At least this many elements per second.
    ElementsPerSec(f64),
    /// A median of at most this many nanoseconds.
    AtMostNs(f64),
    /// A ratio of at least this much (batch scaling).
    RatioAtLeast(f64),
    /// Peak bytes at most 3× the file plus a constant (the budget is in the row).
    MemoryBudget,
}

impl Target {
    fn label(self) -> String {
        match self {
            Target::BytesPerSec(b) => format!("≥ {} GB/s", b / 1e9),
            Target::ElementsPerSec(e) => format!("≥ {} M/s", e / 1e6),
            Target::AtMostNs(ns) => format!("≤ {}", time(ns)),
            Target::RatioAtLeast(r) => format!("≥ {r}×"),
            Target::MemoryBudget => "≤ 3× file + 1 MiB".into(),
        }
    }
}

/// The target a benchmark is held to, by its group and function names.
fn target_for(group: &str, function: &str) -> Option<Target> {
    let f = function.split('/').next().unwrap_or(function);
    let parse = |gbps: f64| Some(Target::BytesPerSec(gbps * 1e9));
    match (group, f) {
        (g, "parse") if g.starts_with("abc/") || g.starts_with("ltb/") => parse(1.0),
        (g, "parse") if g.starts_with("m2/") => parse(2.0),
        ("nod parse", f) if f.starts_with("parse_nod") || f.starts_with("read_nod") => parse(2.0),
        ("nad parse", "parse_nad") => parse(2.0),
        (g, "write") if g.starts_with("abc/") || g.starts_with("m2/") => parse(1.0),
        ("nod write" | "nad write", "to_bytes") => parse(1.0),
        ("skinning", f) if f.starts_with("fast") => Some(Target::ElementsPerSec(100e6)),
        ("pose", f) if f.contains("full pose") => Some(Target::AtMostNs(2000.0)),
        _ => None,
    }
}

/// One criterion result.
#[derive(Debug, Clone)]
struct Bench {
    group: String,
    function: String,
    median_ns: f64,
    throughput: Option<(String, f64)>,
    written: SystemTime,
}

impl Bench {
    fn per_second(&self) -> Option<(&str, f64)> {
        self.throughput.as_ref().map(|(kind, n)| (kind.as_str(), n / (self.median_ns * 1e-9)))
    }
}

/// One printed row.
struct Row {
    name: String,
    median: String,
    throughput: String,
    ratio: String,
    target: String,
    met: String,
}

fn time(ns: f64) -> String {
    match ns {
        n if n < 1e3 => format!("{n:.1} ns"),
        n if n < 1e6 => format!("{:.2} µs", n / 1e3),
        n if n < 1e9 => format!("{:.2} ms", n / 1e6),
        n => format!("{:.2} s", n / 1e9),
    }
}

fn rate(kind: &str, per_sec: f64) -> String {
    match kind {
        "Bytes" | "BytesDecimal" if per_sec >= 1e9 => format!("{:.2} GB/s", per_sec / 1e9),
        "Bytes" | "BytesDecimal" => format!("{:.0} MB/s", per_sec / 1e6),
        _ if per_sec >= 1e6 => format!("{:.1} M/s", per_sec / 1e6),
        _ => format!("{:.0} /s", per_sec),
    }
}

fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => crate::workspace_root().join(dir),
        None => crate::workspace_root().join("target"),
    }
}

fn read_json(path: &Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Every `new/benchmark.json` under the criterion folder, with its estimates.
fn read_benches(criterion: &Path) -> Result<Vec<Bench>, String> {
    let mut out = Vec::new();
    for path in crate::walk(criterion)? {
        let is_new = path.parent().and_then(Path::file_name).is_some_and(|n| n == "new");
        if !is_new || path.file_name().is_none_or(|n| n != "benchmark.json") {
            continue;
        }
        let meta = read_json(&path)?;
        let estimates = read_json(&path.with_file_name("estimates.json"))?;
        let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).unwrap_or_default().to_string();
        let throughput = meta
            .get("throughput")
            .and_then(Value::as_object)
            .and_then(|t| t.iter().next())
            .and_then(|(kind, n)| n.as_f64().map(|n| (kind.clone(), n)));
        let median_ns = estimates
            .pointer("/median/point_estimate")
            .and_then(Value::as_f64)
            .ok_or_else(|| format!("{}: no median", path.display()))?;
        let written = std::fs::metadata(&path).and_then(|m| m.modified()).map_err(|e| e.to_string())?;
        let function = match meta.get("value_str").and_then(Value::as_str) {
            Some(value) => format!("{}/{value}", text(&meta, "function_id")),
            None => text(&meta, "function_id"),
        };
        out.push(Bench { group: text(&meta, "group_id"), function, median_ns, throughput, written });
    }
    // Run order: each result is written when its benchmark finishes.
    out.sort_by_key(|b| b.written);
    Ok(out)
}

fn bench_row(b: &Bench, all: &[Bench]) -> Row {
    let memcpy = all.iter().find(|m| m.group == b.group && m.function.starts_with("memcpy"));
    let ratio = match memcpy {
        Some(m) if !b.function.starts_with("memcpy") => format!("{:.1}×", b.median_ns / m.median_ns),
        Some(_) => "1.0×".into(),
        None => String::new(),
    };
    let per_second = b.per_second();
    let target = target_for(&b.group, &b.function);
    let met = target.map(|t| match (t, per_second) {
        (Target::BytesPerSec(min) | Target::ElementsPerSec(min), Some((_, r))) => r >= min,
        (Target::AtMostNs(max), _) => b.median_ns <= max,
        _ => false,
    });
    Row {
        name: format!("{} / {}", b.group, b.function),
        median: time(b.median_ns),
        throughput: per_second.map(|(k, r)| rate(k, r)).unwrap_or_default(),
        ratio,
        target: target.map(Target::label).unwrap_or_default(),
        met: met.map(|m| if m { "yes" } else { "**no**" }.to_string()).unwrap_or_default(),
    }
}

/// The batch scaling row: the 1-thread median over the 2-thread median.
fn scaling_row(benches: &[Bench]) -> Option<Row> {
    let find = |prefix: &str| benches.iter().find(|b| b.group == "batch" && b.function.starts_with(prefix));
    let (one, two) = (find("to glb, 1 thread")?, find("to glb, 2 threads")?);
    let ratio = one.median_ns / two.median_ns;
    let target = Target::RatioAtLeast(1.8);
    Some(Row {
        name: "batch / scaling 1 → 2 threads".into(),
        median: String::new(),
        throughput: String::new(),
        ratio: format!("{ratio:.2}×"),
        target: target.label(),
        met: if ratio >= 1.8 { "yes" } else { "**no**" }.into(),
    })
}

/// The skinning speed-up row: the plain scalar reference loop's median over the fast loop's.
fn skinning_row(benches: &[Bench]) -> Option<Row> {
    let find = |prefix: &str| benches.iter().find(|b| b.group == "skinning" && b.function.starts_with(prefix));
    let (fast, reference) = (find("fast")?, find("reference")?);
    Some(Row {
        name: "skinning / fast loop speed-up over the scalar reference loop".into(),
        median: String::new(),
        throughput: String::new(),
        ratio: format!("{:.2}×", reference.median_ns / fast.median_ns),
        target: String::new(),
        met: String::new(),
    })
}

/// Rows of `benches/memory.rs` (`relic-memory.json`), if it ran.
fn memory_rows(criterion: &Path, since: Option<SystemTime>) -> Result<Vec<Row>, String> {
    let path = criterion.join("relic-memory.json");
    let fresh = std::fs::metadata(&path).and_then(|m| m.modified()).is_ok_and(|t| since.is_none_or(|s| t >= s));
    if !path.is_file() || !fresh {
        return Ok(Vec::new());
    }
    let rows = read_json(&path)?;
    let mib = |b: f64| format!("{:.2} MiB", b / (1024.0 * 1024.0));
    Ok(rows
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .map(|r| {
            let n = |k: &str| r.get(k).and_then(Value::as_f64).unwrap_or_default();
            let (file, peak, budget) = (n("file_bytes"), n("peak_bytes"), n("budget_bytes"));
            Row {
                name: format!("memory / {} (peak heap)", r.get("name").and_then(Value::as_str).unwrap_or_default()),
                median: mib(peak),
                throughput: format!("file {}", mib(file)),
                ratio: format!("{:.2}× file", peak / file),
                target: Target::MemoryBudget.label(),
                met: if peak <= budget { "yes" } else { "**no**" }.into(),
            }
        })
        .collect())
}

fn table(rows: &[Row]) -> String {
    let mut out = String::from(
        "| benchmark | median | throughput | time ÷ memcpy | target | met |\n|---|---:|---:|---:|---|---|\n",
    );
    for r in rows {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            r.name.replace('|', "\\|"),
            r.median,
            r.throughput,
            r.ratio,
            r.target,
            r.met
        ));
    }
    out
}

fn command_output(program: &str, args: &[&str]) -> String {
    Command::new(program)
        .args(args)
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default()
}

/// CPU model, cores, rustc, commit, date and load: the machine the figures belong to.
pub fn machine(no_run: bool) -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let cpu = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name").and_then(|r| r.split_once(':')).map(|(_, v)| v.trim().to_string()))
        .unwrap_or_else(|| "unknown".into());
    let cores = std::thread::available_parallelism().map_or(0, usize::from);
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let load = load.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
    let root = crate::workspace_root();
    let root = root.to_string_lossy();
    let commit = command_output("git", &["-C", &root, "rev-parse", "--short", "HEAD"]);
    format!(
        "- CPU: {cpu} ({cores} cores)\n- rustc: {}\n- commit: {commit}\n- date: {}\n- load average {}: {load}\n",
        command_output("rustc", &["--version"]),
        command_output("date", &["-u", "+%Y-%m-%d %H:%M UTC"]),
        if no_run { "when the table was read (results of an earlier run)" } else { "before the run" },
    )
}

fn run_benches(criterion_args: &[&str]) -> Result<(), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut args = vec!["bench", "-p", "relic-benches", "--benches", "--"];
    args.extend(criterion_args);
    eprintln!("bench-report: cargo {}", args.join(" "));
    let status = Command::new(&cargo)
        .args(&args)
        .current_dir(crate::workspace_root())
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if status.success() { Ok(()) } else { Err(format!("`cargo {}` failed ({status})", args.join(" "))) }
}

fn update(file: &Path, text: &str) -> Result<(), String> {
    let old = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let (Some(a), Some(b)) = (old.find(BEGIN), old.find(END)) else {
        return Err(format!("{}: no {BEGIN} … {END} block to replace", file.display()));
    };
    let new = format!("{}{BEGIN}\n{text}{}", &old[..a], &old[b..]);
    std::fs::write(file, new).map_err(|e| format!("{}: {e}", file.display()))
}

pub fn run(args: &[&str]) -> Result<(), String> {
    let (ours, criterion_args) = match args.iter().position(|a| *a == "--") {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &[][..]),
    };
    let mut no_run = false;
    let mut update_file = None;
    let mut rest = ours.iter();
    while let Some(arg) = rest.next() {
        match *arg {
            "--no-run" => no_run = true,
            "--update" => update_file = Some(rest.next().ok_or("--update needs a file")?),
            other => return Err(format!("bench-report: unknown argument {other}")),
        }
    }
    let header = machine(no_run);
    let since = if no_run {
        None
    } else {
        let started = SystemTime::now();
        run_benches(if criterion_args.is_empty() { &DEFAULT_ARGS } else { criterion_args })?;
        Some(started)
    };
    let criterion = target_dir().join("criterion");
    let mut benches = read_benches(&criterion)?;
    if let Some(since) = since {
        benches.retain(|b| b.written >= since);
    }
    if benches.is_empty() {
        return Err(format!("no criterion results under {}", criterion.display()));
    }
    let mut rows: Vec<Row> = benches.iter().map(|b| bench_row(b, &benches)).collect();
    rows.extend(skinning_row(&benches));
    rows.extend(scaling_row(&benches));
    rows.extend(memory_rows(&criterion, since)?);
    let missed = rows.iter().filter(|r| r.met.contains("no")).count();
    let targets = rows.iter().filter(|r| !r.target.is_empty()).count();
    let text = format!("{header}\n{}\n{} of {targets} targets met.\n", table(&rows), targets - missed);
    println!("{text}");
    if let Some(file) = update_file {
        update(&crate::workspace_root().join(file), &text)?;
        eprintln!("bench-report: updated {file}");
    }
    Ok(())
}
