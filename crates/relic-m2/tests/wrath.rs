//! Wrath and later (264, 272) with their `.skin` and `.anim` files: the real files read and write
//! back byte for byte; what is missing or malformed is refused with the file's name.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use relic_core::format::Input;
use relic_m2::wrath::{self, SiblingBytes};

/// Every model of the corpus's `m2-wrath/` folder with the files beside it (empty without it).
fn wrath_models() -> Vec<(String, Vec<u8>, SiblingBytes)> {
    let Some(dir) = relic_testkit::corpus_dir("real Wrath M2 files") else { return Vec::new() };
    let dir = dir.join("m2-wrath");
    let mut all: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| (e.file_name().to_string_lossy().into_owned(), std::fs::read(e.path()).unwrap()))
        .collect();
    all.sort();
    let siblings = SiblingBytes(all.clone());
    all.into_iter()
        .filter(|(n, _)| n.to_ascii_lowercase().ends_with(".m2"))
        .map(|(n, b)| (n, b, siblings.clone()))
        .collect()
}

#[test]
fn real_files_write_back_byte_for_byte_with_their_skins() {
    let models = wrath_models();
    let mut checked = 0;
    for (name, bytes, siblings) in &models {
        let input = Input { bytes, name, siblings };
        let model = wrath::read(&input).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (written, files) = wrath::write(&model).unwrap();
        assert!(
            written == *bytes,
            "{name}: differs from byte {:?}",
            written.iter().zip(bytes.iter()).position(|(a, b)| a != b)
        );
        let stem = name.trim_end_matches(".m2");
        assert_eq!(files.len(), model.skins.len(), "{name}");
        for f in &files {
            let original = siblings.0.iter().find(|(n, _)| *n == format!("{stem}{}", f.suffix)).unwrap();
            assert!(f.bytes == original.1, "{name}: {} differs", f.suffix);
        }
        checked += 1 + files.len();
        eprintln!("{name}: v{}, {} skins, byte-identical", model.file.version, model.skins.len());
    }
    // Every model present and every skin it names were compared.
    let skins = |s: &SiblingBytes| s.0.iter().filter(|(n, _)| n.ends_with(".skin")).count();
    assert_eq!(checked, models.len() + models.first().map_or(0, |m| skins(&m.2)));
}

#[test]
fn real_files_pass_the_corpus_battery() {
    for (name, bytes, siblings) in &wrath_models() {
        let input = Input { bytes, name, siblings };
        let checks = relic_m2::verify::corpus_checks_input(&input);
        for c in &checks.0 {
            eprintln!("{name}: {c}");
        }
        let failures: Vec<String> = checks.failures().map(ToString::to_string).collect();
        assert!(failures.is_empty(), "{name}: {failures:?}");
    }
}
