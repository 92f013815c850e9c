//! Before writing: the file structs must describe a file that reads back as the same structs
//! (lengths that fit their fields, version-dependent fields present exactly when the version has
//! them, indices in range, one section per kind). Violations are `WriteError`s naming the field.

use std::collections::HashSet;

use relic_core::WriteError;
use relic_core::binary::LenString;

use crate::counts::recount;
use crate::v6::{FILE_TOKEN, V6File, V6SectionId};
use crate::v12::{self, SectionId, V12File, tree_parents};

fn unsupported(message: impl Into<String>) -> WriteError {
    WriteError::Unsupported(message.into())
}

fn fits_u16(field: impl FnOnce() -> String, value: usize) -> Result<(), WriteError> {
    if value > usize::from(u16::MAX) {
        return Err(WriteError::DoesNotFit { field: field(), value: value as u64, ty: "u16" });
    }
    Ok(())
}

fn fits_u32(field: impl FnOnce() -> String, value: usize) -> Result<(), WriteError> {
    if u32::try_from(value).is_err() {
        return Err(WriteError::DoesNotFit { field: field(), value: value as u64, ty: "u32" });
    }
    Ok(())
}

fn string(field: impl FnOnce() -> String, s: &LenString) -> Result<(), WriteError> {
    fits_u16(|| format!("{} (string length)", field()), s.0.len())
}

fn expect(ok: bool, message: impl FnOnce() -> String) -> Result<(), WriteError> {
    if ok { Ok(()) } else { Err(unsupported(message())) }
}

/// Checks that a v9–v13 file can be written and read back as itself.
pub fn check_v12(file: &V12File) -> Result<(), WriteError> {
    let h = &file.header;
    let version = h.version;
    expect(v12::VERSIONS.contains(&version), || format!("version {version} is not one of 9–13"))?;
    expect(h.v13_unknown.is_some() == (version >= 13), || "Header.v13_unknown must be present exactly for v13".into())?;
    string(|| "Header.command_string".into(), &h.command_string)?;
    fits_u32(|| "Header.lod_distances".into(), h.lod_distances.len())?;
    let counts = recount(file);
    let nodes = counts.node_count;
    let present = file.present_sections();
    let expected: Vec<SectionId> = present
        .iter()
        .filter(|(_, p)| *p)
        .map(|(id, _)| *id)
        .chain((0..file.unknown.len()).map(SectionId::Unknown))
        .collect();
    check_order(&file.order, &expected)?;
    for (i, u) in file.unknown.iter().enumerate() {
        fits_u16(|| format!("unknown[{i}].name"), u.name.len())?;
        expect(SectionId::from_name(&u.name).is_none() && u.name != b"Header", || {
            format!("unknown[{i}] is named like a known section")
        })?;
    }
    if let Some(p) = &file.pieces {
        check_pieces(p, version, counts.lod_count, nodes)?;
    }
    if let Some(n) = &file.nodes {
        for (i, node) in n.nodes.iter().enumerate() {
            string(|| format!("Nodes.nodes[{i}].name"), &node.name)?;
        }
        for (i, set) in n.weight_sets.iter().enumerate() {
            string(|| format!("Nodes.weight_sets[{i}].name"), &set.name)?;
            fits_u32(|| format!("Nodes.weight_sets[{i}].weights"), set.weights.len())?;
        }
        tree_parents(n.nodes.iter().map(|n| n.child_count))
            .map_err(|i| unsupported(format!("Nodes.nodes[{i}]: more children than nodes follow")))?;
    }
    if let Some(c) = &file.child_models {
        expect(c.self_entry.is_some() || c.children.is_empty(), || {
            "ChildModels: children without the self entry".into()
        })?;
        let relations =
            c.self_entry.iter().map(|s| s.relations.len()).chain(c.children.iter().map(|c| c.relations.len()));
        for (i, r) in relations.enumerate() {
            expect(r == nodes as usize, || format!("ChildModels entry {i}: {r} relations for {nodes} nodes"))?;
        }
        for (i, child) in c.children.iter().enumerate() {
            string(|| format!("ChildModels.children[{i}].file_name"), &child.file_name)?;
        }
    }
    if let Some(a) = &file.animations {
        for (i, anim) in a.animations.iter().enumerate() {
            check_animation(anim, i, version, nodes)?;
        }
    }
    if let Some(s) = &file.sockets {
        for (i, socket) in s.sockets.iter().enumerate() {
            string(|| format!("Sockets.sockets[{i}].name"), &socket.name)?;
            expect(socket.node_index < nodes, || {
                format!("Sockets.sockets[{i}]: node {} ≥ {nodes}", socket.node_index)
            })?;
        }
    }
    if let Some(b) = &file.anim_bindings {
        let groups = b.groups.len();
        expect(groups == counts.child_model_count as usize, || {
            format!("AnimBindings: {groups} groups for {} child models", counts.child_model_count)
        })?;
        for (g, group) in b.groups.iter().enumerate() {
            for (i, binding) in group.bindings.iter().enumerate() {
                string(|| format!("AnimBindings.groups[{g}].bindings[{i}].name"), &binding.name)?;
            }
        }
    }
    Ok(())
}

fn check_pieces(p: &v12::Pieces, version: u32, lod_count: u32, nodes: u32) -> Result<(), WriteError> {
    for (i, piece) in p.pieces.iter().enumerate() {
        string(|| format!("Pieces.pieces[{i}].name"), &piece.name)?;
        expect(piece.lod_weight.is_some() == (version >= 10), || {
            format!("Pieces.pieces[{i}].lod_weight must be present exactly from version 10")
        })?;
        expect(piece.lods.len() == lod_count as usize, || {
            format!("Pieces.pieces[{i}] has {} LODs, the first piece {lod_count}", piece.lods.len())
        })?;
        for (l, lod) in piece.lods.iter().enumerate() {
            let at = || format!("Pieces.pieces[{i}].lods[{l}]");
            fits_u32(|| format!("{}.faces", at()), lod.faces.len())?;
            fits_u32(|| format!("{}.vertices", at()), lod.vertices.len())?;
            let n = lod.vertices.len();
            for (f, face) in lod.faces.iter().enumerate() {
                expect(face.corners.iter().all(|c| usize::from(c.vertex) < n), || {
                    format!("{}.faces[{f}]: vertex index out of range ({n} vertices)", at())
                })?;
            }
            let declared: usize = lod.vertices.iter().map(|v| usize::from(v.weight_count)).sum();
            expect(declared == lod.weights.len(), || {
                format!("{}: vertices declare {declared} weights, {} stored", at(), lod.weights.len())
            })?;
            if let Some(w) = lod.weights.iter().position(|w| w.node_index >= nodes) {
                return Err(unsupported(format!("{}.weights[{w}]: node index ≥ {nodes}", at())));
            }
        }
    }
    Ok(())
}

fn check_animation(anim: &v12::Animation, i: usize, version: u32, nodes: u32) -> Result<(), WriteError> {
    let at = || format!("Animation.animations[{i}]");
    string(|| format!("{}.name", at()), &anim.name)?;
    expect(anim.interpolation_time.is_some() == (version >= 12), || {
        format!("{}.interpolation_time must be present exactly from version 12", at())
    })?;
    fits_u32(|| format!("{}.keyframes", at()), anim.keyframes.len())?;
    for (k, key) in anim.keyframes.iter().enumerate() {
        string(|| format!("{}.keyframes[{k}].command", at()), &key.command)?;
    }
    let t = &anim.tracks;
    let want = nodes as usize * anim.keyframes.len();
    expect(t.transforms.len() == want, || {
        format!("{}: {} transforms for {nodes} nodes × {} keys", at(), t.transforms.len(), anim.keyframes.len())
    })?;
    let (prefixes, extras) = if version >= 13 { (nodes as usize, want) } else { (0, 0) };
    expect(t.node_prefixes.len() == prefixes && t.key_extras.len() == extras, || {
        format!("{}: v13 track prefixes/extras do not match version {version}", at())
    })
}

/// The order lists exactly the sections the file has, each once.
fn check_order<Id: Copy + Eq + std::hash::Hash + std::fmt::Debug>(
    order: &[Id],
    expected: &[Id],
) -> Result<(), WriteError> {
    let mut seen = HashSet::new();
    for &id in order {
        expect(seen.insert(id), || format!("section order lists {id:?} twice"))?;
        expect(expected.contains(&id), || format!("section order lists {id:?}, which the file does not have"))?;
    }
    if let Some(id) = expected.iter().find(|id| !seen.contains(*id)) {
        return Err(unsupported(format!("section order leaves out {id:?}")));
    }
    Ok(())
}

/// Checks that a v6 file can be written and read back as itself.
pub fn check_v6(file: &V6File) -> Result<(), WriteError> {
    expect(file.header.file_token.0 == FILE_TOKEN, || "Header.file_token must be the v6 token".into())?;
    string(|| "Header.command_string".into(), &file.header.command_string)?;
    check_v6_order(file)?;
    let g = &file.geometry;
    expect(!g.vertex_start_num.is_empty(), || "Geometry.vertex_start_num needs at least one entry".into())?;
    fits_u32(|| "Geometry.triangles".into(), g.triangles.len())?;
    fits_u32(|| "Geometry.vertices".into(), g.vertices.len())?;
    let (vertices, nodes) = (g.vertices.len(), file.nodes.nodes.len());
    if let Some(t) = g.triangles.iter().position(|t| t.indices.iter().any(|&i| usize::from(i) >= vertices)) {
        return Err(unsupported(format!("Geometry.triangles[{t}]: vertex index ≥ {vertices}")));
    }
    if let Some(v) = g.vertices.iter().position(|v| usize::from(v.transformation_index) >= nodes) {
        return Err(unsupported(format!("Geometry.vertices[{v}]: node index ≥ {nodes}")));
    }
    expect(nodes > 0, || "Nodes: a v6 model needs at least one node".into())?;
    let mut pending: u64 = 1;
    for (i, node) in file.nodes.nodes.iter().enumerate() {
        string(|| format!("Nodes.nodes[{i}].name"), &node.name)?;
        expect(pending > 0, || format!("Nodes.nodes[{i}] lies outside the tree the child counts describe"))?;
        pending = pending - 1 + u64::from(node.num_children);
        if let Some(j) = node.md_vertices.iter().position(|&v| usize::from(v) >= vertices) {
            return Err(unsupported(format!("Nodes.nodes[{i}].md_vertices[{j}]: vertex index ≥ {vertices}")));
        }
    }
    expect(pending == 0, || "Nodes: the child counts announce more nodes than there are".into())?;
    for (a, anim) in file.animations.animations.iter().enumerate() {
        let at = || format!("Animation.animations[{a}]");
        string(|| format!("{}.name", at()), &anim.name)?;
        for (k, key) in anim.keyframes.iter().enumerate() {
            string(|| format!("{}.keyframes[{k}].frame_string", at()), &key.frame_string)?;
        }
        expect(anim.node_anims.len() == nodes, || {
            format!("{}: {} node tracks for {nodes} nodes", at(), anim.node_anims.len())
        })?;
        let keys = anim.keyframes.len();
        for (n, (track, node)) in anim.node_anims.iter().zip(&file.nodes.nodes).enumerate() {
            expect(track.keys.len() == keys, || {
                format!("{}.node_anims[{n}]: {} keys for {keys}", at(), track.keys.len())
            })?;
            let frames = keys * node.md_vertices.len();
            expect(track.vertex_frames.len() == frames, || {
                format!("{}.node_anims[{n}]: {} vertex frames, {frames} expected", at(), track.vertex_frames.len())
            })?;
        }
    }
    if let Some(d) = &file.anim_dims {
        let anims = file.animations.animations.len();
        expect(d.dims.len() == anims, || format!("AnimDims: {} entries for {anims} animations", d.dims.len()))?;
    }
    for (i, u) in file.unknown.iter().enumerate() {
        fits_u16(|| format!("unknown[{i}].name"), u.name.len())?;
        expect(V6SectionId::from_name(&u.name).is_none() && u.name != b"Header", || {
            format!("unknown[{i}] is named like a known section")
        })?;
    }
    Ok(())
}

fn check_v6_order(file: &V6File) -> Result<(), WriteError> {
    let mut expected = vec![V6SectionId::Geometry, V6SectionId::Nodes, V6SectionId::Animation];
    expected.extend(file.anim_dims.as_ref().map(|_| V6SectionId::AnimDims));
    expected.extend(file.transform_info.as_ref().map(|_| V6SectionId::TransformInfo));
    expected.extend((0..file.unknown.len()).map(V6SectionId::Unknown));
    check_order(&file.order, &expected)?;
    let pos = |id| file.order.iter().position(|&o| o == id);
    let (g, n, a) = (pos(V6SectionId::Geometry), pos(V6SectionId::Nodes), pos(V6SectionId::Animation));
    let ordered = matches!((g, n, a), (Some(g), Some(n), Some(a)) if g < n && n < a);
    expect(ordered, || "section order must hold Geometry, Nodes, Animation in this order".into())?;
    expect(file.anim_dims.is_none() || pos(V6SectionId::AnimDims) > a, || "AnimDims must follow Animation".into())
}
