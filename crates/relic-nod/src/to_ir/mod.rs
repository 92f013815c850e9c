//! NOD → common model.
//!
//! * Bones `bone_<i>` (NOD has no bone names), see [`skeleton`].
//! * One mesh per group, named after the group's mesh (several groups may share a name), with the
//!   group's material (`None` for −1), see [`mesh`]; skin per [`skin::Binding::decode`].
//! * Materials keep the stored name; their one texture reference is that name too (the game
//!   loads `X.nam`, else `X.tga`).
//! * Everything else (flags, box, raw names, links, group bytes, LOD table, vertex bytes the
//!   binding does not reproduce) goes to [`crate::extras::NodExtras`].
//! * A NAD becomes an animation on the skeleton, see [`animation`].
//!
//! Positions, normals, rotations and matrices change frame here and in `crate::from_ir` only,
//! through [`NOD_FRAME`].

pub(crate) mod animation;
pub(crate) mod mesh;
pub(crate) mod skeleton;
pub(crate) mod skin;

use relic_core::frame::{Axis, Frame};
use relic_core::model::{Material, Model, SourceInfo, TextureRef};

use crate::decide::NodChoices;
use crate::extras::{BoneSource, GroupSource, NodExtras, NodSource, VertexOverride, bits6, fnv1a_u16, vertex_box};
use crate::file::NodFile;
use crate::options::NOD_VERSION;

/// The NOD's frame (spec §3: +Z up, +Y forward, +X the character's right hand: right-handed):
/// the model's `(x, y, z)` is the game's `(−x, z, y)`, exact.
pub(crate) const NOD_FRAME: Frame = Frame::new([Axis::NegX, Axis::Z, Axis::Y]);

/// Maps a parsed, checked NOD to the common model under `choices`.
pub(crate) fn model_from_nod(file: &NodFile, choices: &NodChoices) -> Model {
    let bones = skeleton::bones_to_ir(file, choices);
    let materials = file.materials.iter().map(|name| material(&name.to_text())).collect();
    let (meshes, overrides) = mesh::meshes_to_ir(file, choices);
    let extras = NodExtras { choices: choices.clone(), nod: Some(source(file, overrides)), animations: Vec::new() };
    Model {
        name: String::new(),
        source: Some(SourceInfo { format: crate::FORMAT, version: NOD_VERSION }),
        bones,
        meshes,
        materials,
        extras: Some(extras.into_format_extras()),
        ..Model::default()
    }
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

/// What the model has no place for.
fn source(file: &NodFile, vertex_overrides: Vec<VertexOverride>) -> NodSource {
    let groups = file
        .groups
        .iter()
        .zip(file.group_starts())
        .map(|(g, (_, f0))| {
            let faces = file.group_faces(f0, g);
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
