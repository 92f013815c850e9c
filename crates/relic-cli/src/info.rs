//! `relic info`: the format, version and the format's own counts of a file.

use std::fmt::Write as _;
use std::path::Path;

use relic_core::format::Input;
use relic_core::{Fact, Info};

use crate::error::CliError;

/// The facts about one file, from its format's entry (the file's own counts for game files, the
/// imported model's for glTF).
pub fn describe(path: &Path, bytes: &[u8]) -> Result<Info, CliError> {
    describe_listed(path, bytes, None)
}

/// [`describe`], naming the FileDataIDs a chunked M2 holds through `listed`.
pub fn describe_listed(path: &Path, bytes: &[u8], listed: Option<&relic::Listed>) -> Result<Info, CliError> {
    let registry = relic::Registry::builtin();
    let Some(kind) = registry.detect(bytes) else { return Err(registry.not_read(path, bytes).into()) };
    let siblings = relic::FolderSiblings::listed(path, listed);
    let name = relic::file_name(path);
    let input = Input { bytes, name: &name, siblings: &siblings };
    (kind.entry.info)(&input).map_err(|e| relic::Error::read(path, e).into())
}

/// Runs `relic info` on every file; `Ok(false)` if any failed (each is reported and the rest go on).
pub fn run(files: &[std::path::PathBuf], json: bool) -> Result<bool, CliError> {
    run_listed(files, json, None)
}

/// [`run`] with the listfile at `listfile` (`--listfile`), read once before any file.
pub fn run_listed(files: &[std::path::PathBuf], json: bool, listfile: Option<&Path>) -> Result<bool, CliError> {
    let listed = crate::cli::read_listed(listfile, &[])?;
    let mut all_ok = true;
    for path in files {
        let described = relic::read_file(path)
            .map_err(CliError::from)
            .and_then(|bytes| describe_listed(path, &bytes, listed.as_ref()));
        match described {
            Ok(facts) if json => println!("{}", json_line(path, &facts)),
            Ok(facts) => print!("{}", text_block(path, &facts)),
            Err(e) => {
                eprintln!("relic: {e}");
                all_ok = false;
            }
        }
    }
    Ok(all_ok)
}

/// `relic formats`: every registered format, what it holds, and the versions read and written.
pub fn formats() -> String {
    use relic_core::format::Versions;
    let mut out = String::new();
    for f in relic::Registry::builtin().formats() {
        let holds =
            [(f.model.is_some(), "models"), (f.animation.is_some(), "animations"), (f.texture.is_some(), "textures")];
        let holds: Vec<&str> = holds.iter().filter(|(has, _)| *has).map(|(_, what)| *what).collect();
        let _ = writeln!(out, "{} ({}): {}", f.name, f.extensions.join(", "), f.title);
        let _ = writeln!(out, "  holds:  {}", holds.join(", "));
        let _ = writeln!(out, "  reads:  {}", Versions::list(f.versions.read));
        let written = if f.versions.write.is_empty() { "none".to_string() } else { Versions::list(f.versions.write) };
        let note = if f.versions.note.is_empty() { String::new() } else { format!(" ({})", f.versions.note) };
        let _ = writeln!(out, "  writes: {written}{note}");
    }
    out
}

/// One JSON object on one line: `file`, `format`, `version`, then the facts in order.
pub fn json_line(path: &Path, info: &Info) -> String {
    let mut out = String::from("{");
    let quote = |s: &str| serde_json::Value::String(s.to_string()).to_string();
    let _ = write!(
        out,
        "\"file\":{},\"format\":{},\"version\":{}",
        quote(&path.display().to_string()),
        quote(info.format.as_str()),
        info.version
    );
    for (key, fact) in &info.facts {
        let value = match fact {
            Fact::Count(n) => n.to_string(),
            Fact::Number(x) => serde_json::Number::from_f64(*x).map_or("null".into(), |n| n.to_string()),
            Fact::Text(t) => quote(t),
        };
        let _ = write!(out, ",{}:{value}", quote(key));
    }
    out.push('}');
    out
}

/// A readable block: a heading line, then one `key: value` line per fact.
pub fn text_block(path: &Path, info: &Info) -> String {
    let mut out = format!("{}: {} v{}\n", path.display(), info.format.as_str(), info.version);
    // No facts: no column to align.
    let width = info.facts.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
    for (key, fact) in &info.facts {
        let value = match fact {
            Fact::Count(n) => n.to_string(),
            Fact::Number(x) => format!("{x}"),
            Fact::Text(t) => t.clone(),
        };
        let _ = writeln!(out, "  {key:width$}  {value}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_has_file_format_version_then_facts() {
        let mut info = Info::new(relic_core::FormatId::new("nod"), 7);
        info.count("bones", 3u32).text("matrix_layout", "H1 \"rows\"").number("ratio", 0.5).number("bad", f64::NAN);
        let line = json_line(Path::new("a\\b.nod"), &info);
        assert_eq!(
            line,
            r#"{"file":"a\\b.nod","format":"nod","version":7,"bones":3,"matrix_layout":"H1 \"rows\"","ratio":0.5,"bad":null}"#
        );
        let parsed: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(parsed["bones"], 3);
    }
}
