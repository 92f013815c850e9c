//! A mesh → a render object, as the packer makes one (ltb.md §6.1): a null mesh for a LOD without
//! triangles, a rigid mesh when one node moves every vertex, else a render-direct skeletal mesh
//! whose bone sets follow §6.5: each triangle's vertices in one set, at most four nodes per set in
//! ascending order, vertices duplicated where sets share them, blend weights that make the
//! implicit-weight rule give each vertex's weights.

use std::collections::HashMap;

use relic_core::math;
use relic_core::model::{Influence, Mesh};
use relic_core::{Loss, WriteError};
use relic_lithtech::frame::LITHTECH;

use super::Ctx;
use crate::file::streams::{StrideRule, VertexStream, flag};
use crate::file::{BoneSet, RenderObject, RigidMesh, SkeletalMesh};

/// Most nodes one bone set (and so one triangle) may use.
const SET_NODES: usize = 4;

/// The render object of a mesh and its used-node list.
pub(super) fn build(
    ctx: &Ctx<'_>,
    mesh: &Mesh,
    index: usize,
    losses: &mut Vec<Loss>,
) -> Result<(RenderObject, Vec<u8>), WriteError> {
    let element = || format!("meshes[{index}] {:?}", mesh.name);
    if !mesh.morph_targets.is_empty() {
        losses.push(Loss::new(
            element(),
            format!(
                "{} morph targets dropped (LTB vertex animation is written back only as it was read)",
                mesh.morph_targets.len()
            ),
        ));
    }
    if mesh.positions.is_empty() || mesh.triangles.is_empty() {
        if !mesh.positions.is_empty() {
            losses.push(Loss::new(element(), format!("{} vertices without triangles dropped", mesh.positions.len())));
        }
        return Ok((RenderObject::Null, Vec::new()));
    }
    let n = mesh.positions.len();
    let normals = if mesh.normals.len() == n {
        mesh.normals.clone()
    } else {
        math::vertex_normals(&mesh.positions, &mesh.triangles)
    };
    // Each vertex's influences as nodes (at most four, the strongest).
    let mut many = 0usize;
    let influences: Vec<Vec<Influence>> = (0..n)
        .map(|v| {
            let all = mesh.skin.vertex(v);
            many += usize::from(all.len() > SET_NODES);
            mesh.skin
                .strongest(v, SET_NODES)
                .into_iter()
                .map(|i| Influence { bone: ctx.order.node(i.bone as usize), weight: i.weight })
                .collect()
        })
        .collect();
    if many > 0 {
        losses.push(Loss::new(
            element(),
            format!("{many} vertices keep their 4 strongest influences (LTB stores at most 4)"),
        ));
    }
    let single = |v: &Vec<Influence>| match v.as_slice() {
        [one] => Some(one.bone),
        _ => None,
    };
    let rigid_node = if mesh.skin.is_empty() {
        losses.push(Loss::new(element(), "unskinned mesh bound rigidly to the root node"));
        Some(0)
    } else {
        influences.first().and_then(single).filter(|&b| influences.iter().all(|v| single(v) == Some(b)))
    };
    let columns = Columns::new(mesh, &normals);
    if let Some(bone) = rigid_node {
        let used = used_nodes(ctx, &[bone])?;
        let stream = columns.stream(0..n as u32, None);
        let indices = triangles(mesh.triangles.iter(), |v| v as u16);
        let rigid = RigidMesh {
            vertex_count: n as u32,
            max_bones_per_tri: 1,
            max_bones_per_vert: 1,
            stream_flags: [columns.flags, 0, 0, 0],
            rule: StrideRule::Packer,
            bone,
            streams: vec![stream],
            indices,
        };
        if n > usize::from(u16::MAX) + 1 {
            return Err(WriteError::DoesNotFit {
                field: format!("{}: vertex index", element()),
                value: n as u64,
                ty: "u16",
            });
        }
        return Ok((RenderObject::Rigid(rigid), used));
    }
    skeletal(ctx, mesh, &influences, &columns, element, losses)
}

/// The model's columns in the file's frame, and the stream flags they give.
struct Columns<'m> {
    positions: Vec<[f32; 3]>,
    normals: Vec<[f32; 3]>,
    uv_sets: &'m [Vec<[f32; 2]>],
    flags: u32,
}

impl<'m> Columns<'m> {
    fn new(mesh: &'m Mesh, normals: &[[f32; 3]]) -> Self {
        // In range (at most the sets there are): never the default.
        let uv_sets = mesh.uv_sets.get(..mesh.uv_sets.len().min(2)).unwrap_or_default();
        let uv_flags = [flag::UV1, flag::UV2].iter().take(uv_sets.len()).fold(0, |a, b| a | b);
        Columns {
            positions: mesh.positions.iter().map(|&p| LITHTECH.vector_from_ir(p)).collect(),
            normals: normals.iter().map(|&v| LITHTECH.vector_from_ir(v)).collect(),
            uv_sets,
            flags: flag::POSITION | flag::NORMAL | uv_flags,
        }
    }

    /// The stream of the model vertices `vertices` (with `blend` weights per vertex, if any).
    fn stream(&self, vertices: impl Iterator<Item = u32> + Clone, blend: Option<Vec<f32>>) -> VertexStream {
        // `vertices` are the validated mesh's, and every column has a value per vertex (normals
        // computed where the mesh has none): the defaults are never taken. No `blend`: a rigid
        // stream, without weights.
        let pick3 =
            |col: &[[f32; 3]]| vertices.clone().map(|v| col.get(v as usize).copied().unwrap_or_default()).collect();
        VertexStream {
            positions: pick3(&self.positions),
            blend_weights: blend.unwrap_or_default(),
            normals: pick3(&self.normals),
            uv_sets: self
                .uv_sets
                .iter()
                .map(|set| vertices.clone().map(|v| set.get(v as usize).copied().unwrap_or_default()).collect())
                .collect(),
            ..VertexStream::default()
        }
    }
}

/// Model triangles as file indices, each reversed (the file is left-handed).
fn triangles<'t>(tris: impl Iterator<Item = &'t [u32; 3]>, index: impl Fn(u32) -> u16) -> Vec<u16> {
    tris.flat_map(|&[a, b, c]| [index(c), index(b), index(a)]).collect()
}

/// The terminal nodes among `nodes`: those none of whose children are among them (ltb.md §6.8).
fn used_nodes(ctx: &Ctx<'_>, nodes: &[u32]) -> Result<Vec<u8>, WriteError> {
    let set: std::collections::BTreeSet<u32> = nodes.iter().copied().collect();
    let parents: std::collections::HashSet<u32> =
        set.iter().filter_map(|&n| ctx.order.parents.get(n as usize).copied().flatten()).map(|p| p as u32).collect();
    set.iter()
        .filter(|n| !parents.contains(n))
        .map(|&n| {
            u8::try_from(n).map_err(|_| WriteError::DoesNotFit {
                field: "used nodes".into(),
                value: u64::from(n),
                ty: "u8",
            })
        })
        .collect()
}

/// A render-direct skeletal mesh with bone sets.
fn skeletal(
    ctx: &Ctx<'_>,
    mesh: &Mesh,
    influences: &[Vec<Influence>],
    columns: &Columns<'_>,
    element: impl Fn() -> String,
    losses: &mut Vec<Loss>,
) -> Result<(RenderObject, Vec<u8>), WriteError> {
    // Each triangle's nodes (at most four: the strongest over its corners).
    let mut reduced = 0usize;
    let tri_nodes: Vec<Vec<u32>> = mesh
        .triangles
        .iter()
        .map(|tri| {
            let mut total: HashMap<u32, f32> = HashMap::new();
            for &v in tri {
                // A list per vertex of the validated mesh: never the default (nor below).
                for i in influences.get(v as usize).map(Vec::as_slice).unwrap_or_default() {
                    *total.entry(i.bone).or_default() += i.weight;
                }
            }
            let mut nodes: Vec<(u32, f32)> = total.into_iter().collect();
            nodes.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            reduced += usize::from(nodes.len() > SET_NODES);
            let mut kept: Vec<u32> = nodes.into_iter().take(SET_NODES).map(|(n, _)| n).collect();
            kept.sort_unstable();
            kept
        })
        .collect();
    if reduced > 0 {
        losses.push(Loss::new(
            element(),
            format!("{reduced} triangles use more than 4 nodes: their weakest dropped (a bone set holds 4)"),
        ));
    }
    // First fit: a triangle joins the first set its nodes fit in.
    let mut sets: Vec<(Vec<u32>, Vec<usize>)> = Vec::new();
    for (t, nodes) in tri_nodes.iter().enumerate() {
        let fits = sets
            .iter()
            .position(|(s, _)| s.iter().chain(nodes).collect::<std::collections::BTreeSet<_>>().len() <= SET_NODES);
        match fits.and_then(|i| sets.get_mut(i)) {
            Some((s, tris)) => {
                s.extend(nodes.iter().filter(|n| !s.contains(n)).collect::<Vec<_>>());
                s.sort_unstable();
                tris.push(t);
            }
            None => sets.push((nodes.clone(), vec![t])),
        }
    }
    let m = sets.iter().map(|(s, _)| s.len()).max().unwrap_or(1).max(1);
    let mut positions_of = Vec::new();
    let mut blends: Vec<f32> = Vec::new();
    let mut indices = Vec::with_capacity(mesh.triangles.len() * 3);
    let mut bone_sets = Vec::with_capacity(sets.len());
    let mut renormalised = 0usize;
    for (nodes, tris) in &sets {
        let first = positions_of.len();
        let mut local: HashMap<u32, u16> = HashMap::new();
        for &t in tris {
            let Some(tri) = mesh.triangles.get(t) else { continue };
            for &v in tri.iter().rev() {
                let next = positions_of.len() - first;
                let i = *local.entry(v).or_insert_with(|| {
                    positions_of.push(v);
                    let (w, dropped) =
                        set_weights(influences.get(v as usize).map(Vec::as_slice).unwrap_or_default(), nodes);
                    renormalised += usize::from(dropped);
                    let explicit = if nodes.len() == m { nodes.len() - 1 } else { nodes.len() };
                    blends.extend(w.iter().take(explicit));
                    blends.extend(std::iter::repeat_n(0.0, (m - 1).saturating_sub(explicit)));
                    next as u16
                });
                indices.push(first as u16 + i);
            }
        }
        let count = positions_of.len() - first;
        let mut bones = [0xFFu8; 4];
        for (b, &n) in bones.iter_mut().zip(nodes) {
            *b = u8::try_from(n).ok().filter(|&x| x != 0xFF).ok_or_else(|| WriteError::DoesNotFit {
                field: format!("{}: bone-set node", element()),
                value: u64::from(n),
                ty: "u8 below 255",
            })?;
        }
        bone_sets.push(BoneSet {
            first_vertex: relic_core::error::fit(&format!("{}: bone-set first vertex", element()), first, "u16")?,
            vertex_count: relic_core::error::fit(&format!("{}: bone-set vertices", element()), count, "u16")?,
            bones,
            index_end: indices.len() as u32,
        });
    }
    if renormalised > 0 {
        losses.push(Loss::new(
            element(),
            format!("{renormalised} vertex copies lost a node their triangle's set lacks (weights renormalised)"),
        ));
    }
    let vertex_count = positions_of.len();
    if vertex_count > usize::from(u16::MAX) + 1 {
        return Err(WriteError::DoesNotFit {
            field: format!("{}: vertices with bone-set copies", element()),
            value: vertex_count as u64,
            ty: "u16",
        });
    }
    let stream = columns.stream(positions_of.iter().copied(), Some(blends));
    let max_bones_per_vert =
        influences.iter().map(|v| v.iter().filter(|i| i.weight > 0.0).count()).max().unwrap_or(1).max(1);
    let all: Vec<u32> = sets.iter().flat_map(|(s, _)| s.iter().copied()).collect();
    let mesh = SkeletalMesh {
        vertex_count: vertex_count as u32,
        max_bones_per_tri: m as u32,
        max_bones_per_vert: max_bones_per_vert as u32,
        reindexed_bones: 0,
        stream_flags: [columns.flags, 0, 0, 0],
        rule: StrideRule::Packer,
        matrix_palette: 0,
        palette: None,
        streams: vec![stream],
        indices,
        bone_sets,
    };
    Ok((RenderObject::Skeletal(mesh), used_nodes(ctx, &all)?))
}

/// A vertex's weight on each of a set's nodes (0 where it has none), renormalised if it had
/// weight on a node the set lacks (then the second value is true).
fn set_weights(influences: &[Influence], nodes: &[u32]) -> (Vec<f32>, bool) {
    let mut w: Vec<f32> =
        nodes.iter().map(|n| influences.iter().filter(|i| i.bone == *n).map(|i| i.weight).sum()).collect();
    let kept: f32 = w.iter().sum();
    let total: f32 = influences.iter().map(|i| i.weight).sum();
    let dropped = (total - kept).abs() > 1e-6;
    if dropped && kept > 0.0 {
        w.iter_mut().for_each(|x| *x /= kept);
    }
    (w, dropped)
}
