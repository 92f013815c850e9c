//! Chunked M2 (`MD21`, Legion and later; m2-md21.md §2–§3): a list of chunks, each a 4-byte tag,
//! a u32 size and its payload. The `MD21` chunk holds a whole `MD20` block whose offsets count
//! from the chunk's payload (byte 8 of the file); its version (272 or 274) is read by the Wrath
//! family ([`crate::wrath`]) with its `.skin` files beside the model (`<stem>00.skin` …, the names
//! CASC extractors give). The FileDataID chunks are typed ([`ChunkData`]); any other chunk is kept
//! byte for byte and reported by its tag.
//!
//! Converter files are tolerated as read, noted, and written back as they were
//! (docs/FORMAT-NOTES.md, "MD21"): a wrong `MD21` size field (the `MD20` block runs to the chunk
//! that follows, or to the end of the file), zero bytes between chunks or after the last one, a
//! FileDataID chunk whose size is not a whole number of entries (kept raw).

use binrw::{BinRead, BinWrite, binrw};
use relic_core::format::Input;
use relic_core::{ReadError, ReadErrorKind, WriteError};
use serde::{Deserialize, Serialize};

use crate::wrath::{self, Wrath};

/// Every chunk tag a public reader names (m2-md21.md §3): a chain of these after the `MD21`
/// chunk that ends at the end of the file tells where a wrongly sized `MD21` chunk ends.
pub const KNOWN_TAGS: [&[u8; 4]; 31] = [
    b"MD21", b"PFID", b"SFID", b"AFID", b"BFID", b"TXAC", b"EXPT", b"EXP2", b"PABC", b"PADC", b"PSBC", b"PEDC",
    b"SKID", b"TXID", b"LDV1", b"RPID", b"GPID", b"WFV1", b"WFV2", b"WFV3", b"PGD1", b"PFDC", b"EDGF", b"NERF",
    b"DETL", b"DBOC", b"AFRA", b"DPIV", b"PCOL", b"TEXL", b"PSID",
];

/// Bytes of a chunk header.
const HEADER: usize = 8;

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
    /// `MD21`: the `MD20` block, held by [`Md21::model`] (written from it).
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

/// A chunked M2 with its `.skin` files: its chunks in file order and the model of its `MD21`
/// chunk.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Md21 {
    /// Every chunk in file order; the first is `MD21` ([`ChunkData::Model`]).
    pub chunks: Vec<Chunk>,
    /// The `MD20` block of the `MD21` chunk (its offsets count from that chunk's payload) with
    /// its `.skin` files.
    pub model: Wrath,
    /// Zero bytes after the last chunk (none in real files).
    pub trailing: u32,
    /// What was tolerated (a wrong `MD21` size, padding, a malformed FileDataID chunk).
    pub notes: Vec<String>,
}

impl Md21 {
    /// The payload of the first chunk tagged `tag`.
    pub fn chunk(&self, tag: &[u8; 4]) -> Option<&ChunkData> {
        self.chunks.iter().find(|c| &c.tag == tag).map(|c| &c.data)
    }

    /// The `.skin` FileDataIDs of `SFID` (empty without it).
    pub fn skin_ids(&self) -> &[u32] {
        match self.chunk(b"SFID") {
            Some(ChunkData::SkinIds(ids)) => ids,
            _ => &[],
        }
    }

    /// The texture FileDataIDs of `TXID` (empty without it).
    pub fn texture_ids(&self) -> &[u32] {
        match self.chunk(b"TXID") {
            Some(ChunkData::TextureIds(ids)) => ids,
            _ => &[],
        }
    }

    /// The `.anim` FileDataIDs of `AFID` (empty without it).
    pub fn anim_ids(&self) -> &[AnimFileId] {
        match self.chunk(b"AFID") {
            Some(ChunkData::AnimIds(ids)) => ids,
            _ => &[],
        }
    }
}

fn known(tag: &[u8]) -> bool {
    KNOWN_TAGS.iter().any(|t| t.as_slice() == tag)
}

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    bytes.get(at..at.checked_add(4)?).and_then(|b| b.try_into().ok()).map(u32::from_le_bytes)
}

/// A tag of four capital letters or digits (every tag §3 lists has this form).
fn fourcc(tag: &[u8]) -> bool {
    tag.len() == 4 && tag.iter().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
}

/// Zero bytes allowed between two chunks while looking for where a wrongly sized `MD21` chunk
/// ends (alignment padding; the chunks found are then walked with any padding).
const MAX_PADDING: usize = 15;

/// Which positions of a file start a chain of chunks that ends the file, found once each: every
/// position is walked at most once however many candidates lead to it (a hostile file of chunk
/// tags cannot make the search quadratic).
struct Chains<'a> {
    /// The file.
    bytes: &'a [u8],
    /// The last byte that is not zero (`None`: the file is all zeros).
    last_nonzero: Option<usize>,
    /// Per position: 0 not walked yet, 1 a chain from there ends the file, 2 it does not.
    known: Vec<u8>,
}

impl<'a> Chains<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Chains { bytes, last_nonzero: bytes.iter().rposition(|&b| b != 0), known: vec![0; bytes.len() + 1] }
    }

    /// True if the chunks from `from` on (after at most [`MAX_PADDING`] zero bytes each) all have
    /// four-letter tags and end at the end of the file, or only zero bytes follow.
    fn end_the_file(&mut self, from: usize) -> bool {
        let bytes = self.bytes;
        let mut path = Vec::new();
        let mut at = from;
        let ends = loop {
            match self.known.get(at) {
                Some(1) => break true,
                Some(2) | None => break false,
                _ => {}
            }
            path.push(at);
            if self.last_nonzero.is_none_or(|last| at > last) {
                break true;
            }
            let rest = bytes.get(at..).unwrap_or_default();
            let Some(pad) = rest.iter().take(MAX_PADDING + 1).position(|&b| b != 0) else { break false };
            let start = at + pad;
            let (Some(tag), Some(size)) = (bytes.get(start..start + 4), u32_at(bytes, start + 4)) else { break false };
            if !fourcc(tag) {
                break false;
            }
            match start.checked_add(HEADER).and_then(|a| a.checked_add(size as usize)) {
                Some(end) if end <= bytes.len() => at = end,
                _ => break false,
            }
        };
        for p in path {
            if let Some(k) = self.known.get_mut(p) {
                *k = if ends { 1 } else { 2 };
            }
        }
        ends
    }
}

/// Where the `MD21` payload ends (§2.3), with a note when that is not what its size says: the
/// declared end when it leaves room for the MD20 header and a chunk header (after zero bytes, if
/// any) or only zero bytes follow it; else the first known chunk after the `MD20` header from
/// which a chain of chunks ends the file ([`Chains`]); else the end of the file.
fn md21_end(bytes: &[u8], declared: u32) -> (usize, Option<String>) {
    // A payload too short for an MD20 header is never the model: such a size is not trusted.
    let header = crate::file::wrath::WRATH_HEADER_SIZE as usize;
    let stated = HEADER.checked_add(declared as usize).filter(|&end| end <= bytes.len() && end >= HEADER + header);
    // The declared end is trusted where a chunk header follows it (after zero bytes, if any) or
    // nothing but zeros: a chunk there that is itself broken is then refused by name, not taken
    // into the MD20 block.
    let header_there = |end: usize| {
        let rest = bytes.get(end..).unwrap_or_default();
        match rest.iter().position(|&b| b != 0) {
            None => true,
            Some(p) => rest.get(p..p + 4).is_some_and(fourcc),
        }
    };
    if let Some(end) = stated.filter(|&end| header_there(end)) {
        return (end, None);
    }
    let first = HEADER + header;
    let mut chains = Chains::new(bytes);
    let found = (first..bytes.len().saturating_sub(HEADER - 1))
        .find(|&p| bytes.get(p..p + 4).is_some_and(known) && chains.end_the_file(p));
    let said = match stated {
        Some(_) => format!("the MD21 chunk declares {declared} bytes"),
        None if (declared as usize) < header => {
            format!("the MD21 chunk declares {declared} bytes, too few for an MD20 header")
        }
        None => format!("the MD21 chunk declares {declared} bytes, past the end of the file"),
    };
    match found {
        Some(p) => {
            let tag = String::from_utf8_lossy(bytes.get(p..p + 4).unwrap_or_default()).into_owned();
            let note = format!(
                "{said} but its MD20 block runs {} bytes, to the {tag} chunk at byte {p}: read as {}, the declared size kept for writing",
                p - HEADER,
                p - HEADER
            );
            (p, Some(note))
        }
        None => {
            let len = bytes.len() - HEADER;
            let note = format!(
                "{said} but no chunk follows it: its MD20 block is read to the end of the file ({len} bytes), the declared size kept for writing"
            );
            (bytes.len(), Some(note))
        }
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

/// The chunks of a chunked file (the `MD21` chunk's payload not parsed), the range of the `MD21`
/// payload, the zero bytes after the last chunk and the notes.
type Chunks = (Vec<Chunk>, std::ops::Range<usize>, u32, Vec<String>);

/// Splits a chunked file into its chunks. Every header and size is checked against the bytes
/// left before anything is allocated.
fn chunks(bytes: &[u8]) -> Result<Chunks, ReadError> {
    let magic = bytes.get(..4).unwrap_or_default();
    if magic != b"MD21" {
        let found = format!("{magic:?}");
        return Err(ReadError::new(0, ReadErrorKind::BadMagic { found, expected: "MD21".into() }));
    }
    let Some(declared) = u32_at(bytes, 4) else {
        return Err(ReadError::at(4, "ChunkHeader(MD21).size", ReadErrorKind::Truncated));
    };
    let (end, note) = md21_end(bytes, declared);
    let mut notes: Vec<String> = note.into_iter().collect();
    let model = HEADER..end;
    let first = Chunk {
        padding: 0,
        tag: *b"MD21",
        declared_size: declared,
        read_size: (end - HEADER) as u32,
        data: ChunkData::Model,
    };
    let mut chunks = vec![first];
    let trailing = walk(bytes, end, &mut notes, |found, payload| {
        let (header, header_at) = (found.header, found.at as u64);
        let tag = String::from_utf8_lossy(&header.tag).into_owned();
        if &header.tag == b"MD21" {
            return Err(ReadError::invalid(header_at, "ChunkHeader.tag", "a second MD21 chunk"));
        }
        let data = ChunkData::read_le_args(&mut std::io::Cursor::new(payload), (header.tag, header.size))
            .map_err(|e| ReadError::from_binrw(&e, None).within(&format!("chunk {tag} at byte {header_at}")))?;
        let mut notes = Vec::new();
        if matches!(data, ChunkData::Raw(_))
            && [b"SFID", b"AFID", b"TXID", b"BFID", b"SKID", b"PFID", b"RPID", b"GPID"].contains(&&header.tag)
        {
            notes.push(format!(
                "the {tag} chunk at byte {header_at} has {} bytes, not a whole number of entries: kept as bytes",
                header.size
            ));
        }
        if !known(&header.tag) {
            notes.push(format!("chunk {tag:?} at byte {header_at} ({} bytes) is unknown: kept as bytes", header.size));
        }
        chunks.push(Chunk {
            padding: found.padding,
            tag: header.tag,
            declared_size: header.size,
            read_size: header.size,
            data,
        });
        Ok(notes)
    })?;
    Ok((chunks, model, trailing, notes))
}

/// Why an inner version cannot be read, or `None` if it can (272 and 274, §1, §4.1).
pub(crate) fn refusal(version: u32) -> Option<String> {
    match version {
        272 | 274 => None,
        273 => Some(
            "chunked M2 with inner version 273: no file of it is known and its sequence record is disputed \
             (pywowlib splits the blend time from 273, three-m2loader and M2Lib from 274): only 272 and 274 are read"
                .into(),
        ),
        264 => Some("chunked M2 with inner version 264: no such file is known (272 and 274 are read)".into()),
        _ => Some(format!(
            "chunked M2 with inner version {version}: its MD20 layout is not documented (272 and 274 are read)"
        )),
    }
}

/// The `MD21` payload of a chunked file and the input to read it as (same name and siblings).
fn inner<'a>(input: &Input<'a>, bytes: &'a [u8]) -> Result<Input<'a>, ReadError> {
    let version = u32_at(bytes, 4).unwrap_or(0);
    if bytes.get(..4) != Some(b"MD20") {
        let found = format!("{:?}", bytes.get(..4).unwrap_or_default());
        return Err(ReadError::at(8, "MD21 payload", ReadErrorKind::BadMagic { found, expected: "MD20".into() }));
    }
    if let Some(reason) = refusal(version) {
        return Err(ReadError::new(12, ReadErrorKind::UnsupportedVersion { version, reason }));
    }
    Ok(Input { bytes, name: input.name, siblings: input.siblings })
}

/// The note on a texture lookup a converter damaged ([`wrath::texture_lookup_damaged`]).
fn damage(model: &Wrath) -> Option<String> {
    let t = &model.file.texture_lookup;
    wrath::texture_lookup_damaged(&model.file).then(|| {
        format!(
            "the texture lookup (1 entry at byte {} of the MD20 block: {:?}) is the bytes MD of the block's magic, as a converter that patched a 264 header into the unstripped chunked file leaves it: kept as stored; a texture it does not resolve is a texture slot without a path in the model",
            t.offset,
            t.first()
        )
    })
}

/// Reads the `.bone` files `BFID` names (m2-md21.md §8) found beside the model
/// (`<stem>_<index:02>.bone`); one not found is a note naming its FileDataID.
fn load_bone_files(
    input: &Input<'_>,
    chunks: &[Chunk],
    model: &mut Wrath,
    notes: &mut Vec<String>,
) -> Result<(), ReadError> {
    let ids = chunks.iter().find_map(|c| match &c.data {
        ChunkData::BoneIds(ids) => Some(ids.as_slice()),
        _ => None,
    });
    for (i, id) in ids.unwrap_or_default().iter().enumerate() {
        let name = crate::bone_file::bone_name(input.stem(), i);
        match input.siblings.read(&name).map_err(|e| wrath::load_error(&name, e))? {
            Some(bytes) => {
                let bone = crate::bone_file::BoneFile::read(&name, &bytes)?;
                notes.extend(bone.notes.iter().cloned());
                model.bone_files.push((i, bone));
            }
            None => notes
                .push(format!("{name} (BFID entry {i}, FileDataID {id}) was not found next to the model: not read")),
        }
    }
    Ok(())
}

/// True if the chunks name a skeleton (`SKID` with a FileDataID, §7): the model's bones and
/// sequences are in its `.skel`.
fn skeletal(chunks: &[Chunk]) -> bool {
    chunks.iter().any(|c| matches!(c.data, ChunkData::SkeletonId(id) if id != 0))
}

/// The context of an error inside the `MD21` chunk (its offsets count from byte 8).
const WITHIN: &str = "the MD21 chunk's MD20 block (offsets from file byte 8)";

/// Reads a chunked model with its `.skin` (and `.anim`) files and checks every cross-reference
/// as [`wrath::read`] does.
pub fn read(input: &Input<'_>) -> Result<Md21, ReadError> {
    read_checked(input).map(|(m, _, _)| m)
}

/// [`read`], with the model's 256–263 form and what that form cannot hold.
pub(crate) fn read_checked(input: &Input<'_>) -> Result<(Md21, crate::file::M2File, Vec<relic_core::Loss>), ReadError> {
    let (chunks, range, trailing, notes) = chunks(input.bytes)?;
    let payload = input.bytes.get(range).unwrap_or_default();
    let inner = inner(input, payload)?;
    let skeletal = skeletal(&chunks);
    let (mut model, classic, losses) = wrath::read_checked_chunked(&inner, skeletal).map_err(|e| e.within(WITHIN))?;
    let mut notes = notes;
    load_bone_files(input, &chunks, &mut model, &mut notes)?;
    notes.extend(damage(&model));
    Ok((Md21 { chunks, model, trailing, notes }, classic, losses))
}

/// Reads what there is of a chunked model whose `.anim` or first `.skin` files are missing (as
/// [`wrath::read_partial`]).
pub fn read_partial(input: &Input<'_>) -> Result<Md21, ReadError> {
    let (chunks, range, trailing, notes) = chunks(input.bytes)?;
    let payload = input.bytes.get(range).unwrap_or_default();
    let inner = inner(input, payload)?;
    let mut model = wrath::read_partial_chunked(&inner, skeletal(&chunks)).map_err(|e| e.within(WITHIN))?;
    let mut notes = notes;
    load_bone_files(input, &chunks, &mut model, &mut notes)?;
    notes.extend(damage(&model));
    Ok(Md21 { chunks, model, trailing, notes })
}

/// The versions of the `MD20` block a chunked file is read and written with.
pub const VERSIONS: [u32; 2] = [272, 274];

/// A chunked file's chunks without its model: what a model read from one carries (in its extras)
/// to be written as it was.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Container {
    /// Every chunk in file order (see [`Md21::chunks`]).
    pub chunks: Vec<Chunk>,
    /// Zero bytes after the last chunk.
    pub trailing: u32,
}

impl Container {
    /// A container of one `MD21` chunk, whose size is always the payload's: a model that did not
    /// come from a chunked file written as one.
    pub fn new() -> Self {
        let chunk =
            Chunk { padding: 0, tag: *b"MD21", declared_size: u32::MAX, read_size: u32::MAX, data: ChunkData::Model };
        Container { chunks: vec![chunk], trailing: 0 }
    }
}

impl Default for Container {
    fn default() -> Self {
        Self::new()
    }
}

impl Md21 {
    /// The chunks without the model.
    pub fn container(&self) -> Container {
        Container { chunks: self.chunks.clone(), trailing: self.trailing }
    }
}

/// Writes the chunked file and the files beside it (as [`wrath::write`]): every chunk in its
/// order, its size field as read while its payload keeps the length it was read with.
pub fn write(md21: &Md21) -> Result<(Vec<u8>, Vec<relic_core::format::SiblingFile>), WriteError> {
    write_parts(&md21.container(), &md21.model)
}

/// Writes `model` in `container`'s chunks (its `MD21` chunk holding the model), as [`write()`].
pub fn write_parts(
    container: &Container,
    model: &Wrath,
) -> Result<(Vec<u8>, Vec<relic_core::format::SiblingFile>), WriteError> {
    let (model, siblings) = wrath::write(model)?;
    let mut bytes = Vec::new();
    let err = |e: binrw::Error| WriteError::from_binrw(&e);
    for chunk in &container.chunks {
        let payload = match &chunk.data {
            ChunkData::Model => model.clone(),
            data => {
                let mut c = std::io::Cursor::new(Vec::new());
                data.write_le(&mut c).map_err(err)?;
                c.into_inner()
            }
        };
        let len = relic_core::error::fit::<u32>("chunk size", payload.len(), "u32")?;
        let size = if len == chunk.read_size { chunk.declared_size } else { len };
        put_chunk(&mut bytes, chunk.padding, chunk.tag, size, &payload);
    }
    bytes.resize(bytes.len() + container.trailing as usize, 0);
    Ok((bytes, siblings))
}
