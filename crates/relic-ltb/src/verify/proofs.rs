//! The real-data proofs on the file structs: the math that relates stored values must reproduce
//! other stored values.
//!
//! * Bind-pose skinning (ltb.md §6.5, §12): every node's bind, rebuilt from parent-relative
//!   transforms down the tree, gives skinning matrices `S = rebuilt · inverse(stored)`; each
//!   stored vertex skinned with its bone-set (or palette) weights by them must come back where it
//!   is stored. This checks the tree, the weights (they must sum to 1) and the matrix math.
//! * Animation decode (ltb.md §9.3): the reader's values (through the common model) against
//!   [`super::scalar`], an independent walk of the bytes.

use relic_core::math::{self, Mat4};
use relic_core::model::{ChannelValues, Model};
use relic_lithtech::frame::LITHTECH;

use crate::file::{LtbFile, RenderObject};
use crate::to_ir::{column_major, parents};

/// Largest distance (game units) of a skinned vertex from its stored position, and how many
/// vertices were skinned.
pub(crate) fn bind_pose(file: &LtbFile) -> (usize, f32) {
    let stored: Vec<Mat4> = file.nodes.iter().map(|n| column_major(&n.matrix)).collect();
    let parents = parents(file);
    // Each node's bind rebuilt from its parent-relative transform (translation and rotation).
    let mut rebuilt: Vec<Mat4> = Vec::with_capacity(stored.len());
    for (i, m) in stored.iter().enumerate() {
        let parent = parents.get(i).copied().flatten();
        let local = match parent.and_then(|p| stored.get(p)).and_then(math::inverse) {
            Some(inv) => math::mul(&inv, m),
            None => *m,
        };
        let (t, q, s) = math::decompose(&local);
        let local = math::from_trs(t, q, s);
        let global = match parent.and_then(|p| rebuilt.get(p)) {
            Some(p) => math::mul(p, &local),
            None => local,
        };
        rebuilt.push(global);
    }
    let skinning: Vec<Mat4> = rebuilt
        .iter()
        .zip(&stored)
        .map(|(r, s)| math::inverse(s).map_or(math::IDENTITY, |inv| math::mul(r, &inv)))
        .collect();
    let (mut count, mut worst) = (0usize, 0.0f32);
    for lod in file.pieces.iter().flat_map(|p| &p.lods) {
        if matches!(lod.object, RenderObject::Null | RenderObject::Opaque { .. } | RenderObject::VertexAnimated(_)) {
            continue;
        }
        // The mesh in the file's frame with its influences (node indices).
        let mesh = crate::to_ir::lod_mesh(&lod.object, &[]);
        for (v, p) in mesh.positions.iter().enumerate() {
            let stored_p = LITHTECH.vector_from_ir(*p);
            let mut skinned = [0.0f32; 3];
            for inf in mesh.skin.vertex(v) {
                let s = skinning.get(inf.bone as usize).copied().unwrap_or(math::IDENTITY);
                let moved = math::transform_point(&s, stored_p);
                skinned = math::add3(skinned, moved.map(|c| c * inf.weight));
            }
            worst = worst.max(math::max_abs_diff(&skinned, &stored_p));
            count += 1;
        }
    }
    (count, worst)
}

/// Where the animation section starts in the payload (its count).
fn animation_offset(file: &LtbFile) -> Result<usize, String> {
    let mut head = file.clone();
    head.animations.clear();
    head.sockets.clear();
    head.anim_bindings.iter_mut().for_each(|g| g.bindings.clear());
    head.trailing.clear();
    let bytes = crate::file::write_payload(&head).map_err(|e| e.to_string())?;
    Ok(bytes.len() - 4 - 4 - 4 * head.anim_bindings.len())
}

/// Compares the model's channels (made by the reader) with the scalar decode of `payload`:
/// `(values compared, largest difference)`.
pub(crate) fn animation_decode(file: &LtbFile, payload: &[u8], model: &Model) -> Result<(usize, f32), String> {
    let decoded = super::scalar::decode(payload, animation_offset(file)?, file.nodes.len())?;
    let (mut compared, mut worst) = (0usize, 0.0f32);
    for (a, (anim, tracks)) in model.animations.iter().zip(&decoded).enumerate() {
        for channel in &anim.channels {
            let Some(track) = tracks.get(channel.bone) else {
                return Err(format!("animation {a}: no track {}", channel.bone));
            };
            for (k, (p, r)) in track.iter().enumerate() {
                let i = if channel.times.len() == 1 { 0 } else { k };
                let difference = match &channel.values {
                    ChannelValues::Translation(v) => {
                        let ours = LITHTECH.vector_from_ir(v.get(i).copied().ok_or("too few keys")?);
                        math::max_abs_diff(&ours, p)
                    }
                    ChannelValues::Rotation(v) => {
                        let ours = LITHTECH.quat_from_ir(v.get(i).copied().ok_or("too few keys")?);
                        math::max_abs_diff(&ours, &crate::to_ir::unit(*r))
                    }
                    ChannelValues::Scale(_) => return Err("a scale channel".into()),
                };
                worst = worst.max(difference);
                compared += 1;
            }
        }
    }
    if model.animations.len() != decoded.len() {
        return Err(format!("{} animations decoded, {} in the model", decoded.len(), model.animations.len()));
    }
    Ok((compared, worst))
}
