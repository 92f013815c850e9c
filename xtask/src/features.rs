//! `cargo xtask features`: the `relic` facade built with each format feature alone
//! (`cargo check -p relic --no-default-features --features m2`, …) and with none, each without a
//! warning. The features are read from `crates/relic/Cargo.toml` (every feature but `default` and
//! `verify`), so a format added there is checked without a change here.

use std::process::Command;

/// The facade's format features, as its manifest lists them.
fn format_features() -> Result<Vec<String>, String> {
    let manifest = crate::workspace_root().join("crates/relic/Cargo.toml");
    let text = std::fs::read_to_string(&manifest).map_err(|e| format!("{}: {e}", manifest.display()))?;
    let section = text.split("[features]").nth(1).ok_or("crates/relic/Cargo.toml has no [features]")?;
    let section = section.split("\n[").next().unwrap_or(section);
    let names = section
        .lines()
        .filter_map(|line| line.split_once('=').map(|(name, _)| name.trim()))
        .filter(|name| !name.is_empty() && !name.starts_with('#') && !matches!(*name, "default" | "verify"))
        .map(str::to_string)
        .collect();
    Ok(names)
}

/// Checks the facade with `features` alone; `Err` with the compiler's words on an error or warning.
fn check(features: &str) -> Result<(), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut args = vec!["check", "--quiet", "-p", "relic", "--no-default-features", "--message-format", "short"];
    if !features.is_empty() {
        args.extend(["--features", features]);
    }
    let output = Command::new(cargo)
        .args(&args)
        .current_dir(crate::workspace_root())
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    let problems: Vec<&str> = stderr.lines().filter(|l| l.contains("warning") || l.contains("error")).collect();
    if output.status.success() && problems.is_empty() {
        Ok(())
    } else {
        Err(format!("`cargo {}`:\n{}", args.join(" "), stderr.trim_end()))
    }
}

pub fn run() -> Result<(), String> {
    let mut failed = Vec::new();
    let features = format_features()?;
    for features in features.iter().map(String::as_str).chain([""]) {
        let label = if features.is_empty() { "no format" } else { features };
        match check(features) {
            Ok(()) => println!("ok   relic with {label}"),
            Err(e) => {
                println!("FAIL relic with {label}: {e}");
                failed.push(label.to_string());
            }
        }
    }
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("the facade does not build cleanly with: {}", failed.join(", ")))
    }
}
