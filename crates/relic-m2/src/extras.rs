//! What the common model does not hold: the file itself (carried as JSON by `carried`).

use serde::{Deserialize, Serialize};

use crate::file::{M2File, Vertex};

/// What an M2 holds that the common model does not: the file as read, without its vertex array
/// (the model's meshes hold those). [`crate::from_ir()`] takes each section from here while mapping
/// it gives exactly what the model now holds, and rebuilds it from the model otherwise.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct M2Extras {
    /// The file as read, `vertices` emptied.
    pub file: M2File,
    /// A digest of the vertex array as read, normals aside ([`vertex_digest`]): the writer keeps
    /// the file's views when the meshes still give these vertices, and rebuilds them otherwise.
    /// Absent in extras written before it existed (then the views are kept while they fit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vertex_digest: Option<String>,
    /// For a model read from Wrath or later (264, 272): that file and its `.skin` files, vertices
    /// emptied; `file` is then its 256–263 form (version 263), from which the model was mapped,
    /// and `classic_losses` what that form cannot hold: both are derived from this file again when
    /// the extras travel as JSON.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wrath: Option<Box<crate::wrath::Wrath>>,
    /// What the 256–263 form could not hold of the Wrath file (`(element, what)`), reported when
    /// the model is written as 256–263.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub classic_losses: Vec<(String, String)>,
}

/// A digest of a vertex array, normals aside: its count and a 64-bit hash of every other byte
/// (positions, weights, bone indices, texture coordinates), as text (`"6:1f…:normals-free"`).
///
/// Normals are left out because an editor moves them by float noise without an edit (Blender
/// keeps custom normals compressed: about 1e-5 at vertices shared by submeshes, issue 27), and
/// because the writer takes them from the model either way: a changed normal is carried into the
/// file's own vertex array, it does not call for new views.
///
/// Every step of the hash is a bijection of its state for a given input word, so two arrays of
/// the same length that differ in one 8-byte word (one vertex moved, one weight changed) never
/// share a digest. Not a cryptographic hash: it tells an edit from no edit, not one file from
/// another crafted to match.
pub(crate) fn vertex_digest(vertices: &[Vertex]) -> String {
    format!("{}:{:016x}{NORMALS_FREE}", vertices.len(), hash(vertices, true))
}

/// What ends a digest that leaves the normals out ([`vertex_digest`]); a digest without it (extras
/// written before 2026-11-28) hashed every byte, normals included.
const NORMALS_FREE: &str = ":normals-free";

/// Whether `vertices` have the digest `recorded` (either kind: see [`NORMALS_FREE`]).
pub(crate) fn digest_matches(recorded: &str, vertices: &[Vertex]) -> bool {
    match recorded.strip_suffix(NORMALS_FREE) {
        Some(_) => recorded == vertex_digest(vertices),
        None => recorded == format!("{}:{:016x}", vertices.len(), hash(vertices, false)),
    }
}

/// The hash of a vertex array's bytes, with every normal read as zero where `normals_free`.
fn hash(vertices: &[Vertex], normals_free: bool) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut h = 0u64;
    for v in vertices {
        let v = if normals_free { Vertex { normal: [0.0; 3], ..*v } } else { *v };
        let bytes: &[u8] = bytemuck::bytes_of(&v);
        let (words, rest) = bytes.as_chunks::<8>();
        for w in words {
            h = (h.rotate_left(5) ^ u64::from_le_bytes(*w)).wrapping_mul(K);
        }
        // 48-byte vertices: no bytes are left over, but the hash does not rely on it.
        for &b in rest {
            h = (h.rotate_left(5) ^ u64::from(b)).wrapping_mul(K);
        }
    }
    h
}

/// One particle or ribbon emitter of the file, whole: what
/// [`Emitter::record`](relic_core::model::Emitter::record) holds for M2, with the records its
/// indices name, so that the emitter is written back exactly even into a file whose texture and
/// render-flag tables were rebuilt (a model without its M2 extras).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct EmitterRecord {
    /// The particle emitter as read (its `bone` and `texture` are the file's indices).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub particle: Option<crate::file::Particle>,
    /// The ribbon emitter as read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ribbon: Option<crate::file::Ribbon>,
    /// The texture records its texture indices name, in their order (absent where an index is
    /// out of the file's table).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub textures: Vec<crate::file::Texture>,
    /// The render-flag records a ribbon's material indices name, in their order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub render_flags: Vec<crate::file::RenderFlag>,
    /// From Wrath on: the particle emitter as the Wrath file holds it (`particle` is its 256–263
    /// form, which cannot hold all of it); written back where its 256–263 form is still the
    /// emitter written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wrath_particle: Option<crate::file::wrath::WrathParticle>,
    /// From Wrath on: the ribbon emitter as the Wrath file holds it (see `wrath_particle`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wrath_ribbon: Option<crate::file::wrath::WrathRibbon>,
}

/// The emitter records' operations (JSON through serde).
static EMITTER_OPS: relic_core::model::ExtrasOps =
    // Serialising plain data with derived Serialize cannot fail; the empty text is never written.
    relic_core::extras_ops!(EmitterRecord, |r: &EmitterRecord| serde_json::to_string(r).unwrap_or_default());

impl EmitterRecord {
    /// The record as an emitter's [`FormatExtras`](relic_core::model::FormatExtras).
    pub(crate) fn attach(self) -> relic_core::model::FormatExtras {
        relic_core::model::FormatExtras::new(crate::FORMAT, self, &EMITTER_OPS)
    }

    /// The M2 record of an emitter, typed or from its JSON text (after glTF); `Err` says why
    /// there is none.
    pub(crate) fn of(e: &relic_core::model::Emitter) -> Result<std::borrow::Cow<'_, EmitterRecord>, String> {
        let record = e.record.as_ref().ok_or("it carries no record of a game format")?;
        if record.format() != crate::FORMAT {
            return Err(format!("it carries a {} record, not an M2 one", record.format()));
        }
        match record.typed_or_decoded(|text| serde_json::from_str::<EmitterRecord>(text)) {
            Some(Ok(r)) => Ok(r),
            Some(Err(e)) => Err(format!("its M2 record does not read ({e})")),
            None => Err("its record holds another type than relic_m2::EmitterRecord".into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vertex(x: f32) -> Vertex {
        Vertex { position: [x, 1.0, 2.0], bone_weights: [255, 0, 0, 0], normal: [0.0, 0.0, 1.0], ..Vertex::default() }
    }

    #[test]
    fn the_digest_leaves_normals_out_and_reads_the_older_digest_of_every_byte() {
        let vertices = [vertex(0.0), vertex(1.0)];
        let digest = vertex_digest(&vertices);
        assert!(digest.starts_with("2:") && digest.ends_with(NORMALS_FREE), "{digest}");
        let mut turned = vertices;
        turned[1].normal = [0.0, 1.0, 0.0];
        assert!(digest_matches(&digest, &turned), "a normal is not in the digest");
        let mut moved = vertices;
        moved[1].position[0] = 1.5;
        assert!(!digest_matches(&digest, &moved));
        assert!(!digest_matches(&digest, &vertices[..1]));
        // Extras written before: every byte, normals too.
        let older = format!("2:{:016x}", hash(&vertices, false));
        assert!(digest_matches(&older, &vertices));
        assert!(!digest_matches(&older, &turned));
    }
}
