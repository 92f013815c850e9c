//! [`EmitterRecord`]: an MDX emitter whole, what a model's emitter carries as its record
//! ([`Emitter::record`](relic_core::model::Emitter::record)).

use std::borrow::Cow;

use relic_core::model::{Emitter, ExtrasOps, FormatExtras};

use crate::file::{
    Chunk, Material, MdxFile, ParticleEmitter, ParticleEmitter2, RibbonEmitter, Sequence, Texture, Track,
};

/// One PREM, PRE2 or RIBB record of a file, with the records its indices name, so that the
/// emitter is written back exactly into a file whose TEXS and MTLS were rebuilt from the model.
/// Its JSON form (glTF extras) is a small MDX of these records, base64, as [`crate::extras::MdxExtras`]'s.
#[derive(Debug, Clone, PartialEq)]
pub struct EmitterRecord {
    /// The `VERS` of the file it was read from (the layout its records were read with).
    pub version: u32,
    /// The record as read (its node's object id and parent id are the file's).
    pub emitter: EmitterChunk,
    /// The textures it names: PRE2's `TextureID`, or the textures of its material's layers (RIBB,
    /// in layer order); empty where the index is out of the file's table, and for PREM (which
    /// names its file itself).
    pub textures: Vec<Texture>,
    /// RIBB: the material its `MaterialID` names, each layer's `TextureID` an index into
    /// `textures` (out of it where the file's was out of TEXS).
    pub material: Option<Material>,
    /// The file's sequences when the record has keys on the sequences' timeline (not on a global
    /// sequence): a writer moves the keys with their sequences.
    pub sequences: Vec<Sequence>,
}

/// The record of one emitter, by chunk.
#[derive(Debug, Clone, PartialEq)]
pub enum EmitterChunk {
    /// PREM: a particle emitter of the first kind.
    Prem(ParticleEmitter),
    /// PRE2: a particle emitter of the second kind.
    Pre2(ParticleEmitter2),
    /// RIBB: a ribbon emitter.
    Ribbon(RibbonEmitter),
}

impl EmitterChunk {
    /// The record's node.
    pub fn node(&self) -> &crate::file::Node {
        match self {
            Self::Prem(e) => &e.node,
            Self::Pre2(e) => &e.node,
            Self::Ribbon(e) => &e.node,
        }
    }

    /// The record's own tracks (its node's aside).
    pub fn tracks(&self) -> &[Track] {
        match self {
            Self::Prem(e) => &e.tracks,
            Self::Pre2(e) => &e.tracks,
            Self::Ribbon(e) => &e.tracks,
        }
    }

    /// The record's own tracks, to change.
    pub fn tracks_mut(&mut self) -> &mut Vec<Track> {
        match self {
            Self::Prem(e) => &mut e.tracks,
            Self::Pre2(e) => &mut e.tracks,
            Self::Ribbon(e) => &mut e.tracks,
        }
    }

    /// The record as a chunk of one record.
    fn chunk(&self) -> Chunk {
        match self {
            Self::Prem(e) => Chunk::ParticleEmitters(vec![e.clone()]),
            Self::Pre2(e) => Chunk::ParticleEmitters2(vec![e.clone()]),
            Self::Ribbon(e) => Chunk::RibbonEmitters(vec![e.clone()]),
        }
    }
}

impl EmitterRecord {
    /// The record as a small file: VERS, SEQS, TEXS, MTLS when it has them, then the record's
    /// chunk.
    fn file(&self) -> MdxFile {
        let mut chunks = vec![Chunk::Version(self.version)];
        if !self.sequences.is_empty() {
            chunks.push(Chunk::Sequences(self.sequences.clone()));
        }
        if !self.textures.is_empty() {
            chunks.push(Chunk::Textures(self.textures.clone()));
        }
        if let Some(m) = &self.material {
            chunks.push(Chunk::Materials(vec![m.clone()]));
        }
        chunks.push(self.emitter.chunk());
        MdxFile { chunks }
    }

    /// The record back from [`EmitterRecord::file`].
    fn from_file(file: MdxFile) -> Result<Self, String> {
        let version = file.version();
        let (mut emitter, mut textures, mut material, mut sequences) = (None, Vec::new(), None, Vec::new());
        for c in file.chunks {
            match c {
                Chunk::Sequences(s) => sequences = s,
                Chunk::Textures(t) => textures = t,
                Chunk::Materials(m) => material = m.into_iter().next(),
                Chunk::ParticleEmitters(v) => emitter = v.into_iter().next().map(EmitterChunk::Prem),
                Chunk::ParticleEmitters2(v) => emitter = v.into_iter().next().map(EmitterChunk::Pre2),
                Chunk::RibbonEmitters(v) => emitter = v.into_iter().next().map(EmitterChunk::Ribbon),
                _ => {}
            }
        }
        let emitter = emitter.ok_or("the stored record holds no PREM, PRE2 or RIBB")?;
        Ok(Self { version, emitter, textures, material, sequences })
    }

    /// The record as an emitter's [`FormatExtras`].
    pub(crate) fn attach(self) -> FormatExtras {
        FormatExtras::new(crate::FORMAT, self, &EMITTER_OPS)
    }

    /// The MDX record of an emitter, typed or from its JSON text (after glTF): `None` when it
    /// carries none of MDX, `Err` saying why one of MDX does not read.
    pub(crate) fn of(e: &Emitter) -> Option<Result<Cow<'_, EmitterRecord>, String>> {
        let record = e.record.as_ref().filter(|r| r.format() == crate::FORMAT)?;
        Some(match record.typed_or_decoded(from_json) {
            Some(r) => r,
            None => Err("its record holds another type than relic_mdx::EmitterRecord".into()),
        })
    }
}

/// The JSON form: the record's small file.
#[derive(serde::Serialize, serde::Deserialize)]
struct Json {
    /// [`EmitterRecord::file`]'s bytes, base64.
    emitter: String,
}

fn to_json(r: &EmitterRecord) -> String {
    // A record that was read (or decoded from this form) writes: never the empty default.
    let bytes = r.file().to_bytes().unwrap_or_default();
    // Serializing a struct of one string cannot fail.
    serde_json::to_string(&Json { emitter: relic_core::base64::encode(&bytes) }).unwrap_or_default()
}

fn from_json(text: &str) -> Result<EmitterRecord, String> {
    let json: Json = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let bytes = relic_core::base64::decode(json.emitter.as_bytes()).ok_or("the record is not base64")?;
    let file = crate::read(&bytes).map_err(|e| format!("the stored record does not read: {e}"))?;
    EmitterRecord::from_file(file)
}

/// The records' operations.
static EMITTER_OPS: ExtrasOps = relic_core::extras_ops!(EmitterRecord, to_json);

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn a_record_goes_through_its_json_form_unchanged() {
        let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/mdx/v800_full.mdx")).unwrap();
        let file = crate::read(&bytes).unwrap();
        let ribbon = file
            .chunks
            .iter()
            .find_map(|c| if let Chunk::RibbonEmitters(v) = c { v.first().cloned() } else { None })
            .unwrap();
        let record = EmitterRecord {
            version: 800,
            emitter: EmitterChunk::Ribbon(ribbon),
            textures: vec![Texture { replaceable_id: 1, path: Default::default(), flags: 3 }],
            material: None,
            sequences: Vec::new(),
        };
        let back = from_json(&to_json(&record)).unwrap();
        assert_eq!(back, record);
        assert!(from_json("{\"emitter\":\"AAAA\"}").is_err());
    }
}
