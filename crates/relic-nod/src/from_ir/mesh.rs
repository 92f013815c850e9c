//! The model's meshes → NOD groups, vertices and faces: meshes split into groups whose counts and
//! indices fit u16, the kept group bytes and raw vertex bytes used while they still fit, missing
//! normals computed, UV sets beyond the first reported.

use relic_core::binary::FixedString;
use relic_core::model::{Mesh, Model};
use relic_core::{Loss, WriteError};

use super::material::encode_name;
use crate::decide::NodChoices;
use crate::extras::{NodSource, VertexOverride};
use crate::file::{Name, NodGroup, NodVertex};
use crate::options::{GroupTail, UvOrigin, Winding};
use crate::to_ir::NOD_FRAME;
use crate::to_ir::skin::Binding;

/// Most vertices (and faces) in one group: its counts and indices are u16.
pub(crate) const MAX_GROUP_ITEMS: usize = 65_535;

/// One group to be written.
#[derive(Debug, Clone)]
pub(crate) struct Planned {
    /// Model mesh.
    pub(crate) mesh: usize,
    /// Model vertex of each group vertex.
    pub(crate) vertices: Vec<u32>,
    /// Group-local triangles in file winding.
    pub(crate) faces: Vec<[u16; 3]>,
}

/// The written groups with their vertices and faces.
pub(crate) struct Written {
    pub(crate) groups: Vec<NodGroup>,
    pub(crate) vertices: Vec<NodVertex>,
    pub(crate) faces: Vec<[u16; 3]>,
}

/// What every group is written with: the readings, the written skeleton's parents, and the kept
/// NOD data when it still fits the model.
pub(crate) struct GroupWriter<'a> {
    pub(crate) choices: &'a NodChoices,
    pub(crate) parents: &'a [i16],
    pub(crate) fits: Option<&'a NodSource>,
}

/// Writes the planned groups: the group records (with the kept bytes while they fit), their
/// vertices in the NOD frame with each vertex's binding (or its kept raw bytes where they mean the
/// same), and their faces. `mesh_index` is each group's index into fresh mesh names.
pub(crate) fn write_groups(
    w: &GroupWriter<'_>,
    model: &Model,
    planned: &[Planned],
    bindings: &[Vec<Binding>],
    mesh_index: &[u8],
    losses: &mut Vec<Loss>,
) -> Result<Written, WriteError> {
    let GroupWriter { choices, parents, fits } = *w;
    let mut groups = Vec::with_capacity(planned.len());
    let mut vertices = Vec::with_capacity(planned.iter().map(|p| p.vertices.len()).sum());
    let mut faces = Vec::with_capacity(planned.iter().map(|p| p.faces.len()).sum());
    let mut computed_normals: Vec<Option<Vec<[f32; 3]>>> = vec![None; model.meshes.len()];
    for (j, plan) in planned.iter().enumerate() {
        let Some(mesh) = model.meshes.get(plan.mesh) else { continue };
        // One binding list per mesh and plan.mesh < the meshes (planned from them): never taken.
        let mesh_bindings = bindings.get(plan.mesh).map(Vec::as_slice).unwrap_or_default();
        let group_bindings: Vec<Binding> =
            plan.vertices.iter().map(|&v| mesh_bindings.get(v as usize).copied().unwrap_or(Binding::Unbound)).collect();
        // One name index per plan (built from the same list): never taken.
        let index = mesh_index.get(j).copied().unwrap_or(0);
        let (group, flags_bone) = write_group(w, j, plan, mesh, &group_bindings, index, losses)?;
        let overrides = fits.map(|s| &s.vertex_overrides);
        let first = vertices.len();
        let normals = mesh_normals(mesh, plan.mesh, &mut computed_normals, losses);
        for (k, &v) in plan.vertices.iter().enumerate() {
            let v = v as usize;
            // v is a vertex of a validated mesh (Model::validate, before any writing), inside positions,
            // normals (computed or checked to match) and a full UV set: the defaults below are never taken,
            // except the UV of a mesh without UVs, written as (0, 0).
            let pos = mesh.positions.get(v).copied().unwrap_or_default();
            let norm = normals.get(v).copied().unwrap_or_default();
            let uv = mesh.uv_sets.first().and_then(|set| set.get(v)).copied().unwrap_or_default();
            let uv = match choices.uv_origin {
                UvOrigin::TopLeft => uv,
                UvOrigin::BottomLeft => [uv[0], 1.0 - uv[1]],
            };
            let binding = group_bindings.get(k).copied().unwrap_or(Binding::Unbound);
            let (weight, bone_num) = binding.canonical();
            let mut vertex = NodVertex {
                pos: NOD_FRAME.vector_from_ir(pos),
                norm: NOD_FRAME.vector_from_ir(norm),
                uv,
                weight,
                bone_num,
                pad: [0; 3],
            };
            if let Some(o) = overrides.and_then(|o| find_override(o, first + k)) {
                let (flags, group_bone) = flags_bone;
                let raw = Binding::decode(f32::from_bits(o.weight), o.bone_num, flags, group_bone, parents);
                if raw == binding {
                    vertex.weight = f32::from_bits(o.weight);
                    vertex.bone_num = o.bone_num;
                    vertex.pad = o.pad;
                }
            }
            vertices.push(vertex);
        }
        faces.extend_from_slice(&plan.faces);
        groups.push(group);
    }
    Ok(Written { groups, vertices, faces })
}

fn find_override(overrides: &[VertexOverride], index: usize) -> Option<&VertexOverride> {
    let index = u32::try_from(index).ok()?;
    overrides.binary_search_by_key(&index, |o| o.index).ok().and_then(|i| overrides.get(i))
}

/// Splits meshes into groups whose vertex and face counts fit u16, in file winding.
pub(crate) fn plan_groups(
    model: &Model,
    choices: &NodChoices,
    losses: &mut Vec<Loss>,
) -> Result<Vec<Planned>, WriteError> {
    let mut out = Vec::new();
    for (m, mesh) in model.meshes.iter().enumerate() {
        let element = format!("meshes[{m}] {:?}", mesh.name);
        if mesh.lod.level > 0 {
            losses.push(Loss::new(
                &element,
                format!("level-of-detail {} mesh dropped: a NOD has progressive LOD only", mesh.lod.level),
            ));
            continue;
        }
        let wind = |[a, b, c]: [u32; 3]| match choices.winding.value {
            Winding::CounterClockwise => [a, b, c],
            Winding::Clockwise => [a, c, b],
        };
        let n = mesh.positions.len();
        if n <= MAX_GROUP_ITEMS && mesh.triangles.len() <= MAX_GROUP_ITEMS {
            let faces = mesh.triangles.iter().map(|t| wind(*t).map(|i| i as u16)).collect();
            out.push(Planned { mesh: m, vertices: (0..n as u32).collect(), faces });
            continue;
        }
        let chunks = split(n, mesh.triangles.iter().map(|t| wind(*t)));
        let written: usize = chunks.iter().map(|c| c.vertices.len()).sum();
        losses.push(Loss::new(
            &element,
            format!(
                "{n} vertices and {} triangles split into {} groups of at most {MAX_GROUP_ITEMS} ({} vertices duplicated)",
                mesh.triangles.len(),
                chunks.len(),
                written.saturating_sub(n)
            ),
        ));
        out.extend(chunks.into_iter().map(|c| Planned { mesh: m, ..c }));
    }
    if out.len() > usize::from(u16::MAX) {
        return Err(WriteError::DoesNotFit { field: "groups".into(), value: out.len() as u64, ty: "u16" });
    }
    Ok(out)
}

/// Greedy split: triangles in order, a new group when the next one would not fit; vertices no
/// triangle uses go last.
fn split(n: usize, triangles: impl Iterator<Item = [u32; 3]>) -> Vec<Planned> {
    let mut local = vec![u32::MAX; n]; // local index in the current chunk
    let mut stamp = vec![usize::MAX; n]; // chunk that set `local`
    let mut placed = vec![false; n];
    let mut chunks: Vec<Planned> = vec![Planned { mesh: 0, vertices: Vec::new(), faces: Vec::new() }];
    for tri in triangles {
        let Some(current) = chunks.len().checked_sub(1) else { break };
        let fresh = tri
            .iter()
            .enumerate()
            .filter(|(k, v)| {
                // k < 3 (a corner of this triangle): never taken.
                stamp.get(**v as usize) != Some(&current) && !tri.get(..*k).unwrap_or_default().contains(v)
            })
            .count();
        let full = chunks
            .last()
            .is_some_and(|c| c.vertices.len() + fresh > MAX_GROUP_ITEMS || c.faces.len() >= MAX_GROUP_ITEMS);
        if full {
            chunks.push(Planned { mesh: 0, vertices: Vec::new(), faces: Vec::new() });
        }
        let current = chunks.len() - 1;
        let Some(chunk) = chunks.last_mut() else { break };
        let mut face = [0u16; 3];
        for (corner, v) in face.iter_mut().zip(tri) {
            let vi = v as usize;
            if stamp.get(vi) != Some(&current) {
                if let (Some(s), Some(l)) = (stamp.get_mut(vi), local.get_mut(vi)) {
                    *s = current;
                    *l = chunk.vertices.len() as u32;
                }
                chunk.vertices.push(v);
                if let Some(p) = placed.get_mut(vi) {
                    *p = true;
                }
            }
            // vi is a validated vertex index and `local` has one slot per vertex: never taken.
            *corner = local.get(vi).copied().unwrap_or(0) as u16;
        }
        chunk.faces.push(face);
    }
    for v in (0..n).filter(|v| !placed.get(*v).copied().unwrap_or(true)) {
        if chunks.last().is_none_or(|c| c.vertices.len() >= MAX_GROUP_ITEMS) {
            chunks.push(Planned { mesh: 0, vertices: Vec::new(), faces: Vec::new() });
        }
        if let Some(c) = chunks.last_mut() {
            c.vertices.push(v as u32);
        }
    }
    chunks.retain(|c| !c.vertices.is_empty());
    chunks
}

/// True if the kept group data still describes the planned groups.
pub(crate) fn groups_fit(source: &NodSource, planned: &[Planned], model: &Model, choices: &NodChoices) -> bool {
    source.groups.len() == planned.len()
        && source.groups.iter().zip(planned).all(|(g, p)| {
            let mesh = model.meshes.get(p.mesh);
            let tail = choices.group_tail.value.decode(g.tail);
            let name = source.mesh_names.get(usize::from(tail.mesh)).map(|raw| FixedString(*raw).to_text());
            usize::from(g.num_vertices) == p.vertices.len()
                && usize::from(g.num_faces) == p.faces.len()
                && mesh.map(|m| m.positions.len()) == Some(p.vertices.len())
                && name.as_deref() == mesh.map(|m| m.name.as_str())
        })
}

/// Mesh names in order of first use, and each planned group's index into them.
pub(crate) fn fresh_mesh_names(
    model: &Model,
    planned: &[Planned],
    losses: &mut Vec<Loss>,
) -> Result<(Vec<Name>, Vec<u8>), WriteError> {
    let mut names: Vec<&str> = Vec::new();
    let mut index = Vec::with_capacity(planned.len());
    for p in planned {
        // p.mesh < the meshes (planned from them): never taken.
        let name = model.meshes.get(p.mesh).map(|m| m.name.as_str()).unwrap_or_default();
        let i = match names.iter().position(|n| *n == name) {
            Some(i) => i,
            None => {
                names.push(name);
                names.len() - 1
            }
        };
        index.push(u8::try_from(i).map_err(|_| {
            WriteError::Unsupported(format!(
                "meshes: more than 256 distinct mesh names; a group refers to its mesh with one byte (group {})",
                index.len()
            ))
        })?);
    }
    let encoded = names.iter().enumerate().map(|(i, n)| encode_name(n, &format!("mesh names[{i}]"), losses)).collect();
    Ok((encoded, index))
}

/// The group record for `plan`, and the (flags, bone) its tail gives under the chosen layout.
fn write_group(
    w: &GroupWriter<'_>,
    j: usize,
    plan: &Planned,
    mesh: &Mesh,
    bindings: &[Binding],
    mesh_index: u8,
    losses: &mut Vec<Loss>,
) -> Result<(NodGroup, (u16, u8)), WriteError> {
    let material_id = match mesh.material {
        Some(m) => i32::try_from(m).map_err(|_| WriteError::DoesNotFit {
            field: format!("groups[{j}].material_id"),
            value: m as u64,
            ty: "i32",
        })?,
        None => -1,
    };
    let num_vertices = plan.vertices.len() as u16;
    let num_faces = plan.faces.len() as u16;
    let layout: GroupTail = w.choices.group_tail.value;
    if let Some(g) = w.fits.and_then(|s| s.groups.get(j)) {
        let t = layout.decode(g.tail);
        let flags = t.effective_flags();
        // The kept flags stay while every vertex, written as its binding says, reads back as that
        // binding under them (NOSKINNING and NOWEIGHTS override the stored weights).
        let tail_ok = bindings.iter().all(|b| {
            let (weight, bone) = b.canonical();
            Binding::decode(weight, bone, flags, t.bone, w.parents) == *b
        });
        let tail = if tail_ok {
            g.tail
        } else {
            losses.push(Loss::new(
                format!("groups[{j}]"),
                "the vertex bindings changed: the group's NOSKINNING/NOWEIGHTS flags are dropped",
            ));
            GroupTail::neutral(t.mesh)
        };
        let decoded = layout.decode(tail);
        let group =
            NodGroup { material_id, reserved: g.reserved, num_faces, num_vertices, min_vertices: g.min_vertices, tail };
        return Ok((group, (decoded.effective_flags(), decoded.bone)));
    }
    let tail = GroupTail::neutral(mesh_index);
    let decoded = layout.decode(tail);
    let group = NodGroup { material_id, reserved: [0; 12], num_faces, num_vertices, min_vertices: num_vertices, tail };
    Ok((group, (decoded.effective_flags(), decoded.bone)))
}

/// The mesh's normals, or area-weighted ones computed from its triangles (reported once).
fn mesh_normals<'a>(
    mesh: &'a Mesh,
    m: usize,
    computed: &'a mut [Option<Vec<[f32; 3]>>],
    losses: &mut Vec<Loss>,
) -> &'a [[f32; 3]] {
    if mesh.normals.len() == mesh.positions.len() {
        return &mesh.normals;
    }
    let Some(slot) = computed.get_mut(m) else { return &[] };
    if slot.is_none() {
        losses.push(Loss::new(format!("meshes[{m}] {:?}", mesh.name), "has no normals: computed from the triangles"));
        *slot = Some(face_normals(mesh));
    }
    // The slot was filled just above: never taken.
    slot.as_deref().unwrap_or_default()
}

fn face_normals(mesh: &Mesh) -> Vec<[f32; 3]> {
    relic_core::math::vertex_normals(&mesh.positions, &mesh.triangles)
}

pub(crate) fn uv_losses(model: &Model, losses: &mut Vec<Loss>) {
    for (m, mesh) in model.meshes.iter().enumerate().filter(|(_, m)| m.lod.level == 0) {
        let element = format!("meshes[{m}] {:?}", mesh.name);
        match mesh.uv_sets.len() {
            0 => losses.push(Loss::new(&element, "has no UVs: written as (0, 0)")),
            1 => {}
            n => losses.push(Loss::new(&element, format!("{} UV sets beyond the first dropped", n - 1))),
        }
    }
}
