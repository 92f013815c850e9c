//! Geosets as meshes and MTLS materials as the model's (spec §6.3, §6.5).

use relic_core::ReadError;
use relic_core::model::{self as ir, BlendMode, Influence, Lod, Mesh, TextureRef};

use super::{Skeleton, WARCRAFT};
use crate::file::*;

/// The replaceable texture ids the game knows (spec §4.6: team colour and glow, cliff, cursor,
/// trees); any other value names no texture and is not passed on (an M2 writer sizes its lookup
/// table by the largest).
pub(super) const REPLACEABLE_IDS: [u32; 11] = [1, 2, 11, 21, 31, 32, 33, 34, 35, 36, 37];

/// The model's materials.
pub(super) fn materials(file: &MdxFile) -> Vec<ir::Material> {
    let textures: Vec<&Texture> =
        file.chunks.iter().filter_map(|c| if let Chunk::Textures(t) = c { Some(t) } else { None }).flatten().collect();
    let mut out = Vec::new();
    let mut index = 0usize;
    for chunk in &file.chunks {
        let Chunk::Materials(v) = chunk else { continue };
        for m in v {
            let first = m.layers.first();
            let layer_flags = first.map_or(0, |l| l.shading_flags);
            let blend = BlendMode::from_blizzard_code(first.map_or(0, |l| l.filter_mode));
            let refs = m
                .layers
                .iter()
                .filter_map(|l| {
                    let t = textures.get(usize::try_from(l.texture_id).ok()?)?;
                    Some(TextureRef {
                        path: t.path.to_text(),
                        replaceable: REPLACEABLE_IDS.contains(&t.replaceable_id).then_some(t.replaceable_id),
                        uv_set: (l.shading_flags & 0x2 == 0).then_some(l.coord_id),
                        wrap_u: t.flags & 1 != 0,
                        wrap_v: t.flags & 2 != 0,
                        ..TextureRef::default()
                    })
                })
                .collect();
            out.push(ir::Material {
                name: format!("material {index}"),
                textures: refs,
                blend,
                double_sided: layer_flags & 0x10 != 0,
                unlit: layer_flags & 0x1 != 0,
                unfogged: layer_flags & 0x20 != 0,
                depth_write: layer_flags & 0x80 == 0,
                alpha_cutoff: (blend == BlendMode::AlphaKey).then_some(0.75),
                specular: None,
            });
            index += 1;
        }
    }
    out
}

/// The most nodes a vertex group gives a vertex (spec §6.3: VH supports 8; real groups have up to
/// 7).
const MAX_GROUP: usize = 8;

pub(super) fn mesh(
    index: usize,
    g: &Geoset,
    sk: &Skeleton,
    bone_count: usize,
    material_count: usize,
) -> Result<Mesh, ReadError> {
    let n = g.vertices.len();
    let bad = |what: String| ReadError::document(format!("GEOS[{index}]: {what}"));
    let mut triangles = Vec::new();
    let mut at = 0usize;
    for (&kind, &count) in g.face_types.iter().zip(&g.face_counts) {
        let end = at.saturating_add(count as usize).min(g.indices.len());
        if kind == 4 {
            for tri in g.indices.get(at..end).unwrap_or_default().chunks_exact(3) {
                if let [a, b, c] = *tri {
                    let t = [u32::from(a), u32::from(b), u32::from(c)];
                    if let Some(&v) = t.iter().find(|&&v| v as usize >= n) {
                        return Err(bad(format!("a triangle names vertex {v} of {n}")));
                    }
                    triangles.push(t);
                }
            }
        }
        at = end;
    }
    let bone_of = |object_id: u32| -> Option<u32> {
        let node = sk.by_id.get(&i32::try_from(object_id).ok()?)?;
        u32::try_from(*sk.rank.get(*node)?).ok()
    };
    let mut per_vertex: Vec<Vec<Influence>> = vec![Vec::new(); n];
    let skin_bytes = g.hd.iter().find_map(|s| if let HdSection::Skin(s) = s { Some(&s.bytes) } else { None });
    if let Some(bytes) = skin_bytes.filter(|b| b.len() == 8 * n) {
        for (v, chunk) in bytes.chunks_exact(8).enumerate() {
            let (ids, weights) = chunk.split_at(4);
            let list: Vec<Influence> = ids
                .iter()
                .zip(weights)
                .filter(|(_, w)| **w > 0)
                .filter_map(|(&id, &w)| Some(Influence { bone: bone_of(u32::from(id))?, weight: f32::from(w) }))
                .collect();
            if let Some(slot) = per_vertex.get_mut(v) {
                *slot = list;
            }
        }
    } else if g.vertex_groups.len() == n {
        let mut starts = Vec::with_capacity(g.matrix_group_sizes.len());
        let mut s = 0usize;
        for &size in &g.matrix_group_sizes {
            starts.push((s, size as usize));
            s = s.saturating_add(size as usize);
        }
        for (v, &group) in g.vertex_groups.iter().enumerate() {
            let Some(&(s, size)) = starts.get(usize::from(group)) else { continue };
            // The game averages at most 8 nodes a vertex (spec §6.3); the rest of a larger group
            // would only cost memory.
            let ids = g.matrix_indices.get(s..s.saturating_add(size.min(MAX_GROUP))).unwrap_or_default();
            let list: Vec<Influence> =
                ids.iter().filter_map(|&id| Some(Influence { bone: bone_of(id)?, weight: 1.0 })).collect();
            if let Some(slot) = per_vertex.get_mut(v) {
                *slot = list;
            }
        }
    }
    let skinned = bone_count > 0 && per_vertex.iter().any(|l| !l.is_empty());
    let skin = if skinned {
        ir::Skin::from_vertices(per_vertex.into_iter().map(|mut list| {
            if list.is_empty() {
                list.push(Influence { bone: 0, weight: 1.0 });
            }
            let sum: f32 = list.iter().map(|i| i.weight).sum();
            for i in &mut list {
                i.weight /= sum;
            }
            list
        }))
    } else {
        ir::Skin::default()
    };
    let material = usize::try_from(g.material_id).ok().filter(|&m| m < material_count);
    Ok(Mesh {
        name: format!("geoset {index}"),
        material,
        positions: g.vertices.iter().map(|v| WARCRAFT.vector_to_ir(*v)).collect(),
        normals: if g.normals.len() == n {
            g.normals.iter().map(|v| WARCRAFT.vector_to_ir(*v)).collect()
        } else {
            Vec::new()
        },
        uv_sets: g.uv_sets.iter().filter(|s| s.uvs.len() == n).take(2).map(|s| s.uvs.clone()).collect(),
        skin,
        triangles,
        lod: Lod { level: g.lod.as_ref().map_or(0, |l| l.lod), distance: 0.0 },
        ..Mesh::default()
    })
}
