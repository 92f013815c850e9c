//! Triangles an editor would merge away, kept apart by vertex copies.
//!
//! Blender keeps one face per set of vertices and none with a vertex twice (its importer's
//! `mesh.validate()`), so a triangle that repeats another's three corners (a double-sided
//! triangle: ABC lower LODs, the M2 UI_Draenei floor hold hundreds) or names a vertex twice is
//! gone after one trip through it, and nothing that comes back can say it was there. The export
//! gives each such triangle its own copy of one corner (a repeated vertex: of that corner), so
//! every triangle is a face of its own; [`Separated::copies`] records each copy's original, in the
//! mesh's `extras` (`copies`).
//!
//! The way back: relic's own file names the copies, so they are joined exactly ([`rejoin`]); a file
//! an editor wrote keeps them as vertices alike in everything (`import/weld.rs` joins those whose
//! triangles then repeat another's corners or name a vertex twice, within the recorded count).

use std::collections::HashSet;

use relic_core::model::{Mesh, Skin};

/// The triangles of a mesh with the corners they got their own vertices for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Separated {
    /// The triangles, with copies (vertex `n + i` is copy `i`).
    pub(crate) triangles: Vec<[u32; 3]>,
    /// The original vertex of each copy.
    pub(crate) copies: Vec<u32>,
}

/// A triangle's corners as a set.
fn corner_set(t: [u32; 3]) -> [u32; 3] {
    let mut c = t;
    c.sort_unstable();
    c
}

/// The mesh's triangles with a copy for each corner that would make a triangle repeat another's
/// corners or name a vertex twice; `None` if no triangle needs one.
pub(crate) fn separated(mesh: &Mesh) -> Option<Separated> {
    let n = mesh.positions.len() as u64;
    let mut copies: Vec<u32> = Vec::new();
    let mut seen: HashSet<[u32; 3]> = HashSet::with_capacity(mesh.triangles.len());
    let mut triangles = Vec::with_capacity(mesh.triangles.len());
    let copy = |v: u32, copies: &mut Vec<u32>| {
        copies.push(v);
        u32::try_from(n + copies.len() as u64 - 1).unwrap_or(u32::MAX)
    };
    for &t in &mesh.triangles {
        let mut out = t;
        if out[1] == out[0] {
            out[1] = copy(t[1], &mut copies);
        }
        if out[2] == out[0] || out[2] == out[1] {
            out[2] = copy(t[2], &mut copies);
        }
        if !seen.insert(corner_set(out)) {
            out[0] = copy(t[0], &mut copies);
            seen.insert(corner_set(out));
        }
        triangles.push(out);
    }
    (!copies.is_empty()).then_some(Separated { triangles, copies })
}

/// `mesh` with its copies appended (every attribute of the original vertex) and the separated
/// triangles.
pub(crate) fn with_copies(mesh: &Mesh, separated: &Separated) -> Mesh {
    // The copies are vertices of the validated mesh's triangles, and every attribute has one
    // value per vertex: the defaults below are never taken.
    let extend = |values: &[[f32; 3]]| -> Vec<[f32; 3]> {
        let copied = separated.copies.iter().map(|&v| values.get(v as usize).copied().unwrap_or_default());
        values.iter().copied().chain(copied).collect()
    };
    let skin = if mesh.skin.is_empty() {
        Skin::default()
    } else {
        let n = mesh.positions.len();
        let all = (0..n).chain(separated.copies.iter().map(|&v| v as usize));
        Skin::from_vertices(all.map(|v| mesh.skin.vertex(v).to_vec()))
    };
    let mut out = Mesh {
        positions: extend(&mesh.positions),
        normals: if mesh.normals.is_empty() { Vec::new() } else { extend(&mesh.normals) },
        uv_sets: mesh
            .uv_sets
            .iter()
            .map(|set| {
                let copied = separated.copies.iter().map(|&v| set.get(v as usize).copied().unwrap_or_default());
                set.iter().copied().chain(copied).collect()
            })
            .collect(),
        skin,
        triangles: separated.triangles.clone(),
        morph_targets: mesh.morph_targets.clone(),
        ..mesh.clone()
    };
    for target in &mut out.morph_targets {
        target.position_deltas = extend(&target.position_deltas);
        if !target.normal_deltas.is_empty() {
            target.normal_deltas = extend(&target.normal_deltas);
        }
    }
    out
}

/// Joins the copies relic's export made back into their originals: `vertices` is the mesh's
/// recorded vertex count, the vertices after it are the copies of `copies`. Returns whether it
/// applied (the counts and indices agree); a mesh that does not match is left as it is.
pub(crate) fn rejoin(mesh: &mut Mesh, vertices: usize, copies: &[u32]) -> bool {
    let fits = mesh.positions.len() == vertices + copies.len()
        && copies.iter().all(|&v| (v as usize) < vertices)
        && (mesh.skin.is_empty() || mesh.skin.vertex_count() == mesh.positions.len());
    if !fits || copies.is_empty() {
        return fits;
    }
    let original = |i: u32| match (i as usize).checked_sub(vertices) {
        Some(c) => copies.get(c).copied().unwrap_or(i),
        None => i,
    };
    for t in &mut mesh.triangles {
        *t = t.map(original);
    }
    mesh.positions.truncate(vertices);
    mesh.normals.truncate(vertices);
    for set in &mut mesh.uv_sets {
        set.truncate(vertices);
    }
    if !mesh.skin.is_empty() {
        mesh.skin = Skin::from_vertices((0..vertices).map(|v| mesh.skin.vertex(v).to_vec()));
    }
    for target in &mut mesh.morph_targets {
        target.position_deltas.truncate(vertices);
        target.normal_deltas.truncate(vertices);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use relic_core::model::Influence;

    fn mesh(triangles: Vec<[u32; 3]>) -> Mesh {
        let one = |b| vec![Influence { bone: b, weight: 1.0 }];
        Mesh {
            positions: vec![[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
            normals: vec![[0.0, 0.0, 1.0]; 3],
            uv_sets: vec![vec![[0.0; 2], [1.0, 0.0], [0.0, 1.0]]],
            skin: Skin::from_vertices([one(0), one(1), one(2)]),
            triangles,
            ..Mesh::default()
        }
    }

    #[test]
    fn repeats_and_repeated_corners_get_copies_and_come_back() {
        // A double-sided triangle, the same one a third time, and one naming vertex 0 twice.
        let m = mesh(vec![[0, 1, 2], [0, 2, 1], [1, 2, 0], [0, 0, 1]]);
        let s = separated(&m).unwrap();
        assert_eq!(s.triangles, vec![[0, 1, 2], [3, 2, 1], [4, 2, 0], [0, 5, 1]]);
        assert_eq!(s.copies, vec![0, 1, 0]);
        let sets: HashSet<[u32; 3]> = s.triangles.iter().map(|&t| corner_set(t)).collect();
        assert_eq!(sets.len(), 4, "every triangle is a face of its own");
        let mut copied = with_copies(&m, &s);
        assert_eq!(copied.positions.len(), 6);
        assert_eq!(copied.skin.vertex(4), m.skin.vertex(1));
        assert_eq!(copied.uv_sets[0][3], m.uv_sets[0][0]);
        assert!(rejoin(&mut copied, 3, &s.copies));
        assert_eq!(copied, m);
        assert!(separated(&mesh(vec![[0, 1, 2]])).is_none());
    }
}
