//! View 0 → meshes: one per submesh, vertices through the view's index list, weights `w / Σw`.

use relic_core::ReadError;
use relic_core::model::*;

use crate::file::*;
use crate::frame::WARCRAFT;

/// True if any vertex has a second UV set (any bit set).
pub(crate) fn has_uv2(file: &M2File) -> bool {
    file.vertices.iter().any(|v| v.tex_coords2.iter().any(|c| c.to_bits() != 0))
}

/// The meshes of view 0, once the budget is checked. The reader has checked every submesh's
/// ranges (`validate::views`); a file that skipped it gets an error naming the submesh.
pub(super) fn build_meshes(file: &M2File, rank: &[usize], materials: &[Option<usize>]) -> Result<Vec<Mesh>, ReadError> {
    let Some(view) = file.views.first() else { return Ok(Vec::new()) };
    let uv2 = has_uv2(file);
    let skinned = !file.bones.is_empty();
    let size = Submesh::size(file.version);
    view.submeshes
        .iter()
        .enumerate()
        .map(|(si, s)| {
            let (vs, vc) = s.vertices();
            let (is, ic) = s.indices();
            let at = u64::from(view.submeshes.offset) + si as u64 * size;
            let outside = |what: String| ReadError::invalid(at, format!("M2File.views[0].submeshes[{si}]"), what);
            let globals = view.indices.get(vs..vs + vc).ok_or_else(|| {
                outside(format!("vertices {vs}..{} run past the {} view vertices", vs + vc, view.indices.len()))
            })?;
            let triangles = view.triangles.get(is..is + ic).ok_or_else(|| {
                outside(format!("triangle entries {is}..{} run past the {}", is + ic, view.triangles.len()))
            })?;
            let vertices = globals
                .iter()
                .map(|&g| file.vertices.get(usize::from(g)))
                .collect::<Option<Vec<&Vertex>>>()
                .ok_or_else(|| outside(format!("a view vertex names none of the {} vertices", file.vertices.len())))?;
            let mut mesh = Mesh {
                name: format!("geoset {}", s.id),
                material: materials.get(si).copied().flatten(),
                positions: vertices.iter().map(|v| WARCRAFT.vector_to_ir(v.position)).collect(),
                normals: vertices.iter().map(|v| WARCRAFT.vector_to_ir(v.normal)).collect(),
                uv_sets: vec![vertices.iter().map(|v| v.tex_coords).collect()],
                part_id: Some(u32::from(s.id)),
                ..Mesh::default()
            };
            if uv2 {
                mesh.uv_sets.push(vertices.iter().map(|v| v.tex_coords2).collect());
            }
            if skinned {
                mesh.skin = skin_of(&vertices, rank)
                    .map_err(|b| outside(format!("a vertex weights bone {b}, which does not exist")))?;
            }
            // Triangles name view vertices within the submesh's (`validate::views`).
            mesh.triangles = triangles
                .as_chunks::<3>()
                .0
                .iter()
                .map(|t| t.map(|i| u32::from(i).saturating_sub(vs as u32)))
                .collect();
            Ok(mesh)
        })
        .collect()
}

/// The skin of `vertices`: each vertex's weighted slots in order, weights `w / Σw`. Built
/// straight into the skin's two arrays (a model has thousands of vertices; an iterator of four
/// optional slots per vertex cost a tenth of `to_ir`). An error gives a weighted bone that does
/// not exist (the reader refuses those: `validate::vertices`).
///
/// A vertex without weight says nothing the game is known to do with it (the reader keeps it):
/// it is bound to its first slot's bone, or, where that slot names no bone, to the model's first
/// (a root) — relic's rule, not the format's.
fn skin_of(vertices: &[&Vertex], rank: &[usize]) -> Result<Skin, u8> {
    let mut skin =
        Skin { offsets: Vec::with_capacity(vertices.len() + 1), influences: Vec::with_capacity(vertices.len() * 2) };
    skin.offsets.push(0);
    let bone = |b: u8| rank.get(usize::from(b)).map(|&r| r as u32).ok_or(b);
    for v in vertices {
        let sum: u32 = v.bone_weights.iter().map(|&w| u32::from(w)).sum();
        if sum == 0 {
            let first = bone(v.bone_indices[0]).unwrap_or(0);
            skin.influences.push(Influence { bone: first, weight: 1.0 });
        } else {
            for (&w, &b) in v.bone_weights.iter().zip(&v.bone_indices) {
                if w > 0 {
                    skin.influences.push(Influence { bone: bone(b)?, weight: f32::from(w) / sum as f32 });
                }
            }
        }
        skin.offsets.push(skin.influences.len() as u32);
    }
    Ok(skin)
}
