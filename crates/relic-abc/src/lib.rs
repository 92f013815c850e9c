//! relic-abc: LithTech ABC models — read, write byte-identically, map to and from the common model.
//!
//! | version | games | sections (in file order) |
//! |---|---|---|
//! | 6 ("MonolithExport Model File v6") | Shogo, Blood 2, KISS Psycho Circus | `Header`, `Geometry`, `Nodes`, `Animation`, `AnimDims`?, `TransformInfo`? |
//! | 9, 10, 11 | early LithTech 2.0 builds | `Header`, `Pieces`, `Nodes`, `ChildModels`, `Animation`, `Sockets`, `AnimBindings` (no `Piece::lod_weight` in v9, no `interpolation_time` before v12) |
//! | 12 | No One Lives Forever, Aliens vs Predator 2 | as 9–11 |
//! | 13 | a later LithTech 2.x title | as 12, plus a header word, a per-node track prefix and 8 bytes per key |
//! | 106–108 | Global Operations | refused with an error naming the version |
//!
//! Every section is a binrw type in [`v6`] and [`v12`] (one struct per record, fields in file
//! order); sections are walked by their next-offset and unknown sections are kept. Large arrays
//! (vertices, faces, keys) are read in bulk. [`write()`] gives back the same bytes for every file
//! [`parse()`] accepts; header counts are recomputed from the data ([`counts`]).
//!
//! [`to_ir::to_ir`] and [`from_ir::from_ir`] map to and from [`relic_core::Model`]; what the model does
//! not describe travels in [`extras::AbcExtras`]. [`checks::corpus_checks`] runs the real-data
//! proofs (weights reproduce the vertices, v6 keyframe boxes).
//!
//! ```no_run
//! let bytes = std::fs::read("PARTNER_DANCIN.ABC")?;
//! let model = relic_abc::read_model(&bytes)?;
//! println!("{} bones, {} meshes", model.bones.len(), model.meshes.len());
//! let out = relic_abc::write_model(&model, &relic_core::WriteOptions { version: Some(6) })?;
//! for loss in &out.losses {
//!     println!("not kept: {loss}");
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod checks;
pub mod common;
pub mod counts;
mod entry;
pub mod extras;
pub mod file;
pub mod from_ir;
mod from_ir_v12;
mod from_ir_v6;
pub mod proofs;
pub mod shape;
pub mod to_ir;
pub mod v12;
pub mod v6;

pub use entry::ENTRY;
pub use file::{AbcFile, parse, write};

/// LithTech ABC, as named in [`relic_core::model::SourceInfo`] and the format registry.
pub const FORMAT: relic_core::FormatId = relic_core::FormatId::new("abc");

use relic_core::format::{Content, Detected};
use relic_core::{Converted, Info, Model, ReadError, WriteError, WriteOptions};

/// Recognises the format by its bytes (`06 00 "Header"`, then the v6 token or a version number);
/// `None` if this is not a LithTech ABC file.
pub fn detect(bytes: &[u8]) -> Option<Detected> {
    let version = match file::family(bytes)? {
        file::Family::V6 => 6,
        file::Family::Numbered(v) => v,
    };
    Some(Detected::new(FORMAT, version, Content::Model))
}

/// The format's own counts as the file states them.
///
/// v9–v13: `nodes`, `pieces`, `lods`, `vertices` and `faces` (all LODs), `weights`, `animations`,
/// `keyframes` (own animations), `child_models` (including this file), `sockets`, `weight_sets`
/// (from the header), then the LOD distances count and radius. v6: `nodes`, `vertices`, `faces`,
/// `animations`, `keyframes`, `lods`, `md_vertices`.
pub fn info(bytes: &[u8]) -> Result<Info, ReadError> {
    let file = parse(bytes)?;
    let mut info = Info::new(crate::FORMAT, file.version());
    match &file {
        AbcFile::V12(f) => {
            let h = &f.header;
            info.count("nodes", h.node_count)
                .count("pieces", h.piece_count)
                .count("lods", h.lod_count)
                .count("vertices", h.vertex_count)
                .count("faces", h.face_count)
                .count("weights", h.weight_count)
                .count("animations", h.animation_count)
                .count("keyframes", h.keyframe_count)
                .count("child_models", h.child_model_count)
                .count("sockets", h.socket_count)
                .count("weight_sets", h.weight_set_count)
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
    Ok(info)
}

/// Parses a file and maps it to the common model.
pub fn read_model(bytes: &[u8]) -> Result<Model, ReadError> {
    to_ir::to_ir(&parse(bytes)?)
}

/// Maps a model to ABC (version from `options`: 6, or 9–13; default the source version when the
/// model came from ABC, else 12) and writes it. Losses say what the target could not hold.
pub fn write_model(model: &Model, options: &WriteOptions) -> Result<Converted<Vec<u8>>, WriteError> {
    let converted = from_ir::from_ir(model, options)?;
    let bytes = write(&converted.value)?;
    Ok(Converted { value: bytes, losses: converted.losses })
}
