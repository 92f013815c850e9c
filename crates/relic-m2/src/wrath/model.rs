//! Common model → Wrath or later: through the 256–263 form (`from_ir` at 263), then
//! [`from_classic`](super::convert::from_classic). A model read from a Wrath file and not changed
//! since gets that file back (with its `.skin` and `.anim` files) byte for byte.

use relic_core::format::Written;
use relic_core::{Converted, Model, WriteError, WriteOptions};

use crate::extras::{m2_extras, vertex_digest};
use crate::file::M2File;

/// Writes `model` as a Wrath-or-later model of `version` with its `.skin` (and `.anim`) files.
pub(crate) fn write(model: &Model, version: u32) -> Result<Converted<Written>, WriteError> {
    let classic = crate::from_ir(model, &WriteOptions { version: Some(263) })?;
    let stored = m2_extras(model).and_then(|e| {
        let wrath = e.wrath?;
        let unchanged = wrath.file.version == version
            && e.vertex_digest.as_deref() == Some(vertex_digest(&classic.value.vertices).as_str())
            && M2File { vertices: Default::default(), ..classic.value.clone() } == e.file;
        unchanged.then_some(wrath)
    });
    let (wrath, losses) = match stored {
        Some(mut wrath) => {
            wrath.file.vertices = classic.value.vertices.clone();
            (*wrath, classic.losses)
        }
        None => {
            let (wrath, more) = super::convert::from_classic(&classic.value, version);
            let mut losses = classic.losses;
            losses.extend(more);
            (wrath, losses)
        }
    };
    let (bytes, siblings) = super::write(&wrath)?;
    Ok(Converted { value: Written { bytes, siblings }, losses })
}
