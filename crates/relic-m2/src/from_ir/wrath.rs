//! Common model → Wrath or later (264, 272): the 256–263 form (at 263), then
//! [`from_classic`](crate::wrath::convert::from_classic). A model read from a Wrath file and not
//! changed since gets that file back (with its `.skin` and `.anim` files, byte for byte); the
//! 256–263 file is built once either way.

use relic_core::{Converted, Model, WriteOptions};

use super::builder::Result;
use crate::extras::{M2Extras, vertex_digest};
use crate::wrath::Wrath;

/// `model` as a Wrath-or-later model of `version`, with its extras decoded once by the caller.
pub(crate) fn to_wrath(model: &Model, extras: Option<&M2Extras>, version: u32) -> Result<Converted<Wrath>> {
    let Converted { value: mut classic, mut losses } =
        super::from_ir(model, extras, &WriteOptions { version: Some(263) })?;
    // The model is unchanged when the 256–263 form it builds is the extras' (vertices aside: the
    // extras keep their digest).
    let vertices = std::mem::take(&mut classic.vertices);
    let stored = extras.and_then(|e| {
        let wrath = e.wrath.as_deref()?;
        let unchanged = wrath.file.version == version
            && e.vertex_digest.as_deref() == Some(vertex_digest(&vertices).as_str())
            && classic == e.file;
        unchanged.then_some(wrath)
    });
    if let Some(stored) = stored {
        let mut wrath = stored.clone();
        wrath.file.vertices = vertices;
        return Ok(Converted { value: wrath, losses });
    }
    classic.vertices = vertices;
    let (wrath, more) = crate::wrath::convert::from_classic(&classic, version);
    losses.extend(more);
    Ok(Converted { value: wrath, losses })
}
