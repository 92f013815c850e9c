//! The library side of the `relic` command: format detection and dispatch shared with `xtask`.

pub mod formats;
pub mod output;
