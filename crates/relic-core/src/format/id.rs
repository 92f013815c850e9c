//! [`FormatId`]: the name of a format, without relic-core knowing which formats exist (the
//! model records where it came from by it; the registry's entries are found by it).

use std::fmt;

/// The name of a format (`abc`, `m2`, `nod`, `nad`, `gltf`, `blp`, `dtx`): at most 7 lower-case
/// ASCII letters or digits, held inline so that it is `Copy` and can be rebuilt from text (glTF
/// extras name the format a model came from).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FormatId {
    len: u8,
    bytes: [u8; 7],
}

impl FormatId {
    /// A format name known at compile time. Panics (at compile time, in a `const`) for a name
    /// that is empty, longer than 7 bytes or not lower-case ASCII letters and digits.
    // A bad name is a bug in the format crate that names it, found when its constant is built.
    #[allow(clippy::panic)]
    pub const fn new(name: &'static str) -> Self {
        match Self::from_bytes(name.as_bytes()) {
            Some(id) => id,
            None => panic!("a format name is 1 to 7 lower-case ASCII letters or digits"),
        }
    }

    /// The format named by `name` (as [`FormatId::as_str`] prints it), if it is a valid name.
    pub fn parse(name: &str) -> Option<Self> {
        Self::from_bytes(name.as_bytes())
    }

    // `i` stays below `name.len()` ≤ 7 = `bytes.len()` (checked first); `get` is not const.
    #[allow(clippy::indexing_slicing)]
    const fn from_bytes(name: &[u8]) -> Option<Self> {
        if name.is_empty() || name.len() > 7 {
            return None;
        }
        let mut bytes = [0u8; 7];
        let mut i = 0;
        while i < name.len() {
            let c = name[i];
            if !(c.is_ascii_lowercase() || c.is_ascii_digit()) {
                return None;
            }
            bytes[i] = c;
            i += 1;
        }
        Some(Self { len: name.len() as u8, bytes })
    }

    /// The name.
    pub fn as_str(&self) -> &str {
        // len ≤ 7 and the bytes are ASCII letters and digits (checked when the id is made): neither default
        // is ever taken.
        let bytes = self.bytes.get(..usize::from(self.len)).unwrap_or_default();
        std::str::from_utf8(bytes).unwrap_or_default()
    }
}

impl fmt::Display for FormatId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for FormatId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FormatId({})", self.as_str())
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for FormatId {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_ids_are_short_lower_case_names() {
        const ABC: FormatId = FormatId::new("abc");
        assert_eq!(ABC.as_str(), "abc");
        assert_eq!(FormatId::parse("abc"), Some(ABC));
        assert_eq!(FormatId::parse("m2").map(|f| f.to_string()), Some("m2".into()));
        for bad in ["", "ABC", "toolongname", "a.b", "a b"] {
            assert_eq!(FormatId::parse(bad), None, "{bad:?}");
        }
        assert_ne!(FormatId::new("nod"), FormatId::new("nad"));
    }
}
