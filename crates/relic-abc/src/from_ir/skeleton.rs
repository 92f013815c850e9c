//! The file's node order: the model's bones depth first under one root (relic-lithtech's
//! [`DepthFirst`], the order LTB writes too), with the bind matrices the stored weights were made
//! with.

use relic_core::Loss;
use relic_core::math::Mat4;
use relic_core::model::Model;
use relic_lithtech::tree::DepthFirst;

/// The file's nodes: the model's bones in depth-first order under one root.
#[derive(Debug, Clone)]
pub(crate) struct Skeleton {
    /// The node list: per node its bone, parent, child count and model-space bind matrix.
    pub tree: DepthFirst,
    /// Per node: the bind matrix the stored weights were made with (model frame): the stored
    /// node matrix when the extras have it (`v12::snap_binds`), else `tree.binds`.
    pub original: Vec<Mat4>,
}

impl Skeleton {
    /// Orders the bones depth first (children in bone order). Several roots, or no bone at all
    /// when `need_root`, get a root node added above them (reported).
    pub(crate) fn new(model: &Model, need_root: bool, losses: &mut Vec<Loss>) -> Self {
        let tree = DepthFirst::new(model, need_root, losses);
        let original = tree.binds.clone();
        Skeleton { tree, original }
    }
}
