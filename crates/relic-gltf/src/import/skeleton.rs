//! Bones and attachments from nodes.

use gltf_json as json;
use json::accessor::ComponentType;
use relic_core::math::{self, Mat4};
use relic_core::model::{Attachment, Bone, BoneFlags, Transform};

use crate::GltfError;
use crate::extras::{self as ex};

use super::Importer;
use super::tree::{Tree, nearest_marked, node_local};

impl Importer<'_> {
    /// Bones from the skins' joints and their ancestors, parents first. Returns node → bone.
    pub(super) fn bones(&mut self, tree: &Tree, synthetic: Option<usize>) -> Result<Vec<Option<usize>>, GltfError> {
        let nodes = &self.root.nodes;
        let synthetic = synthetic
            .filter(|&s| nodes.get(s).is_some_and(|n| node_local(n) == Transform::IDENTITY && n.mesh.is_none()));
        // Nodes that animations move: an ancestor of joints that moves is a bone even if its rest
        // transform is the identity.
        let mut animated = vec![false; nodes.len()];
        for ch in self.root.animations.iter().flat_map(|a| &a.channels) {
            if let Some(x) = animated.get_mut(ch.target.node.value()) {
                *x = true;
            }
        }
        let mut is_joint = vec![false; nodes.len()];
        for j in self.root.skins.iter().flat_map(|s| &s.joints) {
            if let Some(x) = is_joint.get_mut(j.value()) {
                *x = true;
            }
        }
        // Joints and their ancestors, except ancestors that change nothing (an identity, never
        // animated node such as Blender's armature object) and relic's synthetic root.
        let mut candidates: Vec<usize> = Vec::new();
        let mut is_bone = vec![false; nodes.len()];
        let mut visited = vec![false; nodes.len()];
        for skin in &self.root.skins {
            for j in &skin.joints {
                let mut at = Some(j.value());
                while let Some(n) = at {
                    super::tree::step();
                    if Some(n) == synthetic || std::mem::replace(visited.get_mut(n).unwrap_or(&mut true), true) {
                        break;
                    }
                    let inert = nodes.get(n).is_none_or(|node| node_local(node) == Transform::IDENTITY)
                        && !animated.get(n).copied().unwrap_or(false);
                    if is_joint.get(n).copied().unwrap_or(false) || !inert {
                        if let Some(b) = is_bone.get_mut(n) {
                            *b = true;
                        }
                        candidates.push(n);
                    }
                    at = tree.parent.get(n).copied().flatten();
                }
            }
        }
        // The nearest ancestor that is a bone.
        let bone_at_or_above = nearest_marked(&tree.parent, &is_bone);
        let bone_parent =
            |n: usize| tree.parent.get(n).copied().flatten().and_then(|p| bone_at_or_above.get(p).copied().flatten());
        // Keep the first skin's joint order (joints are pushed before their ancestors above, so
        // re-sort: joints of skins in order first, then the other ancestors).
        let mut ordered: Vec<usize> = Vec::with_capacity(candidates.len());
        let mut queued = vec![false; nodes.len()];
        for n in
            self.root.skins.iter().flat_map(|s| s.joints.iter().map(|j| j.value())).chain(candidates.iter().copied())
        {
            if is_bone.get(n).copied().unwrap_or(false)
                && !std::mem::replace(queued.get_mut(n).unwrap_or(&mut true), true)
            {
                ordered.push(n);
            }
        }
        restore_recorded_order(nodes, &mut ordered);
        // Parents first, stable.
        let mut node_bone: Vec<Option<usize>> = vec![None; nodes.len()];
        let mut placed: Vec<usize> = Vec::with_capacity(ordered.len());
        for &n in &ordered {
            let mut chain = Vec::new();
            let mut at = Some(n);
            while let Some(x) = at {
                super::tree::step();
                if node_bone.get(x).copied().flatten().is_some() {
                    break;
                }
                chain.push(x);
                at = bone_parent(x);
            }
            for &x in chain.iter().rev() {
                if let Some(slot) = node_bone.get_mut(x) {
                    *slot = Some(placed.len());
                }
                placed.push(x);
            }
        }
        // Inverse bind matrices: from the first skin that lists the joint.
        let mut ibm: Vec<Option<Mat4>> = vec![None; nodes.len()];
        for (s, skin) in self.root.skins.iter().enumerate() {
            let Some(accessor) = skin.inverse_bind_matrices else { continue };
            let matrices = self.reader.floats::<16>(accessor, &[ComponentType::F32])?;
            if matrices.len() < skin.joints.len() {
                return Err(GltfError::invalid(
                    format!("skins[{s}]"),
                    format!("{} inverse bind matrices for {} joints", matrices.len(), skin.joints.len()),
                ));
            }
            for (j, m) in skin.joints.iter().zip(matrices) {
                if let Some(slot) = ibm.get_mut(j.value())
                    && slot.is_none()
                {
                    *slot = Some(m);
                }
            }
        }
        for (b, &n) in placed.iter().enumerate() {
            let Some(node) = nodes.get(n) else { continue };
            // A node without relic's extras (another tool's bone; `ex::unwrap` also reads extras that
            // do not parse so) has the default ones: without flags it inherits all of its parent's
            // transform, as glTF composes nodes, and its rest is the node's own transform.
            let extras: ex::BoneExtras = ex::unwrap(&node.extras).unwrap_or_default();
            let parent = bone_parent(n).and_then(|p| node_bone.get(p).copied().flatten());
            let flags = extras.flags.as_ref().map(BoneFlags::from).unwrap_or_default();
            let rest = extras.rest.map(Transform::from).unwrap_or_else(|| node_local(node));
            let name =
                node.name.as_deref().map(|n| self.clean_name(n).to_string()).unwrap_or_else(|| format!("bone_{b}"));
            self.model.bones.push(Bone { name, parent, rest, flags, ..Bone::default() });
        }
        // Bind matrices: the stated inverse, or the rest pose where a bone is no joint.
        let globals = self.model.rest_globals();
        for (b, &n) in placed.iter().enumerate() {
            // As above: no extras are the default ones (`placed` holds nodes that exist).
            let extras: ex::BoneExtras = nodes.get(n).and_then(|node| ex::unwrap(&node.extras)).unwrap_or_default();
            let global = globals.get(b).copied().unwrap_or(math::IDENTITY);
            let (bind, inverse) = match ibm.get(n).copied().flatten() {
                Some(inv) => (math::inverse(&inv).unwrap_or(global), inv),
                None => (global, math::inverse(&global).unwrap_or(math::IDENTITY)),
            };
            // An older export's exact bind matrix, where it still agrees with the glTF's.
            let stated = extras.bind_matrix.as_deref().and_then(|m| <[f32; 16]>::try_from(m).ok());
            let bind = stated.filter(|m| super::frames::agrees(m, &bind)).unwrap_or(bind);
            if let Some(bone) = self.model.bones.get_mut(b) {
                bone.bind_matrix = bind;
                bone.inverse_bind_matrix = inverse;
            }
            self.bone_records
                .push(super::frames::Recorded { record: extras.original, rest_stated: extras.rest.is_some() });
        }
        Ok(node_bone)
    }

    pub(super) fn attachments(&mut self, tree: &Tree, node_bone: &[Option<usize>]) {
        // Node order (a relic export writes attachments in model order).
        let mut in_scene = tree.order.clone();
        in_scene.sort_unstable();
        for &n in &in_scene {
            let Some(node) = self.root.nodes.get(n) else { continue };
            let emitter = super::emitters::emitter_of(node).is_some() || super::scene::is_scene_node(node);
            if node_bone.get(n).copied().flatten().is_some() || node.mesh.is_some() || node.camera.is_some() || emitter
            {
                continue;
            }
            let Some(bone) = tree.parent.get(n).copied().flatten().and_then(|p| node_bone.get(p).copied().flatten())
            else {
                continue;
            };
            let extras: Option<ex::AttachmentExtras> = ex::unwrap(&node.extras);
            let is_leaf = node.children.as_ref().is_none_or(Vec::is_empty);
            // An absent glTF name is an empty one.
            let full_name = node.name.clone().unwrap_or_default();
            // `attachment 11: Head` / `socket: Chin`: what the node is, in its name.
            let named = crate::naming::parse_attachment_name(self.clean_name(&full_name));
            if extras.as_ref().is_some_and(|e| e.attachment) || named.is_some() || is_leaf {
                let (named_id, name) = named.unwrap_or((None, self.clean_name(&full_name).to_string()));
                self.attachment_records.push(super::frames::RecordedAttachment {
                    index: extras.as_ref().and_then(|e| e.index),
                    transform: extras.as_ref().and_then(|e| e.transform).map(Transform::from),
                });
                self.model.attachments.push(Attachment {
                    name,
                    id: extras.and_then(|e| e.id).or(named_id),
                    bone,
                    transform: node_local(node),
                });
            }
        }
    }
}

/// The bones in the order of the model relic exported, when every one carries its recorded index
/// once (an editor lists joints in its own order). The model's order has parents first, so the
/// placement after this keeps it.
fn restore_recorded_order(nodes: &[json::Node], ordered: &mut Vec<usize>) {
    let recorded = |n: usize| -> Option<u32> {
        nodes.get(n).and_then(|node| ex::unwrap::<ex::BoneExtras>(&node.extras)).and_then(|e| e.index)
    };
    if let Some(order) = super::recorded_order(ordered.iter().map(|&n| recorded(n))) {
        super::rearranged(ordered, &order);
    }
}
