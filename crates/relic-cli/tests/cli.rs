//! End-to-end tests of the `relic` binary on the checked-in fixtures (and the real corpus when
//! present): every command, every error path, and a batch over a folder of good, damaged and
//! foreign files.

// Test helpers (not #[test] fns, which clippy.toml already covers) may unwrap and index: a failure
// is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn fixture(rel: &str) -> PathBuf {
    root().join("fixtures").join(rel)
}

fn corpus() -> Option<PathBuf> {
    relic_testkit::corpus_dir("the relic command over ../shared/corpus")
}

fn relic(args: &[&std::ffi::OsStr]) -> Output {
    Command::cargo_bin("relic").unwrap().args(args).output().unwrap()
}

fn run(args: &[&str]) -> Output {
    let args: Vec<&std::ffi::OsStr> = args.iter().map(|a| std::ffi::OsStr::new(*a)).collect();
    relic(&args)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// An error is one readable line: no backtrace, no ANSI escapes, the file named.
fn assert_one_line_error(out: &Output, file: &str) {
    let err = text(&out.stderr);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "one line expected:\n{err}");
    assert!(lines[0].starts_with("relic: "), "{err}");
    assert!(lines[0].contains(file), "the error names {file}: {err}");
    assert!(!err.contains('\u{1b}') && !err.contains("backtrace"), "{err}");
}

fn json_lines(out: &Output) -> Vec<serde_json::Value> {
    text(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn help_of_every_command_has_examples() {
    for cmd in ["info", "convert", "batch"] {
        let out = run(&[cmd, "--help"]);
        assert!(out.status.success());
        assert!(text(&out.stdout).contains("Examples:"), "{cmd} --help");
    }
    assert!(run(&["--help"]).status.success());
}

#[test]
fn bad_usage_exits_2() {
    assert_eq!(run(&[]).status.code(), Some(2));
    assert_eq!(run(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(run(&["batch", "a", "b", "--to", "obj"]).status.code(), Some(2));
    let dir = tempfile::tempdir().unwrap();
    let out = run(&["convert", path(&fixture("abc/v12_full.abc")), path(&dir.path().join("x.obj"))]);
    assert_eq!(out.status.code(), Some(2));
    assert_one_line_error(&out, "x.obj");
    // --version means nothing for glTF.
    let out = run(&["convert", path(&fixture("abc/v12_full.abc")), path(&dir.path().join("x.glb")), "--version", "6"]);
    assert_eq!(out.status.code(), Some(2));
    // A NAD alone is an animation, not a model.
    let out = run(&["convert", path(&fixture("nod/walk.nad")), path(&dir.path().join("w.glb"))]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--anim"));
}

#[test]
fn info_json_has_the_keys_of_each_format() {
    let files = [
        (
            "abc/v12_full.abc",
            "abc",
            12,
            &[
                "nodes",
                "pieces",
                "lods",
                "vertices",
                "faces",
                "weights",
                "animations",
                "keyframes",
                "child_models",
                "sockets",
                "weight_sets",
            ][..],
        ),
        (
            "m2/v256_linear.m2",
            "m2",
            256,
            &[
                "bones",
                "vertices",
                "views",
                "submeshes",
                "textures",
                "sequences",
                "global_sequences",
                "attachments",
                "particles",
                "ribbons",
            ][..],
        ),
        (
            "nod/skinned.nod",
            "nod",
            7,
            &["bones", "meshes", "groups", "vertices", "faces", "materials", "matrix_layout", "group_tail"][..],
        ),
        ("nod/walk.nad", "nad", 3, &["tracks", "keys", "tags", "euler_order"][..]),
    ];
    let paths: Vec<PathBuf> = files.iter().map(|f| fixture(f.0)).collect();
    let mut args = vec!["info", "--json"];
    args.extend(paths.iter().map(|p| path(p)));
    let out = run(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines = json_lines(&out);
    assert_eq!(lines.len(), files.len());
    for ((rel, format, version, keys), line) in files.iter().zip(&lines) {
        assert!(line["file"].as_str().unwrap().ends_with(rel));
        assert_eq!(line["format"], *format);
        assert_eq!(line["version"], *version);
        for key in *keys {
            assert!(!line[key].is_null(), "{rel}: missing {key} in {line}");
        }
    }
    // The fixture generator's description of v12_full: 2 pieces × 2 LODs, 2 AnimBindings groups.
    assert_eq!(lines[0]["pieces"], 2);
    assert_eq!(lines[0]["lods"], 2);
    assert_eq!(lines[0]["child_models"], 2);
    // skinned.nod: 4 bones, 2 materials, 2 groups; walk.nad: 4 tags.
    assert_eq!(lines[2]["bones"], 4);
    assert_eq!(lines[2]["groups"], 2);
    assert_eq!(lines[3]["tags"], 4);
}

#[test]
fn info_on_the_real_files_matches_the_manifest() {
    let Some(corpus) = corpus() else { return };
    let out = run(&[
        "info",
        "--json",
        path(&corpus.join("abc/INTHERO_ACTION.ABC")),
        path(&corpus.join("abc/PARTNER_DANCIN.ABC")),
    ]);
    assert!(out.status.success());
    let lines = json_lines(&out);
    // MANIFEST.md: 25 nodes, 7 pieces, 1 LOD, 151 keys, 2 sockets.
    assert_eq!(
        (lines[0]["nodes"].as_u64(), lines[0]["pieces"].as_u64(), lines[0]["lods"].as_u64()),
        (Some(25), Some(7), Some(1))
    );
    assert_eq!((lines[0]["keyframes"].as_u64(), lines[0]["sockets"].as_u64()), (Some(151), Some(2)));
    // 5 LODs, 13 animations, 3 child models, 11 sockets, 109 weight sets.
    let p = &lines[1];
    assert_eq!(
        [&p["lods"], &p["animations"], &p["child_models"], &p["sockets"], &p["weight_sets"]].map(|v| v.as_u64()),
        [Some(5), Some(13), Some(3), Some(11), Some(109)]
    );
}

#[test]
fn info_reports_each_bad_file_and_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let foreign = dir.path().join("notes.txt");
    std::fs::write(&foreign, "hello").unwrap();
    let out = run(&[
        "info",
        path(&foreign),
        path(&fixture("abc/hostile/face_count_past_end.abc")),
        path(&fixture("m2/v256_static.m2")),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert_eq!(err.lines().count(), 2, "{err}");
    assert!(err.contains("notes.txt: not a model"));
    assert!(err.contains("face_count_past_end.abc: ") && err.contains("at byte 0x"), "offset and field named: {err}");
    assert!(text(&out.stdout).contains("v256_static.m2: m2 v256"));
}

#[test]
fn info_on_a_truncated_file_names_offset_and_field() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = std::fs::read(fixture("m2/v256_linear.m2")).unwrap();
    let cut = dir.path().join("cut.m2");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let out = run(&["info", path(&cut)]);
    assert_eq!(out.status.code(), Some(1));
    assert_one_line_error(&out, "cut.m2");
    assert!(text(&out.stderr).contains("(at byte 0x"), "{}", text(&out.stderr));
}

#[test]
fn convert_between_every_format_through_gltf() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let steps = [
        (fixture("abc/v12_full.abc"), d.join("a.glb")),
        (d.join("a.glb"), d.join("a.m2")),
        (d.join("a.m2"), d.join("a.gltf")),
        (d.join("a.gltf"), d.join("a.abc")),
        (fixture("m2/v256_linear.m2"), d.join("m.nod")),
        (fixture("abc/v6_basic.abc"), d.join("v6.abc")),
    ];
    for (from, to) in &steps {
        let out = run(&["convert", path(from), path(to)]);
        assert!(out.status.success(), "{} -> {}: {}", from.display(), to.display(), text(&out.stderr));
        assert!(text(&out.stdout).starts_with("wrote "));
    }
    assert!(d.join("a.bin").is_file(), ".gltf comes with its .bin");
    // Every output is recognised by content and described.
    let outs: Vec<PathBuf> =
        ["a.glb", "a.m2", "a.gltf", "a.abc", "m.nod", "v6.abc"].iter().map(|n| d.join(n)).collect();
    let mut args = vec!["info", "--json"];
    args.extend(outs.iter().map(|p| path(p)));
    let out = run(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let formats: Vec<String> = json_lines(&out).iter().map(|l| l["format"].as_str().unwrap().to_string()).collect();
    assert_eq!(formats, ["gltf", "m2", "gltf", "abc", "nod", "abc"]);
    // The skeleton survives the whole chain: 3 nodes in v12_full.
    let lines = json_lines(&out);
    assert_eq!(lines[0]["bones"], 3);
    assert_eq!(lines[3]["nodes"], 3);
}

#[test]
fn convert_options_version_lod_and_animations() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let v6 = d.join("v6.abc");
    let out = run(&["convert", path(&fixture("abc/v12_full.abc")), path(&v6), "--version", "6"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("note: abc: "), "losses are reported: {}", text(&out.stderr));
    let lod0 = d.join("lod0.abc");
    assert!(run(&["convert", path(&fixture("abc/v12_full.abc")), path(&lod0), "--lod", "0"]).status.success());
    let out = run(&["info", "--json", path(&v6), path(&lod0)]);
    let lines = json_lines(&out);
    assert_eq!(lines[0]["version"], 6);
    assert_eq!(lines[1]["lods"], 1);
    // A NOD with two NAD clips.
    let glb = d.join("walk.glb");
    let out = run(&[
        "convert",
        path(&fixture("nod/skinned.nod")),
        path(&glb),
        "--anim",
        path(&fixture("nod/walk.nad")),
        "--anim",
        path(&fixture("nod/single_keys.nad")),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines = json_lines(&run(&["info", "--json", path(&glb)]));
    assert_eq!(lines[0]["animations"], 2);
    // --anim is for NOD models only.
    let out = run(&[
        "convert",
        path(&fixture("abc/v12_full.abc")),
        path(&d.join("x.glb")),
        "--anim",
        path(&fixture("nod/walk.nad")),
    ]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn convert_never_loses_data() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let input = d.join("in.abc");
    std::fs::copy(fixture("abc/v12_full.abc"), &input).unwrap();
    let original = std::fs::read(&input).unwrap();
    // The input is never written, not even with --force.
    let out = run(&["convert", path(&input), path(&input), "--force"]);
    assert_eq!(out.status.code(), Some(1));
    assert_one_line_error(&out, "in.abc");
    assert_eq!(std::fs::read(&input).unwrap(), original);
    // An existing output is kept without --force.
    let target = d.join("out.glb");
    std::fs::write(&target, b"keep me").unwrap();
    let out = run(&["convert", path(&input), path(&target)]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("--force"));
    assert_eq!(std::fs::read(&target).unwrap(), b"keep me");
    assert!(run(&["convert", path(&input), path(&target), "--force"]).status.success());
    assert!(std::fs::read(&target).unwrap().starts_with(b"glTF"));
    // A damaged input produces no output at all.
    let cut = d.join("cut.abc");
    std::fs::write(&cut, &original[..original.len() - 7]).unwrap();
    let out = run(&["convert", path(&cut), path(&d.join("cut.glb"))]);
    assert_eq!(out.status.code(), Some(1));
    assert_one_line_error(&out, "cut.abc");
    assert!(!d.join("cut.glb").exists());
    // No temporary files are left anywhere.
    let leftovers: Vec<_> = std::fs::read_dir(d)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            name.contains("relic-tmp").then_some(name)
        })
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn batch_converts_the_good_reports_the_bad_and_mirrors_folders() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("game");
    std::fs::create_dir_all(input.join("chars/deep")).unwrap();
    std::fs::create_dir_all(input.join("creature")).unwrap();
    std::fs::copy(fixture("abc/v12_full.abc"), input.join("chars/hero.abc")).unwrap();
    std::fs::copy(fixture("abc/v6_basic.abc"), input.join("chars/deep/GUN.ABC")).unwrap();
    std::fs::copy(fixture("m2/v256_linear.m2"), input.join("creature/gnome.m2")).unwrap();
    // A model with a misleading name is still found by its content.
    std::fs::copy(fixture("nod/skinned.nod"), input.join("creature/readme.dat")).unwrap();
    let m2 = std::fs::read(fixture("m2/v256_hermite.m2")).unwrap();
    std::fs::write(input.join("creature/truncated.m2"), &m2[..m2.len() / 3]).unwrap();
    std::fs::write(input.join("notes.txt"), "not a model").unwrap();
    std::fs::copy(fixture("nod/walk.nad"), input.join("walk.nad")).unwrap();
    let output = dir.path().join("out");
    let out = run(&["batch", path(&input), path(&output), "--to", "glb", "--jobs", "2"]);
    assert_eq!(out.status.code(), Some(1), "a failed file makes the exit code 1");
    let stdout = text(&out.stdout);
    let stderr = text(&out.stderr);
    let summary = stdout.lines().last().unwrap();
    // 7 notes: 4 as before, and the skins of hero.abc (slots 0 and 1) and GUN.ABC (slot 0),
    // which no SKINS folder beside a MODELS folder holds here.
    assert!(
        summary
            .starts_with("batch: 4 converted, 0 skipped (exists), 2 skipped (not models), 1 failed, 7 notes; 7 files"),
        "{summary}"
    );
    assert!(summary.contains("MB/s"), "{summary}");
    assert!(stderr.contains("truncated.m2") && stderr.contains("at byte 0x"), "{stderr}");
    for rel in ["chars/hero.glb", "chars/deep/GUN.glb", "creature/gnome.glb", "creature/readme.glb"] {
        let bytes = std::fs::read(output.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
        assert!(bytes.starts_with(b"glTF"), "{rel}");
    }
    assert!(!output.join("creature/truncated.glb").exists());
    // A second run keeps every existing output: skipped (exists), counted apart; the damaged file
    // still fails, so the exit code stays 1.
    let again = run(&["batch", path(&input), path(&output), "--to", "glb", "--no-progress"]);
    let again_out = text(&again.stdout);
    assert!(
        again_out.contains("batch: 0 converted, 4 skipped (exists), 2 skipped (not models), 1 failed"),
        "{again_out}"
    );
    assert!(
        again_out.contains("skip chars/hero.abc: ") && again_out.contains("hero.glb exists (--force to overwrite)"),
        "{again_out}"
    );
    assert_eq!(again.status.code(), Some(1));
    let forced = run(&["batch", path(&input), path(&output), "--to", "abc", "--jobs", "1", "--force"]);
    assert!(
        text(&forced.stdout).contains("batch: 4 converted, 0 skipped (exists), 2 skipped (not models), 1 failed"),
        "{}",
        text(&forced.stdout)
    );
}

#[test]
fn batch_into_a_folder_inside_its_input_skips_its_own_outputs() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().to_path_buf();
    std::fs::copy(fixture("abc/v12_full.abc"), input.join("a.abc")).unwrap();
    let output = input.join("converted");
    let out = run(&["batch", path(&input), path(&output), "--to", "m2"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = run(&["batch", path(&input), path(&output), "--to", "m2", "--force"]);
    assert!(
        text(&out.stdout)
            .contains("batch: 1 converted, 0 skipped (exists), 0 skipped (not models), 0 failed, 3 notes; 1 files"),
        "{}",
        text(&out.stdout)
    );
    // Without --force, a run over a folder whose outputs all exist is a success.
    let out = run(&["batch", path(&input), path(&output), "--to", "m2"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("batch: 0 converted, 1 skipped (exists)"), "{}", text(&out.stdout));
}

#[test]
fn batch_over_the_real_corpus() {
    let Some(corpus) = corpus() else { return };
    // What to expect follows from the files present, by format and version: every model of a
    // version its format crate reads is converted, a model of any other version fails (refused,
    // naming the version), and everything else (textures, .skin parts, text) is skipped.
    // Listed known failures that cannot be opened fail too (corpus-known-failures.txt).
    let (mut readable, mut refused, mut others) = (0, 0, 0);
    let files = relic_cli::batch::walk(&corpus, None).unwrap();
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        let rel = f.strip_prefix(&corpus).unwrap().display().to_string();
        let unopenable =
            || relic_testkit::known_failure("batch", &rel).is_some_and(|k| k.what.starts_with("cannot be opened"));
        match relic::detect(&bytes) {
            // A model whose .skin/.anim files are missing (m2-incomplete/) fails, naming them.
            Some(kind @ relic::Kind { detected: d, .. })
                if d.content == relic::Content::Model
                    && matches!(relic::load_model(f, &bytes, kind, &[]),
                        Err(relic::Error::Read { ref source, .. }) if matches!(source.kind, relic_core::ReadErrorKind::Incomplete { .. })) =>
            {
                refused += 1
            }
            Some(relic::Kind { entry, detected: d }) if d.content == relic::Content::Model => {
                if entry.versions.reads(d.source.version) && !unopenable() { readable += 1 } else { refused += 1 }
            }
            _ => others += 1,
        }
    }
    // Models of one folder and stem would write one output (mdx/File00001202_98f1fm0.mdx and its
    // .mdl): each of them fails, naming the others.
    let mut by_output: std::collections::HashMap<std::path::PathBuf, usize> = std::collections::HashMap::new();
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        if relic::detect(&bytes).is_some_and(|k| k.is_model()) {
            *by_output.entry(f.with_extension("")).or_default() += 1;
        }
    }
    let clashing: usize = by_output.values().filter(|&&n| n > 1).sum();
    assert!(clashing >= 2, "the corpus holds an MDX beside its MDL ({clashing})");
    (readable, refused) = (readable - clashing, refused + clashing);
    assert!(readable >= 8, "the corpus holds at least the 8 models of 256–263 and ABC ({readable})");
    let dir = tempfile::tempdir().unwrap();
    let out = run(&["batch", path(&corpus), path(&dir.path().join("out")), "--to", "glb", "--no-progress"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.success(), refused == 0, "{stdout}\n{}", text(&out.stderr));
    let expected =
        format!("batch: {readable} converted, 0 skipped (exists), {others} skipped (not models), {refused} failed, ");
    assert!(stdout.lines().last().unwrap().starts_with(&expected), "{expected}\n{stdout}");
}

/// Every hostile fixture of every format, a truncated and a byte-mangled copy of a good file,
/// random bytes, an empty file and foreign files, mixed with one good model per format: the batch
/// finishes, converts every good model, and names each damaged model with its error.
#[test]
fn batch_survives_every_hostile_fixture_random_bytes_and_foreign_files() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("mixed");
    std::fs::create_dir_all(input.join("hostile")).unwrap();
    let good = ["abc/v12_full.abc", "abc/v6_basic.abc", "m2/v263_effects_overrides.m2", "nod/skinned_lod.nod"];
    for rel in good {
        std::fs::copy(fixture(rel), input.join(rel.replace('/', "_"))).unwrap();
    }
    // Damaged models whose signature is intact: each must be reported, none converted.
    let mut damaged: Vec<String> = Vec::new();
    for format in ["abc", "m2", "nod"] {
        for entry in std::fs::read_dir(root().join("fixtures").join(format).join("hostile")).unwrap() {
            let path = entry.unwrap().path();
            let name = format!("{format}_{}", path.file_name().unwrap().to_string_lossy());
            std::fs::copy(&path, input.join("hostile").join(&name)).unwrap();
            // A NAD alone is an animation, not a model: the batch skips it (reported as such).
            if !name.ends_with(".nad") {
                damaged.push(name);
            }
        }
    }
    let m2 = std::fs::read(fixture("m2/v256_linear.m2")).unwrap();
    std::fs::write(input.join("hostile/half.m2"), &m2[..m2.len() / 2]).unwrap();
    let mut mangled = std::fs::read(fixture("abc/v12_full.abc")).unwrap();
    for i in (40..mangled.len()).step_by(97) {
        mangled[i] = 0xFF;
    }
    std::fs::write(input.join("hostile/mangled.abc"), &mangled).unwrap();
    damaged.extend(["half.m2".to_string(), "mangled.abc".to_string()]);
    // Foreign files: random bytes, empty, text, a PNG signature.
    let noise = relic_testkit::Rng::new(0x2545_F491_4F6C_DD1D).bytes(100_000);
    std::fs::write(input.join("noise.bin"), &noise).unwrap();
    std::fs::write(input.join("empty.m2"), b"").unwrap();
    std::fs::write(input.join("readme.txt"), "not a model").unwrap();
    std::fs::write(input.join("texture.png"), b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR").unwrap();

    let output = dir.path().join("out");
    // No time limit (none below a minute in tests): what the batch must do is counted below, every
    // good file converted and every damaged one reported.
    let out = run(&["batch", path(&input), path(&output), "--to", "glb", "--jobs", "2", "--no-progress"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    let summary = stdout.lines().last().unwrap();
    assert!(summary.starts_with(&format!("batch: {} converted, ", good.len())), "{summary}\n{stderr}");
    for rel in good {
        let glb = output.join(rel.replace('/', "_")).with_extension("glb");
        assert!(std::fs::read(&glb).unwrap().starts_with(b"glTF"), "{}", glb.display());
    }
    let mut skipped_nods = 0;
    for name in &damaged {
        let line = stdout.lines().chain(stderr.lines()).find(|l| l.contains(name.as_str()));
        let line = line.unwrap_or_else(|| panic!("{name} is not reported:\n{stdout}\n{stderr}"));
        if line.starts_with("skip") && name == "m2_skin.m2" {
            // A `.skin` is a part of a Wrath model, whatever it is called: skipped, read with its .m2.
            assert!(line.ends_with("part of a model in another file (read with that model)"), "{line}");
        } else if line.starts_with("skip") {
            // A NOD has no signature: one whose counts no longer add up to its size cannot be told
            // from a foreign file, and is skipped as not a model (ARCHITECTURE, Limits).
            assert!(name.starts_with("nod_") && line.ends_with("not a model"), "{name}: {line}");
            skipped_nods += 1;
        } else {
            assert!(line.starts_with("FAIL") && line.len() > name.len() + 10, "{name}: no error given: {line}");
        }
        assert!(!output.join("hostile").join(name).with_extension("glb").exists(), "{name} was converted");
    }
    // The NODs whose version, byte order, bone count, size or group sums are wrong.
    assert!(skipped_nods <= 5, "{skipped_nods} damaged NODs taken for foreign files");
    println!("{summary}\n{stderr}");
}

/// `batch --to png` converts every texture (BLP, DTX) and skips the models; a second run keeps
/// the PNGs; `--to blp` converts PNGs back.
#[test]
fn batch_converts_textures_to_png_and_back() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("game");
    std::fs::create_dir_all(input.join("skins")).unwrap();
    std::fs::copy(fixture("blp/dxt1.blp"), input.join("skins/icon.blp")).unwrap();
    let dtx = std::fs::read_dir(root().join("fixtures/dtx"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.is_file())
        .unwrap();
    std::fs::copy(&dtx, input.join("skins/body.dtx")).unwrap();
    std::fs::copy(fixture("abc/v12_full.abc"), input.join("hero.abc")).unwrap();
    let pngs = dir.path().join("png");
    let out = run(&["batch", path(&input), path(&pngs), "--to", "png", "--no-progress"]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    assert!(stdout.contains("batch: 2 converted, 0 skipped (exists), 1 skipped (not models), 0 failed"), "{stdout}");
    assert!(stdout.contains("skip hero.abc: abc (not a texture)"), "{stdout}");
    for png in ["skins/icon.png", "skins/body.png"] {
        assert!(std::fs::read(pngs.join(png)).unwrap().starts_with(b"\x89PNG"), "{png}");
    }
    let again = run(&["batch", path(&input), path(&pngs), "--to", "png", "--no-progress"]);
    assert!(text(&again.stdout).contains("batch: 0 converted, 2 skipped (exists)"), "{}", text(&again.stdout));
    let back = dir.path().join("blp");
    let out = run(&["batch", path(&pngs), path(&back), "--to", "blp", "--no-progress"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(std::fs::read(back.join("skins/icon.blp")).unwrap().starts_with(b"BLP2"));
}

/// Wrath models: `info` names the skins and `.anim` files found; `convert --version 264` writes
/// the `.skin` files (and `.anim` files) beside the model; back to 256 and to glTF.
#[test]
fn wrath_models_with_their_skins_and_anims() {
    let model = fixture("m2-wrath/v264_external.m2");
    let out = run(&["info", path(&model)]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let info = text(&out.stdout);
    assert!(info.contains("v264_external00.skin") && info.contains("v264_external0000-00.anim"), "{info}");
    let dir = tempfile::tempdir().unwrap();
    let classic = dir.path().join("classic.m2");
    let out = run(&["convert", path(&model), path(&classic), "--version", "256"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let wrath = dir.path().join("again.m2");
    let out = run(&["convert", path(&classic), path(&wrath), "--version", "264"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(dir.path().join("again00.skin").is_file(), "{}", text(&out.stdout));
    let out = run(&["info", path(&wrath)]);
    assert!(out.status.success() && text(&out.stdout).contains("m2 v264"), "{}", text(&out.stderr));
    let glb = dir.path().join("again.glb");
    let out = run(&["convert", path(&wrath), path(&glb)]);
    assert!(out.status.success() && glb.is_file(), "{}", text(&out.stderr));
    // Without its skin the model is incomplete: `info` describes it with a note naming the file
    // it looked for, `convert` fails naming it (issue 27 class 7).
    std::fs::remove_file(dir.path().join("again00.skin")).unwrap();
    let out = run(&["info", path(&wrath)]);
    assert!(out.status.success() && text(&out.stdout).contains("again00.skin"), "{}", text(&out.stderr));
    let out = run(&["convert", path(&wrath), path(&dir.path().join("incomplete.glb"))]);
    assert!(!out.status.success() && text(&out.stderr).contains("again00.skin"), "{}", text(&out.stderr));
}

/// The help's opening line, `relic formats` and the not-a-model error say the same thing about
/// what relic reads, because all three come from the registry: every format with the versions it
/// reads (issue 28 §5: the help said M2 "Classic, TBC"; the error left the textures out).
#[test]
fn help_formats_and_errors_list_the_same_formats() {
    let help = text(&run(&["--help"]).stdout);
    let formats = text(&run(&["formats"]).stdout);
    let dir = tempfile::tempdir().unwrap();
    let foreign = dir.path().join("notes.txt");
    std::fs::write(&foreign, "hello").unwrap();
    let error = text(&run(&["info", path(&foreign)]).stderr);
    for entry in relic::Registry::builtin().formats() {
        let read = relic_core::format::Versions::list(entry.versions.read);
        assert!(help.lines().next().unwrap().contains(&format!("{} {read}", entry.label())), "{}: {help}", entry.name);
        assert!(formats.contains(&format!("{} ({})", entry.name, entry.extensions.join(", "))), "{}", entry.name);
        assert!(formats.contains(&format!("reads:  {read}")), "{}: {formats}", entry.name);
        assert!(error.contains(&entry.label()), "{}: {error}", entry.name);
    }
}
