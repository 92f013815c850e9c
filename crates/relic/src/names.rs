//! A file's name as the formats take it: with its extension ([`file_name`], `Input::name`) and
//! without ([`stem`], which names the files beside it and a model without a name of its own).

use std::path::Path;

/// A file name without folder and extension.
pub fn stem(path: &Path) -> String {
    // A path without a file name (`/`, `..`) has no stem: the empty name, "unknown" (a model read
    // from it keeps the name its file gives it, if any).
    path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
}

/// A file name without folder (`hero.m2`), as
/// [`Input::name`](relic_core::format::Input::name) takes it.
pub fn file_name(path: &Path) -> String {
    // A path without a file name (`/`, `..`): the empty name, which `Input::name` means as unknown.
    path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}
