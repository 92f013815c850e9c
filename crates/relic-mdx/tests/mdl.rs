//! MDL: MDX → MDL → MDX keeps every count and value MDL names, MDL → MDX → MDL gives the same
//! text, and the corpus's MDL files read with the counts of the spec's probe.

// Test code: a failed unwrap or index is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::path::{Path, PathBuf};

use relic_core::info::Fact;
use relic_mdx::mdl::{FloatStyle, read_mdl, write_mdl};
use relic_testkit::CountingAllocator;

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

fn corpus(test: &str, ext: &str) -> Option<Vec<PathBuf>> {
    let dir = relic_testkit::corpus_dir(test)?.join("mdx");
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case(ext)))
        .collect();
    out.sort();
    Some(out)
}

fn counts(info: &relic_core::Info) -> Vec<(&'static str, u64)> {
    info.facts.iter().filter_map(|(k, f)| if let Fact::Count(n) = f { Some((*k, *n)) } else { None }).collect()
}

fn v800_files(test: &str) -> Vec<(String, Vec<u8>)> {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/mdx/v800_full.mdx");
    let mut files = vec![("v800_full.mdx".to_string(), std::fs::read(fixture).unwrap())];
    for path in corpus(test, "mdx").unwrap_or_default() {
        let bytes = std::fs::read(&path).unwrap();
        if relic_mdx::read(&bytes).unwrap().version() == 800 {
            files.push((path.file_name().unwrap().to_string_lossy().into_owned(), bytes));
        }
    }
    files
}

#[test]
fn mdx_to_mdl_and_back_keeps_the_counts_and_the_text_is_a_fixed_point() {
    for (name, bytes) in v800_files("mdx_to_mdl_and_back_keeps_the_counts_and_the_text_is_a_fixed_point") {
        let file = relic_mdx::read(&bytes).unwrap();
        let mdl = write_mdl(&file, FloatStyle::Shortest).unwrap();
        for loss in &mdl.losses {
            eprintln!("{name}: loss: {loss}");
        }
        let back = read_mdl(&mdl.value).unwrap_or_else(|e| panic!("{name}: {e}"));
        let out = relic_mdx::write(&back).unwrap_or_else(|e| panic!("{name}: {e}"));
        let before = counts(&relic_mdx::info(&bytes).unwrap());
        let after = counts(&relic_mdx::info(&out).unwrap());
        assert_eq!(before, after, "{name}");
        let again = write_mdl(&back, FloatStyle::Shortest).unwrap();
        assert!(again.value == mdl.value, "{name}: MDL → MDX → MDL differs");
        assert!(again.losses.is_empty(), "{name}: {:?}", again.losses);
    }
}

/// A file MDL holds whole (the writer reports no loss) and whose chunks are in MDL's order comes
/// back byte for byte: the MDX floats through their shortest text, every count, key and flag.
#[test]
fn a_file_without_losses_comes_back_byte_for_byte() {
    let mut identical = Vec::new();
    for (name, bytes) in v800_files("a_file_without_losses_comes_back_byte_for_byte") {
        let file = relic_mdx::read(&bytes).unwrap();
        let mdl = write_mdl(&file, FloatStyle::Shortest).unwrap();
        let out = relic_mdx::write(&read_mdl(&mdl.value).unwrap()).unwrap();
        eprintln!("{name}: {} losses, identical: {}", mdl.losses.len(), out == bytes);
        if mdl.losses.is_empty() {
            if out != bytes {
                let at = out.iter().zip(&bytes).position(|(a, b)| a != b);
                panic!(
                    "{name}: no loss reported but the MDX differs (first at {at:?}, {} vs {} bytes)",
                    out.len(),
                    bytes.len()
                );
            }
            identical.push(name);
        }
    }
    eprintln!("byte-identical through MDL: {identical:?}");
}

/// The probe's script, next to the spec.
fn probe() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/tools/mdx_probe.py")
}

/// The corpus's MDL files (written by Magos' editor re-saved by Retera's toolkit, and by a
/// war3-model fork) read with the probe's counts.
#[test]
fn corpus_mdl_files_read_with_the_probes_counts() {
    let test = "corpus_mdl_files_read_with_the_probes_counts";
    let Some(files) = corpus(test, "mdl") else { return };
    assert!(files.len() >= 2);
    if !probe().is_file() {
        relic_testkit::skip_or_fail(test, &format!("the probe {} is absent", probe().display()));
        return;
    }
    for path in files {
        let output = match std::process::Command::new("python3").arg(probe()).arg(&path).output() {
            Ok(o) if o.status.success() => o,
            Ok(o) => panic!("the probe failed: {}", String::from_utf8_lossy(&o.stderr)),
            Err(e) => {
                relic_testkit::skip_or_fail(test, &format!("python3 cannot be run: {e}"));
                return;
            }
        };
        let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        // What `relic info` reports: the registry's MDL entry recognises the file and counts it.
        let detected = relic_mdx::mdl::detect(&bytes).unwrap_or_else(|| panic!("{}: not detected", path.display()));
        assert_eq!((detected.source.format, detected.source.version), (relic_mdx::mdl::FORMAT, 800));
        let info = relic_mdx::mdl_info(&bytes).unwrap();
        let file = relic_mdx::mdl::read(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(relic_mdx::info(&relic_mdx::write(&file).unwrap()).unwrap().facts, info.facts);
        for (key, value) in report["counts"].as_object().unwrap() {
            if key == "gliders" {
                continue;
            }
            let ours = match info.get(key) {
                Some(Fact::Count(n)) => *n,
                other => panic!("{}: no count {key} ({other:?})", path.display()),
            };
            assert_eq!(ours, value.as_u64().unwrap(), "{}: {key}", path.display());
        }
        // Written again (floats in their shortest form), it reads back as the same file; in
        // Magos' `%g`, with the same counts.
        let again = write_mdl(&file, FloatStyle::Shortest).unwrap();
        assert!(read_mdl(&again.value).unwrap() == file, "{}", path.display());
        let magos = read_mdl(&write_mdl(&file, FloatStyle::Magos).unwrap().value).unwrap();
        assert_eq!(
            relic_mdx::info(&relic_mdx::write(&magos).unwrap()).unwrap().facts,
            info.facts,
            "{}",
            path.display()
        );
    }
}

/// The corpus's MDX/MDL pairs (the same model written by two tools) read with equal counts, and
/// the MDX written as MDL in MdlxConv's `%f` or Magos' `%g` reads back with the same counts.
#[test]
fn mdx_and_mdl_pairs_agree() {
    let test = "mdx_and_mdl_pairs_agree";
    let Some(dir) = relic_testkit::corpus_dir(test) else { return };
    for (mdx, mdl) in
        [("File00001202_98f1fm0.mdx", "File00001202_98f1fm0.mdl"), ("PackHorse.mdx", "PackHorse_magos.mdl")]
    {
        let bytes = std::fs::read(dir.join("mdx").join(mdx)).unwrap();
        let text = std::fs::read_to_string(dir.join("mdx").join(mdl)).unwrap();
        let from_text = relic_mdx::write(&read_mdl(&text).unwrap()).unwrap();
        let binary = counts(&relic_mdx::info(&bytes).unwrap());
        assert_eq!(counts(&relic_mdx::info(&from_text).unwrap()), binary, "{mdl}");
        let file = relic_mdx::read(&bytes).unwrap();
        for style in [FloatStyle::MdlxConv, FloatStyle::Magos] {
            let back = read_mdl(&write_mdl(&file, style).unwrap().value).unwrap();
            assert_eq!(counts(&relic_mdx::info(&relic_mdx::write(&back).unwrap()).unwrap()), binary, "{mdx} {style:?}");
        }
    }
}

#[test]
fn reforged_files_are_not_written_as_mdl_and_bad_text_names_its_line() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/mdx/v1000_hd.mdx");
    let file = relic_mdx::read(&std::fs::read(fixture).unwrap()).unwrap();
    let err = write_mdl(&file, FloatStyle::Shortest).unwrap_err().to_string();
    assert!(err.contains("MDL of version 1000"), "{err}");
    let err =
        read_mdl("Version {\n\tFormatVersion 800,\n}\nModel \"x\" {\n\tBlendTime abc,\n}\n").unwrap_err().to_string();
    assert!(err.contains("MDL line 4 (Model)") && err.contains("\"abc\" is not a number"), "{err}");
    assert!(read_mdl("Model \"x\" {").unwrap_err().to_string().contains("not closed"));
    assert!(read_mdl("Version { FormatVersion 1000, }").unwrap_err().to_string().contains("FormatVersion 1000"));
}

#[test]
fn hostile_mdl_text_is_refused_without_a_panic() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/mdx/v800_full.mdx");
    let file = relic_mdx::read(&std::fs::read(fixture).unwrap()).unwrap();
    let text = write_mdl(&file, FloatStyle::Shortest).unwrap().value;
    assert!(relic_testkit::counting_installed());
    let read = |b: &[u8]| read_mdl(&String::from_utf8_lossy(b));
    let mut h = relic_testkit::Harness::new().reader("read_mdl", read);
    h.truncations("v800_full.mdl", text.as_bytes());
    h.mutations("v800_full.mdl", text.as_bytes(), &mut relic_testkit::Rng::new(0x4D44_4C00), 2000);
    h.input("deep", "{".repeat(100_000).as_bytes());
    h.input("deep closed", format!("{}{}", "{".repeat(30), "}".repeat(30)).as_bytes());
    h.finish();
    assert!(read(&"{".repeat(100_000).into_bytes()).unwrap_err().to_string().contains("nested deeper than 32"));
}

/// The densest text (one-character statements) keeps the tree within 48 × its size, the bound
/// relic-gltf's JSON reader has; a real file's tree is far smaller.
#[test]
fn the_tree_of_a_dense_text_is_bounded() {
    let limits = relic_testkit::Limits { per_input_byte: 48, ..relic_testkit::Limits::default() };
    let dense = format!("PivotPoints 1 {{ {} }}", "1,".repeat(200_000));
    let (_, peak) = relic_testkit::peak_allocation(|| read_mdl(&dense));
    eprintln!("{} bytes of MDL, peak {peak} bytes ({:.0}× the input)", dense.len(), peak as f64 / dense.len() as f64);
    relic_testkit::check("dense", dense.as_bytes(), limits, |b| read_mdl(&String::from_utf8_lossy(b))).unwrap();
    let words = format!("Model \"m\" {{ {} }}", "a ".repeat(200_000));
    relic_testkit::check("words", words.as_bytes(), limits, |b| read_mdl(&String::from_utf8_lossy(b))).unwrap();
}

/// MDL text is recognised by its first word after a byte order mark, blank lines and `//`
/// comments (`Version`, or `Model` in a file without a version block), as tools write it; other
/// text is not.
#[test]
fn mdl_text_is_recognised_as_tools_write_it() {
    let detect = |text: &[u8]| relic_mdx::mdl::detect(text).map(|d| d.source.version);
    assert_eq!(detect(b"Version { FormatVersion 800, } Model \"Example\" {}"), Some(800));
    assert_eq!(
        detect(b"\xEF\xBB\xBF// Exported by a modelling tool\r\n//\r\n\r\nVersion {\r\n\tFormatVersion 800,\r\n}"),
        Some(800)
    );
    assert_eq!(detect(b"Model \"NoVersion\" {\n}\n"), Some(800));
    assert_eq!(detect(b"Version {\n\tFormatVersion 1000,\n}\n"), Some(1000));
    for other in [&b"{\"asset\": {\"version\": \"2.0\"}}"[..], b"Versions 2", b"// only a comment", b"MDLX", b""] {
        assert_eq!(detect(other), None, "{:?}", String::from_utf8_lossy(other));
    }
    // A version the reader does not read is recognised, then refused with the reason.
    let err = relic_mdx::mdl::read(b"Version {\n\tFormatVersion 1000,\n}\n").unwrap_err().to_string();
    assert!(err.contains("FormatVersion 1000"), "{err}");
}

/// A name in Windows-1252 (Magos' editor wrote the game's code page) keeps its bytes in the MDX;
/// relic's MDL is UTF-8, and reads back to the same bytes.
#[test]
fn a_windows_1252_name_keeps_its_bytes() {
    let text = b"Version {\n\tFormatVersion 800,\n}\nModel \"\xC9p\xE9e\" {\n\tBlendTime 150,\n}\n";
    let file = relic_mdx::mdl::read(text).unwrap();
    let model_name = |f: &relic_mdx::MdxFile| {
        f.chunks.iter().find_map(|c| match c {
            relic_mdx::file::Chunk::Model(m) => Some(m.name.0[..4].to_vec()),
            _ => None,
        })
    };
    assert_eq!(model_name(&file), Some(vec![0xC9, b'p', 0xE9, b'e']));
    let written = relic_mdx::mdl::write(&file).unwrap().value;
    assert!(String::from_utf8(written.clone()).unwrap().contains("Model \"\u{c9}p\u{e9}e\""));
    assert_eq!(model_name(&relic_mdx::mdl::read(&written).unwrap()), Some(vec![0xC9, b'p', 0xE9, b'e']));
}

/// A model read from an MDX written as MDL by the registry's entry (`relic convert x.mdx y.mdl`)
/// and read back as MDX by it: the file's bytes (every corpus MDX 800 whose MDL carries every
/// value), and a Reforged file's model written again as MDL 800 with a note.
#[test]
fn the_mdl_entry_writes_the_model_and_reads_it_back() {
    let options = relic_core::WriteOptions::default();
    for (name, bytes) in v800_files("the_mdl_entry_writes_the_model_and_reads_it_back") {
        let model = relic_mdx::read_model(&bytes).unwrap();
        let mdl = relic_mdx::write_mdl_model(&model, &options).unwrap();
        let (back, info) = relic_mdx::read_mdl_model_with_info(&mdl.value).unwrap();
        assert_eq!(counts(&info), counts(&relic_mdx::info(&bytes).unwrap()), "{name}");
        let again = relic_mdx::write_model(&back.value, &options).unwrap().value;
        assert_eq!(mdl.losses.is_empty(), again == bytes, "{name}: byte for byte exactly when the MDL carries all");
    }
    let hd = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/mdx/v1000_hd.mdx")).unwrap();
    let mdl = relic_mdx::write_mdl_model(&relic_mdx::read_model(&hd).unwrap(), &options).unwrap();
    assert!(mdl.losses.iter().any(|l| l.to_string().contains("another version is asked for")), "{:?}", mdl.losses);
    let back = relic_mdx::mdl::read(&mdl.value).unwrap();
    assert_eq!(back.version(), 800);
}
