//! `.skel` files (Legion 7.3 on, m2-md21.md §7): the skeleton of a chunked model that names one
//! (`SKID`). Its chunks hold what supersedes the `MD20` block's arrays — `SKS1` global loops,
//! sequences and sequence lookup, `SKB1` bones and key-bone lookup, `SKA1` attachments and their
//! lookup — each chunk's offsets counting from **that chunk's** payload; `SKL1` a name and flags,
//! `SKPD` the parent skeleton's FileDataID, `AFID`/`BFID` as in the `.m2`. The tracks of `SKB1`
//! bones and `SKA1` attachments keep the keys of external sequences in the `AFSB`/`AFSA` blobs of
//! the `.anim` files (§6).
//!
//! Every typed chunk is read with the layout it was read with ([`crate::file::AsRead`]) and
//! written back in it while its arrays keep their counts: bytes no array claims come back too.

use binrw::{BinRead, BinWrite, binrw};
use relic_core::{ReadError, WriteError};
use serde::{Deserialize, Serialize};

use crate::anim::{AnimPart, AnimSources};
use crate::chunk::{ChunkData, put_chunk, walk};
use crate::file::array::{M2Array, pod_array};
use crate::file::ctx::Ctx;
use crate::file::layout::Layout;
use crate::file::record::{Record, Visitor, walk_fields};
use crate::file::wrath::{Keyed, WrathAttachment, WrathBone, WrathSequence, keys_external};

/// The version a `.skel`'s records are read and written as (Legion's 274 records).
pub const SKEL_VERSION: u32 = 274;

/// The chunk tags of a `.skel` (§7.1).
pub const TAGS: [&[u8; 4]; 7] = [b"SKL1", b"SKA1", b"SKB1", b"SKS1", b"SKPD", b"AFID", b"BFID"];

/// `SKL1`: the skeleton's header (16 bytes, then its name).
#[binrw]
#[brw(little)]
#[bw(import(layout: &Layout))]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct SkeletonHeader {
    /// Flags (0x100 as of 7.3.2 per the wiki) \[unconfirmed\], kept.
    pub flags: u32,
    /// The skeleton's name with its NUL.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub name: M2Array<u8>,
    /// Four bytes of unknown meaning, kept.
    pub unknown: [u8; 4],
    /// Where the payload's blocks were when it was read (not stored in the file).
    #[br(default)]
    #[bw(ignore)]
    #[serde(skip)]
    pub as_read: crate::file::AsRead,
}

/// `SKA1` and `SKB1` (16 bytes, then the arrays): the records a skeleton holds — attachments
/// (`SKA1`, the Wrath 40-byte record) or bones (`SKB1`, the 88-byte record) — and their lookup.
/// Their tracks' external keys are in the `.anim`'s `AFSA` (attachments) or `AFSB` (bones).
#[binrw]
#[brw(little)]
#[br(import(ctx: &Ctx))]
#[bw(import(layout: &Layout))]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(bound = "")]
#[allow(private_bounds)]
pub struct SkeletonRecords<T: SkelRecord> {
    /// Attachments (`SKA1`) or bones (`SKB1`).
    #[br(args(ctx))]
    #[bw(args(layout))]
    pub records: M2Array<T>,
    /// Attachment id → attachment index (`SKA1`), key-bone id → bone index (`SKB1`); −1 none.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub lookup: M2Array<i16>,
    /// Where the payload's blocks were when it was read (not stored in the file).
    #[br(default)]
    #[bw(ignore)]
    #[serde(skip)]
    pub as_read: crate::file::AsRead,
}

/// `SKA1`: the attachments and the attachment lookup.
pub type SkeletonAttachments = SkeletonRecords<WrathAttachment>;
/// `SKB1`: the bones and the key-bone lookup.
pub type SkeletonBones = SkeletonRecords<WrathBone>;

/// A record a skeleton chunk holds in an array ([`SkeletonRecords`]): read with the file's
/// context, written with the writer's layout, compared and carried as JSON.
pub(crate) trait SkelRecord:
    Record
    + for<'a> BinRead<Args<'a> = (&'a Ctx,)>
    + std::fmt::Debug
    + Clone
    + PartialEq
    + Default
    + Serialize
    + serde::de::DeserializeOwned
    + 'static
{
}

impl SkelRecord for WrathAttachment {}
impl SkelRecord for WrathBone {}

/// `SKS1`: global loops, sequences and the sequence lookup (32 bytes, then the arrays).
#[binrw]
#[brw(little)]
#[bw(import(layout: &Layout))]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct SkeletonSequences {
    /// Durations of the global sequences (loops), milliseconds.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub global_loops: M2Array<u32>,
    /// Sequences (64 bytes, 274's record).
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub sequences: M2Array<WrathSequence>,
    /// Sequence lookup (a hash table of ids, −1 empty).
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub sequence_lookup: M2Array<i16>,
    /// Eight bytes of unknown meaning (WEX skips them), kept.
    pub unknown: [u8; 8],
    /// Where the payload's blocks were when it was read (not stored in the file).
    #[br(default)]
    #[bw(ignore)]
    #[serde(skip)]
    pub as_read: crate::file::AsRead,
}

/// `SKPD`: the parent skeleton (16 bytes). The order is the wiki's, wow.export's and four other
/// readers'; pywowlib reads the id first \[disputed, minority\].
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct SkeletonParent {
    /// Eight bytes of unknown meaning, kept.
    pub unknown: [u8; 8],
    /// FileDataID of the parent `.skel`.
    pub parent_skel_file_id: u32,
    /// Four bytes of unknown meaning, kept.
    pub unknown2: [u8; 4],
}

/// A `.skel` chunk's payload: typed as §7.1 says, the bytes for any other (or one whose size
/// does not fit its layout).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum SkelData {
    /// `SKL1`.
    Header(SkeletonHeader),
    /// `SKA1`.
    Attachments(SkeletonAttachments),
    /// `SKB1`.
    Bones(SkeletonBones),
    /// `SKS1`.
    Sequences(SkeletonSequences),
    /// `SKPD`.
    Parent(SkeletonParent),
    /// `AFID`, `BFID`: as in the `.m2` ([`ChunkData::AnimIds`], [`ChunkData::BoneIds`]).
    Ids(ChunkData),
    /// Any other chunk, as read.
    Raw(Vec<u8>),
}

/// One chunk of a `.skel`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SkelChunk {
    /// Zero bytes before the chunk.
    pub padding: u32,
    /// The tag.
    pub tag: [u8; 4],
    /// The payload.
    pub data: SkelData,
}

/// A `.skel` file: its chunks in file order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Skel {
    /// The file name it was read from.
    pub name: String,
    /// Every chunk in file order.
    pub chunks: Vec<SkelChunk>,
    /// Zero bytes after the last chunk.
    pub trailing: u32,
    /// What was tolerated (unknown chunks, padding, a chunk kept raw).
    pub notes: Vec<String>,
}

/// A `.skel` split into its chunks, their payloads not parsed yet (the tracks of `SKB1`/`SKA1`
/// need the sequences, which may be a parent's, and the `.anim` files those name).
#[derive(Debug, Clone)]
pub(crate) struct SkelChunks {
    name: String,
    chunks: Vec<(u32, [u8; 4], Vec<u8>)>,
    trailing: u32,
    notes: Vec<String>,
}

impl SkelChunks {
    /// Walks the chunks of the `.skel` named `name` (every size checked against the bytes left).
    pub(crate) fn read(name: &str, bytes: &[u8]) -> Result<Self, ReadError> {
        let mut notes = Vec::new();
        let mut chunks = Vec::new();
        let trailing = walk(bytes, 0, &mut notes, |found, payload| {
            chunks.push((found.padding, found.header.tag, payload.to_vec()));
            Ok(found.unknown(&TAGS, payload.len()).into_iter().collect())
        })
        .map_err(|e| e.within(name))?;
        Ok(SkelChunks { name: name.into(), chunks, trailing, notes })
    }

    /// The file name.
    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    fn payload(&self, tag: &[u8; 4]) -> Option<&[u8]> {
        self.chunks.iter().find(|(_, t, _)| t == tag).map(|(_, _, p)| p.as_slice())
    }

    /// The parent's FileDataID (`SKPD`), if the chunk has its 16 bytes.
    pub(crate) fn parent(&self) -> Option<u32> {
        self.payload(b"SKPD").filter(|p| p.len() == 16).and_then(|p| p.get(8..12)).map(|b| {
            let mut id = [0; 4];
            id.copy_from_slice(b);
            u32::from_le_bytes(id)
        })
    }

    /// The `SKS1` chunk parsed (it has no tracks), if there is one.
    pub(crate) fn sequences(&self) -> Result<Option<SkeletonSequences>, ReadError> {
        let Some(payload) = self.payload(b"SKS1") else { return Ok(None) };
        let offset = self.chunks.iter().position(|(_, t, _)| t == b"SKS1").unwrap_or(0);
        parse_sequences(payload).map(Some).map_err(|e| e.within(&format!("{} chunk {offset} (SKS1)", self.name)))
    }

    /// Parses every chunk; the tracks of `SKB1`/`SKA1` with `global_loops` global sequences, one
    /// timeline per sequence of `sequences` and the external keys of `anims`.
    pub(crate) fn parse(
        self,
        global_loops: usize,
        sequences: &[WrathSequence],
        anims: &AnimSources,
    ) -> Result<Skel, ReadError> {
        let SkelChunks { name, chunks, trailing, mut notes } = self;
        let ctx = Ctx::new(SKEL_VERSION, global_loops, sequences.len(), anims);
        let external: Vec<bool> = (0..sequences.len()).map(|s| keys_external(sequences, s)).collect();
        let mut out = Vec::with_capacity(chunks.len());
        for (i, (padding, tag, payload)) in chunks.into_iter().enumerate() {
            let text = String::from_utf8_lossy(&tag).into_owned();
            let within = format!("{name} chunk {i} ({text})");
            let data = parse_chunk(tag, payload, &ctx, &external, anims).map_err(|e| e.within(&within))?;
            if matches!(data, SkelData::Raw(_)) && TAGS.contains(&&tag) {
                notes.push(format!("{name}: the {text} chunk does not fit its layout (§7.1): kept as bytes"));
            }
            out.push(SkelChunk { padding, tag, data });
        }
        let notes = notes.into_iter().map(|n| if n.starts_with(&name) { n } else { format!("{name}: {n}") }).collect();
        Ok(Skel { name, chunks: out, trailing, notes })
    }
}

fn parse_sequences(payload: &[u8]) -> Result<SkeletonSequences, ReadError> {
    let mut sks1 =
        relic_core::binary::parse(payload, |s| SkeletonSequences::read_options(s, binrw::Endian::Little, ()))?;
    sks1.as_read = crate::file::AsRead::of(SKEL_VERSION, payload, 32, &[], |r| sks1.visit(r));
    Ok(sks1)
}

/// One chunk's payload typed by its tag.
fn parse_chunk(
    tag: [u8; 4],
    payload: Vec<u8>,
    ctx: &Ctx,
    external: &[bool],
    anims: &AnimSources,
) -> Result<SkelData, ReadError> {
    let le = binrw::Endian::Little;
    let len = payload.len();
    Ok(match &tag {
        b"SKL1" if len >= 16 => {
            let mut h = relic_core::binary::parse(&payload, |s| SkeletonHeader::read_options(s, le, ()))?;
            h.as_read = crate::file::AsRead::of(SKEL_VERSION, &payload, 16, &[], |r| h.visit(r));
            SkelData::Header(h)
        }
        b"SKS1" if len >= 32 => SkelData::Sequences(parse_sequences(&payload)?),
        b"SKB1" if len >= 16 => {
            let ctx = ctx.clone().for_part(AnimPart::Bones);
            let mut b = relic_core::binary::parse(&payload, |s| SkeletonBones::read_options(s, le, (&ctx,)))?;
            b.as_read = crate::file::AsRead::of(SKEL_VERSION, &payload, 16, external, |r| b.visit(r)).with_anims(anims);
            SkelData::Bones(b)
        }
        b"SKA1" if len >= 16 => {
            let ctx = ctx.clone().for_part(AnimPart::Attachments);
            let mut a = relic_core::binary::parse(&payload, |s| SkeletonAttachments::read_options(s, le, (&ctx,)))?;
            a.as_read = crate::file::AsRead::of(SKEL_VERSION, &payload, 16, external, |r| a.visit(r)).with_anims(anims);
            SkelData::Attachments(a)
        }
        b"SKPD" if len == 16 => {
            SkelData::Parent(relic_core::binary::parse(&payload, |s| SkeletonParent::read_options(s, le, ()))?)
        }
        b"AFID" | b"BFID" => match ChunkData::read_le_args(&mut std::io::Cursor::new(&payload), (tag, len as u32)) {
            Ok(ChunkData::Raw(_)) | Err(_) => SkelData::Raw(payload),
            Ok(ids) => SkelData::Ids(ids),
        },
        _ => SkelData::Raw(payload),
    })
}

macro_rules! keyed {
    ($t:ty, $size:expr, $pairs:expr; $($field:ident),*) => {
        impl $t {
            /// Visits the blocks in header order.
            pub(crate) fn visit<'f, V: Visitor<'f>>(&'f self, v: &mut V) {
                walk_fields!(self, v; $($field),*);
            }
        }
        impl Keyed for $t {
            fn version(&self) -> u32 {
                SKEL_VERSION
            }
            fn header_size(&self) -> u64 {
                $size
            }
            fn header_pairs(&self) -> usize {
                $pairs
            }
            fn visit<'f, V: Visitor<'f>>(&'f self, v: &mut V) {
                <$t>::visit(self, v)
            }
            fn as_read(&self) -> &crate::file::AsRead {
                &self.as_read
            }
        }
    };
}

keyed!(SkeletonHeader, 16, 1; name);
keyed!(SkeletonAttachments, 16, 2; records, lookup);
keyed!(SkeletonBones, 16, 2; records, lookup);
keyed!(SkeletonSequences, 32, 3; global_loops, sequences, sequence_lookup);

impl Skel {
    /// The payload of the first chunk tagged `tag`.
    pub fn chunk(&self, tag: &[u8; 4]) -> Option<&SkelData> {
        self.chunks.iter().find(|c| &c.tag == tag).map(|c| &c.data)
    }

    /// `SKS1`, if present and typed.
    pub fn sequences(&self) -> Option<&SkeletonSequences> {
        match self.chunk(b"SKS1") {
            Some(SkelData::Sequences(s)) => Some(s),
            _ => None,
        }
    }

    /// `SKB1`, if present and typed.
    pub fn bones(&self) -> Option<&SkeletonBones> {
        match self.chunk(b"SKB1") {
            Some(SkelData::Bones(b)) => Some(b),
            _ => None,
        }
    }

    /// `SKA1`, if present and typed.
    pub fn attachments(&self) -> Option<&SkeletonAttachments> {
        match self.chunk(b"SKA1") {
            Some(SkelData::Attachments(a)) => Some(a),
            _ => None,
        }
    }

    /// The parent's FileDataID (`SKPD`).
    pub fn parent(&self) -> Option<u32> {
        match self.chunk(b"SKPD") {
            Some(SkelData::Parent(p)) => Some(p.parent_skel_file_id),
            _ => None,
        }
    }

    /// The chunk tags in file order.
    pub fn tags(&self) -> Vec<String> {
        self.chunks.iter().map(|c| String::from_utf8_lossy(&c.tag).into_owned()).collect()
    }

    /// Writes the `.skel` (its chunks in order, each size its payload's length) and, by part,
    /// the blobs of the external keys of its bones (`AFSB`) and attachments (`AFSA`), by
    /// sequence (`sequences`: the model's, which its tracks follow).
    pub fn write(&self, sequences: &[WrathSequence]) -> Result<SkelBytes, WriteError> {
        let mut out = Vec::new();
        let mut blobs = Vec::new();
        for c in &self.chunks {
            let payload = match &c.data {
                SkelData::Header(h) => crate::file::wrath::write_keyed(h, &[], AnimPart::Model)?.bytes,
                SkelData::Sequences(s) => crate::file::wrath::write_keyed(s, &[], AnimPart::Model)?.bytes,
                SkelData::Bones(b) => {
                    let w = crate::file::wrath::write_keyed(b, sequences, AnimPart::Bones)?;
                    blobs.push((AnimPart::Bones, w.blobs));
                    w.bytes
                }
                SkelData::Attachments(a) => {
                    let w = crate::file::wrath::write_keyed(a, sequences, AnimPart::Attachments)?;
                    blobs.push((AnimPart::Attachments, w.blobs));
                    w.bytes
                }
                SkelData::Parent(p) => [&p.unknown[..], &p.parent_skel_file_id.to_le_bytes(), &p.unknown2].concat(),
                SkelData::Ids(ids) => {
                    let mut c = std::io::Cursor::new(Vec::new());
                    ids.write_le(&mut c).map_err(|e| WriteError::from_binrw(&e))?;
                    c.into_inner()
                }
                SkelData::Raw(bytes) => bytes.clone(),
            };
            let size = relic_core::error::fit::<u32>("skel chunk size", payload.len(), "u32")?;
            put_chunk(&mut out, c.padding, c.tag, size, &payload);
        }
        out.resize(out.len() + self.trailing as usize, 0);
        Ok(SkelBytes { bytes: out, blobs })
    }
}

/// What [`Skel::write`] gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkelBytes {
    /// The `.skel`.
    pub bytes: Vec<u8>,
    /// By part (`AFSB`, `AFSA`): `(sequence index, blob)` of the external keys.
    pub blobs: crate::anim::PartBlobs,
}
