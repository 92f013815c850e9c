//! The v6 `Nodes` section (abc.md §3.3): a depth-first tree with no node count; nodes are read
//! until every announced child was read.

use binrw::{BinRead, BinResult, binrw};
use relic_core::binary::{LenString, check_count, pod_vec};

use crate::file::common::{at_index, pods};

/// `Nodes` section body.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq)]
pub struct V6Nodes {
    /// The nodes in depth-first order; each node's children follow it.
    #[br(parse_with = read_tree)]
    pub nodes: Vec<V6Node>,
}

/// One node.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq)]
pub struct V6Node {
    /// Node-local box of this node's own vertices (zeros without vertices).
    pub bounds_min: [f32; 3],
    /// See `bounds_min`.
    pub bounds_max: [f32; 3],
    /// Node name (the games look nodes up by name).
    pub name: LenString,
    /// Depth-first index (equal to the list position in every known file).
    pub transformation_index: u16,
    /// 1 null, 2 has triangles, 4 mesh deformation; 8/16/32/64 env-map/env-map-only/scroll U/V.
    pub flags: u8,
    #[br(temp)]
    #[bw(calc = md_vertices.len() as u32)]
    num_md_verts: u32,
    /// Vertices with per-keyframe positions ("mesh deformation"), indices into the geometry.
    #[br(parse_with = pod_vec, args(u64::from(num_md_verts),))]
    #[bw(write_with = pods)]
    pub md_vertices: Vec<u16>,
    /// Number of children (they follow depth first).
    pub num_children: u32,
}

impl V6Node {
    /// Bytes before `md_vertices`.
    pub(crate) fn md_at(&self) -> u64 {
        24 + 2 + self.name.0.len() as u64 + 2 + 1 + 4
    }

    /// Bytes of the record.
    pub(crate) fn size(&self) -> usize {
        self.md_at() as usize + 2 * self.md_vertices.len() + 4
    }
}

/// The nodes of a depth-first tree: a running count of children still to read (start 1, −1 per
/// node, + its children) ends the list at 0.
#[binrw::parser(reader, endian)]
fn read_tree() -> BinResult<Vec<V6Node>> {
    let mut nodes = Vec::new();
    let mut pending: u64 = 1;
    while pending > 0 {
        let i = nodes.len();
        check_count(reader, 1, 37).map_err(|e| at_index(e, i))?;
        let node = V6Node::read_options(reader, endian, ()).map_err(|e| at_index(e, i))?;
        pending = pending - 1 + u64::from(node.num_children);
        nodes.push(node);
    }
    Ok(nodes)
}

impl V6Nodes {
    /// Each node's mesh-deformation vertex count, in node order (what the Animation section's
    /// per-node blocks are sized by).
    pub(crate) fn md_counts(&self) -> Vec<u32> {
        self.nodes.iter().map(|n| n.md_vertices.len() as u32).collect()
    }

    /// Each node's parent, `None` for the root.
    pub(crate) fn parents(&self) -> Vec<Option<usize>> {
        crate::file::nodes::depth_first_parents(self.nodes.iter().map(|n| n.num_children)).0
    }

    /// Bytes of the body as written.
    pub(crate) fn size(&self) -> usize {
        self.nodes.iter().map(V6Node::size).sum()
    }
}
