//! The node tree and the weight sets (ltb.md §7).

use binrw::{BinRead, BinResult, binrw};
use relic_core::binary::{LenString, Source, in_element, pod_vec, write_pod_field};

/// One node, as stored in the depth-first tree: its children follow it.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// Node name (`Scene Root`, `M-bone Pelvis`).
    pub name: LenString,
    /// Position in depth-first order (equal to it in every known file).
    pub index: u16,
    /// Bit 0: removable (tool only); bit 1: rotation only (animations' translations ignored).
    pub flags: u8,
    /// Global (model-space) bind transform, row-major `m[row][col]`, translation in 3, 7, 11.
    pub matrix: [f32; 16],
    /// Children (they follow, each a whole subtree).
    pub child_count: u32,
}

/// A named per-node blend weight table for layered animation (`Upper`, `Lower`, `BaseTracker`).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq)]
pub struct WeightSet {
    /// Name.
    pub name: LenString,
    #[br(temp)]
    #[bw(calc = weights.len() as u32)]
    count: u32,
    /// One weight per node (the engine refuses another count).
    #[br(parse_with = pod_vec, args(u64::from(count),))]
    #[bw(write_with = write_pod_field)]
    pub weights: Vec<f32>,
}

/// Reads the node tree: the root and, depth first, every subtree its child counts announce. A
/// loop, not recursion (a deep chain must not overflow the stack); every node read consumes at
/// least 73 bytes (an empty name), so the list is bounded by the input.
pub(crate) fn read_node_tree(s: &mut Source<'_>) -> BinResult<Vec<Node>> {
    let mut nodes = Vec::new();
    // Children still expected, summed over the open subtrees.
    let mut expected: u64 = 1;
    while expected > 0 {
        let node = Node::read_le(s).map_err(|e| in_element(e, nodes.len()))?;
        expected = expected - 1 + u64::from(node.child_count);
        nodes.push(node);
    }
    Ok(nodes)
}
