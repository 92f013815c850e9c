//! `cargo xtask fresh-clone [--full]`: clones this repository (its committed `HEAD`) into a
//! temporary folder and runs the README's two commands there, exactly as the README's "On a fresh
//! machine" section writes them, with nothing else run first.
//!
//! * quick (the CI step): the main command, then the test command limited by `RELIC_CI_ONLY` to
//!   its set-up and a few fast steps; the clone shares this checkout's `target/` for the
//!   compiled dependencies, so only the workspace's own crates are built again (and removed
//!   afterwards: they carry the clone's paths).
//! * `--full`: both commands whole, with a target folder of their own (a cold build).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// `cargo xtask ci` runs only the steps named here (comma-separated) when it is set.
pub const ONLY: &str = "RELIC_CI_ONLY";

/// The steps of `cargo xtask ci` the quick run takes: the set-up a fresh clone needs, and fast
/// steps that use it (the Blender steps run in the CI that runs this one).
const QUICK_STEPS: &str = "setup,fmt,fixtures,gltf-validate";

/// The shell commands of the README's "On a fresh machine" section, in order (the first `sh`
/// block is the main command, the second the test command).
pub fn readme_commands(readme: &str) -> Result<Vec<String>, String> {
    let section = readme
        .split("\n## ")
        .find(|s| s.starts_with("On a fresh machine"))
        .ok_or("the README has no \"On a fresh machine\" section")?;
    let mut commands = Vec::new();
    let mut lines = section.lines();
    while let Some(line) = lines.next() {
        if line.trim() == "```sh" {
            let block: Vec<&str> = lines.by_ref().take_while(|l| l.trim() != "```").collect();
            commands.push(block.join("\n").trim().to_string());
        }
    }
    if commands.len() < 2 {
        return Err(format!("the README's \"On a fresh machine\" section has {} commands, not 2", commands.len()));
    }
    commands.truncate(2);
    Ok(commands)
}

fn sh(command: &str, dir: &Path, env: &[(&str, &str)]) -> Result<(), String> {
    println!("fresh-clone: $ {command}");
    let started = Instant::now();
    let status = Command::new("sh")
        .args(["-c", command])
        .current_dir(dir)
        .envs(env.iter().copied())
        // The clone is a user's checkout: none of this run's CI settings leak into it.
        .env_remove("RELIC_REQUIRE_CORPUS")
        .env_remove("CI")
        .env_remove("CARGO")
        .status()
        .map_err(|e| format!("cannot run sh: {e}"))?;
    println!("fresh-clone: exit {} in {:.1} s", status.code().unwrap_or(-1), started.elapsed().as_secs_f64());
    if status.success() { Ok(()) } else { Err(format!("`{command}` failed in the fresh clone ({status})")) }
}

pub fn run(full: bool) -> Result<(), String> {
    let root = crate::workspace_root();
    let dirty = Command::new("git").args(["status", "--porcelain"]).current_dir(&root).output();
    if dirty.is_ok_and(|o| !o.stdout.is_empty()) {
        println!("fresh-clone: note: uncommitted changes are not in the clone (it is made from HEAD)");
    }
    let base = std::env::temp_dir().join(format!("relic-fresh-clone-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(&base).map_err(|e| format!("{}: {e}", base.display()))?;
    let clone: PathBuf = base.join("relic");
    let status = Command::new("git")
        .args(["clone", "--quiet", "--no-hardlinks"])
        .arg(&root)
        .arg(&clone)
        .status()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !status.success() {
        return Err(format!("git clone failed ({status})"));
    }
    let readme = std::fs::read_to_string(clone.join("README.md")).map_err(|e| format!("README.md: {e}"))?;
    let commands = readme_commands(&readme)?;
    let (main, test) = (&commands[0], &commands[1]);
    let own_target = base.join("target").display().to_string();
    let shared_target = root.join("target").display().to_string();
    let target = if full { own_target } else { shared_target };
    let env_main = [("CARGO_TARGET_DIR", target.as_str())];
    let result = sh(main, &clone, &env_main).and_then(|()| {
        let out = clone.join("hero.glb");
        let bytes = std::fs::read(&out).map_err(|e| format!("the main command wrote no {}: {e}", out.display()))?;
        if !bytes.starts_with(b"glTF") {
            return Err(format!("{} is not a GLB", out.display()));
        }
        println!("fresh-clone: the main command wrote hero.glb ({} bytes)", bytes.len());
        let mut env = vec![("CARGO_TARGET_DIR", target.as_str())];
        if !full {
            env.push((ONLY, QUICK_STEPS));
        }
        sh(test, &clone, &env)
    });
    let forgotten = if full { Ok(()) } else { forget_clone_builds(&clone, &target) };
    let _ = std::fs::remove_dir_all(&base);
    result.and(forgotten)
}

/// Removes from the shared target folder what the quick clone built of the workspace's own
/// crates. Cargo names a workspace crate's artifacts independently of where the checkout lies and
/// takes the clone's as up to date (they are newer than this checkout's sources), so this
/// checkout's next build would use them with the clone's paths compiled in (`env!` of the
/// manifest folder: the corpus, the fixtures, xtask's workspace root), pointing into the clone
/// deleted here; a second `cargo xtask ci` failed on it. The compiled dependencies stay shared.
fn forget_clone_builds(clone: &Path, target: &str) -> Result<(), String> {
    let metadata = Command::new("cargo")
        .args(["metadata", "--no-deps", "--format-version", "1"])
        .current_dir(clone)
        .output()
        .map_err(|e| format!("cannot run cargo metadata: {e}"))?;
    let json: serde_json::Value =
        serde_json::from_slice(&metadata.stdout).map_err(|e| format!("cargo metadata: {e}"))?;
    let names: Vec<&str> =
        json["packages"].as_array().into_iter().flatten().filter_map(|p| p["name"].as_str()).collect();
    // `cargo clean` without `-p` would empty the whole shared folder.
    if names.is_empty() {
        return Err("cargo metadata of the clone lists no packages: its builds were not removed".into());
    }
    for profile in [&[][..], &["--release"][..]] {
        let mut clean = Command::new("cargo");
        clean.arg("clean").arg("--quiet").args(profile).current_dir(clone).env("CARGO_TARGET_DIR", target);
        for name in &names {
            clean.args(["-p", name]);
        }
        let status = clean.status().map_err(|e| format!("cannot run cargo clean: {e}"))?;
        if !status.success() {
            return Err(format!("cargo clean of the clone's builds failed ({status})"));
        }
    }
    println!("fresh-clone: the clone's builds of {} workspace crates removed from {target}", names.len());
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_readme_names_its_two_commands() {
        let readme = std::fs::read_to_string(crate::workspace_root().join("README.md")).unwrap();
        let commands = super::readme_commands(&readme).unwrap();
        assert!(commands[0].starts_with("cargo run --release -p relic-cli -- convert "), "{commands:?}");
        assert_eq!(commands[1], "cargo xtask ci");
    }
}
