//! The default format registry: every format crate's entry, in detection order.

use relic_core::format::{Detected, FormatEntry};

/// Every format relic reads, in detection order (strong signatures first; LTB, whose container
/// header or LZMA wrapper must decode to one; DTX, whose signature is weak but whose detection
/// requires the sizes to add up to the file, then NOD/NAD, weak, last).
pub static FORMATS: &[&FormatEntry] =
    &[&relic_abc::ENTRY, &relic_m2::ENTRY, &relic_blp::ENTRY, &relic_ltb::ENTRY, &relic_dtx::ENTRY, &relic_nod::ENTRY];

/// The format of a file, judged by its bytes only.
pub fn detect(bytes: &[u8]) -> Option<(&'static FormatEntry, Detected)> {
    FORMATS.iter().find_map(|f| (f.detect)(bytes).map(|d| (*f, d)))
}

/// The format registered as `name` (`abc`, `m2`, …), or whose extensions include `name`
/// (case-insensitive).
pub fn by_name(name: &str) -> Option<&'static FormatEntry> {
    let exact = FORMATS.iter().find(|f| f.name.eq_ignore_ascii_case(name));
    exact.or_else(|| FORMATS.iter().find(|f| f.has_extension(name))).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every texture of the corpus and the fixtures is recognised as a texture of its own format,
    /// and no other file is taken for a texture (DTX's signature is weak).
    #[test]
    fn textures_are_recognised_and_nothing_else_is() {
        let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
        let mut dirs = vec![fixtures];
        dirs.extend(relic_testkit::corpus_dir("textures_are_recognised_and_nothing_else_is"));
        let mut textures = 0;
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                    continue;
                }
                let ext = path.extension().map(|e| e.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
                let hostile = path.components().any(|c| c.as_os_str() == "hostile");
                let found = detect(&std::fs::read(&path).unwrap());
                let texture = found.filter(|(_, d)| d.content == relic_core::format::Content::Texture);
                match texture {
                    Some((entry, _)) => {
                        assert_eq!(entry.name, ext, "{}", path.display());
                        textures += 1;
                    }
                    None => {
                        assert!(hostile || !matches!(ext.as_str(), "blp" | "dtx"), "{} not recognised", path.display())
                    }
                }
            }
        }
        assert!(textures >= 20, "only {textures} textures seen");
    }

    #[test]
    fn names_and_extensions_find_their_entry() {
        assert_eq!(by_name("ABC").map(|f| f.name), Some("abc"));
        assert_eq!(by_name("nad").map(|f| f.name), Some("nod"));
        assert!(by_name("obj").is_none());
        let names: Vec<&str> = FORMATS.iter().map(|f| f.name).collect();
        assert_eq!(names, ["abc", "m2", "blp", "ltb", "dtx", "nod"]);
        assert_eq!(by_name("BLP").map(|f| f.name), Some("blp"));
        assert!(by_name("dtx").is_some_and(|f| f.texture.is_some() && f.model.is_none()));
    }
}
