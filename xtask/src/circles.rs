//! `cargo xtask circles`: no module of a crate may use another that uses it back, directly or
//! around a longer loop (`use crate::a` in b and `use crate::b` in a). Every crate of the
//! workspace (and xtask, the benches and the fuzz targets' library) is read as text: its module
//! files are found from the root's `mod` declarations, and each path in a file that names a module
//! of its own crate (`crate::…`, `super::…`, `self::…`, a child module's name; in `use` lines and
//! in code) is an arrow to the deepest module file the path names. Not arrows: a path to the
//! module's own ancestors (a module uses what its parent defines for its children, and the crate
//! root declares every module and holds the crate's verbs and constants), and code under
//! `#[cfg(test)]`. A circle fails the step, with each arrow of it and the names it carries.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// One lexical token of Rust source, as much as paths need.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Ident(String),
    /// `::`
    PathSep,
    Punct(char),
}

/// Rust source without comments, string and character literals, as tokens.
fn tokens(source: &str) -> Vec<Token> {
    let chars: Vec<char> = source.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c == '"' {
            i = skip_string(&chars, i + 1, 0);
        } else if c == 'r' && (next == Some('"') || next == Some('#')) && raw_string_start(&chars, i + 1).is_some() {
            let (hashes, open) = raw_string_start(&chars, i + 1).unwrap_or((0, i + 1));
            i = skip_string(&chars, open + 1, hashes);
        } else if c == 'b' && next == Some('"') {
            i = skip_string(&chars, i + 2, 0);
        } else if c == '\'' {
            // A character literal ('a', '\n', '\u{1F600}') or a lifetime ('a, 'static).
            match (next, chars.get(i + 2)) {
                (Some('\\'), _) => {
                    // The quote, the backslash and the escaped character, then to the closing quote.
                    i += 3;
                    while i < chars.len() && chars[i] != '\'' {
                        i += 1;
                    }
                    i += 1;
                }
                (Some(_), Some('\'')) => i += 3,
                _ => {
                    i += 1;
                    while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                        i += 1;
                    }
                }
            }
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(Token::Ident(chars[start..i].iter().collect()));
        } else if c.is_ascii_digit() {
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '.') {
                i += 1;
            }
        } else if c == ':' && next == Some(':') {
            out.push(Token::PathSep);
            i += 2;
        } else {
            if !c.is_whitespace() {
                out.push(Token::Punct(c));
            }
            i += 1;
        }
    }
    out
}

/// The number of `#` of a raw string whose `r` precedes `at`, and the index of its opening quote.
fn raw_string_start(chars: &[char], at: usize) -> Option<(usize, usize)> {
    let mut i = at;
    while chars.get(i) == Some(&'#') {
        i += 1;
    }
    (chars.get(i) == Some(&'"')).then_some((i - at, i))
}

/// The index after a string literal whose body starts at `at` (closed by `"` and `hashes` `#`).
fn skip_string(chars: &[char], mut i: usize, hashes: usize) -> usize {
    while i < chars.len() {
        if hashes == 0 && chars[i] == '\\' {
            i += 2;
            continue;
        }
        if chars[i] == '"' && (0..hashes).all(|k| chars.get(i + 1 + k) == Some(&'#')) {
            return i + 1 + hashes;
        }
        i += 1;
    }
    i
}

/// One module file of a crate.
#[derive(Debug)]
struct Module {
    /// Module path from the crate root (`["from_ir", "mesh"]`; empty for the root).
    path: Vec<String>,
    file: PathBuf,
    tokens: Vec<Token>,
}

/// The module files of the crate whose root file is `root`, found from `mod name;` declarations.
fn modules(root: &Path) -> Vec<Module> {
    let mut out = Vec::new();
    let mut pending = vec![(Vec::new(), root.to_path_buf())];
    while let Some((path, file)) = pending.pop() {
        let Ok(text) = std::fs::read_to_string(&file) else { continue };
        let tokens = tokens(&text);
        let name = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        let dir = match name {
            "lib" | "main" | "mod" => file.parent().map(Path::to_path_buf).unwrap_or_default(),
            _ => file.with_extension(""),
        };
        for (at, w) in tokens.windows(3).enumerate() {
            if let [Token::Ident(m), Token::Ident(child), Token::Punct(';')] = w
                && m == "mod"
                && !after_cfg_test(&tokens, at)
            {
                let flat = dir.join(format!("{child}.rs"));
                let nested = dir.join(child).join("mod.rs");
                let child_file = if flat.is_file() { flat } else { nested };
                let mut child_path = path.clone();
                child_path.push(child.clone());
                pending.push((child_path, child_file));
            }
        }
        out.push(Module { path, file, tokens });
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

/// A path written in a file, with the module it is written in (the file's, or an inline module
/// inside it).
#[derive(Debug)]
struct Written {
    within: Vec<String>,
    segments: Vec<String>,
}

/// True if the tokens before `at` end with `#[cfg(test)]`.
fn after_cfg_test(t: &[Token], at: usize) -> bool {
    let cfg_test = [
        Token::Punct('#'),
        Token::Punct('['),
        Token::Ident("cfg".into()),
        Token::Punct('('),
        Token::Ident("test".into()),
        Token::Punct(')'),
        Token::Punct(']'),
    ];
    at >= cfg_test.len() && t[at - cfg_test.len()..at] == cfg_test
}

/// Every path of a file that may name a module of its crate (`use` trees expanded, and paths in
/// code), each with the module it is written in; code under `#[cfg(test)]` is left out.
fn written_paths(module: &Module) -> Vec<Written> {
    let t = &module.tokens;
    let mut out = Vec::new();
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < t.len() {
        let within = || {
            let mut p = module.path.clone();
            p.extend(inline.iter().map(|(n, _)| n.clone()));
            p
        };
        match &t[i] {
            Token::Punct('{') => depth += 1,
            Token::Punct('}') => {
                depth = depth.saturating_sub(1);
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
            }
            Token::Ident(m) if m == "mod" => {
                if let (Some(Token::Ident(name)), Some(Token::Punct('{'))) = (t.get(i + 1), t.get(i + 2)) {
                    if after_cfg_test(t, i) {
                        i = matching(t, i + 2) + 1;
                        continue;
                    }
                    inline.push((name.clone(), depth));
                }
            }
            Token::Ident(u) if u == "use" => {
                let end = (i..t.len()).find(|&k| t[k] == Token::Punct(';')).unwrap_or(t.len());
                let mut trees = Vec::new();
                use_tree(&t[i + 1..end], &[], &mut trees);
                let within = within();
                out.extend(trees.into_iter().map(|segments| Written { within: within.clone(), segments }));
                i = end;
                continue;
            }
            Token::Ident(first) if t.get(i + 1) == Some(&Token::PathSep) && (i == 0 || t[i - 1] != Token::PathSep) => {
                let mut segments = vec![first.clone()];
                let mut k = i + 1;
                while t.get(k) == Some(&Token::PathSep) {
                    match t.get(k + 1) {
                        Some(Token::Ident(s)) => segments.push(s.clone()),
                        _ => break,
                    }
                    k += 2;
                }
                out.push(Written { within: within(), segments });
                i = k;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// Expands a `use` tree (`a::{b, c::d as e, f::*}`) into full paths (without aliases and globs).
fn use_tree(t: &[Token], prefix: &[String], out: &mut Vec<Vec<String>>) {
    let mut path = prefix.to_vec();
    let mut i = 0;
    while i < t.len() {
        match &t[i] {
            Token::Ident(s) if s == "as" => break,
            Token::Ident(s) => path.push(s.clone()),
            Token::Punct('{') => {
                let close = matching(t, i);
                let mut start = i + 1;
                let mut level = 0;
                for k in i + 1..close {
                    match t[k] {
                        Token::Punct('{') => level += 1,
                        Token::Punct('}') => level -= 1,
                        Token::Punct(',') if level == 0 => {
                            use_tree(&t[start..k], &path, out);
                            start = k + 1;
                        }
                        _ => {}
                    }
                }
                if start < close {
                    use_tree(&t[start..close], &path, out);
                }
                return;
            }
            _ => {}
        }
        i += 1;
    }
    if path.len() > prefix.len() || (!path.is_empty() && t.contains(&Token::Punct('*'))) {
        out.push(path);
    }
}

/// The index of the `}` that closes the `{` at `open`.
fn matching(t: &[Token], open: usize) -> usize {
    let mut level = 0;
    for (k, token) in t.iter().enumerate().skip(open) {
        match token {
            Token::Punct('{') => level += 1,
            Token::Punct('}') => {
                level -= 1;
                if level == 0 {
                    return k;
                }
            }
            _ => {}
        }
    }
    t.len()
}

/// One crate: its module files by module path.
struct Crate {
    modules: Vec<Module>,
}

impl Crate {
    fn read(root: &Path) -> Self {
        Self { modules: modules(root) }
    }

    fn index_of(&self, path: &[String]) -> Option<usize> {
        self.modules.iter().position(|m| m.path == path)
    }

    /// The deepest module file on the module path `absolute`.
    fn module_file(&self, absolute: &[String]) -> Option<usize> {
        (0..=absolute.len()).rev().find_map(|k| self.index_of(&absolute[..k]))
    }
}

/// The absolute module path of a path written in module `within` of file `index`, if it starts
/// inside the crate (`crate`, `super`, `self`, or a child module of `within`).
fn absolute(modules: &[Module], index: usize, within: &[String], segments: &[String]) -> Option<Vec<String>> {
    let first = segments.first()?;
    let rest = &segments[1..];
    let is_module = |p: &[String]| modules.iter().any(|m| m.path == p);
    let mut base: Vec<String> = match first.as_str() {
        "crate" => return Some(rest.to_vec()),
        "self" => within.to_vec(),
        "super" => {
            let mut base = within.to_vec();
            base.pop()?;
            let mut rest = rest;
            while rest.first().is_some_and(|s| s == "super") {
                base.pop()?;
                rest = &rest[1..];
            }
            base.extend(rest.iter().cloned());
            return Some(base);
        }
        _ => {
            // A child module of the module the path is written in (a file module only).
            let mut child = within.to_vec();
            child.push(first.clone());
            if within != modules[index].path.as_slice() || !is_module(&child) {
                return None;
            }
            child.extend(rest.iter().cloned());
            return Some(child);
        }
    };
    base.extend(rest.iter().cloned());
    Some(base)
}

/// Arrows between the files of one crate: (from, to) → the names carried.
fn arrows(krate: &Crate) -> BTreeMap<(usize, usize), BTreeSet<String>> {
    let mut out: BTreeMap<(usize, usize), BTreeSet<String>> = BTreeMap::new();
    for (index, m) in krate.modules.iter().enumerate() {
        if m.path.is_empty() {
            continue;
        }
        for w in written_paths(m) {
            let Some(absolute) = absolute(&krate.modules, index, &w.within, &w.segments) else { continue };
            let Some(to) = krate.module_file(&absolute) else { continue };
            // The module itself and its ancestors (the crate root among them) are no arrows.
            if m.path.starts_with(&krate.modules[to].path) {
                continue;
            }
            // The name taken from the module (`Clock` of `crate::model::Clock::Global`).
            let name = absolute.get(krate.modules[to].path.len()).or(absolute.last()).cloned().unwrap_or_default();
            out.entry((index, to)).or_default().insert(name);
        }
    }
    out
}

/// The strongly connected components of more than one file (Tarjan's algorithm).
fn circles(count: usize, arrows: &BTreeMap<(usize, usize), BTreeSet<String>>) -> Vec<Vec<usize>> {
    struct State<'a> {
        next: Vec<Vec<usize>>,
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        counter: usize,
        found: &'a mut Vec<Vec<usize>>,
    }
    fn visit(s: &mut State<'_>, v: usize) {
        s.index[v] = Some(s.counter);
        s.low[v] = s.counter;
        s.counter += 1;
        s.stack.push(v);
        s.on_stack[v] = true;
        for w in s.next[v].clone() {
            match s.index[w] {
                None => {
                    visit(s, w);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(iw) if s.on_stack[w] => s.low[v] = s.low[v].min(iw),
                Some(_) => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack[w] = false;
                component.push(w);
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort_unstable();
                s.found.push(component);
            }
        }
    }
    let mut next = vec![Vec::new(); count];
    for &(from, to) in arrows.keys() {
        next[from].push(to);
    }
    let mut found = Vec::new();
    let mut state = State {
        next,
        index: vec![None; count],
        low: vec![0; count],
        on_stack: vec![false; count],
        stack: Vec::new(),
        counter: 0,
        found: &mut found,
    };
    for v in 0..count {
        if state.index[v].is_none() {
            visit(&mut state, v);
        }
    }
    found.sort();
    found
}

/// The root files of every crate of the workspace, and the fuzz targets' library.
fn roots(workspace: &Path) -> Vec<PathBuf> {
    let mut roots = Vec::new();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(workspace.join("crates"))
        .map(|rd| rd.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    dirs.extend(["xtask", "fuzz"].map(|d| workspace.join(d)));
    dirs.sort();
    for dir in dirs {
        for root in ["src/lib.rs", "src/main.rs"] {
            if dir.join(root).is_file() {
                roots.push(dir.join(root));
            }
        }
    }
    roots.push(workspace.join("benches/common.rs"));
    roots
}

/// The circles of the crates under `workspace`, one text block each.
pub fn find(workspace: &Path) -> Vec<String> {
    let mut report = Vec::new();
    for root in roots(workspace) {
        let krate = Crate::read(&root);
        let arrows = arrows(&krate);
        let rel = |i: usize| {
            let file = &krate.modules[i].file;
            file.strip_prefix(workspace).unwrap_or(file).display().to_string()
        };
        for circle in circles(krate.modules.len(), &arrows) {
            let files: Vec<String> = circle.iter().map(|&i| rel(i)).collect();
            let mut block = format!("circle of {} files: {}", circle.len(), files.join(", "));
            for (&(from, to), names) in &arrows {
                if circle.contains(&from) && circle.contains(&to) {
                    let names: Vec<&str> = names.iter().map(String::as_str).collect();
                    block.push_str(&format!("\n  {} -> {}: {}", rel(from), rel(to), names.join(", ")));
                }
            }
            report.push(block);
        }
    }
    report
}

/// `cargo xtask circles`: fails on any module circle, naming its files and arrows.
pub fn run() -> Result<(), String> {
    let found = find(&crate::workspace_root());
    for block in &found {
        println!("{block}");
    }
    if found.is_empty() {
        println!("circles: none");
        Ok(())
    } else {
        Err(format!(
            "{} module circle(s): break each (a module that both need, or one of the arrows moved)",
            found.len()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, files: &[(&str, &str)]) {
        for (name, text) in files {
            let path = dir.join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
    }

    fn circles_in(files: &[(&str, &str)]) -> Vec<Vec<String>> {
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("relic-circles-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        write(&dir, files);
        let krate = Crate::read(&dir.join("lib.rs"));
        let arrows = arrows(&krate);
        let found = circles(krate.modules.len(), &arrows)
            .into_iter()
            .map(|c| c.into_iter().map(|i| krate.modules[i].path.join("::")).collect())
            .collect();
        let _ = std::fs::remove_dir_all(&dir);
        found
    }

    #[test]
    fn use_lines_in_both_directions_are_a_circle() {
        let found = circles_in(&[
            ("lib.rs", "mod a;\nmod b;\npub use a::A;\n"),
            ("a.rs", "use crate::b::B;\npub struct A;\n"),
            ("b.rs", "// use crate::a::A; (a comment is no use)\npub struct B;\nfn f() { let _ = crate::a::A; }\n"),
        ]);
        assert_eq!(found, [vec!["a".to_string(), "b".to_string()]]);
    }

    #[test]
    fn parents_the_root_tests_and_strings_make_no_circle() {
        // b uses A through the root's re-export and a uses a name the root defines (the root is
        // no room); the child uses what its parent defines for it while the parent calls the
        // child; a test module's use and a string that looks like a path are no arrows.
        let found = circles_in(&[
            ("lib.rs", "mod a;\nmod b;\nmod x;\npub use a::A;\npub const NAME: &str = \"x\";\n"),
            ("a.rs", "pub struct A;\nfn f() -> &'static str { let _ = \"crate::b::B\"; crate::NAME }\n"),
            ("b.rs", "use crate::A;\npub struct B;\n#[cfg(test)]\nmod tests { use crate::a::A; }\n"),
            ("x/mod.rs", "mod inner;\npub struct Shared;\npub fn g() { inner::h(); }\n"),
            ("x/inner.rs", "use super::Shared;\npub fn h() {}\n"),
        ]);
        assert!(found.is_empty(), "{found:?}");
    }

    #[test]
    fn a_loop_through_a_folder_module_is_found() {
        let found = circles_in(&[
            ("lib.rs", "mod x;\nmod y;\n"),
            ("x/mod.rs", "mod inner;\npub struct Shared;\npub(crate) fn g() { inner::h(); }\n"),
            ("x/inner.rs", "use super::Shared;\npub fn h() { crate::y::f(); }\n"),
            ("y.rs", "pub fn f() { let _ = crate::x::Shared; }\n"),
        ]);
        assert_eq!(found, [vec!["x".to_string(), "x::inner".to_string(), "y".to_string()]]);
    }
}
