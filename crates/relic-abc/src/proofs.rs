//! The real-data proofs, on the file structs themselves (no common model involved): the math that
//! relates the stored values must reproduce other stored values.
//!
//! * v9–v13 (§4.7): every vertex's weights (node, pre-multiplied offset, bias) and the node
//!   matrices give back its stored bind position: `Σ (R·o + b·t) / Σ b`.
//! * v6 (§3.4): every vertex through its node's matrix at a keyframe (`T · R(conjugate q)` chained
//!   from the root, mesh-deformed vertices at their keyed positions) gives a mesh whose box is the
//!   box stored for that keyframe (boxes that are all zero are skipped: exporters leave some empty).

use relic_core::math::{self, IDENTITY, Mat4};

use crate::v6::V6File;
use crate::v12::V12File;

/// Worst reconstruction errors of the weight proof.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct WeightProof {
    /// Vertices checked at LOD 0.
    pub lod0_vertices: usize,
    /// Largest coordinate error at LOD 0.
    pub lod0_worst: f64,
    /// Vertices checked in lower LODs.
    pub lower_vertices: usize,
    /// Largest coordinate error in lower LODs (the LOD generator moves collapsed vertices).
    pub lower_worst: f64,
}

/// Reconstructs every vertex position from its weights and the node matrices (in f64).
pub fn weights(file: &V12File) -> WeightProof {
    let nodes = file.nodes.as_ref().map(|n| n.nodes.as_slice()).unwrap_or_default();
    let matrices: Vec<[f64; 16]> = nodes.iter().map(|n| n.matrix.map(f64::from)).collect();
    let mut proof = WeightProof::default();
    for piece in file.pieces.iter().flat_map(|p| &p.pieces) {
        for (level, lod) in piece.lods.iter().enumerate() {
            for (vertex, weights) in lod.vertex_weights() {
                let (mut sum, mut total) = ([0.0f64; 3], 0.0f64);
                for w in weights {
                    let Some(m) = matrices.get(w.node_index as usize) else { continue };
                    let o = w.offset.map(f64::from);
                    let b = f64::from(w.bias);
                    for (r, s) in sum.iter_mut().enumerate() {
                        let row = m.get(r * 4..r * 4 + 4).unwrap_or_default();
                        if let [m0, m1, m2, m3] = row {
                            *s += m0 * o[0] + m1 * o[1] + m2 * o[2] + b * m3;
                        }
                    }
                    total += b;
                }
                if total == 0.0 {
                    continue;
                }
                let error =
                    sum.iter().zip(vertex.position).map(|(s, p)| (s / total - f64::from(p)).abs()).fold(0.0, f64::max);
                if level == 0 {
                    proof.lod0_vertices += 1;
                    proof.lod0_worst = proof.lod0_worst.max(error);
                } else {
                    proof.lower_vertices += 1;
                    proof.lower_worst = proof.lower_worst.max(error);
                }
            }
        }
    }
    proof
}

/// Worst errors of the keyframe-box proof.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct KeyBoxProof {
    /// Boxes compared.
    pub compared: usize,
    /// All-zero boxes skipped.
    pub empty: usize,
    /// Largest per-corner error.
    pub worst: f32,
    /// Where the worst error is: animation name and key time (ms).
    pub worst_at: Option<(String, u32)>,
}

/// Each node's model-space matrix (file frame) at key `key` of animation `animation`.
pub fn v6_pose(file: &V6File, animation: usize, key: usize) -> Vec<Mat4> {
    let conjugate = file.conjugates_keys();
    let anim = file.animations.animations.get(animation);
    let mut out: Vec<Mat4> = Vec::with_capacity(file.nodes.nodes.len());
    for (n, parent) in file.nodes.parents().into_iter().enumerate() {
        let k = anim.and_then(|a| a.node_anims.get(n)).and_then(|t| t.keys.get(key)).copied().unwrap_or_default();
        let q = if conjugate { math::quat_conjugate(k.rotation) } else { k.rotation };
        let local = math::from_trs(k.translation, q, [1.0; 3]);
        out.push(match parent.and_then(|p| out.get(p)) {
            Some(p) => math::mul(p, &local),
            None => local,
        });
    }
    out
}

/// Node-local positions of every vertex at a key: the stored ones, mesh-deformed vertices at
/// `byte · scale + translation`.
pub fn v6_key_positions(file: &V6File, animation: usize, key: usize) -> Vec<[f32; 3]> {
    let mut positions: Vec<[f32; 3]> = file.geometry.vertices.iter().map(|v| v.position).collect();
    let Some(anim) = file.animations.animations.get(animation) else { return positions };
    for (node, track) in file.nodes.nodes.iter().zip(&anim.node_anims) {
        let count = node.md_vertices.len();
        let frames = track.vertex_frames.get(key * count..(key + 1) * count).unwrap_or_default();
        for (&v, &[x, y, z]) in node.md_vertices.iter().zip(frames) {
            let ([sx, sy, sz], [tx, ty, tz]) = (track.scale, track.translation);
            if let Some(p) = positions.get_mut(usize::from(v)) {
                *p = [f32::from(x) * sx + tx, f32::from(y) * sy + ty, f32::from(z) * sz + tz];
            }
        }
    }
    positions
}

/// Poses the mesh at every keyframe and compares its box with the stored one.
pub fn key_boxes(file: &V6File) -> KeyBoxProof {
    let mut proof = KeyBoxProof::default();
    for (a, anim) in file.animations.animations.iter().enumerate() {
        for (k, key) in anim.keyframes.iter().enumerate() {
            if key.bounds_min == [0.0; 3] && key.bounds_max == [0.0; 3] {
                proof.empty += 1;
                continue;
            }
            let pose = v6_pose(file, a, k);
            let local = v6_key_positions(file, a, k);
            let points: Vec<[f32; 3]> = file
                .geometry
                .vertices
                .iter()
                .zip(&local)
                .map(|(v, p)| {
                    math::transform_point(pose.get(usize::from(v.transformation_index)).unwrap_or(&IDENTITY), *p)
                })
                .collect();
            let Some(posed) = relic_core::model::Aabb::of_points(&points) else { continue };
            let stored = relic_core::model::Aabb { min: key.bounds_min, max: key.bounds_max };
            let error = posed.max_corner_distance(&stored);
            proof.compared += 1;
            if error > proof.worst || proof.worst_at.is_none() {
                proof.worst = proof.worst.max(error);
                if error >= proof.worst {
                    proof.worst_at = Some((crate::common::text(&anim.name), key.time));
                }
            }
        }
    }
    proof
}
