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
