//! Notes of what a conversion's target cannot hold, grouped for reading: a model with 104 bones
//! can give 300 notes of one kind (`bones[17]: 30 keys closer than 1 ms to the previous one
//! dropped`), which would hide the one note of another kind. `--verbose` prints every note as it
//! is.
//!
//! A note's numbers are of two kinds, and grouping must never turn one into the other:
//!
//! * **counts** — a number that begins a phrase of the text (at its start, or after `, ` or `; `)
//!   and is followed by a word: `30 keys …`, `12 in the original, 0 written`. Notes that differ
//!   only in their counts are one line, each count summed over the group.
//! * **everything else is text**: digits inside a name or path (`JLO_DRAENEI_FLOOR01.BLP`,
//!   `EXPANSION01`, `0x1782`, `1e-4`), numbers that follow a word (`type 12`, `LOD 1`,
//!   `at 804 sample times`) and numbers in parentheses (`(4 Windows-1252 bytes)`, a measure of
//!   the element, not a count of what was lost). Notes group only where all of these are the
//!   same, so a grouped line never names a file, path, id or figure that its notes do not.
//!
//! Elements may differ in their digits within a group: the line names the first and the last
//! (`bones[3] … bones[7]`, `meshes[9] "geoset 0" … meshes[12] "geoset 3"`), both real.

use relic::Loss;

/// One group of notes and the line that stands for it.
#[derive(Debug, Clone, PartialEq)]
pub struct Group<'a> {
    /// The notes, in their order.
    pub members: Vec<&'a Loss>,
    /// What is printed.
    pub line: String,
}

/// The notes as lines, one per group, in the order each group first appears.
pub fn grouped(losses: &[Loss]) -> Vec<String> {
    groups(losses).into_iter().map(|g| g.line).collect()
}

/// The notes in groups, in the order each group first appears.
pub fn groups(losses: &[Loss]) -> Vec<Group<'_>> {
    let mut keyed: Vec<(String, Vec<&Loss>)> = Vec::new();
    for loss in losses {
        let key = format!("{}\u{0}{}", element_shape(&loss.element), text_shape(&loss.what));
        match keyed.iter_mut().find(|(k, _)| *k == key) {
            Some((_, members)) => members.push(loss),
            None => keyed.push((key, vec![loss])),
        }
    }
    keyed.into_iter().map(|(_, members)| Group { line: line(&members), members }).collect()
}

/// A piece of a note's text: text, or a count.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece<'a> {
    Text(&'a str),
    Count(u64),
}

/// The text cut into counts and the text around them (see the module docs).
fn pieces(text: &str) -> Vec<Piece<'_>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let (mut start, mut i) = (0, 0);
    while i < bytes.len() {
        let Some(&b) = bytes.get(i) else { break };
        if !b.is_ascii_digit() {
            i += 1;
            continue;
        }
        let end = i + bytes.get(i..).map_or(0, |rest| rest.iter().take_while(|c| c.is_ascii_digit()).count());
        let before = text.get(..i).unwrap_or("");
        let after = text.get(end..).unwrap_or("");
        let value = text.get(i..end).and_then(|d| d.parse::<u64>().ok());
        match value {
            Some(n) if begins_phrase(before) && followed_by_word(after) => {
                if start < i {
                    out.push(Piece::Text(text.get(start..i).unwrap_or("")));
                }
                out.push(Piece::Count(n));
                start = end;
            }
            _ => {}
        }
        i = end;
    }
    if start < text.len() {
        out.push(Piece::Text(text.get(start..).unwrap_or("")));
    }
    out
}

/// Whether a number after `before` begins a phrase.
fn begins_phrase(before: &str) -> bool {
    before.is_empty() || before.ends_with(", ") || before.ends_with("; ")
}

/// Whether a number followed by `after` is followed by a word (`30 keys`, `0 written`), not by
/// more of a name (`04.BLP`, `x1782`) or nothing.
fn followed_by_word(after: &str) -> bool {
    let mut chars = after.chars();
    chars.next() == Some(' ') && chars.next().is_some_and(|c| c.is_alphabetic())
}

/// The text with each count replaced by `#`.
fn text_shape(text: &str) -> String {
    pieces(text)
        .iter()
        .map(|p| match p {
            Piece::Text(t) => *t,
            Piece::Count(_) => "#",
        })
        .collect()
}

/// The element with every run of digits replaced by `#`.
fn element_shape(element: &str) -> String {
    let mut out = String::with_capacity(element.len());
    for c in element.chars() {
        if !c.is_ascii_digit() {
            out.push(c);
        } else if !out.ends_with('#') {
            out.push('#');
        }
    }
    out
}

/// One group's line: the note itself when alone; otherwise `ELEMENTS (N notes): TEXT` with each
/// count summed over the group.
fn line(members: &[&Loss]) -> String {
    let [first, ..] = members else { return String::new() };
    if members.len() == 1 {
        return first.to_string();
    }
    let mut elements: Vec<&str> = members.iter().map(|l| l.element.as_str()).collect();
    elements.dedup();
    let element = match elements.as_slice() {
        [one] => one.to_string(),
        [a, .., b] => format!("{a} … {b}"),
        [] => String::new(),
    };
    let all: Vec<Vec<Piece<'_>>> = members.iter().map(|l| pieces(&l.what)).collect();
    let first_pieces = all.first().cloned().unwrap_or_default();
    let what: String = first_pieces
        .iter()
        .enumerate()
        .map(|(k, piece)| match piece {
            Piece::Text(t) => (*t).to_string(),
            Piece::Count(_) => {
                let sum: u64 = all
                    .iter()
                    .filter_map(|p| match p.get(k) {
                        Some(Piece::Count(n)) => Some(*n),
                        _ => None,
                    })
                    .fold(0u64, u64::saturating_add);
                sum.to_string()
            }
        })
        .collect();
    format!("{element} ({} notes): {what}", members.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_that_differ_only_in_counts_become_one_line_with_each_count_summed() {
        let losses = vec![
            Loss::new("particles", "12 in the original, 0 written"),
            Loss::new("bones[3]", "30 keys closer than 1 ms to the previous one dropped"),
            Loss::new("bones[3]", "10 keys closer than 1 ms to the previous one dropped"),
            Loss::new("bones[7]", "5 keys closer than 1 ms to the previous one dropped"),
            Loss::new("bones[9]", "mixed interpolations resampled to linear"),
            Loss::new("events", "3 in the original, 1 written"),
            Loss::new("cameras", "2 in the original, 1 written"),
        ];
        assert_eq!(
            grouped(&losses),
            [
                "particles: 12 in the original, 0 written",
                "bones[3] … bones[7] (3 notes): 45 keys closer than 1 ms to the previous one dropped",
                "bones[9]: mixed interpolations resampled to linear",
                "events: 3 in the original, 1 written",
                "cameras: 2 in the original, 1 written",
            ]
        );
    }

    /// The notes UI_Draenei.m2 gave before: the grouped line named `FLOOR04` (01 + 03),
    /// `EXPANSION02`, "type 25" (12 + 13) and the first clip's sample count for all clips.
    #[test]
    fn names_paths_ids_and_figures_are_never_rewritten() {
        let texture = |m: u32, name: &str, path: &str| {
            Loss::new(
                format!("materials[{m}] \"{name}\""),
                format!("texture {path}: not found; the material is untextured"),
            )
        };
        let losses = vec![
            texture(2, "JLO_DRAENEI_FLOOR01", "DUNGEONS\\TEXTURES\\DRAENEI\\JLO_DRAENEI_FLOOR01.BLP"),
            texture(4, "JLO_DRAENEI_FLOOR03", "DUNGEONS\\TEXTURES\\DRAENEI\\JLO_DRAENEI_FLOOR03.BLP"),
            texture(9, "HOLOGRAM_PLATFORM", "WORLD\\EXPANSION01\\DOODADS\\HOLOGRAM_PLATFORM.BLP"),
            texture(19, "HOLOGRAM_PLATFORM", "WORLD\\EXPANSION01\\DOODADS\\HOLOGRAM_PLATFORM.BLP"),
            Loss::new("materials[5]", "replaceable texture type 12 dropped"),
            Loss::new("materials[6]", "replaceable texture type 13 dropped"),
            Loss::new("animations \"Stand.0\"", "156 bone(s) baked at 185 sample times"),
            Loss::new("animations \"Stand.1\"", "156 bone(s) baked at 40 sample times"),
            Loss::new("animations \"Stand.2\"", "12 bone(s) baked at 40 sample times"),
        ];
        let lines = grouped(&losses);
        assert_eq!(
            lines,
            [
                "materials[2] \"JLO_DRAENEI_FLOOR01\": texture DUNGEONS\\TEXTURES\\DRAENEI\\JLO_DRAENEI_FLOOR01.BLP: not \
                 found; the material is untextured",
                "materials[4] \"JLO_DRAENEI_FLOOR03\": texture DUNGEONS\\TEXTURES\\DRAENEI\\JLO_DRAENEI_FLOOR03.BLP: not \
                 found; the material is untextured",
                "materials[9] \"HOLOGRAM_PLATFORM\" … materials[19] \"HOLOGRAM_PLATFORM\" (2 notes): texture \
                 WORLD\\EXPANSION01\\DOODADS\\HOLOGRAM_PLATFORM.BLP: not found; the material is untextured",
                "materials[5]: replaceable texture type 12 dropped",
                "materials[6]: replaceable texture type 13 dropped",
                "animations \"Stand.0\": 156 bone(s) baked at 185 sample times",
                "animations \"Stand.1\" … animations \"Stand.2\" (2 notes): 168 bone(s) baked at 40 sample times",
            ]
        );
    }

    #[test]
    fn counts_begin_a_phrase_and_are_followed_by_a_word() {
        let counts = |t: &str| -> Vec<u64> {
            pieces(t)
                .into_iter()
                .filter_map(|p| match p {
                    Piece::Count(n) => Some(n),
                    Piece::Text(_) => None,
                })
                .collect()
        };
        assert_eq!(counts("12 in the original, 0 written"), [12, 0]);
        assert_eq!(counts("300 ms in all in the original; 200 ms written"), [300, 200]);
        assert_eq!(counts("identifier written as \"FOOT\" (4 Windows-1252 bytes)"), Vec::<u64>::new());
        assert_eq!(counts("LOD 1 at 12.5 dropped"), Vec::<u64>::new());
        assert_eq!(counts("at byte 0x1782"), Vec::<u64>::new());
        assert_eq!(counts("04.BLP: 2 files"), Vec::<u64>::new());
        assert_eq!(counts("3 of 9 bones dropped, 2 kept"), [3, 2]);
        assert_eq!(counts("tolerance 1e-4"), Vec::<u64>::new());
        assert_eq!(text_shape("12 in the original, 0 written"), "# in the original, # written");
        assert_eq!(element_shape("meshes[17] \"geoset 04\""), "meshes[#] \"geoset #\"");
    }
}
