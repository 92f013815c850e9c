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
    /// A digest of the vertex array as read (`"868:1f…:near:…"`: the count, a hash of the bone
    /// indices and weights, and four random projections of positions and texture coordinates
    /// compared within float noise; normals aside): the writer keeps the file's views when the
    /// meshes still give these vertices, and rebuilds them otherwise.
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
    /// Vertices no view names, with their index in the vertex array (converter-written files
    /// keep them; the game never draws them): the model cannot hold them, so the writer puts them
    /// back at their places while the meshes are the ones read.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unviewed_vertices: Vec<(u32, crate::file::Vertex)>,
    /// For a model read from a chunked file (`MD21`): its chunks, so that it is written back in
    /// them (`wrath` is then the model of its `MD21` chunk).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub md21: Option<crate::md21::Container>,
}

/// A digest of a vertex array that an editor's float noise leaves alone and an edit does not, as
/// text (`"868:1f…:near:0.25,-1.5,3.0,0.125"`): the vertex count; a 64-bit hash of what must not
/// change at all (every vertex's bone indices and weights); and [`SKETCHES`] random projections
/// of its positions and texture coordinates (sums of each value times a weight in −1..1 fixed by
/// the vertex, the value and the projection), which noise moves by less than [`float_noise`] on every value allows and
/// a moved vertex by more. Only a change larger than every value's noise together is seen (on
/// 500 vertices about 0.01 units): a smaller one keeps the views, which it cannot invalidate, and
/// is written all the same (the vertex array's values are the model's).
///
/// Normals are left out: Blender keeps custom normals compressed (about 1e-5 of noise at
/// vertices shared by submeshes, issue 27), and the writer takes them from the model either way,
/// into the file's own views. Positions and texture coordinates come back from Blender up to an
/// ulp or two off (m2-wrath/creature.m2): the views they were read with still hold them, and the
/// model's values are what is written.
///
/// Every step of the hash is a bijection of its state for a given input word, so two arrays that
/// differ in one weight or bone index never share it. Not a cryptographic digest: it tells an
/// edit from no edit, not one file from another crafted to match.
pub(crate) fn vertex_digest(vertices: &[Vertex]) -> String {
    let sketches = projections(vertices).0.map(|s| format!("{s:?}")).join(",");
    format!("{}:{:016x}{NEAR}{sketches}", vertices.len(), hash(vertices, Fields::Influences))
}

/// What separates [`vertex_digest`]'s hash from its projections; a digest without it (extras
/// written before 2026-11-28) hashed every byte of the vertices, normals included.
const NEAR: &str = ":near:";

/// How many random projections [`vertex_digest`] keeps.
const SKETCHES: usize = 4;

/// Whether `vertices` have the digest `recorded` (either kind: see [`NEAR`]).
pub(crate) fn digest_matches(recorded: &str, vertices: &[Vertex]) -> bool {
    let Some((exact, sketches)) = recorded.split_once(NEAR) else {
        return recorded == format!("{}:{:016x}", vertices.len(), hash(vertices, Fields::All));
    };
    if exact != format!("{}:{:016x}", vertices.len(), hash(vertices, Fields::Influences)) {
        return false;
    }
    let recorded: Vec<f64> = sketches.split(',').filter_map(|s| s.parse().ok()).collect();
    let (now, allowed) = projections(vertices);
    recorded.len() == SKETCHES
        && recorded.iter().zip(now).zip(allowed).all(|((r, n), allowed)| (r - n).abs() <= allowed)
}

/// The values of a vertex the projections hold: position, then both texture coordinates.
fn projected(v: &Vertex) -> [f32; 7] {
    let [x, y, z] = v.position;
    let ([u, w], [u2, w2]) = (v.tex_coords, v.tex_coords2);
    [x, y, z, u, w, u2, w2]
}

/// The weight of value `c` of vertex `i` in projection `k`: a fixed pseudo-random number in
/// −1..1 (splitmix64 of the three).
fn weight(k: usize, i: usize, c: usize) -> f64 {
    let mut z = (((k as u64) << 56) ^ ((i as u64) << 3) ^ c as u64).wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 52) as f64 - 1.0
}

/// How far an editor's float noise may move a stored value `x`: four ulps of an f32 (5e-7 of
/// itself) plus 1e-7 (an ulp of 1: a texture coordinate flipped as `1 − v` and back).
pub(crate) fn float_noise(x: f32) -> f32 {
    5e-7 * x.abs() + 1e-7
}

/// The projections of `vertices`, and how far each may be from the recorded one and still be
/// float noise (every value off by [`float_noise`], all in the same direction), in one pass.
fn projections(vertices: &[Vertex]) -> ([f64; SKETCHES], [f64; SKETCHES]) {
    let (mut sums, mut noise) = ([0.0f64; SKETCHES], [0.0f64; SKETCHES]);
    for (i, v) in vertices.iter().enumerate() {
        for (c, x) in projected(v).into_iter().enumerate() {
            let allowed = f64::from(float_noise(x));
            for (k, (sum, noise)) in sums.iter_mut().zip(noise.iter_mut()).enumerate() {
                let w = weight(k, i, c);
                *sum += w * f64::from(x);
                *noise += w.abs() * allowed;
            }
        }
    }
    // A percent more for the rounding of the sums themselves.
    (sums, noise.map(|n| n * 1.01))
}

/// Which bytes of a vertex [`hash`] reads.
#[derive(Clone, Copy, PartialEq)]
enum Fields {
    /// Every byte (the digest of extras written before 2026-11-28).
    All,
    /// Bone weights and indices only.
    Influences,
}

/// A hash of the vertex array's `fields`.
fn hash(vertices: &[Vertex], fields: Fields) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut h = 0u64;
    for v in vertices {
        let v = match fields {
            Fields::All => *v,
            Fields::Influences => {
                Vertex { bone_weights: v.bone_weights, bone_indices: v.bone_indices, ..Vertex::default() }
            }
        };
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
        let (position, tex_coords) = ([x, 1.0, 2.0], [x * 0.5, 0.25]);
        Vertex { position, bone_weights: [255, 0, 0, 0], normal: [0.0, 0.0, 1.0], tex_coords, ..Vertex::default() }
    }

    #[test]
    fn the_digest_passes_float_noise_and_no_edit_and_reads_the_older_digest_of_every_byte() {
        let vertices: Vec<Vertex> = (0..500).map(|i| vertex(i as f32 * 0.01)).collect();
        let digest = vertex_digest(&vertices);
        assert!(digest.starts_with("500:") && digest.contains(NEAR), "{digest}");
        assert!(digest_matches(&digest, &vertices));
        let mut turned = vertices.clone();
        turned[1].normal = [0.0, 1.0, 0.0];
        assert!(digest_matches(&digest, &turned), "a normal is not in the digest");
        // Every position and texture coordinate an ulp off, as Blender gives them back.
        let mut noisy = vertices.clone();
        for (i, v) in noisy.iter_mut().enumerate() {
            let up = |x: f32| if i % 2 == 0 { f32::from_bits(x.to_bits() + 1) } else { x };
            v.position = v.position.map(up);
            v.tex_coords = v.tex_coords.map(up);
        }
        assert!(digest_matches(&digest, &noisy), "float noise is no edit");
        for moved_by in [0.01, 0.05, 0.5] {
            let mut moved = vertices.clone();
            moved[7].position[0] += moved_by;
            assert!(!digest_matches(&digest, &moved), "a vertex moved by {moved_by}");
        }
        let mut weighted = vertices.clone();
        weighted[3].bone_weights = [254, 1, 0, 0];
        assert!(!digest_matches(&digest, &weighted));
        assert!(!digest_matches(&digest, &vertices[..1]));
        // Extras written before: every byte, normals too.
        let older = format!("500:{:016x}", hash(&vertices, Fields::All));
        assert!(digest_matches(&older, &vertices));
        assert!(!digest_matches(&older, &turned));
    }
}
