//! What `relic info` prints for a file: its format, version and the format's own counts as the
//! file states them (not as the common model would count them).

use crate::format::id::FormatId;

/// One named fact about a file.
#[derive(Debug, Clone, PartialEq)]
pub enum Fact {
    /// A count or other whole number.
    Count(u64),
    /// A measured or stored number.
    Number(f64),
    /// A word or phrase (a layout choice, a name).
    Text(String),
}

/// The facts `relic info` shows for one file, in the order the format crate lists them.
#[derive(Debug, Clone, PartialEq)]
pub struct Info {
    /// The file's format.
    pub format: FormatId,
    /// The format's own version number.
    pub version: u32,
    /// `(key, value)` pairs; keys are lower-case snake case and stable (scripts read them).
    pub facts: Vec<(&'static str, Fact)>,
}

impl Info {
    /// An empty list for a file of `format` and `version`.
    pub fn new(format: FormatId, version: u32) -> Self {
        Self { format, version, facts: Vec::new() }
    }

    /// Adds a count.
    pub fn count(&mut self, key: &'static str, value: impl TryInto<u64>) -> &mut Self {
        let value = value.try_into().unwrap_or(u64::MAX);
        self.facts.push((key, Fact::Count(value)));
        self
    }

    /// Adds a number.
    pub fn number(&mut self, key: &'static str, value: f64) -> &mut Self {
        self.facts.push((key, Fact::Number(value)));
        self
    }

    /// Adds a text.
    pub fn text(&mut self, key: &'static str, value: impl Into<String>) -> &mut Self {
        self.facts.push((key, Fact::Text(value.into())));
        self
    }

    /// The value of `key`, if listed.
    pub fn get(&self, key: &str) -> Option<&Fact> {
        self.facts.iter().find(|(k, _)| *k == key).map(|(_, v)| v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_keep_their_order_and_can_be_looked_up() {
        let mut info = Info::new(FormatId::new("abc"), 12);
        info.count("nodes", 25u32).text("layout", "H1").number("radius", 96.0);
        assert_eq!(info.facts.iter().map(|(k, _)| *k).collect::<Vec<_>>(), ["nodes", "layout", "radius"]);
        assert_eq!(info.get("nodes"), Some(&Fact::Count(25)));
        assert_eq!(info.get("missing"), None);
    }
}
