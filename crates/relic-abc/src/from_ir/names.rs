//! Names as the file stores them (Windows-1252).

use relic_core::Loss;

use crate::file::common::not_cp1252;

/// A name as stored; reports characters Windows-1252 cannot hold.
pub(crate) fn stored_name(
    element: impl FnOnce() -> String,
    name: &str,
    losses: &mut Vec<Loss>,
) -> relic_core::binary::LenString {
    if not_cp1252(name) {
        losses.push(Loss::new(element(), format!("{name:?}: characters outside Windows-1252 became '?'")));
    }
    crate::file::common::len_string(name)
}
