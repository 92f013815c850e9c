//! Cross-references to nodes, checked once the node tree (which comes after the pieces) is read:
//! every node a render object, used-node list or OBB names must exist, and matrix-palette bone
//! indices must name a palette slot. Each failure names the field path and its byte offset. Used
//! by the reader (with the offsets it recorded) and by the writer (which refuses what the reader
//! would refuse); it lives in the file layer because the writer's own check uses it.
//!
//! Checked where they are read instead: socket nodes and weight-set lengths (after the tree),
//! indices below the vertex count, bone-set tiling and duplicate entries (inside the object).

use relic_core::ReadError;

use super::{LtbFile, Obb, RenderObject};

/// Byte offsets of fields inside a render object, from the start of its type field.
mod at {
    /// Rigid `Bone`: type, size, 4 counts, 4 flags.
    pub(super) const RIGID_BONE: u64 = 8 + 16 + 16;
    /// Vertex-animated `AnimNode`: type, size, 5 counts, 4 flags.
    pub(super) const VA_ANIM_NODE: u64 = 8 + 20 + 16;
    /// Matrix-palette re-index list: type, size, 4 counts, bool, 4 flags, bool, min/max, count.
    pub(super) const REINDEX: u64 = 8 + 16 + 1 + 16 + 1 + 8 + 4;
}

/// Checks every node reference against the node count.
pub(crate) fn node_references(file: &LtbFile, offsets: &[Vec<(u64, u64)>]) -> Result<(), ReadError> {
    let n = file.nodes.len();
    let bad = |v: u32| v as usize >= n;
    let oops = |offset: u64, path: String, what: &str, v: u32| {
        Err(ReadError::invalid(offset, path, format!("{what} {v} ≥ node count {n}")))
    };
    let obb_start = 24 + 60 + 2 + file.header.command_string.0.len() as u64 + 4 + 4;
    let obb_size = Obb::size(file.header.version) as u64;
    for (i, obb) in file.header.obbs.iter().enumerate() {
        if bad(obb.node) {
            return oops(obb_start + obb_size * i as u64 + 60, format!("header.obbs[{i}].node"), "node", obb.node);
        }
    }
    for (p, piece) in file.pieces.iter().enumerate() {
        for (l, lod) in piece.lods.iter().enumerate() {
            // The reader's offsets have a span per piece and LOD; the writer's check passes none, and
            // then an offset 0 only places the message (the path names the field).
            let (start, end) = offsets.get(p).and_then(|o| o.get(l)).copied().unwrap_or_default();
            let path = |field: &str| format!("pieces[{p}].lods[{l}].{field}");
            if let Some((j, &u)) = lod.used_nodes.iter().enumerate().find(|(_, u)| bad(u32::from(**u))) {
                return oops(end + 1 + j as u64, path(&format!("used_nodes[{j}]")), "node", u32::from(u));
            }
            match &lod.object {
                RenderObject::Rigid(m) if bad(m.bone) => {
                    return oops(start + at::RIGID_BONE, path("object.bone"), "node", m.bone);
                }
                RenderObject::VertexAnimated(m) => {
                    if bad(m.anim_node) {
                        return oops(start + at::VA_ANIM_NODE, path("object.anim_node"), "node", m.anim_node);
                    }
                    if bad(m.bone_effector) {
                        let offset = start + at::VA_ANIM_NODE + 4;
                        return oops(offset, path("object.bone_effector"), "node", m.bone_effector);
                    }
                }
                RenderObject::Skeletal(m) => {
                    let sets_at = end.saturating_sub(12 * m.bone_sets.len() as u64);
                    for (i, set) in m.bone_sets.iter().enumerate() {
                        if let Some(b) = set.nodes().find(|&b| bad(u32::from(b))) {
                            let offset = sets_at + 12 * i as u64 + 4;
                            return oops(offset, path(&format!("object.bone_sets[{i}].bones")), "node", u32::from(b));
                        }
                    }
                    let reindex = m.palette.as_ref().and_then(|p| p.reindex.as_ref());
                    if let Some((i, &r)) = reindex.iter().flat_map(|r| r.iter().enumerate()).find(|(_, r)| bad(**r)) {
                        return oops(
                            start + at::REINDEX + 4 * i as u64,
                            path(&format!("object.palette.reindex[{i}]")),
                            "node",
                            r,
                        );
                    }
                    if m.matrix_palette != 0 {
                        let slots = reindex.map_or(n, Vec::len);
                        let indices = m.streams.iter().flat_map(|s| &s.bone_indices).flatten();
                        if let Some(&b) = indices.clone().find(|&&b| usize::from(b) >= slots) {
                            let what = if reindex.is_some() { "palette slot" } else { "node" };
                            let message = format!("bone index {b} names no {what} (there are {slots})");
                            return Err(ReadError::invalid(start, path("object.streams.bone_indices"), message));
                        }
                    }
                }
                _ => {}
            }
        }
    }
    Ok(())
}
