//! The "pair" checks of `cargo xtask corpus`: a model present in the corpus in a Wrath version
//! (264, 272) and in Classic (256) — two exports of the same creature by Blizzard — is converted
//! from Wrath to 256 and compared with the Classic file (`relic_m2::verify::pair`).
//!
//! Pairing across folders, by name: two M2 files pair when their file stems agree without regard
//! to letter case up to the first `-` (`GnomePounder.m2` in `m2-wrath/` and
//! `GnomePounder-vanilla.m2` in `m2/`: the suffix names the export), one is 264 or later and the
//! other 256–263. A stem with several partners pairs with each.

use std::path::{Path, PathBuf};

/// An M2 model of the corpus: where, which version, its pairing key.
struct Model {
    path: PathBuf,
    version: u32,
    key: String,
}

/// The pairing key of a file: its stem up to the first `-`, lower case.
fn key(path: &Path) -> String {
    let stem = relic::stem(path);
    stem.split('-').next().unwrap_or(&stem).to_ascii_lowercase()
}

fn models(files: &[PathBuf]) -> Vec<Model> {
    files
        .iter()
        .filter_map(|path| {
            let bytes = std::fs::read(path).ok()?;
            let (_, detected) = relic::detect_format(&bytes)?;
            let m2 = detected.source.format == relic_m2::FORMAT && detected.content == relic::Content::Model;
            (m2 && bytes.starts_with(b"MD20")).then(|| Model {
                path: path.clone(),
                version: detected.source.version,
                key: key(path),
            })
        })
        .collect()
}

/// Runs every pair check under `root`; returns (passed, failed); a listed known failure that
/// fails is pushed to `known` instead.
pub fn run(root: &Path, files: &[PathBuf], known: &mut Vec<relic_testkit::KnownFailure>) -> (usize, usize) {
    let all = models(files);
    let (mut passed, mut failed) = (0, 0);
    for wrath in all.iter().filter(|m| m.version >= 264) {
        for classic in all.iter().filter(|m| m.version < 264 && m.key == wrath.key) {
            let rel = |p: &Path| p.strip_prefix(root).unwrap_or(p).display().to_string();
            let (Ok(bytes), Ok(classic_bytes)) = (std::fs::read(&wrath.path), std::fs::read(&classic.path)) else {
                failed += 1;
                continue;
            };
            let siblings = relic::FolderSiblings::of(&wrath.path);
            let name = wrath.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            let input = relic_core::format::Input { bytes: &bytes, name: &name, siblings: &siblings };
            let checks = relic_m2::verify::pair::pair_checks(&input, &classic_bytes);
            let summary = checks.0.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ");
            let label = format!("pair {} ↔ {}", rel(&wrath.path), rel(&classic.path));
            let (mark, ok) = match crate::known::judge("corpus", &label, !checks.passed()) {
                crate::known::Verdict::Passed => ("ok  ", Some(true)),
                crate::known::Verdict::Failed => ("FAIL", Some(false)),
                crate::known::Verdict::Known(k) => {
                    known.push(k);
                    ("KNOWN", None)
                }
                crate::known::Verdict::NowPasses(k) => {
                    println!(
                        "FAIL {label}: listed as a known failure ({}) but passes now: take it off corpus-known-failures.txt",
                        k.what
                    );
                    ("FAIL", Some(false))
                }
            };
            println!("{mark} {label} [v{} ↔ v{}]: {summary}", wrath.version, classic.version);
            match ok {
                Some(true) => passed += 1,
                Some(false) => failed += 1,
                None => {}
            }
        }
    }
    (passed, failed)
}
