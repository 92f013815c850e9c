//! What the common model does not hold of an MDX: the file itself, kept with the model it was
//! mapped to so that the same model written back as MDX gives the same bytes.

use relic_core::Model;
use relic_core::model::{ExtrasOps, FormatExtras};

use crate::file::MdxFile;

/// The MDX a model was read from. [`crate::from_ir()`] writes it back as it is while the model
/// is still the one it maps to, and builds the file from the model otherwise (taking only the
/// sequences' move speed and rarity from it, by name). Held typed only: it does not travel
/// through glTF (a model back from glTF is written from the model).
#[derive(Debug, Clone, PartialEq)]
pub struct MdxExtras {
    /// The file as read.
    pub file: MdxFile,
}

/// The extras' operations (no JSON form).
static EXTRAS_OPS: ExtrasOps = relic_core::extras_ops!(MdxExtras);

/// `file` as the model's extras.
pub(crate) fn attach(model: &mut Model, file: MdxFile) {
    model.extras = Some(FormatExtras::new(crate::FORMAT, MdxExtras { file }, &EXTRAS_OPS));
}

/// The MDX kept with the model, if it holds one.
pub(crate) fn of(model: &Model) -> Option<&MdxFile> {
    model.extras.as_ref().filter(|e| e.format() == crate::FORMAT).and_then(|e| e.get::<MdxExtras>()).map(|e| &e.file)
}
