//! `.bone` files (m2-md21.md §8, \[unconfirmed\]: wow.export's `BONELoader` alone): a `u32`
//! (a version?) then chunks — `BIDA` (u16 bone ids) and `BOMT` (4×4 f32 matrices). A chunked
//! model names them in `BFID`; beside the model they are `<stem>_<index:02>.bone` (pywowlib's
//! name, by variation of the sequence that uses them). Read defensively: a chunk whose size is
//! not a whole number of its entries, or any other chunk, is kept as bytes; every file is written
//! back byte for byte. Wrath has no equivalent: porting down drops them with a loss.

use relic_core::{ReadError, WriteError};
use serde::{Deserialize, Serialize};

use crate::chunk::{put_chunk, walk};

/// A `.bone` chunk's payload.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum BoneData {
    /// `BIDA`: bone ids (u16 each).
    BoneIds(Vec<u16>),
    /// `BOMT`: one 4×4 matrix (16 f32, as stored) per bone.
    Matrices(Vec<[f32; 16]>),
    /// Any other chunk, or one whose size does not fit its entries, as read.
    Raw(Vec<u8>),
}

/// One chunk of a `.bone` file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BoneChunk {
    /// Zero bytes before the chunk.
    pub padding: u32,
    /// The tag.
    pub tag: [u8; 4],
    /// The payload.
    pub data: BoneData,
}

/// A `.bone` file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BoneFile {
    /// The file name.
    pub name: String,
    /// The first u32 (a version? \[unconfirmed\]), kept.
    pub version: u32,
    /// The chunks in file order.
    pub chunks: Vec<BoneChunk>,
    /// Zero bytes after the last chunk.
    pub trailing: u32,
    /// What was tolerated.
    pub notes: Vec<String>,
}

/// The `.bone` file name of entry `index` of `BFID` for the model named `stem`.
pub fn bone_name(stem: &str, index: usize) -> String {
    format!("{stem}_{index:02}.bone")
}

impl BoneFile {
    /// Reads a `.bone` file: a u32, then chunks (every size checked against the bytes left).
    pub fn read(name: &str, bytes: &[u8]) -> Result<Self, ReadError> {
        let Some(first) = bytes.get(..4) else {
            return Err(ReadError::at(0, "version", relic_core::ReadErrorKind::Truncated).within(name));
        };
        let mut v = [0; 4];
        v.copy_from_slice(first);
        let mut notes = Vec::new();
        let mut chunks = Vec::new();
        let trailing = walk(bytes, 4, &mut notes, |found, payload| {
            let tag = found.header.tag;
            let text = String::from_utf8_lossy(&tag).into_owned();
            let data = match &tag {
                b"BIDA" if payload.len() % 2 == 0 => {
                    BoneData::BoneIds(payload.as_chunks::<2>().0.iter().map(|b| u16::from_le_bytes(*b)).collect())
                }
                b"BOMT" if payload.len() % 64 == 0 => BoneData::Matrices(
                    payload
                        .as_chunks::<64>()
                        .0
                        .iter()
                        .map(|m| {
                            let mut out = [0f32; 16];
                            for (o, b) in out.iter_mut().zip(m.as_chunks::<4>().0) {
                                *o = f32::from_le_bytes(*b);
                            }
                            out
                        })
                        .collect(),
                ),
                _ => BoneData::Raw(payload.to_vec()),
            };
            let mut notes = Vec::new();
            if matches!(data, BoneData::Raw(_)) {
                notes.push(format!("chunk {text:?} at byte {} ({} bytes) is kept as bytes", found.at, payload.len()));
            }
            chunks.push(BoneChunk { padding: found.padding, tag, data });
            Ok(notes)
        })
        .map_err(|e| e.within(name))?;
        let notes = notes.into_iter().map(|n| format!("{name}: {n}")).collect();
        Ok(BoneFile { name: name.into(), version: u32::from_le_bytes(v), chunks, trailing, notes })
    }

    /// The bone ids of `BIDA` (empty without it).
    pub fn bone_ids(&self) -> &[u16] {
        self.chunks
            .iter()
            .find_map(|c| match &c.data {
                BoneData::BoneIds(ids) => Some(ids.as_slice()),
                _ => None,
            })
            .unwrap_or_default()
    }

    /// The file's bytes.
    pub fn write(&self) -> Result<Vec<u8>, WriteError> {
        let mut out = self.version.to_le_bytes().to_vec();
        for c in &self.chunks {
            let payload: Vec<u8> = match &c.data {
                BoneData::BoneIds(ids) => ids.iter().flat_map(|i| i.to_le_bytes()).collect(),
                BoneData::Matrices(m) => m.iter().flatten().flat_map(|f| f.to_le_bytes()).collect(),
                BoneData::Raw(bytes) => bytes.clone(),
            };
            let size = relic_core::error::fit::<u32>("bone chunk size", payload.len(), "u32")?;
            put_chunk(&mut out, c.padding, c.tag, size, &payload);
        }
        out.resize(out.len() + self.trailing as usize, 0);
        Ok(out)
    }
}
