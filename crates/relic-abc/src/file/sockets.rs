//! The v9–v13 `Sockets` and `AnimBindings` sections (abc.md §4.6).

use binrw::binrw;
use relic_core::binary::{LenString, counted};

/// `Sockets` section body.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq)]
pub struct Sockets {
    #[br(temp)]
    #[bw(calc = sockets.len() as u32)]
    count: u32,
    /// The sockets.
    #[br(parse_with = counted, args(u64::from(count), 34))]
    pub sockets: Vec<Socket>,
}

/// A named attachment point on a node.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq)]
pub struct Socket {
    /// The node it is attached to.
    pub node_index: u32,
    /// Socket name (`RightHand`, `Head`, …).
    pub name: LenString,
    /// Rotation relative to the node, `[x, y, z, w]` (before the position in the file).
    pub rotation: [f32; 4],
    /// Position relative to the node.
    pub position: [f32; 3],
}

impl Socket {
    /// Bytes of the record.
    pub(crate) fn size(&self) -> usize {
        4 + 2 + self.name.0.len() + 16 + 12
    }
}

/// `AnimBindings` section body: one group per child model, including this file.
#[binrw]
#[brw(little)]
#[br(import(group_count: u32))]
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AnimBindings {
    /// Group `i` lists child model `i`'s animations (group 0: this model's own).
    #[br(parse_with = counted, args(u64::from(group_count), 4))]
    pub groups: Vec<AnimBindingGroup>,
}

/// The animations one child model brings.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize, serde::Deserialize)]
pub struct AnimBindingGroup {
    #[br(temp)]
    #[bw(calc = bindings.len() as u32)]
    count: u32,
    /// One entry per animation of that model, in its order.
    #[br(parse_with = counted, args(u64::from(count), 26))]
    pub bindings: Vec<AnimBinding>,
}

/// How this model uses one animation of a child model.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AnimBinding {
    /// Animation name.
    #[serde(with = "crate::file::common::len_string")]
    pub name: LenString,
    /// Object half-extents for it.
    pub dims: [f32; 3],
    /// Offset this model applies to it.
    pub translation: [f32; 3],
}
