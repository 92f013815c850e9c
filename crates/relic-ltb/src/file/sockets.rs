//! Sockets and animation bindings (ltb.md §10, §11).

use binrw::binrw;
use relic_core::binary::{LenString, counted};

/// A named attachment point on a node.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq)]
pub struct Socket {
    /// The node it is attached to (below the node count, else the engine refuses the file).
    pub node: u32,
    /// Socket name (`righthand-weapo`, `Headset`; truncated names are kept as they are).
    pub name: LenString,
    /// Rotation relative to the node, `[x, y, z, w]` (before the position in the file).
    pub rotation: [f32; 4],
    /// Position relative to the node.
    pub position: [f32; 3],
    /// Scale (new since ABC; 1, 1, 1 in every known file).
    pub scale: [f32; 3],
}

/// The animations of one child model as this model uses them (group 0: this model's own).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq, Default)]
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
#[derive(Debug, Clone, PartialEq)]
pub struct AnimBinding {
    /// Animation name.
    pub name: LenString,
    /// Object dimensions for it.
    pub dims: [f32; 3],
    /// Offset this model applies to it.
    pub translation: [f32; 3],
}
