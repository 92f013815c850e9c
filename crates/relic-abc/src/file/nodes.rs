//! The v9–v13 `Nodes` section (abc.md §4.3): the flat depth-first node list, then the weight sets.

use binrw::binrw;
use relic_core::binary::{LenString, counted, pod_vec};

use crate::file::common::pods;

/// `Nodes` section body.
#[binrw]
#[brw(little)]
#[br(import(node_count: u32))]
#[derive(Debug, Clone, PartialEq)]
pub struct Nodes {
    /// `Header::node_count` nodes in depth-first order; each node's children follow it.
    #[br(parse_with = counted, args(u64::from(node_count), 73))]
    pub nodes: Vec<Node>,
    #[br(temp)]
    #[bw(calc = weight_sets.len() as u32)]
    weight_set_count: u32,
    /// Per-node blend weights for animation layering (`Upper`, `Lower`, `Blink`, …).
    #[br(parse_with = counted, args(u64::from(weight_set_count), 6))]
    pub weight_sets: Vec<WeightSet>,
}

/// One node (bone).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// Node name.
    pub name: LenString,
    /// Position in the list (equal to it in every known file).
    pub index: u16,
    /// Bit 0: removable (set on the root); bit 1: rotation only (take only rotation from animations).
    pub flags: u8,
    /// Global (model-space) bind transform, row-major `m[row][col]`, translation in 3, 7, 11.
    pub matrix: [f32; 16],
    /// Number of children (they follow in depth-first order).
    pub child_count: u32,
}

impl Node {
    /// Bytes of the record.
    pub(crate) fn size(&self) -> usize {
        2 + self.name.0.len() + 2 + 1 + 64 + 4
    }
}

/// A named per-node blend weight table.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct WeightSet {
    /// Name (`Upper`, `Morph12`, …).
    #[serde(with = "crate::file::common::len_string")]
    pub name: LenString,
    #[br(temp)]
    #[bw(calc = weights.len() as u32)]
    node_count: u32,
    /// One weight per node.
    #[br(parse_with = pod_vec, args(u64::from(node_count),))]
    #[bw(write_with = pods)]
    #[serde(with = "relic_core::packed")]
    pub weights: Vec<f32>,
}

impl WeightSet {
    /// Bytes of the record.
    pub(crate) fn size(&self) -> usize {
        2 + self.name.0.len() + 4 + 4 * self.weights.len()
    }
}

/// The parents of a depth-first node list (the one walk the v6 and v9–v13 node lists share, and
/// LTB's): relic-lithtech's.
pub(crate) use relic_lithtech::tree::depth_first_parents;
