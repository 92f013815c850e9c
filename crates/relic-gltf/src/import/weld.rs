//! Welding the vertices another tool split apart: Blender's exporter writes a vertex once per
//! distinct set of corner attributes, and its normals (kept as compressed custom normals) come
//! back a little different at each corner of the same vertex, so one vertex of the original
//! becomes several. Vertices with the same position, texture coordinates, influences and morph
//! offsets (bit for bit) and normals within [`NORMAL_TOLERANCE`] — but not the same normal bit for
//! bit — are one vertex again: the exporter never splits a vertex whose corners agree, so two
//! vertices that agree in everything were two vertices of the original (game files have such
//! duplicates) and stay two.

use std::collections::HashMap;

use relic_core::model::{Mesh, Skin};

/// How far (per component) the normals of one vertex may differ and still be welded: Blender's
/// custom normals come back within about 1e-3 of what was imported.
pub(crate) const NORMAL_TOLERANCE: f32 = 2e-3;

/// The exact attributes of a vertex, normals aside.
#[derive(Hash, PartialEq, Eq)]
struct Key {
    bits: Vec<u32>,
}

fn key(mesh: &Mesh, v: usize) -> Key {
    let mut bits = Vec::with_capacity(16);
    let push3 = |bits: &mut Vec<u32>, p: [f32; 3]| bits.extend(p.map(f32::to_bits));
    push3(&mut bits, mesh.positions.get(v).copied().unwrap_or_default());
    for set in &mesh.uv_sets {
        bits.extend(set.get(v).copied().unwrap_or_default().map(f32::to_bits));
    }
    for inf in mesh.skin.vertex(v) {
        bits.push(inf.bone);
        bits.push(inf.weight.to_bits());
    }
    for target in &mesh.morph_targets {
        push3(&mut bits, target.position_deltas.get(v).copied().unwrap_or_default());
    }
    Key { bits }
}

/// Normals of corners of one vertex: close, but not identical.
fn split_apart(a: [f32; 3], b: [f32; 3]) -> bool {
    a != b && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= NORMAL_TOLERANCE)
}

/// How far apart two normals are (largest component difference).
fn distance(a: [f32; 3], b: [f32; 3]) -> f32 {
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f32::max)
}

/// The merges welding would make in one mesh: per vertex, the vertex of its kind it merges into
/// and how far apart their normals are.
pub(crate) struct Plan {
    into: Vec<Option<(usize, f32)>>,
}

impl Plan {
    /// Every merge the rule allows in `mesh`.
    pub(crate) fn of(mesh: &Mesh) -> Self {
        let n = mesh.positions.len();
        let mut groups: HashMap<Key, Vec<usize>> = HashMap::new();
        let mut into: Vec<Option<(usize, f32)>> = vec![None; n];
        for v in 0..n {
            let normal = mesh.normals.get(v).copied();
            let group = groups.entry(key(mesh, v)).or_default();
            let same = group.iter().find_map(|&w| match (normal, mesh.normals.get(w).copied()) {
                (Some(a), Some(b)) if split_apart(a, b) => Some((w, distance(a, b))),
                _ => None,
            });
            match (same, into.get_mut(v)) {
                (Some(found), Some(slot)) => *slot = Some(found),
                _ => group.push(v),
            }
        }
        Self { into }
    }

    /// `(vertex, normal distance)` of every planned merge.
    fn merges(&self) -> impl Iterator<Item = (usize, f32)> + '_ {
        self.into.iter().enumerate().filter_map(|(v, m)| m.map(|(_, d)| (v, d)))
    }

    fn cancel(&mut self, v: usize) {
        if let Some(slot) = self.into.get_mut(v) {
            *slot = None;
        }
    }
}

/// Limits the plans of several meshes to `allowed` merges in all, the closest normals first: the
/// vertices the model held twice (equal but for an editor's rounding of their normals) stay two.
pub(crate) fn limit(plans: &mut [&mut Plan], allowed: usize) {
    let mut all: Vec<(f32, usize, usize)> =
        plans.iter().enumerate().flat_map(|(p, plan)| plan.merges().map(move |(v, d)| (d, p, v))).collect();
    if all.len() <= allowed {
        return;
    }
    all.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    for &(_, p, v) in all.get(allowed..).unwrap_or_default() {
        if let Some(plan) = plans.get_mut(p) {
            plan.cancel(v);
        }
    }
}

/// Welds `mesh` in place as planned; returns how many vertices were merged into others.
pub(crate) fn apply(mesh: &mut Mesh, plan: &Plan) -> usize {
    let n = mesh.positions.len();
    let into = &plan.into;
    // Old index → new index; kept vertices in their order.
    let mut kept: Vec<usize> = Vec::with_capacity(n);
    let mut new_index: Vec<u32> = vec![0; n];
    for v in 0..n {
        if into.get(v).copied().flatten().is_none()
            && let Some(slot) = new_index.get_mut(v)
        {
            *slot = kept.len() as u32;
            kept.push(v);
        }
    }
    let remap: Vec<u32> = (0..n)
        .map(|v| {
            let target = into.get(v).copied().flatten().map_or(v, |(w, _)| w);
            new_index.get(target).copied().unwrap_or(0)
        })
        .collect();
    let merged = n - kept.len();
    if merged == 0 {
        return 0;
    }
    let pick = |values: &Vec<[f32; 3]>| kept.iter().filter_map(|&v| values.get(v).copied()).collect::<Vec<_>>();
    mesh.positions = pick(&mesh.positions);
    if !mesh.normals.is_empty() {
        mesh.normals = pick(&mesh.normals);
    }
    for set in &mut mesh.uv_sets {
        *set = kept.iter().filter_map(|&v| set.get(v).copied()).collect();
    }
    if !mesh.skin.is_empty() {
        mesh.skin = Skin::from_vertices(kept.iter().map(|&v| mesh.skin.vertex(v).to_vec()));
    }
    for target in &mut mesh.morph_targets {
        target.position_deltas = pick(&target.position_deltas);
        if !target.normal_deltas.is_empty() {
            target.normal_deltas = pick(&target.normal_deltas);
        }
    }
    for t in &mut mesh.triangles {
        *t = t.map(|i| remap.get(i as usize).copied().unwrap_or(i));
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::*;
    use relic_core::model::Influence;

    #[test]
    fn split_copies_become_one_vertex_again() {
        let one = |b| vec![Influence { bone: b, weight: 1.0 }];
        let mut mesh = Mesh {
            positions: vec![[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0; 3], [0.0; 3]],
            normals: vec![[0.0, 0.0, 1.0], [0.0, 0.0, 1.0], [0.0, 0.0, 1.0], [0.0, 0.0009, 0.9999], [1.0, 0.0, 0.0]],
            uv_sets: vec![vec![[0.0; 2]; 5]],
            skin: Skin::from_vertices([one(0), one(0), one(0), one(0), one(0)]),
            triangles: vec![[0, 1, 2], [3, 2, 1], [4, 1, 2]],
            ..Mesh::default()
        };
        // Vertex 3 is vertex 0 with a normal within the tolerance; vertex 4 has another normal.
        let mut plan = Plan::of(&mesh);
        limit(&mut [&mut plan], 0);
        assert_eq!(apply(&mut mesh.clone(), &plan), 0, "no merge allowed");
        assert_eq!(
            {
                let plan = Plan::of(&mesh);
                apply(&mut mesh, &plan)
            },
            1
        );
        assert_eq!(mesh.positions.len(), 4);
        assert_eq!(mesh.triangles, vec![[0, 1, 2], [0, 2, 1], [3, 1, 2]]);
        assert_eq!(mesh.skin.vertex_count(), 4);
        assert_eq!(mesh.normals[3], [1.0, 0.0, 0.0]);
        // Two vertices equal in everything were two vertices of the original: kept.
        let mut twins = mesh.clone();
        twins.positions.push([0.0; 3]);
        twins.normals.push([0.0, 0.0, 1.0]);
        twins.uv_sets[0].push([0.0; 2]);
        twins.skin = Skin::from_vertices((0..5).map(|_| one(0)));
        assert_eq!(
            {
                let plan = Plan::of(&twins);
                apply(&mut twins, &plan)
            },
            0
        );
        // A different UV or weight keeps vertices apart.
        let mut other = mesh.clone();
        other.positions.push([0.0; 3]);
        other.normals.push([0.0, 0.0, 1.0]);
        other.uv_sets[0].push([0.5, 0.0]);
        other.skin = Skin::from_vertices((0..5).map(|_| one(0)));
        assert_eq!(
            {
                let plan = Plan::of(&other);
                apply(&mut other, &plan)
            },
            0
        );
    }
}
