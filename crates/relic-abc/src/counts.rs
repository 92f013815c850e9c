//! Counts the data determines, recomputed for writing (spec §4.1), and output size estimates.

use std::collections::HashSet;

use crate::v6::V6File;
use crate::v12::{Header, V12File, weight_total};

/// The header as the writer writes it: every count recomputed from the data. A count whose
/// section is absent keeps its stored value (nothing else determines it); so does the LOD count of
/// a model without pieces.
pub fn recount(file: &V12File) -> Header {
    let mut h = file.header.clone();
    if let Some(p) = &file.pieces {
        let lods = || p.pieces.iter().flat_map(|p| &p.lods);
        h.piece_count = p.pieces.len() as u32;
        h.face_count = lods().map(|l| l.faces.len() as u32).sum();
        h.vertex_count = lods().map(|l| l.vertices.len() as u32).sum();
        h.weight_count = weight_total(&p.pieces);
        if let Some(first) = p.pieces.first() {
            h.lod_count = first.lods.len() as u32;
        }
    }
    if let Some(n) = &file.nodes {
        h.node_count = n.nodes.len() as u32;
        h.weight_set_count = n.weight_sets.len() as u32;
    }
    if let Some(c) = &file.child_models {
        h.child_model_count = u32::from(c.self_entry.is_some()) + c.children.len() as u32;
    }
    if let Some(a) = &file.animations {
        h.animation_count = a.animations.len() as u32;
        h.keyframe_count = a.animations.iter().map(|a| a.keyframes.len() as u32).sum();
    }
    if let Some(s) = &file.sockets {
        h.socket_count = s.sockets.len() as u32;
    }
    let (count, total) = strings(file);
    h.string_count = count;
    h.string_length_total = total;
    h
}

/// `(StringCount, StringLengthTotal)`: the distinct non-empty strings among the command string,
/// node names, child-model file names, animation names and keyframe strings (spec §4.1; socket,
/// piece and weight-set names do not count).
pub fn strings(file: &V12File) -> (u32, u32) {
    let mut seen: HashSet<&[u8]> = HashSet::new();
    seen.insert(&file.header.command_string.0);
    if let Some(n) = &file.nodes {
        seen.extend(n.nodes.iter().map(|n| n.name.0.as_slice()));
    }
    if let Some(c) = &file.child_models {
        seen.extend(c.children.iter().map(|c| c.file_name.0.as_slice()));
    }
    if let Some(a) = &file.animations {
        for anim in &a.animations {
            seen.insert(&anim.name.0);
            seen.extend(anim.keyframes.iter().map(|k| k.command.0.as_slice()));
        }
    }
    seen.remove(&b""[..]);
    (seen.len() as u32, seen.iter().map(|s| s.len() as u32).sum())
}

/// Every stored header count paired with its recomputed value, for the "header counts" check.
pub fn header_count_pairs(file: &V12File) -> Vec<(&'static str, u32, u32)> {
    let (s, r) = (&file.header, recount(file));
    vec![
        ("KeyframeCount", s.keyframe_count, r.keyframe_count),
        ("AnimationCount", s.animation_count, r.animation_count),
        ("NodeCount", s.node_count, r.node_count),
        ("PieceCount", s.piece_count, r.piece_count),
        ("ChildModelCount", s.child_model_count, r.child_model_count),
        ("FaceCount", s.face_count, r.face_count),
        ("VertexCount", s.vertex_count, r.vertex_count),
        ("WeightCount", s.weight_count, r.weight_count),
        ("LODCount", s.lod_count, r.lod_count),
        ("SocketCount", s.socket_count, r.socket_count),
        ("WeightSetCount", s.weight_set_count, r.weight_set_count),
        ("StringCount", s.string_count, r.string_count),
        ("StringLengthTotal", s.string_length_total, r.string_length_total),
        ("LODDistanceCount", s.lod_distances.len() as u32, r.lod_count.saturating_sub(1)),
        ("Pieces.WeightCount", file.pieces.as_ref().map_or(r.weight_count, |p| p.weight_count), r.weight_count),
    ]
}

/// A slight over-estimate of the written size of a v9–v13 file, to allocate the output once.
pub fn estimated_size_v12(file: &V12File) -> usize {
    let mut n = 256 + 4 * file.header.lod_distances.len() + file.header.command_string.0.len();
    if let Some(p) = &file.pieces {
        for piece in &p.pieces {
            n += 32 + piece.name.0.len();
            for l in &piece.lods {
                n += 8 + 30 * l.faces.len() + 28 * l.vertices.len() + 20 * l.weights.len();
            }
        }
    }
    if let Some(nodes) = &file.nodes {
        n += 32 + nodes.nodes.iter().map(|n| 75 + n.name.0.len()).sum::<usize>();
        n += nodes.weight_sets.iter().map(|w| 6 + w.name.0.len() + 4 * w.weights.len()).sum::<usize>();
    }
    if let Some(c) = &file.child_models {
        n += 32 + c.self_entry.as_ref().map_or(0, |s| 4 + 28 * s.relations.len());
        n += c.children.iter().map(|c| 6 + c.file_name.0.len() + 28 * c.relations.len()).sum::<usize>();
    }
    if let Some(a) = &file.animations {
        for anim in &a.animations {
            n += 40 + anim.name.0.len() + 36 * anim.tracks.transforms.len() + 4 * anim.tracks.node_prefixes.len();
            n += anim.keyframes.iter().map(|k| 6 + k.command.0.len()).sum::<usize>();
        }
    }
    if let Some(s) = &file.sockets {
        n += 32 + s.sockets.iter().map(|s| 36 + s.name.0.len()).sum::<usize>();
    }
    if let Some(b) = &file.anim_bindings {
        n += 32 + b.groups.iter().flat_map(|g| &g.bindings).map(|b| 28 + b.name.0.len()).sum::<usize>();
    }
    n + file.unknown.iter().map(|u| 8 + u.name.len() + u.body.len()).sum::<usize>()
}

/// A slight over-estimate of the written size of a v6 file.
pub fn estimated_size_v6(file: &V6File) -> usize {
    let g = &file.geometry;
    let mut n = 128 + file.header.command_string.0.len();
    n += 64 + 2 * g.vertex_start_num.len() + 33 * g.triangles.len() + 20 * g.vertices.len();
    n += 32 + file.nodes.nodes.iter().map(|n| 40 + n.name.0.len() + 2 * n.md_vertices.len()).sum::<usize>();
    for a in &file.animations.animations {
        n += 40 + a.name.0.len() + a.keyframes.iter().map(|k| 32 + k.frame_string.0.len()).sum::<usize>();
        n += a.node_anims.iter().map(|t| 24 + 28 * t.keys.len() + 3 * t.vertex_frames.len()).sum::<usize>();
    }
    n += 32 + file.anim_dims.as_ref().map_or(0, |d| 12 * d.dims.len()) + 32;
    n + file.unknown.iter().map(|u| 8 + u.name.len() + u.body.len()).sum::<usize>()
}
