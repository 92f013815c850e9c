#![doc = include_str!("../README.md")]

mod entry;
pub mod extras;
pub mod file;
mod from_ir;
mod identify;
pub mod quantize;
mod to_ir;
mod turn;
#[cfg(feature = "verify")]
pub mod verify;

pub use entry::ENTRY;
pub use file::LtbFile;

use relic_core::format::{Content, Detected};
use relic_core::{Converted, Info, Model, ReadError, ReadErrorKind, WriteError, WriteOptions};
use relic_lithtech::lzma;

/// LithTech LTB, as named in [`relic_core::model::SourceInfo`] and the format registry.
pub const FORMAT: relic_core::FormatId = relic_core::FormatId::new("ltb");

/// Recognises an LTB model by its bytes (a wrapped one by the first 24 bytes of its payload), in
/// any model version ([`read`] refuses those outside 23–25, naming the version). Files named
/// `.ltb` that are not PC models (PS2 and Xbox models, render styles, lone render objects,
/// LithTech worlds renamed `.ltb`) are not models: [`not_a_model`] names them, and a folder
/// conversion skips them as it skips every file that is not a model.
pub fn detect(bytes: &[u8]) -> Option<Detected> {
    match identify::what(bytes)? {
        identify::What::Model(v) => Some(Detected::new(FORMAT, v, Content::Model)),
        identify::What::Other { .. } => None,
    }
}

/// What a file in LTB's container is when it is not a PC model (`a LithTech world file (world
/// version 66), not a model`), for messages; `None` for models and other files.
pub fn not_a_model(bytes: &[u8]) -> Option<String> {
    match identify::what(bytes)? {
        identify::What::Other { what, .. } => Some(what),
        identify::What::Model(_) => None,
    }
}

/// Parses a file (unwrapping CrossFire's LZMA wrapper) and checks its cross-references: the file
/// layer, every byte kept.
pub fn read(bytes: &[u8]) -> Result<LtbFile, ReadError> {
    if let Some(e) = identify::what(bytes).as_ref().and_then(identify::refusal) {
        return Err(e);
    }
    let (payload, wrapper) = if lzma::is_wrapped(bytes) {
        let (payload, wrapper) = lzma::unwrap(bytes, &lzma::Limits::default())?;
        (std::borrow::Cow::Owned(payload), Some(wrapper))
    } else {
        (std::borrow::Cow::Borrowed(bytes), None)
    };
    match identify::what(&payload) {
        Some(what) => {
            if let Some(e) = identify::refusal(&what) {
                return Err(e);
            }
        }
        None => {
            let found = format!("{:02x?}", payload.get(..4).unwrap_or(&payload));
            let expected = "01 00 09 00 (a PC LTB model) or an LZMA-alone stream of one".to_string();
            return Err(ReadError::new(0, ReadErrorKind::BadMagic { found, expected }));
        }
    }
    let (mut file, offsets) = file::read_payload(&payload)?;
    file::validate::node_references(&file, &offsets)?;
    file.wrapper = wrapper;
    Ok(file)
}

/// The format's own counts as the file states them (`relic info`): `lzma_wrapped` (1 for
/// CrossFire's wrapper), the fifteen header counts (`keyframes`, `animations`, `nodes`, `pieces`,
/// `child_models` with the model itself, `triangles`, `source_vertices` and `source_weights` of
/// the source model, `lods` over all pieces, `sockets`, `weight_sets`, `strings`,
/// `string_bytes`, `vertex_animation_bytes`, `animation_bytes`), then `render_vertices` (over all
/// render objects), `bone_sets`, `obbs`, `radius` and `command`.
pub fn info(bytes: &[u8]) -> Result<Info, ReadError> {
    read(bytes).map(|file| file_info(&file))
}

/// A file's counts ([`info`]).
fn file_info(file: &LtbFile) -> Info {
    let c = &file.header.counts;
    let lods = || file.pieces.iter().flat_map(|p| &p.lods);
    let bone_sets: usize = lods()
        .map(|l| match &l.object {
            file::RenderObject::Skeletal(m) => m.bone_sets.len(),
            _ => 0,
        })
        .sum();
    let mut info = Info::new(FORMAT, file.version());
    info.count("lzma_wrapped", u32::from(file.wrapper.is_some()))
        .count("keyframes", c.keyframe_count)
        .count("animations", c.animation_count)
        .count("nodes", c.node_count)
        .count("pieces", c.piece_count)
        .count("child_models", c.child_model_count)
        .count("triangles", c.triangle_count)
        .count("source_vertices", c.vertex_count)
        .count("source_weights", c.vertex_weight_count)
        .count("lods", c.lod_count)
        .count("sockets", c.socket_count)
        .count("weight_sets", c.weight_set_count)
        .count("strings", c.string_count)
        .count("string_bytes", c.string_length_total)
        .count("vertex_animation_bytes", c.vert_anim_data_size)
        .count("animation_bytes", c.anim_data_size)
        .count("render_vertices", lods().map(|l| u64::from(l.object.vertex_count())).sum::<u64>())
        .count("bone_sets", bone_sets)
        .count("obbs", file.header.obbs.len())
        .number("radius", f64::from(file.header.radius))
        .text("command", file.header.command_string.to_text());
    info
}

/// Writes a file; `write(&read(b)?)? == b` for every file `read` accepts. A wrapped file whose
/// payload is unchanged gets its original bytes; a changed one a new LZMA stream.
pub fn write(file: &LtbFile) -> Result<Vec<u8>, WriteError> {
    let payload = file::write_payload(file)?;
    match &file.wrapper {
        Some(w) => lzma::wrap(&payload, Some(w)),
        None => Ok(payload),
    }
}

/// File → common model (frame, winding, times and weights as `to_ir`'s module documentation
/// says; what the model does not describe travels in [`extras::LtbExtras`]).
/// Every file `read` accepts maps; a file built or changed in code that breaks a rule the reader
/// checks (a LOD without its distance, a stream shorter than the vertex count, a palette index
/// past the re-index list, ...) is refused with the field, as `write` refuses it: the mapping
/// relies on those rules and would otherwise fill zeros in.
pub fn to_ir(file: &LtbFile) -> Result<Model, ReadError> {
    if let Some(why) = file.write_problem() {
        return Err(ReadError::invalid(0, "LtbFile", format!("not a file the reader accepts: {why}")));
    }
    Ok(to_ir::to_ir(file))
}

/// `to_ir(&read(bytes)?)`: parses a file and maps it to the common model.
pub fn read_model(bytes: &[u8]) -> Result<Model, ReadError> {
    Ok(to_ir::to_ir_owned(read(bytes)?))
}

/// [`read_model`] with notes on what the model does not show (render objects of unknown types,
/// vertex colours, UV sets past the second, basis vectors: kept in the extras).
pub fn read_model_noted(bytes: &[u8]) -> Result<Converted<Model>, ReadError> {
    read_model_with_info(bytes).map(|(model, _)| model)
}

/// [`read_model_noted`] and [`info`] from one parse (and one LZMA decode): the facade records the
/// counts as the model's original without reading the file again.
pub fn read_model_with_info(bytes: &[u8]) -> Result<(Converted<Model>, Info), ReadError> {
    let file = read(bytes)?;
    let info = file_info(&file);
    Ok((Converted { losses: to_ir::notes(&file), value: to_ir::to_ir_owned(file) }, info))
}

/// The model version written when none is asked for and the model came from no LTB file: 25,
/// the engine's `MODEL_FILE_VERSION` and what its packer always writes (specs/ltb.md).
pub(crate) const DEFAULT_VERSION: u32 = 25;

/// Common model → file, version from `options` (23–25; default the version the model came from,
/// else 25). Losses say what the file could not hold.
pub fn from_ir(model: &Model, options: &WriteOptions) -> Result<Converted<LtbFile>, WriteError> {
    let mut converted = from_ir::from_ir(model, options)?;
    converted.losses.extend(model.emitters_not_held("LTB"));
    converted.losses.extend(model.scene_not_held("LTB holds none"));
    Ok(converted)
}

/// `write(&from_ir(model, options)?)`: maps a model to LTB and writes it. A payload that would
/// compress past the ratio relic's reader takes for a decompression bomb is written without the
/// LZMA wrapper (CrossFire loads plain LTB files too), with a note.
pub fn write_model(model: &Model, options: &WriteOptions) -> Result<Converted<Vec<u8>>, WriteError> {
    let Converted { value: file, mut losses } = from_ir(model, options)?;
    let payload = file::write_payload(&file)?;
    let bytes = match &file.wrapper {
        None => payload,
        Some(w) => match lzma::wrap(&payload, Some(w)) {
            Ok(bytes) => bytes,
            Err(why) => {
                losses.push(relic_core::Loss::new("LZMA wrapper", format!("written without it: {why}")));
                payload
            }
        },
    };
    Ok(Converted { value: bytes, losses })
}
