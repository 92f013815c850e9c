//! Vertices: the meshes concatenated, at most four influences each (the strongest, with the
//! position error the others would have made), u8 weights summing to 255.

use relic_anim::affine::{self, Affine};
use relic_anim::pose::{ClipTime, Evaluator, Pose};
use relic_core::WriteError;
use relic_core::model::*;

use super::builder::{Builder, Result, unsupported};
use super::palette::Part;
use crate::file::*;
use crate::frame::WARCRAFT;

impl Builder<'_> {
    /// Vertices, views, bone lookup and materials. Returns true if the file's views were kept
    /// (the meshes still give exactly its vertices).
    pub(super) fn geometry(&mut self, skeleton_fit: bool) -> Result<bool> {
        let (vertices, parts) = self.vertices()?;
        let (materials_fit, view0_units) = self.materials(skeleton_fit)?;
        self.views(vertices, &parts, materials_fit, &view0_units)
    }

    /// The meshes' vertices, concatenated in mesh order, and each mesh as a [`Part`] of them;
    /// a loss when influences beyond 4 were dropped.
    fn vertices(&mut self) -> Result<(Vec<Vertex>, Vec<Part>)> {
        let m = self.model;
        let mut vertices: Vec<Vertex> = Vec::with_capacity(m.vertex_count());
        let mut parts = Vec::with_capacity(m.meshes.len());
        let mut pruned = Vec::new();
        let too_many = || unsupported("more than 65535 vertices: M2 views index them with u16");
        for (mi, mesh) in m.meshes.iter().enumerate() {
            let first = vertices.len();
            for (v, &position) in mesh.positions.iter().enumerate() {
                let (vertex, was_pruned) = vertex_from(mesh, v, position, &self.to_file)?;
                if was_pruned {
                    pruned.push((mi, v));
                }
                vertices.push(vertex);
            }
            let g = |i: u32| u16::try_from(first + i as usize).map_err(|_| too_many());
            let vertex_ids = (first..vertices.len())
                .map(|i| u16::try_from(i).map_err(|_| too_many()))
                .collect::<Result<Vec<_>>>()?;
            let triangles =
                mesh.triangles.iter().map(|t| Ok([g(t[0])?, g(t[1])?, g(t[2])?])).collect::<Result<Vec<_>>>()?;
            // A mesh that is no part of a set: geoset 0, the whole body.
            let id = match mesh.part_id.map(u16::try_from) {
                None => 0,
                Some(Ok(id)) => id,
                Some(Err(_)) => {
                    let what = format!("part id {:?} does not fit the u16 geoset id: written as 0", mesh.part_id);
                    self.loss(format!("meshes[{mi}]"), what);
                    0
                }
            };
            parts.push(Part { id, vertices: vertex_ids, triangles });
        }
        if !pruned.is_empty() {
            let error = pruning_error(m, &pruned);
            self.loss(
                "meshes",
                format!("{} vertices had more than 4 influences: kept the 4 largest; largest position error {error:.4} over the animations' keys", pruned.len()),
            );
        }
        Ok((vertices, parts))
    }
}

/// One vertex of a mesh: at most 4 influences (the largest), u8 weights summing to 255, bones
/// named in the file's order (`to_file`: model bone → file bone). Returns the vertex and whether
/// influences were dropped.
fn vertex_from(mesh: &Mesh, v: usize, position: [f32; 3], to_file: &[usize]) -> Result<(Vertex, bool)> {
    let position = WARCRAFT.vector_from_ir(position);
    let normal = WARCRAFT.vector_from_ir(mesh.normals.get(v).copied().unwrap_or([0.0, 1.0, 0.0]));
    let uv = |set: usize| mesh.uv_sets.get(set).and_then(|s| s.get(v)).copied().unwrap_or([0.0; 2]);
    let stored = mesh.skin.vertex(v);
    let pruned = stored.len() > 4;
    let mut inf = if pruned { mesh.skin.strongest(v, 4) } else { stored.to_vec() };
    if inf.is_empty() && !to_file.is_empty() {
        inf.push(Influence { bone: 0, weight: 1.0 });
    }
    for i in &mut inf {
        i.bone = to_file.get(i.bone as usize).map_or(i.bone, |&f| f as u32);
    }
    let (weights, indices) = quantise(&inf)?;
    Ok((
        Vertex {
            position,
            bone_weights: weights,
            bone_indices: indices,
            normal,
            tex_coords: uv(0),
            tex_coords2: uv(1),
        },
        pruned,
    ))
}

/// Up to 4 influences → u8 weights summing to 255 (largest remainder), in the given order.
fn quantise(inf: &[Influence]) -> Result<([u8; 4], [u8; 4])> {
    let mut weights = [0u8; 4];
    let mut indices = [0u8; 4];
    if inf.is_empty() {
        return Ok((weights, indices));
    }
    let sum: f64 = inf.iter().map(|i| f64::from(i.weight)).sum();
    let sum = if sum > 0.0 { sum } else { 1.0 };
    let exact: Vec<f64> = inf.iter().map(|i| f64::from(i.weight) / sum * 255.0).collect();
    let mut q: Vec<i64> = exact.iter().map(|e| e.floor() as i64).collect();
    let mut missing = 255 - q.iter().sum::<i64>();
    // Largest remainder first, the earlier influence first among equal ones.
    let mut by_remainder: Vec<(f64, usize)> = exact.iter().zip(&q).map(|(e, &f)| e - f as f64).zip(0..).collect();
    by_remainder.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let order: Vec<usize> = by_remainder.into_iter().map(|(_, i)| i).collect();
    for i in order.iter().cycle().take(q.len() * 4) {
        if missing <= 0 {
            break;
        }
        if let Some(x) = q.get_mut(*i) {
            *x += 1;
            missing -= 1;
        }
    }
    for (k, (i, w)) in inf.iter().zip(q).enumerate() {
        let b = u8::try_from(i.bone).map_err(|_| WriteError::DoesNotFit {
            field: "vertex bone index".into(),
            value: u64::from(i.bone),
            ty: "u8",
        })?;
        if let (Some(ws), Some(is)) = (weights.get_mut(k), indices.get_mut(k)) {
            *ws = w.clamp(0, 255) as u8;
            *is = b;
        }
    }
    Ok((weights, indices))
}

/// The largest distance, over the rest pose and every animation at its first, middle and last
/// moment (posed by `relic-anim`), between a vertex skinned with all its influences and with only
/// the 4 it keeps ([`Skin::strongest`]). `vertices` lists `(mesh, vertex)` pairs.
fn pruning_error(model: &Model, vertices: &[(usize, usize)]) -> f32 {
    let mut poses = vec![Pose::rest(model)];
    for animation in &model.animations {
        let mut evaluator = Evaluator::new(model, animation);
        for t in [0.0, animation.duration * 0.5, animation.duration] {
            poses.push(evaluator.evaluate(ClipTime::at(t)).clone());
        }
    }
    let mut worst = 0.0f32;
    for &(m, v) in vertices {
        let Some(mesh) = model.meshes.get(m) else { continue };
        let Some(p) = mesh.positions.get(v) else { continue };
        let (all, kept) = (mesh.skin.vertex(v), mesh.skin.strongest(v, 4));
        for pose in &poses {
            let (a, b) = (skin_point(&pose.skin, all, p), skin_point(&pose.skin, &kept, p));
            worst = worst.max(relic_core::math::max_abs_diff(&a, &b));
        }
    }
    worst
}

/// A point skinned by `influences` (weights normalised by their sum) with the pose's skin matrices.
fn skin_point(skin: &[Affine], influences: &[Influence], p: &[f32; 3]) -> [f32; 3] {
    let total: f32 = influences.iter().map(|i| i.weight).sum::<f32>().max(f32::MIN_POSITIVE);
    influences.iter().fold([0.0; 3], |acc, i| {
        let q = skin.get(i.bone as usize).map_or(*p, |m| affine::transform_point(m, p));
        let w = i.weight / total;
        [acc[0] + w * q[0], acc[1] + w * q[1], acc[2] + w * q[2]]
    })
}
