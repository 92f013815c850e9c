//! `cargo xtask fuzz --minutes N [TARGET…]`: fuzz campaigns in one command (fuzz/README.md).
//!
//! 1. installs cargo-fuzz from crates.io where `cargo fuzz` is missing (`cargo install cargo-fuzz
//!    --locked`);
//! 2. seeds `fuzz/corpus/<target>/` (gitignored) with the fixtures, the hostile fixtures and the
//!    real files of `../shared/corpus` where present (glTF: the fixture models exported);
//! 3. builds the targets once (`cargo fuzz build -s none --release -a`, `RUSTC_BOOTSTRAP=1` on
//!    the stable toolchain, target directory `target/fuzz`);
//! 4. runs each target for N minutes at the lowest priority (`nice -n 19`), one at a time, going
//!    on after a crash, and prints per target the duration, the executions, and the crashes
//!    (budget breaches among them: every new crash input is re-run once and its message read),
//!    timeouts and out-of-memory runs saved under `fuzz/artifacts/<target>/`.
//!
//! `--minutes 0` seeds and builds only. Campaigns are not part of CI (`cargo xtask ci` only builds the targets).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// Every target of `fuzz/Cargo.toml`.
pub const TARGETS: [&str; 11] =
    ["abc", "m2", "m2_skin", "m2_anim", "m2_md21", "nod", "gltf", "blp", "dtx", "ltb", "mdx"];

/// Where each target's seeds come from: directories under `fixtures/` and under the shared corpus,
/// and the file extensions taken (case-insensitive).
fn seeds_of(target: &str) -> (&'static [&'static str], &'static [&'static str], &'static [&'static str]) {
    match target {
        "abc" => (&["abc"], &["abc"], &["abc"]),
        "m2" => (&["m2"], &["m2"], &["m2"]),
        "m2_skin" => (&["m2-wrath"], &["m2-wrath"], &["skin"]),
        "m2_anim" => (&["m2-wrath"], &["m2-wrath"], &["anim"]),
        "m2_md21" => (&["m2-md21", "m2-wrath"], &["m2-md21", "m2-wrath"], &["m2"]),
        "nod" => (&["nod"], &[], &["nod", "nad"]),
        "gltf" => (&["gltf"], &[], &["glb", "gltf"]),
        "blp" => (&["blp"], &["blp", "blp1"], &["blp"]),
        "dtx" => (&["dtx"], &["dtx"], &["dtx"]),
        "ltb" => (&["ltb"], &["ltb"], &["ltb"]),
        "mdx" => (&["mdx"], &["mdx"], &["mdx", "mdl"]),
        _ => (&[], &[], &[]),
    }
}

struct Options {
    minutes: u64,
    targets: Vec<String>,
}

fn parse(args: &[&str]) -> Result<Options, String> {
    let usage = || format!("usage: cargo xtask fuzz --minutes N [TARGET…] (targets: {})", TARGETS.join(", "));
    let mut minutes = None;
    let mut targets = Vec::new();
    let mut rest = args.iter();
    while let Some(&arg) = rest.next() {
        match arg {
            "--minutes" => {
                let n = rest.next().ok_or_else(usage)?;
                minutes =
                    Some(n.parse::<u64>().map_err(|_| format!("--minutes {n}: not a whole number\n{}", usage()))?);
            }
            t if TARGETS.contains(&t) => targets.push(t.to_string()),
            other => return Err(format!("unknown argument {other}\n{}", usage())),
        }
    }
    if targets.is_empty() {
        targets = TARGETS.iter().map(|t| t.to_string()).collect();
    }
    Ok(Options { minutes: minutes.ok_or_else(usage)?, targets })
}

pub fn run(args: &[&str]) -> Result<(), String> {
    let options = parse(args)?;
    let root = crate::workspace_root();
    let fuzz = root.join("fuzz");
    install_cargo_fuzz()?;
    for target in &options.targets {
        let n = seed(&root, target)?;
        println!("fuzz: {target}: {n} seed(s) in fuzz/corpus/{target}");
    }
    let mut build = fuzz_command(&fuzz);
    build.args(["build", "-s", "none", "--release", "-a"]);
    if options.targets.len() == 1 {
        build.args(&options.targets);
    }
    let status = build.status().map_err(|e| format!("cargo fuzz build: {e}"))?;
    if !status.success() {
        return Err(format!("cargo fuzz build failed ({status})"));
    }
    if options.minutes == 0 {
        println!("fuzz: --minutes 0: seeded and built, nothing run");
        return Ok(());
    }
    let mut reports = Vec::new();
    for target in &options.targets {
        let report = campaign(&fuzz, target, options.minutes)?;
        println!("{}", report.line());
        reports.push(report);
    }
    println!("\nfuzz: {} campaign(s) of {} minute(s):", reports.len(), options.minutes);
    for r in &reports {
        println!("  {}", r.line());
    }
    let found: usize = reports.iter().map(|r| r.crashes.len() + r.timeouts + r.ooms).sum();
    if found > 0 {
        return Err(format!("{found} finding(s) saved under fuzz/artifacts/: reproduce with fuzz/README.md"));
    }
    Ok(())
}

/// `cargo fuzz …` on the stable toolchain, in `fuzz/`, at the lowest priority.
fn fuzz_command(fuzz: &Path) -> Command {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new("nice");
    command
        .args(["-n", "19", &cargo, "fuzz"])
        .current_dir(fuzz)
        .env("RUSTC_BOOTSTRAP", "1")
        .env("CARGO_TARGET_DIR", crate::workspace_root().join("target/fuzz"));
    command
}

fn install_cargo_fuzz() -> Result<(), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let present = Command::new(&cargo)
        .args(["fuzz", "--version"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if present {
        return Ok(());
    }
    println!("fuzz: cargo-fuzz is missing: cargo install cargo-fuzz --locked");
    let status = Command::new(&cargo)
        .args(["install", "cargo-fuzz", "--locked"])
        .status()
        .map_err(|e| format!("cargo install cargo-fuzz: {e}"))?;
    if status.success() { Ok(()) } else { Err(format!("cargo install cargo-fuzz --locked failed ({status})")) }
}

/// Copies the seeds of `target` into `fuzz/corpus/<target>/` (a file already there is left as
/// it is) and returns how many files the directory holds.
fn seed(root: &Path, target: &str) -> Result<usize, String> {
    let dir = root.join("fuzz/corpus").join(target);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let (fixtures, corpus, extensions) = seeds_of(target);
    let wanted = |p: &Path| {
        p.extension().and_then(|e| e.to_str()).is_some_and(|e| extensions.iter().any(|x| x.eq_ignore_ascii_case(e)))
    };
    let mut sources: Vec<(String, PathBuf)> = Vec::new();
    for sub in fixtures {
        let base = root.join("fixtures").join(sub);
        if base.is_dir() {
            for path in crate::walk(&base)?.into_iter().filter(|p| wanted(p)) {
                let rel = path.strip_prefix(&base).unwrap_or(&path).to_string_lossy().replace(['/', '\\'], "_");
                sources.push((format!("fixture_{rel}"), path));
            }
        }
    }
    let shared = root.join(crate::CORPUS);
    for sub in corpus {
        let base = shared.join(sub);
        if base.is_dir() {
            for path in crate::walk(&base)?.into_iter().filter(|p| wanted(p)) {
                let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                sources.push((format!("real_{sub}_{name}"), path));
            }
        }
    }
    for (name, path) in sources {
        let to = dir.join(name);
        if !to.exists() {
            std::fs::copy(&path, &to).map_err(|e| format!("{} → {}: {e}", path.display(), to.display()))?;
        }
    }
    if target == "gltf" {
        seed_gltf(root, &dir)?;
    }
    Ok(std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?.count())
}

/// The glTF seeds: every fixture model of a game format, exported.
fn seed_gltf(root: &Path, dir: &Path) -> Result<(), String> {
    for sub in ["m2", "m2-wrath", "nod", "abc", "ltb"] {
        let base = root.join("fixtures").join(sub);
        if !base.is_dir() {
            continue;
        }
        for path in crate::walk(&base)? {
            // Relative to the fixtures: the checkout's own path may hold the word.
            if path.strip_prefix(&base).unwrap_or(&path).components().any(|c| c.as_os_str() == "hostile") {
                continue;
            }
            let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            let to = dir.join(format!("export_{sub}_{stem}.glb"));
            if to.exists() {
                continue;
            }
            let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let model = match crate::gltf_validator::read_model(&path, &bytes) {
                Some(Ok(model)) => model,
                Some(Err(e)) => {
                    println!("fuzz: gltf seed {}: not read ({e})", path.display());
                    continue;
                }
                None => continue,
            };
            match relic_gltf::export_glb(&model, &relic_gltf::ExportOptions::default()) {
                Ok(glb) => std::fs::write(&to, &glb.value).map_err(|e| format!("{}: {e}", to.display()))?,
                Err(e) => println!("fuzz: gltf seed {}: not exported ({e})", path.display()),
            }
        }
    }
    Ok(())
}

struct Report {
    target: String,
    seconds: f64,
    executions: Option<u64>,
    /// New crash inputs, and whether each is a budget breach (its message says "at peak").
    crashes: Vec<(PathBuf, bool)>,
    timeouts: usize,
    ooms: usize,
}

impl Report {
    fn line(&self) -> String {
        let breaches = self.crashes.iter().filter(|(_, b)| *b).count();
        let executions = self.executions.map_or("? executions".into(), |n| format!("{n} executions"));
        let mut line = format!(
            "{}: {:.0} s, {executions}, {} crash(es) ({breaches} budget breach(es)), {} timeout(s), {} oom(s)",
            self.target,
            self.seconds,
            self.crashes.len(),
            self.timeouts,
            self.ooms
        );
        for (path, breach) in &self.crashes {
            line.push_str(&format!("\n    {}{}", path.display(), if *breach { " (budget)" } else { "" }));
        }
        line
    }
}

/// The artifacts of a target now.
fn artifacts(fuzz: &Path, target: &str) -> BTreeSet<PathBuf> {
    let dir = fuzz.join("artifacts").join(target);
    std::fs::read_dir(dir).map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect()).unwrap_or_default()
}

fn campaign(fuzz: &Path, target: &str, minutes: u64) -> Result<Report, String> {
    let before = artifacts(fuzz, target);
    let logs = crate::workspace_root().join("target/fuzz/logs");
    std::fs::create_dir_all(&logs).map_err(|e| format!("{}: {e}", logs.display()))?;
    let log_path = logs.join(format!("{target}.log"));
    let log = std::fs::File::create(&log_path).map_err(|e| format!("{}: {e}", log_path.display()))?;
    println!("fuzz: {target}: {minutes} minute(s), log in {}", log_path.display());
    let mut command = fuzz_command(fuzz);
    command
        .args(["run", "-s", "none", "--release", "-a", target])
        .arg(format!("corpus/{target}"))
        .arg("--")
        .arg(format!("-max_total_time={}", minutes * 60))
        .args(["-timeout=10", "-rss_limit_mb=1024", "-print_final_stats=1"])
        .args(["-fork=1", "-ignore_crashes=1", "-ignore_timeouts=1", "-ignore_ooms=1"])
        .stdout(log.try_clone().map_err(|e| e.to_string())?)
        .stderr(log);
    let started = Instant::now();
    let status = command.status().map_err(|e| format!("cargo fuzz run {target}: {e}"))?;
    let seconds = started.elapsed().as_secs_f64();
    let text = std::fs::read_to_string(&log_path).unwrap_or_default();
    if !status.success() && !text.contains("INFO: fuzzed for") && !text.contains("exiting") {
        return Err(format!("cargo fuzz run {target} failed ({status}); see {}", log_path.display()));
    }
    let new: Vec<PathBuf> = artifacts(fuzz, target).difference(&before).cloned().collect();
    let name = |p: &PathBuf| p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let binary = crate::workspace_root().join("target/fuzz/x86_64-unknown-linux-gnu/release").join(target);
    let crashes = new
        .iter()
        .filter(|p| name(p).starts_with("crash-"))
        .map(|p| (p.clone(), is_budget_breach(&binary, p)))
        .collect();
    // The fuzzer's own clock (its last status line), not the build before it.
    let seconds = fuzzed_seconds(&text).unwrap_or(seconds);
    Ok(Report {
        target: target.to_string(),
        seconds,
        executions: executions(&text),
        crashes,
        timeouts: new.iter().filter(|p| name(p).starts_with("timeout-")).count(),
        ooms: new.iter().filter(|p| name(p).starts_with("oom-")).count(),
    })
}

/// The executions of a campaign: the count of libFuzzer's last status line (`#N …`), or
/// `stat::number_of_executed_units`.
fn executions(log: &str) -> Option<u64> {
    let status = log.lines().rev().find_map(|l| {
        let n = l.strip_prefix('#')?.split(|c: char| !c.is_ascii_digit()).next()?;
        n.parse().ok()
    });
    let stat = log.lines().rev().find_map(|l| l.strip_prefix("stat::number_of_executed_units:")?.trim().parse().ok());
    status.max(stat)
}

/// The seconds of the campaign by libFuzzer's last status line (`… time: 600s …`).
fn fuzzed_seconds(log: &str) -> Option<f64> {
    log.lines().rev().find_map(|l| {
        let rest = l.strip_prefix('#')?.split(" time: ").nth(1)?;
        rest.split('s').next()?.trim().parse().ok()
    })
}

/// Whether a crash input is a reader over the budget: re-run once, its panic message names the
/// peak ("… bytes at peak …", `relic_fuzz::bounded`).
fn is_budget_breach(binary: &Path, input: &Path) -> bool {
    let output = Command::new("nice").arg("-n").arg("19").arg(binary).arg(input).arg("-runs=1").output();
    output.is_ok_and(|o| String::from_utf8_lossy(&o.stderr).contains("at peak"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_and_status_lines() {
        let o = parse(&["--minutes", "10", "blp", "ltb"]).unwrap();
        assert_eq!((o.minutes, o.targets), (10, vec!["blp".to_string(), "ltb".to_string()]));
        assert_eq!(parse(&["--minutes", "1"]).unwrap().targets.len(), TARGETS.len());
        assert!(
            parse(&["blp"]).is_err()
                && parse(&["--minutes", "x"]).is_err()
                && parse(&["--minutes", "1", "png"]).is_err()
        );
        let log = "#1024\tpulse  cov: 1 ft: 2\n#2000000: cov: 3 ft: 4 corp: 5 exec/s: 6 oom/timeout/crash: 0/0/0 time: 600s\nINFO: fuzzed for 600 seconds";
        assert_eq!(executions(log), Some(2_000_000));
        assert_eq!(fuzzed_seconds(log), Some(600.0));
        for target in TARGETS {
            assert!(!seeds_of(target).2.is_empty(), "{target}");
        }
    }

    #[test]
    fn gltf_seeds_are_the_fixture_models_exported() {
        let dir = std::env::temp_dir().join(format!("relic-fuzz-seeds-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        seed_gltf(&crate::workspace_root(), &dir).unwrap();
        let n = std::fs::read_dir(&dir).unwrap().count();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(n > 10, "{n} exports");
    }
}
