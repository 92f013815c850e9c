//! The file layer: one type per record in file order (ltb.md §3–§11), read and written by the same
//! code, every byte kept.
//!
//! | order | what | type |
//! |---|---|---|
//! | 1 | container header (20 bytes) | [`ContainerHeader`] |
//! | 2 | model version, 15 allocation counts, command string, radius, OBBs | [`Header`], [`HeaderCounts`], [`Obb`] |
//! | 3 | pieces, each with its LODs and their render objects | [`Piece`], [`Lod`], [`RenderObject`] |
//! | 4 | node tree, depth first | [`Node`] |
//! | 5 | weight sets | [`WeightSet`] |
//! | 6 | child-model names | `LtbFile::child_models` |
//! | 7 | animations | [`Animation`], [`Track`] |
//! | 8 | sockets | [`Socket`] |
//! | 9 | animation bindings, one group per child model | [`AnimBindingGroup`] |
//!
//! The header counts are kept as stored (they size the engine's memory block and two of them
//! count the source model, which the file no longer has); [`LtbFile::recounted`] gives the ones
//! the data determines. CrossFire's LZMA wrapper is kept in [`LtbFile::wrapper`].

mod animation;
mod header;
mod nodes;
mod pieces;
mod render;
mod sockets;
pub mod streams;
pub(crate) mod validate;

pub use animation::{Animation, Keyframe, PositionKeys, RotationKeys, Track, compression};
pub use header::{ContainerHeader, Header, HeaderCounts, Obb};
pub use nodes::{Node, WeightSet};
pub use pieces::{Lod, Piece};
pub use render::{BoneSet, Palette, RenderObject, RigidMesh, SkeletalMesh, VertexAnimatedMesh, kind};
pub use sockets::{AnimBinding, AnimBindingGroup, Socket};
pub use streams::{Layout, SkinLayout, StrideRule, VertexStream};

use std::collections::HashSet;

use binrw::{BinRead, BinResult};
use relic_core::binary::{
    ByteWriter, LenString, Source, check_count, counted, in_element, in_field, parse, rest_of_file,
};
use relic_core::{ReadError, ReadErrorKind, WriteError};
use relic_lithtech::lzma::Wrapper;

/// Model versions read and written: the engine accepts 23–25, the packer writes 25.
pub const VERSIONS: std::ops::RangeInclusive<u32> = 23..=25;

/// A whole LTB file.
#[derive(Debug, Clone, PartialEq)]
pub struct LtbFile {
    /// CrossFire's LZMA-alone wrapper, if the file had one (with the original bytes, written back
    /// while the payload is unchanged).
    pub wrapper: Option<Wrapper>,
    /// The 20-byte container header.
    pub container: ContainerHeader,
    /// Version, counts, command string, radius, OBBs.
    pub header: Header,
    /// The pieces (none in a geometry-less export).
    pub pieces: Vec<Piece>,
    /// The nodes, depth first (each node's children follow it).
    pub nodes: Vec<Node>,
    /// Per-node blend weights for layered animation.
    pub weight_sets: Vec<WeightSet>,
    /// Child models 1…: the files whose animations this model uses (entry 0, the model itself,
    /// has no record).
    pub child_models: Vec<LenString>,
    /// Own animations.
    pub animations: Vec<Animation>,
    /// Sockets.
    pub sockets: Vec<Socket>,
    /// One group per child model including this one (group 0: the own animations).
    pub anim_bindings: Vec<AnimBindingGroup>,
    /// Bytes after the last binding group (none in any known file), kept.
    pub trailing: Vec<u8>,
}

/// Where each render object starts (its type field) and ends, per piece and LOD: for the error offsets of
/// the cross-reference checks.
pub(crate) type ObjectOffsets = Vec<Vec<(u64, u64)>>;

fn invalid(pos: u64, message: String) -> binrw::Error {
    relic_core::error::custom(pos, ReadErrorKind::Invalid(message))
}

/// Reads an unwrapped payload whose container header and version the caller checked.
pub(crate) fn read_payload(bytes: &[u8]) -> Result<(LtbFile, ObjectOffsets), ReadError> {
    parse(bytes, |s| {
        let container = ContainerHeader::read_le(s).map_err(|e| in_field(e, "container"))?;
        let header = Header::read_le(s).map_err(|e| in_field(e, "header"))?;
        let piece_count = u32::read_le(s).map_err(|e| in_field(e, "piece_count"))?;
        check_count(s, u64::from(piece_count), pieces::MIN_PIECE).map_err(|e| in_field(e, "pieces"))?;
        let mut pieces = Vec::with_capacity(piece_count as usize);
        let mut offsets = Vec::with_capacity(piece_count as usize);
        for i in 0..piece_count as usize {
            let (piece, at) = pieces::read_piece(s).map_err(|e| in_field(in_element(e, i), "pieces"))?;
            pieces.push(piece);
            offsets.push(at);
        }
        let nodes = nodes::read_node_tree(s).map_err(|e| in_field(e, "nodes"))?;
        let weight_sets = read_weight_sets(s, nodes.len()).map_err(|e| in_field(e, "weight_sets"))?;
        let child_models = read_child_models(s)?;
        let animations = read_animations(s, nodes.len()).map_err(|e| in_field(e, "animations"))?;
        let sockets = read_sockets(s, nodes.len()).map_err(|e| in_field(e, "sockets"))?;
        let groups = child_models.len() as u64 + 1;
        let anim_bindings = counted(s, binrw::Endian::Little, (groups, 4)).map_err(|e| in_field(e, "anim_bindings"))?;
        let trailing = rest_of_file(s, binrw::Endian::Little, ())?;
        let file = LtbFile {
            wrapper: None,
            container,
            header,
            pieces,
            nodes,
            weight_sets,
            child_models,
            animations,
            sockets,
            anim_bindings,
            trailing,
        };
        Ok((file, offsets))
    })
}

fn read_weight_sets(s: &mut Source<'_>, nodes: usize) -> BinResult<Vec<WeightSet>> {
    let count = u32::read_le(s)?;
    check_count(s, u64::from(count), 6)?;
    let mut out = Vec::with_capacity(count as usize);
    for i in 0..count as usize {
        let at = s.position();
        let set = WeightSet::read_le(s).map_err(|e| in_element(e, i))?;
        if set.weights.len() != nodes {
            let m = format!("{} weights for {nodes} nodes (the engine refuses the model)", set.weights.len());
            return Err(in_element(in_field(invalid(at + 2 + set.name.0.len() as u64, m), "count"), i));
        }
        out.push(set);
    }
    Ok(out)
}

fn read_child_models(s: &mut Source<'_>) -> BinResult<Vec<LenString>> {
    let at = s.position();
    let count = u32::read_le(s).map_err(|e| in_field(e, "child_model_count"))?;
    if count == 0 {
        let m = "child model count 0: it counts the model itself".to_string();
        return Err(in_field(invalid(at, m), "child_model_count"));
    }
    counted(s, binrw::Endian::Little, (u64::from(count - 1), 2)).map_err(|e| in_field(e, "child_models"))
}

fn read_animations(s: &mut Source<'_>, nodes: usize) -> BinResult<Vec<Animation>> {
    let count = u32::read_le(s)?;
    // dims, empty name, compression, interpolation, key count.
    check_count(s, u64::from(count), 12 + 2 + 12)?;
    let mut out = Vec::with_capacity(count as usize);
    for i in 0..count as usize {
        out.push(animation::read_animation(s, nodes).map_err(|e| in_element(e, i))?);
    }
    Ok(out)
}

fn read_sockets(s: &mut Source<'_>, nodes: usize) -> BinResult<Vec<Socket>> {
    let count = u32::read_le(s)?;
    check_count(s, u64::from(count), 4 + 2 + 40)?;
    let mut out = Vec::with_capacity(count as usize);
    for i in 0..count as usize {
        let at = s.position();
        let socket = Socket::read_le(s).map_err(|e| in_element(e, i))?;
        if socket.node as usize >= nodes {
            let m = format!("node {} ≥ node count {nodes} (the engine refuses the model)", socket.node);
            return Err(in_element(in_field(invalid(at, m), "node"), i));
        }
        out.push(socket);
    }
    Ok(out)
}

/// The first bone set (index and why) that breaks the tiling rules of ltb.md §6.5: the sets
/// cover the vertices and the indices in order, every index of a set names a vertex of the set,
/// and a set lists at most `max_bones_per_tri` nodes.
pub(crate) fn validate_bone_sets(mesh: &SkeletalMesh) -> Option<(usize, String)> {
    let (mut next_vertex, mut next_index) = (0u32, 0u32);
    for (i, set) in mesh.bone_sets.iter().enumerate() {
        let why = if u32::from(set.first_vertex) != next_vertex {
            format!("starts at vertex {}, the set before ends at {next_vertex}", set.first_vertex)
        } else if set.index_end < next_index || set.index_end as usize > mesh.indices.len() {
            format!("index end {} is before {next_index} or past the {} indices", set.index_end, mesh.indices.len())
        } else if set.nodes().count() as u32 > mesh.max_bones_per_tri {
            format!("lists {} nodes, more than max_bones_per_tri {}", set.nodes().count(), mesh.max_bones_per_tri)
        } else {
            let range = u32::from(set.first_vertex)..u32::from(set.first_vertex) + u32::from(set.vertex_count);
            // In range: the branch above refused an end before `next_index` or past the indices.
            let own = mesh.indices.get(next_index as usize..set.index_end as usize).unwrap_or_default();
            match own.iter().find(|&&x| !range.contains(&u32::from(x))) {
                Some(x) => format!("its triangles use vertex {x}, outside its vertices {range:?}"),
                None => {
                    next_vertex = range.end;
                    next_index = set.index_end;
                    continue;
                }
            }
        };
        return Some((i, why));
    }
    let last = mesh.bone_sets.len().saturating_sub(1);
    match mesh.bone_sets.is_empty() {
        false if next_vertex != mesh.vertex_count || next_index as usize != mesh.indices.len() => Some((
            last,
            format!(
                "the sets cover {next_vertex} of {} vertices and {next_index} of {} indices",
                mesh.vertex_count,
                mesh.indices.len()
            ),
        )),
        _ => None,
    }
}

impl LtbFile {
    /// The model version.
    pub fn version(&self) -> u32 {
        self.header.version
    }

    /// The header counts the data determines (ltb.md §4.2), with the source vertex and weight
    /// counts as stored; a file without pieces keeps the stored piece, LOD and triangle counts
    /// (a geometry-less export).
    pub fn recounted(&self) -> HeaderCounts {
        let mut c = self.header.counts;
        c.keyframe_count = self.animations.iter().map(|a| a.keyframes.len() as u32).sum();
        c.animation_count = self.animations.len() as u32;
        c.node_count = self.nodes.len() as u32;
        c.child_model_count = self.child_models.len() as u32 + 1;
        c.socket_count = self.sockets.len() as u32;
        c.weight_set_count = self.weight_sets.len() as u32;
        if !self.pieces.is_empty() {
            let lods = || self.pieces.iter().flat_map(|p| &p.lods);
            c.piece_count = self.pieces.len() as u32;
            c.lod_count = lods().count() as u32;
            c.triangle_count = lods().map(|l| l.object.triangle_count() as u32).sum();
        }
        let (mut anim, mut vertex) = (0usize, 0usize);
        for (a, v) in self.animations.iter().flat_map(|a| &a.tracks).map(Track::data_sizes) {
            anim += a;
            vertex += v;
        }
        (c.anim_data_size, c.vert_anim_data_size) = (anim as u32, vertex as u32);
        (c.string_count, c.string_length_total) = self.strings();
        c
    }

    /// `(StringCount, StringLengthTotal)`: the distinct non-empty strings among the command
    /// string and every node, piece, socket, weight-set, child-model (without its `.ltb`),
    /// animation and keyframe string (ltb.md §4.2).
    fn strings(&self) -> (u32, u32) {
        let mut seen: HashSet<&[u8]> = HashSet::new();
        seen.insert(&self.header.command_string.0);
        seen.extend(self.nodes.iter().map(|n| n.name.0.as_slice()));
        seen.extend(self.pieces.iter().map(|p| p.name.0.as_slice()));
        seen.extend(self.sockets.iter().map(|s| s.name.0.as_slice()));
        seen.extend(self.weight_sets.iter().map(|w| w.name.0.as_slice()));
        for child in &self.child_models {
            let name = child.0.as_slice();
            let stem = match name.len().checked_sub(4).and_then(|at| name.split_at_checked(at)) {
                Some((stem, ext)) if ext.eq_ignore_ascii_case(b".ltb") => stem,
                _ => name,
            };
            seen.insert(stem);
        }
        for a in &self.animations {
            seen.insert(&a.name.0);
            seen.extend(a.keyframes.iter().map(|k| k.command.0.as_slice()));
        }
        seen.remove(&b""[..]);
        (seen.len() as u32, seen.iter().map(|s| s.len() as u32).sum())
    }

    /// Why the file would not read back as itself, if it would not: the first field that breaks
    /// a rule the reader checks.
    pub(crate) fn write_problem(&self) -> Option<String> {
        if !VERSIONS.contains(&self.header.version) {
            return Some(format!("header.version: model version {} is not 23–25", self.header.version));
        }
        if self.header.obbs.iter().any(|o| (o.radius.is_some()) != (self.header.version >= 24)) {
            return Some("header.obbs: the radius is stored exactly from version 24 on".into());
        }
        let n = self.nodes.len();
        let tree = relic_lithtech::tree::depth_first_parents(self.nodes.iter().map(|x| x.child_count));
        if n == 0 || tree.1.is_some() || tree.0.iter().skip(1).any(Option::is_none) {
            return Some("nodes: not one complete tree, depth first".into());
        }
        let problems = self
            .pieces
            .iter()
            .enumerate()
            .find_map(|(i, p)| pieces::write_problem(p).map(|w| format!("pieces[{i}]: {w}")))
            .or_else(|| {
                let bad = self.weight_sets.iter().position(|w| w.weights.len() != n);
                bad.map(|i| format!("weight_sets[{i}]: a weight per node ({n}) is needed"))
            })
            .or_else(|| {
                self.animations.iter().enumerate().find_map(|(i, a)| {
                    animation::write_problem(a, n).map(|w| format!("animations[{i}] {:?}: {w}", a.name))
                })
            })
            .or_else(|| {
                let bad = self.sockets.iter().position(|s| s.node as usize >= n);
                bad.map(|i| format!("sockets[{i}]: node past the node count {n}"))
            });
        if problems.is_some() {
            return problems;
        }
        if self.anim_bindings.len() != self.child_models.len() + 1 {
            return Some(format!(
                "anim_bindings: {} groups for {} child models (the model itself included)",
                self.anim_bindings.len(),
                self.child_models.len() + 1
            ));
        }
        validate::node_references(self, &[]).err().map(|e| e.to_string())
    }
}

/// Writes the payload of a file that [`LtbFile::write_problem`] accepted.
pub(crate) fn write_payload(file: &LtbFile) -> Result<Vec<u8>, WriteError> {
    if let Some(why) = file.write_problem() {
        return Err(WriteError::Unsupported(format!("the LTB would not read back as itself: {why}")));
    }
    let mut w = ByteWriter::new();
    let binrw = |e: binrw::Error| WriteError::from_binrw(&e);
    w.write(&file.container).map_err(binrw)?;
    w.write(&file.header).map_err(binrw)?;
    let mut out = w.into_bytes();
    out.extend_from_slice(&(file.pieces.len() as u32).to_le_bytes());
    for piece in &file.pieces {
        pieces::write_piece(piece, &mut out);
    }
    let mut w = ByteWriter::new();
    for node in &file.nodes {
        w.write(node).map_err(binrw)?;
    }
    w.write(&(file.weight_sets.len() as u32)).map_err(binrw)?;
    for set in &file.weight_sets {
        w.write(set).map_err(binrw)?;
    }
    w.write(&(file.child_models.len() as u32 + 1)).map_err(binrw)?;
    for child in &file.child_models {
        w.write(child).map_err(binrw)?;
    }
    out.extend_from_slice(w.as_bytes());
    out.extend_from_slice(&(file.animations.len() as u32).to_le_bytes());
    for anim in &file.animations {
        animation::write_animation(anim, &mut out);
    }
    let mut w = ByteWriter::new();
    w.write(&(file.sockets.len() as u32)).map_err(binrw)?;
    for socket in &file.sockets {
        w.write(socket).map_err(binrw)?;
    }
    for group in &file.anim_bindings {
        w.write(group).map_err(binrw)?;
    }
    out.extend_from_slice(w.as_bytes());
    out.extend_from_slice(&file.trailing);
    Ok(out)
}
