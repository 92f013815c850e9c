//! Cross-reference checks: after parsing (indices into other tables, the node tree, counts that
//! must agree), each failure a `ReadError` with the byte offset and field path of the offending
//! value; and before writing, the same rules plus what only a hand-built struct can break
//! (lengths that do not fit their fields, version-dependent fields present exactly when the
//! version has them, the section order), each a `WriteError` naming the field. One predicate per
//! rule serves both directions, so that whatever `write` accepts, `read` accepts as the same.

use std::collections::HashSet;

use relic_core::binary::LenString;
use relic_core::{ReadError, WriteError};

use crate::file::nodes::depth_first_parents;
use crate::file::v6::{FILE_TOKEN, V6Bodies};
use crate::file::v12::{V12Bodies, VERSIONS};
use crate::file::{
    Animation, Geometry, KeyCountForm, Nodes, PieceLod, Pieces, SectionId, Sockets, V6File, V6Nodes, V6SectionId,
    V12File,
};

// ---------------------------------------------------------------------------------------------
// The rules (one predicate each, used by reading and writing)
// ---------------------------------------------------------------------------------------------

/// The first triangle corner naming a vertex past the end: `(triangle, corner, index)`.
fn bad_triangle(g: &Geometry) -> Option<(usize, usize, u16)> {
    let count = g.vertices.len();
    g.triangles.iter().enumerate().find_map(|(t, tri)| {
        tri.indices.iter().enumerate().find(|(_, i)| usize::from(**i) >= count).map(|(c, &i)| (t, c, i))
    })
}

/// The first vertex naming a node past the end: `(vertex, node)`.
fn bad_vertex_node(g: &Geometry, nodes: usize) -> Option<(usize, u8)> {
    g.vertices
        .iter()
        .enumerate()
        .find(|(_, v)| usize::from(v.transformation_index) >= nodes)
        .map(|(v, x)| (v, x.transformation_index))
}

/// The first mesh-deformation vertex past the end: `(node, entry, vertex)`.
fn bad_md_vertex(nodes: &V6Nodes, vertices: usize) -> Option<(usize, usize, u16)> {
    nodes.nodes.iter().enumerate().find_map(|(i, n)| {
        n.md_vertices.iter().enumerate().find(|(_, v)| usize::from(**v) >= vertices).map(|(j, &v)| (i, j, v))
    })
}

/// The first face corner of a LOD naming a vertex past the end: `(face, corner, vertex)`.
fn bad_face(lod: &PieceLod) -> Option<(usize, usize, u16)> {
    let n = lod.vertices.len();
    // The greatest index first (a reduction without early exit, cheap on every file); the
    // corner is searched for only when one is out of range.
    let greatest = lod.faces.iter().flat_map(|f| f.corners).fold(0u16, |m, c| m.max(c.vertex));
    if usize::from(greatest) < n {
        return None;
    }
    lod.faces.iter().enumerate().find_map(|(f, face)| {
        face.corners.iter().enumerate().find(|(_, c)| usize::from(c.vertex) >= n).map(|(c, k)| (f, c, k.vertex))
    })
}

/// The first weight of a LOD naming a node past the end: `(vertex, weight of the vertex, node)`.
fn bad_weight(lod: &PieceLod, nodes: u32) -> Option<(usize, usize, u32)> {
    // One flat pass in the common case; the vertex is looked up only for the error.
    if lod.weights.iter().all(|w| w.node_index < nodes) {
        return None;
    }
    lod.vertex_weights().enumerate().find_map(|(v, (_, ws))| {
        ws.iter().enumerate().find(|(_, w)| w.node_index >= nodes).map(|(w, x)| (v, w, x.node_index))
    })
}

/// The first socket on a node past the end: `(socket, node)`.
fn bad_socket(s: &Sockets, nodes: u32) -> Option<(usize, u32)> {
    s.sockets.iter().enumerate().find(|(_, s)| s.node_index >= nodes).map(|(i, s)| (i, s.node_index))
}

/// The first node still expecting children when the list ends.
fn unfinished_tree(n: &Nodes) -> Option<usize> {
    depth_first_parents(n.nodes.iter().map(|n| n.child_count)).1
}

// ---------------------------------------------------------------------------------------------
// After reading
// ---------------------------------------------------------------------------------------------

/// Cross-references of a parsed v6 file.
pub(crate) fn v6_read(file: &V6File, at: V6Bodies) -> Result<(), ReadError> {
    let g = &file.geometry;
    if let Some((t, c, i)) = bad_triangle(g) {
        let offset = at.geometry + g.triangles_at() + 33 * t as u64 + 24 + 2 * c as u64;
        let count = g.vertices.len();
        return Err(ReadError::invalid(
            offset,
            format!("Geometry.triangles[{t}].indices"),
            format!("vertex index {i} ≥ vertex count {count}"),
        ));
    }
    if let Some((i, j, v)) = bad_md_vertex(&file.nodes, g.vertices.len()) {
        let before: usize = file.nodes.nodes.iter().take(i).map(|n| n.size()).sum();
        let node = file.nodes.nodes.get(i).map_or(0, |n| n.md_at());
        let offset = at.nodes + before as u64 + node + 2 * j as u64;
        let count = g.vertices.len();
        return Err(ReadError::invalid(
            offset,
            format!("Nodes.nodes[{i}].md_vertices[{j}]"),
            format!("vertex index {v} ≥ vertex count {count}"),
        ));
    }
    let nodes = file.nodes.nodes.len();
    if let Some((v, node)) = bad_vertex_node(g, nodes) {
        return Err(ReadError::invalid(
            at.geometry + g.vertices_at() + 20 * v as u64 + 15,
            format!("Geometry.vertices[{v}].transformation_index"),
            format!("node {node} ≥ node count {nodes}"),
        ));
    }
    Ok(())
}

/// Cross-references of a parsed v9–v13 file.
pub(crate) fn v12_read(file: &V12File, at: V12Bodies) -> Result<(), ReadError> {
    let h = &file.header;
    if let Some(c) = &file.child_models
        && c.count() != h.counts.child_model_count
    {
        return Err(ReadError::invalid(
            at.child_models,
            "ChildModels.count",
            format!("{} child models, but the header's ChildModelCount is {}", c.count(), h.counts.child_model_count),
        ));
    }
    if let Some(n) = &file.nodes
        && let Some(i) = unfinished_tree(n)
    {
        let before: usize = n.nodes.iter().take(i).map(|n| n.size()).sum();
        let (name, children, own) =
            n.nodes.get(i).map_or((String::new(), 0, 0), |n| (n.name.to_text(), n.child_count, n.size() - 4));
        return Err(ReadError::invalid(
            at.nodes + (before + own) as u64,
            format!("Nodes.nodes[{i}]"),
            format!("node {name:?} has {children} children but the list ends before them"),
        ));
    }
    if let Some(p) = &file.pieces {
        pieces_read(p, h.counts.node_count, at.pieces)?;
    }
    if let Some(s) = &file.sockets
        && let Some((i, node)) = bad_socket(s, h.counts.node_count)
    {
        let before: usize = s.sockets.iter().take(i).map(|s| s.size()).sum();
        return Err(ReadError::invalid(
            at.sockets + 4 + before as u64,
            format!("Sockets.sockets[{i}].node_index"),
            format!("node index {node} ≥ node count {}", h.counts.node_count),
        ));
    }
    Ok(())
}

fn pieces_read(p: &Pieces, node_count: u32, body: u64) -> Result<(), ReadError> {
    let mut piece_at = body + 8;
    for (i, piece) in p.pieces.iter().enumerate() {
        let mut lod_at = piece_at + piece.head_size() as u64;
        for (l, lod) in piece.lods.iter().enumerate() {
            let path = || format!("Pieces.pieces[{i}].lods[{l}]");
            if let Some((f, c, v)) = bad_face(lod) {
                return Err(ReadError::invalid(
                    lod_at + 4 + 30 * f as u64 + 10 * c as u64 + 8,
                    format!("{}.faces[{f}]", path()),
                    format!("vertex index {v} ≥ vertex count {}", lod.vertices.len()),
                ));
            }
            if let Some((v, w, node)) = bad_weight(lod, node_count) {
                return Err(ReadError::invalid(
                    lod_at + lod.vertex_at(v) as u64 + 4 + 20 * w as u64,
                    format!("{}.vertices[{v}].weights[{w}]", path()),
                    format!("node index {node} ≥ node count {node_count}"),
                ));
            }
            lod_at += lod.size() as u64;
        }
        piece_at = lod_at;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Before writing
// ---------------------------------------------------------------------------------------------

fn unsupported(message: impl Into<String>) -> WriteError {
    WriteError::Unsupported(message.into())
}

fn fits(field: impl FnOnce() -> String, value: usize, max: u64, ty: &'static str) -> Result<(), WriteError> {
    if value as u64 > max {
        return Err(WriteError::DoesNotFit { field: field(), value: value as u64, ty });
    }
    Ok(())
}

fn fits_u16(field: impl FnOnce() -> String, value: usize) -> Result<(), WriteError> {
    fits(field, value, u64::from(u16::MAX), "u16")
}

fn fits_u32(field: impl FnOnce() -> String, value: usize) -> Result<(), WriteError> {
    fits(field, value, u64::from(u32::MAX), "u32")
}

fn string(field: impl FnOnce() -> String, s: &LenString) -> Result<(), WriteError> {
    fits_u16(|| format!("{} (string length)", field()), s.0.len())
}

fn expect(ok: bool, message: impl FnOnce() -> String) -> Result<(), WriteError> {
    if ok { Ok(()) } else { Err(unsupported(message())) }
}

/// A v9–v13 file can be written and reads back as itself.
pub(crate) fn v12_write(file: &V12File) -> Result<(), WriteError> {
    let h = &file.header;
    let version = h.version;
    expect(VERSIONS.contains(&version), || format!("version {version} is not one of 9–13"))?;
    expect(h.v13_unknown.is_some() == (version >= 13), || "Header.v13_unknown must be present exactly for v13".into())?;
    string(|| "Header.command_string".into(), &h.command_string)?;
    fits_u32(|| "Header.lod_distances".into(), h.lod_distances.len())?;
    let counts = file.recounted_header();
    let nodes = counts.counts.node_count;
    let expected: Vec<SectionId> = file
        .present_sections()
        .iter()
        .filter(|(_, p)| *p)
        .map(|(id, _)| *id)
        .chain((0..file.unknown.len()).map(SectionId::Unknown))
        .collect();
    check_order(&file.order, &expected)?;
    for (i, u) in file.unknown.iter().enumerate() {
        fits_u16(|| format!("unknown[{i}].name"), u.name.len())?;
        let known = <SectionId as crate::file::sections::SectionKind>::from_name(&u.name).is_some();
        expect(!known && u.name != b"Header", || format!("unknown[{i}] is named like a known section"))?;
    }
    if let Some(p) = &file.pieces {
        pieces_write(p, version, counts.counts.lod_count, nodes)?;
    }
    if let Some(n) = &file.nodes {
        for (i, node) in n.nodes.iter().enumerate() {
            string(|| format!("Nodes.nodes[{i}].name"), &node.name)?;
        }
        for (i, set) in n.weight_sets.iter().enumerate() {
            string(|| format!("Nodes.weight_sets[{i}].name"), &set.name)?;
            fits_u32(|| format!("Nodes.weight_sets[{i}].weights"), set.weights.len())?;
        }
        if let Some(i) = unfinished_tree(n) {
            return Err(unsupported(format!("Nodes.nodes[{i}]: more children than nodes follow")));
        }
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
            animation_write(anim, i, version, nodes)?;
        }
    }
    if let Some(s) = &file.sockets {
        for (i, socket) in s.sockets.iter().enumerate() {
            string(|| format!("Sockets.sockets[{i}].name"), &socket.name)?;
        }
        if let Some((i, node)) = bad_socket(s, nodes) {
            return Err(unsupported(format!("Sockets.sockets[{i}]: node {node} ≥ {nodes}")));
        }
    }
    if let Some(b) = &file.anim_bindings {
        let groups = b.groups.len();
        expect(groups == counts.counts.child_model_count as usize, || {
            format!("AnimBindings: {groups} groups for {} child models", counts.counts.child_model_count)
        })?;
        for (g, group) in b.groups.iter().enumerate() {
            for (i, binding) in group.bindings.iter().enumerate() {
                string(|| format!("AnimBindings.groups[{g}].bindings[{i}].name"), &binding.name)?;
            }
        }
    }
    Ok(())
}

fn pieces_write(p: &Pieces, version: u32, lod_count: u32, nodes: u32) -> Result<(), WriteError> {
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
            if let Some((f, _, _)) = bad_face(lod) {
                return Err(unsupported(format!(
                    "{}.faces[{f}]: vertex index out of range ({} vertices)",
                    at(),
                    lod.vertices.len()
                )));
            }
            let declared: usize = lod.vertices.iter().map(|v| usize::from(v.weight_count)).sum();
            expect(declared == lod.weights.len(), || {
                format!("{}: vertices declare {declared} weights, {} stored", at(), lod.weights.len())
            })?;
            if let Some((v, w, _)) = bad_weight(lod, nodes) {
                return Err(unsupported(format!("{}.vertices[{v}].weights[{w}]: node index ≥ {nodes}", at())));
            }
        }
    }
    Ok(())
}

fn animation_write(anim: &Animation, i: usize, version: u32, nodes: u32) -> Result<(), WriteError> {
    let at = || format!("Animation.animations[{i}]");
    string(|| format!("{}.name", at()), &anim.name)?;
    let after_marker = anim.key_count_form == KeyCountForm::AfterMarker;
    expect(anim.interpolation_time.is_some() == (after_marker && version >= 12), || {
        format!("{}.interpolation_time must be present exactly from version 12 with marker −1", at())
    })?;
    let keys = anim.keyframes.len();
    if after_marker {
        fits_u32(|| format!("{}.keyframes", at()), keys)?;
    } else {
        fits(|| format!("{}.marker (keyframe count)", at()), keys, i32::MAX as u64, "i32")?;
    }
    for (k, key) in anim.keyframes.iter().enumerate() {
        string(|| format!("{}.keyframes[{k}].command", at()), &key.command)?;
    }
    let t = &anim.tracks;
    let nodes = nodes as usize;
    if version >= 13 {
        expect(t.transforms.is_empty() && t.v13.len() == nodes, || {
            format!("{}: v13 needs one track per node ({nodes}), {} given", at(), t.v13.len())
        })?;
        if let Some(n) = t.v13.iter().position(|track| track.keys.len() != keys) {
            return Err(unsupported(format!("{}.tracks.v13[{n}]: keys for {keys} keyframes expected", at())));
        }
    } else {
        expect(t.v13.is_empty() && t.transforms.len() == nodes * keys, || {
            format!("{}: {} transforms for {nodes} nodes × {keys} keys (and no v13 tracks)", at(), t.transforms.len())
        })?;
    }
    Ok(())
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

/// A v6 file can be written and reads back as itself.
pub(crate) fn v6_write(file: &V6File) -> Result<(), WriteError> {
    expect(file.header.file_token.0 == FILE_TOKEN, || "Header.file_token must be the v6 token".into())?;
    string(|| "Header.command_string".into(), &file.header.command_string)?;
    v6_order(file)?;
    let g = &file.geometry;
    expect(!g.vertex_start_num.is_empty(), || "Geometry.vertex_start_num needs at least one entry".into())?;
    fits_u32(|| "Geometry.triangles".into(), g.triangles.len())?;
    fits_u32(|| "Geometry.vertices".into(), g.vertices.len())?;
    let (vertices, nodes) = (g.vertices.len(), file.nodes.nodes.len());
    if let Some((t, _, _)) = bad_triangle(g) {
        return Err(unsupported(format!("Geometry.triangles[{t}]: vertex index ≥ {vertices}")));
    }
    if let Some((v, _)) = bad_vertex_node(g, nodes) {
        return Err(unsupported(format!("Geometry.vertices[{v}]: node index ≥ {nodes}")));
    }
    expect(nodes > 0, || "Nodes: a v6 model needs at least one node".into())?;
    let mut pending: u64 = 1;
    for (i, node) in file.nodes.nodes.iter().enumerate() {
        string(|| format!("Nodes.nodes[{i}].name"), &node.name)?;
        expect(pending > 0, || format!("Nodes.nodes[{i}] lies outside the tree the child counts describe"))?;
        pending = pending - 1 + u64::from(node.num_children);
    }
    expect(pending == 0, || "Nodes: the child counts announce more nodes than there are".into())?;
    if let Some((i, j, _)) = bad_md_vertex(&file.nodes, vertices) {
        return Err(unsupported(format!("Nodes.nodes[{i}].md_vertices[{j}]: vertex index ≥ {vertices}")));
    }
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
        let known = <V6SectionId as crate::file::sections::SectionKind>::from_name(&u.name).is_some();
        expect(!known && u.name != b"Header", || format!("unknown[{i}] is named like a known section"))?;
    }
    Ok(())
}

fn v6_order(file: &V6File) -> Result<(), WriteError> {
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
