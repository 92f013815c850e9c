//! MDX → common model (spec §6, §7).
//!
//! * Frame: Warcraft III is right-handed, +Z up, facing +X, as WoW: `(x, y, z) → (y, z, x)`
//!   ([`WARCRAFT`]), a rotation, so winding is unchanged. UVs have their origin top left, as
//!   glTF's.
//! * Bones: every node (BONE, LITE, HELP, ATCH, PREM, PRE2, CORN, RIBB, EVTS, CLID), parents
//!   first, then by object id. The pivot (`PIVT[objectId]`, zero when the file has fewer pivots) is
//!   the bind translation; the rest transform is `pivot − parent pivot`, an animated translation
//!   `pivot − parent pivot + value`. Flag 0x1 drops the parent's translation; 0x2 and 0x4 the
//!   parent's scaling and rotation (the engine's reading, spec §4.4); 0x8–0x40 billboard.
//! * Meshes: one per geoset, triangles from its triangle groups (PTYP 4); SD skinning as the
//!   unweighted average of the vertex group's nodes, HD skinning from SKIN (`w / 255`, indices
//!   as node object ids). A vertex no node moves is bound to the first bone.
//! * Sequences → animations (times in seconds from the interval's start, keys inside the
//!   interval; a key repeated at one frame keeps its first value); global-sequence tracks in
//!   every animation on [`Clock::Global`]. 0 → step, 1 → linear, 2 and 3 → cubic spline (tangents
//!   per segment divided by the segment's length; Bezier control points `3 (C − P)`).
//!   Quaternion Hermite and Bezier, which the game plays by squad, are resampled to linear keys on
//!   the squad curve (`squad`; spec §7).
//! * Materials: one per MTLS material, its layers' textures in order; blending, sidedness,
//!   lighting and fog from the first layer.
//! * Emitters: each PREM, PRE2 and RIBB on its node's bone (`emitters`), the record whole as its
//!   [`crate::EmitterRecord`].
//! * Lights, cameras and collision shapes: `scene`.
//! * Geoset animations, layer alpha and texture animations → tints and UV animations
//!   (`surface`, which lists what they do not carry).
//! * Not mapped (listed as losses): PopcornFX emitters (CORN).

use std::collections::HashMap;

use relic_core::frame::{Axis, Frame};
use relic_core::model::{self as ir, Aabb, Animation, Billboard, BoneFlags, Event, SourceInfo, Transform};
use relic_core::{Converted, Loss, Model, ReadError};

use crate::file::*;

mod animation;
mod emitters;
mod mesh;
pub(crate) mod scene;

pub(crate) use emitters::ribbon_material;
mod squad;
pub(crate) mod surface;

use animation::{channel, check_key_budget};
use mesh::{materials, mesh};

/// Warcraft III's model space to the common model's (as M2's).
pub const WARCRAFT: Frame = Frame::new([Axis::Y, Axis::Z, Axis::X]);

/// A time of the file (milliseconds) in seconds.
fn seconds(ms: i64) -> f32 {
    (ms as f64 / 1000.0) as f32
}

/// One node of the file, whatever its record.
struct NodeRef<'a> {
    node: &'a Node,
}

/// The nodes of a file in file order.
fn nodes(file: &MdxFile) -> Vec<NodeRef<'_>> {
    let mut out = Vec::new();
    for chunk in &file.chunks {
        let list: Vec<&Node> = match chunk {
            Chunk::Bones(v) => v.iter().map(|b| &b.node).collect(),
            Chunk::Lights(v) => v.iter().map(|b| &b.node).collect(),
            Chunk::Helpers(v) => v.iter().map(|b| &b.node).collect(),
            Chunk::Attachments(v) => v.iter().map(|b| &b.node).collect(),
            Chunk::ParticleEmitters(v) => v.iter().map(|b| &b.node).collect(),
            Chunk::ParticleEmitters2(v) => v.iter().map(|b| &b.node).collect(),
            Chunk::PopcornEmitters(v) => v.iter().map(|b| &b.node).collect(),
            Chunk::RibbonEmitters(v) => v.iter().map(|b| &b.node).collect(),
            Chunk::Events(v) => v.iter().map(|b| &b.node).collect(),
            Chunk::CollisionShapes(v) => v.iter().map(|b| &b.node).collect(),
            _ => continue,
        };
        out.extend(list.into_iter().map(|node| NodeRef { node }));
    }
    out
}

/// The skeleton's order: `order[bone] = node`, `rank[node] = bone`, and each node's parent node.
struct Skeleton {
    order: Vec<usize>,
    rank: Vec<usize>,
    parent: Vec<Option<usize>>,
    /// Object id → node (the first node of an id).
    by_id: HashMap<i32, usize>,
}

fn skeleton(nodes: &[NodeRef<'_>]) -> Skeleton {
    let n = nodes.len();
    let mut by_id: HashMap<i32, usize> = HashMap::with_capacity(n);
    for (i, r) in nodes.iter().enumerate() {
        by_id.entry(r.node.object_id).or_insert(i);
    }
    let mut parent: Vec<Option<usize>> =
        nodes.iter().enumerate().map(|(i, r)| by_id.get(&r.node.parent_id).copied().filter(|&p| p != i)).collect();
    // Depth by climbing with memo; a node on a cycle becomes a root.
    const UNKNOWN: usize = usize::MAX;
    const ON_WALK: usize = usize::MAX - 1;
    let mut depth = vec![UNKNOWN; n];
    let mut walk = Vec::new();
    for i in 0..n {
        let mut p = i;
        loop {
            match depth.get(p).copied() {
                Some(UNKNOWN) => {
                    if let Some(d) = depth.get_mut(p) {
                        *d = ON_WALK;
                    }
                    walk.push(p);
                    match parent.get(p).copied().flatten() {
                        Some(q) => p = q,
                        None => break,
                    }
                }
                Some(ON_WALK) => {
                    // A cycle: the node reached again loses its parent.
                    if let Some(x) = parent.get_mut(p) {
                        *x = None;
                    }
                    break;
                }
                _ => break,
            }
        }
        while let Some(q) = walk.pop() {
            let d = match parent.get(q).copied().flatten().and_then(|p| depth.get(p).copied()) {
                Some(pd) if pd < ON_WALK => pd + 1,
                _ => 0,
            };
            if let Some(x) = depth.get_mut(q) {
                *x = d;
            }
        }
    }
    // Parents first; within a depth by object id (the file's own numbering of its nodes, which
    // follows the chunk order in real files), so that a file written from the model with object
    // id = bone index reads back in the same order whatever record each node is written as.
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| (depth.get(i).copied().unwrap_or(0), nodes.get(i).map_or(0, |r| r.node.object_id), i));
    let mut rank = vec![0; n];
    for (bone, &node) in order.iter().enumerate() {
        if let Some(r) = rank.get_mut(node) {
            *r = bone;
        }
    }
    Skeleton { order, rank, parent, by_id }
}

fn translate(t: [f32; 3]) -> relic_core::math::Mat4 {
    let mut m = relic_core::math::IDENTITY;
    m[12] = t[0];
    m[13] = t[1];
    m[14] = t[2];
    m
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn add(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

fn flags(flags: u32) -> BoneFlags {
    let cylindrical = |axis: usize| match WARCRAFT.axis_to_ir(axis) {
        0 => Billboard::CylindricalX,
        1 => Billboard::CylindricalY,
        _ => Billboard::CylindricalZ,
    };
    let billboard = if flags & 0x8 != 0 {
        Billboard::Spherical
    } else if flags & 0x10 != 0 {
        cylindrical(0)
    } else if flags & 0x20 != 0 {
        cylindrical(1)
    } else if flags & 0x40 != 0 {
        cylindrical(2)
    } else {
        Billboard::None
    };
    BoneFlags {
        inherit_translation: flags & 0x1 == 0,
        inherit_scale: flags & 0x2 == 0,
        inherit_rotation: flags & 0x4 == 0,
        rotation_only: false,
        billboard,
    }
}

/// Maps a file to the common model; what the model has no place for comes back as losses.
pub(crate) fn to_ir(file: &MdxFile) -> Result<Converted<Model>, ReadError> {
    let nodes = nodes(file);
    let sk = skeleton(&nodes);
    let pivots: Vec<[f32; 3]> = file
        .chunks
        .iter()
        .filter_map(|c| if let Chunk::PivotPoints(p) = c { Some(p) } else { None })
        .flatten()
        .copied()
        .collect();
    let pivot = |node: usize| -> [f32; 3] {
        nodes
            .get(node)
            .and_then(|r| usize::try_from(r.node.object_id).ok())
            .and_then(|id| pivots.get(id))
            .copied()
            .unwrap_or([0.0; 3])
    };
    let rest_offset = |node: usize| sub(pivot(node), sk.parent.get(node).copied().flatten().map_or([0.0; 3], pivot));
    let bones: Vec<ir::Bone> = sk
        .order
        .iter()
        .filter_map(|&i| {
            let r = nodes.get(i)?;
            let p = WARCRAFT.vector_to_ir(pivot(i));
            Some(ir::Bone {
                name: r.node.name.to_text(),
                parent: sk.parent.get(i).copied().flatten().and_then(|p| sk.rank.get(p).copied()),
                rest: Transform { translation: WARCRAFT.vector_to_ir(rest_offset(i)), ..Transform::IDENTITY },
                bind_matrix: translate(p),
                inverse_bind_matrix: translate(p.map(|c| -c)),
                flags: flags(r.node.flags),
            })
        })
        .collect();
    let mut losses = Vec::new();
    let sequences: Vec<&Sequence> =
        file.chunks.iter().filter_map(|c| if let Chunk::Sequences(s) = c { Some(s) } else { None }).flatten().collect();
    let globals: Vec<u32> = file
        .chunks
        .iter()
        .filter_map(|c| if let Chunk::GlobalSequences(g) = c { Some(g) } else { None })
        .flatten()
        .copied()
        .collect();
    let blend =
        file.chunks.iter().find_map(|c| if let Chunk::Model(m) = c { Some(m.blend_time) } else { None }).unwrap_or(0);
    check_key_budget(&nodes, &sequences, file)?;
    let mut animations = Vec::new();
    let mut coarse = squad::Capped::default();
    for s in &sequences {
        let (start, end) = (i64::from(s.interval_start), i64::from(s.interval_end));
        let mut channels = Vec::new();
        for (node_index, r) in nodes.iter().enumerate() {
            let bone = sk.rank.get(node_index).copied().unwrap_or(0);
            for t in &r.node.tracks {
                if let Some(c) = channel(t, bone, start, end, rest_offset(node_index), globals.len(), &mut coarse) {
                    channels.push(c);
                }
            }
        }
        let mut events = Vec::new();
        for chunk in &file.chunks {
            if let Chunk::Events(v) = chunk {
                for e in v {
                    let node = sk.by_id.get(&e.node.object_id).copied();
                    for &f in e.track.iter().flat_map(|t| &t.frames) {
                        if (start..=end).contains(&i64::from(f))
                            && e.track.as_ref().is_some_and(|t| t.global_sequence_id == -1)
                        {
                            events.push(Event {
                                time: seconds(i64::from(f) - start),
                                name: e.node.name.to_text(),
                                bone: node.and_then(|n| sk.rank.get(n).copied()),
                                ..Event::default()
                            });
                        }
                    }
                }
            }
        }
        events.sort_by(|a, b| a.time.total_cmp(&b.time));
        let [a, b] = [WARCRAFT.vector_to_ir(s.extent.minimum), WARCRAFT.vector_to_ir(s.extent.maximum)];
        animations.push(Animation {
            name: s.name.to_text(),
            duration: seconds(end - start).max(0.0),
            looping: s.flags & 1 == 0,
            blend_in: seconds(i64::from(blend)),
            channels,
            events,
            bounds: Aabb::of_points([&a, &b]),
            ..Animation::default()
        });
    }
    if coarse.segments > 0 {
        losses.push(Loss::new(
            "KGRT",
            format!(
                "{} Hermite/Bezier rotation segment(s) (counted per clip) need more than {} linear keys to \
                 follow the game's squad curve within 5e-4: followed at that many, at most {:.1e} off per \
                 quaternion component",
                coarse.segments,
                squad::MOST_STEPS,
                coarse.worst
            ),
        ));
    }
    let materials = materials(file);
    let mut meshes = Vec::new();
    let mut g_index = 0usize;
    for chunk in &file.chunks {
        if let Chunk::Geosets(v) = chunk {
            for g in v {
                meshes.push(mesh(g_index, g, &sk, bones.len(), materials.len())?);
                g_index += 1;
            }
        }
    }
    let mut attachments = Vec::new();
    for chunk in &file.chunks {
        if let Chunk::Attachments(v) = chunk {
            for a in v {
                if let Some(&node) = sk.by_id.get(&a.node.object_id) {
                    attachments.push(ir::Attachment {
                        name: a.node.name.to_text(),
                        id: Some(a.attachment_id),
                        bone: sk.rank.get(node).copied().unwrap_or(0),
                        transform: Transform::IDENTITY,
                    });
                }
            }
        }
    }
    losses.extend(emitters::popcorn_loss(file));
    let emitters = emitters::emitters_to_ir(&emitters::Context {
        file,
        nodes: &nodes,
        sk: &sk,
        sequences: &sequences,
        globals: globals.len(),
    });
    let clips = surface::Clips { sequences: &sequences, globals: globals.len() };
    let scene = scene::scene(file, &sk, &pivot, &clips, &mut losses);
    let (tints, uv_animations) = surface::surfaces(file, &clips, meshes.len(), &mut losses)?;
    let model = Model {
        name: file
            .chunks
            .iter()
            .find_map(|c| if let Chunk::Model(m) = c { Some(m.name.to_text()) } else { None })
            .unwrap_or_default(),
        source: Some(SourceInfo { format: crate::FORMAT, version: file.version() }),
        bones,
        meshes,
        materials,
        animations,
        global_sequences: globals.iter().map(|&g| seconds(i64::from(g))).collect(),
        attachments,
        emitters,
        lights: scene.lights,
        cameras: scene.cameras,
        collision_shapes: scene.collision_shapes,
        tints,
        uv_animations,
        ..Model::default()
    };
    model.validate().map_err(|e| ReadError::document(format!("the model read from the MDX is not valid: {e}")))?;
    Ok(Converted { value: model, losses })
}
