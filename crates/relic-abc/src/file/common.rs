//! What both families share: the 28-byte translation + rotation record, the section header,
//! unknown sections, and small helpers (error context, bulk writers, Windows-1252 text).

use binrw::binrw;
use bytemuck::{Pod, Zeroable};
use relic_core::ReadErrorKind;
use relic_core::binary::LenString;
use relic_core::error::custom;

/// A translation followed by a rotation quaternion `(x, y, z, w)`: 28 bytes, the layout of every
/// animation key (v6 node keyframes, v9–v13 transforms) and of child-model relations.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default, Pod, Zeroable, serde::Serialize, serde::Deserialize)]
pub struct NodeKey {
    /// Translation relative to the parent node, game units.
    pub translation: [f32; 3],
    /// Rotation relative to the parent node, `[x, y, z, w]`.
    pub rotation: [f32; 4],
}

impl NodeKey {
    /// No translation, no rotation.
    pub const IDENTITY: NodeKey = NodeKey { translation: [0.0; 3], rotation: [0.0, 0.0, 0.0, 1.0] };
}

/// The header in front of every section (abc.md §2).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SectionHeader {
    /// Section name (`Header`, `Pieces`, …).
    pub(crate) name: LenString,
    /// Absolute file offset of the next section's header; −1 on the last section.
    pub(crate) next: i32,
}

/// A section whose name this crate does not know, kept byte for byte.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize, serde::Deserialize)]
pub struct UnknownSection {
    /// The section name as stored (Windows-1252).
    #[serde(with = "crate::file::common::text_bytes")]
    pub name: Vec<u8>,
    /// Everything between the section header and the next section.
    #[serde(with = "relic_core::packed")]
    pub body: Vec<u8>,
}

pub(crate) use relic_core::binary::{in_field, write_pod_field as pods, write_records_field as recs};

/// Adds an element index to an error's path.
pub(crate) fn at_index(error: binrw::Error, index: usize) -> binrw::Error {
    relic_core::binary::in_element(error, index)
}

/// A "value breaks a rule of the format" error at `pos`.
pub(crate) fn invalid(pos: u64, message: impl Into<String>) -> binrw::Error {
    custom(pos, ReadErrorKind::Invalid(message.into()))
}

/// Stored string bytes as text (Windows-1252, every byte one character, exact both ways).
pub(crate) fn text(s: &LenString) -> String {
    s.to_text()
}

/// Text back to stored bytes; characters outside Windows-1252 become `?` (callers report that).
pub(crate) fn len_string(text: &str) -> LenString {
    LenString::from_text(text).unwrap_or_else(|| LenString::from(text))
}

/// True if `text` has a character Windows-1252 cannot store.
pub(crate) fn not_cp1252(text: &str) -> bool {
    LenString::from_text(text).is_none()
}

/// Serde for stored string bytes as Windows-1252 text (readable JSON, exact round trip).
pub(crate) mod text_bytes {
    use serde::{Deserialize, Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer>(bytes: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&relic_core::text::decode_cp1252(bytes))
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        let text = String::deserialize(d)?;
        relic_core::text::encode_cp1252(&text)
            .ok_or_else(|| serde::de::Error::custom("string has a character outside Windows-1252"))
    }
}

/// Serde for a [`LenString`] as Windows-1252 text.
pub(crate) mod len_string {
    use relic_core::binary::LenString;
    use serde::{Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer>(s: &LenString, ser: S) -> Result<S::Ok, S::Error> {
        super::text_bytes::serialize(&s.0, ser)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<LenString, D::Error> {
        super::text_bytes::deserialize(d).map(LenString)
    }
}
