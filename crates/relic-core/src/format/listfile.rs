//! A listfile: the names of files a game refers to by number (World of Warcraft's FileDataIDs,
//! m2-md21.md §9). The community CSV has one `id;path` per line (`122866;Creature/AbyssalIllidan/
//! Abyssal_Illidan.m2`), `/` separators, any letter case; relic-core names no format, so this is
//! only the map from number to path.

/// One line that is not `id;path`: its number (from 1) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Malformed {
    /// The line's number, counting from 1.
    pub line: usize,
    /// What is wrong with it.
    pub why: &'static str,
}

/// The paths of a listfile by id. The paths are kept in one string (a 1.8-million-line
/// listfile is one allocation of its text, not millions).
#[derive(Debug, Clone, Default)]
pub struct Listfile {
    /// Every path kept, one after another.
    text: String,
    /// (id, start in `text`, length), sorted by id, one per id (the last line naming it wins).
    entries: Vec<(u32, u32, u32)>,
    /// How many lines were not `id;path` (blank lines are not counted).
    malformed: usize,
    /// The first few of them.
    first_malformed: Vec<Malformed>,
    /// Ids named by more than one line.
    repeated: usize,
}

/// How many malformed lines are kept for a message.
const KEPT_MALFORMED: usize = 8;

/// The id and path of one line, or why it is not `id;path`.
fn split_line(line: &[u8]) -> Result<(u32, &str), &'static str> {
    let Some(semi) = line.iter().position(|&b| b == b';') else { return Err("no ';' between id and path") };
    let (id, path) = (line.get(..semi).unwrap_or_default(), line.get(semi + 1..).unwrap_or_default());
    if id.is_empty() || !id.iter().all(u8::is_ascii_digit) {
        return Err("the id is not a decimal number");
    }
    // Digits only: the parse fails only past u32::MAX.
    let id = std::str::from_utf8(id).ok().and_then(|s| s.parse().ok()).ok_or("the id is past 4294967295")?;
    let path = std::str::from_utf8(path).map_err(|_| "the path is not UTF-8")?.trim();
    if path.is_empty() {
        return Err("no path after ';'");
    }
    Ok((id, path))
}

impl Listfile {
    /// Reads a listfile: a UTF-8 BOM, CRLF line ends, blank lines and a missing last line end
    /// are accepted; a line that is not `id;path` (no `;`, an id that is not a u32, a path that
    /// is not UTF-8 or empty) is counted ([`Listfile::malformed`]) and skipped.
    pub fn parse(bytes: &[u8]) -> Self {
        Self::parse_where(bytes, |_| true)
    }

    /// [`Listfile::parse`], keeping only the paths `keep` accepts (a reader that needs only
    /// models and textures need not hold the names of every sound and map).
    pub fn parse_where(bytes: &[u8], keep: impl Fn(&str) -> bool) -> Self {
        let mut out = Listfile::default();
        let mut entries = Vec::new();
        for (n, line) in bytes.split(|&b| b == b'\n').enumerate() {
            out.line(&mut entries, n + 1, line, &keep);
        }
        out.finish(entries)
    }

    /// [`Listfile::parse_where`] of a listfile read line by line (a 100 MB listfile is never
    /// held whole: only the paths kept are).
    pub fn read_where(mut reader: impl std::io::BufRead, keep: impl Fn(&str) -> bool) -> std::io::Result<Self> {
        let mut out = Listfile::default();
        let mut entries = Vec::new();
        let mut line = Vec::new();
        for n in 1.. {
            line.clear();
            if reader.read_until(b'\n', &mut line)? == 0 {
                break;
            }
            let text = line.strip_suffix(b"\n").unwrap_or(&line);
            out.line(&mut entries, n, text, &keep);
        }
        Ok(out.finish(entries))
    }

    /// Takes line `n` (from 1, without its `\n`) into `entries` if it is `id;path` and `keep`
    /// accepts its path; counts it if it is malformed.
    fn line(&mut self, entries: &mut Vec<(u32, u32, u32)>, n: usize, line: &[u8], keep: &impl Fn(&str) -> bool) {
        let line = if n == 1 { line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line) } else { line };
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        match split_line(line) {
            Ok((id, path)) if keep(path) => {
                // Paths past 4 GiB of text in all are not kept (no listfile comes near).
                let (Ok(start), Ok(len)) = (u32::try_from(self.text.len()), u32::try_from(path.len())) else {
                    return;
                };
                self.text.push_str(path);
                entries.push((id, start, len));
            }
            Ok(_) => {}
            Err(why) => {
                self.malformed += 1;
                if self.first_malformed.len() < KEPT_MALFORMED {
                    self.first_malformed.push(Malformed { line: n, why });
                }
            }
        }
    }

    /// Sorts the entries by id, one per id (the last line naming it kept).
    fn finish(mut self, mut entries: Vec<(u32, u32, u32)>) -> Self {
        // Stable: of the lines naming one id, the last stays last and is kept.
        entries.sort_by_key(|e| e.0);
        let before = entries.len();
        entries.dedup_by(|later, earlier| {
            let same = later.0 == earlier.0;
            if same {
                *earlier = *later;
            }
            same
        });
        self.repeated = before - entries.len();
        entries.shrink_to_fit();
        self.text.shrink_to_fit();
        self.entries = entries;
        self
    }

    /// The path of `id` as the listfile spells it (`Creature/Foo/Foo00.skin`), `None` if it has
    /// no such id.
    pub fn path(&self, id: u32) -> Option<&str> {
        let at = self.entries.binary_search_by_key(&id, |e| e.0).ok()?;
        let &(_, start, len) = self.entries.get(at)?;
        self.text.get(start as usize..start as usize + len as usize)
    }

    /// The id of the file whose path is `path` (`\` or `/`, any letter case), `None` if none.
    /// A walk through every entry: for a file's own place, not for each of its parts.
    pub fn id_of(&self, path: &str) -> Option<u32> {
        let same = |a: &str| {
            a.len() == path.len()
                && a.bytes().zip(path.bytes()).all(|(x, y)| {
                    let norm = |c: u8| if c == b'\\' { b'/' } else { c.to_ascii_lowercase() };
                    norm(x) == norm(y)
                })
        };
        self.entries
            .iter()
            .find(|&&(_, s, l)| self.text.get(s as usize..(s + l) as usize).is_some_and(same))
            .map(|e| e.0)
    }

    /// Every (id, path), by id.
    pub fn iter(&self) -> impl Iterator<Item = (u32, &str)> {
        self.entries.iter().filter_map(|&(id, s, l)| Some((id, self.text.get(s as usize..(s + l) as usize)?)))
    }

    /// How many ids it names.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True if it names no id.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// How many lines were not `id;path` (skipped).
    pub fn malformed(&self) -> usize {
        self.malformed
    }

    /// The first malformed lines (at most 8).
    pub fn first_malformed(&self) -> &[Malformed] {
        &self.first_malformed
    }

    /// How many lines named an id an earlier line named already (the later one is kept).
    pub fn repeated(&self) -> usize {
        self.repeated
    }

    /// What was skipped, in one sentence (`None` when every line was read).
    pub fn summary(&self) -> Option<String> {
        let mut parts = Vec::new();
        if self.malformed > 0 {
            let first: Vec<String> =
                self.first_malformed.iter().map(|m| format!("line {}: {}", m.line, m.why)).collect();
            parts.push(format!("{} lines are not id;path and were skipped ({})", self.malformed, first.join("; ")));
        }
        if self.repeated > 0 {
            parts.push(format!("{} ids are named again by a later line (the later path kept)", self.repeated));
        }
        (!parts.is_empty()).then(|| parts.join("; "))
    }
}

/// The last part of a game path (`creature/foo/foo00.skin` → `foo00.skin`), `\` or `/` separated.
pub fn file_name_of(path: &str) -> &str {
    path.rsplit(['\\', '/']).next().unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_community_csv() {
        let text = b"\xEF\xBB\xBF122866;Creature/AbyssalIllidan/Abyssal_Illidan.m2\r\n\r\n5;a/b.blp\n7;c.skin";
        let l = Listfile::parse(text);
        assert_eq!(l.len(), 3);
        assert_eq!(l.path(122866), Some("Creature/AbyssalIllidan/Abyssal_Illidan.m2"));
        assert_eq!(l.path(5), Some("a/b.blp"));
        assert_eq!(l.path(7), Some("c.skin"));
        assert_eq!(l.path(6), None);
        assert_eq!(l.malformed(), 0);
        assert_eq!(l.summary(), None);
        assert_eq!(l.id_of("creature\\abyssalillidan\\ABYSSAL_ILLIDAN.M2"), Some(122866));
        assert_eq!(l.id_of("creature/abyssalillidan"), None);
    }

    #[test]
    fn malformed_lines_are_counted_not_fatal() {
        let mut text =
            b"1;ok.blp\nno separator\n99999999999;huge.blp\n-3;neg.blp\n;empty id\n4;\n5;\xFF\xFE.blp\n".to_vec();
        text.extend_from_slice(b"2;first.blp\n2;second.blp\n4294967295;max.blp");
        let l = Listfile::parse(&text);
        assert_eq!(l.malformed(), 6);
        let lines: Vec<usize> = l.first_malformed().iter().map(|m| m.line).collect();
        assert_eq!(lines, [2, 3, 4, 5, 6, 7]);
        assert_eq!(l.first_malformed()[1].why, "the id is past 4294967295");
        assert_eq!(l.first_malformed()[5].why, "the path is not UTF-8");
        assert_eq!(l.path(1), Some("ok.blp"));
        assert_eq!(l.path(2), Some("second.blp"));
        assert_eq!(l.path(u32::MAX), Some("max.blp"));
        assert_eq!(l.repeated(), 1);
        assert_eq!(l.len(), 3);
        let summary = l.summary().unwrap();
        assert!(summary.starts_with("6 lines are not id;path"), "{summary}");
        assert!(summary.contains("1 ids are named again"), "{summary}");
    }

    #[test]
    fn hostile_bytes_parse_to_nothing() {
        for bytes in [&b""[..], b"\n\n\r\n", b";;;;", b"\0\0\0", &[0xFF; 64]] {
            let l = Listfile::parse(bytes);
            assert!(l.is_empty());
            assert_eq!(l.path(0), None);
        }
        let many = "x\n".repeat(100);
        let l = Listfile::parse(many.as_bytes());
        assert_eq!(l.malformed(), 100);
        assert_eq!(l.first_malformed().len(), 8);
    }

    #[test]
    fn reading_line_by_line_is_parsing() {
        let text = b"\xEF\xBB\xBF1;a.blp\r\n\r\nbad\n2;b/c.skin\n1;again.blp";
        let read = Listfile::read_where(&text[..], |_| true).unwrap();
        let parsed = Listfile::parse(text);
        assert_eq!(read.iter().collect::<Vec<_>>(), parsed.iter().collect::<Vec<_>>());
        assert_eq!(read.iter().collect::<Vec<_>>(), [(1, "again.blp"), (2, "b/c.skin")]);
        assert_eq!(
            (read.malformed(), read.first_malformed()),
            (1, &[Malformed { line: 3, why: "no ';' between id and path" }][..])
        );
        assert_eq!(read.repeated(), 1);
    }

    #[test]
    fn random_bytes_read_as_they_parse() {
        // A small LCG: bytes biased to the listfile's own (digits, ';', '/', line ends, high bytes).
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let alphabet = b"0123456789;;//\n\r\xEF\xBB\xBFaZ.\xFF\x80 ";
        for _ in 0..2000 {
            let len = (state >> 50) as usize % 200;
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                    alphabet[(state >> 33) as usize % alphabet.len()]
                })
                .collect();
            let parsed = Listfile::parse(&bytes);
            let read = Listfile::read_where(&bytes[..], |_| true).unwrap();
            assert_eq!(parsed.iter().collect::<Vec<_>>(), read.iter().collect::<Vec<_>>(), "{bytes:?}");
            assert_eq!((parsed.malformed(), parsed.repeated()), (read.malformed(), read.repeated()));
            assert!(parsed.iter().all(|(id, path)| parsed.path(id) == Some(path) && !path.is_empty()));
        }
    }

    #[test]
    fn keeps_only_what_is_asked() {
        let l = Listfile::parse_where(b"1;a.blp\n2;b.ogg\n3;c.BLP", |p| p.to_ascii_lowercase().ends_with(".blp"));
        assert_eq!((l.path(1), l.path(2), l.path(3)), (Some("a.blp"), None, Some("c.BLP")));
    }

    #[test]
    fn file_names_of_game_paths() {
        assert_eq!(file_name_of("creature/foo/Foo00.skin"), "Foo00.skin");
        assert_eq!(file_name_of("Creature\\Foo\\foo.blp"), "foo.blp");
        assert_eq!(file_name_of("bare.anim"), "bare.anim");
    }
}
