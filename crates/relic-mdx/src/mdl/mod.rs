//! MDL, the text form of MDX version 800 (spec §8): [`write_mdl`] prints a file in the block
//! order of Blizzard's MdlxConv and Magos' editor with floats as a chosen writer printed them
//! ([`FloatStyle`]); [`read_mdl`] parses MDL text of any of those writers (comments, CRLF, `static`
//! values or tracks, `Num…` lines ignored) into the MDX types.
//!
//! MDX → MDL → MDX keeps every value MDL names; what MDL has no place for (unknown chunks, bytes
//! after a NUL, sync points, flag bits without a keyword, a static value beside its track) is
//! listed as losses by the writer. MDL → MDX → MDL gives the same text.

mod names;
mod number;
mod read;
mod tree;
mod write;

pub use number::{FloatStyle, float};
pub use read::read_mdl;
pub use write::write_mdl;

use std::borrow::Cow;

use relic_core::format::{Content, Detected};
use relic_core::{ReadError, WriteError};

use crate::MdxFile;

/// Warcraft III MDL, as named in the format registry ([`crate::MDL_ENTRY`]).
pub const FORMAT: relic_core::FormatId = relic_core::FormatId::new("mdl");

/// The blocks an MDL file opens with (spec §8.1): the first word of the text, after a byte order
/// mark, blank lines and `//` comments, is one of them.
const FIRST_BLOCKS: [&str; 2] = ["Version", "Model"];

/// MDL text as a string: UTF-8 as relic and today's tools write it (a byte order mark taken
/// off), else Windows-1252, the game's code page, as Magos' editor wrote names: [`read_mdl`] gives
/// such names their bytes back.
pub fn text(bytes: &[u8]) -> Cow<'_, str> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(t) => Cow::Borrowed(t),
        Err(_) => Cow::Owned(relic_core::text::decode_cp1252(bytes)),
    }
}

/// The text after blank lines and `//` comments.
fn after_comments(text: &str) -> &str {
    let mut rest = text.trim_start();
    while let Some(comment) = rest.strip_prefix("//") {
        rest = comment.split_once('\n').map_or("", |(_, after)| after).trim_start();
    }
    rest
}

/// Recognises MDL text: its first word (`Version` or `Model`) followed by a space or `{`.
/// The version is the number after `FormatVersion` in the text's first 4 KB (800 without one).
pub fn detect(bytes: &[u8]) -> Option<Detected> {
    let head = text(bytes.get(..4096).unwrap_or(bytes));
    let rest = after_comments(&head);
    let opens = FIRST_BLOCKS.iter().any(|block| {
        rest.strip_prefix(block).and_then(|after| after.chars().next()).is_some_and(|c| c.is_whitespace() || c == '{')
    });
    if !opens {
        return None;
    }
    let version = rest
        .split_once("FormatVersion")
        .map(|(_, after)| after.trim_start().chars().take_while(char::is_ascii_digit).collect::<String>())
        .and_then(|digits| digits.parse().ok())
        .unwrap_or(800);
    Some(Detected::new(FORMAT, version, Content::Model))
}

/// Parses MDL text from its bytes ([`text`], [`read_mdl`]).
pub fn read(bytes: &[u8]) -> Result<MdxFile, ReadError> {
    read_mdl(&text(bytes))
}

/// [`write_mdl`] as bytes (UTF-8), with floats printed the shortest way that reads back the same.
pub fn write(file: &MdxFile) -> Result<relic_core::Converted<Vec<u8>>, WriteError> {
    write_mdl(file, FloatStyle::Shortest).map(|c| c.map(String::into_bytes))
}
