//! Pieces and LODs → meshes; texture slots → materials.

use relic_core::math::{self, Mat4};
use relic_core::model::{Influence, Lod as ModelLod, Material, Mesh, Model, Skin, TextureRef};
use relic_lithtech::frame::LITHTECH;

use crate::file::streams::flag;
use crate::file::{LtbFile, RenderObject, SkeletalMesh, VertexStream};

/// The influences of one vertex: at most four, no allocation per vertex.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Four {
    items: [Influence; 4],
    len: usize,
}

impl Default for Four {
    fn default() -> Self {
        Four { items: [Influence { bone: 0, weight: 0.0 }; 4], len: 0 }
    }
}

impl Four {
    fn one(bone: u32) -> Self {
        let mut f = Four::default();
        f.push(bone, 1.0);
        f
    }
    fn push(&mut self, bone: u32, weight: f32) {
        if let Some(slot) = self.items.get_mut(self.len) {
            *slot = Influence { bone, weight };
            self.len += 1;
        }
    }
    /// The influences with a weight above 0; the first node alone if none has one.
    fn kept(self, first: u32) -> impl Iterator<Item = Influence> {
        let any = self.items.iter().take(self.len).any(|i| i.weight > 0.0);
        let fallback = (!any).then_some(Influence { bone: first, weight: 1.0 });
        self.items.into_iter().take(self.len).filter(|i| i.weight > 0.0).chain(fallback)
    }
}

/// The material of a list of texture slots (made on first use): `skin 0`, `skins 0 1 2`.
fn material_for(slots: &[i32], model: &mut Model) -> usize {
    let name = match slots {
        [one] => format!("skin {one}"),
        _ => format!("skins {}", slots.iter().map(i32::to_string).collect::<Vec<_>>().join(" ")),
    };
    if let Some(i) = model.materials.iter().position(|m| m.name == name) {
        return i;
    }
    let textures = slots
        .iter()
        .map(|&s| TextureRef {
            slot: u32::try_from(s).ok(),
            uv_set: Some(0),
            wrap_u: true,
            wrap_v: true,
            ..TextureRef::default()
        })
        .collect();
    model.materials.push(Material { name, textures, depth_write: true, ..Material::default() });
    model.materials.len() - 1
}

/// One mesh per piece and LOD.
pub(super) fn meshes(file: &LtbFile, binds: &[Mat4], model: &mut Model) {
    for piece in &file.pieces {
        for (level, lod) in piece.lods.iter().enumerate() {
            let material = material_for(lod.used_textures(), model);
            let mut mesh = Mesh {
                name: piece.name.to_text(),
                material: Some(material),
                // A distance per LOD (the reader reads both with one count; `to_ir` refuses a file
                // where they differ): the 0 is never taken.
                lod: ModelLod { level: level as u32, distance: piece.lod_distances.get(level).copied().unwrap_or(0.0) },
                ..Mesh::default()
            };
            vertices(&lod.object, binds, &mut mesh);
            model.meshes.push(mesh);
        }
    }
}

/// The mesh of a render object alone (no name, material or LOD): what `from_ir` compares a
/// model's mesh with.
pub(crate) fn lod_mesh(object: &RenderObject, binds: &[Mat4]) -> Mesh {
    let mut mesh = Mesh::default();
    vertices(object, binds, &mut mesh);
    mesh
}

/// The model-frame columns of a render object's streams.
fn vertices(object: &RenderObject, binds: &[Mat4], mesh: &mut Mesh) {
    let n = object.vertex_count() as usize;
    // No position (normal) stream: no positions (normals); a mesh without positions is emptied below.
    let positions = object.stream_with(flag::POSITION).map(|s| s.positions.as_slice()).unwrap_or_default();
    let normals = object.stream_with(flag::NORMAL).map(|s| s.normals.as_slice()).unwrap_or_default();
    // A vertex-animated mesh's vertices are in its effector's space.
    let place = match object {
        RenderObject::VertexAnimated(m) => binds.get(m.bone_effector as usize).copied(),
        _ => None,
    };
    mesh.positions = positions
        .iter()
        .map(|p| {
            let p = LITHTECH.vector_to_ir(*p);
            place.map_or(p, |m| math::transform_point(&m, p))
        })
        .collect();
    mesh.normals = normals
        .iter()
        .map(|v| {
            let v = LITHTECH.vector_to_ir(*v);
            place.map_or(v, |m| math::transform_vector(&m, v))
        })
        .collect();
    if let Some((streams, _, _)) = object.streams() {
        mesh.uv_sets = streams.iter().flat_map(|s| s.uv_sets.iter()).take(2).cloned().collect();
    }
    mesh.triangles = object
        .indices()
        .chunks_exact(3)
        .filter_map(|t| <[u16; 3]>::try_from(t).ok())
        .map(|[a, b, c]| [c, b, a].map(u32::from))
        .collect();
    if mesh.positions.len() != n {
        // A mesh without a position stream (or streams the engine's reading drops) has no
        // vertices the model can place.
        mesh.positions = Vec::new();
        mesh.normals = Vec::new();
        mesh.uv_sets = Vec::new();
        mesh.triangles = Vec::new();
        return;
    }
    if mesh.normals.len() != n {
        mesh.normals = Vec::new();
    }
    mesh.uv_sets.retain(|s| s.len() == n);
    mesh.skin = match object {
        RenderObject::Rigid(m) => Skin::from_vertices((0..n).map(|_| Four::one(m.bone).kept(m.bone))),
        RenderObject::VertexAnimated(m) => {
            Skin::from_vertices((0..n).map(|_| Four::one(m.bone_effector).kept(m.bone_effector)))
        }
        RenderObject::Skeletal(m) => skeletal_skin(m, n),
        RenderObject::Null | RenderObject::Opaque { .. } => Skin::default(),
    };
}

/// The influences of a skeletal mesh's vertices (ltb.md §6.5, §6.6).
pub(crate) fn skeletal_skin(m: &SkeletalMesh, n: usize) -> Skin {
    let empty = VertexStream::default();
    let stream = m.streams.iter().find(|s| !s.positions.is_empty()).unwrap_or(&empty);
    let per = m.skin_layout().blend_weights;
    // Mapped files passed the reader's checks (`to_ir` refuses others): the stream has `per`
    // weights and (palette) four indices per vertex, the bone sets tile the vertices, every
    // palette index has a re-index entry, and a set has at most `per + 1` bones. So no default in
    // this function is taken.
    let blends = |v: usize| stream.blend_weights.get(v * per..(v + 1) * per).unwrap_or_default();
    let mut out: Vec<Four> = vec![Four::one(0); n];
    if m.matrix_palette != 0 {
        let reindex = m.palette.as_ref().and_then(|p| p.reindex.as_ref());
        let node = |b: u8| reindex.map_or(u32::from(b), |r| r.get(usize::from(b)).copied().unwrap_or(0));
        for (v, slot) in out.iter_mut().enumerate() {
            let (w, idx) = (blends(v), stream.bone_indices.get(v).copied().unwrap_or_default());
            let mut f = Four::default();
            let mut sum = 0.0f32;
            for (i, &b) in idx.iter().enumerate().take(per + 1) {
                let weight = match w.get(i) {
                    Some(&x) => x,
                    None => 1.0 - sum,
                };
                sum += weight;
                f.push(node(b), weight.max(0.0));
            }
            *slot = f;
        }
    } else {
        let m_tri = m.max_bones_per_tri as usize;
        for set in &m.bone_sets {
            let bones: Vec<u32> = set.nodes().map(u32::from).collect();
            let first = usize::from(set.first_vertex);
            for v in first..first + usize::from(set.vertex_count) {
                let w = blends(v);
                let mut f = Four::default();
                let mut sum = 0.0f32;
                for (i, &b) in bones.iter().enumerate() {
                    let implicit = bones.len() == m_tri && i + 1 == bones.len();
                    let weight = if implicit { 1.0 - sum } else { w.get(i).copied().unwrap_or(0.0) };
                    sum += weight;
                    f.push(b, weight.max(0.0));
                }
                if let Some(slot) = out.get_mut(v) {
                    *slot = f;
                }
            }
        }
    }
    Skin::from_vertices(out.into_iter().map(|f| {
        let first = f.items.first().map_or(0, |i| i.bone);
        f.kept(first)
    }))
}
