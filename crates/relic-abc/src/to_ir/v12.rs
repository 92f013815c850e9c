//! v9–v13 → common model: node matrices are the bind pose, one mesh per piece and LOD, weights
//! normalised, sockets as attachments.

use relic_core::frame::Frame;
use relic_core::math::{self, IDENTITY, Mat4};
use relic_core::model::{Animation, Bone, BoneFlags, Influence, Lod, Material, Mesh, Model, Specular, Transform};

use super::{
    CornerSplit, DEFAULT_BLEND_MS, column_major, key_events, key_seconds, node_channels, seconds, skin_material,
    skin_with_copies, source,
};
use crate::extras::{
    AbcExtras, AnimExtras, FamilyExtras, LodExtras, NodeExtras, PieceExtras, V12Extras, bind_digest, mesh_digest,
};
use crate::file::common::text;
use crate::file::nodes::depth_first_parents;
use crate::file::{PieceLod, V12File, Weight};
use crate::frame::LITHTECH;

pub(super) fn to_ir(file: &V12File) -> Model {
    let frame = LITHTECH;
    let mut model = Model { source: Some(source(file.header.version)), ..Model::default() };
    let nodes = file.node_list();
    let parents = match depth_first_parents(nodes.iter().map(|n| n.child_count)) {
        (parents, None) => parents,
        (_, Some(_)) => vec![None; nodes.len()],
    };
    let binds: Vec<Mat4> = nodes.iter().map(|n| frame.matrix_to_ir(&column_major(&n.matrix))).collect();
    for ((node, parent), bind) in nodes.iter().zip(&parents).zip(&binds) {
        let local = match parent.and_then(|p| binds.get(p)).and_then(math::inverse) {
            Some(inv_parent) => math::mul(&inv_parent, bind),
            None => *bind,
        };
        let (translation, rotation, scale) = math::decompose(&local);
        model.bones.push(Bone {
            name: text(&node.name),
            parent: *parent,
            rest: Transform { translation, rotation, scale },
            bind_matrix: *bind,
            inverse_bind_matrix: math::inverse(bind).unwrap_or(IDENTITY),
            flags: BoneFlags { rotation_only: node.flags & 2 != 0, ..BoneFlags::default() },
        });
    }
    let pieces = file.piece_list();
    let mut slots: Vec<u16> = pieces.iter().map(|p| p.material_index).collect();
    slots.sort_unstable();
    slots.dedup();
    for &slot in &slots {
        let first = pieces.iter().find(|p| p.material_index == slot);
        model.materials.push(Material {
            specular: first.map(|p| Specular { power: p.specular_power, scale: p.specular_scale }),
            ..skin_material(u32::from(slot))
        });
    }
    let mut piece_extras = Vec::new();
    for piece in pieces {
        let material = slots.binary_search(&piece.material_index).ok();
        let mut lods = Vec::new();
        for (level, lod) in piece.lods.iter().enumerate() {
            let distance = crate::file::lod_distance(&file.header.lod_distances, level);
            let (mut mesh, mut extras) = v12_lod_mesh(lod, frame);
            // The file's vertices come first (UV splits after them); `departures` stops at them.
            extras.positions = crate::from_ir::merge::departures(&extras, &mesh.positions, &binds, frame);
            mesh.name = text(&piece.name);
            mesh.material = material;
            mesh.lod = Lod { level: level as u32, distance };
            lods.push(LodExtras { digest: mesh_digest(&mesh), ..extras });
            model.meshes.push(mesh);
        }
        piece_extras.push(PieceExtras {
            name: text(&piece.name),
            material_index: piece.material_index,
            specular_power: piece.specular_power,
            specular_scale: piece.specular_scale,
            lod_weight: piece.lod_weight,
            unknown: piece.unknown,
            lods,
        });
    }
    let mut anim_extras = Vec::new();
    if let Some(a) = &file.animations {
        for anim in &a.animations {
            let keys = anim.keyframes.len();
            let times = key_seconds(anim.keyframes.iter().map(|k| k.time));
            let mut channels = Vec::new();
            if keys > 0 {
                for n in 0..nodes.len() {
                    channels.extend(node_channels(n, &times, &anim.tracks.node(n, keys), frame, false));
                }
            }
            let events = key_events(anim.keyframes.iter().map(|k| (k.time, &k.command)));
            model.animations.push(Animation {
                name: text(&anim.name),
                // A clip without keys lasts 0 s (its stored length is its last key's time).
                duration: times.last().copied().unwrap_or(0.0),
                looping: false,
                blend_in: seconds(anim.interpolation_time.unwrap_or(DEFAULT_BLEND_MS)),
                channels,
                morph_channels: Vec::new(),
                events,
                bounds: None,
                key_bounds: Vec::new(),
            });
            anim_extras.push(AnimExtras {
                name: text(&anim.name),
                dims: anim.dims,
                key_count_form: anim.key_count_form,
                times: anim.keyframes.iter().map(|k| k.time).collect(),
                node_prefixes: anim.tracks.v13.iter().map(|t| t.prefix).collect(),
                key_extras: anim.tracks.v13.iter().flat_map(|t| t.keys.iter().map(|k| k.extra)).collect(),
            });
        }
    }
    if let Some(s) = &file.sockets {
        for socket in &s.sockets {
            model.attachments.push(relic_core::model::Attachment {
                name: text(&socket.name),
                id: None,
                bone: socket.node_index as usize,
                transform: Transform {
                    translation: frame.vector_to_ir(socket.position),
                    rotation: frame.quat_to_ir(socket.rotation),
                    scale: [1.0; 3],
                },
            });
        }
    }
    let h = &file.header;
    let extras = V12Extras {
        internal_radius: h.internal_radius,
        padding: h.padding.to_vec(),
        v13_unknown: h.v13_unknown,
        counts: h.counts,
        lod_distances: h.lod_distances.clone(),
        pieces: piece_extras,
        bind_digest: bind_digest(&model.bones),
        node_matrices: nodes.iter().map(|n| n.matrix).collect(),
        nodes: nodes.iter().map(|n| NodeExtras { index: n.index, flags: n.flags }).collect(),
        // No `Nodes` section: no weight sets either.
        weight_sets: file.nodes.as_ref().map_or_else(Vec::new, |n| n.weight_sets.clone()),
        child_models: file.child_models.clone(),
        animations: anim_extras,
        anim_bindings: file.anim_bindings.clone(),
        unknown: file.unknown.clone(),
        order: file.order.clone(),
    };
    model.extras = Some(
        AbcExtras { version: h.version, command_string: text(&h.command_string), family: FamilyExtras::V12(extras) }
            .into_format_extras(),
    );
    model
}

/// The model mesh of one piece LOD (name, material and LOD are filled in by the caller).
fn v12_lod_mesh(lod: &PieceLod, frame: Frame) -> (Mesh, LodExtras) {
    let n = lod.vertices.len();
    let mut split = CornerSplit::new(n);
    let mut triangles = Vec::with_capacity(lod.faces.len());
    for face in &lod.faces {
        let [a, b, c] = face.corners.map(|k| split.corner(u32::from(k.vertex), k.uv));
        triangles.push([c, b, a]);
    }
    let mut positions: Vec<[f32; 3]> = lod.vertices.iter().map(|v| frame.vector_to_ir(v.position)).collect();
    let mut normals: Vec<[f32; 3]> = lod.vertices.iter().map(|v| frame.vector_to_ir(v.normal)).collect();
    split.extend(&mut positions);
    split.extend(&mut normals);
    let skin = skin_with_copies(lod.vertex_weights().map(|(_, w)| normalised(w)), &split);
    let extras = LodExtras {
        weight_counts: lod.vertices.iter().map(|v| v.weight_count).collect(),
        weights: lod.weights.clone(),
        sub_lod: lod.vertices.iter().map(|v| v.sub_lod_vertex).collect(),
        splits: split.splits.clone(),
        positions: Vec::new(),
        digest: 0,
    };
    let mesh = Mesh { positions, normals, uv_sets: vec![split.uvs], skin, triangles, ..Mesh::default() };
    (mesh, extras)
}

/// Influences from stored weights: biases normalised to sum 1 (§4.7; the stored sums are not 1).
/// Negative biases count as 0; a vertex without usable weights is shared equally (or, without
/// any weight, bound to node 0).
fn normalised(weights: &[Weight]) -> impl Iterator<Item = Influence> + '_ {
    let bias = |w: &Weight| if w.bias.is_finite() { w.bias.max(0.0) } else { 0.0 };
    let sum: f32 = weights.iter().map(bias).sum();
    let share = 1.0 / weights.len() as f32;
    let unweighted = weights.is_empty().then_some(Influence { bone: 0, weight: 1.0 });
    unweighted.into_iter().chain(weights.iter().map(move |w| Influence {
        bone: w.node_index,
        weight: if sum > 0.0 && sum.is_finite() { bias(w) / sum } else { share },
    }))
}
