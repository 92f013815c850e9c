//! Model vertices back to the file's vertices after another tool (Blender) rewrote the mesh.
//!
//! `to_ir` splits a file vertex into several model vertices where its face corners have
//! different texture coordinates (ABC keeps UVs per corner); the extras record the split
//! ([`LodExtras::splits`]). A tool that rewrites the glTF keeps the geometry but not the vertex
//! order, and moves every value by float noise (Blender: about 2e-5), so neither the digest nor
//! the order can say which model vertex is which file vertex. The stored weights can: each holds
//! the vertex's node-local position pre-multiplied by its bias (abc.md §4.7), so the bind pose
//! gives back every file vertex's position. Each model vertex is matched to the file vertex at
//! its position (within [`POSITION_TOLERANCE`]) that has the same nodes and biases (within
//! [`BIAS_TOLERANCE`]); several model vertices may share a file vertex only while their normals
//! agree (they are UV splits): within [`NORMAL_TOLERANCE`], or within [`SPLIT_NORMAL_TOLERANCE`]
//! for as many as the extras record the file vertex split into (Blender keeps each split's normal
//! relative to its own face fan and gives them back up to about 1e-2 apart). The match holds when every file vertex has a model vertex and
//! every model vertex a file vertex; otherwise the mesh was edited and is written from the model.

use std::collections::HashMap;

use relic_core::frame::Frame;
use relic_core::math::{self, Mat4};
use relic_core::model::Mesh;

use super::skeleton::Skeleton;
use crate::extras::{LodExtras, MovedVertex};

/// How far (per coordinate, game units) a vertex may be from its stored position and still be
/// that vertex.
pub(crate) const POSITION_TOLERANCE: f32 = 1e-3;
/// How far a normalised influence may be from the stored bias (normalised) and still match.
pub(crate) const BIAS_TOLERANCE: f32 = 2e-2;
/// How far (per component) the normals of two splits of one file vertex may differ: Blender's
/// custom normals come back within about 1e-3, and up to 8e-3 for a vertex in two face fans
/// (LOD seams of INTHERO_CASUAL, INTHERO_WINTER, COSMONAUT_STYLE2_MULTI); a hard edge 0.6° sharp
/// or less is not one a viewer shows.
pub(crate) const NORMAL_TOLERANCE: f32 = 1e-2;
/// How far the normals of the splits the extras record for a file vertex may differ after a tool
/// (Blender: up to about 1e-2, measured on INTHERO_CASUAL, INTHERO_WINTER and
/// COSMONAUT_STYLE2_MULTI, whose LOD seams moved 6e-3 to 8e-3).
pub(crate) const SPLIT_NORMAL_TOLERANCE: f32 = 5e-2;

/// One file vertex as the stored weights give it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Reference {
    /// Model-frame position (bind pose).
    pub position: [f32; 3],
    /// (node, normalised bias) of each weight with a positive bias, by node.
    pub nodes: Vec<(u32, f32)>,
}

/// The file vertices of a LOD as its stored weights place them with the model's binds
/// (`binds[node]`, model frame); `None` for a vertex without a weight of non-zero bias.
pub(crate) fn references(x: &LodExtras, binds: &[Mat4], frame: Frame) -> Vec<Option<Reference>> {
    let positions = weight_positions(x, binds, frame);
    let mut moved = x.positions.clone();
    moved.sort_by_key(|m| m.vertex);
    per_vertex_weights(x)
        .zip(positions)
        .enumerate()
        .map(|(v, (weights, at))| {
            let stored = moved.binary_search_by_key(&(v as u32), |m| m.vertex).ok().and_then(|i| moved.get(i));
            let position = stored.map(|m| m.position).or(at)?;
            Some(Reference { position, nodes: normalised_nodes(weights) })
        })
        .collect()
}

/// Each file vertex's stored weights (extras `to_ir` made, or checked by
/// [`LodExtras::inconsistency`]: the counts add up to the weights, so no slice falls short).
fn per_vertex_weights(x: &LodExtras) -> impl Iterator<Item = &[crate::file::Weight]> {
    let mut start = 0usize;
    x.weight_counts.iter().map(move |&count| {
        let end = start + usize::from(count);
        let weights = x.weights.get(start..end).unwrap_or_default();
        start = end;
        weights
    })
}

/// Where each file vertex's strongest weight places it (its offset over its bias, by the node's
/// bind), in the model frame; `None` without a weight of non-zero bias.
fn weight_positions(x: &LodExtras, binds: &[Mat4], frame: Frame) -> Vec<Option<[f32; 3]>> {
    let file_binds: Vec<Mat4> = binds.iter().map(|b| frame.matrix_from_ir(b)).collect();
    per_vertex_weights(x)
        .map(|weights| {
            let w = weights
                .iter()
                .filter(|w| w.bias.is_finite() && w.bias.abs() > 1e-6)
                .max_by(|a, b| a.bias.abs().total_cmp(&b.bias.abs()))?;
            let file_bind = file_binds.get(w.node_index as usize)?;
            let local = w.offset.map(|c| c / w.bias);
            Some(frame.vector_to_ir(math::transform_point(file_bind, local)))
        })
        .collect()
}

/// (node, bias normalised to sum 1) of the weights with a positive bias, by node.
fn normalised_nodes(weights: &[crate::file::Weight]) -> Vec<(u32, f32)> {
    let positive: Vec<(u32, f32)> =
        weights.iter().filter(|w| w.bias.is_finite() && w.bias > 0.0).map(|w| (w.node_index, w.bias)).collect();
    let sum: f32 = positive.iter().map(|(_, b)| b).sum();
    let mut nodes: Vec<(u32, f32)> = positive.iter().map(|&(n, b)| (n, b / sum)).collect();
    nodes.sort_by_key(|&(n, _)| n);
    nodes
}

/// The file vertices whose stored position is not where their weights put them (a file may
/// store both inconsistently): `(file vertex, model-frame position)`, for [`LodExtras::positions`].
pub(crate) fn departures(x: &LodExtras, positions: &[[f32; 3]], binds: &[Mat4], frame: Frame) -> Vec<MovedVertex> {
    weight_positions(x, binds, frame)
        .iter()
        .zip(positions)
        .enumerate()
        .filter(|(_, (r, p))| r.as_ref().is_none_or(|r| math::max_abs_diff(r, *p) > POSITION_TOLERANCE / 4.0))
        .map(|(f, (_, p))| MovedVertex { vertex: f as u32, position: *p })
        .collect()
}

/// The (node, weight) pairs of a model vertex, by node; weights under 1e-4 left out (tools drop
/// zero weights).
fn vertex_nodes(mesh: &Mesh, v: usize, sk: &Skeleton) -> Vec<(u32, f32)> {
    let mut nodes: Vec<(u32, f32)> = mesh
        .skin
        .vertex(v)
        .iter()
        .filter(|i| i.weight > 1e-4)
        .map(|i| (sk.tree.node(i.bone as usize), i.weight))
        .collect();
    nodes.sort_by_key(|&(n, _)| n);
    nodes
}

/// Whether a model vertex's influences (`model`) are the stored weights (`stored`): the same
/// nodes and biases, or the strongest of them renormalised (glTF keeps 4 influences per vertex
/// set, and Blender exports only the strongest 4).
fn same_nodes(model: &[(u32, f32)], stored: &[(u32, f32)]) -> bool {
    if model.len() > stored.len() || model.is_empty() != stored.is_empty() {
        return false;
    }
    let kept: Vec<(u32, f32)> = stored.iter().copied().filter(|(n, _)| model.iter().any(|m| m.0 == *n)).collect();
    if kept.len() != model.len() {
        return false;
    }
    let weakest_kept = kept.iter().map(|k| k.1).fold(f32::INFINITY, f32::min);
    let dropped_weaker =
        stored.iter().filter(|(n, _)| model.iter().all(|m| m.0 != *n)).all(|d| d.1 <= weakest_kept + BIAS_TOLERANCE);
    let sum: f32 = kept.iter().map(|k| k.1).sum();
    dropped_weaker
        && sum > 0.0
        && kept.iter().zip(model).all(|(k, m)| k.0 == m.0 && (k.1 / sum - m.1).abs() <= BIAS_TOLERANCE)
}

fn cell(p: [f32; 3]) -> [i64; 3] {
    p.map(|c| (c / (4.0 * POSITION_TOLERANCE)).floor() as i64)
}

/// The file vertices in the grid cells around `p`.
fn near(grid: &HashMap<[i64; 3], Vec<u32>>, p: [f32; 3]) -> impl Iterator<Item = u32> + '_ {
    let [x, y, z] = cell(p);
    (0..27i64).flat_map(move |d| {
        // A coordinate beyond i64's cells saturates there (`as`): its neighbours too.
        let key = [x.saturating_add(d % 3 - 1), y.saturating_add((d / 3) % 3 - 1), z.saturating_add(d / 9 - 1)];
        grid.get(&key).into_iter().flatten().copied()
    })
}

/// Model vertices matched to file vertices.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Matched {
    /// The file vertex of each model vertex.
    pub file_vertex: Vec<u32>,
    /// The model vertex each file vertex takes its position and normal from ([`LOOSE`] for a
    /// file vertex no face uses).
    pub source: Vec<u32>,
    /// The stored (bind-pose) position of each loose file vertex.
    pub loose: Vec<(u32, [f32; 3])>,
}

/// [`Matched::source`] of a file vertex no model vertex matched and no twin stands for: one no
/// face uses (a glTF exporter writes only the vertices its faces use; SHOTGUN_PV has one), kept
/// from the extras.
pub(crate) const LOOSE: u32 = u32::MAX;
/// How many loose vertices a match accepts (or 1% of the file's vertices if more).
const MAX_LOOSE: usize = 4;

/// Which file vertex each model vertex of `mesh` is, or `None` if the mesh no longer matches the
/// stored vertices one for one (see the module docs). A file vertex no model vertex matched may
/// be the twin of one that was (same stored position and weights): a tool that welds vertices
/// alike within float noise (relic-gltf's import does) made one of them; it is kept, with its
/// twin's position and normal.
pub(crate) fn file_vertices(mesh: &Mesh, refs: &[Option<Reference>], splits: &[u32], sk: &Skeleton) -> Option<Matched> {
    // The recorded splits each file vertex has left to match (`LodExtras::splits`).
    let mut splits_left = vec![0usize; refs.len()];
    for &f in splits {
        if let Some(n) = splits_left.get_mut(f as usize) {
            *n += 1;
        }
    }
    let mut grid: HashMap<[i64; 3], Vec<u32>> = HashMap::new();
    for (f, r) in refs.iter().enumerate() {
        grid.entry(cell(r.as_ref()?.position)).or_default().push(f as u32);
    }
    let near = |p: [f32; 3]| near(&grid, p);
    let mut claimed: Vec<Option<usize>> = vec![None; refs.len()];
    let mut out = Vec::with_capacity(mesh.positions.len());
    let skinned = !mesh.skin.is_empty();
    for (v, p) in mesh.positions.iter().enumerate() {
        let nodes = if skinned { vertex_nodes(mesh, v, sk) } else { Vec::new() };
        let mut best: Option<(bool, f32, u32)> = None;
        for f in near(*p) {
            let Some(Some(r)) = refs.get(f as usize) else { continue };
            let distance = math::max_abs_diff(p, &r.position);
            if distance > POSITION_TOLERANCE || (skinned && !same_nodes(&nodes, &r.nodes)) {
                continue;
            }
            // An unclaimed file vertex first; a claimed one only as a split (same normal, or
            // close to it while the file vertex has recorded splits left).
            let taken = match claimed.get(f as usize).copied().flatten() {
                None => false,
                Some(first) => {
                    let (a, b) = (mesh.normals.get(first), mesh.normals.get(v));
                    let apart = a.zip(b).map_or(0.0, |(a, b)| math::max_abs_diff(a, b));
                    let recorded = splits_left.get(f as usize).is_some_and(|&n| n > 0);
                    if apart > NORMAL_TOLERANCE && !(recorded && apart <= SPLIT_NORMAL_TOLERANCE) {
                        continue;
                    }
                    true
                }
            };
            if best.is_none_or(|(bt, bd, _)| (taken, distance) < (bt, bd)) {
                best = Some((taken, distance, f));
            }
        }
        let (taken, _, f) = best?;
        if let Some(slot @ None) = claimed.get_mut(f as usize) {
            *slot = Some(v);
        }
        if let Some(n) = splits_left.get_mut(f as usize).filter(|_| taken) {
            *n = n.saturating_sub(1);
        }
        out.push(f);
    }
    let mut source = Vec::with_capacity(refs.len());
    let mut loose = Vec::new();
    for (f, r) in refs.iter().enumerate() {
        let v = match claimed.get(f).copied().flatten() {
            Some(v) => v as u32,
            None => {
                let r = r.as_ref()?;
                let twin = near(r.position).find_map(|g| {
                    let other = refs.get(g as usize)?.as_ref()?;
                    let alike = math::max_abs_diff(&r.position, &other.position) <= POSITION_TOLERANCE
                        && same_nodes(&r.nodes, &other.nodes);
                    alike.then(|| claimed.get(g as usize).copied().flatten()).flatten()
                });
                match twin {
                    Some(t) => t as u32,
                    None => {
                        loose.push((f as u32, r.position));
                        LOOSE
                    }
                }
            }
        };
        source.push(v);
    }
    // A few loose vertices are the original's; many mean the mesh was cut down in the tool.
    (loose.len() <= MAX_LOOSE.max(refs.len() / 100)).then_some(Matched { file_vertex: out, source, loose })
}

/// File vertices for a mesh without stored ones: model vertices alike in position, influences
/// (bit for bit) and normal (within [`NORMAL_TOLERANCE`]) are one file vertex, since ABC keeps
/// texture coordinates per face corner (a glTF vertex is split wherever its UVs differ).
pub(crate) fn uv_seams(mesh: &Mesh, normals: &[[f32; 3]]) -> Matched {
    let mut groups: HashMap<Vec<u32>, Vec<u32>> = HashMap::new();
    let mut file_vertex = Vec::with_capacity(mesh.positions.len());
    let mut source: Vec<u32> = Vec::new();
    for (v, p) in mesh.positions.iter().enumerate() {
        let mut key: Vec<u32> = p.map(f32::to_bits).to_vec();
        for inf in mesh.skin.vertex(v) {
            key.extend([inf.bone, inf.weight.to_bits()]);
        }
        // One normal per vertex (the mesh's, or computed for it).
        let normal = normals.get(v).copied().unwrap_or_default();
        let group = groups.entry(key).or_default();
        let same = group.iter().copied().find(|&f| {
            let first = source.get(f as usize).and_then(|&s| normals.get(s as usize));
            first.is_some_and(|n| math::max_abs_diff(n, &normal) <= NORMAL_TOLERANCE)
        });
        let f = same.unwrap_or_else(|| {
            source.push(v as u32);
            let f = (source.len() - 1) as u32;
            group.push(f);
            f
        });
        file_vertex.push(f);
    }
    Matched { file_vertex, source, loose: Vec::new() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::file::Weight;
    use relic_core::math::IDENTITY;
    use relic_core::model::{Influence, Skin};

    fn skeleton() -> Skeleton {
        let tree = relic_lithtech::tree::DepthFirst {
            nodes: vec![Some(0)],
            node_of: vec![0],
            parents: vec![None],
            child_counts: vec![0],
            binds: vec![IDENTITY],
            identity: true,
        };
        Skeleton { tree, original: vec![IDENTITY] }
    }

    /// Three file vertices; the model has them out of order, one split in two, with noise.
    fn fixture() -> (LodExtras, Mesh) {
        let frame = crate::frame::LITHTECH;
        let file = [[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0], [1.0, 2.0, 3.0]];
        let weights = file
            .iter()
            .map(|p| Weight { node_index: 0, offset: frame.vector_from_ir(*p).map(|c| c * 0.5), bias: 0.5 })
            .collect();
        let x = LodExtras {
            weight_counts: vec![1, 1, 1],
            weights,
            sub_lod: vec![0, 0, 0],
            splits: vec![1],
            positions: Vec::new(),
            digest: 0,
        };
        let noisy = |p: [f32; 3]| p.map(|c| c + 2e-5);
        let mesh = Mesh {
            positions: vec![noisy(file[1]), noisy(file[0]), noisy(file[2]), noisy(file[1])],
            normals: vec![[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0005]],
            skin: Skin::from_vertices(vec![vec![Influence { bone: 0, weight: 1.0 }]; 4]),
            ..Mesh::default()
        };
        (x, mesh)
    }

    #[test]
    fn matches_reordered_split_vertices() {
        let (x, mesh) = fixture();
        let refs = references(&x, &[IDENTITY], crate::frame::LITHTECH);
        let map = file_vertices(&mesh, &refs, &x.splits, &skeleton());
        // Vertices 0 and 2 of the file share a position: the first unclaimed one is taken, then
        // the other; the last model vertex is the split of file vertex 1.
        let map = map.map(|m| (m.file_vertex, m.source));
        assert_eq!(map, Some((vec![1, 0, 2, 1], vec![1, 0, 2])));
    }

    #[test]
    fn refuses_a_moved_vertex() {
        let (x, mut mesh) = fixture();
        if let Some(p) = mesh.positions.get_mut(1) {
            p[0] += 0.01;
        }
        let refs = references(&x, &[IDENTITY], crate::frame::LITHTECH);
        assert_eq!(file_vertices(&mesh, &refs, &x.splits, &skeleton()), None);
    }

    #[test]
    fn four_strongest_influences_match_five_stored() {
        let stored = [(1, 0.4), (2, 0.3), (3, 0.1), (4, 0.1), (5, 0.1)];
        let four = [(1, 0.4 / 0.9), (2, 0.3 / 0.9), (3, 0.1 / 0.9), (4, 0.1 / 0.9)];
        assert!(same_nodes(&four, &stored));
        // The strongest one missing is not the same vertex.
        let without_strongest = [(2, 0.5), (3, 0.5 / 3.0), (4, 0.5 / 3.0), (5, 0.5 / 3.0)];
        assert!(!same_nodes(&without_strongest, &stored));
        assert!(!same_nodes(&[(1, 1.0)], &[(2, 1.0)]));
    }

    #[test]
    fn uv_seams_are_one_file_vertex() {
        let (_, mesh) = fixture();
        // Model vertices 0 and 3: same position and influences, normals 5e-4 apart.
        let m = uv_seams(&mesh, &mesh.normals);
        assert_eq!((m.file_vertex, m.source), (vec![0, 1, 2, 0], vec![0, 1, 2]));
    }

    #[test]
    fn keeps_a_welded_twin() {
        let (x, mut mesh) = fixture();
        // Model vertex 2 (file vertex 2, the twin of file vertex 0) welded into model vertex 1.
        mesh.positions.remove(2);
        mesh.normals.remove(2);
        mesh.skin = Skin::from_vertices(vec![vec![Influence { bone: 0, weight: 1.0 }]; 3]);
        let refs = references(&x, &[IDENTITY], crate::frame::LITHTECH);
        let map = file_vertices(&mesh, &refs, &x.splits, &skeleton()).map(|m| (m.file_vertex, m.source));
        assert_eq!(map, Some((vec![1, 0, 1], vec![1, 0, 1])));
    }

    /// Issue 27 class 6: Blender gives the splits of one file vertex back with normals up to 8e-3
    /// apart (each split is a vertex of its own face fan there): such a split matches; further
    /// apart, a recorded split still does, a vertex the extras do not record as split does not.
    #[test]
    fn a_recorded_split_matches_with_a_drifted_normal() {
        let (mut x, mut mesh) = fixture();
        mesh.normals[3] = [0.008, 0.99997, 0.0];
        let refs = references(&x, &[IDENTITY], crate::frame::LITHTECH);
        let blender = file_vertices(&mesh, &refs, &[], &skeleton()).map(|m| m.file_vertex);
        assert_eq!(blender, Some(vec![1, 0, 2, 1]));
        mesh.normals[3] = [0.03, 0.99955, 0.0];
        let refs = references(&x, &[IDENTITY], crate::frame::LITHTECH);
        let map = file_vertices(&mesh, &refs, &x.splits, &skeleton()).map(|m| (m.file_vertex, m.source));
        assert_eq!(map, Some((vec![1, 0, 2, 1], vec![1, 0, 2])));
        x.splits.clear();
        assert_eq!(file_vertices(&mesh, &refs, &x.splits, &skeleton()), None);
    }

    #[test]
    fn refuses_a_split_with_another_normal() {
        let (x, mut mesh) = fixture();
        if let Some(n) = mesh.normals.get_mut(3) {
            *n = [1.0, 0.0, 0.0];
        }
        let refs = references(&x, &[IDENTITY], crate::frame::LITHTECH);
        // Vertex 3 may not join file vertex 1 (other normal), and every other one is taken.
        assert_eq!(file_vertices(&mesh, &refs, &x.splits, &skeleton()), None);
    }
}
