//! What the common model does not hold: the file itself.

use relic_core::Model;
use relic_core::model::ExtrasOps;
use serde::{Deserialize, Serialize};

use crate::file::M2File;

/// What an M2 holds that the common model does not: the file as read, without its vertex array
/// (the model's meshes hold those). [`crate::from_ir()`] takes each section from here while mapping
/// it gives exactly what the model now holds, and rebuilds it from the model otherwise.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct M2Extras {
    /// The file as read, `vertices` emptied.
    pub file: M2File,
}

/// The extras' operations (JSON through serde).
pub(crate) static EXTRAS_OPS: ExtrasOps =
    relic_core::extras_ops!(M2Extras, |e: &M2Extras| serde_json::to_string(e).unwrap_or_default());

/// The file the model's extras hold, if they are M2's (typed, or as JSON after a trip through
/// glTF).
pub(crate) fn extras_file(model: &Model) -> Option<M2File> {
    let extras = model.extras.as_ref().filter(|e| e.format() == crate::FORMAT)?;
    if let Some(e) = extras.get::<M2Extras>() {
        return Some(e.file.clone());
    }
    serde_json::from_str::<M2Extras>(&extras.json()?).ok().map(|e| e.file)
}
