//! Model skeleton and animations → v6 nodes and animations (abc.md §3.3, §3.4).

use relic_core::Loss;
use relic_core::frame::Frame;
use relic_core::math;
use relic_core::model::{Aabb, Animation, Model, Transform};

use super::boxes::{Boxes, Stale};
use super::deformation::Deformation;
use super::geometry::Geo;
use crate::extras::V6Extras;
use crate::file::common::len_string;
use crate::file::{NodeKey, V6Animation, V6Keyframe, V6Node, V6NodeAnim};
use crate::frame::box_from_ir;
use crate::from_ir::animation::{BoneTracks, bone_tracks, key_commands, millis, sample_local};
use crate::from_ir::names::stored_name;
use crate::from_ir::skeleton::Skeleton;

/// The v6 nodes: the skeleton in depth-first order with the stored boxes, indices and flags while
/// they still fit; the mesh-deformation flag (4) follows the deformed vertices where those changed.
#[allow(clippy::too_many_arguments)]
pub(super) fn build_nodes(
    model: &Model,
    sk: &Skeleton,
    geo: &Geo,
    md: &Deformation,
    exact: Option<&V6Extras>,
    fits: Option<&V6Extras>,
    losses: &mut Vec<Loss>,
) -> Vec<V6Node> {
    let mut boxes: Vec<Option<Aabb>> = vec![None; sk.tree.nodes.len()];
    for v in &geo.geometry.vertices {
        if let Some(b) = boxes.get_mut(usize::from(v.transformation_index)) {
            *b = Some(b.map_or(Aabb { min: v.position, max: v.position }, |b| b.including(v.position)));
        }
    }
    let mut out = Vec::with_capacity(sk.tree.nodes.len());
    for (i, (&children, bounds)) in sk.tree.child_counts.iter().zip(boxes).enumerate() {
        // A node without deformed vertices has an empty list (flag 4 unset).
        let md_vertices = md.md_vertices.get(i).cloned().unwrap_or_default();
        let deform = if md_vertices.is_empty() { 0 } else { 4 };
        let stored = fits.and_then(|x| x.nodes.get(i));
        let flags = match stored {
            // The stored flags as they are while the deformed vertices are the stored ones (a
            // node may carry flag 4 without any, or the reverse).
            Some(s) if s.md_vertices == md_vertices => s.flags,
            Some(s) => (s.flags & !4) | deform,
            None => (if bounds.is_some() { 2 } else { 1 }) | deform,
        };
        let (bounds_min, bounds_max) = match exact.and_then(|x| x.nodes.get(i)) {
            Some(s) => (s.bounds[0], s.bounds[1]),
            None => bounds.map_or(([0.0; 3], [0.0; 3]), |b| (b.min, b.max)),
        };
        let name = sk.tree.name(model, i);
        out.push(V6Node {
            bounds_min,
            bounds_max,
            name: stored_name(|| format!("bones[{i}]"), &name, losses),
            transformation_index: stored.map_or(i as u16, |s| s.transformation_index),
            flags,
            md_vertices,
            num_children: children,
        });
    }
    out
}

/// A v6 animation: every node keyed at every key time. Key boxes and the clip box come from the
/// model when `boxes` says so (and it has them); the others are left empty (all zero) and listed
/// in the [`Stale`] value, for [`super::boxes::recompute_boxes`].
#[allow(clippy::too_many_arguments)]
pub(super) fn build_animation(
    model: &Model,
    sk: &Skeleton,
    a: usize,
    anim: &Animation,
    times: &[u32],
    md: &Deformation,
    conjugate: bool,
    frame: Frame,
    boxes: Boxes,
    losses: &mut Vec<Loss>,
) -> (V6Animation, Stale) {
    let tracks: Vec<BoneTracks<'_>> = bone_tracks(model, anim, losses);
    let mut commands = key_commands(anim, losses);
    // Local transforms per node and key (model frame).
    let locals: Vec<Vec<Transform>> = (0..sk.tree.nodes.len())
        .map(|n| {
            let bone = sk.tree.bone(model, n);
            let tr = sk.tree.nodes.get(n).copied().flatten().and_then(|b| tracks.get(b));
            // v6 has no "rotation only" nodes: such a bone keeps its rest translation, as it would
            // when posed.
            let rotation_only = bone.is_some_and(|b| b.flags.rotation_only);
            times
                .iter()
                .map(|&t| {
                    let mut local = sample_local(bone, tr, t as f32 / 1000.0);
                    if let (true, Some(b)) = (rotation_only, bone) {
                        local.translation = b.rest.translation;
                    }
                    local
                })
                .collect()
        })
        .collect();
    let mut keyframes = Vec::with_capacity(times.len());
    let mut recompute = Vec::new();
    for (k, &t) in times.iter().enumerate() {
        let kept = match boxes {
            Boxes::FromModel => {
                anim.key_bounds.iter().find(|b| millis(b.time) == t).map(|b| box_from_ir(frame, &b.bounds))
            }
            Boxes::Recompute => None,
        };
        if kept.is_none() {
            recompute.push(k);
        }
        let (bounds_min, bounds_max) = kept.unwrap_or(([0.0; 3], [0.0; 3]));
        keyframes.push(V6Keyframe {
            time: t,
            bounds_min,
            bounds_max,
            // A key without an event has the empty frame string, as the files store it.
            frame_string: len_string(&commands.remove(&t).unwrap_or_default()),
        });
    }
    let node_anims = locals
        .iter()
        .enumerate()
        .map(|(n, keys)| V6NodeAnim {
            keys: keys
                .iter()
                .map(|l| {
                    let q = frame.quat_from_ir(l.rotation);
                    NodeKey {
                        translation: frame.vector_from_ir(l.translation),
                        rotation: if conjugate { math::quat_conjugate(q) } else { q },
                    }
                })
                .collect(),
            // No deformed vertices: no vertex frames.
            vertex_frames: md.frames.get(a).and_then(|f| f.get(n)).cloned().unwrap_or_default(),
            scale: md.quantization.get(a).and_then(|q| q.get(n)).map_or([1.0; 3], |q| q[0]),
            translation: md.quantization.get(a).and_then(|q| q.get(n)).map_or([0.0; 3], |q| q[1]),
        })
        .collect();
    let clip = match boxes {
        Boxes::FromModel => anim.bounds.map(|b| box_from_ir(frame, &b)),
        Boxes::Recompute => None,
    };
    let stale = Stale { keys: recompute, clip: clip.is_none() };
    let (bounds_min, bounds_max) = clip.unwrap_or(([0.0; 3], [0.0; 3]));
    let animation = V6Animation {
        name: stored_name(|| format!("animations[{a}]"), &anim.name, losses),
        length: millis(anim.duration),
        bounds_min,
        bounds_max,
        keyframes,
        node_anims,
    };
    (animation, stale)
}
