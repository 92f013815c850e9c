//! View 0 → meshes: one per submesh, vertices through the view's index list, weights `w / Σw`.

use relic_core::model::*;

use crate::file::*;
use crate::frame::WARCRAFT;

/// True if any vertex has a second UV set (any bit set).
pub(crate) fn has_uv2(file: &M2File) -> bool {
    file.vertices.iter().any(|v| v.tex_coords2.iter().any(|c| c.to_bits() != 0))
}

/// [`meshes_to_ir`] once the budget is checked.
pub(super) fn build_meshes(file: &M2File, rank: &[usize], materials: &[Option<usize>]) -> Vec<Mesh> {
    let Some(view) = file.views.first() else { return Vec::new() };
    let uv2 = has_uv2(file);
    let skinned = !file.bones.is_empty();
    view.submeshes
        .iter()
        .enumerate()
        .map(|(si, s)| {
            let (vs, vc) = s.vertices();
            let (is, ic) = s.indices();
            let globals = view.indices.get(vs..vs + vc).unwrap_or_default();
            let vertices: Vec<&Vertex> = globals.iter().filter_map(|&g| file.vertices.get(usize::from(g))).collect();
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
                mesh.skin = skin_of(&vertices, rank);
            }
            mesh.triangles = view
                .triangles
                .get(is..is + ic)
                .unwrap_or_default()
                .chunks_exact(3)
                .map(|t| std::array::from_fn(|k| u32::from(t.get(k).copied().unwrap_or(0)).saturating_sub(vs as u32)))
                .collect();
            mesh
        })
        .collect()
}

/// The skin of `vertices`: each vertex's weighted slots in order, weights `w / Σw`; a vertex
/// without weight is bound to its first slot's bone. Built straight into the skin's two arrays
/// (a model has thousands of vertices; an iterator of four optional slots per vertex cost a
/// tenth of `to_ir`).
fn skin_of(vertices: &[&Vertex], rank: &[usize]) -> Skin {
    let mut skin =
        Skin { offsets: Vec::with_capacity(vertices.len() + 1), influences: Vec::with_capacity(vertices.len() * 2) };
    skin.offsets.push(0);
    let bone = |b: u8| rank.get(usize::from(b)).copied().unwrap_or(0) as u32;
    for v in vertices {
        let sum: u32 = v.bone_weights.iter().map(|&w| u32::from(w)).sum();
        if sum == 0 {
            skin.influences.push(Influence { bone: bone(v.bone_indices[0]), weight: 1.0 });
        } else {
            for (&w, &b) in v.bone_weights.iter().zip(&v.bone_indices) {
                if w > 0 {
                    skin.influences.push(Influence { bone: bone(b), weight: f32::from(w) / sum as f32 });
                }
            }
        }
        skin.offsets.push(skin.influences.len() as u32);
    }
    skin
}
