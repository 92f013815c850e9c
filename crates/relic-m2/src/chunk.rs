//! The chunks every chunked file of the M2 family is made of (m2-md21.md §2.1): a 4-byte tag, a
//! u32 size and the payload — the `.m2` of Legion on (`MD21`, [`crate::md21`]), its `.anim`
//! ([`crate::anim`]), `.skel` ([`crate::skel`]) and `.bone` ([`crate::bone_file`]) files. One
//! header type, one walk that checks every size against the bytes left, one writer of a chunk;
//! the FileDataID chunks the `.m2` and the `.skel` share are typed here ([`ChunkData`]).

use binrw::{BinRead, binrw};
use relic_core::{ReadError, ReadErrorKind};
use serde::{Deserialize, Serialize};

/// Bytes of a chunk header.
pub(crate) const HEADER: usize = 8;

/// The 8 bytes before every chunk's payload (§2.1).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ChunkHeader {
    /// The tag, in reading order (`MD21`, `SFID`; not reversed as in ADT/WMO).
    pub tag: [u8; 4],
    /// The payload's size as the file declares it (wrong in converter files' `MD21`, §2.3).
    pub size: u32,
}

/// One entry of `AFID` (8 bytes, §3): the `.anim` file of one (animation, variation).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct AnimFileId {
    /// Animation id (`AnimationData.dbc`) of the sequence.
    pub animation_id: u16,
    /// Its variation (sub-animation id).
    pub variation: u16,
    /// FileDataID of the `.anim`; 0 for no file.
    pub file_data_id: u32,
}

/// A chunk's payload: typed for the FileDataID chunks §3 documents, the bytes for any other.
#[binrw]
#[brw(little)]
#[br(import(tag: [u8; 4], len: u32))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ChunkData {
    /// `MD21`: the `MD20` block, held by [`Md21::model`](crate::md21::Md21::model) (written from it).
    #[br(pre_assert(&tag == b"MD21"))]
    Model,
    /// `SFID`: FileDataIDs of the `.skin` views (as many as the header's profiles), then of the
    /// LOD skins.
    #[br(pre_assert(&tag == b"SFID" && len % 4 == 0))]
    SkinIds(#[br(count = len / 4)] Vec<u32>),
    /// `AFID`: the `.anim` file of each (animation, variation).
    #[br(pre_assert(&tag == b"AFID" && len % 8 == 0))]
    AnimIds(#[br(count = len / 8)] Vec<AnimFileId>),
    /// `TXID`: FileDataID of each texture (0 for a texture that is not a file).
    #[br(pre_assert(&tag == b"TXID" && len % 4 == 0))]
    TextureIds(#[br(count = len / 4)] Vec<u32>),
    /// `BFID`: FileDataIDs of the `.bone` files.
    #[br(pre_assert(&tag == b"BFID" && len % 4 == 0))]
    BoneIds(#[br(count = len / 4)] Vec<u32>),
    /// `SKID`: FileDataID of the `.skel`.
    #[br(pre_assert(&tag == b"SKID" && len == 4))]
    SkeletonId(u32),
    /// `PFID`: FileDataID of the `.phys`.
    #[br(pre_assert(&tag == b"PFID" && len == 4))]
    PhysicsId(u32),
    /// `RPID`: FileDataIDs of the recursive-particle models.
    #[br(pre_assert(&tag == b"RPID" && len % 4 == 0))]
    RecursiveParticleIds(#[br(count = len / 4)] Vec<u32>),
    /// `GPID`: FileDataIDs of the geometry-particle models.
    #[br(pre_assert(&tag == b"GPID" && len % 4 == 0))]
    GeometryParticleIds(#[br(count = len / 4)] Vec<u32>),
    /// Any other chunk (or one of the above whose size is not a whole number of entries): its
    /// bytes as read.
    Raw(#[br(count = len)] Vec<u8>),
}

/// One chunk as read: where it was, its header and its payload.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Chunk {
    /// Zero bytes between the previous chunk and this one (0 in every real file).
    pub padding: u32,
    /// The tag.
    pub tag: [u8; 4],
    /// The size field as read.
    pub declared_size: u32,
    /// The payload's length as read (differs from `declared_size` only for a wrong `MD21` size):
    /// while the payload still has this length, `declared_size` is written back; else the length.
    pub read_size: u32,
    /// The payload.
    pub data: ChunkData,
}

impl ChunkData {
    /// How many files the chunk names by FileDataID (entries of 0, "no file", not counted).
    pub fn file_data_ids(&self) -> usize {
        let named = |ids: &[u32]| ids.iter().filter(|&&id| id != 0).count();
        match self {
            ChunkData::SkinIds(v)
            | ChunkData::TextureIds(v)
            | ChunkData::BoneIds(v)
            | ChunkData::RecursiveParticleIds(v)
            | ChunkData::GeometryParticleIds(v) => named(v),
            ChunkData::AnimIds(v) => v.iter().filter(|a| a.file_data_id != 0).count(),
            ChunkData::SkeletonId(id) | ChunkData::PhysicsId(id) => usize::from(*id != 0),
            ChunkData::Model | ChunkData::Raw(_) => 0,
        }
    }
}

impl Chunk {
    /// The tag as text (`MD21`).
    pub fn tag_text(&self) -> String {
        String::from_utf8_lossy(&self.tag).into_owned()
    }
}

/// A chunk met by [`walk`]: the zero bytes before it, its header and where that header is.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Found {
    /// Zero bytes between the previous chunk (or `from`) and this one.
    pub(crate) padding: u32,
    /// The header as read.
    pub(crate) header: ChunkHeader,
    /// The file offset of the header.
    pub(crate) at: usize,
}

/// Walks the chunks of `bytes` from `from` to its end — the one chunk walk of every chunked file
/// of the family (`.m2` after its `MD21` chunk, `.anim`, `.skel`, `.bone`): zero bytes before a
/// chunk or after the last are kept with a note; every size is checked against the bytes left
/// before `each` gets the chunk and its payload (and returns its notes). Gives the count of zero
/// bytes after the last chunk.
pub(crate) fn walk(
    bytes: &[u8],
    from: usize,
    notes: &mut Vec<String>,
    mut each: impl FnMut(Found, &[u8]) -> Result<Vec<String>, ReadError>,
) -> Result<u32, ReadError> {
    let mut at = from;
    while at < bytes.len() {
        let rest = bytes.get(at..).unwrap_or_default();
        let padding = rest.iter().position(|&b| b != 0).unwrap_or(rest.len());
        if padding == rest.len() {
            notes.push(format!("{padding} zero bytes after the last chunk (byte {at}): kept"));
            return Ok(padding as u32);
        }
        if padding > 0 {
            notes.push(format!("{padding} zero bytes before the chunk at byte {}: kept", at + padding));
        }
        at += padding;
        let header_at = at as u64;
        let header = bytes
            .get(at..at + HEADER)
            .and_then(|h| ChunkHeader::read_le(&mut std::io::Cursor::new(h)).ok())
            .ok_or_else(|| ReadError::at(header_at, "ChunkHeader", ReadErrorKind::Truncated))?;
        let tag = String::from_utf8_lossy(&header.tag).into_owned();
        let start = at + HEADER;
        let left = (bytes.len() - start) as u64;
        if u64::from(header.size) > left {
            let kind = ReadErrorKind::OffsetOutOfBounds {
                target: start as u64,
                len: u64::from(header.size),
                file_len: bytes.len() as u64,
            };
            return Err(ReadError::at(header_at + 4, format!("ChunkHeader({tag}).size"), kind));
        }
        let payload = bytes.get(start..start + header.size as usize).unwrap_or_default();
        notes.extend(each(Found { padding: padding as u32, header, at }, payload)?);
        at = start + header.size as usize;
    }
    Ok(0)
}

impl Found {
    /// The note on a chunk whose tag is none of `known` (kept as bytes), if it is one.
    pub(crate) fn unknown(&self, known: &[&[u8; 4]], len: usize) -> Option<String> {
        let tag = &self.header.tag;
        (!known.contains(&tag)).then(|| {
            let text = String::from_utf8_lossy(tag);
            format!("chunk {text:?} at byte {} ({len} bytes) is unknown: kept as bytes", self.at)
        })
    }
}

/// Writes one chunk: `padding` zero bytes, its header and its payload.
pub(crate) fn put_chunk(out: &mut Vec<u8>, padding: u32, tag: [u8; 4], size: u32, payload: &[u8]) {
    out.resize(out.len() + padding as usize, 0);
    out.extend_from_slice(&tag);
    out.extend_from_slice(&size.to_le_bytes());
    out.extend_from_slice(payload);
}
