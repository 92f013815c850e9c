//! Node trees as LithTech stores them: every node once, depth first (pre-order), each with the
//! number of children that follow it (ABC v9–v13 `Nodes`, LTB §7.1). Both directions: the parents
//! of a stored list ([`depth_first_parents`], a loop, never recursion, so that a deep chain cannot
//! overflow the stack), and a model's bones in that order ([`DepthFirst`]).

use relic_core::Loss;
use relic_core::math::{IDENTITY, Mat4};
use relic_core::model::{Bone, Model};

/// The parents of a depth-first node list given each node's child count (a node's parent is the
/// last node before it that still expects children; several roots are allowed), and the first
/// node still expecting children at the end (`None` for a complete tree).
pub fn depth_first_parents(child_counts: impl IntoIterator<Item = u32>) -> (Vec<Option<usize>>, Option<usize>) {
    let mut open: Vec<(usize, u64)> = Vec::new();
    let mut parents = Vec::new();
    for (i, children) in child_counts.into_iter().enumerate() {
        while open.last().is_some_and(|&(_, left)| left == 0) {
            open.pop();
        }
        let parent = open.last_mut().map(|(p, left)| {
            *left -= 1;
            *p
        });
        parents.push(parent);
        open.push((i, u64::from(children)));
    }
    let unfinished = open.iter().find(|&&(_, left)| left > 0).map(|&(i, _)| i);
    (parents, unfinished)
}

/// A model's bones as a LithTech node list: depth first under one root, children in bone order.
#[derive(Debug, Clone, PartialEq)]
pub struct DepthFirst {
    /// Per node: the model bone, or `None` for a root this order added.
    pub nodes: Vec<Option<usize>>,
    /// Per model bone: its node.
    pub node_of: Vec<u32>,
    /// Per node: its parent node.
    pub parents: Vec<Option<usize>>,
    /// Per node: its number of children.
    pub child_counts: Vec<u32>,
    /// Per node: the model-space bind matrix (model frame; identity for an added root).
    pub binds: Vec<Mat4>,
    /// True if the nodes are exactly the model's bones in their order.
    pub identity: bool,
}

impl DepthFirst {
    /// Orders the bones depth first. Several roots, or no bone at all when `need_root` (a file
    /// whose meshes need a node), get a root node `root` added above them (reported).
    pub fn new(model: &Model, need_root: bool, losses: &mut Vec<Loss>) -> Self {
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
            // `bone` is a root or a child, both indices of `bones` (as `children`): never the default.
            let kids = children.get(bone).map(Vec::as_slice).unwrap_or_default();
            stack.extend(kids.iter().rev().map(|&c| (c, Some(node))));
        }
        let mut child_counts = vec![0u32; nodes.len()];
        for p in parents.iter().flatten() {
            if let Some(c) = child_counts.get_mut(*p) {
                *c += 1;
            }
        }
        let binds = nodes.iter().map(|b| b.and_then(|b| bones.get(b)).map_or(IDENTITY, |b| b.bind_matrix)).collect();
        let identity = !add_root && nodes.iter().enumerate().all(|(i, b)| *b == Some(i));
        DepthFirst { nodes, node_of, parents, child_counts, binds, identity }
    }

    /// The model bone of a node.
    pub fn bone<'m>(&self, model: &'m Model, node: usize) -> Option<&'m Bone> {
        self.nodes.get(node).copied().flatten().and_then(|b| model.bones.get(b))
    }

    /// The node of a model bone (0 if out of range).
    pub fn node(&self, bone: usize) -> u32 {
        // The writers ask for the bones a validated model's influences and attachments name, all in
        // range: the 0 is never taken there.
        self.node_of.get(bone).copied().unwrap_or(0)
    }

    /// Node name: the bone's, or `root` for an added root.
    pub fn name(&self, model: &Model, node: usize) -> String {
        self.bone(model, node).map_or_else(|| "root".to_string(), |b| b.name.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_first_child_counts_give_parents() {
        // root(2) → a(1) → b(0); root → c(0)
        assert_eq!(depth_first_parents([2, 1, 0, 0]), (vec![None, Some(0), Some(1), Some(0)], None));
        assert_eq!(depth_first_parents([1, 0, 0]), (vec![None, Some(0), None], None));
        assert_eq!(depth_first_parents([1, 3, 0]).1, Some(1));
        assert_eq!(depth_first_parents([u32::MAX]).1, Some(0));
        assert_eq!(depth_first_parents([]), (vec![], None));
    }

    #[test]
    fn bones_are_ordered_depth_first_under_one_root() {
        let bone = |name: &str, parent| Bone { name: name.into(), parent, ..Bone::default() };
        // Bones in the order a, b (child of a), c (root), d (child of a).
        let model = Model {
            bones: vec![bone("a", None), bone("b", Some(0)), bone("c", None), bone("d", Some(0))],
            ..Model::default()
        };
        let mut losses = Vec::new();
        let order = DepthFirst::new(&model, true, &mut losses);
        assert_eq!(order.nodes, vec![None, Some(0), Some(1), Some(3), Some(2)]);
        assert_eq!(order.child_counts, vec![2, 2, 0, 0, 0]);
        assert_eq!(order.node(2), 4);
        assert_eq!(losses.len(), 1);
        assert!(!order.identity);
        let (parents, open) = depth_first_parents(order.child_counts.iter().copied());
        assert_eq!((parents, open), (order.parents.clone(), None));
        let single = Model { bones: vec![bone("a", None), bone("b", Some(0))], ..Model::default() };
        assert!(DepthFirst::new(&single, true, &mut losses).identity);
    }
}
