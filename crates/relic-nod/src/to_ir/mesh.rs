//! NOD groups → the model's meshes: one mesh per group, positions and normals from Z-up to Y-up
//! (exact), UVs as stored (top-left origin, or flipped under [`UvOrigin::BottomLeft`]), triangles
//! counter-clockwise (reversed if the file's winding is clockwise), skin per the NOD rule.

use relic_core::model::{Lod, Mesh, Skin};

use super::NOD_FRAME;
use super::skin::Binding;
use crate::decide::NodChoices;
use crate::extras::VertexOverride;
use crate::file::NodFile;
use crate::options::{UvOrigin, Winding};

/// The model's meshes, and the vertices whose stored weight, bone number or padding their binding
/// does not reproduce (kept in the extras).
pub(crate) fn meshes_to_ir(file: &NodFile, choices: &NodChoices) -> (Vec<Mesh>, Vec<VertexOverride>) {
    let parents: Vec<i16> = file.bones.iter().map(|b| b.parent).collect();
    let mut meshes = Vec::with_capacity(file.groups.len());
    let mut overrides = Vec::new();
    for (g, (group, (v0, f0))) in file.groups.iter().zip(file.group_starts()).enumerate() {
        let tail = choices.group_tail.value.decode(group.tail);
        let flags = tail.effective_flags();
        let (vertices, faces) = (file.group_vertices(v0, group), file.group_faces(f0, group));
        let mut bindings = Vec::with_capacity(vertices.len());
        for (k, v) in vertices.iter().enumerate() {
            let binding = Binding::decode(v.weight, v.bone_num, flags, tail.bone, &parents);
            let (weight, bone_num) = binding.canonical();
            if weight.to_bits() != v.weight.to_bits() || bone_num != v.bone_num || v.pad != [0; 3] {
                overrides.push(VertexOverride {
                    index: (v0 + k) as u32,
                    weight: v.weight.to_bits(),
                    bone_num: v.bone_num,
                    pad: v.pad,
                });
            }
            bindings.push(binding);
        }
        let skin = if parents.is_empty() { Skin::default() } else { skin_of(&bindings) };
        let uv = |uv: [f32; 2]| match choices.uv_origin {
            UvOrigin::TopLeft => uv,
            UvOrigin::BottomLeft => [uv[0], 1.0 - uv[1]],
        };
        let triangles = faces
            .iter()
            .map(|&[a, b, c]| {
                let (a, b, c) = (u32::from(a), u32::from(b), u32::from(c));
                match choices.winding.value {
                    Winding::CounterClockwise => [a, b, c],
                    Winding::Clockwise => [a, c, b],
                }
            })
            .collect();
        let name =
            file.mesh_names.get(usize::from(tail.mesh)).map(|n| n.to_text()).unwrap_or_else(|| format!("group_{g}"));
        meshes.push(Mesh {
            name,
            material: usize::try_from(group.material_id).ok(),
            positions: vertices.iter().map(|v| NOD_FRAME.vector_to_ir(v.pos)).collect(),
            normals: vertices.iter().map(|v| NOD_FRAME.vector_to_ir(v.norm)).collect(),
            uv_sets: vec![vertices.iter().map(|v| uv(v.uv)).collect()],
            skin,
            triangles,
            lod: Lod::default(),
            part_id: None,
            morph_targets: Vec::new(),
        });
    }
    (meshes, overrides)
}

/// The model's skin for a group's bindings (built flat, without a list per vertex).
fn skin_of(bindings: &[Binding]) -> Skin {
    let mut skin =
        Skin { offsets: Vec::with_capacity(bindings.len() + 1), influences: Vec::with_capacity(2 * bindings.len()) };
    skin.offsets.push(0);
    for b in bindings {
        b.push_influences(&mut skin.influences);
        skin.offsets.push(skin.influences.len() as u32);
    }
    skin
}
