//! NOD → common model.
//!
//! * Bones `bone_<i>` (NOD has no bone names). Inverse bind matrix = `RestMatrixInverse` under the
//!   chosen layout; bind matrix = its inverse. Rest (local) transform: translation from
//!   `RestTranslate` (in the chosen space), rotation from the matrices (`inverse(world(parent)) ·
//!   world(bone)`), unit scale.
//! * One mesh per group, named after the group's mesh (several groups may share a name), with the
//!   group's material (`None` for −1). Positions and normals from Z-up to Y-up
//!   ([`crate::decide::NOD_FRAME`], exact), UVs as stored (top-left origin), triangles counter-
//!   clockwise (reversed if the file's winding is clockwise).
//! * Skin per [`crate::skin::Binding::decode`].
//! * Materials keep the stored name; their one texture reference is that name too (the game
//!   loads `X.nam`, else `X.tga`).
//! * Everything else (flags, box, raw names, links, group bytes, LOD table, vertex bytes the
//!   binding does not reproduce) goes to [`crate::extras::NodExtras`].

use relic_core::model::{Bone, Lod, Material, Mesh, Model, Skin, SourceInfo, TextureRef, Transform};

use crate::decide::{NOD_FRAME, NodChoices, inverse_rest};
use crate::extras::{BoneSource, GroupSource, NodExtras, NodSource, VertexOverride, bits6, fnv1a_u16, vertex_box};
use crate::geometry::{Affine64, wide3};
use crate::nod::NodFile;
use crate::options::{NOD_VERSION, RestTranslateSpace, UvOrigin, Winding};
use crate::skin::Binding;

/// Maps a parsed, checked NOD to the common model under `choices`.
pub fn model_from_nod(file: &NodFile, choices: &NodChoices) -> Model {
    let bones = bones_to_ir(file, choices);
    let materials = file.materials.iter().map(|name| material(&name.to_text())).collect();
    let parents: Vec<i16> = file.bones.iter().map(|b| b.parent).collect();
    let mut meshes = Vec::with_capacity(file.groups.len());
    let mut overrides = Vec::new();
    for (g, (group, (v0, f0))) in file.groups.iter().zip(file.group_starts()).enumerate() {
        let tail = choices.group_tail.value.decode(group.tail);
        let flags = tail.effective_flags();
        let vertices = file.vertices.get(v0..v0 + usize::from(group.num_vertices)).unwrap_or_default();
        let faces = file.faces.get(f0..f0 + usize::from(group.num_faces)).unwrap_or_default();
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
    let extras = NodExtras { choices: choices.clone(), nod: Some(source(file, overrides)), animations: Vec::new() };
    Model {
        name: String::new(),
        source: Some(SourceInfo { format: crate::FORMAT, version: NOD_VERSION }),
        bones,
        meshes,
        materials,
        animations: Vec::new(),
        global_sequences: Vec::new(),
        attachments: Vec::new(),
        extras: Some(extras.into_format_extras()),
    }
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

/// A material named as stored, with that name as its texture reference.
fn material(name: &str) -> Material {
    let textures = if name.is_empty() {
        Vec::new()
    } else {
        vec![TextureRef {
            path: name.to_string(),
            uv_set: Some(0),
            wrap_u: true,
            wrap_v: true,
            ..TextureRef::default()
        }]
    };
    Material { name: name.to_string(), textures, depth_write: true, ..Material::default() }
}

/// Model-space rest transforms (game frame) from the inverse rest matrices: identity where a
/// matrix cannot be inverted.
pub fn rest_worlds(inverse: &[Affine64]) -> Vec<Affine64> {
    inverse.iter().map(|m| m.inverse().unwrap_or(Affine64::IDENTITY)).collect()
}

fn bones_to_ir(file: &NodFile, choices: &NodChoices) -> Vec<Bone> {
    let layout = choices.matrix_layout.value;
    let inverse = inverse_rest(file, layout);
    let worlds = rest_worlds(&inverse);
    let mut out = Vec::with_capacity(file.bones.len());
    for (b, bone) in file.bones.iter().enumerate() {
        let parent = usize::try_from(bone.parent).ok();
        let world = worlds.get(b).copied().unwrap_or(Affine64::IDENTITY);
        let parent_inverse = parent.and_then(|p| inverse.get(p));
        let local = match parent_inverse {
            Some(pi) => pi.mul(&world),
            None => world,
        };
        let translation = match (choices.rest_translate.value, parent_inverse) {
            (RestTranslateSpace::Model, Some(pi)) => pi.point(wide3(bone.rest_translate)).map(|c| c as f32),
            _ => bone.rest_translate,
        };
        let rotation = local.rotation().map(|c| c as f32);
        let inverse_game = crate::geometry::matrix34_to_mat4(&bone.rest_matrix_inverse, layout);
        out.push(Bone {
            name: format!("bone_{b}"),
            parent,
            rest: Transform {
                translation: NOD_FRAME.vector_to_ir(translation),
                rotation: NOD_FRAME.quat_to_ir(rotation),
                scale: [1.0; 3],
            },
            bind_matrix: NOD_FRAME.matrix_to_ir(&world.to_mat4()),
            inverse_bind_matrix: NOD_FRAME.matrix_to_ir(&inverse_game),
            flags: Default::default(),
        });
    }
    out
}

fn source(file: &NodFile, vertex_overrides: Vec<VertexOverride>) -> NodSource {
    let groups = file
        .groups
        .iter()
        .zip(file.group_starts())
        .map(|(g, (_, f0))| {
            let faces = file.faces.get(f0..f0 + usize::from(g.num_faces)).unwrap_or_default();
            GroupSource {
                reserved: g.reserved,
                min_vertices: g.min_vertices,
                tail: g.tail,
                num_vertices: g.num_vertices,
                num_faces: g.num_faces,
                faces_hash: fnv1a_u16(faces.iter().flatten().copied()),
            }
        })
        .collect();
    NodSource {
        model_flags: file.model_flags,
        bounds: bits6(file.bounds),
        vertex_box: bits6(vertex_box(file.vertices.iter().map(|v| &v.pos))),
        materials: file.materials.iter().map(|n| n.0).collect(),
        mesh_names: file.mesh_names.iter().map(|n| n.0).collect(),
        bones: file
            .bones
            .iter()
            .map(|b| BoneSource {
                rest_translate: b.rest_translate.map(f32::to_bits),
                sibling: b.sibling,
                child: b.child,
                parent: b.parent,
            })
            .collect(),
        groups,
        lod: file.lod.clone(),
        vertex_overrides,
    }
}
