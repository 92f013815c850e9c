//! `cargo xtask public-api [--check]`: the public API of every library crate, one item per line,
//! in `docs/public-api/<crate>.txt`, so that a change to what a crate exposes shows in the diff
//! and is reviewed. Read from rustdoc's JSON output (`RUSTC_BOOTSTRAP=1`, since the JSON format is
//! unstable on the stable toolchain): every item reachable from the crate root through public
//! modules and re-exports, with public struct fields, enum variants and inherent methods.

use std::collections::{BTreeSet, HashSet};
use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// The library crates whose API is listed (test support and tools are not listed).
pub const CRATES: &[&str] = &[
    "relic-core",
    "relic-anim",
    "relic-texture",
    "relic-lithtech",
    "relic-abc",
    "relic-ltb",
    "relic-m2",
    "relic-nod",
    "relic-mdx",
    "relic-blp",
    "relic-dtx",
    "relic-gltf",
    "relic",
    "relic-cli",
];

fn rustdoc_json(krate: &str) -> Result<Value, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let root = crate::workspace_root();
    let target = root.join("target/public-api");
    let status = Command::new(&cargo)
        .args(["rustdoc", "-q", "-p", krate, "--lib", "--", "-Z", "unstable-options", "--output-format", "json"])
        .env("RUSTC_BOOTSTRAP", "1")
        .env("CARGO_TARGET_DIR", &target)
        .current_dir(&root)
        .status()
        .map_err(|e| format!("cannot run cargo rustdoc: {e}"))?;
    if !status.success() {
        return Err(format!("cargo rustdoc -p {krate} failed ({status})"));
    }
    let file = target.join("doc").join(format!("{}.json", krate.replace('-', "_")));
    let text = std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", file.display()))
}

/// Walks the public items from the root module.
struct Walker<'a> {
    index: &'a serde_json::Map<String, Value>,
    /// Re-exported items under their new names (walked like the originals).
    renamed: std::collections::HashMap<String, Value>,
    lines: BTreeSet<String>,
    seen: HashSet<String>,
}

fn kind(item: &Value) -> Option<(&str, &Value)> {
    item.get("inner")?.as_object()?.iter().next().map(|(k, v)| (k.as_str(), v))
}

fn ids(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array).map(|a| a.iter().map(|i| i.to_string()).collect()).unwrap_or_default()
}

impl Walker<'_> {
    fn item(&self, id: &str) -> Option<&Value> {
        self.index.get(id).or_else(|| self.renamed.get(id))
    }

    fn public(item: &Value) -> bool {
        item.get("visibility").and_then(Value::as_str) == Some("public")
    }

    fn walk(&mut self, id: &str, path: &str) {
        if !self.seen.insert(format!("{id}@{path}")) {
            return;
        }
        let Some(item) = self.item(id).cloned() else { return };
        let Some((k, inner)) = kind(&item) else { return };
        let name = item.get("name").and_then(Value::as_str).unwrap_or("");
        let here = if path.is_empty() { name.to_string() } else { format!("{path}::{name}") };
        match k {
            "module" => {
                if !path.is_empty() {
                    self.lines.insert(format!("mod {here}"));
                }
                for child in ids(inner.get("items")) {
                    let public = self.item(&child).is_some_and(Self::public);
                    if public {
                        self.walk(&child, &here);
                    }
                }
            }
            "use" => {
                let target = inner.get("id").map(Value::to_string).filter(|t| t != "null");
                let alias = inner.get("name").and_then(Value::as_str).unwrap_or(name);
                let glob = inner.get("is_glob").and_then(Value::as_bool).unwrap_or(false);
                match target {
                    Some(t) if self.item(&t).is_some() => {
                        if glob {
                            self.walk_glob(&t, path);
                        } else {
                            self.walk_renamed(&t, path, alias);
                        }
                    }
                    _ => {
                        let source = inner.get("source").and_then(Value::as_str).unwrap_or("?");
                        self.lines.insert(format!("use {path}::{alias} = {source}"));
                    }
                }
            }
            "struct" | "enum" | "union" | "trait" | "function" | "constant" | "static" | "type_alias" | "macro" => {
                let word = match k {
                    "type_alias" => "type",
                    "constant" => "const",
                    "function" => "fn",
                    other => other,
                };
                self.lines.insert(format!("{word} {here}"));
                self.members(k, inner, &here);
            }
            _ => {}
        }
    }

    /// An item re-exported under `alias` in module `path`.
    fn walk_renamed(&mut self, id: &str, path: &str, alias: &str) {
        let Some(mut item) = self.item(id).cloned() else { return };
        if let Some(obj) = item.as_object_mut() {
            obj.insert("name".into(), Value::String(alias.into()));
            obj.insert("visibility".into(), Value::String("public".into()));
        }
        let key = format!("reexport:{id}:{path}:{alias}");
        self.renamed.insert(key.clone(), item);
        self.walk(&key, path);
    }

    fn walk_glob(&mut self, module: &str, path: &str) {
        let Some(item) = self.item(module).cloned() else { return };
        let Some(("module", inner)) = kind(&item) else { return };
        for child in ids(inner.get("items")) {
            if self.item(&child).is_some_and(Self::public) {
                self.walk(&child, path);
            }
        }
    }

    /// Public fields, variants and inherent methods.
    fn members(&mut self, k: &str, inner: &Value, here: &str) {
        let mut fields = Vec::new();
        match k {
            "struct" => {
                if let Some(plain) = inner.pointer("/kind/plain/fields") {
                    fields.extend(ids(Some(plain)));
                }
                if let Some(tuple) = inner.pointer("/kind/tuple") {
                    fields
                        .extend(tuple.as_array().into_iter().flatten().filter(|v| !v.is_null()).map(|v| v.to_string()));
                }
            }
            "enum" => fields.extend(ids(inner.get("variants"))),
            "trait" => fields.extend(ids(inner.get("items"))),
            _ => {}
        }
        for f in fields {
            let Some(item) = self.item(&f) else { continue };
            let name = item.get("name").and_then(Value::as_str).unwrap_or("");
            let word = kind(item).map_or("", |(k, _)| k);
            let word = match word {
                "struct_field" => "field",
                "variant" => "variant",
                "function" => "fn",
                "assoc_type" => "type",
                "assoc_const" => "const",
                other => other,
            };
            if Self::public(item) || k != "struct" {
                self.lines.insert(format!("{word} {here}::{name}"));
            }
        }
        for impl_id in ids(inner.get("impls")) {
            let Some(item) = self.item(&impl_id) else { continue };
            let Some(("impl", imp)) = kind(item) else { continue };
            if imp.get("trait").is_some_and(|t| !t.is_null()) {
                continue;
            }
            for m in ids(imp.get("items")) {
                let Some(method) = self.item(&m) else { continue };
                if Self::public(method) {
                    let name = method.get("name").and_then(Value::as_str).unwrap_or("");
                    let word = match kind(method).map(|(k, _)| k) {
                        Some("function") => "fn",
                        Some("constant" | "assoc_const") => "const",
                        _ => "item",
                    };
                    self.lines.insert(format!("{word} {here}::{name}"));
                }
            }
        }
    }
}

/// The public items of one crate, one per line, sorted.
pub fn listing(krate: &str) -> Result<String, String> {
    let doc = rustdoc_json(krate)?;
    let root = doc.get("root").map(Value::to_string).ok_or("rustdoc JSON without a root")?;
    let index = doc.get("index").and_then(Value::as_object).ok_or("rustdoc JSON without an index")?;
    let mut walker = Walker { index, renamed: Default::default(), lines: BTreeSet::new(), seen: HashSet::new() };
    // The root's items are listed from the crate's own path (each line starts `crate::`).
    let root_item = walker.item(&root).cloned().ok_or("rustdoc JSON: the root is not in the index")?;
    let children = kind(&root_item).map(|(_, inner)| ids(inner.get("items"))).unwrap_or_default();
    for child in children {
        if walker.item(&child).is_some_and(Walker::public) {
            walker.walk(&child, "");
        }
    }
    let crate_name = krate.replace('-', "_");
    let mut out =
        format!("# public API of {krate} ({} items; `cargo xtask public-api` writes this file)\n", walker.lines.len());
    for line in &walker.lines {
        out.push_str(&line.replacen(' ', &format!(" {crate_name}::"), 1));
        out.push('\n');
    }
    Ok(out)
}

/// Writes (or with `check`, compares) `docs/public-api/<crate>.txt` for every listed crate.
pub fn run(check: bool) -> Result<(), String> {
    let dir = crate::workspace_root().join("docs/public-api");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut stale = Vec::new();
    for krate in CRATES {
        let text = listing(krate)?;
        let file = dir.join(format!("{krate}.txt"));
        let old = std::fs::read_to_string(&file).unwrap_or_default();
        let count = text.lines().count().saturating_sub(1);
        if old == text {
            println!("public-api: {krate}: {count} items, unchanged");
        } else if check {
            stale.push(krate.to_string());
            println!("public-api: {krate}: {count} items, DIFFERS from {}", rel(&file));
        } else {
            std::fs::write(&file, &text).map_err(|e| format!("{}: {e}", file.display()))?;
            println!("public-api: {krate}: {count} items, written to {}", rel(&file));
        }
    }
    if stale.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "the public API of {} changed: run `cargo xtask public-api` and review the diff of docs/public-api",
            stale.join(", ")
        ))
    }
}

fn rel(p: &Path) -> String {
    p.strip_prefix(crate::workspace_root()).unwrap_or(p).display().to_string()
}
