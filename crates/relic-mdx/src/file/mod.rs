//! The file layer: one binrw type per record, fields in file order, reading and writing derived
//! from the same types (spec §2–§4).
//!
//! ```text
//! "MDLX" · chunk*        chunk := tag:[u8;4] · size:u32 (the payload's, header excluded) · payload
//! ```
//!
//! | chunk | payload | types |
//! |---|---|---|
//! | VERS | `u32` version | [`Chunk::Version`] |
//! | MODL | 372 bytes | [`ModelInfo`] |
//! | SEQS, TEXS, FAFX, GLBS, PIVT | fixed-size records to the chunk's end | [`Sequence`], [`Texture`], [`FaceFx`], `u32`, `[f32; 3]` |
//! | MTLS, TXAN, GEOS, GEOA, LITE, ATCH, PREM, PRE2, CORN, RIBB, CAMS | inclusive-sized records | [`Material`] ([`Layer`]), [`TextureAnim`], [`Geoset`], [`GeosetAnim`], [`Light`], [`Attachment`], [`ParticleEmitter`], [`ParticleEmitter2`], [`PopcornEmitter`], [`RibbonEmitter`], [`Camera`] |
//! | BONE, HELP, EVTS, CLID | records that start with their node's inclusive size | [`Bone`], [`Helper`], [`EventObject`], [`CollisionShape`] |
//! | BPOS | `u32` count + 3×4 matrices | [`BindPose`] |
//! | anything else (`INFO`, `SNEM`, `DILG`) | kept as bytes | [`Chunk::Unknown`] |
//!
//! The chunk list is kept as it is (order, duplicates, empty chunks, unknown chunks), every
//! fixed string as its raw bytes and every key in file order, so that `write(read(b)) == b`.
//! Inclusive sizes and counts are not stored: they are computed on write. Version differences
//! are `Option` fields read when the version (`Ctx::version`) has them.

mod emitters;
mod geoset;
pub(crate) mod io;
mod material;
mod model;
mod node;
mod track;

use std::io::{Read, Seek, SeekFrom};

use binrw::{BinRead, BinResult, BinWrite, Endian};
use relic_core::binary::{ByteWriter, FixedString, in_element, in_field, parse};
use relic_core::error::custom;
use relic_core::{ReadError, ReadErrorKind, WriteError};

pub use emitters::{ParticleEmitter, ParticleEmitter2, PopcornEmitter, RibbonEmitter};
pub use geoset::{Geoset, GeosetAnim, GeosetLod, HdSection, Skin, Tangents, UvSet};
pub use io::{Ctx, Tag};
pub use material::{Fresnel, Layer, Material, TEXTURE_SIZE, Texture, TextureAnim, TextureSlot, TextureSlots};
pub use model::{
    BindPose, Camera, EXTENT_SIZE, Extent, FACE_FX_SIZE, FaceFx, MODEL_INFO_SIZE, ModelInfo, SEQUENCE_SIZE, Sequence,
};
pub use node::{Attachment, Bone, CollisionShape, EventObject, EventTrack, Helper, Light, Node, Shape, node_flags};
pub use track::{BEZIER, DONT_INTERP, HERMITE, Key, Keys, LINEAR, Track, Value, ValueKind, value_kind};

use io::{fixed_until, records_until, sized_until, write_sized_vec, write_vec};

/// A NUL-padded `char[80]` (names, shader, LOD name); bytes after the NUL kept.
pub type Name = FixedString<80>;
/// A NUL-padded `char[260]` (paths).
pub type Path = FixedString<260>;

/// The file signature.
pub const MAGIC: [u8; 4] = *b"MDLX";
/// The versions read: 800 (Reign of Chaos, The Frozen Throne) and Reforged's 900, 1000, 1100
/// and 1200.
pub const VERSIONS: [u32; 5] = [800, 900, 1000, 1100, 1200];

/// A whole MDX file: its chunks in file order.
#[derive(Debug, Clone, PartialEq)]
pub struct MdxFile {
    /// Every chunk, in file order (duplicates, empty and unknown chunks included).
    pub chunks: Vec<Chunk>,
}

/// One top-level chunk.
#[derive(Debug, Clone, PartialEq)]
pub enum Chunk {
    /// VERS: the format version.
    Version(u32),
    /// MODL (boxed: 372 bytes beside the other chunks' vectors).
    Model(Box<ModelInfo>),
    /// SEQS.
    Sequences(Vec<Sequence>),
    /// GLBS: global sequence durations, milliseconds.
    GlobalSequences(Vec<u32>),
    /// MTLS.
    Materials(Vec<Material>),
    /// TEXS.
    Textures(Vec<Texture>),
    /// TXAN.
    TextureAnims(Vec<TextureAnim>),
    /// GEOS.
    Geosets(Vec<Geoset>),
    /// GEOA.
    GeosetAnims(Vec<GeosetAnim>),
    /// BONE.
    Bones(Vec<Bone>),
    /// LITE.
    Lights(Vec<Light>),
    /// HELP.
    Helpers(Vec<Helper>),
    /// ATCH.
    Attachments(Vec<Attachment>),
    /// PIVT: one pivot per node object id (real files sometimes have fewer).
    PivotPoints(Vec<[f32; 3]>),
    /// PREM.
    ParticleEmitters(Vec<ParticleEmitter>),
    /// PRE2.
    ParticleEmitters2(Vec<ParticleEmitter2>),
    /// CORN.
    PopcornEmitters(Vec<PopcornEmitter>),
    /// RIBB.
    RibbonEmitters(Vec<RibbonEmitter>),
    /// CAMS.
    Cameras(Vec<Camera>),
    /// EVTS.
    Events(Vec<EventObject>),
    /// CLID.
    CollisionShapes(Vec<CollisionShape>),
    /// FAFX.
    FaceFx(Vec<FaceFx>),
    /// BPOS.
    BindPose(BindPose),
    /// A chunk relic does not know (the game ignores them): its tag and payload, kept.
    Unknown {
        /// The tag.
        tag: Tag,
        /// The payload.
        data: Vec<u8>,
    },
}

impl Chunk {
    /// The chunk's tag.
    pub fn tag(&self) -> Tag {
        Tag(match self {
            Self::Version(_) => *b"VERS",
            Self::Model(_) => *b"MODL",
            Self::Sequences(_) => *b"SEQS",
            Self::GlobalSequences(_) => *b"GLBS",
            Self::Materials(_) => *b"MTLS",
            Self::Textures(_) => *b"TEXS",
            Self::TextureAnims(_) => *b"TXAN",
            Self::Geosets(_) => *b"GEOS",
            Self::GeosetAnims(_) => *b"GEOA",
            Self::Bones(_) => *b"BONE",
            Self::Lights(_) => *b"LITE",
            Self::Helpers(_) => *b"HELP",
            Self::Attachments(_) => *b"ATCH",
            Self::PivotPoints(_) => *b"PIVT",
            Self::ParticleEmitters(_) => *b"PREM",
            Self::ParticleEmitters2(_) => *b"PRE2",
            Self::PopcornEmitters(_) => *b"CORN",
            Self::RibbonEmitters(_) => *b"RIBB",
            Self::Cameras(_) => *b"CAMS",
            Self::Events(_) => *b"EVTS",
            Self::CollisionShapes(_) => *b"CLID",
            Self::FaceFx(_) => *b"FAFX",
            Self::BindPose(_) => *b"BPOS",
            Self::Unknown { tag, .. } => return *tag,
        })
    }

    /// Reads the payload of a chunk tagged `tag` that ends at `ctx.end`.
    fn read_payload<R: Read + Seek>(reader: &mut R, tag: Tag, ctx: Ctx) -> BinResult<Self> {
        let e = Endian::Little;
        Ok(match &tag.0 {
            b"VERS" => Self::Version(u32::read_options(reader, e, ())?),
            b"MODL" => Self::Model(Box::new(ModelInfo::read_options(reader, e, ())?)),
            b"SEQS" => Self::Sequences(fixed_until(reader, e, (ctx, SEQUENCE_SIZE))?),
            b"GLBS" => Self::GlobalSequences(fixed_until(reader, e, (ctx, 4))?),
            b"MTLS" => Self::Materials(sized_until(reader, e, ctx)?),
            b"TEXS" => Self::Textures(fixed_until(reader, e, (ctx, TEXTURE_SIZE))?),
            b"TXAN" => Self::TextureAnims(sized_until(reader, e, ctx)?),
            b"GEOS" => Self::Geosets(sized_until(reader, e, ctx)?),
            b"GEOA" => Self::GeosetAnims(sized_until(reader, e, ctx)?),
            b"BONE" => Self::Bones(records_until(reader, e, ctx)?),
            b"LITE" => Self::Lights(sized_until(reader, e, ctx)?),
            b"HELP" => Self::Helpers(records_until(reader, e, ctx)?),
            b"ATCH" => Self::Attachments(sized_until(reader, e, ctx)?),
            b"PIVT" => Self::PivotPoints(fixed_until(reader, e, (ctx, 12))?),
            b"PREM" => Self::ParticleEmitters(sized_until(reader, e, ctx)?),
            b"PRE2" => Self::ParticleEmitters2(sized_until(reader, e, ctx)?),
            b"CORN" => Self::PopcornEmitters(sized_until(reader, e, ctx)?),
            b"RIBB" => Self::RibbonEmitters(sized_until(reader, e, ctx)?),
            b"CAMS" => Self::Cameras(sized_until(reader, e, ctx)?),
            b"EVTS" => Self::Events(records_until(reader, e, ctx)?),
            b"CLID" => Self::CollisionShapes(records_until(reader, e, ctx)?),
            b"FAFX" => Self::FaceFx(fixed_until(reader, e, (ctx, FACE_FX_SIZE))?),
            b"BPOS" => Self::BindPose(BindPose::read_options(reader, e, ctx)?),
            _ => {
                let pos = reader.stream_position()?;
                Self::Unknown { tag, data: io::pod_within(reader, e, (ctx.end, ctx.end.saturating_sub(pos) as u32))? }
            }
        })
    }

    /// Writes the payload (without the chunk header).
    fn write_payload(&self, w: &mut ByteWriter) -> BinResult<()> {
        let e = Endian::Little;
        match self {
            Self::Version(v) => v.write_options(w, e, ()),
            Self::Model(m) => m.write_options(w, e, ()),
            Self::Sequences(v) => write_vec(v, w, e, ()),
            Self::GlobalSequences(v) => write_vec(v, w, e, ()),
            Self::Materials(v) => write_sized_vec(v, w, e, ()),
            Self::Textures(v) => write_vec(v, w, e, ()),
            Self::TextureAnims(v) => write_sized_vec(v, w, e, ()),
            Self::Geosets(v) => write_sized_vec(v, w, e, ()),
            Self::GeosetAnims(v) => write_sized_vec(v, w, e, ()),
            Self::Bones(v) => write_vec(v, w, e, ()),
            Self::Lights(v) => write_sized_vec(v, w, e, ()),
            Self::Helpers(v) => write_vec(v, w, e, ()),
            Self::Attachments(v) => write_sized_vec(v, w, e, ()),
            Self::PivotPoints(v) => write_vec(v, w, e, ()),
            Self::ParticleEmitters(v) => write_sized_vec(v, w, e, ()),
            Self::ParticleEmitters2(v) => write_sized_vec(v, w, e, ()),
            Self::PopcornEmitters(v) => write_sized_vec(v, w, e, ()),
            Self::RibbonEmitters(v) => write_sized_vec(v, w, e, ()),
            Self::Cameras(v) => write_sized_vec(v, w, e, ()),
            Self::Events(v) => write_vec(v, w, e, ()),
            Self::CollisionShapes(v) => write_vec(v, w, e, ()),
            Self::FaceFx(v) => write_vec(v, w, e, ()),
            Self::BindPose(b) => b.write_options(w, e, ()),
            Self::Unknown { data, .. } => {
                w.append(data);
                Ok(())
            }
        }
    }
}

impl MdxFile {
    /// The GEOA, layer and TXAN tracks, in file order.
    pub(crate) fn surface_tracks(&self) -> impl Iterator<Item = &Track> {
        self.chunks.iter().flat_map(|c| -> Box<dyn Iterator<Item = &Track> + '_> {
            match c {
                Chunk::GeosetAnims(v) => Box::new(v.iter().flat_map(|a| &a.tracks)),
                Chunk::TextureAnims(v) => Box::new(v.iter().flat_map(|a| &a.tracks)),
                Chunk::Materials(v) => Box::new(v.iter().flat_map(|m| &m.layers).flat_map(|l| &l.tracks)),
                _ => Box::new(std::iter::empty()),
            }
        })
    }

    /// The tracks of the records that are not nodes' own: the [`MdxFile::surface_tracks`], then
    /// the lights', cameras' and emitters' (PREM, PRE2, RIBB).
    pub(crate) fn record_tracks(&self) -> impl Iterator<Item = &Track> {
        let others = self.chunks.iter().flat_map(|c| -> Box<dyn Iterator<Item = &Track> + '_> {
            match c {
                Chunk::Lights(v) => Box::new(v.iter().flat_map(|l| &l.tracks)),
                Chunk::Cameras(v) => Box::new(v.iter().flat_map(|c| &c.tracks)),
                Chunk::ParticleEmitters(v) => Box::new(v.iter().flat_map(|e| &e.tracks)),
                Chunk::ParticleEmitters2(v) => Box::new(v.iter().flat_map(|e| &e.tracks)),
                Chunk::RibbonEmitters(v) => Box::new(v.iter().flat_map(|e| &e.tracks)),
                _ => Box::new(std::iter::empty()),
            }
        });
        self.surface_tracks().chain(others)
    }

    /// The version its first `VERS` chunk states (800 when it has none).
    pub fn version(&self) -> u32 {
        self.chunks
            .iter()
            .find_map(|c| match c {
                Chunk::Version(v) => Some(*v),
                _ => None,
            })
            .unwrap_or(DEFAULT_READ_VERSION)
    }

    /// The file's bytes: `MDLX`, then every chunk with its size computed.
    pub(crate) fn to_bytes(&self) -> Result<Vec<u8>, WriteError> {
        let mut out = ByteWriter::new();
        out.append(&MAGIC);
        for chunk in &self.chunks {
            let tag = chunk.tag();
            out.append(&tag.0);
            let slot = out.reserve_u32();
            let start = out.len();
            chunk.write_payload(&mut out).map_err(|e| WriteError::from_binrw(&e))?;
            let size = u32::try_from(out.len() - start).map_err(|_| WriteError::DoesNotFit {
                field: format!("{tag} chunk size"),
                value: (out.len() - start) as u64,
                ty: "u32",
            })?;
            out.patch_u32(slot, size);
        }
        Ok(out.into_bytes())
    }
}

/// The version assumed for a file without a `VERS` chunk.
const DEFAULT_READ_VERSION: u32 = 800;

/// The version of the first well-formed `VERS` chunk, found by walking the chunk headers (an
/// `INFO` chunk may come first), and where its value lies; `None` when there is none.
pub(crate) fn scan_version(bytes: &[u8]) -> Option<(u32, u64)> {
    let mut at = 4usize;
    loop {
        let header = bytes.get(at..at.checked_add(8)?)?;
        let (tag, size) = header.split_first_chunk::<4>()?;
        let size = u32::from_le_bytes(size.try_into().ok()?) as usize;
        if tag == b"VERS" && size >= 4 {
            let value = bytes.get(at + 8..at + 12)?;
            return Some((u32::from_le_bytes(value.try_into().ok()?), at as u64 + 8));
        }
        at = at.checked_add(8)?.checked_add(size)?;
    }
}

/// Parses a whole file: the signature, then chunks to the end.
pub(crate) fn parse_mdx(bytes: &[u8]) -> Result<MdxFile, ReadError> {
    let (version, version_at) = scan_version(bytes).unwrap_or((DEFAULT_READ_VERSION, 0));
    if !VERSIONS.contains(&version) {
        let reason = if version == 1300 {
            "Warcraft III 1300 is known from one source only, and World of Warcraft's alpha MDX also states 1300 \
             with another layout; relic-mdx reads 800, 900, 1000, 1100 and 1200"
        } else {
            "relic-mdx reads versions 800, 900, 1000, 1100 and 1200"
        };
        return Err(ReadError::at(
            version_at,
            "VERS.version",
            ReadErrorKind::UnsupportedVersion { version, reason: reason.into() },
        ));
    }
    parse(bytes, |r| read_chunks(r, version))
}

fn read_chunks<R: Read + Seek>(reader: &mut R, version: u32) -> BinResult<MdxFile> {
    let len = reader.seek(SeekFrom::End(0))?;
    reader.seek(SeekFrom::Start(0))?;
    let magic = <[u8; 4]>::read_options(reader, Endian::Little, ()).map_err(|e| in_field(e, "magic"))?;
    if magic != MAGIC {
        return Err(binrw::Error::BadMagic { pos: 0, found: Box::new(Tag(magic)) });
    }
    let mut chunks = Vec::new();
    loop {
        let at = reader.stream_position()?;
        if at >= len {
            break;
        }
        let index = chunks.len();
        let left = len - at;
        if left < 8 {
            return Err(in_element(
                custom(
                    at,
                    ReadErrorKind::Invalid(format!("{left} bytes after the last chunk, too few for a chunk header")),
                ),
                index,
            ));
        }
        let tag = Tag::read_options(reader, Endian::Little, ())?;
        if track::value_kind(tag.0).is_some() {
            // No chunk is named like a track: a tool wrote a record's track after the chunk
            // without counting it in the sizes (a light's KLAC after its LITE, seen in the wild).
            let before = chunks.last().map_or_else(|| "the header".to_string(), |c: &Chunk| c.tag().text());
            return Err(in_field(
                custom(
                    at,
                    ReadErrorKind::Invalid(format!(
                        "a {tag} track where a chunk should start: the {before} chunk before it does not count it in \
                         its size"
                    )),
                ),
                &tag.text(),
            ));
        }
        let size = u32::read_options(reader, Endian::Little, ())?;
        let start = at + 8;
        let end = start + u64::from(size);
        if end > len {
            return Err(in_field(
                custom(
                    at,
                    ReadErrorKind::Invalid(format!(
                        "{tag} chunk size {size} runs past the end of the file ({} bytes are left)",
                        len - start
                    )),
                ),
                &tag.text(),
            ));
        }
        let chunk = Chunk::read_payload(reader, tag, Ctx { version, end }).map_err(|e| in_field(e, &tag.text()))?;
        let after = reader.stream_position()?;
        if after != end {
            return Err(in_field(
                custom(
                    at,
                    ReadErrorKind::Invalid(format!(
                        "{tag} chunk size {size} disagrees with its contents, which take {} bytes",
                        after.saturating_sub(start)
                    )),
                ),
                &tag.text(),
            ));
        }
        chunks.push(chunk);
    }
    Ok(MdxFile { chunks })
}
