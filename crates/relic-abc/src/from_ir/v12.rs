//! Common model → v9–v13 file: the nodes from the skeleton, pieces from the meshes
//! ([`super::mesh`]), animations ([`super::animation`]), sockets from the attachments; child
//! models, weight sets and bindings from the extras while they still fit.

use relic_core::frame::Frame;
use relic_core::model::Model;
use relic_core::{Loss, WriteError};

use super::animation::build_animations;
use super::mesh::{build_pieces, computed_radius};
use super::names::stored_name;
use super::skeleton::Skeleton;
use crate::extras::{AbcExtras, FamilyExtras, V12Extras, bind_digest};
use crate::file::common::text;
use crate::file::{
    AnimBinding, AnimBindingGroup, AnimBindings, Animation, Animations, ChildModel, ChildModels, Header, HeaderCounts,
    Node, NodeKey, Nodes, Pieces, SectionId, SelfEntry, Socket, Sockets, V12File,
};
use crate::frame::LITHTECH;
use crate::to_ir::column_major;

/// Builds a v9–v13 file from a valid model.
pub(super) fn build(
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
    let frame = LITHTECH;
    let mut sk = Skeleton::new(model, !model.meshes.is_empty(), losses);
    if let Some(x) = ex {
        snap_binds(&mut sk, x, frame);
    }
    let nodes_fit =
        ex.is_some_and(|x| x.nodes.len() == sk.tree.nodes.len() && x.counts.node_count as usize == sk.tree.nodes.len());
    let binds_fit = ex.is_some_and(|x| sk.tree.identity && x.bind_digest == bind_digest(&model.bones));
    let node_count = sk.tree.nodes.len() as u32;

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
    // One AnimBindings group per child model; a source file without ChildModels had as many
    // groups as its header said.
    let groups = match ex {
        Some(x) if x.child_models.is_none() => x.anim_bindings.as_ref().map_or(1, |b| b.groups.len()),
        _ => child_models.count() as usize,
    };
    let anim_bindings = build_bindings(&animations, groups, ex);

    let radius = match ex {
        Some(x) if nodes_fit => x.internal_radius,
        _ => computed_radius(&pieces),
    };
    if ex.is_none() && from_plain_gltf(model) {
        without_extras(model, &pieces, &animations, radius, losses);
    }
    let command_string = extras.map_or_else(String::new, |e| e.command_string.clone());
    let mut padding = [0u8; 60];
    if let Some(x) = ex {
        for (d, s) in padding.iter_mut().zip(&x.padding) {
            *d = *s;
        }
    }
    let header = Header {
        version,
        // The counts the data gives are recounted below; these are what nothing else gives.
        counts: HeaderCounts {
            node_count,
            child_model_count: child_models.count(),
            lod_count,
            ..HeaderCounts::default()
        },
        // v13's extra header word has no known meaning (abc.md §4.1): the stored one, else 0.
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
    absent_counts(&mut file, ex, losses);
    let counted = file.recounted_header();
    if let Some(p) = &mut file.pieces {
        p.weight_count = counted.counts.weight_count;
    }
    file.header = counted;
    Ok(file)
}

/// How far (per element, relative to the matrix's largest) a model bind may be from the stored
/// node matrix and still be it.
const BIND_TOLERANCE: f32 = 1e-4;

/// The stored node matrices where the model's binds are within float noise of them: the file's
/// exact values come back after a tool moved every value a little, and the stored weights (made
/// with them) stay exact. `sk.original` gets every stored matrix, for placing stored weights.
fn snap_binds(sk: &mut Skeleton, x: &V12Extras, frame: Frame) {
    if x.node_matrices.len() != sk.tree.binds.len() {
        return;
    }
    for ((bind, original), stored) in sk.tree.binds.iter_mut().zip(&mut sk.original).zip(&x.node_matrices) {
        let stored_ir = frame.matrix_to_ir(&column_major(stored));
        let scale = stored.iter().fold(1.0f32, |m, v| m.max(v.abs()));
        if relic_core::math::max_abs_diff(bind, &stored_ir) <= BIND_TOLERANCE * scale {
            *bind = stored_ir;
        }
        *original = stored_ir;
    }
}

/// Whether the model was read from a glTF without relic's extras (Blender's default export),
/// where an ABC model loses what only the extras carry.
pub(super) fn from_plain_gltf(model: &Model) -> bool {
    model.source.is_some_and(|s| s.format.as_str() == "gltf")
}

/// One note per kind of ABC data a model read from a glTF without relic's extras (Blender's
/// default export) does not carry, with what was written instead.
fn without_extras(
    model: &Model,
    pieces: &[crate::file::Piece],
    animations: &[Animation],
    radius: f32,
    losses: &mut Vec<Loss>,
) {
    let why = "not in the glTF (no relic extras: Blender writes them with \"Custom Properties\" ticked)";
    let model_vertices: usize = model.meshes.iter().map(|m| m.positions.len()).sum();
    let file_vertices: usize = pieces.iter().flat_map(|p| &p.lods).map(|l| l.vertices.len()).sum();
    let file_weights: usize = pieces.iter().flat_map(|p| &p.lods).map(|l| l.weights.len()).sum();
    losses.push(Loss::new(
        "vertices",
        format!(
            "the file's own vertices and weights {why}: {model_vertices} model vertices written as {file_vertices} \
             file vertices (texture seams merged) with {file_weights} weights from the model's influences"
        ),
    ));
    let lods = model.meshes.iter().filter(|m| m.lod.level > 0).count();
    if lods > 0 {
        losses.push(Loss::new(
            "sub-LOD links",
            format!("vertex-reduction links {why}: {lods} LOD meshes written without them"),
        ));
    }
    losses.push(Loss::new("weight sets", format!("weight sets {why}: none written")));
    losses.push(Loss::new("child models", format!("child models {why}: only the model itself listed")));
    losses.push(Loss::new("radius", format!("radius {why}: computed from the LOD-0 vertices ({radius})")));
    if !animations.is_empty() {
        let keys: usize = animations.iter().map(|a| a.keyframes.len()).sum();
        losses.push(Loss::new(
            "keyframes",
            format!(
                "key times and animation lengths {why}: {} animations keyed at their channels' key times ({keys} keyframes)",
                animations.len()
            ),
        ));
    }
}

/// The header counts of sections the file does not have: what the source file stated (nothing
/// else determines them); without ChildModels, the count that sizes AnimBindings.
fn absent_counts(file: &mut V12File, ex: Option<&V12Extras>, losses: &mut Vec<Loss>) {
    // Nothing states them without extras: a section the file lacks counts 0.
    let stored = ex.map(|x| x.counts).unwrap_or_default();
    let h = &mut file.header;
    if file.pieces.is_none() {
        (h.counts.piece_count, h.counts.face_count, h.counts.vertex_count, h.counts.weight_count) =
            (stored.piece_count, stored.face_count, stored.vertex_count, stored.weight_count);
    }
    if file.nodes.is_none() {
        h.counts.weight_set_count = stored.weight_set_count;
        if stored.node_count != h.counts.node_count {
            losses.push(Loss::new(
                "nodes",
                format!(
                    "NodeCount {} without a Nodes section: the model has no bones for those nodes' tracks and relations",
                    stored.node_count
                ),
            ));
        }
    }
    if file.child_models.is_none() {
        h.counts.child_model_count = match &file.anim_bindings {
            Some(b) => b.groups.len() as u32,
            None => ex.map_or(1, |_| stored.child_model_count),
        };
    }
    if file.animations.is_none() {
        (h.counts.animation_count, h.counts.keyframe_count) = (stored.animation_count, stored.keyframe_count);
    }
    if file.sockets.is_none() {
        h.counts.socket_count = stored.socket_count;
    }
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
    let mut out = Vec::with_capacity(sk.tree.nodes.len());
    for (i, (bind, (&parent, &children))) in
        sk.tree.binds.iter().zip(sk.tree.parents.iter().zip(&sk.tree.child_counts)).enumerate()
    {
        let bone = sk.tree.bone(model, i);
        let stored = ex.and_then(|x| x.nodes.get(i));
        let rotation_only = bone.is_some_and(|b| b.flags.rotation_only);
        let base = stored.map_or(if parent.is_none() { 1 } else { 0 }, |s| s.flags & !2);
        let name = sk.tree.name(model, i);
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
                node_index: sk.tree.node(a.bone),
                name: stored_name(element, &a.name, losses),
                rotation: frame.quat_from_ir(a.transform.rotation),
                position: frame.vector_from_ir(a.transform.translation),
            }
        })
        .collect()
}

fn build_child_models(sk: &Skeleton, ex: Option<&V12Extras>, nodes_fit: bool, losses: &mut Vec<Loss>) -> ChildModels {
    let n = sk.tree.nodes.len();
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
fn build_bindings(animations: &[Animation], groups_wanted: usize, ex: Option<&V12Extras>) -> AnimBindings {
    let stored = ex.and_then(|x| x.anim_bindings.as_ref());
    let own: Vec<(Vec<u8>, [f32; 3])> = animations.iter().map(|a| (a.name.0.clone(), a.dims)).collect();
    // The animations as read: the stored groups stay whole (even a group 0 that does not list
    // them, as a hand-edited file may have).
    let unchanged = ex.is_some_and(|x| {
        x.animations.len() == animations.len()
            && x.animations.iter().zip(animations).all(|(s, a)| s.name == text(&a.name) && s.dims == a.dims)
    });
    if let Some(s) = stored {
        let group0 =
            s.groups.first().map(|g| g.bindings.iter().map(|b| (b.name.0.clone(), b.dims)).collect::<Vec<_>>());
        if (unchanged || group0.as_ref() == Some(&own)) && s.groups.len() == groups_wanted {
            return s.clone();
        }
    }
    let translation = |name: &[u8]| {
        stored
            .and_then(|s| s.groups.first())
            .and_then(|g| g.bindings.iter().find(|b| b.name.0 == name))
            .map_or([0.0; 3], |b| b.translation)
    };
    if groups_wanted == 0 {
        // No self entry, so no group for the own animations either.
        return AnimBindings { groups: Vec::new() };
    }
    let mut groups = vec![AnimBindingGroup {
        bindings: animations
            .iter()
            .map(|a| AnimBinding { name: a.name.clone(), dims: a.dims, translation: translation(&a.name.0) })
            .collect(),
    }];
    for i in 1..groups_wanted {
        // A child model without stored bindings binds none of its animations (count 0).
        groups.push(stored.and_then(|s| s.groups.get(i)).cloned().unwrap_or_default());
    }
    AnimBindings { groups }
}
