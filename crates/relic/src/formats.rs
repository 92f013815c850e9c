//! The default format registry: every format crate's entry, in detection order.

use relic_core::format::{Detected, FormatEntry};

/// Every format relic reads, in detection order (strong signatures first; NOD/NAD, whose
/// signatures are weak, last).
pub static FORMATS: &[&FormatEntry] = &[&relic_abc::ENTRY, &relic_m2::ENTRY, &relic_nod::ENTRY];

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

    #[test]
    fn names_and_extensions_find_their_entry() {
        assert_eq!(by_name("ABC").map(|f| f.name), Some("abc"));
        assert_eq!(by_name("nad").map(|f| f.name), Some("nod"));
        assert!(by_name("obj").is_none());
        let names: Vec<&str> = FORMATS.iter().map(|f| f.name).collect();
        assert_eq!(names, ["abc", "m2", "nod"]);
    }
}
