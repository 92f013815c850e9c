#![doc = include_str!("../README.md")]

mod entry;
pub mod extras;
pub mod file;
pub mod frame;
mod from_ir;
mod to_ir;
mod validate;
#[cfg(feature = "verify")]
pub mod verify;

pub use entry::ENTRY;
pub use file::AbcFile;

use relic_core::format::{Content, Detected};
use relic_core::{Converted, Info, Model, ReadError, ReadErrorKind, WriteError, WriteOptions};

/// LithTech ABC, as named in [`relic_core::model::SourceInfo`] and the format registry.
pub const FORMAT: relic_core::FormatId = relic_core::FormatId::new("abc");

/// The version written when the caller names none and the model did not come from ABC (the
/// registry's `default_write`): 12, the version of No One Lives Forever and AvP2.
pub(crate) const DEFAULT_VERSION: u32 = 12;

/// Recognises the format by its bytes (`06 00 "Header"`, then the v6 token or a version number);
/// `None` if this is not a LithTech ABC file. Versions relic does not read are recognised too
/// ([`read`] refuses them, naming the version).
pub fn detect(bytes: &[u8]) -> Option<Detected> {
    let version = match file::family(bytes)? {
        file::Family::V6 => 6,
        file::Family::Numbered(v) => v,
    };
    Some(Detected::new(FORMAT, version, Content::Model))
}

/// Parses a file and checks its cross-references: the file layer, every byte kept.
pub fn read(bytes: &[u8]) -> Result<AbcFile, ReadError> {
    match file::family(bytes) {
        Some(file::Family::V6) => {
            let (f, bodies) = file::v6::read(bytes)?;
            validate::v6_read(&f, bodies)?;
            Ok(AbcFile::V6(f))
        }
        Some(file::Family::Numbered(version)) => match file::refusal(version) {
            None => {
                let (f, bodies) = file::v12::read(bytes)?;
                validate::v12_read(&f, bodies)?;
                Ok(AbcFile::V12(f))
            }
            Some(reason) => {
                Err(ReadError::at(12, "Header.version", ReadErrorKind::UnsupportedVersion { version, reason }))
            }
        },
        None => Err(ReadError::new(
            0,
            ReadErrorKind::BadMagic {
                found: format!("{:02x?}", bytes.iter().take(8).collect::<Vec<_>>()),
                expected: "06 00 \"Header\" (a LithTech ABC section header)".into(),
            },
        )),
    }
}

/// Writes a file; `write(&read(b)?)? == b` for every file `read` accepts. Counts and
/// next-offsets are recomputed from the data; a struct that would not read back as itself is
/// refused with the field that breaks it.
pub fn write(file: &AbcFile) -> Result<Vec<u8>, WriteError> {
    match file {
        AbcFile::V6(f) => {
            validate::v6_write(f)?;
            file::v6::write(f)
        }
        AbcFile::V12(f) => {
            validate::v12_write(f)?;
            file::v12::write(f)
        }
    }
}

/// File → common model (frame, winding and times as `to_ir`'s module documentation says; what
/// the model does not describe travels in [`extras::AbcExtras`]).
pub fn to_ir(file: &AbcFile) -> Result<Model, ReadError> {
    to_ir::to_ir(file)
}

/// Common model → file, version from `options` (6 or 9–13; default the source version when the
/// model came from ABC, else 12). Losses say what the file could not hold.
pub fn from_ir(model: &Model, options: &WriteOptions) -> Result<Converted<AbcFile>, WriteError> {
    let mut converted = from_ir::from_ir(model, options)?;
    converted.losses.extend(model.emitters_not_held("ABC"));
    converted.losses.extend(model.scene_not_held("ABC holds none"));
    Ok(converted)
}

/// The format's own counts as the file states them.
///
/// v9–v13: `nodes`, `pieces`, `lods`, `vertices` and `faces` (all LODs), `weights`, `animations`,
/// `keyframes` (own animations), `child_models` (including this file), `sockets`, `weight_sets`
/// (from the header), then the LOD distances count and radius. v6: `nodes`, `vertices`, `faces`,
/// `animations`, `keyframes`, `lods`, `md_vertices`.
pub fn info(bytes: &[u8]) -> Result<Info, ReadError> {
    read(bytes).map(|file| file_info(&file))
}

/// A file's counts ([`info`]).
fn file_info(file: &AbcFile) -> Info {
    let mut info = Info::new(FORMAT, file.version());
    match file {
        AbcFile::V12(f) => {
            let h = &f.header;
            info.count("nodes", h.counts.node_count)
                .count("pieces", h.counts.piece_count)
                .count("lods", h.counts.lod_count)
                .count("vertices", h.counts.vertex_count)
                .count("faces", h.counts.face_count)
                .count("weights", h.counts.weight_count)
                .count("animations", h.counts.animation_count)
                .count("keyframes", h.counts.keyframe_count)
                .count("child_models", h.counts.child_model_count)
                .count("sockets", h.counts.socket_count)
                .count("weight_sets", h.counts.weight_set_count)
                .count("lod_distances", h.lod_distances.len())
                .number("radius", f64::from(h.internal_radius));
        }
        AbcFile::V6(f) => {
            let anims = &f.animations.animations;
            info.count("nodes", f.nodes.nodes.len())
                .count("vertices", f.geometry.vertices.len())
                .count("faces", f.geometry.triangles.len())
                .count("animations", anims.len())
                .count("keyframes", anims.iter().map(|a| a.keyframes.len()).sum::<usize>())
                .count("lods", f.geometry.vertex_start_num.len())
                .count("md_vertices", f.nodes.nodes.iter().map(|n| n.md_vertices.len()).sum::<usize>());
        }
    }
    info
}

/// `to_ir(&read(bytes)?)`: parses a file and maps it to the common model.
pub fn read_model(bytes: &[u8]) -> Result<Model, ReadError> {
    to_ir(&read(bytes)?)
}

/// [`read_model`] and [`info`] from one parse (the facade records the counts as the model's
/// original without reading the file again).
pub fn read_model_with_info(bytes: &[u8]) -> Result<(Model, Info), ReadError> {
    let file = read(bytes)?;
    Ok((to_ir(&file)?, file_info(&file)))
}

/// `write(&from_ir(model, options)?)`: maps a model to ABC and writes it.
pub fn write_model(model: &Model, options: &WriteOptions) -> Result<Converted<Vec<u8>>, WriteError> {
    let converted = from_ir(model, options)?;
    let bytes = write(&converted.value)?;
    Ok(Converted { value: bytes, losses: converted.losses })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_relic_does_not_read_and_foreign_bytes_are_refused() {
        let err = read(&[0x06, 0, b'H', b'e', b'a', b'd', b'e', b'r', 0, 0, 0, 0, 108, 0, 0, 0]).unwrap_err();
        assert!(matches!(err.kind, ReadErrorKind::UnsupportedVersion { version: 108, .. }));
        assert_eq!(read(b"not an abc").unwrap_err().offset, 0);
    }
}
