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

use binrw::{BinRead, BinWrite};
use relic_core::format::Input;
use relic_core::{ReadError, ReadErrorKind, WriteError};
use serde::{Deserialize, Serialize};

pub use crate::chunk::{AnimFileId, Chunk, ChunkData, ChunkHeader};
use crate::chunk::{HEADER, put_chunk, walk};
use crate::companions::{self, FileIds};
use crate::wrath::{self, Wrath};

/// Every chunk tag a public reader names (m2-md21.md §3): a chain of these after the `MD21`
/// chunk that ends at the end of the file tells where a wrongly sized `MD21` chunk ends.
pub const KNOWN_TAGS: [&[u8; 4]; 31] = [
    b"MD21", b"PFID", b"SFID", b"AFID", b"BFID", b"TXAC", b"EXPT", b"EXP2", b"PABC", b"PADC", b"PSBC", b"PEDC",
    b"SKID", b"TXID", b"LDV1", b"RPID", b"GPID", b"WFV1", b"WFV2", b"WFV3", b"PGD1", b"PFDC", b"EDGF", b"NERF",
    b"DETL", b"DBOC", b"AFRA", b"DPIV", b"PCOL", b"TEXL", b"PSID",
];

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
    /// The name of each texture `TXID` names and the file does not (by index; empty for the
    /// others): its listfile path, else `<id>.blp` (`name_textures`).
    pub texture_names: Vec<String>,
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

/// The FileDataIDs of the companions the chunks name.
fn file_ids(chunks: &[Chunk]) -> FileIds {
    let mut ids = FileIds::default();
    for c in chunks {
        match &c.data {
            ChunkData::SkinIds(v) if ids.skins.is_empty() => ids.skins.clone_from(v),
            ChunkData::AnimIds(v) if ids.anims.is_empty() => {
                ids.anims = v.iter().map(|a| (a.animation_id, a.variation, a.file_data_id)).collect();
            }
            ChunkData::SkeletonId(id) if ids.skeleton == 0 => ids.skeleton = *id,
            _ => {}
        }
    }
    ids
}

/// The names of the textures `TXID` names and the file does not (by texture index, empty for
/// the others), and the note on the ids no listfile resolved (named `<id>.blp`).
fn texture_names(input: &Input<'_>, chunks: &[Chunk], model: &Wrath) -> (Vec<String>, Option<String>) {
    let ids = chunks.iter().find_map(|c| match &c.data {
        ChunkData::TextureIds(v) => Some(v.as_slice()),
        _ => None,
    });
    let mut names = Vec::new();
    let mut unresolved = Vec::new();
    for (i, (t, &id)) in model.file.textures.iter().zip(ids.unwrap_or_default()).enumerate() {
        let unnamed = t.kind == 0 && t.filename.items.iter().all(|&b| b == 0);
        if !unnamed || id == 0 {
            continue;
        }
        let (name, resolved) = crate::companions::texture_name(input, id);
        if !resolved {
            unresolved.push(format!("{id} (texture {i})"));
        }
        names.resize(i, String::new());
        names.push(name.replace('/', "\\"));
    }
    let why = if input.siblings.listfile().is_some() { "not in the listfile" } else { "no listfile given" };
    let note = (!unresolved.is_empty()).then(|| {
        format!(
            "{} texture FileDataIDs unresolved ({why}), named <id>.blp as wow.export names them: {}",
            unresolved.len(),
            unresolved.join(", ")
        )
    });
    (names, note)
}

/// The note on the companions a listfile was given for but does not name, read by their
/// conventional names instead: the skins read and the `.anim` files (by `AFID`) of external
/// sequences.
fn unlisted(input: &Input<'_>, ids: &FileIds, model: &Wrath) -> Option<String> {
    let listfile = input.siblings.listfile()?;
    let unlisted = |id: u32| id != 0 && listfile.path(id).is_none();
    let stem = input.stem();
    let skins = (0..model.skins.len() as u32).map(|i| (ids.skin(i), wrath::skin_name(stem, i)));
    let anims = model.file.sequences.iter().enumerate().filter(|(s, _)| wrath::is_external(&model.file.sequences, *s));
    let anims = anims.map(|(_, seq)| (ids.anim(seq.id, seq.variation), wrath::anim_name(stem, seq)));
    let mut named: Vec<String> = Vec::new();
    for (id, name) in skins.chain(anims).filter(|(id, _)| unlisted(*id)) {
        let entry = format!("{id} ({name})");
        if !named.contains(&entry) {
            named.push(entry);
        }
    }
    (!named.is_empty()).then(|| {
        let (n, are, names) = match named.len() {
            1 => ("1 FileDataID".to_string(), "is", "its conventional name"),
            n => (format!("{n} FileDataIDs"), "are", "their conventional names"),
        };
        format!("{n} {are} not in the listfile: read by {names}: {}", named.join(", "))
    })
}

/// Gives the 256–263 form's unnamed textures the names `TXID` and the listfile gave them
/// ([`Md21::texture_names`]), in Windows-1252 with their NUL, as the file names of 256–264 are.
pub(crate) fn name_textures(file: &mut crate::file::M2File, names: &[String]) {
    for (t, name) in file.textures.items.iter_mut().zip(names).filter(|(_, n)| !n.is_empty()) {
        let bytes = name.chars().map(|c| relic_core::text::encode_cp1252_char(c).unwrap_or(b'?')).chain([0]);
        t.filename = crate::file::M2Array::new(bytes.collect());
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
    // Every byte of the block is a candidate: the cheap test of the tag's form first (a
    // converter's 272 KB model took 2.6 ms in `known` alone).
    let mut chains = Chains::new(bytes);
    let found = (first..bytes.len().saturating_sub(HEADER - 1))
        .find(|&p| bytes.get(p..p + 4).is_some_and(|t| fourcc(t) && known(t)) && chains.end_the_file(p));
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
        let conventional = crate::bone_file::bone_name(input.stem(), i);
        match companions::read(input, *id, &conventional)? {
            Some(companions::Found { name, bytes }) => {
                let bone = crate::bone_file::BoneFile::read(&name, &bytes)?;
                notes.extend(bone.notes.iter().cloned());
                model.bone_files.push((i, bone));
            }
            None => notes.push(format!(
                "{} (BFID entry {i}) was not found next to the model: not read",
                companions::wanted(input, *id, &conventional)
            )),
        }
    }
    Ok(())
}

/// True if the chunks name a skeleton (`SKID` with a FileDataID, §7): the model's bones and
/// sequences are in its `.skel`.
fn skeletal(chunks: &[Chunk]) -> bool {
    chunks.iter().any(|c| matches!(c.data, ChunkData::SkeletonId(id) if id != 0))
}

/// What both reads add to the model of the `MD21` chunk: its `.bone` files, the notes on a
/// damaged texture lookup and on ids a listfile lacks; gives the names of the textures `TXID`
/// names (their note on ids no listfile resolved added too).
fn beside_the_model(
    input: &Input<'_>,
    chunks: &[Chunk],
    ids: &FileIds,
    model: &mut Wrath,
    notes: &mut Vec<String>,
) -> Result<Vec<String>, ReadError> {
    load_bone_files(input, chunks, model, notes)?;
    notes.extend(damage(model));
    notes.extend(unlisted(input, ids, model));
    let (texture_names, unresolved) = texture_names(input, chunks, model);
    notes.extend(unresolved);
    Ok(texture_names)
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
    let ids = file_ids(&chunks);
    let skeletal = skeletal(&chunks);
    let (mut model, mut classic, losses) =
        wrath::read_checked_chunked(&inner, &ids, skeletal).map_err(|e| e.within(WITHIN))?;
    let mut notes = notes;
    let texture_names = beside_the_model(input, &chunks, &ids, &mut model, &mut notes)?;
    name_textures(&mut classic, &texture_names);
    Ok((Md21 { chunks, model, trailing, notes, texture_names }, classic, losses))
}

/// Reads what there is of a chunked model whose `.anim` or first `.skin` files are missing (as
/// [`wrath::read_partial`]).
pub fn read_partial(input: &Input<'_>) -> Result<Md21, ReadError> {
    let (chunks, range, trailing, notes) = chunks(input.bytes)?;
    let payload = input.bytes.get(range).unwrap_or_default();
    let inner = inner(input, payload)?;
    let ids = file_ids(&chunks);
    let mut model = wrath::read_partial_chunked(&inner, &ids, skeletal(&chunks)).map_err(|e| e.within(WITHIN))?;
    let mut notes = notes;
    let texture_names = beside_the_model(input, &chunks, &ids, &mut model, &mut notes)?;
    Ok(Md21 { chunks, model, trailing, notes, texture_names })
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
    /// See [`Md21::texture_names`]: kept so that the model's 256–263 form, derived again from its
    /// Wrath file, has them too.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub texture_names: Vec<String>,
}

impl Container {
    /// A container of one `MD21` chunk, whose size is always the payload's: a model that did not
    /// come from a chunked file written as one.
    pub fn new() -> Self {
        let chunk =
            Chunk { padding: 0, tag: *b"MD21", declared_size: u32::MAX, read_size: u32::MAX, data: ChunkData::Model };
        Container { chunks: vec![chunk], trailing: 0, texture_names: Vec::new() }
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
        Container { chunks: self.chunks.clone(), trailing: self.trailing, texture_names: self.texture_names.clone() }
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
