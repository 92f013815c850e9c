//! What the common model does not hold of an MDX: the file itself, kept with the model it was
//! mapped to so that the same model written back as MDX gives the same bytes.

use std::borrow::Cow;

use relic_core::Model;
use relic_core::model::{ExtrasOps, FormatExtras};

use crate::file::MdxFile;

/// The MDX a model was read from. [`crate::from_ir()`] writes it back as it is while the model
/// is still the one it maps to (exactly, or within the float noise of a tool that rewrote it:
/// Blender), and builds the file from the model otherwise (taking only the sequences' move
/// speed and rarity from it, by name). Its JSON form (glTF extras) is the file's bytes, base64.
#[derive(Debug, Clone, PartialEq)]
pub struct MdxExtras {
    /// The file as read.
    pub file: MdxFile,
}

/// The JSON form: the file's bytes.
#[derive(serde::Serialize, serde::Deserialize)]
struct Json {
    /// The file as read, base64.
    file: String,
}

fn to_json(e: &MdxExtras) -> String {
    // A file that was read (or decoded from these extras) writes: never the empty default.
    let bytes = e.file.to_bytes().unwrap_or_default();
    // Serializing fails only on a map with other keys than strings; there is none.
    serde_json::to_string(&Json { file: relic_core::base64::encode(&bytes) }).unwrap_or_default()
}

fn from_json(text: &str) -> Result<MdxExtras, String> {
    let json: Json = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let bytes = relic_core::base64::decode(json.file.as_bytes()).ok_or("the file is not base64")?;
    let file = crate::read(&bytes).map_err(|e| format!("the stored file does not read: {e}"))?;
    Ok(MdxExtras { file })
}

/// The extras' operations.
static EXTRAS_OPS: ExtrasOps = relic_core::extras_ops!(MdxExtras, to_json);

/// `file` as the model's extras.
pub(crate) fn attach(model: &mut Model, file: MdxFile) {
    model.extras = Some(FormatExtras::new(crate::FORMAT, MdxExtras { file }, &EXTRAS_OPS));
}

/// The MDX kept with the model (typed, or decoded from its JSON); `Err` says why extras of this
/// format could not be decoded.
pub(crate) fn of(model: &Model) -> Result<Option<Cow<'_, MdxFile>>, String> {
    let Some(extras) = model.extras.as_ref().filter(|e| e.format() == crate::FORMAT) else { return Ok(None) };
    Ok(extras.typed_or_decoded(from_json).transpose()?.map(|e| match e {
        Cow::Borrowed(e) => Cow::Borrowed(&e.file),
        Cow::Owned(e) => Cow::Owned(e.file),
    }))
}
