//! The file layer: one binrw type per record, fields in file order, reading and writing derived
//! from the same types (spec §2 and §4).
//!
//! | file | version | sections | types |
//! |---|---|---|---|
//! | `.nod` model | 7 (VtMR 1.1) | header · materials `char[32]` · counts · bones (66 B) · mesh names `char[32]` · vertices (40 B) · LOD collapse table (`u16`, iff HASLOD) · faces (`u16[3]`) · mesh groups (28 B) | [`NodFile`], [`NodBone`], [`NodVertex`], [`NodGroup`] |
//! | `.nad` animation | 3 | header · bone tracks (rotation / translation / scale, 56-byte cubic keys) · tags | [`NadFile`], [`NadTrack`], [`NadKey`], [`NadTag`] |
//!
//! Both are little-endian and packed; other versions are refused. Counts are not stored in the
//! types: they are computed from the arrays on write (`#[bw(calc)]`) and checked against the bytes
//! left before anything is allocated on read. Vertices, faces, the LOD table, keys and tags are
//! plain records read and written in bulk ([`relic_core::binary::pod_vec`]).
//!
//! Parsing checks only what the layout itself needs (versions, the exact-size rule, counts,
//! track types); the cross-references (parents, indices, ranges) are checked by
//! `crate::validate` before a file is handed out.

mod bones;
mod groups;
mod meshes;
mod nad;
mod nod;
mod tracks;

pub use bones::{BONE_SIZE, NodBone};
pub use groups::{GROUP_SIZE, NodGroup};
pub use meshes::{FACE_SIZE, LOD_ENTRY_SIZE, NodVertex, VERTEX_SIZE};
pub use nad::{HEADER_SIZE, NadFile, NadTag, TAG_NAMES, TAG_SIZE};
pub use nod::{COUNTS_SIZE, Layout, NAME_SIZE, NodFile};
pub use tracks::{KEY_SIZE, NadKey, NadTrack, TRACK_HEADER_SIZE, TRACK_ROTATION, TRACK_SCALE, TRACK_TRANSLATION};

pub(crate) use nad::{parse_nad, peek_nad, tag_name, tag_type};
pub(crate) use nod::{parse_nod, peek_nod};

/// A NUL-padded `char[32]` (material and mesh names). Bytes after the NUL are kept as stored.
pub type Name = relic_core::binary::FixedString<32>;

/// Writes a `Vec` of plain records in one copy (the writer of the bulk-read arrays).
use relic_core::binary::write_pod_field as write_slice;
