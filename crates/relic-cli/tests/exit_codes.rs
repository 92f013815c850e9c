//! Exit codes exactly as the README states them — 0 success, 1 a file failed, 2 bad usage — for
//! every command, as a table of invocations whose code and standard error are one snapshot.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn fixture(rel: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures").join(rel).display().to_string()
}

/// One invocation: what it is, its arguments, the exit code the README promises.
struct Case {
    what: &'static str,
    args: Vec<String>,
    code: i32,
}

fn case(what: &'static str, args: &[&str], code: i32) -> Case {
    Case { what, args: args.iter().map(|a| a.to_string()).collect(), code }
}

/// Standard error with the machine's paths replaced, so the snapshot reads the same everywhere.
fn normalised(stderr: &[u8], tmp: &Path) -> String {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures").display().to_string();
    let text =
        String::from_utf8_lossy(stderr).replace(&tmp.display().to_string(), "<tmp>").replace(&fixtures, "<fixtures>");
    text.lines().map(str::trim_end).collect::<Vec<_>>().join("\n")
}

#[test]
fn every_command_exits_as_the_readme_says() {
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path();
    let t = |rel: &str| tmp.join(rel).display().to_string();
    let input = tmp.join("in");
    std::fs::create_dir_all(input.join("sub")).unwrap();
    std::fs::copy(fixture("abc/v12_full.abc"), input.join("hero.abc")).unwrap();
    std::fs::copy(fixture("m2/v256_linear.m2"), input.join("sub/gnome.m2")).unwrap();
    let damaged = tmp.join("damaged");
    std::fs::create_dir_all(&damaged).unwrap();
    let m2 = std::fs::read(fixture("m2/v256_hermite.m2")).unwrap();
    std::fs::write(damaged.join("truncated.m2"), &m2[..m2.len() / 3]).unwrap();
    std::fs::write(tmp.join("notes.txt"), "not a model").unwrap();
    let (abc, m2_fixture, nad) = (fixture("abc/v12_full.abc"), fixture("m2/v256_linear.m2"), fixture("nod/walk.nad"));
    let (input_s, damaged_s) = (input.display().to_string(), damaged.display().to_string());
    let cases = [
        case("no command", &[], 2),
        case("unknown command", &["frobnicate"], 2),
        case("help", &["--help"], 0),
        case("info of a model", &["info", &abc], 0),
        case("info without files", &["info"], 2),
        case("info of a missing file", &["info", &t("missing.abc")], 1),
        case("info of a text file", &["info", &t("notes.txt")], 1),
        case("formats", &["formats"], 0),
        case("convert to glb", &["convert", &abc, &t("hero.glb")], 0),
        case("convert onto an existing output", &["convert", &abc, &t("hero.glb")], 1),
        case("convert with --force", &["convert", &abc, &t("hero.glb"), "--force"], 0),
        case("convert to an unknown extension", &["convert", &abc, &t("hero.obj")], 2),
        case("convert to m2 with an ABC version", &["convert", &abc, &t("hero.m2"), "--version", "12"], 2),
        case("convert to abc v9", &["convert", &abc, &t("hero9.abc"), "--version", "9"], 0),
        case("convert to abc v7 (no such version)", &["convert", &abc, &t("hero7.abc"), "--version", "7"], 2),
        case("convert to glb with a version", &["convert", &abc, &t("v.glb"), "--version", "6"], 2),
        case(
            "convert a damaged file",
            &["convert", &damaged.join("truncated.m2").display().to_string(), &t("t.glb")],
            1,
        ),
        case("convert a missing file", &["convert", &t("missing.abc"), &t("m.glb")], 1),
        case("convert an animation alone", &["convert", &nad, &t("walk.glb")], 2),
        case("convert with --strict and losses", &["convert", &m2_fixture, &t("gnome.abc"), "--strict"], 1),
        case("batch", &["batch", &input_s, &t("out"), "--to", "glb", "--no-progress"], 0),
        case("batch again (outputs exist)", &["batch", &input_s, &t("out"), "--to", "glb", "--no-progress"], 0),
        case("batch with a damaged file", &["batch", &damaged_s, &t("out2"), "--to", "glb", "--no-progress"], 1),
        case("batch into its own input folder", &["batch", &input_s, &input_s, "--to", "glb"], 2),
        case("batch with --jobs 0", &["batch", &input_s, &t("out3"), "--to", "glb", "--jobs", "0"], 2),
        case("batch of a missing folder", &["batch", &t("nowhere"), &t("out4"), "--to", "glb"], 2),
        case("batch into a file", &["batch", &input_s, &t("notes.txt"), "--to", "glb"], 2),
        case("batch to an unknown format", &["batch", &input_s, &t("out5"), "--to", "obj"], 2),
        case("batch to m2 with an ABC version", &["batch", &input_s, &t("out6"), "--to", "m2", "--version", "12"], 2),
        case("convert a texture to PNG", &["convert", &fixture("blp/dxt1a.blp"), &t("icon.png")], 0),
        case("convert a PNG to BLP", &["convert", &t("icon.png"), &t("icon.blp"), "--encoding", "dxt1"], 0),
        case("convert a PNG to DTX v2", &["convert", &t("icon.png"), &t("icon.dtx"), "--version", "2"], 0),
        case(
            "convert a PNG to DTX v3 (read, not written)",
            &["convert", &t("icon.png"), &t("icon3.dtx"), "--version", "3"],
            2,
        ),
        case("convert a texture to a model format", &["convert", &t("icon.png"), &t("icon.abc")], 2),
        case("convert a model to a texture format", &["convert", &abc, &t("hero.png")], 2),
        case("completions for bash", &["completions", "bash"], 0),
        case("completions for an unknown shell", &["completions", "tcsh"], 2),
    ];
    let mut table = String::new();
    for c in &cases {
        let out = Command::cargo_bin("relic").unwrap().args(&c.args).output().unwrap();
        let code = out.status.code().unwrap();
        assert_eq!(code, c.code, "{}: {:?}\n{}", c.what, c.args, String::from_utf8_lossy(&out.stderr));
        let stderr = normalised(&out.stderr, tmp);
        // Successful runs print their results on stdout; their stderr is notes (or nothing).
        table.push_str(&format!(
            "## {} → {code}\n{}\n\n",
            c.what,
            if stderr.is_empty() { "(no stderr)" } else { &stderr }
        ));
    }
    insta::assert_snapshot!(table);
}

/// `--json` writes one object per file (input, output, status, notes) on stdout, the summary on
/// stderr; a second run reports `exists`.
#[test]
fn batch_json_lines_are_one_object_per_file() {
    let dir = tempfile::tempdir().unwrap();
    let input: PathBuf = dir.path().join("in");
    std::fs::create_dir_all(&input).unwrap();
    std::fs::copy(fixture("abc/v12_full.abc"), input.join("hero.abc")).unwrap();
    std::fs::write(input.join("readme.txt"), "text").unwrap();
    let out_dir = dir.path().join("out");
    let run = || {
        let args = ["batch", input.to_str().unwrap(), out_dir.to_str().unwrap(), "--to", "glb", "--json"];
        Command::cargo_bin("relic").unwrap().args(args).output().unwrap()
    };
    for expected in ["converted", "exists"] {
        let out = run();
        assert_eq!(out.status.code(), Some(0));
        let lines: Vec<serde_json::Value> =
            String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(lines.len(), 2, "{lines:?}");
        let hero = lines.iter().find(|l| l["input"].as_str().unwrap().ends_with("hero.abc")).unwrap();
        assert_eq!(hero["status"], expected);
        assert!(hero["output"].as_str().unwrap().ends_with("hero.glb"));
        assert!(hero["notes"].is_array());
        let readme = lines.iter().find(|l| l["input"].as_str().unwrap().ends_with("readme.txt")).unwrap();
        assert_eq!(readme["status"], "skipped");
        assert!(String::from_utf8_lossy(&out.stderr).starts_with("batch: "), "the summary goes to stderr");
    }
}
