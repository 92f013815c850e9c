//! The `relic` command. Not implemented yet.

fn main() {}
