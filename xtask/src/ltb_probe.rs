//! The LTB check of `cargo xtask corpus` that needs another program: the independent walker
//! `shared/tools/ltb_probe.py` (found in a `tools/` folder beside the corpus) must agree with
//! `relic info` on the file's header counts, and read the file's payload as relic's writer
//! compresses it anew. Skipped, saying so, where python3 or the probe is absent; under CI (`CI`
//! set) their absence is a failure.

use std::path::{Path, PathBuf};
use std::process::Command;

use relic_core::check::Checks;

fn probe_script(path: &Path) -> Option<PathBuf> {
    path.ancestors().map(|a| a.join("tools/ltb_probe.py")).find(|p| p.is_file())
}

fn run(script: &Path, file: &Path) -> Result<String, String> {
    let out =
        Command::new("python3").arg(script).arg("--json").arg(file).output().map_err(|e| format!("python3: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    if text.trim_start().starts_with('{') { Ok(text) } else { Err(format!("the probe says: {}", text.trim())) }
}

/// The probe checks of an LTB file (none for other files).
pub fn checks(path: &Path, bytes: &[u8]) -> Checks {
    let mut checks = Checks::new();
    if relic_ltb::detect(bytes).is_none() {
        return checks;
    }
    let python = Command::new("python3").arg("--version").output().is_ok_and(|o| o.status.success());
    let Some(script) = probe_script(path).filter(|_| python) else {
        let why = "python3 or tools/ltb_probe.py beside the corpus is absent";
        // Under CI the only independent LTB check may not be skipped unseen.
        if relic_testkit::under_ci() {
            checks.fail("ltb-probe", format!("{why} (under CI nothing is skipped)"));
        } else {
            checks.skip("ltb-probe", why);
        }
        return checks;
    };
    checks.run("ltb-probe", || {
        let info = relic_ltb::info(bytes).map_err(|e| e.to_string())?;
        let agreed = relic_ltb::verify::probe::compare(&run(&script, path)?, &info)?;
        let mut file = relic_ltb::read(bytes).map_err(|e| e.to_string())?;
        let Some(w) = &mut file.wrapper else { return Ok(agreed) };
        // The payload in a new LZMA stream, as relic writes a changed model.
        w.original.clear();
        w.payload_digest = 0;
        let fresh = relic_ltb::write(&file).map_err(|e| e.to_string())?;
        let temp = std::env::temp_dir().join(format!("relic-ltb-probe-{}.ltb", std::process::id()));
        std::fs::write(&temp, &fresh).map_err(|e| e.to_string())?;
        let again = run(&script, &temp);
        let _ = std::fs::remove_file(&temp);
        relic_ltb::verify::probe::compare(&again?, &info).map_err(|e| format!("the new stream: {e}"))?;
        Ok(format!("{agreed}; the new stream ({} bytes) too", fresh.len()))
    });
    checks
}
