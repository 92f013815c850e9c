//! The file's node order: the model's bones depth first under one root.

use relic_core::Loss;
use relic_core::math::{IDENTITY, Mat4};
use relic_core::model::{Bone, Model};

/// The file's nodes: the model's bones in depth-first order under one root.
#[derive(Debug, Clone)]
pub(crate) struct Skeleton {
    /// Per node: the model bone, or `None` for a root this writer added.
    pub nodes: Vec<Option<usize>>,
    /// Per model bone: its node.
    pub node_of: Vec<u32>,
    /// Per node: its parent node.
    pub parents: Vec<Option<usize>>,
    /// Per node: its number of children.
    pub child_counts: Vec<u32>,
    /// Per node: the model-space bind matrix (model frame).
    pub binds: Vec<Mat4>,
    /// Per node: the bind matrix the stored weights were made with (model frame): the stored
    /// node matrix when the extras have it (`v12::snap_binds`), else `binds`.
    pub original: Vec<Mat4>,
    /// True if nodes are exactly the model's bones in their order.
    pub identity: bool,
}

impl Skeleton {
    /// Orders the bones depth first (children in bone order). Several roots, or no bone at all
    /// when `need_root`, get a root node added above them.
    pub(crate) fn new(model: &Model, need_root: bool, losses: &mut Vec<Loss>) -> Self {
        let bones = &model.bones;
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); bones.len()];
        let mut roots = Vec::new();
        for (i, b) in bones.iter().enumerate() {
            match b.parent.and_then(|p| children.get_mut(p)) {
                Some(c) => c.push(i),
                None => roots.push(i),
            }
        }
        let add_root = roots.len() > 1 || (roots.is_empty() && need_root);
        if roots.len() > 1 {
            losses.push(Loss::new("bones", format!("{} root bones; added a node \"root\" above them", roots.len())));
        }
        let mut nodes: Vec<Option<usize>> = Vec::with_capacity(bones.len() + 1);
        let mut parents: Vec<Option<usize>> = Vec::with_capacity(bones.len() + 1);
        let mut node_of = vec![0u32; bones.len()];
        if add_root {
            nodes.push(None);
            parents.push(None);
        }
        let mut stack: Vec<(usize, Option<usize>)> = roots.iter().rev().map(|&r| (r, add_root.then_some(0))).collect();
        while let Some((bone, parent)) = stack.pop() {
            let node = nodes.len();
            if let Some(slot) = node_of.get_mut(bone) {
                *slot = node as u32;
            }
            nodes.push(Some(bone));
            parents.push(parent);
            let kids = children.get(bone).into_iter().flatten();
            stack.extend(kids.rev().map(|&c| (c, Some(node))));
        }
        let mut child_counts = vec![0u32; nodes.len()];
        for p in parents.iter().flatten() {
            if let Some(c) = child_counts.get_mut(*p) {
                *c += 1;
            }
        }
        let binds: Vec<Mat4> =
            nodes.iter().map(|b| b.and_then(|b| bones.get(b)).map_or(IDENTITY, |b| b.bind_matrix)).collect();
        let identity = !add_root && nodes.iter().enumerate().all(|(i, b)| *b == Some(i));
        let original = binds.clone();
        Skeleton { nodes, node_of, parents, child_counts, binds, original, identity }
    }

    /// The model bone of a node.
    pub(crate) fn bone<'m>(&self, model: &'m Model, node: usize) -> Option<&'m Bone> {
        self.nodes.get(node).copied().flatten().and_then(|b| model.bones.get(b))
    }

    /// The node of a model bone. A bone past the model's (which a valid model's influences never
    /// name) gets node 0, the root every ABC skeleton has.
    pub(crate) fn node(&self, bone: usize) -> u32 {
        self.node_of.get(bone).copied().unwrap_or(0)
    }

    /// Node name: the bone's, or `root` for an added root.
    pub(crate) fn name(&self, model: &Model, node: usize) -> String {
        self.bone(model, node).map_or_else(|| "root".to_string(), |b| b.name.clone())
    }
}
