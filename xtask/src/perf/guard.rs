//! The CI guard: the figures of `cargo xtask perf` against `benches/perf-baseline.txt`.
//!
//! Each figure is a ratio measured in one run, so it does not depend on how fast the machine is:
//! the batch's CPU time over a memcpy of every byte it read, and each model's conversion CPU time
//! over that of `cp` of the model, each the best of the rounds (a round the machine's load slowed is
//! slower, never faster). A figure more than [`LIMIT`] times its baseline fails the run; every
//! figure is printed each run.

use std::path::PathBuf;

/// The batch's name in the baseline.
pub const BATCH: &str = "batch";
/// How many times its baseline a figure may reach.
pub const LIMIT: f64 = 2.0;
/// Rounds the CI guard takes the best of.
const ROUNDS: &str = "5";

fn baseline_path() -> PathBuf {
    crate::workspace_root().join("benches/perf-baseline.txt")
}

/// `benches/perf-baseline.txt`: `name ratio` per line, `#` comments.
fn read_baseline() -> Result<Vec<(String, f64)>, String> {
    let path = baseline_path();
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (value, name) = line.split_once(' ').ok_or(format!("{}:{}: not `ratio name`", path.display(), n + 1))?;
        let value = value.parse().map_err(|e| format!("{}:{}: {e}", path.display(), n + 1))?;
        out.push((name.trim().to_string(), value));
    }
    Ok(out)
}

pub fn write_baseline(figures: &[(String, f64)]) -> Result<(), String> {
    let mut text = String::from(
        "# The conversion guard's baseline (`cargo xtask perf --update-baseline`; docs/PERFORMANCE.md).\n\
         # `ratio name`: the batch's CPU time over a memcpy of the bytes it read, and each corpus model's\n\
         # `relic convert … .glb` CPU time over `cp` of the model, the best of the rounds.\n\
         # `cargo xtask ci` fails when a figure is more than 2× its line here.\n",
    );
    for line in crate::bench_report::machine(false).lines() {
        text += &format!("# {line}\n");
    }
    for (name, value) in figures.iter().filter(|(_, v)| v.is_finite()) {
        text += &format!("{value:.1} {name}\n");
    }
    std::fs::write(baseline_path(), text).map_err(|e| format!("{}: {e}", baseline_path().display()))?;
    println!("perf: wrote {}", baseline_path().display());
    Ok(())
}

/// Prints every figure beside its baseline; fails if one is past [`LIMIT`] times it.
pub fn check(figures: &[(String, f64)]) -> Result<(), String> {
    let baseline = read_baseline()?;
    let mut failed = Vec::new();
    println!("| guard | now | baseline | limit | |\n|---|---:|---:|---:|---|");
    for (name, base) in &baseline {
        let now = figures.iter().find(|(n, _)| n == name).map(|(_, v)| *v);
        let verdict = match now {
            Some(v) if v.is_finite() && v <= base * LIMIT => "ok",
            Some(v) if v.is_finite() => "SLOWER",
            _ => "NOT MEASURED",
        };
        println!(
            "| {name} | {} | {base:.1} | {:.1} | {verdict} |",
            now.map_or("—".into(), |v| format!("{v:.1}")),
            base * LIMIT
        );
        if verdict != "ok" {
            failed.push(name.as_str());
        }
    }
    for (name, v) in figures.iter().filter(|(n, _)| !baseline.iter().any(|(b, _)| b == n)) {
        println!("| {name} | {v:.1} | — | — | no baseline |");
    }
    if failed.is_empty() {
        println!("perf guard: {} figures within {LIMIT}× their baseline", baseline.len());
        Ok(())
    } else {
        Err(format!("perf guard: {} past {LIMIT}× their baseline or not measured: {}", failed.len(), failed.join(", ")))
    }
}

/// The step of `cargo xtask ci`: `cargo xtask perf --check` on the corpus, best of 5 rounds.
pub fn run_guard() -> Result<(), String> {
    if !crate::workspace_root().join(crate::CORPUS).is_dir() {
        println!("perf guard: SKIPPED, {} is absent (its figures are of the corpus models)", crate::CORPUS);
        return Ok(());
    }
    super::run(&["--runs", ROUNDS, "--check"])
}
