//! Bones and attachments as nodes.

use gltf_json as json;
use json::Index;

use crate::GltfError;
use crate::extras::{self as ex};

use super::{Exporter, node, node_trs, push_child};

impl Exporter<'_> {
    /// Node `i` is bone `i`.
    pub(super) fn bones(&mut self) -> Result<(), GltfError> {
        let model = self.model;
        for (b, bone) in model.bones.iter().enumerate() {
            let t = self.rest.get(b).copied().unwrap_or(bone.rest);
            let mut n = node_trs(&bone.name, &t);
            let mut extras = ex::BoneExtras::default();
            if bone.flags != relic_core::model::BoneFlags::default() {
                extras.flags = Some(bone.flags.into());
            }
            if t != bone.rest {
                extras.rest = Some(bone.rest.into());
            }
            extras.original = Some(ex::BoneRecord {
                rest: bone.rest,
                bind_matrix: bone.bind_matrix,
                inverse_bind_matrix: bone.inverse_bind_matrix,
            });
            extras.index = u32::try_from(b).ok();
            n.extras = ex::wrap(extras)?;
            self.root.push(n);
        }
        for (b, bone) in model.bones.iter().enumerate() {
            if let Some(p) = bone.parent {
                push_child(&mut self.root, Index::new(p as u32), Index::new(b as u32));
            }
        }
        let roots: Vec<usize> =
            (0..model.bones.len()).filter(|&b| model.bones.get(b).is_some_and(|x| x.parent.is_none())).collect();
        if roots.len() > 1 {
            // Named after the model: Blender makes this node the armature and names the skin it
            // exports after it, which is where a file without relic's extras gets its name back.
            let name = if model.name.is_empty() { "relic_root" } else { model.name.as_str() };
            let mut n = node(name);
            n.children = Some(roots.iter().map(|&r| Index::new(r as u32)).collect());
            self.synthetic_root = Some(self.root.push(n));
        }
        Ok(())
    }

    pub(super) fn attachments(&mut self) -> Result<(), GltfError> {
        for (i, a) in self.model.attachments.iter().enumerate() {
            let mut n = node_trs(&crate::naming::attachment_name(a), &a.transform);
            n.extras = ex::wrap(ex::AttachmentExtras {
                attachment: true,
                id: a.id,
                index: u32::try_from(i).ok(),
                transform: Some(a.transform.into()),
            })?;
            let index = self.root.push(n);
            push_child(&mut self.root, Index::new(a.bone as u32), index);
        }
        Ok(())
    }
}
