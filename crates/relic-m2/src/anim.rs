//! `.anim` files (m2-md21.md §6): the keys of a model's external sequences. A raw `.anim`
//! (Wrath to Legion before 7.3) is one blob addressed from its byte 0; a chunked one (7.3 on)
//! holds its blobs in chunks — `AFM2` (every track of a model without a skeleton; with one, the
//! tracks that are neither bones nor attachments), `AFSB` (bone tracks of a `.skel`), `AFSA`
//! (attachment tracks of a `.skel`) — each track's inner offsets counting from the payload of the
//! chunk of its kind. Which is which is told by the first four bytes (a raw file starts with a
//! timestamp, never a chunk tag), not by the model's flags (0x2000 is set on files with raw
//! `.anim`s, §4.2).

use std::sync::Arc;

use relic_core::{ReadError, ReadErrorKind};
use serde::{Deserialize, Serialize};

use crate::chunk::{ChunkHeader, put_chunk, walk};

/// The chunk tags of a chunked `.anim`.
pub const TAGS: [&[u8; 4]; 3] = [b"AFM2", b"AFSA", b"AFSB"];

/// Which blob of a chunked `.anim` a track's keys are in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Serialize, Deserialize)]
pub enum AnimPart {
    /// `AFM2`: every track of a model without a skeleton, else the tracks of the `.m2` itself.
    #[default]
    Model,
    /// `AFSA`: the tracks of the `.skel`'s attachments.
    Attachments,
    /// `AFSB`: the tracks of the `.skel`'s bones.
    Bones,
}

impl AnimPart {
    /// The tag of the chunk holding this part.
    pub fn tag(self) -> &'static [u8; 4] {
        match self {
            AnimPart::Model => b"AFM2",
            AnimPart::Bones => b"AFSB",
            AnimPart::Attachments => b"AFSA",
        }
    }
}

/// One chunk of a chunked `.anim`, its payload as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnimChunk {
    /// Zero bytes before the chunk (0 in every file the sources describe).
    pub padding: u32,
    /// The tag (`AFM2`, `AFSA`, `AFSB`; any other kept and reported).
    pub tag: [u8; 4],
    /// The payload: a blob of keys addressed from its first byte.
    pub payload: Vec<u8>,
}

/// The layout of an `.anim` file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum AnimLayout {
    /// Not beside the model (`wrath::read_partial`): its sequences' keys are not read.
    Missing,
    /// One blob, addressed from byte 0.
    Raw(Vec<u8>),
    /// Chunks in file order, then the zero bytes after the last.
    Chunked {
        /// The chunks in file order.
        chunks: Vec<AnimChunk>,
        /// Zero bytes after the last chunk.
        trailing: u32,
    },
}

/// An `.anim` file as read: its name, its layout and what was tolerated.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnimFile {
    /// The file name it was read from (or is written to).
    pub name: String,
    /// Its blob(s).
    pub layout: AnimLayout,
    /// What was tolerated (unknown chunks, zero bytes between chunks).
    pub notes: Vec<String>,
}

/// True if `bytes` start like a chunked `.anim` (§6).
pub fn is_chunked(bytes: &[u8]) -> bool {
    bytes.get(..4).is_some_and(|m| TAGS.iter().any(|t| t.as_slice() == m))
}

impl AnimFile {
    /// A raw `.anim` of `bytes`.
    pub fn raw(name: impl Into<String>, bytes: Vec<u8>) -> Self {
        AnimFile { name: name.into(), layout: AnimLayout::Raw(bytes), notes: Vec::new() }
    }

    /// A chunked `.anim` without chunks (its blobs added by [`AnimFile::with_blob`]).
    pub fn chunked(name: impl Into<String>) -> Self {
        let layout = AnimLayout::Chunked { chunks: Vec::new(), trailing: 0 };
        AnimFile { name: name.into(), layout, notes: Vec::new() }
    }

    /// The stand-in of an `.anim` that is not beside the model.
    pub fn missing(name: impl Into<String>) -> Self {
        AnimFile { name: name.into(), layout: AnimLayout::Missing, notes: Vec::new() }
    }

    /// Reads an `.anim` named `name`: chunked if it starts with a chunk tag of §6, else raw. A
    /// chunk whose size overruns the file is a typed error naming the file, the offset and the
    /// field.
    pub fn read(name: &str, bytes: Vec<u8>) -> Result<Self, ReadError> {
        if !is_chunked(&bytes) {
            return Ok(AnimFile::raw(name, bytes));
        }
        let mut notes = Vec::new();
        let mut chunks = Vec::new();
        let trailing = walk(&bytes, 0, &mut notes, |found, payload| {
            let ChunkHeader { tag, .. } = found.header;
            let mut notes: Vec<String> = found.unknown(&TAGS, payload.len()).into_iter().collect();
            if chunks.iter().any(|c: &AnimChunk| c.tag == tag) {
                let text = String::from_utf8_lossy(&tag);
                notes.push(format!("a second {text} chunk at byte {}: kept, the first one read", found.at));
            }
            chunks.push(AnimChunk { padding: found.padding, tag, payload: payload.to_vec() });
            Ok(notes)
        })
        .map_err(|e| e.within(name))?;
        let notes = notes.into_iter().map(|n| format!("{name}: {n}")).collect();
        Ok(AnimFile { name: name.into(), layout: AnimLayout::Chunked { chunks, trailing }, notes })
    }

    /// True if the file is chunked.
    pub fn is_chunked(&self) -> bool {
        matches!(self.layout, AnimLayout::Chunked { .. })
    }

    /// The blob holding `part`'s keys: the whole file if raw; the payload of that part's chunk
    /// (the first, if several), else `None`.
    pub fn blob(&self, part: AnimPart) -> Option<&[u8]> {
        match &self.layout {
            AnimLayout::Missing => None,
            AnimLayout::Raw(bytes) => Some(bytes),
            AnimLayout::Chunked { chunks, .. } => {
                chunks.iter().find(|c| &c.tag == part.tag()).map(|c| c.payload.as_slice())
            }
        }
    }

    /// The chunk tags in file order (empty for a raw file).
    pub fn tags(&self) -> Vec<String> {
        match &self.layout {
            AnimLayout::Missing | AnimLayout::Raw(_) => Vec::new(),
            AnimLayout::Chunked { chunks, .. } => {
                chunks.iter().map(|c| String::from_utf8_lossy(&c.tag).into_owned()).collect()
            }
        }
    }

    /// True if the keys are split by kind (an `AFSA` or `AFSB` chunk: a skeleton's `.anim`).
    pub fn is_split(&self) -> bool {
        match &self.layout {
            AnimLayout::Missing | AnimLayout::Raw(_) => false,
            AnimLayout::Chunked { chunks, .. } => chunks.iter().any(|c| &c.tag == b"AFSA" || &c.tag == b"AFSB"),
        }
    }

    /// This file with `part`'s blob replaced by `blob` (a raw file becomes `blob`); a chunked file
    /// without that part gets its chunk appended.
    pub fn with_blob(&self, part: AnimPart, blob: Vec<u8>) -> AnimFile {
        let layout = match &self.layout {
            AnimLayout::Missing | AnimLayout::Raw(_) => AnimLayout::Raw(blob),
            AnimLayout::Chunked { chunks, trailing } => {
                let mut chunks = chunks.clone();
                match chunks.iter_mut().find(|c| &c.tag == part.tag()) {
                    Some(c) => c.payload = blob,
                    None => chunks.push(AnimChunk { padding: 0, tag: *part.tag(), payload: blob }),
                }
                AnimLayout::Chunked { chunks, trailing: *trailing }
            }
        };
        AnimFile { name: self.name.clone(), layout, notes: self.notes.clone() }
    }

    /// The file's bytes: the blob, or every chunk in order (its size the payload's length).
    pub fn to_bytes(&self) -> Result<Vec<u8>, relic_core::WriteError> {
        match &self.layout {
            AnimLayout::Missing => Ok(Vec::new()),
            AnimLayout::Raw(bytes) => Ok(bytes.clone()),
            AnimLayout::Chunked { chunks, trailing } => {
                let mut out = Vec::new();
                for c in chunks {
                    let size = relic_core::error::fit::<u32>("anim chunk size", c.payload.len(), "u32")?;
                    put_chunk(&mut out, c.padding, c.tag, size, &c.payload);
                }
                out.resize(out.len() + *trailing as usize, 0);
                Ok(out)
            }
        }
    }
}

/// What a track reads the keys of an external sequence from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Keys<'a> {
    /// The `.anim` of the sequence is not beside the model (`wrath::read_partial`): no keys.
    Missing,
    /// The blob of the track's part and the file's name (for errors).
    In(&'a [u8], &'a str),
    /// A chunked `.anim` without a chunk for the track's part (its name, the part).
    NoPart(&'a str, AnimPart),
}

impl AnimFile {
    /// Where a track of `part` reads its keys from in this file.
    pub(crate) fn keys(&self, part: AnimPart) -> Keys<'_> {
        match (&self.layout, self.blob(part)) {
            (AnimLayout::Missing, _) => Keys::Missing,
            (_, Some(blob)) => Keys::In(blob, &self.name),
            (_, None) => Keys::NoPart(&self.name, part),
        }
    }
}

/// `(sequence index, blob)` of the keys of external sequences written for one part.
pub type Blobs = Vec<(usize, Vec<u8>)>;

/// The blobs written for each part.
pub type PartBlobs = Vec<(AnimPart, Blobs)>;

/// The `.anim` of each sequence, shared between the sequences that name the same file.
pub type AnimSources = Vec<Option<Arc<AnimFile>>>;

/// The error of an `.anim` whose chunk of `part` is absent while a track has keys in it.
pub(crate) fn no_part(name: &str, part: AnimPart) -> ReadErrorKind {
    let tag = String::from_utf8_lossy(part.tag()).into_owned();
    ReadErrorKind::Invalid(format!("{name} has no {tag} chunk for the keys of this track"))
}
