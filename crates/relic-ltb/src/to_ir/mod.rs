//! LTB → common model.
//!
//! * Frame: LithTech's left-handed +Y-up frame facing +Z ([`relic_lithtech::frame::LITHTECH`],
//!   a mirror on X, the same as ABC v9–v13); triangles reversed (counter-clockwise around the
//!   stored normals, ltb.md §6.7).
//! * Bones: the node matrices are the bind pose (model space); rest transforms relative to the
//!   parent; node flag 2 is "rotation only". CrossFire's root half turn is taken out of the rest
//!   and the vertices (`crate::turn`), so the model faces the front at rest as animated.
//! * Meshes: one per piece and LOD (the LOD's distance from the piece's list), with the render
//!   object's vertices as they are (the packer already split them per UV seam and bone set).
//!   Rigid meshes are bound to their node, skeletal ones weighted as their bone sets (or
//!   palette) say, vertex-animated ones bound to their effector with one morph target per key of
//!   every animation that moves them. Null LODs are meshes without vertices.
//! * Materials: one per distinct list of texture slots; the game picks the files (`TextureRef::slot`).
//! * Animations: milliseconds → seconds; per node a translation and a rotation channel, with one
//!   key where the track stores one value (and the identity where it stores none); 16-bit values
//!   decoded as ltb.md §9.3 says. Keyframe strings become events.
//! * Sockets become attachments (with their scale).
//!
//! Everything else travels in [`crate::extras::LtbExtras`].

mod animation;
mod mesh;

pub(crate) use animation::{key_seconds, unit};
pub(crate) use mesh::lod_mesh;

use std::sync::Arc;

use relic_core::Loss;
use relic_core::math::{self, IDENTITY, Mat4};
use relic_core::model::{Attachment, Bone, BoneFlags, Model, SourceInfo, Transform};
use relic_lithtech::frame::LITHTECH;

use crate::extras::{Digests, LtbExtras};
use crate::file::LtbFile;

/// A row-major file matrix as a column-major model matrix (same frame).
pub(crate) fn column_major(row_major: &[f32; 16]) -> Mat4 {
    math::transpose(row_major)
}

/// The parent of every node (the tree was checked when the file was read).
pub(crate) fn parents(file: &LtbFile) -> Vec<Option<usize>> {
    relic_lithtech::tree::depth_first_parents(file.nodes.iter().map(|n| n.child_count)).0
}

/// The node bind matrices in the model's frame.
pub(crate) fn binds(file: &LtbFile) -> Vec<Mat4> {
    file.nodes.iter().map(|n| LITHTECH.matrix_to_ir(&column_major(&n.matrix))).collect()
}

/// Maps a parsed file to the common model (the extras keep a copy of it).
pub(crate) fn to_ir(file: &LtbFile) -> Model {
    let mut model = mapped(file);
    let digests = Digests::of(&model);
    turn_rest(file, &mut model);
    model.extras = Some(LtbExtras { file: Arc::new(file.clone()), digests }.into_format_extras());
    model
}

/// [`to_ir`] of a file read for it (the extras keep the file itself, no copy).
pub(crate) fn to_ir_owned(file: LtbFile) -> Model {
    let mut model = mapped(&file);
    let digests = Digests::of(&model);
    turn_rest(&file, &mut model);
    model.extras = Some(LtbExtras { file: Arc::new(file), digests }.into_format_extras());
    model
}

/// CrossFire's rest turned to face the front (`crate::turn`; the digests are of the model as
/// mapped, which `from_ir` turns back before it compares).
fn turn_rest(file: &LtbFile, model: &mut Model) {
    if crate::turn::is_turned(file) {
        crate::turn::apply(model, relic_core::frame::HalfTurn::Do);
    }
}

/// The model without its extras.
fn mapped(file: &LtbFile) -> Model {
    let mut model =
        Model { source: Some(SourceInfo { format: crate::FORMAT, version: file.version() }), ..Model::default() };
    let parents = parents(file);
    let binds = binds(file);
    for ((node, parent), bind) in file.nodes.iter().zip(&parents).zip(&binds) {
        let local = match parent.and_then(|p| binds.get(p)).and_then(math::inverse) {
            Some(inv_parent) => math::mul(&inv_parent, bind),
            None => *bind,
        };
        let (translation, rotation, scale) = math::decompose(&local);
        model.bones.push(Bone {
            name: node.name.to_text(),
            parent: *parent,
            rest: Transform { translation, rotation, scale },
            bind_matrix: *bind,
            inverse_bind_matrix: math::inverse(bind).unwrap_or(IDENTITY),
            flags: BoneFlags { rotation_only: node.flags & 2 != 0, ..BoneFlags::default() },
        });
    }
    mesh::meshes(file, &binds, &mut model);
    animation::animations(file, &binds, &mut model);
    for socket in &file.sockets {
        model.attachments.push(Attachment {
            name: socket.name.to_text(),
            id: None,
            bone: socket.node as usize,
            transform: Transform {
                translation: LITHTECH.vector_to_ir(socket.position),
                rotation: LITHTECH.quat_to_ir(animation::unit(socket.rotation)),
                scale: LITHTECH.scale_to_ir(socket.scale),
            },
        });
    }
    model
}

/// What the model read from `file` does not show (a viewer of the model would not see it): the
/// parts that only the extras keep, one note per kind.
pub(crate) fn notes(file: &LtbFile) -> Vec<Loss> {
    let mut notes = Vec::new();
    let lods = file.pieces.iter().flat_map(|p| p.lods.iter().map(move |l| (p, l)));
    let opaque: Vec<u32> = lods
        .clone()
        .filter_map(|(_, l)| match &l.object {
            crate::file::RenderObject::Opaque { kind, .. } => Some(*kind),
            _ => None,
        })
        .collect();
    if !opaque.is_empty() {
        notes.push(Loss::new(
            "render objects",
            format!(
                "{} of render-object types {opaque:?} not drawn (kept as bytes; the engine skips them too)",
                opaque.len()
            ),
        ));
    }
    let extra = |f: fn(&crate::file::VertexStream) -> bool| {
        lods.clone().filter(|(_, l)| l.object.streams().is_some_and(|(s, _, _)| s.iter().any(f))).count()
    };
    let colours = extra(|s| !s.colors.is_empty());
    let uvs = extra(|s| s.uv_sets.len() > 2);
    let basis = extra(|s| !s.basis.is_empty());
    for (n, what) in [(colours, "vertex colours"), (uvs, "UV sets 3 and 4"), (basis, "basis vectors (S, T)")] {
        if n > 0 {
            notes.push(Loss::new("meshes", format!("{what} of {n} LODs not in the model (kept in its LTB extras)")));
        }
    }
    if !file.trailing.is_empty() {
        notes.push(Loss::new(
            "file",
            format!("{} bytes after the last binding group kept as they are", file.trailing.len()),
        ));
    }
    notes
}
