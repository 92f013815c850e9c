//! The v9–v13 real-data proofs on the file structs themselves: the math that relates the stored
//! values must reproduce other stored values.
//!
//! * abc.md §4.7: every vertex's weights (node, pre-multiplied offset, bias) and the node
//!   matrices give back its stored bind position, `Σ (R·o + b·t) / Σ b` (relic-core's matrix math).
//! * abc.md §4.1: every header count equals the count the writer recomputes from the data.

use relic_core::math::{self, Mat4};

use crate::file::V12File;
use crate::to_ir::column_major;

/// Worst reconstruction errors of the weight proof.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct WeightProof {
    /// Vertices checked at LOD 0.
    pub(crate) lod0_vertices: usize,
    /// Largest coordinate error at LOD 0.
    pub(crate) lod0_worst: f32,
    /// Vertices checked in lower LODs.
    pub(crate) lower_vertices: usize,
    /// Largest coordinate error in lower LODs (the LOD generator moves collapsed vertices).
    pub(crate) lower_worst: f32,
}

/// Rebuilds every vertex position from its weights and the node matrices.
pub(crate) fn weights(file: &V12File) -> WeightProof {
    let nodes = file.node_list();
    let matrices: Vec<Mat4> = nodes.iter().map(|n| column_major(&n.matrix)).collect();
    let mut proof = WeightProof::default();
    for piece in file.pieces.iter().flat_map(|p| &p.pieces) {
        for (level, lod) in piece.lods.iter().enumerate() {
            for (vertex, weights) in lod.vertex_weights() {
                let (mut sum, mut total) = ([0.0f32; 3], 0.0f32);
                for w in weights {
                    let Some(m) = matrices.get(w.node_index as usize) else { continue };
                    let rotated = math::transform_vector(m, w.offset);
                    let moved = math::transform_point(m, [0.0; 3]);
                    sum = math::add3(sum, math::zip3(rotated, moved, |r, t| r + w.bias * t));
                    total += w.bias;
                }
                if total == 0.0 {
                    continue;
                }
                let error = math::max_abs_diff(&sum.map(|s| s / total), &vertex.position);
                let (count, worst) = match level {
                    0 => (&mut proof.lod0_vertices, &mut proof.lod0_worst),
                    _ => (&mut proof.lower_vertices, &mut proof.lower_worst),
                };
                *count += 1;
                *worst = worst.max(error);
            }
        }
    }
    proof
}

/// Every stored header count paired with its recomputed value.
pub(crate) fn header_count_pairs(file: &V12File) -> Vec<(&'static str, u32, u32)> {
    let (s, r) = (&file.header, file.recounted_header());
    let mut pairs: Vec<(&'static str, u32, u32)> =
        s.counts.named().into_iter().zip(r.counts.named()).map(|((name, a), (_, b))| (name, a, b)).collect();
    pairs.push(("StringCount", s.string_count, r.string_count));
    pairs.push(("StringLengthTotal", s.string_length_total, r.string_length_total));
    let weights = file.pieces.as_ref().map_or(r.counts.weight_count, |p| p.weight_count);
    pairs.push(("Pieces.WeightCount", weights, r.counts.weight_count));
    pairs
}
