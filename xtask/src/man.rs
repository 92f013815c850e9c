//! `cargo xtask man [OUT]`: the man page (`relic.1`, clap_mangen) and the shell completions
//! (bash, zsh, fish; clap_complete) of the `relic` command, generated from its own command-line
//! definition, into OUT (default `target/dist`).

use std::path::{Path, PathBuf};

pub fn run(out: Option<&Path>) -> Result<(), String> {
    let out = out.map(Path::to_path_buf).unwrap_or_else(|| crate::workspace_root().join("target/dist"));
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let command = relic_cli::cli::command();
    let mut page = Vec::new();
    clap_mangen::Man::new(command.clone()).render(&mut page).map_err(|e| format!("man page: {e}"))?;
    let written = write(&out.join("relic.1"), &page)?;
    println!("man: {} ({} bytes)", written.display(), page.len());
    for (shell, name) in [
        (clap_complete::Shell::Bash, "relic.bash"),
        (clap_complete::Shell::Zsh, "_relic"),
        (clap_complete::Shell::Fish, "relic.fish"),
    ] {
        let mut script = Vec::new();
        clap_complete::generate(shell, &mut command.clone(), "relic", &mut script);
        let written = write(&out.join(name), &script)?;
        println!("man: {} ({} bytes)", written.display(), script.len());
    }
    Ok(())
}

fn write(path: &Path, bytes: &[u8]) -> Result<PathBuf, String> {
    std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path.to_path_buf())
}
