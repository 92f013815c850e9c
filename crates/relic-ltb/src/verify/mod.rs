//! The checks `cargo xtask corpus` runs on each LTB file (cargo feature `verify`).

use relic_core::check::Checks;

/// Runs every format-level check on one file.
pub fn corpus_checks(bytes: &[u8]) -> Checks {
    let mut checks = Checks::new();
    let Some(file) = checks.parsed(crate::read(bytes), |f| format!("v{}", f.version())) else { return checks };
    checks.run("rewrite", || {
        let out = crate::write(&file).map_err(|e| e.to_string())?;
        if out == bytes { Ok(format!("{} bytes identical", out.len())) } else { Err("differs".into()) }
    });
    checks
}
