//! v6 → common model: one mesh in model space at the reference pose (animation 0, key 0),
//! rigid one-bone skinning, mesh deformation as morph targets, the stored boxes as the clip's
//! and its keys' bounds.

use relic_core::frame::Frame;
use relic_core::math::{self, IDENTITY, Mat4, zip3};
use relic_core::model::{
    Animation, Bone, BoneFlags, Influence, Interpolation, KeyBounds, Mesh, Model, MorphChannel, MorphTarget, Transform,
};
use relic_core::{ReadError, ReadErrorKind};

use super::{CornerSplit, key_events, key_seconds, node_channels, seconds, skin_material, skin_with_copies, source};
use crate::extras::{
    AbcExtras, FamilyExtras, RawV6Vertex, V6AnimExtras, V6Extras, V6NodeExtras, bind_digest, mesh_digest, morph_digest,
    pose_digest,
};
use crate::file::common::text;
use crate::file::{NodeKey, V6File};
use crate::frame::{LITHTECH, LITHTECH_FLIPPED_Z, box_to_ir};

/// The frame of a v6 file (see the module documentation of `to_ir`).
pub(crate) fn v6_frame(file: &V6File) -> Frame {
    if file.flips_z() { LITHTECH_FLIPPED_Z } else { LITHTECH }
}

/// Morph data larger than this many floats is refused rather than built (a v6 file of a few MB
/// could otherwise ask for gigabytes of morph weights).
const MORPH_FLOAT_LIMIT: usize = 64 << 20;

fn v6_local(k: NodeKey, frame: Frame, conjugate: bool) -> Transform {
    let q = if conjugate { math::quat_conjugate(k.rotation) } else { k.rotation };
    Transform { translation: frame.vector_to_ir(k.translation), rotation: frame.quat_to_ir(q), scale: [1.0; 3] }
}

pub(super) fn to_ir(file: &V6File) -> Result<Model, ReadError> {
    let frame = v6_frame(file);
    let conjugate = file.conjugates_keys();
    let mut model = Model { source: Some(source(6)), ..Model::default() };
    let nodes = &file.nodes.nodes;
    let parents = file.nodes.parents();
    let first = file.animations.animations.first();
    for (n, (node, parent)) in nodes.iter().zip(&parents).enumerate() {
        let key = first.and_then(|a| a.node_anims.get(n)).and_then(|t| t.keys.first()).copied();
        model.bones.push(Bone {
            name: text(&node.name),
            parent: *parent,
            rest: key.map_or(Transform::IDENTITY, |k| v6_local(k, frame, conjugate)),
            bind_matrix: IDENTITY,
            inverse_bind_matrix: IDENTITY,
            flags: BoneFlags::default(),
        });
    }
    // The bind pose is the reference pose: the rest transforms chained parents first.
    let binds = model.rest_globals();
    for (bone, bind) in model.bones.iter_mut().zip(&binds) {
        bone.bind_matrix = *bind;
        bone.inverse_bind_matrix = math::inverse(bind).unwrap_or(IDENTITY);
    }
    let g = &file.geometry;
    let mut split = CornerSplit::new(g.vertices.len());
    let mut triangles = Vec::with_capacity(g.triangles.len());
    let mut face_of_vertex: Vec<Option<usize>> = vec![None; g.vertices.len()];
    for (t, tri) in g.triangles.iter().enumerate() {
        let ([i0, i1, i2], [u0, u1, u2]) = (tri.indices, tri.uvs);
        let [a, b, c] = [(i0, u0), (i1, u1), (i2, u2)].map(|(i, uv)| split.corner(u32::from(i), uv));
        triangles.push([c, b, a]);
        for &i in &tri.indices {
            if let Some(slot @ None) = face_of_vertex.get_mut(usize::from(i)) {
                *slot = Some(t);
            }
        }
    }
    let mut positions = Vec::with_capacity(g.vertices.len());
    let mut normals = Vec::with_capacity(g.vertices.len());
    for (v, vertex) in g.vertices.iter().enumerate() {
        let bind = binds.get(usize::from(vertex.transformation_index)).copied().unwrap_or(IDENTITY);
        positions.push(math::transform_point(&bind, frame.vector_to_ir(vertex.position)));
        let face = face_of_vertex.get(v).copied().flatten().and_then(|t| g.triangles.get(t));
        let local = vertex.normal.decode().or_else(|| face.and_then(|t| t.normal.decode())).unwrap_or([0.0, 1.0, 0.0]);
        let n = math::transform_vector(&bind, frame.vector_to_ir(local));
        normals.push(math::normalize3(n).unwrap_or([0.0, 1.0, 0.0]));
    }
    split.extend(&mut positions);
    split.extend(&mut normals);
    let influences = g.vertices.iter().map(|v| [Influence { bone: u32::from(v.transformation_index), weight: 1.0 }]);
    let skin = skin_with_copies(influences, &split);
    // The one skin of a v6 model (its only material).
    model.materials.push(skin_material(0));
    let mut mesh = Mesh {
        name: "geometry".into(),
        material: Some(0),
        positions,
        normals,
        uv_sets: vec![split.uvs.clone()],
        skin,
        triangles,
        ..Mesh::default()
    };
    let mesh_digest_value = mesh_digest(&mesh);
    let (morph_targets, morph_channels) = v6_morphs(file, &mesh, &split, &binds, frame)?;
    mesh.morph_targets = morph_targets;
    model.meshes.push(mesh);

    let mut anim_extras = Vec::new();
    let mut target_start = 0;
    for (anim, morph) in file.animations.animations.iter().zip(morph_channels) {
        let keys = anim.keyframes.len();
        let times = key_seconds(anim.keyframes.iter().map(|k| k.time));
        let mut channels = Vec::new();
        if keys > 0 {
            for (n, track) in anim.node_anims.iter().enumerate() {
                channels.extend(node_channels(n, &times, &track.keys, frame, conjugate));
            }
        }
        let events = key_events(anim.keyframes.iter().map(|k| (k.time, &k.frame_string)));
        let key_bounds = anim
            .keyframes
            .iter()
            .zip(&times)
            .map(|(k, &time)| KeyBounds { time, bounds: box_to_ir(frame, k.bounds_min, k.bounds_max) })
            .collect();
        let targets = if morph.is_some() { target_start..target_start + keys } else { 0..0 };
        if morph.is_some() {
            target_start += keys;
        }
        let digest = model.meshes.first().map_or(0, |m| morph_digest(m, targets, morph.as_ref()));
        model.animations.push(Animation {
            name: text(&anim.name),
            duration: seconds(anim.length),
            looping: false,
            blend_in: 0.0,
            channels,
            morph_channels: morph.into_iter().collect(),
            events,
            bounds: Some(box_to_ir(frame, anim.bounds_min, anim.bounds_max)),
            key_bounds,
        });
        anim_extras.push(V6AnimExtras {
            quantization: anim.node_anims.iter().map(|t| [t.scale, t.translation]).collect(),
            vertex_frames: anim.node_anims.iter().map(|t| t.vertex_frames.clone()).collect(),
            morph_digest: digest,
            pose_digest: model.animations.last().map_or(0, pose_digest),
        });
    }
    let extras = V6Extras {
        bounds: [g.bounds_min, g.bounds_max],
        vertex_start_num: g.vertex_start_num.clone(),
        normal_verts: g.normal_verts,
        vertices: g
            .vertices
            .iter()
            .map(|v| RawV6Vertex {
                position: v.position,
                normal: v.normal.0,
                node: v.transformation_index,
                replacements: v.replacements,
            })
            .collect(),
        face_normals: g.triangles.iter().map(|t| t.normal.0).collect(),
        splits: split.splits.clone(),
        mesh_digest: mesh_digest_value,
        bind_digest: bind_digest(&model.bones),
        nodes: nodes
            .iter()
            .map(|n| V6NodeExtras {
                bounds: [n.bounds_min, n.bounds_max],
                transformation_index: n.transformation_index,
                flags: n.flags,
                md_vertices: n.md_vertices.clone(),
            })
            .collect(),
        animations: anim_extras,
        anim_dims: file.anim_dims.as_ref().map(|d| d.dims.clone()),
        transform_info: file.transform_info,
        unknown: file.unknown.clone(),
        order: file.order.clone(),
    };
    model.extras = Some(
        AbcExtras { version: 6, command_string: text(&file.header.command_string), family: FamilyExtras::V6(extras) }
            .into_format_extras(),
    );
    Ok(model)
}

/// Mesh deformation as morph targets: one target per key of every animation (when any node has
/// deformed vertices), the delta from the reference pose in model space; per animation a morph
/// channel that is 1 on that key's target at the key's time.
fn v6_morphs(
    file: &V6File,
    mesh: &Mesh,
    split: &CornerSplit,
    binds: &[Mat4],
    frame: Frame,
) -> Result<(Vec<MorphTarget>, Vec<Option<MorphChannel>>), ReadError> {
    let anims = &file.animations.animations;
    if file.nodes.nodes.iter().all(|n| n.md_vertices.is_empty()) {
        return Ok((Vec::new(), vec![None; anims.len()]));
    }
    let total: usize = anims.iter().map(|a| a.keyframes.len()).sum();
    let vertices = mesh.positions.len();
    let floats = total.saturating_mul(vertices.saturating_mul(3)).saturating_add(total.saturating_mul(total));
    if floats > MORPH_FLOAT_LIMIT {
        return Err(ReadError::at(
            0,
            "Animation",
            ReadErrorKind::Invalid(format!(
                "mesh deformation over {total} keys and {vertices} vertices needs {floats} morph values, more than the {MORPH_FLOAT_LIMIT} relic builds"
            )),
        ));
    }
    // Model vertices of each file vertex (itself and its copies).
    let mut copies: Vec<Vec<u32>> = (0..file.geometry.vertices.len() as u32).map(|v| vec![v]).collect();
    for (i, &s) in split.splits.iter().enumerate() {
        if let Some(c) = copies.get_mut(s as usize) {
            c.push((file.geometry.vertices.len() + i) as u32);
        }
    }
    let mut targets = Vec::with_capacity(total);
    let mut channels = Vec::with_capacity(anims.len());
    for (a, anim) in anims.iter().enumerate() {
        let keys = anim.keyframes.len();
        let first = targets.len();
        for k in 0..keys {
            let mut deltas = vec![[0.0f32; 3]; vertices];
            for (n, (node, track)) in file.nodes.nodes.iter().zip(&anim.node_anims).enumerate() {
                let bind = binds.get(n).copied().unwrap_or(IDENTITY);
                // The reader checked both (keys × deformed vertices frames per node, every deformed
                // vertex a vertex of the geometry); a file struct built otherwise is refused here.
                let field = || format!("Animation.animations[{a}].node_anims[{n}].vertex_frames");
                let frames = track
                    .vertex_frames
                    .get(k * node.md_vertices.len()..)
                    .ok_or_else(|| ReadError::invalid(0, field(), format!("no frames for key {k} of {keys}")))?;
                for (j, (&v, bytes)) in node.md_vertices.iter().zip(frames).enumerate() {
                    let local =
                        zip3(zip3(bytes.map(f32::from), track.scale, |b, s| b * s), track.translation, |p, t| p + t);
                    let p = math::transform_point(&bind, frame.vector_to_ir(local));
                    let own = copies.get(usize::from(v)).ok_or_else(|| {
                        ReadError::invalid(
                            0,
                            format!("Nodes.nodes[{n}].md_vertices[{j}]"),
                            format!("vertex {v} is not in Geometry"),
                        )
                    })?;
                    for &m in own {
                        if let (Some(d), Some(base)) = (deltas.get_mut(m as usize), mesh.positions.get(m as usize)) {
                            *d = [p[0] - base[0], p[1] - base[1], p[2] - base[2]];
                        }
                    }
                }
            }
            targets.push(MorphTarget {
                name: format!("{}/{k}", text(&anim.name)),
                position_deltas: deltas,
                normal_deltas: Vec::new(),
            });
        }
        let times = key_seconds(anim.keyframes.iter().map(|k| k.time));
        let mut weights = vec![0.0f32; keys * total];
        for k in 0..keys {
            if let Some(w) = weights.get_mut(k * total + first + k) {
                *w = 1.0;
            }
        }
        channels.push((keys > 0).then_some(MorphChannel {
            mesh: 0,
            interpolation: Interpolation::Linear,
            times,
            weights,
        }));
    }
    Ok((targets, channels))
}
