//! The library side of the `relic` command: batch runs over folders and writing outputs safely.
//! Recognising, opening and converting files is the `relic` facade crate's.
//!
//! | module | what |
//! |---|---|
//! | [`info`] | what `relic info` prints |
//! | [`batch`] | `relic batch`: a folder in parallel, with progress and a summary |
//! | [`output`] | atomic writes, no overwrite without `--force`, inputs never written |
//! | [`error`] | one-line errors that name the file |

pub mod batch;
pub mod error;
pub mod info;
pub mod output;

pub use error::CliError;
