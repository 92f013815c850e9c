//! A model written in each game format of the registry (the formats whose files are a game's own,
//! `ModelCodec::records_original`) at the format's default version and read back by the same
//! format: that every writer's output reads, for models that came back from Blender
//! (`blender-check`) or from another format (`gltf-validate`'s cross-format exports).

use relic::FormatEntry;
use relic_core::format::{Input, SiblingBytes};
use relic_core::{Model, WriteError, WriteOptions};

/// The game formats of the registry, in its order.
pub fn formats() -> impl Iterator<Item = &'static FormatEntry> {
    relic::Registry::builtin().formats().to_vec().into_iter().filter(|f| f.model.is_some_and(|m| m.records_original))
}

/// What came of writing a model in one format and reading it back.
pub enum Outcome {
    /// Written (this many bytes, siblings included) and read back as this model.
    Read(usize, Box<Model>),
    /// The writer refused what the format cannot hold (64 NOD bones, 16-bit ABC indices): a typed
    /// refusal, not a failure.
    Refused(String),
}

/// `model` written as `entry` with its default options, and read back by `entry` (the files
/// written beside it given as its siblings). `Err` when the writer fails otherwise or the reader
/// refuses the writer's output.
pub fn write_and_read(entry: &FormatEntry, model: &Model) -> Result<Outcome, String> {
    let name = entry.name;
    let codec = entry.model.ok_or_else(|| format!("{name} holds no models"))?;
    let written = match (codec.write)(model, &WriteOptions::default(), &relic_core::format::Output::named("model")) {
        Ok(w) => w.value,
        Err(e @ (WriteError::DoesNotFit { .. } | WriteError::Unsupported(_))) => {
            return Ok(Outcome::Refused(e.to_string()));
        }
        Err(e) => return Err(format!("{name} writer: {e}")),
    };
    let size = written.bytes.len() + written.siblings.iter().map(|s| s.bytes.len()).sum::<usize>();
    let siblings =
        SiblingBytes(written.siblings.into_iter().map(|s| (format!("model{}", s.suffix), s.bytes)).collect());
    let file = format!("model.{name}");
    let input = Input { bytes: &written.bytes, name: &file, siblings: &siblings };
    let back = (codec.read)(&input).map_err(|e| format!("{name} reader on the {name} writer's output: {e}"))?;
    Ok(Outcome::Read(size, Box::new(back.value)))
}
