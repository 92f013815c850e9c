//! The node hierarchy: parents, depth-first order, model-space matrices.

use std::collections::HashMap;

use gltf_json as json;
use json::Root;
use relic_core::math::{self, Mat4};
use relic_core::model::Transform;
use relic_core::validate::UNIT_TOLERANCE;

use crate::GltfError;

use super::Importer;

thread_local! {
    /// Steps the hierarchy walks of import took on this thread (see [`hierarchy_steps`]).
    static STEPS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// One step of a hierarchy walk: from a node to a child or its parent.
pub(super) fn step() {
    STEPS.with(|s| s.set(s.get().wrapping_add(1)));
}

/// Test support: how many steps from a node to a child or parent the hierarchy walks of
/// [`import`](super::import) have taken on this thread so far. A test asserts this count where it
/// once asserted a time: the walks are linear in the number of nodes (each shares its answer with
/// the nodes below), and a walk to the root from every node would be quadratic.
#[doc(hidden)]
pub fn hierarchy_steps() -> u64 {
    STEPS.with(std::cell::Cell::get)
}

/// The node hierarchy: parent of every node, and the scene's nodes in depth-first order.
pub(super) struct Tree {
    pub(super) parent: Vec<Option<usize>>,
    pub(super) order: Vec<usize>,
}

pub(super) fn node_local(n: &json::Node) -> Transform {
    if let Some(m) = n.matrix {
        let (translation, rotation, scale) = math::decompose(&m);
        return Transform { translation, rotation, scale };
    }
    Transform {
        translation: n.translation.unwrap_or([0.0; 3]),
        rotation: n.rotation.map_or([0.0, 0.0, 0.0, 1.0], |q| unit(q.0)),
        scale: n.scale.unwrap_or([1.0; 3]),
    }
}

pub(super) fn node_matrix(n: &json::Node) -> Mat4 {
    n.matrix.unwrap_or_else(|| node_local(n).to_matrix())
}

/// A rotation made unit where it is further from unit than the model allows (zero: identity).
pub(super) fn unit(q: [f32; 4]) -> [f32; 4] {
    let len = math::quat_norm(q);
    if (len - 1.0).abs() <= UNIT_TOLERANCE {
        q
    } else if len > 0.0 && len.is_finite() {
        q.map(|c| c / len)
    } else {
        [0.0, 0.0, 0.0, 1.0]
    }
}

impl Importer<'_> {
    /// Parents of every node (refusing a node with two parents or a cycle) and the scene's nodes
    /// in depth-first order (all parentless nodes when there is no scene).
    pub(super) fn tree(&self) -> Result<Tree, GltfError> {
        let nodes = &self.root.nodes;
        let mut parent: Vec<Option<usize>> = vec![None; nodes.len()];
        for (p, n) in nodes.iter().enumerate() {
            for c in n.children.iter().flatten() {
                step();
                let slot = parent
                    .get_mut(c.value())
                    .ok_or_else(|| GltfError::invalid(format!("nodes[{p}]"), "child out of range"))?;
                if slot.is_some() || c.value() == p {
                    return Err(GltfError::invalid(
                        format!("nodes[{}]", c.value()),
                        "has more than one parent: the node hierarchy is not a tree",
                    ));
                }
                *slot = Some(p);
            }
        }
        // With one parent each, a node is in (or under) a cycle exactly when no parentless node
        // reaches it: one pass from the roots instead of a walk to the root from every node.
        let mut reached = vec![false; nodes.len()];
        let mut stack: Vec<usize> = (0..nodes.len()).filter(|&n| parent.get(n) == Some(&None)).collect();
        for &n in &stack {
            if let Some(r) = reached.get_mut(n) {
                *r = true;
            }
        }
        while let Some(n) = stack.pop() {
            for c in nodes.get(n).and_then(|node| node.children.as_ref()).into_iter().flatten() {
                step();
                if let Some(r) = reached.get_mut(c.value())
                    && !std::mem::replace(r, true)
                {
                    stack.push(c.value());
                }
            }
        }
        if let Some(start) = reached.iter().position(|r| !r) {
            // Up from it until a node repeats: that node is on the cycle.
            let mut on_path = vec![false; nodes.len()];
            let mut at = start;
            while let Some(seen) = on_path.get_mut(at)
                && !std::mem::replace(seen, true)
            {
                step();
                at = parent.get(at).copied().flatten().unwrap_or(at);
            }
            return Err(GltfError::invalid(
                format!("nodes[{at}]"),
                "is its own ancestor: the node hierarchy has a cycle",
            ));
        }
        let roots: Vec<usize> = match self.scene_index().and_then(|s| self.root.scenes.get(s)) {
            Some(scene) => scene.nodes.iter().map(|n| n.value()).filter(|&n| parent.get(n) == Some(&None)).collect(),
            None => (0..nodes.len()).filter(|&n| parent.get(n) == Some(&None)).collect(),
        };
        let mut order = Vec::with_capacity(nodes.len());
        let mut seen = vec![false; nodes.len()];
        let mut stack: Vec<usize> = roots.into_iter().rev().collect();
        while let Some(n) = stack.pop() {
            step();
            if std::mem::replace(seen.get_mut(n).unwrap_or(&mut true), true) {
                continue;
            }
            order.push(n);
            if let Some(node) = nodes.get(n) {
                stack.extend(node.children.iter().flatten().map(|c| c.value()).rev());
            }
        }
        Ok(Tree { parent, order })
    }
}

/// For every node, the nearest node at or above it (itself, its parent, …) with `mark` set: one
/// pass, each node's answer shared with the nodes below it (every node of the walk up to a marked
/// node or a root has the same answer). `parent` must have no cycle.
pub(super) fn nearest_marked(parent: &[Option<usize>], mark: &[bool]) -> Vec<Option<usize>> {
    let mut memo: Vec<Option<Option<usize>>> = vec![None; parent.len()];
    let mut chain = Vec::new();
    for start in 0..parent.len() {
        let mut at = start;
        let found = loop {
            step();
            if let Some(known) = memo.get(at).copied().flatten() {
                break known;
            }
            chain.push(at);
            if mark.get(at).copied().unwrap_or(false) {
                break Some(at);
            }
            match parent.get(at).copied().flatten() {
                // More steps than nodes: a cycle (refused before; never loop).
                Some(p) if chain.len() <= parent.len() => at = p,
                _ => break None,
            }
        };
        for n in chain.drain(..) {
            if let Some(slot) = memo.get_mut(n) {
                *slot = Some(found);
            }
        }
    }
    memo.into_iter().map(Option::flatten).collect()
}

/// Global matrices of nodes, each computed once from its parent's (only for the nodes asked for
/// and their ancestors).
pub(super) struct Globals<'a> {
    pub(super) root: &'a Root,
    pub(super) parent: &'a [Option<usize>],
    pub(super) memo: HashMap<usize, Mat4>,
}

impl Globals<'_> {
    pub(super) fn of(&mut self, n: usize) -> Mat4 {
        // Up to the first node already known (or the root), then down multiplying.
        let mut chain = Vec::new();
        let mut at = Some(n);
        let mut global = math::IDENTITY;
        while let Some(x) = at {
            step();
            if let Some(known) = self.memo.get(&x) {
                global = *known;
                break;
            }
            chain.push(x);
            at = self.parent.get(x).copied().flatten().filter(|_| chain.len() <= self.parent.len());
        }
        for &x in chain.iter().rev() {
            if let Some(node) = self.root.nodes.get(x) {
                global = math::mul(&global, &node_matrix(node));
            }
            self.memo.insert(x, global);
        }
        global
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    pub(super) fn nearest_marked_is_the_node_itself_or_its_closest_marked_ancestor() {
        // 0 ← 1 ← 2 ← 3 ← 4, and 5 under 1.
        let parent = [None, Some(0), Some(1), Some(2), Some(3), Some(1)];
        assert_eq!(nearest_marked(&parent, &[true; 6]), [Some(0), Some(1), Some(2), Some(3), Some(4), Some(5)]);
        let mark = [false, true, false, false, true, false];
        assert_eq!(nearest_marked(&parent, &mark), [None, Some(1), Some(1), Some(1), Some(4), Some(1)]);
        assert_eq!(nearest_marked(&parent, &[false; 6]), [None; 6]);
    }
}
