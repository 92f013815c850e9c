//! Model morph targets → v6 mesh deformation (abc.md §3.4): per node the deformed vertices, per
//! animation and node the positions at each key quantised to bytes.

use relic_anim::skin::sample_morph_weights;
use relic_core::frame::Frame;
use relic_core::math::{self, IDENTITY, Mat4, zip3};
use relic_core::model::{Aabb, Animation, Model};

use super::geometry::Geo;
use crate::extras::{V6Extras, morph_digest};

/// Mesh-deformation data: per node its MD vertices; per animation and node the frames and their
/// quantisation.
pub(super) struct Deformation {
    /// Per node: its mesh-deformation vertices.
    pub(super) md_vertices: Vec<Vec<u16>>,
    /// `[animation][node]`.
    pub(super) frames: Vec<Vec<Vec<[u8; 3]>>>,
    /// `[animation][node]`: `(scale, translation)`.
    pub(super) quantization: Vec<Vec<[[f32; 3]; 2]>>,
}

#[allow(clippy::too_many_arguments)]
pub(super) fn mesh_deformation(
    model: &Model,
    anims: &[Animation],
    key_ms: &[Vec<u32>],
    geo: &Geo,
    ex: Option<&V6Extras>,
    inverse_binds: &[Mat4],
    node_count: usize,
    frame: Frame,
) -> Deformation {
    let identity_q = [[1.0f32; 3], [0.0; 3]];
    let stored_q = |a: usize, n: usize| {
        ex.filter(|x| x.animations.len() == anims.len() && x.nodes.len() == node_count)
            .and_then(|x| x.animations.get(a))
            .and_then(|s| s.quantization.get(n))
            .copied()
            .unwrap_or(identity_q)
    };
    // The stored frames, while the morph data is still what they gave.
    if geo.exact
        && let Some(x) = ex
        && x.animations.len() == anims.len()
        && x.nodes.len() == node_count
        && let Some(&(m, _)) = geo.meshes.first()
        && let Some(mesh) = model.meshes.get(m)
    {
        let any_md = x.nodes.iter().any(|n| !n.md_vertices.is_empty());
        let mut start = 0;
        let mut fits = true;
        for (a, (anim, times)) in anims.iter().zip(key_ms).enumerate() {
            let keys = times.len();
            let channel = anim.morph_channels.iter().find(|c| c.mesh == m);
            let range = if any_md && channel.is_some() { start..start + keys } else { 0..0 };
            if any_md && channel.is_some() {
                start += keys;
            }
            let digest = morph_digest(mesh, range, channel);
            fits &= x.animations.get(a).is_some_and(|s| s.morph_digest == digest);
        }
        fits &= start == mesh.morph_targets.len();
        if fits {
            return Deformation {
                md_vertices: x.nodes.iter().map(|n| n.md_vertices.clone()).collect(),
                frames: x.animations.iter().map(|a| a.vertex_frames.clone()).collect(),
                quantization: x.animations.iter().map(|a| a.quantization.clone()).collect(),
            };
        }
    }
    // Deformed file vertices: those a morph target moves, per node.
    let mut md_vertices: Vec<Vec<u16>> = vec![Vec::new(); node_count];
    let mut deformed: Vec<(usize, usize, u32)> = Vec::new(); // (mesh, model vertex, file vertex)
    for (m, map) in &geo.meshes {
        let Some(mesh) = model.meshes.get(*m) else { continue };
        for (v, &f) in map.iter().enumerate() {
            let moves = mesh.morph_targets.iter().any(|t| t.position_deltas.get(v).is_some_and(|d| *d != [0.0; 3]));
            if moves && !deformed.iter().any(|&(_, _, g)| g == f) {
                deformed.push((*m, v, f));
            }
        }
    }
    deformed.sort_by_key(|&(_, _, f)| f);
    let node_of = |f: u32| geo.geometry.vertices.get(f as usize).map_or(0, |v| usize::from(v.transformation_index));
    for &(_, _, f) in &deformed {
        if let Some(list) = md_vertices.get_mut(node_of(f)) {
            list.push(f as u16);
        }
    }
    let mut frames = Vec::with_capacity(anims.len());
    let mut quantization = Vec::with_capacity(anims.len());
    for (a, (anim, times)) in anims.iter().zip(key_ms).enumerate() {
        // Node-local positions of each deformed vertex at each key.
        let mut at_keys: Vec<Vec<(u32, [f32; 3])>> = Vec::with_capacity(times.len());
        for &t in times {
            let mut row = Vec::with_capacity(deformed.len());
            for &(m, v, f) in &deformed {
                let Some(mesh) = model.meshes.get(m) else { continue };
                let channel = anim.morph_channels.iter().find(|c| c.mesh == m);
                let mut weights = vec![0.0f32; mesh.morph_targets.len()];
                if let Some(c) = channel {
                    sample_morph_weights(c, weights.len(), t as f32 / 1000.0, &mut weights);
                }
                // `deformed` lists vertices of this mesh.
                let mut p = mesh.positions.get(v).copied().unwrap_or_default();
                for (target, w) in mesh.morph_targets.iter().zip(&weights) {
                    if let Some(d) = target.position_deltas.get(v) {
                        p = [p[0] + w * d[0], p[1] + w * d[1], p[2] + w * d[2]];
                    }
                }
                let inv = inverse_binds.get(node_of(f)).copied().unwrap_or(IDENTITY);
                row.push((f, math::transform_point(&inv, frame.vector_from_ir(p))));
            }
            at_keys.push(row);
        }
        let mut node_frames = Vec::with_capacity(node_count);
        let mut node_q = Vec::with_capacity(node_count);
        for (n, list) in md_vertices.iter().enumerate() {
            if list.is_empty() {
                node_frames.push(Vec::new());
                node_q.push(stored_q(a, n));
                continue;
            }
            let points: Vec<[f32; 3]> =
                at_keys.iter().flat_map(|row| row.iter().filter(|(f, _)| node_of(*f) == n).map(|(_, p)| *p)).collect();
            let bounds = Aabb::of_points(&points).unwrap_or(Aabb { min: [0.0; 3], max: [0.0; 3] });
            let scale = zip3(bounds.max, bounds.min, |hi, lo| (hi - lo) / 255.0);
            node_q.push([scale, bounds.min]);
            let quantise = |p: [f32; 3]| -> [u8; 3] {
                let steps = zip3(zip3(p, bounds.min, |p, lo| p - lo), scale, |d, s| if s > 0.0 { d / s } else { 0.0 });
                steps.map(|x| x.round().clamp(0.0, 255.0) as u8)
            };
            let mut bytes = Vec::with_capacity(times.len() * list.len());
            for row in &at_keys {
                for &f in list {
                    let p = row.iter().find(|(g, _)| u32::from(f) == *g).map_or([0.0; 3], |(_, p)| *p);
                    bytes.push(quantise(p));
                }
            }
            node_frames.push(bytes);
        }
        frames.push(node_frames);
        quantization.push(node_q);
    }
    Deformation { md_vertices, frames, quantization }
}
