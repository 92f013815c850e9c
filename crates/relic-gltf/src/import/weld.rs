//! Welding the vertices another tool split apart: Blender's exporter writes a vertex once per
//! distinct set of corner attributes, and its normals (kept as compressed custom normals) come
//! back a little different at each corner of the same vertex, so one vertex of the original
//! becomes several. Vertices with the same position, texture coordinates, influences and morph
//! offsets (bit for bit) and normals within [`NORMAL_TOLERANCE`] — but not the same normal bit for
//! bit — are one vertex again: the exporter never splits a vertex whose corners agree, so two
//! vertices that agree in everything were two vertices of the original (game files have such
//! duplicates) and stay two — unless they are the copies relic's export made so that an editor
//! keeps a triangle that repeats another's corners or names a vertex twice (`crate::faces`): a
//! vertex alike in everything to an earlier one (normals within [`COPY_NORMAL_TOLERANCE`]) whose
//! every triangle, with such vertices joined, repeats another triangle's corners or names a vertex
//! twice is one of those copies, and joins its original.

use std::collections::HashMap;

use relic_core::model::{Mesh, Skin};

/// How far (per component) the normals of one vertex may differ and still be welded: Blender's
/// custom normals come back within about 1e-3 of what was imported, and up to 5e-3 where a
/// vertex lies in two face fans (INTHERO_WINTER's LOD seams); welding never goes below the
/// recorded vertex count, closest normals first.
pub(crate) const NORMAL_TOLERANCE: f32 = 1e-2;

/// The longest chain of merges (a vertex merged into one merged into another…) a plan keeps.
const MAX_CHAIN: usize = 8;

/// How far the normals of a copy and its original may differ: Blender stores custom normals
/// relative to each face fan, so a copy (the only vertex of its reversed triangle's fan) comes
/// back up to about 1e-2 off; a copy is recognised by its triangles, not its normal alone.
pub(crate) const COPY_NORMAL_TOLERANCE: f32 = 5e-2;

/// The exact attributes of a vertex, normals aside.
#[derive(Hash, PartialEq, Eq)]
struct Key {
    bits: Vec<u32>,
}

fn key(mesh: &Mesh, v: usize) -> Key {
    let mut bits = Vec::with_capacity(16);
    let push3 = |bits: &mut Vec<u32>, p: [f32; 3]| bits.extend(p.map(f32::to_bits));
    // `v` is a vertex of `mesh`, and the import checked that every attribute has one value per
    // position (`Importer::primitive`): the defaults are never taken.
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
        // An earlier vertex alike in everything (normals within the copy tolerance).
        let mut twin: Vec<Option<(usize, f32)>> = vec![None; n];
        for v in 0..n {
            let normal = mesh.normals.get(v).copied();
            let group = groups.entry(key(mesh, v)).or_default();
            let normal_of = |w: usize| mesh.normals.get(w).copied();
            let same = group.iter().find_map(|&w| match (normal, normal_of(w)) {
                (Some(a), Some(b)) if split_apart(a, b) => Some((w, distance(a, b))),
                _ => None,
            });
            let alike = group.iter().find_map(|&w| match (normal, normal_of(w)) {
                (Some(a), Some(b)) if distance(a, b) <= COPY_NORMAL_TOLERANCE => Some((w, distance(a, b))),
                (None, None) => Some((w, 0.0)),
                _ => None,
            });
            match (same, into.get_mut(v)) {
                (Some(found), Some(slot)) => *slot = Some(found),
                _ => {
                    if let Some(t) = twin.get_mut(v) {
                        *t = alike;
                    }
                    group.push(v);
                }
            }
        }
        copies_in_degenerate(mesh, groups.values(), &mut into);
        let copies = copies_of_repeats(mesh, &into, &twin);
        for (slot, copy) in into.iter_mut().zip(copies) {
            if slot.is_none() {
                *slot = copy;
            }
        }
        let mut plan = Self { into };
        plan.break_loops();
        plan
    }

    /// Cancels a merge whose chain of merges comes back to its vertex or runs longer than
    /// [`MAX_CHAIN`] (each rule merges towards a vertex it keeps, but one rule's kept vertex may
    /// be another's merged one): linear in the vertices, whatever a file holds.
    fn break_loops(&mut self) {
        for v in 0..self.into.len() {
            let mut at = v;
            let mut ends = false;
            for _ in 0..MAX_CHAIN {
                match self.into.get(at).copied().flatten() {
                    Some((w, _)) if w != v => at = w,
                    Some(_) => break,
                    None => {
                        ends = true;
                        break;
                    }
                }
            }
            if !ends {
                self.cancel(v);
            }
        }
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

/// Vertices of zero-area triangles: a vertex alike in all but its normal to another (its group)
/// whose every triangle also uses a vertex of its group. Such are the copies made for a
/// triangle that names a vertex twice (`crate::faces`), and the corners an editor split off
/// for those faces. Their normals say nothing (Blender gives a vertex of zero-area faces only an
/// arbitrary one, such as −Y), and those triangles are the ones the original held: they join the
/// first vertex of their group that a face with an area uses (else the group's first).
fn copies_in_degenerate<'g>(
    mesh: &Mesh,
    groups: impl Iterator<Item = &'g Vec<usize>>,
    into: &mut [Option<(usize, f32)>],
) {
    let groups: Vec<&Vec<usize>> = groups.filter(|g| g.len() > 1).collect();
    if groups.is_empty() {
        return;
    }
    // Per grouped vertex: (its group, used, used by a triangle without another of its group).
    let mut state: HashMap<usize, (usize, bool, bool)> = HashMap::new();
    for (g, group) in groups.iter().enumerate() {
        for &v in group.iter() {
            state.insert(v, (g, false, false));
        }
    }
    for t in &mesh.triangles {
        for &v in t {
            let Some(&(g, _, _)) = state.get(&(v as usize)) else { continue };
            let beside = t.iter().any(|&w| w != v && state.get(&(w as usize)).is_some_and(|s| s.0 == g));
            if let Some(s) = state.get_mut(&(v as usize)) {
                s.1 = true;
                s.2 |= !beside;
            }
        }
    }
    // A mesh without normals: all zero, so every distance is 0 as [`Plan::of`] gives two vertices
    // without normals (with normals, `v` is one of the mesh's, never the default).
    let normal = |v: usize| mesh.normals.get(v).copied().unwrap_or_default();
    let zero_area = |v: usize| state.get(&v).is_some_and(|&(_, used, faced)| used && !faced);
    for group in groups {
        let Some(&first) = group.first() else { continue };
        let target = group.iter().copied().find(|&w| !zero_area(w)).unwrap_or(first);
        for &v in group.iter().filter(|&&v| v != target && zero_area(v)) {
            if let Some(slot @ None) = into.get_mut(v) {
                *slot = Some((target, distance(normal(v), normal(target))));
            }
        }
    }
}

/// The twins (see [`Plan::of`]) that are copies made for repeated triangles: every triangle that
/// uses one, with vertices mapped to what they merge into or their twin, repeats another
/// triangle's corners or names a vertex twice.
fn copies_of_repeats(
    mesh: &Mesh,
    into: &[Option<(usize, f32)>],
    twin: &[Option<(usize, f32)>],
) -> Vec<Option<(usize, f32)>> {
    if twin.iter().all(Option::is_none) {
        return vec![None; twin.len()];
    }
    let class = |v: u32| {
        let v = v as usize;
        let target = into.get(v).copied().flatten().or_else(|| twin.get(v).copied().flatten());
        target.map_or(v, |(w, _)| w)
    };
    let mapped: Vec<[usize; 3]> = mesh
        .triangles
        .iter()
        .map(|t| {
            let mut c = t.map(class);
            c.sort_unstable();
            c
        })
        .collect();
    let mut count: HashMap<[usize; 3], usize> = HashMap::new();
    for c in &mapped {
        *count.entry(*c).or_default() += 1;
    }
    // Per vertex: used by a triangle, and by one that does not repeat (then it is needed).
    let mut used = vec![(false, false); twin.len()];
    for (t, c) in mesh.triangles.iter().zip(&mapped) {
        let repeats = c[0] == c[1] || c[1] == c[2] || count.get(c).is_some_and(|&k| k > 1);
        for &v in t {
            if let Some((used, needed)) = used.get_mut(v as usize) {
                *used = true;
                *needed |= !repeats;
            }
        }
    }
    twin.iter().zip(used).map(|(t, (used, needed))| t.filter(|_| used && !needed)).collect()
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
    for &(_, p, v) in all.iter().skip(allowed) {
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
    // A merge into a vertex that merges too follows it (the rules run one after another; the
    // plan's chains end at a kept vertex within `MAX_CHAIN` steps).
    let kept_target = |v: usize| {
        let mut at = v;
        for _ in 0..=MAX_CHAIN {
            match into.get(at).copied().flatten() {
                Some((w, _)) => at = w,
                None => return at,
            }
        }
        v
    };
    // `kept_target` returns a vertex of the mesh (the plan merges only into them): never the 0.
    let remap: Vec<u32> = (0..n).map(|v| new_index.get(kept_target(v)).copied().unwrap_or(0)).collect();
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

    /// The copies relic's export made for a double-sided triangle and one naming a vertex twice
    /// (`crate::faces`), as Blender gives them back (alike in everything, normals a little off),
    /// join their originals; a twin that a triangle of its own needs stays.
    #[test]
    fn copies_for_repeated_triangles_join_their_originals() {
        let one = || vec![Influence { bone: 0, weight: 1.0 }];
        let p = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0]];
        let n = [0.0, 0.0, 1.0];
        let mesh = Mesh {
            // 0–3 the originals, 4 the copy of 0 (double-sided triangle), 5 the copy of 1 (a
            // triangle naming vertex 1 twice), 6 a twin of 3 that a triangle of its own uses.
            positions: vec![p[0], p[1], p[2], p[3], p[0], p[1], p[3]],
            // Blender gives the copy in the zero-area triangle an arbitrary normal (−Y).
            normals: vec![n, n, n, n, [0.0, 0.008, 0.99997], [0.0, -1.0, 0.0], n],
            uv_sets: vec![vec![[0.0; 2]; 7]],
            skin: Skin::from_vertices((0..7).map(|_| one())),
            triangles: vec![[0, 1, 2], [4, 2, 1], [1, 5, 2], [1, 3, 2], [6, 2, 0]],
            ..Mesh::default()
        };
        let mut welded = mesh.clone();
        let plan = Plan::of(&welded);
        assert_eq!(apply(&mut welded, &plan), 2);
        assert_eq!(welded.triangles, vec![[0, 1, 2], [0, 2, 1], [1, 1, 2], [1, 3, 2], [4, 2, 0]]);
        // Limited to one merge: the closest normals first (the copy of vertex 0).
        let mut plan = Plan::of(&mesh);
        limit(&mut [&mut plan], 1);
        let mut once = mesh.clone();
        assert_eq!(apply(&mut once, &plan), 1);
        assert_eq!(once.triangles[1], [0, 2, 1]);
    }

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
