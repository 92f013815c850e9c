//! The grouped notes of every corpus model never name what the model does not: every corpus model
//! is converted to glTF (textured as `relic convert` finds its textures) and to every game format,
//! and each grouped line is checked against the notes it stands for, word by word.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use relic::{ConvertOptions, Loss, Target};
use relic_cli::notes::{Group, groups};

/// Every model file of the corpus that relic opens (listed known failures are skipped, printed).
/// The game models of the corpus relic opens; `None` (a printed skip) when it is absent.
fn corpus_models() -> Option<Vec<(String, PathBuf)>> {
    let dir = relic_testkit::corpus_dir("grouped notes of every corpus model")?;
    let mut out = Vec::new();
    for path in relic_cli::batch::walk(&dir, None).unwrap() {
        let rel = path.strip_prefix(&dir).unwrap().display().to_string();
        let bytes = std::fs::read(&path).unwrap();
        let Some(kind) = relic::detect(&bytes) else { continue };
        let (entry, d) = (kind.entry, kind.detected);
        let game = entry.model.is_some_and(|m| m.records_original);
        if !game || d.content != relic::Content::Model || !entry.versions.reads(d.source.version) {
            continue;
        }
        if relic_testkit::known_failure("grouped notes", &rel).is_some_and(|k| k.what.starts_with("cannot be opened")) {
            continue;
        }
        // A model whose .skin/.anim files are missing (m2-incomplete/) is not opened: no notes.
        if let Err(relic::Error::Read { source, .. }) = relic::open(&path)
            && matches!(source.kind, relic_core::ReadErrorKind::Incomplete { .. })
        {
            println!("grouped notes: {rel}: incomplete, not converted");
            continue;
        }
        out.push((rel, path));
    }
    Some(out)
}

/// The notes of converting `path` to glTF and to every game format that writes models.
fn notes_of(path: &Path) -> Vec<Vec<Loss>> {
    let opened = relic::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let textures = relic::textures::GameTextures::new(path, relic::textures::TextureSearch::default());
    let glb = ConvertOptions { textures: Some(Arc::new(textures)), ..ConvertOptions::default() };
    let mut out = vec![opened.notes.clone()];
    let converted = relic::convert(&opened.model, Target::from_name("glb").unwrap(), Path::new("x.glb"), &glb).unwrap();
    out.push(converted.losses);
    for entry in relic::FORMATS.iter().filter(|f| f.model.is_some_and(|m| m.records_original)) {
        let Some(target) = Target::new(entry) else { continue };
        let out_path = Path::new("x").with_extension(entry.name);
        // A model a format cannot hold at all is refused with an error, not noted.
        if let Ok(converted) = relic::convert(&opened.model, target, &out_path, &ConvertOptions::default()) {
            out.push(converted.losses);
        }
    }
    out
}

/// Words (split at white space) of a text.
fn words(text: &str) -> Vec<&str> {
    text.split_whitespace().collect()
}

/// A number that begins a phrase: the only kind a grouped line may sum.
fn begins_phrase(previous: Option<&str>) -> bool {
    match previous {
        None => true,
        Some(w) => w.ends_with(',') || w.ends_with(';'),
    }
}

/// Checks one group's line against its notes: the elements it names are its notes' own, and word
/// for word its text is the notes' text where they agree, and elsewhere the sum of a count that
/// begins a phrase in every note.
fn check(group: &Group<'_>) -> Result<(), String> {
    let [first, ..] = group.members.as_slice() else { return Err("an empty group".into()) };
    if group.members.len() == 1 {
        return if group.line == first.to_string() { Ok(()) } else { Err("a single note rewritten".into()) };
    }
    let (head, what) = group.line.split_once(" notes): ").ok_or("no `(N notes): ` in a grouped line")?;
    let elements = head.rsplit_once(" (").map_or(head, |(e, _)| e);
    for element in elements.split(" … ") {
        if !group.members.iter().any(|m| m.element == element) {
            return Err(format!("names the element {element:?}, which none of its notes is about"));
        }
    }
    let line_words = words(what);
    let member_words: Vec<Vec<&str>> = group.members.iter().map(|m| words(&m.what)).collect();
    for (i, word) in line_words.iter().enumerate() {
        let at: Vec<&str> = member_words.iter().map(|w| w.get(i).copied().unwrap_or("")).collect();
        if at.iter().all(|w| w == word) {
            continue;
        }
        let counts: Option<Vec<u64>> = at.iter().map(|w| w.parse().ok()).collect();
        let phrase = member_words.iter().all(|w| begins_phrase(i.checked_sub(1).and_then(|p| w.get(p).copied())));
        match (counts, word.parse::<u64>()) {
            (Some(counts), Ok(sum)) if phrase && counts.iter().sum::<u64>() == sum => {}
            _ => return Err(format!("word {i} {word:?} is none of its notes' {at:?}, nor a count they sum to")),
        }
    }
    if member_words.iter().any(|w| w.len() != line_words.len()) {
        return Err("its notes have other words than the line".into());
    }
    Ok(())
}

#[test]
fn no_grouped_note_names_what_its_notes_do_not() {
    let Some(models) = corpus_models() else { return };
    let (mut lines, mut grouped_lines) = (0, 0);
    for (rel, path) in &models {
        for losses in notes_of(path) {
            for group in groups(&losses) {
                check(&group).unwrap_or_else(|e| panic!("{rel}: {:?}: {e}", group.line));
                lines += 1;
                grouped_lines += usize::from(group.members.len() > 1);
            }
        }
    }
    eprintln!("{} models, {lines} note lines, {grouped_lines} of them groups", models.len());
    // The corpus's game models relic opens (MANIFEST.md, less its known failures and the models
    // missing their .skin/.anim files).
    assert_eq!(models.len(), 73, "corpus models whose notes were checked");
    assert!(grouped_lines >= 10, "{} models, {grouped_lines} groups", models.len());
}

/// The check itself catches what the grouping once did (UI_Draenei.m2's notes).
#[test]
fn the_check_catches_invented_names_and_figures() {
    let a = Loss::new("materials[2]", "texture FLOOR01.BLP: not found");
    let b = Loss::new("materials[4]", "texture FLOOR03.BLP: not found");
    let bad = Group {
        members: vec![&a, &b],
        line: "materials[2] … materials[4] (2 notes): texture FLOOR04.BLP: not found".into(),
    };
    assert!(check(&bad).is_err());
    let c = Loss::new("animations \"A\"", "3 bone(s) baked at 185 sample times");
    let d = Loss::new("animations \"B\"", "2 bone(s) baked at 40 sample times");
    let bad = Group {
        members: vec![&c, &d],
        line: "animations \"A\" … animations \"B\" (2 notes): 5 bone(s) baked at 185 sample times".into(),
    };
    assert!(check(&bad).is_err());
    let e = Loss::new("materials[5]", "replaceable texture type 12 dropped");
    let f = Loss::new("materials[6]", "replaceable texture type 13 dropped");
    let bad = Group {
        members: vec![&e, &f],
        line: "materials[5] … materials[6] (2 notes): replaceable texture type 25 dropped".into(),
    };
    assert!(check(&bad).is_err());
    let good =
        Group { members: vec![&c, &c], line: "animations \"A\" (2 notes): 6 bone(s) baked at 185 sample times".into() };
    assert!(check(&good).is_ok());
}
