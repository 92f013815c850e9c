//! Common model → v9–v13 file.

use relic_core::frame::Frame;
use relic_core::math::{self, IDENTITY, Mat4};
use relic_core::model::{Mesh, Model};
use relic_core::{Loss, WriteError};

use crate::common::{NodeKey, len_string};
use crate::counts;
use crate::extras::{AbcExtras, FamilyExtras, LodExtras, PieceExtras, V12Extras, bind_digest, mesh_digest};
use crate::from_ir::{Skeleton, bone_tracks, key_commands, key_times, millis, sample_local, stored_name};
use crate::to_ir::{V12_FRAME, column_major};
use crate::v12::{
    AnimBinding, AnimBindingGroup, AnimBindings, Animation, Animations, ChildModel, ChildModels, Face, FaceCorner,
    Header, Keyframe, Node, Nodes, Piece, PieceLod, Pieces, SectionId, SelfEntry, Socket, Sockets, Tracks, V12File,
    Vertex, Weight,
};

/// Builds a v9–v13 file from a valid model.
pub(crate) fn build(
    model: &Model,
    version: u32,
    extras: Option<&AbcExtras>,
    losses: &mut Vec<Loss>,
) -> Result<V12File, WriteError> {
    let ex = match extras.map(|e| &e.family) {
        Some(FamilyExtras::V12(x)) => Some(x),
        Some(FamilyExtras::V6(_)) => {
            losses.push(Loss::new(
                "extras",
                "v6 data (LOD arrays, node boxes, AnimDims, TransformInfo) not stored by v9–v13",
            ));
            None
        }
        None => None,
    };
    let frame = V12_FRAME;
    let sk = Skeleton::new(model, !model.meshes.is_empty(), losses);
    let nodes_fit = ex.is_some_and(|x| x.nodes.len() == sk.nodes.len());
    let binds_fit = ex.is_some_and(|x| sk.identity && x.bind_digest == bind_digest(&model.bones));
    let node_count = sk.nodes.len() as u32;

    let nodes = build_nodes(model, &sk, ex.filter(|_| nodes_fit), frame, losses);
    let weight_sets = match ex {
        Some(x) if nodes_fit => x.weight_sets.clone(),
        Some(x) if !x.weight_sets.is_empty() => {
            losses.push(Loss::new(
                "weight sets",
                format!("{} weight sets dropped: the node count changed", x.weight_sets.len()),
            ));
            Vec::new()
        }
        _ => Vec::new(),
    };
    let (pieces, lod_distances, lod_count) = build_pieces(model, &sk, version, ex, binds_fit, frame, losses)?;
    let animations = build_animations(model, &sk, version, ex, frame, losses);
    let sockets = build_sockets(model, &sk, frame, losses);
    let child_models = build_child_models(&sk, ex, nodes_fit, losses);
    let anim_bindings = build_bindings(&animations, &child_models, ex);

    let radius = match ex {
        Some(x) if nodes_fit => x.internal_radius,
        _ => computed_radius(&pieces),
    };
    let command_string = extras.map_or_else(String::new, |e| e.command_string.clone());
    let mut padding = [0u8; 60];
    if let Some(x) = ex {
        for (d, s) in padding.iter_mut().zip(&x.padding) {
            *d = *s;
        }
    }
    let header = Header {
        version,
        keyframe_count: 0,
        animation_count: 0,
        node_count,
        piece_count: 0,
        // Kept by the recount when the file has no ChildModels section: the AnimBindings group count.
        child_model_count: 1 + child_models.children.len() as u32,
        face_count: 0,
        vertex_count: 0,
        weight_count: 0,
        lod_count,
        socket_count: 0,
        weight_set_count: 0,
        v13_unknown: (version >= 13).then(|| ex.and_then(|x| x.v13_unknown).unwrap_or(0)),
        string_count: 0,
        string_length_total: 0,
        command_string: stored_name(|| "command string".into(), &command_string, losses),
        internal_radius: radius,
        padding,
        lod_distances,
    };
    let (unknown, order) = match ex {
        Some(x) => (x.unknown.clone(), x.order.clone()),
        None => (Vec::new(), SectionId::STANDARD.to_vec()),
    };
    let mut file = V12File {
        header,
        pieces: Some(Pieces { weight_count: 0, pieces }),
        nodes: Some(Nodes { nodes, weight_sets }),
        child_models: Some(child_models),
        animations: Some(Animations { animations }),
        sockets: Some(Sockets { sockets }),
        anim_bindings: Some(anim_bindings),
        unknown,
        order,
    };
    settle_sections(&mut file, ex.is_some(), model);
    let counted = counts::recount(&file);
    if let Some(p) = &mut file.pieces {
        p.weight_count = counted.weight_count;
    }
    file.header = counted;
    Ok(file)
}

/// Keeps the sections of the source file's order (adding those the model now needs) and drops the
/// ones neither the source file nor the model has.
fn settle_sections(file: &mut V12File, from_abc: bool, model: &Model) {
    if !from_abc {
        return;
    }
    let listed = |id| file.order.contains(&id);
    if !listed(SectionId::Pieces) && model.meshes.is_empty() {
        file.pieces = None;
    }
    if !listed(SectionId::Nodes) && model.bones.is_empty() && model.meshes.is_empty() {
        file.nodes = None;
    }
    if !listed(SectionId::ChildModels) {
        file.child_models = None;
    }
    if !listed(SectionId::Animation) && model.animations.is_empty() {
        file.animations = None;
    }
    if !listed(SectionId::Sockets) && model.attachments.is_empty() {
        file.sockets = None;
    }
    if !listed(SectionId::AnimBindings) {
        file.anim_bindings = None;
    }
    let present = file.present_sections();
    for (id, here) in present {
        if here && !file.order.contains(&id) {
            // Insert before the first standard section that follows it.
            let after = SectionId::STANDARD.iter().skip_while(|s| **s != id).skip(1).copied().collect::<Vec<_>>();
            let at = file.order.iter().position(|o| after.contains(o)).unwrap_or(file.order.len());
            file.order.insert(at, id);
        }
    }
    let unknown = file.unknown.len();
    file.order.retain(|id| match id {
        SectionId::Unknown(i) => *i < unknown,
        other => present.iter().any(|(p, here)| p == other && *here),
    });
}

fn build_nodes(
    model: &Model,
    sk: &Skeleton,
    ex: Option<&V12Extras>,
    frame: Frame,
    losses: &mut Vec<Loss>,
) -> Vec<Node> {
    let mut out = Vec::with_capacity(sk.nodes.len());
    for (i, (bind, (&parent, &children))) in sk.binds.iter().zip(sk.parents.iter().zip(&sk.child_counts)).enumerate() {
        let bone = sk.bone(model, i);
        let stored = ex.and_then(|x| x.nodes.get(i));
        let rotation_only = bone.is_some_and(|b| b.flags.rotation_only);
        let base = stored.map_or(if parent.is_none() { 1 } else { 0 }, |s| s.flags & !2);
        let name = sk.name(model, i);
        out.push(Node {
            name: stored_name(|| format!("bones[{i}]"), &name, losses),
            index: stored.map_or(i as u16, |s| s.index),
            flags: base | if rotation_only { 2 } else { 0 },
            matrix: column_major(&frame.matrix_from_ir(bind)),
            child_count: children,
        });
    }
    out
}

/// Meshes grouped into pieces: a LOD-0 mesh starts a piece, the meshes after it are its lower LODs.
fn group_pieces(model: &Model, losses: &mut Vec<Loss>) -> Vec<Vec<usize>> {
    let mut pieces: Vec<Vec<usize>> = Vec::new();
    for (i, mesh) in model.meshes.iter().enumerate() {
        match pieces.last_mut() {
            Some(p) if mesh.lod.level != 0 => {
                if mesh.lod.level as usize != p.len() {
                    losses.push(Loss::new(
                        format!("meshes[{i}] {:?}", mesh.name),
                        format!("LOD level {} written as level {}", mesh.lod.level, p.len()),
                    ));
                }
                p.push(i);
            }
            _ => pieces.push(vec![i]),
        }
    }
    let lods = pieces.iter().map(Vec::len).max().unwrap_or(0);
    for p in &mut pieces {
        if p.len() < lods
            && let Some(&last) = p.last()
        {
            {
                let name = model.meshes.get(last).map(|m| m.name.clone()).unwrap_or_default();
                losses.push(Loss::new(
                    format!("meshes[{last}] {name:?}"),
                    format!("piece has {} LODs, every ABC piece has {lods}: the last one repeated", p.len()),
                ));
                p.resize(lods, last);
            }
        }
    }
    pieces
}

type PiecesOut = (Vec<Piece>, Vec<f32>, u32);

fn build_pieces(
    model: &Model,
    sk: &Skeleton,
    version: u32,
    ex: Option<&V12Extras>,
    binds_fit: bool,
    frame: Frame,
    losses: &mut Vec<Loss>,
) -> Result<PiecesOut, WriteError> {
    let groups = group_pieces(model, losses);
    let lod_count = groups.first().map(Vec::len);
    let pieces_fit = ex.filter(|x| {
        x.pieces.len() == groups.len() && x.pieces.iter().zip(&groups).all(|(p, g)| p.lods.len() == g.len())
    });
    let inverse_binds: Vec<Mat4> =
        sk.binds.iter().map(|b| math::inverse(&frame.matrix_from_ir(b)).unwrap_or(IDENTITY)).collect();
    let mut pieces = Vec::with_capacity(groups.len());
    for (p, group) in groups.iter().enumerate() {
        let stored = pieces_fit.and_then(|x| x.pieces.get(p));
        let Some(first) = group.first().and_then(|&m| model.meshes.get(m)) else { continue };
        let material = first.material.and_then(|m| model.materials.get(m));
        let slot = material
            .and_then(|m| m.name.strip_prefix("material ").and_then(|n| n.parse::<u16>().ok()))
            .or_else(|| first.material.map(|m| m as u16))
            .unwrap_or(0);
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
            name: stored_name(|| format!("meshes[{}]", group.first().copied().unwrap_or(0)), &first.name, losses),
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
            first
        }
        None => ex.map(|x| x.lod_distances.clone()).unwrap_or_default(),
    };
    let lod_count = lod_count.map_or_else(|| ex.map_or(1, |x| x.lod_count), |n| n as u32);
    Ok((pieces, distances, lod_count))
}

/// A piece's specular values: the stored ones while the material still has the values the model
/// got from the file, else the material's, else the NOLF defaults.
fn specular(
    material: Option<&relic_core::model::Material>,
    stored: Option<&PieceExtras>,
    all: Option<&V12Extras>,
    slot: u16,
) -> (f32, f32) {
    let from_material = material.and_then(|m| m.specular).map(|s| (s.power, s.scale));
    let first_of_slot = all.and_then(|x| x.pieces.iter().find(|p| p.material_index == slot));
    match (stored, first_of_slot, from_material) {
        (Some(s), Some(f), Some(m)) if (f.specular_power, f.specular_scale) == m => {
            (s.specular_power, s.specular_scale)
        }
        (_, _, Some(m)) => m,
        (Some(s), _, None) => (s.specular_power, s.specular_scale),
        _ => (5.0, 1.0),
    }
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
    let exact = ex.filter(|x| {
        binds_fit
            && x.digest == mesh_digest(mesh)
            && x.weight_counts.len() + x.splits.len() == n
            && !mesh.normals.is_empty()
    });
    let uvs = mesh.uv_sets.first();
    let uv = |v: u32| uvs.and_then(|s| s.get(v as usize)).copied().unwrap_or([0.0; 2]);
    if let Some(x) = exact {
        let file_n = x.weight_counts.len();
        let vertex =
            |v: u32| if (v as usize) < file_n { v } else { x.splits.get(v as usize - file_n).copied().unwrap_or(0) };
        let faces = mesh
            .triangles
            .iter()
            .map(|&[a, b, c]| Face { corners: [c, b, a].map(|v| FaceCorner { uv: uv(v), vertex: vertex(v) as u16 }) })
            .collect();
        let vertices = (0..file_n)
            .map(|v| Vertex {
                weight_count: x.weight_counts.get(v).copied().unwrap_or(0),
                sub_lod_vertex: x.sub_lod.get(v).copied().unwrap_or(0),
                position: frame.vector_from_ir(mesh.positions.get(v).copied().unwrap_or_default()),
                normal: frame.vector_from_ir(mesh.normals.get(v).copied().unwrap_or_default()),
            })
            .collect();
        return Ok(PieceLod { faces, vertices, weights: x.weights.clone() });
    }
    let normals = if mesh.normals.is_empty() { computed_normals(mesh) } else { mesh.normals.clone() };
    let same_count = ex.filter(|x| x.weight_counts.len() == n && x.splits.is_empty());
    if ex.is_some() && same_count.is_none() && !last {
        losses.push(Loss::new(element(), "sub-LOD links dropped (the vertices changed); written as 0"));
    }
    if mesh.skin.is_empty() {
        losses.push(Loss::new(element(), "unskinned mesh bound rigidly to the root node"));
    }
    let mut vertices = Vec::with_capacity(n);
    let mut weights = Vec::with_capacity(n);
    for v in 0..n {
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
                push(sk.node(inf.bone as usize), inf.weight);
            }
        }
        let weight_count = u16::try_from(count).map_err(|_| WriteError::DoesNotFit {
            field: format!("{} vertex {v}: weights", element()),
            value: count as u64,
            ty: "u16",
        })?;
        vertices.push(Vertex {
            weight_count,
            sub_lod_vertex: same_count.and_then(|x| x.sub_lod.get(v)).copied().unwrap_or(0),
            position,
            normal: frame.vector_from_ir(normals.get(v).copied().unwrap_or([0.0, 1.0, 0.0])),
        });
    }
    let faces = mesh
        .triangles
        .iter()
        .map(|&[a, b, c]| Face { corners: [c, b, a].map(|v| FaceCorner { uv: uv(v), vertex: v as u16 }) })
        .collect();
    Ok(PieceLod { faces, vertices, weights })
}

/// Area-weighted vertex normals of a mesh without normals (model frame).
pub(crate) fn computed_normals(mesh: &Mesh) -> Vec<[f32; 3]> {
    math::vertex_normals(&mesh.positions, &mesh.triangles)
}

/// Largest distance of a full-detail vertex from the origin.
fn computed_radius(pieces: &[Piece]) -> f32 {
    let lod0 = pieces.iter().filter_map(|p| p.lods.first());
    lod0.flat_map(|l| &l.vertices)
        .map(|v| {
            let [x, y, z] = v.position;
            (x * x + y * y + z * z).sqrt()
        })
        .fold(0.0, f32::max)
}

/// Dims of an animation without stored ones: the half-extents of its box, else of the bind-pose
/// mesh.
fn animation_dims(anim: &relic_core::model::Animation, mesh_dims: [f32; 3], frame: Frame) -> [f32; 3] {
    match &anim.bounds {
        Some(b) => {
            let (p, q) = (frame.vector_from_ir(b.min), frame.vector_from_ir(b.max));
            math::zip3(p, q, |a, b| (a - b).abs() / 2.0)
        }
        None => mesh_dims,
    }
}

/// Half-extents of the full-detail bind-pose mesh, for animations without stored dims.
fn computed_dims(model: &Model, frame: Frame) -> [f32; 3] {
    let mut d = [0.0f32; 3];
    for mesh in model.meshes.iter().filter(|m| m.lod.level == 0) {
        for p in &mesh.positions {
            for (dc, pc) in d.iter_mut().zip(frame.vector_from_ir(*p)) {
                *dc = dc.max(pc.abs());
            }
        }
    }
    d
}

fn build_animations(
    model: &Model,
    sk: &Skeleton,
    version: u32,
    ex: Option<&V12Extras>,
    frame: Frame,
    losses: &mut Vec<Loss>,
) -> Vec<Animation> {
    let dims = computed_dims(model, frame);
    let mut out = Vec::with_capacity(model.animations.len());
    for (a, anim) in model.animations.iter().enumerate() {
        let element = || format!("animations[{a}] {:?}", anim.name);
        let stored = ex.and_then(|x| x.animations.get(a)).filter(|s| s.name == anim.name);
        let tracks = bone_tracks(model, anim, losses);
        let mut times = key_times(anim, &[], losses);
        let duration = millis(anim.duration);
        if times.last().is_some_and(|&l| duration > l) {
            times.push(duration);
        } else if times.last().is_some_and(|&l| duration < l) {
            losses
                .push(Loss::new(element(), "duration shorter than the last key: ABC animations end at their last key"));
        }
        if !anim.morph_channels.is_empty() {
            losses.push(Loss::new(element(), "morph channels dropped (v9–v13 has no vertex animation)"));
        }
        let mut commands = key_commands(anim, losses);
        let keyframes: Vec<Keyframe> = times
            .iter()
            .map(|&t| Keyframe { time: t, command: len_string(&commands.remove(&t).unwrap_or_default()) })
            .collect();
        let mut transforms = Vec::with_capacity(sk.nodes.len() * times.len());
        for n in 0..sk.nodes.len() {
            let bone = sk.bone(model, n);
            let tr = sk.nodes.get(n).copied().flatten().and_then(|b| tracks.get(b));
            for &t in &times {
                let local = sample_local(bone, tr, t as f32 / 1000.0);
                transforms.push(NodeKey {
                    translation: frame.vector_from_ir(local.translation),
                    rotation: frame.quat_from_ir(local.rotation),
                });
            }
        }
        let total = transforms.len();
        let (node_prefixes, key_extras) = if version >= 13 {
            let prefixes = stored.map(|s| s.node_prefixes.clone()).filter(|p| p.len() == sk.nodes.len());
            let extras = stored.map(|s| s.key_extras.clone()).filter(|e| e.len() == total);
            (prefixes.unwrap_or_else(|| vec![-1; sk.nodes.len()]), extras.unwrap_or_else(|| vec![[0; 8]; total]))
        } else {
            (Vec::new(), Vec::new())
        };
        let blend = millis(anim.blend_in);
        if version < 12 && blend != crate::to_ir::DEFAULT_BLEND_MS {
            losses.push(Loss::new(element(), format!("blend-in time {blend} ms not stored before v12")));
        }
        out.push(Animation {
            dims: stored.map_or_else(|| animation_dims(anim, dims, frame), |s| s.dims),
            name: stored_name(element, &anim.name, losses),
            marker: stored.map_or(-1, |s| s.marker),
            interpolation_time: (version >= 12).then_some(blend),
            keyframes,
            tracks: Tracks { transforms, node_prefixes, key_extras },
        });
    }
    out
}

fn build_sockets(model: &Model, sk: &Skeleton, frame: Frame, losses: &mut Vec<Loss>) -> Vec<Socket> {
    model
        .attachments
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let element = || format!("attachments[{i}] {:?}", a.name);
            if a.transform.scale.iter().any(|s| (s - 1.0).abs() > 1e-6) {
                losses.push(Loss::new(element(), "scale dropped (ABC sockets have none)"));
            }
            if a.id.is_some() {
                losses.push(Loss::new(element(), "numeric id dropped"));
            }
            Socket {
                node_index: sk.node(a.bone),
                name: stored_name(element, &a.name, losses),
                rotation: frame.quat_from_ir(a.transform.rotation),
                position: frame.vector_from_ir(a.transform.translation),
            }
        })
        .collect()
}

fn build_child_models(sk: &Skeleton, ex: Option<&V12Extras>, nodes_fit: bool, losses: &mut Vec<Loss>) -> ChildModels {
    let n = sk.nodes.len();
    let identity = vec![NodeKey::IDENTITY; n];
    match ex.and_then(|x| x.child_models.as_ref()) {
        Some(c) if nodes_fit => c.clone(),
        Some(c) => {
            let moved = c
                .self_entry
                .iter()
                .flat_map(|s| &s.relations)
                .chain(c.children.iter().flat_map(|c| &c.relations))
                .any(|r| *r != NodeKey::IDENTITY);
            if moved {
                losses.push(Loss::new("child models", "per-node relations reset to identity: the node count changed"));
            }
            ChildModels {
                self_entry: Some(SelfEntry {
                    save_index: c.self_entry.as_ref().map_or(0, |s| s.save_index),
                    relations: identity.clone(),
                }),
                children: c
                    .children
                    .iter()
                    .map(|ch| ChildModel {
                        file_name: ch.file_name.clone(),
                        save_index: ch.save_index,
                        relations: identity.clone(),
                    })
                    .collect(),
            }
        }
        None => {
            ChildModels { self_entry: Some(SelfEntry { save_index: 0, relations: identity }), children: Vec::new() }
        }
    }
}

/// Group 0 lists the model's own animations; the other groups (one per child model) come from the
/// source file. The stored groups are kept whole while group 0 still matches the animations.
fn build_bindings(animations: &[Animation], child_models: &ChildModels, ex: Option<&V12Extras>) -> AnimBindings {
    let stored = ex.and_then(|x| x.anim_bindings.as_ref());
    let own: Vec<(Vec<u8>, [f32; 3])> = animations.iter().map(|a| (a.name.0.clone(), a.dims)).collect();
    let groups_wanted = 1 + child_models.children.len();
    if let Some(s) = stored {
        let group0 =
            s.groups.first().map(|g| g.bindings.iter().map(|b| (b.name.0.clone(), b.dims)).collect::<Vec<_>>());
        if group0.as_ref() == Some(&own) && s.groups.len() == groups_wanted {
            return s.clone();
        }
    }
    let translation = |name: &[u8]| {
        stored
            .and_then(|s| s.groups.first())
            .and_then(|g| g.bindings.iter().find(|b| b.name.0 == name))
            .map_or([0.0; 3], |b| b.translation)
    };
    let mut groups = vec![AnimBindingGroup {
        bindings: animations
            .iter()
            .map(|a| AnimBinding { name: a.name.clone(), dims: a.dims, translation: translation(&a.name.0) })
            .collect(),
    }];
    for i in 1..groups_wanted {
        groups.push(stored.and_then(|s| s.groups.get(i)).cloned().unwrap_or_default());
    }
    AnimBindings { groups }
}
