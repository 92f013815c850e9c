//! The library side of the `relic` command: format detection and dispatch (shared with `xtask`),
//! loading inputs, converting models, batch runs over folders, and writing outputs safely.
//!
//! | module | what |
//! |---|---|
//! | [`formats`] | the table of game formats and their entry points |
//! | [`input`] | recognising a file by content (game formats and glTF) and loading it as a model |
//! | [`convert`] | a model to output bytes, by target format |
//! | [`info`] | what `relic info` prints |
//! | [`batch`] | `relic batch`: a folder in parallel, with progress and a summary |
//! | [`output`] | atomic writes, no overwrite without `--force`, inputs never written |
//! | [`error`] | one-line errors that name the file |

pub mod batch;
pub mod convert;
pub mod error;
pub mod formats;
pub mod info;
pub mod input;
pub mod output;

pub use error::CliError;
