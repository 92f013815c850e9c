//! Meshes as geosets (spec §4.8, §6.3).
//!
//! MDX 800 has no skin weights: a vertex names a matrix group, the set of nodes whose transforms
//! the game averages for it, each with the same share. A vertex's group is the bones of its
//! influences of weight above 0 (the strongest 8 when it has more), in the model's order; the
//! vertices whose weights were not equal shares are counted. A geoset holds at most 256 groups
//! (`GNDX` is a byte) and 65,536 vertices (`PVTX` is `u16`): a mesh that needs more is split
//! by triangles into several geosets.

use std::collections::HashMap;

use relic_core::math::vertex_normals;
use relic_core::model::{Mesh, Model};
use relic_core::{Loss, WriteError};

use super::animation::extent;
use super::skeleton::Skeleton;
use crate::file::{Extent, Geoset, UvSet};
use crate::to_ir::WARCRAFT;

/// The most nodes the game averages for a vertex.
const MAX_GROUP: usize = 8;
/// The most matrix groups a geoset can name (`GNDX` holds a byte a vertex).
const MAX_GROUPS: usize = 256;
/// The most vertices a geoset can index (`PVTX` holds `u16`).
const MAX_VERTICES: usize = 65_536;

/// Counts of what the geosets could not keep.
#[derive(Default)]
struct Counts {
    /// Vertices whose weights were not equal shares.
    unequal: usize,
    /// Vertices with more than [`MAX_GROUP`] influences.
    over_eight: usize,
    /// Vertices of a skinned mesh without an influence (bound to bone 0).
    unbound: usize,
    /// Meshes without a skin, bound to the static root.
    rigid: usize,
    /// Meshes whose normals were computed.
    normals: usize,
    /// Meshes without texture coordinates.
    no_uvs: usize,
    /// Meshes split in several geosets.
    split: usize,
    /// Vertices no triangle uses, dropped by a split.
    unused: usize,
    /// Meshes of a level of detail past 0, not written.
    lods: usize,
    /// Meshes with morph targets.
    morphs: usize,
}

/// The geosets, and for each node the geosets that use it.
pub(super) struct Geosets {
    /// GEOS.
    pub(super) geosets: Vec<Geoset>,
    /// For each node: the one geoset that uses it, if exactly one does.
    pub(super) geoset_of: Vec<Option<u32>>,
    /// Nodes some geoset uses.
    pub(super) used: Vec<bool>,
    /// For each mesh: the geosets it became (none for a level of detail past 0).
    pub(super) of_mesh: Vec<Vec<u32>>,
}

/// Builds the geosets of every mesh of level 0; `material` maps a mesh's material to MTLS.
pub(super) fn geosets(
    model: &Model,
    sk: &mut Skeleton,
    material: &dyn Fn(Option<usize>) -> u32,
    sequence_extents: &[Extent],
    losses: &mut Vec<Loss>,
) -> Result<Geosets, WriteError> {
    let mut counts = Counts::default();
    let mut geosets = Vec::new();
    let mut users: Vec<Vec<u32>> = Vec::new();
    let mut of_mesh: Vec<Vec<u32>> = Vec::with_capacity(model.meshes.len());
    for mesh in &model.meshes {
        of_mesh.push(Vec::new());
        if mesh.lod.level > 0 {
            counts.lods += 1;
            continue;
        }
        counts.morphs += usize::from(!mesh.morph_targets.is_empty());
        let groups_of = vertex_groups(mesh, sk, &mut counts);
        let normals = if mesh.normals.len() == mesh.positions.len() {
            mesh.normals.clone()
        } else {
            counts.normals += 1;
            vertex_normals(&mesh.positions, &mesh.triangles)
        };
        let n = mesh.positions.len();
        let uv_sets: Vec<&Vec<[f32; 2]>> = mesh.uv_sets.iter().filter(|s| s.len() == n).collect();
        counts.no_uvs += usize::from(uv_sets.is_empty());
        let zero = vec![[0.0f32; 2]; n];
        let uv_sets = if uv_sets.is_empty() { vec![&zero] } else { uv_sets };
        let parts = split(mesh, &groups_of);
        if parts.len() > 1 {
            counts.split += 1;
            let used: usize = parts.iter().map(|p| p.0.len()).sum();
            counts.unused += n.saturating_sub(used.min(n));
        }
        for (vertices, triangles) in parts {
            let index = geosets.len();
            if let Some(list) = of_mesh.last_mut() {
                list.push(index as u32);
            }
            let mut groups: Vec<&Vec<u32>> = Vec::new();
            let mut group_index: HashMap<&Vec<u32>, u8> = HashMap::new();
            let mut vertex_groups = Vec::with_capacity(vertices.len());
            for &v in &vertices {
                let Some(g) = groups_of.get(v as usize) else { continue };
                let at = match group_index.get(g) {
                    Some(&at) => at,
                    None => {
                        let at = u8::try_from(groups.len()).map_err(|_| WriteError::DoesNotFit {
                            field: format!("GEOS[{index}].GNDX"),
                            value: groups.len() as u64,
                            ty: "u8",
                        })?;
                        groups.push(g);
                        group_index.insert(g, at);
                        at
                    }
                };
                vertex_groups.push(at);
            }
            let mut node_users = Vec::new();
            for g in &groups {
                for &node in g.iter() {
                    node_users.push(node);
                }
            }
            node_users.sort_unstable();
            node_users.dedup();
            for node in node_users {
                if users.len() <= node as usize {
                    users.resize_with(node as usize + 1, Vec::new);
                }
                if let Some(u) = users.get_mut(node as usize) {
                    u.push(index as u32);
                }
            }
            let pick = |list: &[[f32; 3]]| -> Vec<[f32; 3]> {
                vertices.iter().filter_map(|&v| list.get(v as usize)).map(|p| WARCRAFT.vector_from_ir(*p)).collect()
            };
            let positions = pick(&mesh.positions);
            let (min, max) =
                relic_core::model::Aabb::of_points(&positions).map_or(([0.0; 3], [0.0; 3]), |b| (b.min, b.max));
            let own = extent(min, max);
            let index_count = triangles.len() * 3;
            geosets.push(Geoset {
                vertices: positions,
                normals: pick(&normals),
                face_types: vec![4],
                face_counts: vec![u32::try_from(index_count).map_err(|_| WriteError::DoesNotFit {
                    field: format!("GEOS[{index}].PCNT"),
                    value: index_count as u64,
                    ty: "u32",
                })?],
                indices: triangles.iter().flatten().map(|&i| i as u16).collect(),
                vertex_groups,
                matrix_group_sizes: groups.iter().map(|g| g.len() as u32).collect(),
                matrix_indices: groups.iter().flat_map(|g| g.iter().copied()).collect(),
                material_id: material(mesh.material),
                selection_group: 0,
                selection_flags: 0,
                lod: None,
                extent: own,
                sequence_extents: sequence_extents.iter().map(|_| own).collect(),
                hd: Vec::new(),
                uv_sets: uv_sets
                    .iter()
                    .map(|set| UvSet { uvs: vertices.iter().filter_map(|&v| set.get(v as usize)).copied().collect() })
                    .collect(),
            });
        }
    }
    counts.losses(losses);
    let mut geoset_of = vec![None; sk.nodes.len()];
    let mut used = vec![false; sk.nodes.len()];
    for (node, u) in users.iter().enumerate() {
        if let Some(slot) = used.get_mut(node) {
            *slot = !u.is_empty();
        }
        if let (Some(slot), [one]) = (geoset_of.get_mut(node), u.as_slice()) {
            *slot = Some(*one);
        }
    }
    Ok(Geosets { geosets, geoset_of, used, of_mesh })
}

/// Each vertex's matrix group: node object ids (= bone indices).
fn vertex_groups(mesh: &Mesh, sk: &mut Skeleton, counts: &mut Counts) -> Vec<Vec<u32>> {
    let n = mesh.positions.len();
    if mesh.skin.is_empty() {
        counts.rigid += 1;
        let root = sk.static_root() as u32;
        return vec![vec![root]; n];
    }
    (0..n)
        .map(|v| {
            let all = mesh.skin.vertex(v);
            let mut list: Vec<_> = all.iter().filter(|i| i.weight > 0.0).copied().collect();
            if list.len() > MAX_GROUP {
                counts.over_eight += 1;
                list = mesh.skin.strongest(v, MAX_GROUP);
            }
            if list.is_empty() {
                counts.unbound += 1;
                return vec![0];
            }
            let share = 1.0 / list.len() as f32;
            counts.unequal += usize::from(list.iter().any(|i| (i.weight - share).abs() > 1e-3));
            list.iter().map(|i| i.bone).collect()
        })
        .collect()
}

/// The vertices (indices into the mesh) and triangles (indices into those) of each geoset the
/// mesh needs: one holding every vertex when it fits, else runs of triangles that fit.
fn split(mesh: &Mesh, groups_of: &[Vec<u32>]) -> Vec<(Vec<u32>, Vec<[u32; 3]>)> {
    let n = mesh.positions.len();
    let distinct: std::collections::HashSet<&Vec<u32>> = groups_of.iter().collect();
    if n <= MAX_VERTICES && distinct.len() <= MAX_GROUPS {
        return vec![((0..n as u32).collect(), mesh.triangles.clone())];
    }
    let mut parts = Vec::new();
    let mut vertices: Vec<u32> = Vec::new();
    let mut local: HashMap<u32, u32> = HashMap::new();
    let mut groups: std::collections::HashSet<&Vec<u32>> = std::collections::HashSet::new();
    let mut triangles: Vec<[u32; 3]> = Vec::new();
    for t in &mesh.triangles {
        let new_vertices = t.iter().filter(|v| !local.contains_key(v)).count();
        let new_groups: std::collections::HashSet<&Vec<u32>> =
            t.iter().filter_map(|&v| groups_of.get(v as usize)).filter(|g| !groups.contains(g)).collect();
        if vertices.len() + new_vertices > MAX_VERTICES || groups.len() + new_groups.len() > MAX_GROUPS {
            parts.push((std::mem::take(&mut vertices), std::mem::take(&mut triangles)));
            local.clear();
            groups.clear();
        }
        let mut tri = [0u32; 3];
        for (slot, &v) in tri.iter_mut().zip(t) {
            *slot = *local.entry(v).or_insert_with(|| {
                vertices.push(v);
                (vertices.len() - 1) as u32
            });
            if let Some(g) = groups_of.get(v as usize) {
                groups.insert(g);
            }
        }
        triangles.push(tri);
    }
    if !triangles.is_empty() {
        parts.push((vertices, triangles));
    }
    parts
}

impl Counts {
    fn losses(&self, losses: &mut Vec<Loss>) {
        let mut note = |n: usize, what: &str| {
            if n > 0 {
                losses.push(Loss::new("meshes", format!("{n} {what}")));
            }
        };
        note(
            self.unequal,
            "vertices weighted unequally: MDX 800 averages a vertex's bones in equal shares (its matrix group); the \
             weights are dropped",
        );
        note(self.over_eight, "vertices with more than 8 bones: the strongest 8 kept");
        note(self.unbound, "vertices of a skinned mesh bound to no bone: bound to bone 0");
        note(self.rigid, "meshes without a skin: bound to an added static root node");
        note(self.normals, "meshes without normals: normals computed from the triangles");
        note(self.no_uvs, "meshes without texture coordinates: written with zero coordinates");
        note(self.split, "meshes split into several geosets (a geoset indexes 65,536 vertices and 256 matrix groups)");
        note(self.unused, "vertices no triangle uses dropped by those splits");
        note(self.lods, "meshes of a level of detail past 0 not written (MDX 800 has no levels of detail)");
        note(self.morphs, "meshes with morph targets: the targets are dropped (MDX has none)");
    }
}
