//! Bones (spec §2.2): the rest skeleton, root first, parents before children.

use binrw::binrw;

/// Size of a bone record.
pub const BONE_SIZE: u64 = 66;

/// One bone, 66 bytes.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NodBone {
    /// Rest offset of the bone from its parent, in the parent's frame (the root: its model-space
    /// position); see [`crate::options::RestTranslateSpace`].
    pub rest_translate: [f32; 3],
    /// Inverse of the bone's rest transform in model space ("Matrix34"), 12 floats in the layout of
    /// [`crate::options::MatrixLayout`].
    pub rest_matrix_inverse: [f32; 12],
    /// Next bone with the same parent, −1 for the last.
    pub sibling: i16,
    /// First child, −1 for none.
    pub child: i16,
    /// Parent, −1 only for bone 0 (the root).
    pub parent: i16,
}
