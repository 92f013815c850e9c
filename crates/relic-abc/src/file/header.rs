//! The v9–v13 `Header` section (abc.md §4.1) and the counts the writer recomputes for it.

use std::collections::HashSet;

use binrw::binrw;
use relic_core::binary::{LenString, counted};

use crate::file::V12File;
use crate::file::pieces::weight_total;

/// `Header` section body (abc.md §4.1, rows in file order). The counts are kept as stored; the
/// writer writes the values it recomputes from the data (equal in every real file).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    /// File version: 9, 10, 11, 12 or 13.
    pub version: u32,
    /// The counts of what the sections hold.
    pub counts: HeaderCounts,
    /// v13 only: a word of unknown meaning (abc.md §4.1 row 13).
    #[br(if(version >= 13))]
    pub v13_unknown: Option<u32>,
    /// Distinct non-empty strings among the command string, node names, child-model file names,
    /// animation names and keyframe strings.
    pub string_count: u32,
    /// Σ lengths of those strings.
    pub string_length_total: u32,
    /// Free text for the game (`ShadowEnable;ShadowSizeX 32;…`).
    pub command_string: LenString,
    /// Visibility radius, game units.
    pub internal_radius: f32,
    #[br(temp)]
    #[bw(calc = lod_distances.len() as u32)]
    lod_distance_count: u32,
    /// 60 bytes, all zero in every known file.
    pub padding: [u8; 60],
    /// Camera distance at which LOD i + 1 replaces LOD i (`LODCount − 1` values in every known
    /// file; kept as stored).
    #[br(parse_with = counted, args(u64::from(lod_distance_count), 4))]
    pub lod_distances: Vec<f32>,
}

/// Header rows 2–12: the counts of what the sections hold.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct HeaderCounts {
    /// Σ keyframes of the model's own animations.
    pub keyframe_count: u32,
    /// Own animations (child models' animations not counted).
    pub animation_count: u32,
    /// Nodes (the `Nodes` section has no count of its own).
    pub node_count: u32,
    /// Pieces.
    pub piece_count: u32,
    /// Child models including the self entry.
    pub child_model_count: u32,
    /// Faces over all pieces and all LODs.
    pub face_count: u32,
    /// Vertices over all pieces and all LODs.
    pub vertex_count: u32,
    /// Vertex weights over all pieces and all LODs.
    pub weight_count: u32,
    /// LODs per piece (every piece has exactly this many).
    pub lod_count: u32,
    /// Sockets.
    pub socket_count: u32,
    /// Weight sets.
    pub weight_set_count: u32,
}

impl HeaderCounts {
    /// Each count with its name in the notes, in file order (for the corpus checks).
    #[cfg(feature = "verify")]
    pub(crate) fn named(&self) -> [(&'static str, u32); 11] {
        [
            ("KeyframeCount", self.keyframe_count),
            ("AnimationCount", self.animation_count),
            ("NodeCount", self.node_count),
            ("PieceCount", self.piece_count),
            ("ChildModelCount", self.child_model_count),
            ("FaceCount", self.face_count),
            ("VertexCount", self.vertex_count),
            ("WeightCount", self.weight_count),
            ("LODCount", self.lod_count),
            ("SocketCount", self.socket_count),
            ("WeightSetCount", self.weight_set_count),
        ]
    }
}

impl Header {
    /// Bytes of the body as written.
    pub(crate) fn size(&self) -> usize {
        4 * 12
            + 4 * usize::from(self.v13_unknown.is_some())
            + 8
            + 2
            + self.command_string.0.len()
            + 4
            + 4
            + 60
            + 4 * self.lod_distances.len()
    }
}

impl V12File {
    /// The header as the writer writes it: every count recomputed from the data. A count whose
    /// section is absent keeps its stored value (nothing else determines it); so does the LOD
    /// count of a model without pieces.
    pub(crate) fn recounted_header(&self) -> Header {
        let mut h = self.header.clone();
        if let Some(p) = &self.pieces {
            let lods = || p.pieces.iter().flat_map(|p| &p.lods);
            h.counts.piece_count = p.pieces.len() as u32;
            h.counts.face_count = lods().map(|l| l.faces.len() as u32).sum();
            h.counts.vertex_count = lods().map(|l| l.vertices.len() as u32).sum();
            h.counts.weight_count = weight_total(&p.pieces);
            if let Some(first) = p.pieces.first() {
                h.counts.lod_count = first.lods.len() as u32;
            }
        }
        if let Some(n) = &self.nodes {
            h.counts.node_count = n.nodes.len() as u32;
            h.counts.weight_set_count = n.weight_sets.len() as u32;
        }
        if let Some(c) = &self.child_models {
            h.counts.child_model_count = c.count();
        }
        if let Some(a) = &self.animations {
            h.counts.animation_count = a.animations.len() as u32;
            h.counts.keyframe_count = a.animations.iter().map(|a| a.keyframes.len() as u32).sum();
        }
        if let Some(s) = &self.sockets {
            h.counts.socket_count = s.sockets.len() as u32;
        }
        (h.string_count, h.string_length_total) = self.strings();
        h
    }

    /// `(StringCount, StringLengthTotal)`: the distinct non-empty strings among the command
    /// string, node names, child-model file names, animation names and keyframe strings (abc.md
    /// §4.1; socket, piece and weight-set names do not count).
    fn strings(&self) -> (u32, u32) {
        let mut seen: HashSet<&[u8]> = HashSet::new();
        seen.insert(&self.header.command_string.0);
        if let Some(n) = &self.nodes {
            seen.extend(n.nodes.iter().map(|n| n.name.0.as_slice()));
        }
        if let Some(c) = &self.child_models {
            seen.extend(c.children.iter().map(|c| c.file_name.0.as_slice()));
        }
        if let Some(a) = &self.animations {
            for anim in &a.animations {
                seen.insert(&anim.name.0);
                seen.extend(anim.keyframes.iter().map(|k| k.command.0.as_slice()));
            }
        }
        seen.remove(&b""[..]);
        (seen.len() as u32, seen.iter().map(|s| s.len() as u32).sum())
    }
}

/// The switch distance of LOD `level` (0 for LOD 0). A file may store fewer distances than
/// LODCount − 1 (io_scene_abc writes none, abc.md §6): a LOD without one switches at 0, which is
/// what such a file gives the engine to read; `from_ir` writes the stored list back as it was.
pub(crate) fn lod_distance(stored: &[f32], level: usize) -> f32 {
    level.checked_sub(1).and_then(|l| stored.get(l)).copied().unwrap_or(0.0)
}
