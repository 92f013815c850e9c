#![doc = include_str!("../README.md")]
//!
//! ## Layout of the crate
//!
//! | module | holds |
//! |---|---|
//! | [`file`](mod@file) | the binrw types of every chunk and record, fields in file order |
//! | [`mdl`] | MDL text (version 800): written with floats as MdlxConv, Magos or shortest round trip print them, and read back |
//! | `to_ir` | file → common model (bones from every node, meshes, materials, clips) |
//! | `from_ir` | common model → file: the kept file while the model is unedited, else version 800 built from the model, with what it cannot hold as losses |
//! | [`extras`] | the file kept with the model read from it |
//! | `counts` | the counts `relic info` reports, under the names of the spec's probe |
//! | `verify` (feature `verify`) | the corpus checks `cargo xtask corpus` runs |

mod counts;
mod emitter_record;
mod entry;
pub mod extras;
pub mod file;
mod from_ir;
pub mod mdl;
mod to_ir;
#[cfg(feature = "verify")]
pub mod verify;

pub use emitter_record::{EmitterChunk, EmitterRecord};
pub use entry::{ENTRY, MDL_ENTRY};
pub use file::MdxFile;

use relic_core::format::{Content, Detected};
use relic_core::{Converted, Info, Model, ReadError, WriteError, WriteOptions};

/// Warcraft III MDX, as named in [`relic_core::model::SourceInfo`] and the format registry.
pub const FORMAT: relic_core::FormatId = relic_core::FormatId::new("mdx");

/// The version written when none is asked for: 800, the classic game's (every real file found
/// in public mirrors is 800).
pub(crate) const DEFAULT_VERSION: u32 = 800;

/// Recognises an MDX by its signature `MDLX` followed by a chunk header; the version is that of
/// the first `VERS` chunk (800 when the file has none).
pub fn detect(bytes: &[u8]) -> Option<Detected> {
    if !bytes.starts_with(&file::MAGIC) || bytes.len() < 12 {
        return None;
    }
    let version = file::scan_version(bytes).map_or(DEFAULT_VERSION, |(v, _)| v);
    Some(Detected::new(FORMAT, version, Content::Model))
}

/// Parses an MDX: every chunk to the end of the file, every record to its inclusive size. The
/// versions read are 800, 900, 1000, 1100 and 1200.
pub fn read(bytes: &[u8]) -> Result<MdxFile, ReadError> {
    file::parse_mdx(bytes)
}

/// Writes an MDX; `write(&read(b)?)? == b` for every file [`read`] accepts. Sizes and counts
/// are computed from the values; refuses a file whose version-dependent fields disagree with its
/// `VERS` (they would not read back).
pub fn write(file: &MdxFile) -> Result<Vec<u8>, WriteError> {
    counts::check_version_fields(file)?;
    file.to_bytes()
}

/// The format's own counts (`relic info`), under the names of the spec's probe
/// (`mdx_probe.py`): `sequences`, `global_sequences`, `materials`, `layers`, `textures`,
/// `texture_animations`, `geosets`, `vertices`, `faces`, `face_indices`, `geoset_animations`,
/// `bones`, `lights`, `helpers`, `attachments`, `pivot_points`, `particle_emitters`,
/// `particle_emitters2`, `popcorn_emitters`, `ribbons`, `cameras`, `events`,
/// `collision_shapes`, `face_fx`, `bind_pose_matrices`, `uv_sets`, `tracks`, `event_keys`; then
/// the chunk order and the unknown chunks by tag.
pub fn info(bytes: &[u8]) -> Result<Info, ReadError> {
    Ok(counts::info(&read(bytes)?))
}

pub use to_ir::WARCRAFT;

/// File → common model (see the `to_ir` notes in the crate's layout): bones from every node,
/// meshes, materials, clips; the file kept as the model's extras ([`extras::MdxExtras`], so that
/// [`from_ir`] writes it back unchanged while the model is). PREM, PRE2 and RIBB are the model's
/// emitters, each with its record ([`EmitterRecord`]); lights, cameras and collision shapes the
/// model's too; geoset, layer and texture animations its tints and UV animations. PopcornFX
/// emitters are not mapped
/// ([`read_model_with_losses`] lists them).
pub fn to_ir(file: &MdxFile) -> Result<Model, ReadError> {
    let mut model = to_ir::to_ir(file)?.value;
    extras::attach(&mut model, file.clone());
    Ok(model)
}

/// Common model → file (version 800; see `from_ir` in the crate's layout): the file the model
/// was read from while the model is unedited, else a file built from the model, with what MDX
/// cannot hold (skin weights beyond equal shares, …) as losses; emitters are written as their
/// MDX records, or built as PRE2 and RIBB from the model.
pub fn from_ir(model: &Model, options: &WriteOptions) -> Result<Converted<MdxFile>, WriteError> {
    from_ir::from_ir(model, options)
}

/// `to_ir(&read(bytes)?)`.
pub fn read_model(bytes: &[u8]) -> Result<Model, ReadError> {
    read_model_with_losses(bytes).map(|c| c.value)
}

/// [`read_model`], with what the model could not hold as losses.
pub fn read_model_with_losses(bytes: &[u8]) -> Result<Converted<Model>, ReadError> {
    let file = read(bytes)?;
    let mut model = to_ir::to_ir(&file)?;
    extras::attach(&mut model.value, file);
    Ok(model)
}

/// [`read_model_with_losses`] and [`info`] from one parse.
pub fn read_model_with_info(bytes: &[u8]) -> Result<(Converted<Model>, Info), ReadError> {
    model_and_info(read(bytes)?)
}

/// The model of a parsed file, the file kept in its extras, and the file's counts.
fn model_and_info(file: MdxFile) -> Result<(Converted<Model>, Info), ReadError> {
    let info = counts::info(&file);
    let mut model = to_ir::to_ir(&file)?;
    extras::attach(&mut model.value, file);
    Ok((model, info))
}

/// `write(&from_ir(model)?)`.
pub fn write_model(model: &Model, options: &WriteOptions) -> Result<Converted<Vec<u8>>, WriteError> {
    let Converted { value, losses } = from_ir(model, options)?;
    Ok(Converted { value: write(&value)?, losses })
}

/// An MDL's counts: [`info`]'s of the file its text describes ([`mdl::read`]).
pub fn mdl_info(bytes: &[u8]) -> Result<Info, ReadError> {
    Ok(Info { format: mdl::FORMAT, ..counts::info(&mdl::read(bytes)?) })
}

/// Whether a model was read from Warcraft III's files, MDX or MDL (its materials name their
/// replaceable textures as the game does).
pub(crate) fn from_warcraft(model: &Model) -> bool {
    model.source.is_some_and(|s| s.format == FORMAT || s.format == mdl::FORMAT)
}

/// MDL text → common model, and [`mdl_info`]: the file the text describes, as [`to_ir`] maps it
/// (kept in the model's extras, so that the model written as MDX is that file while unedited).
pub fn read_mdl_model_with_info(bytes: &[u8]) -> Result<(Converted<Model>, Info), ReadError> {
    let (mut model, info) = model_and_info(mdl::read(bytes)?)?;
    // Read from MDL: written back as MDL when no other format is asked for.
    model.value.source = Some(relic_core::model::SourceInfo { format: mdl::FORMAT, version: info.version });
    Ok((model, Info { format: mdl::FORMAT, ..info }))
}

/// Common model → MDL text (version 800): [`from_ir`] at version 800 (a model read from a Reforged
/// file is built again from the model, with a note), printed by [`mdl::write`].
pub fn write_mdl_model(model: &Model, options: &WriteOptions) -> Result<Converted<Vec<u8>>, WriteError> {
    let options = WriteOptions { version: Some(options.version.unwrap_or(DEFAULT_VERSION)) };
    let Converted { value, mut losses } = from_ir(model, &options)?;
    let text = mdl::write(&value)?;
    losses.extend(text.losses);
    Ok(Converted { value: text.value, losses })
}
