//! Model meshes → v9–v13 pieces: a LOD-0 mesh starts a piece, the meshes after it are its lower
//! LODs; weights become node-local offsets pre-multiplied by their bias (abc.md §4.7).

use std::collections::HashMap;

use relic_core::frame::Frame;
use relic_core::math::{self, IDENTITY, Mat4};
use relic_core::model::{Mesh, Model};
use relic_core::{Loss, WriteError};

use super::material::{material_slot, specular};
use super::names::stored_name;
use super::skeleton::Skeleton;
use crate::extras::{LodExtras, V12Extras, mesh_digest};
use crate::file::{Face, FaceCorner, Piece, PieceLod, Vertex, Weight};

/// Meshes grouped into pieces: a LOD-0 mesh starts a piece; the n-th lower LOD of a name and
/// level joins the n-th piece of that name (the piece before it if there is none). Pieces come in the stored order while the
/// stored names find every piece (a tool may have reordered the meshes: Blender sorts by name).
fn group_pieces(model: &Model, ex: Option<&V12Extras>, losses: &mut Vec<Loss>) -> Vec<Vec<usize>> {
    // LOD-0 meshes start the pieces (a tool may have put a lower LOD before its LOD 0).
    let mut pieces: Vec<Vec<usize>> =
        model.meshes.iter().enumerate().filter(|(_, m)| m.lod.level == 0).map(|(i, _)| vec![i]).collect();
    // LOD meshes: (mesh, the how-many-th of its name and level, the piece started before it).
    let mut lower: Vec<(usize, usize, Option<usize>)> = Vec::new();
    let mut seen: HashMap<(&str, u32), usize> = HashMap::new();
    for (i, mesh) in model.meshes.iter().enumerate().filter(|(_, m)| m.lod.level != 0) {
        let nth = seen.entry((mesh.name.as_str(), mesh.lod.level)).or_insert(0);
        let before = pieces.iter().rposition(|p| p.first().is_some_and(|&first| first < i));
        lower.push((i, *nth, before));
        *nth += 1;
    }
    let name_of = |p: &Vec<usize>| p.first().and_then(|&m| model.meshes.get(m)).map(|m| m.name.as_str());
    for (i, nth, before) in lower {
        let Some(mesh) = model.meshes.get(i) else { continue };
        // The nth piece of that name (several pieces may share one; Blender keeps each name's
        // meshes in their order), else the piece before it.
        let named = pieces.iter().enumerate().filter(|(_, p)| name_of(p) == Some(mesh.name.as_str())).nth(nth);
        let Some(p) = named.map(|(p, _)| p).or(before).and_then(|p| pieces.get_mut(p)) else {
            pieces.push(vec![i]);
            continue;
        };
        p.push(i);
    }
    for p in &mut pieces {
        p.sort_by_key(|&m| model.meshes.get(m).map_or(0, |x| x.lod.level));
        for (level, &i) in p.iter().enumerate() {
            let Some(mesh) = model.meshes.get(i) else { continue };
            if mesh.lod.level as usize != level {
                losses.push(Loss::new(
                    format!("meshes[{i}] {:?}", mesh.name),
                    format!("LOD level {} written as level {level}", mesh.lod.level),
                ));
            }
        }
    }
    if let Some(x) = ex {
        stored_order(model, x, &mut pieces);
    }
    // No pieces: no LODs to even out.
    let lods = pieces.iter().map(Vec::len).max().unwrap_or(0);
    for p in &mut pieces {
        if p.len() < lods
            && let Some(&last) = p.last()
            && let Some(mesh) = model.meshes.get(last)
        {
            {
                losses.push(Loss::new(
                    format!("meshes[{last}] {:?}", mesh.name),
                    format!("piece has {} LODs, every ABC piece has {lods}: the last one repeated", p.len()),
                ));
                p.resize(lods, last);
            }
        }
    }
    pieces
}

/// Puts the pieces in the order the extras name them, if their names find every piece.
fn stored_order(model: &Model, x: &V12Extras, pieces: &mut Vec<Vec<usize>>) {
    if x.pieces.len() != pieces.len() || x.pieces.iter().any(|p| p.name.is_empty()) {
        return;
    }
    let name = |p: &Vec<usize>| p.first().and_then(|&m| model.meshes.get(m)).map(|m| m.name.as_str());
    let mut left: Vec<Option<Vec<usize>>> = pieces.drain(..).map(Some).collect();
    let mut ordered = Vec::with_capacity(left.len());
    for stored in &x.pieces {
        let found = left.iter_mut().find(|p| p.as_ref().and_then(name) == Some(stored.name.as_str()));
        match found.and_then(Option::take) {
            Some(p) => ordered.push(p),
            None => break,
        }
    }
    if ordered.len() == x.pieces.len() {
        *pieces = ordered;
    } else {
        // Put back what was taken, in the model's order.
        let mut all: Vec<Vec<usize>> = ordered.into_iter().chain(left.into_iter().flatten()).collect();
        all.sort_by_key(|p| p.first().copied());
        *pieces = all;
    }
}

pub(super) type PiecesOut = (Vec<Piece>, Vec<f32>, u32);

pub(super) fn build_pieces(
    model: &Model,
    sk: &Skeleton,
    version: u32,
    ex: Option<&V12Extras>,
    binds_fit: bool,
    frame: Frame,
    losses: &mut Vec<Loss>,
) -> Result<PiecesOut, WriteError> {
    let groups = group_pieces(model, ex, losses);
    let lod_count = groups.first().map(Vec::len);
    let pieces_fit = ex.filter(|x| {
        x.pieces.len() == groups.len() && x.pieces.iter().zip(&groups).all(|(p, g)| p.lods.len() == g.len())
    });
    let inverse_binds: Vec<Mat4> =
        sk.tree.binds.iter().map(|b| math::inverse(&frame.matrix_from_ir(b)).unwrap_or(IDENTITY)).collect();
    let mut pieces = Vec::with_capacity(groups.len());
    for (p, group) in groups.iter().enumerate() {
        let stored = pieces_fit.and_then(|x| x.pieces.get(p));
        let Some((first_index, first)) = group.first().and_then(|&m| Some((m, model.meshes.get(m)?))) else {
            continue;
        };
        let (material, slot) = material_slot(model, first);
        let (power, scale) = specular(material, stored, pieces_fit, slot);
        let mut lods = Vec::with_capacity(group.len());
        for (l, &m) in group.iter().enumerate() {
            let Some(mesh) = model.meshes.get(m) else { continue };
            let lod_ex = stored.and_then(|s| s.lods.get(l));
            let last = l + 1 == group.len();
            lods.push(build_lod(mesh, m, lod_ex, binds_fit, last, sk, &inverse_binds, frame, losses)?);
        }
        pieces.push(Piece {
            material_index: slot,
            specular_power: power,
            specular_scale: scale,
            lod_weight: (version >= 10).then(|| stored.and_then(|s| s.lod_weight).unwrap_or(1.0)),
            unknown: stored.map_or(0, |s| s.unknown),
            name: stored_name(|| format!("meshes[{first_index}]"), &first.name, losses),
            lods,
        });
    }
    let distances = match groups.first() {
        Some(g) => {
            let first: Vec<f32> =
                g.iter().skip(1).map(|&m| model.meshes.get(m).map_or(0.0, |x| x.lod.distance)).collect();
            let differ = groups.iter().any(|g| {
                g.iter().skip(1).zip(&first).any(|(&m, d)| model.meshes.get(m).is_some_and(|x| x.lod.distance != *d))
            });
            if differ {
                losses
                    .push(Loss::new("meshes", "pieces switch LODs at different distances: the first piece's written"));
            }
            // The stored list while the meshes have the distances `to_ir` gave them (it may hold
            // more or fewer values than LODCount − 1: io_scene_abc writes none).
            let stored = ex.map(|x| &x.lod_distances).filter(|d| {
                let seen = (1..=first.len()).map(|level| crate::file::lod_distance(d, level));
                seen.zip(&first).all(|(a, b)| a.to_bits() == b.to_bits())
            });
            stored.cloned().unwrap_or(first)
        }
        // No meshes: the stored distances, or none.
        None => ex.map_or_else(Vec::new, |x| x.lod_distances.clone()),
    };
    let lod_count = lod_count.map_or_else(|| ex.map_or(1, |x| x.counts.lod_count), |n| n as u32);
    Ok((pieces, distances, lod_count))
}

#[allow(clippy::too_many_arguments)]
fn build_lod(
    mesh: &Mesh,
    index: usize,
    ex: Option<&LodExtras>,
    binds_fit: bool,
    last: bool,
    sk: &Skeleton,
    inverse_binds: &[Mat4],
    frame: Frame,
    losses: &mut Vec<Loss>,
) -> Result<PieceLod, WriteError> {
    let element = || format!("meshes[{index}] {:?}", mesh.name);
    let n = mesh.positions.len();
    if n > usize::from(u16::MAX) + 1 {
        return Err(WriteError::DoesNotFit {
            field: format!("{}: vertex index", element()),
            value: n as u64,
            ty: "u16",
        });
    }
    if mesh.uv_sets.len() > 1 {
        losses.push(Loss::new(element(), format!("{} UV sets: only the first written", mesh.uv_sets.len())));
    }
    if !mesh.morph_targets.is_empty() {
        losses.push(Loss::new(
            element(),
            format!("{} morph targets dropped (v9–v13 has no vertex animation)", mesh.morph_targets.len()),
        ));
    }
    // Stored extras come from a glTF's JSON too: ones whose lists disagree are not used.
    let ex = match ex.map(|x| (x, x.inconsistency())) {
        Some((_, Some(why))) => {
            losses.push(Loss::new(element(), format!("stored LOD data not used ({why}): written from the mesh")));
            None
        }
        other => other.map(|(x, _)| x),
    };
    let exact = ex.filter(|x| {
        binds_fit
            && x.digest == mesh_digest(mesh)
            && x.weight_counts.len() + x.splits.len() == n
            && !mesh.normals.is_empty()
    });
    let uvs = mesh.uv_sets.first();
    let uv = |v: u32| uvs.and_then(|s| s.get(v as usize)).copied().unwrap_or([0.0; 2]);
    if let Some(x) = exact {
        // The file's vertices come first in the mesh, each split after them (`to_ir`).
        let map: Vec<u32> = (0..x.weight_counts.len() as u32).chain(x.splits.iter().copied()).collect();
        let faces = faces(mesh, &map, uv);
        let vertices = x
            .weight_counts
            .iter()
            .zip(&x.sub_lod)
            .zip(mesh.positions.iter().zip(&mesh.normals))
            .map(|((&weight_count, &sub_lod_vertex), (&position, &normal))| Vertex {
                weight_count,
                sub_lod_vertex,
                position: frame.vector_from_ir(position),
                normal: frame.vector_from_ir(normal),
            })
            .collect();
        return Ok(PieceLod { faces, vertices, weights: x.weights.clone() });
    }
    if let Some(x) = ex.filter(|_| !mesh.normals.is_empty()) {
        let refs = super::merge::references(x, &sk.original, frame);
        if let Some(map) = super::merge::file_vertices(mesh, &refs, &x.splits, sk) {
            return Ok(matched_lod(mesh, x, &map, sk, inverse_binds, frame));
        }
    }
    let normals = if mesh.normals.is_empty() { computed_normals(mesh) } else { mesh.normals.clone() };
    let seams = super::merge::uv_seams(mesh, &normals);
    let file_n = seams.source.len();
    // The sub-LOD links survive while the file vertices do; otherwise they are written as 0, the
    // value files store where a link means nothing (the last LOD, abc.md §4.2).
    let same_count = ex.filter(|x| x.weight_counts.len() == file_n && x.splits.is_empty());
    if ex.is_some() && same_count.is_none() && !last {
        losses.push(Loss::new(element(), "sub-LOD links dropped (the vertices changed); written as 0"));
    }
    if mesh.skin.is_empty() {
        losses.push(Loss::new(element(), "unskinned mesh bound rigidly to the root node"));
    }
    let mut vertices = Vec::with_capacity(file_n);
    let mut weights = Vec::with_capacity(file_n);
    for (f, &v) in seams.source.iter().enumerate() {
        let v = v as usize;
        // `uv_seams` names vertices of this mesh.
        let position = frame.vector_from_ir(mesh.positions.get(v).copied().unwrap_or_default());
        let mut count = 0usize;
        let mut push = |node: u32, w: f32| {
            let inv = inverse_binds.get(node as usize).copied().unwrap_or(IDENTITY);
            let local = math::transform_point(&inv, position);
            weights.push(Weight { node_index: node, offset: local.map(|c| c * w), bias: w });
            count += 1;
        };
        if mesh.skin.is_empty() {
            push(0, 1.0);
        } else {
            for inf in mesh.skin.vertex(v) {
                push(sk.tree.node(inf.bone as usize), inf.weight);
            }
        }
        let weight_count = u16::try_from(count).map_err(|_| WriteError::DoesNotFit {
            field: format!("{} vertex {v}: weights", element()),
            value: count as u64,
            ty: "u16",
        })?;
        vertices.push(Vertex {
            weight_count,
            sub_lod_vertex: same_count.and_then(|x| x.sub_lod.get(f)).copied().unwrap_or(0),
            position,
            normal: frame.vector_from_ir(normals.get(v).copied().unwrap_or([0.0, 1.0, 0.0])),
        });
    }
    Ok(PieceLod { faces: faces(mesh, &seams.file_vertex, uv), vertices, weights })
}

/// The file faces of a mesh's triangles: `map` gives each model vertex's file vertex (one entry
/// per vertex of the mesh, whose triangles a valid model keeps inside it: the fallback is never
/// taken), the corners reversed (`to_ir` reversed them), the UVs per corner.
fn faces(mesh: &Mesh, map: &[u32], uv: impl Fn(u32) -> [f32; 2]) -> Vec<Face> {
    let file_vertex = |v: u32| map.get(v as usize).copied().unwrap_or(0) as u16;
    mesh.triangles
        .iter()
        .map(|&[a, b, c]| Face { corners: [c, b, a].map(|v| FaceCorner { uv: uv(v), vertex: file_vertex(v) }) })
        .collect()
}

/// A LOD whose model vertices were matched to the stored file vertices (`map`: the file vertex of
/// each model vertex): the stored weights, weight counts and sub-LOD links, each file vertex's
/// position and normal from the first model vertex matched to it, the UVs per corner.
fn matched_lod(
    mesh: &Mesh,
    x: &LodExtras,
    matched: &super::merge::Matched,
    sk: &Skeleton,
    inverse_binds: &[Mat4],
    frame: Frame,
) -> PieceLod {
    let file_n = x.weight_counts.len();
    let uvs = mesh.uv_sets.first();
    let uv = |v: u32| uvs.and_then(|s| s.get(v as usize)).copied().unwrap_or([0.0; 2]);
    let faces = faces(mesh, &matched.file_vertex, uv);
    // One source per file vertex (`merge::file_vertices`), and the extras are consistent.
    let vertices: Vec<Vertex> = matched
        .source
        .iter()
        .zip(x.weight_counts.iter().zip(&x.sub_lod))
        .enumerate()
        .take(file_n)
        .map(|(f, (&v, (&weight_count, &sub_lod_vertex)))| {
            // A loose vertex (no face uses it): its stored position, an upward normal.
            let loose = matched.loose.iter().find(|(l, _)| *l as usize == f).map(|(_, p)| *p);
            let model = (mesh.positions.get(v as usize), mesh.normals.get(v as usize));
            let (position, normal) = match (loose, model) {
                (Some(p), _) => (p, [0.0, 1.0, 0.0]),
                (None, (Some(&p), Some(&n))) => (p, n),
                // A matched source is a vertex of the mesh, which has normals (`build_lod`).
                (None, _) => ([0.0; 3], [0.0, 1.0, 0.0]),
            };
            Vertex {
                weight_count,
                sub_lod_vertex,
                position: frame.vector_from_ir(position),
                normal: frame.vector_from_ir(normal),
            }
        })
        .collect();
    let weights = restored_weights(x, &vertices, sk, inverse_binds);
    PieceLod { faces, vertices, weights }
}

/// The stored weights, each offset made again from its vertex's position where its node's matrix
/// is no longer the stored one (the offsets are node-local).
fn restored_weights(x: &LodExtras, vertices: &[Vertex], sk: &Skeleton, inverse_binds: &[Mat4]) -> Vec<Weight> {
    let moved = |n: usize| sk.tree.binds.get(n) != sk.original.get(n);
    if !(0..sk.tree.binds.len()).any(moved) {
        return x.weights.clone();
    }
    let mut out = Vec::with_capacity(x.weights.len());
    let mut rest = x.weights.as_slice();
    for (count, vertex) in x.weight_counts.iter().zip(vertices) {
        let (mine, after) = rest.split_at(usize::from(*count).min(rest.len()));
        rest = after;
        for w in mine {
            let n = w.node_index as usize;
            let offset = match inverse_binds.get(n).filter(|_| moved(n)) {
                Some(inv) => math::transform_point(inv, vertex.position).map(|c| c * w.bias),
                None => w.offset,
            };
            out.push(Weight { offset, ..*w });
        }
    }
    out.extend_from_slice(rest);
    out
}

/// Area-weighted vertex normals of a mesh without normals (model frame).
pub(crate) fn computed_normals(mesh: &Mesh) -> Vec<[f32; 3]> {
    math::vertex_normals(&mesh.positions, &mesh.triangles)
}

/// Largest distance of a full-detail vertex from the origin.
pub(super) fn computed_radius(pieces: &[Piece]) -> f32 {
    let lod0 = pieces.iter().filter_map(|p| p.lods.first());
    lod0.flat_map(|l| &l.vertices)
        .map(|v| {
            let [x, y, z] = v.position;
            (x * x + y * y + z * z).sqrt()
        })
        .fold(0.0, f32::max)
}

#[cfg(test)]
mod tests {
    use crate::extras::{AbcExtras, FamilyExtras};

    /// Stored LOD lists that disagree (JSON extras another tool edited) are not used: the LOD is
    /// written from the mesh, with a note naming the field, instead of from zeros where a list
    /// ran short.
    #[test]
    fn inconsistent_lod_extras_are_noted_not_filled_in() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/abc/v12_full.abc");
        let mut model = crate::read_model(&std::fs::read(path).unwrap()).unwrap();
        let mut x: AbcExtras = model.extras.as_ref().unwrap().get::<AbcExtras>().unwrap().clone();
        let FamilyExtras::V12(v12) = &mut x.family else { panic!("v12 extras") };
        v12.pieces[0].lods[0].sub_lod.pop();
        model.extras = Some(x.into_format_extras());
        let out = crate::write_model(&model, &relic_core::WriteOptions::default()).unwrap();
        let noted = out.losses.iter().any(|l| l.what.contains("stored LOD data not used (sub_lod holds"));
        assert!(noted, "{:?}", out.losses);
        crate::read(&out.value).unwrap();
    }
}
