//! Model meshes → the one v6 mesh (abc.md §3.2): LOD-0 meshes merged, each vertex bound rigidly
//! to its strongest bone and stored in that node's local space; the stored vertices, face
//! normals and LOD arrays while the mesh is unchanged.

use relic_core::binary::PackedNormal;
use relic_core::frame::Frame;
use relic_core::math::{self, IDENTITY, Mat4};
use relic_core::model::{Mesh, Model};
use relic_core::{Loss, WriteError};

use crate::extras::{V6Extras, mesh_digest};
use crate::file::{Geometry, Triangle, V6Vertex};
use crate::from_ir::merge::{self, Reference, file_vertices};
use crate::from_ir::mesh::computed_normals;
use crate::from_ir::skeleton::Skeleton;

/// The written geometry and where each model vertex went.
pub(super) struct Geo {
    pub(super) geometry: Geometry,
    /// True if the stored vertices were used unchanged.
    pub(super) exact: bool,
    /// Per LOD-0 mesh written: `(mesh index, file vertex of each model vertex)`.
    pub(super) meshes: Vec<(usize, Vec<u32>)>,
}

/// The file vertex of each model vertex while the mesh still has the stored vertices: the same
/// data (digest) with the skeleton unchanged, or, after a tool rewrote the mesh (Blender: order
/// and float noise), the stored vertices found again at their bind-pose positions
/// (`from_ir::merge`).
/// With the model vertex each file vertex was matched to (`None` while the data is unchanged).
type StoredVertices = (Vec<u32>, Option<Vec<u32>>);

fn stored_vertices(mesh: &Mesh, x: &V6Extras, binds_fit: bool, sk: &Skeleton, frame: Frame) -> Option<StoredVertices> {
    let n = x.vertices.len();
    if binds_fit && x.mesh_digest == mesh_digest(mesh) && n + x.splits.len() == mesh.positions.len() {
        // The file's vertices come first in the mesh, each split after them (`to_ir`).
        return Some(((0..n as u32).chain(x.splits.iter().copied()).collect(), None));
    }
    if mesh.normals.is_empty() {
        return None;
    }
    let refs: Vec<Option<Reference>> = x
        .vertices
        .iter()
        .map(|v| {
            let bind = frame.matrix_from_ir(sk.tree.binds.get(usize::from(v.node))?);
            let position = frame.vector_to_ir(math::transform_point(&bind, v.position));
            Some(Reference { position, nodes: vec![(u32::from(v.node), 1.0)] })
        })
        .collect();
    file_vertices(mesh, &refs, &x.splits, sk).map(|m| (m.file_vertex, Some(m.source)))
}

pub(super) fn build_geometry(
    model: &Model,
    sk: &Skeleton,
    ex: Option<&V6Extras>,
    binds_fit: bool,
    inverse_binds: &[Mat4],
    frame: Frame,
    losses: &mut Vec<Loss>,
) -> Result<Geo, WriteError> {
    let lod0: Vec<usize> = model.meshes.iter().enumerate().filter(|(_, m)| m.lod.level == 0).map(|(i, _)| i).collect();
    let dropped = model.meshes.len() - lod0.len();
    if dropped > 0 {
        losses.push(Loss::new("meshes", format!("{dropped} lower-LOD meshes dropped (v6 LODs are not written)")));
    }
    if lod0.len() > 1 {
        losses.push(Loss::new("meshes", format!("{} meshes merged into the one v6 mesh", lod0.len())));
    }
    // A v6 model has one skin, the game's: a lone skin-slot-0 material (what `to_ir` gives) is
    // that; any other material is not stored.
    let the_skin = |m: &relic_core::model::Material| {
        crate::from_ir::material::is_skin_slot(m) && m.textures.first().and_then(|t| t.slot) == Some(0)
    };
    if !(model.materials.is_empty() || matches!(model.materials.as_slice(), [only] if the_skin(only))) {
        losses.push(Loss::new(
            "materials",
            format!("{} materials not stored (v6 models have one skin, chosen by the game)", model.materials.len()),
        ));
    }
    if let (Some(x), [only]) = (ex, lod0.as_slice())
        && let Some(mesh) = model.meshes.get(*only)
        && x.face_normals.len() == mesh.triangles.len()
        && let Some((map, source)) = stored_vertices(mesh, x, binds_fit, sk, frame)
    {
        // One file vertex per model vertex; a valid model's triangles stay inside the mesh.
        let file_vertex = |v: u32| map.get(v as usize).copied().unwrap_or(0);
        let uv = |v: u32| mesh.uv_sets.first().and_then(|s| s.get(v as usize)).copied().unwrap_or([0.0; 2]);
        let triangles = mesh
            .triangles
            .iter()
            .zip(&x.face_normals)
            .map(|(&[a, b, c], normal)| Triangle {
                uvs: [uv(c), uv(b), uv(a)],
                indices: [c, b, a].map(|v| file_vertex(v) as u16),
                normal: PackedNormal(*normal),
            })
            .collect();
        // Matched after a tool moved the skeleton by float noise: each node-local position made
        // again from the model's position with the model's bind, so the vertex stays where the
        // model has it (a loose vertex keeps its stored one).
        let local = |f: usize, v: &crate::extras::RawV6Vertex| {
            let model_vertex = source.as_ref().and_then(|s| s.get(f)).filter(|&&s| s != merge::LOOSE);
            match model_vertex.and_then(|&s| mesh.positions.get(s as usize)) {
                Some(p) if !binds_fit => {
                    let inv = inverse_binds.get(usize::from(v.node)).copied().unwrap_or(IDENTITY);
                    math::transform_point(&inv, frame.vector_from_ir(*p))
                }
                _ => v.position,
            }
        };
        let vertices = x
            .vertices
            .iter()
            .enumerate()
            .map(|(f, v)| V6Vertex {
                position: local(f, v),
                normal: PackedNormal(v.normal),
                transformation_index: v.node,
                replacements: v.replacements,
            })
            .collect();
        let geometry = Geometry {
            bounds_min: x.bounds[0],
            bounds_max: x.bounds[1],
            vertex_start_num: x.vertex_start_num.clone(),
            triangles,
            normal_verts: x.normal_verts,
            vertices,
        };
        return Ok(Geo { geometry, exact: true, meshes: vec![(*only, map)] });
    }
    let mut vertices: Vec<V6Vertex> = Vec::new();
    let mut triangles = Vec::new();
    let mut meshes = Vec::new();
    let mut shared = 0usize;
    for &m in &lod0 {
        let Some(mesh) = model.meshes.get(m) else { continue };
        let element = || format!("meshes[{m}] {:?}", mesh.name);
        if mesh.uv_sets.len() > 1 {
            losses.push(Loss::new(element(), format!("{} UV sets: only the first written", mesh.uv_sets.len())));
        }
        if mesh.skin.is_empty() && !model.bones.is_empty() {
            losses.push(Loss::new(element(), "unskinned mesh bound rigidly to the root node"));
        }
        let base = vertices.len() as u32;
        let normals = if mesh.normals.is_empty() { computed_normals(mesh) } else { mesh.normals.clone() };
        for (v, p) in mesh.positions.iter().enumerate() {
            let influences = mesh.skin.vertex(v);
            if influences.iter().filter(|i| i.weight > 0.0).count() > 1 {
                shared += 1;
            }
            let strongest = influences.iter().fold(None::<&relic_core::model::Influence>, |best, i| match best {
                Some(b) if b.weight >= i.weight => Some(b),
                _ => Some(i),
            });
            let node = strongest.map_or(0, |i| sk.tree.node(i.bone as usize));
            let node_byte = u8::try_from(node).map_err(|_| WriteError::DoesNotFit {
                field: format!("{} vertex {v}: node", element()),
                value: u64::from(node),
                ty: "u8",
            })?;
            let inv = inverse_binds.get(node as usize).copied().unwrap_or(IDENTITY);
            let local = math::transform_point(&inv, frame.vector_from_ir(*p));
            let n = normals.get(v).copied().unwrap_or([0.0, 1.0, 0.0]);
            let local_n =
                math::normalize3(math::transform_vector(&inv, frame.vector_from_ir(n))).unwrap_or([0.0, 1.0, 0.0]);
            vertices.push(V6Vertex {
                position: local,
                normal: PackedNormal::encode(local_n),
                transformation_index: node_byte,
                replacements: [0, 0],
            });
        }
        let uv = |v: u32| mesh.uv_sets.first().and_then(|s| s.get(v as usize)).copied().unwrap_or([0.0; 2]);
        let file_vertex = |v: u32| base + v;
        for &[a, b, c] in &mesh.triangles {
            let indices = [c, b, a].map(file_vertex);
            let [p0, p1, p2] = indices.map(|i| vertices.get(i as usize).map_or([0.0; 3], |v: &V6Vertex| v.position));
            let normal = math::normalize3(math::cross3(math::sub3(p2, p0), math::sub3(p1, p0)))
                .map_or(PackedNormal([0; 3]), PackedNormal::encode);
            triangles.push((indices, [uv(c), uv(b), uv(a)], normal));
        }
        meshes.push((m, (0..mesh.positions.len() as u32).map(file_vertex).collect()));
    }
    if shared > 0 {
        losses.push(Loss::new(
            "meshes",
            format!("{shared} vertices with several bone influences bound to their strongest bone only"),
        ));
    }
    if vertices.len() > usize::from(u16::MAX) + 1 {
        return Err(WriteError::DoesNotFit {
            field: "meshes: vertex index".into(),
            value: vertices.len() as u64,
            ty: "u16",
        });
    }
    let triangles = triangles
        .into_iter()
        .map(|(indices, uvs, normal)| Triangle { uvs, indices: indices.map(|i| i as u16), normal })
        .collect();
    let count = vertices.len() as u32;
    let geometry = Geometry {
        bounds_min: [0.0; 3],
        bounds_max: [0.0; 3],
        vertex_start_num: vec![0],
        triangles,
        normal_verts: count,
        vertices,
    };
    Ok(Geo { geometry, exact: false, meshes })
}
