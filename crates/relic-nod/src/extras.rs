//! What a NOD (and its NADs) hold that the common model does not, carried in
//! [`relic_core::Model::extras`] so that NOD → model → NOD gives the same bytes.
//!
//! The writer uses each piece only while it still fits the model (same groups with the same
//! vertex and face counts and mesh names, same skeleton, the same vertex bindings, the same
//! vertices for the stored box, the same NAD curves); otherwise it rebuilds that piece from the
//! model and reports a [`relic_core::Loss`].
//!
//! Serialised to JSON for glTF `extras` (and accepted back from it). Floats are stored as their
//! IEEE-754 bit patterns (`u32`) so that every value, including the +∞ frame scales of NAD keys and
//! NaN payloads, comes back bit for bit.

use relic_core::model::{ExtrasOps, FormatExtras, Model};
use relic_core::{Loss, extras_ops};
use serde::{Deserialize, Serialize};

use crate::decide::NodChoices;
use crate::options::NadOptions;

/// The NOD crate's extras.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NodExtras {
    /// The readings the model was made with; a writer uses the same so the bytes come back.
    pub choices: NodChoices,
    /// Data of the NOD file the model came from (absent when only animations were attached to a
    /// model from elsewhere).
    pub nod: Option<NodSource>,
    /// The NAD files the model's animations came from.
    pub animations: Vec<NadSource>,
}

/// NOD data without a place in the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NodSource {
    /// ModelFlags as stored (INLINE, STATIC and reserved bits; HASLOD follows the LOD table).
    pub model_flags: u32,
    /// The stored rest-pose box, as bits.
    pub bounds: [u32; 6],
    /// The box of the stored vertices, as bits: the stored box is written back only while the
    /// vertices still have this box.
    pub vertex_box: [u32; 6],
    /// Material name fields as stored (bytes after the NUL included).
    pub materials: Vec<[u8; 32]>,
    /// Mesh name fields as stored, including names no group uses.
    pub mesh_names: Vec<[u8; 32]>,
    /// Per bone: what the model does not keep exactly.
    pub bones: Vec<BoneSource>,
    /// Per group: the bytes the model has no field for.
    pub groups: Vec<GroupSource>,
    /// The LOD collapse table (group-local indices, one per vertex), if the file has one.
    pub lod: Option<Vec<u16>>,
    /// Vertices whose weight, bone number or padding the model's binding does not reproduce
    /// (NOSKINNING groups, weights ≥ 0.999999 other than 1, weights on a root, non-zero padding).
    pub vertex_overrides: Vec<VertexOverride>,
}

/// Bone fields the model derives rather than keeps.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct BoneSource {
    /// `RestTranslate` as bits.
    pub rest_translate: [u32; 3],
    /// Stored SiblingID.
    pub sibling: i16,
    /// Stored ChildID.
    pub child: i16,
    /// Stored ParentID (to tell whether the skeleton is still the same).
    pub parent: i16,
}

/// Group bytes the model has no field for.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct GroupSource {
    /// The 12 reserved bytes.
    pub reserved: [u8; 12],
    /// MinVertices as stored.
    pub min_vertices: u16,
    /// Bytes 22–27 as stored.
    pub tail: [u8; 6],
    /// Vertices of the group (to tell whether it is still the same group).
    pub num_vertices: u16,
    /// Faces of the group.
    pub num_faces: u16,
    /// FNV-1a hash of the group's faces as stored (the LOD table is kept only for the same faces).
    pub faces_hash: u64,
}

/// A vertex's weight, bone number and padding as stored, where the model would write others.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct VertexOverride {
    /// Index in the file's vertex array.
    pub index: u32,
    /// Weight as bits.
    pub weight: u32,
    /// BoneNum.
    pub bone_num: u8,
    /// Bytes 37–39.
    pub pad: [u8; 3],
}

/// A NAD an animation came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NadSource {
    /// The animation's name.
    pub name: String,
    /// The options it was read with.
    pub options: NadOptions,
    /// The file, byte for byte (hex in JSON).
    #[serde(with = "hex_bytes")]
    pub bytes: Vec<u8>,
}

/// The [`ExtrasOps`] of [`NodExtras`] (with JSON).
// serde_json fails only on maps with non-string keys or a failing Serialize; NodExtras has neither, so the
// empty text is never written.
static EXTRAS_OPS: ExtrasOps = extras_ops!(NodExtras, |e: &NodExtras| serde_json::to_string(e).unwrap_or_default());

impl NodExtras {
    /// Wraps the extras for [`Model::extras`].
    pub fn into_format_extras(self) -> FormatExtras {
        FormatExtras::new(crate::FORMAT, self, &EXTRAS_OPS)
    }

    /// The model's NOD extras (typed, or decoded from JSON), with a loss if the model carries
    /// extras that cannot be used.
    /// Borrowed when the model holds them typed (no copy for a write).
    pub fn of(model: &Model) -> (Option<std::borrow::Cow<'_, NodExtras>>, Vec<Loss>) {
        let Some(extras) = &model.extras else { return (None, Vec::new()) };
        if extras.format() != crate::FORMAT {
            let loss = Loss::new(
                "extras",
                format!("{}-specific data travels with the model but cannot be written to a NOD", extras.format()),
            );
            return (None, vec![loss]);
        }
        match extras.typed_or_decoded(|json| serde_json::from_str::<NodExtras>(json)) {
            Some(Ok(decoded)) => (Some(decoded), Vec::new()),
            Some(Err(e)) => {
                (None, vec![Loss::new("extras", format!("NOD extras are unreadable ({e}); rebuilt from the model"))])
            }
            None => (None, Vec::new()),
        }
    }
}

/// FNV-1a over 16-bit values (stable across platforms and runs).
pub(crate) fn fnv1a_u16(values: impl IntoIterator<Item = u16>) -> u64 {
    let mut h = relic_core::hash::Fnv1a::new();
    for v in values {
        h.update(&v.to_le_bytes());
    }
    h.value()
}

/// Bits of six floats.
pub(crate) fn bits6(v: [f32; 6]) -> [u32; 6] {
    v.map(f32::to_bits)
}

/// The box of a set of positions: min x y z, max x y z (zeros when there are none).
pub(crate) fn vertex_box<'a>(positions: impl IntoIterator<Item = &'a [f32; 3]>) -> [f32; 6] {
    relic_core::model::Aabb::of_points(positions).map_or([0.0; 6], |b| {
        let ([x0, y0, z0], [x1, y1, z1]) = (b.min, b.max);
        [x0, y0, z0, x1, y1, z1]
    })
}

mod hex_bytes {
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(bytes: &[u8], s: S) -> Result<S::Ok, S::Error> {
        let mut text = String::with_capacity(bytes.len() * 2);
        for b in bytes {
            text.push_str(&format!("{b:02x}"));
        }
        s.serialize_str(&text)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        let text = String::deserialize(d)?;
        let digits = text.as_bytes();
        if digits.len() % 2 != 0 {
            return Err(serde::de::Error::custom("odd number of hex digits"));
        }
        digits
            .chunks_exact(2)
            .map(|pair| {
                std::str::from_utf8(pair)
                    .ok()
                    .and_then(|p| u8::from_str_radix(p, 16).ok())
                    .ok_or_else(|| serde::de::Error::custom("not a hex digit"))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_round_trip_is_exact() {
        let e = NodExtras {
            choices: NodChoices::defaults(),
            nod: None,
            animations: vec![NadSource {
                name: "walk".into(),
                options: NadOptions::default(),
                bytes: vec![0, 0x80, 0x7f, 0xff],
            }],
        };
        let json = serde_json::to_string(&e).unwrap();
        assert!(json.contains("\"0080"), "{json}");
        assert_eq!(serde_json::from_str::<NodExtras>(&json).unwrap(), e);
        assert_eq!(vertex_box(&[[1.0, 2.0, 3.0], [-1.0, 5.0, 0.0]]), [-1.0, 2.0, 0.0, 1.0, 5.0, 3.0]);
        assert_ne!(fnv1a_u16([1, 2]), fnv1a_u16([2, 1]));
    }
}
