//! MDX → common model (spec §6, §7).
//!
//! * Frame: Warcraft III is right-handed, +Z up, facing +X, as WoW: `(x, y, z) → (y, z, x)`
//!   ([`WARCRAFT`]), a rotation, so winding is unchanged. UVs have their origin top left, as
//!   glTF's.
//! * Bones: every node (BONE, LITE, HELP, ATCH, PREM, PRE2, CORN, RIBB, EVTS, CLID, in that
//!   order), parents first. The pivot (`PIVT[objectId]`, zero when the file has fewer pivots) is
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
//!   Quaternion Hermite and Bezier (squad in the game) become cubic splines too.
//! * Materials: one per MTLS material, its layers' textures in order; blending, sidedness,
//!   lighting and fog from the first layer.
//! * Not mapped (listed as losses): emitters, lights, cameras, collision shapes, texture and
//!   geoset animations.

use std::collections::HashMap;

use relic_core::frame::{Axis, Frame};
use relic_core::model::{
    self as ir, Aabb, Animation, Billboard, BlendMode, BoneFlags, Channel, ChannelValues, Clock, Event, Influence,
    Interpolation, Lod, Mesh, SourceInfo, TextureRef, Transform,
};
use relic_core::{Converted, Loss, Model, ReadError};

use crate::file::*;

/// Warcraft III's model space to the common model's (as M2's).
pub const WARCRAFT: Frame = Frame::new([Axis::Y, Axis::Z, Axis::X]);

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
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| (depth.get(i).copied().unwrap_or(0), i));
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
    for s in &sequences {
        let (start, end) = (i64::from(s.interval_start), i64::from(s.interval_end));
        let mut channels = Vec::new();
        for (node_index, r) in nodes.iter().enumerate() {
            let bone = sk.rank.get(node_index).copied().unwrap_or(0);
            for t in &r.node.tracks {
                if let Some(c) = channel(t, bone, start, end, rest_offset(node_index), globals.len()) {
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
        let lost = match chunk {
            Chunk::ParticleEmitters(v) if !v.is_empty() => Some("particle emitters (PREM)"),
            Chunk::ParticleEmitters2(v) if !v.is_empty() => Some("particle emitters (PRE2)"),
            Chunk::PopcornEmitters(v) if !v.is_empty() => Some("PopcornFX emitters (CORN)"),
            Chunk::RibbonEmitters(v) if !v.is_empty() => Some("ribbon emitters (RIBB)"),
            Chunk::Lights(v) if !v.is_empty() => Some("lights (LITE)"),
            Chunk::Cameras(v) if !v.is_empty() => Some("cameras (CAMS)"),
            Chunk::CollisionShapes(v) if !v.is_empty() => Some("collision shapes (CLID)"),
            Chunk::TextureAnims(v) if !v.is_empty() => Some("texture animations (TXAN)"),
            Chunk::GeosetAnims(v) if !v.is_empty() => Some("geoset animations (GEOA: alpha and colour)"),
            _ => None,
        };
        if let Some(what) = lost {
            losses.push(Loss::new(
                chunk.tag().text(),
                format!("{what}: kept as nodes only; the model has no place for them yet"),
            ));
        }
    }
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
        ..Model::default()
    };
    model.validate().map_err(|e| ReadError::document(format!("the model read from the MDX is not valid: {e}")))?;
    Ok(Converted { value: model, losses })
}

/// A key's value and its (in, out) tangents, in the model's frame.
type FrameKey<const N: usize> = ([f32; N], Option<[[f32; N]; 2]>);

/// Keys the model may hold for every key of the file (a global-sequence track is copied into
/// every clip), beyond [`KEY_BUDGET_FIXED`].
const KEY_BUDGET_PER_KEY: u64 = 8;
/// See [`KEY_BUDGET_PER_KEY`].
const KEY_BUDGET_FIXED: u64 = 100_000;

/// Refuses a file whose clips would copy its keys (and events) so many times that the model would
/// be far larger than the file: many sequences times long global-sequence tracks.
fn check_key_budget(nodes: &[NodeRef<'_>], sequences: &[&Sequence], file: &MdxFile) -> Result<(), ReadError> {
    let mut stored = 0u64;
    let mut copied = 0u64;
    let events = file.chunks.iter().filter_map(|c| if let Chunk::Events(e) = c { Some(e) } else { None }).flatten();
    let frame_lists: Vec<(Vec<i64>, bool)> = nodes
        .iter()
        .flat_map(|r| {
            r.node
                .tracks
                .iter()
                .map(|t| (t.keys.frames().into_iter().map(i64::from).collect(), t.global_sequence_id != -1))
        })
        .chain(
            events.filter_map(|e| e.track.as_ref()).map(|t| (t.frames.iter().map(|&f| i64::from(f)).collect(), false)),
        )
        .collect();
    for (frames, global) in &frame_lists {
        stored += frames.len() as u64;
        for s in sequences {
            let (start, end) = (i64::from(s.interval_start), i64::from(s.interval_end));
            copied += if *global {
                frames.len() as u64
            } else {
                frames.iter().filter(|&&f| (start..=end).contains(&f)).count() as u64
            };
        }
    }
    let budget = stored.saturating_mul(KEY_BUDGET_PER_KEY).saturating_add(KEY_BUDGET_FIXED);
    if copied > budget {
        return Err(ReadError::document(format!(
            "the {} sequences would copy the file's {stored} keys into {copied} model keys, more than the {budget} \
             relic builds for them (global-sequence tracks are copied into every clip)",
            sequences.len()
        )));
    }
    Ok(())
}

fn seconds(ms: i64) -> f32 {
    (ms as f64 / 1000.0) as f32
}

/// A node track as a channel of one sequence (or, on a global sequence, of every sequence).
fn channel(t: &Track, bone: usize, start: i64, end: i64, offset: [f32; 3], globals: usize) -> Option<Channel> {
    let global = usize::try_from(t.global_sequence_id).ok();
    if global.is_some_and(|g| g >= globals) {
        return None;
    }
    let keep = |frame: i32| global.is_some() || (start..=end).contains(&i64::from(frame));
    let base = if global.is_some() { 0 } else { start };
    let interpolation = match t.interpolation {
        DONT_INTERP => Interpolation::Step,
        LINEAR => Interpolation::Linear,
        _ => Interpolation::CubicSpline,
    };
    let bezier = t.interpolation == BEZIER;
    fn pick<T: Value + Copy, const N: usize>(
        keys: &[Key<T>],
        keep: impl Fn(i32) -> bool,
        base: i64,
        value: impl Fn(T, bool) -> [f32; N],
    ) -> (Vec<f32>, Vec<FrameKey<N>>) {
        let mut chosen: Vec<&Key<T>> = keys.iter().filter(|k| keep(k.frame)).collect();
        chosen.sort_by_key(|k| k.frame);
        chosen.dedup_by_key(|k| k.frame);
        let times = chosen.iter().map(|k| seconds(i64::from(k.frame) - base)).collect();
        let values = chosen
            .iter()
            .map(|k| (value(k.value, false), k.tangents.map(|[a, b]| [value(a, true), value(b, true)])))
            .collect();
        (times, values)
    }
    let values = match (&t.tag.0, &t.keys) {
        (b"KGTR", Keys::Vec3(k)) => {
            // Values and Bezier control points get the rest offset; Hermite tangents do not.
            let (times, v) = pick(k, keep, base, |v, tangent| {
                WARCRAFT.vector_to_ir(if tangent && !bezier { v } else { add(offset, v) })
            });
            (ChannelValues::Translation(cubic(&times, v, bezier, interpolation)), times)
        }
        (b"KGSC", Keys::Vec3(k)) => {
            let (times, v) = pick(k, keep, base, |v, _| WARCRAFT.scale_to_ir(v));
            (ChannelValues::Scale(cubic(&times, v, bezier, interpolation)), times)
        }
        (b"KGRT", Keys::Quat(k)) => {
            let (times, v) = pick(k, keep, base, |q, tangent| {
                let q = WARCRAFT.quat_to_ir(q);
                let norm = relic_core::math::quat_norm(q);
                if tangent || norm.is_nan() || norm <= 0.0 { q } else { q.map(|c| c / norm) }
            });
            (ChannelValues::Rotation(cubic(&times, v, bezier, interpolation)), times)
        }
        _ => return None,
    };
    let (values, times) = values;
    if times.is_empty() {
        return None;
    }
    let clock = global.map_or(Clock::Animation, Clock::Global);
    Some(Channel { bone, clock, interpolation, times, values })
}

/// Values for the channel: one per key, or (in, value, out) per key for a cubic spline with the
/// tangents per second (spec §7).
fn cubic<const N: usize>(
    times: &[f32],
    keys: Vec<FrameKey<N>>,
    bezier: bool,
    interpolation: Interpolation,
) -> Vec<[f32; N]> {
    if interpolation != Interpolation::CubicSpline {
        return keys.into_iter().map(|(v, _)| v).collect();
    }
    let span = |i: usize| match (times.get(i), times.get(i + 1)) {
        (Some(a), Some(b)) if b > a => Some(b - a),
        _ => None,
    };
    let mut out = Vec::with_capacity(keys.len() * 3);
    for (k, (p, t)) in keys.into_iter().enumerate() {
        let [i, o] = t.unwrap_or([p, p]);
        let after = span(k);
        let before = k.checked_sub(1).and_then(span);
        let (before, after) = (before.or(after).unwrap_or(1.0), after.or(before).unwrap_or(1.0));
        let (m_in, m_out): ([f32; N], [f32; N]) = if bezier {
            (
                std::array::from_fn(|c| 3.0 * (p.get(c).copied().unwrap_or(0.0) - i.get(c).copied().unwrap_or(0.0))),
                std::array::from_fn(|c| 3.0 * (o.get(c).copied().unwrap_or(0.0) - p.get(c).copied().unwrap_or(0.0))),
            )
        } else {
            (i, o)
        };
        out.push(m_in.map(|x| x / before));
        out.push(p);
        out.push(m_out.map(|x| x / after));
    }
    out
}

/// The model's materials.
fn materials(file: &MdxFile) -> Vec<ir::Material> {
    let textures: Vec<&Texture> =
        file.chunks.iter().filter_map(|c| if let Chunk::Textures(t) = c { Some(t) } else { None }).flatten().collect();
    let mut out = Vec::new();
    let mut index = 0usize;
    for chunk in &file.chunks {
        let Chunk::Materials(v) = chunk else { continue };
        for m in v {
            let first = m.layers.first();
            let layer_flags = first.map_or(0, |l| l.shading_flags);
            let blend = match first.map_or(0, |l| l.filter_mode) {
                1 => BlendMode::AlphaKey,
                2 => BlendMode::Alpha,
                3 => BlendMode::Add,
                4 => BlendMode::AddAlpha,
                5 => BlendMode::Modulate,
                6 => BlendMode::Modulate2x,
                _ => BlendMode::Opaque,
            };
            let refs = m
                .layers
                .iter()
                .filter_map(|l| {
                    let t = textures.get(usize::try_from(l.texture_id).ok()?)?;
                    Some(TextureRef {
                        path: t.path.to_text(),
                        replaceable: (t.replaceable_id != 0).then_some(t.replaceable_id),
                        uv_set: (l.shading_flags & 0x2 == 0).then_some(l.coord_id),
                        wrap_u: t.flags & 1 != 0,
                        wrap_v: t.flags & 2 != 0,
                        ..TextureRef::default()
                    })
                })
                .collect();
            out.push(ir::Material {
                name: format!("material {index}"),
                textures: refs,
                blend,
                double_sided: layer_flags & 0x10 != 0,
                unlit: layer_flags & 0x1 != 0,
                unfogged: layer_flags & 0x20 != 0,
                depth_write: layer_flags & 0x80 == 0,
                alpha_cutoff: (blend == BlendMode::AlphaKey).then_some(0.75),
                specular: None,
            });
            index += 1;
        }
    }
    out
}

/// The most nodes a vertex group gives a vertex (spec §6.3: VH supports 8; real groups have up to
/// 7).
const MAX_GROUP: usize = 8;

fn mesh(index: usize, g: &Geoset, sk: &Skeleton, bone_count: usize, material_count: usize) -> Result<Mesh, ReadError> {
    let n = g.vertices.len();
    let bad = |what: String| ReadError::document(format!("GEOS[{index}]: {what}"));
    let mut triangles = Vec::new();
    let mut at = 0usize;
    for (&kind, &count) in g.face_types.iter().zip(&g.face_counts) {
        let end = at.saturating_add(count as usize).min(g.indices.len());
        if kind == 4 {
            for tri in g.indices.get(at..end).unwrap_or_default().chunks_exact(3) {
                if let [a, b, c] = *tri {
                    let t = [u32::from(a), u32::from(b), u32::from(c)];
                    if let Some(&v) = t.iter().find(|&&v| v as usize >= n) {
                        return Err(bad(format!("a triangle names vertex {v} of {n}")));
                    }
                    triangles.push(t);
                }
            }
        }
        at = end;
    }
    let bone_of = |object_id: u32| -> Option<u32> {
        let node = sk.by_id.get(&i32::try_from(object_id).ok()?)?;
        u32::try_from(*sk.rank.get(*node)?).ok()
    };
    let mut per_vertex: Vec<Vec<Influence>> = vec![Vec::new(); n];
    let skin_bytes = g.hd.iter().find_map(|s| if let HdSection::Skin(s) = s { Some(&s.bytes) } else { None });
    if let Some(bytes) = skin_bytes.filter(|b| b.len() == 8 * n) {
        for (v, chunk) in bytes.chunks_exact(8).enumerate() {
            let (ids, weights) = chunk.split_at(4);
            let list: Vec<Influence> = ids
                .iter()
                .zip(weights)
                .filter(|(_, w)| **w > 0)
                .filter_map(|(&id, &w)| Some(Influence { bone: bone_of(u32::from(id))?, weight: f32::from(w) }))
                .collect();
            if let Some(slot) = per_vertex.get_mut(v) {
                *slot = list;
            }
        }
    } else if g.vertex_groups.len() == n {
        let mut starts = Vec::with_capacity(g.matrix_group_sizes.len());
        let mut s = 0usize;
        for &size in &g.matrix_group_sizes {
            starts.push((s, size as usize));
            s = s.saturating_add(size as usize);
        }
        for (v, &group) in g.vertex_groups.iter().enumerate() {
            let Some(&(s, size)) = starts.get(usize::from(group)) else { continue };
            // The game averages at most 8 nodes a vertex (spec §6.3); the rest of a larger group
            // would only cost memory.
            let ids = g.matrix_indices.get(s..s.saturating_add(size.min(MAX_GROUP))).unwrap_or_default();
            let list: Vec<Influence> =
                ids.iter().filter_map(|&id| Some(Influence { bone: bone_of(id)?, weight: 1.0 })).collect();
            if let Some(slot) = per_vertex.get_mut(v) {
                *slot = list;
            }
        }
    }
    let skinned = bone_count > 0 && per_vertex.iter().any(|l| !l.is_empty());
    let skin = if skinned {
        ir::Skin::from_vertices(per_vertex.into_iter().map(|mut list| {
            if list.is_empty() {
                list.push(Influence { bone: 0, weight: 1.0 });
            }
            let sum: f32 = list.iter().map(|i| i.weight).sum();
            for i in &mut list {
                i.weight /= sum;
            }
            list
        }))
    } else {
        ir::Skin::default()
    };
    let material = usize::try_from(g.material_id).ok().filter(|&m| m < material_count);
    Ok(Mesh {
        name: format!("geoset {index}"),
        material,
        positions: g.vertices.iter().map(|v| WARCRAFT.vector_to_ir(*v)).collect(),
        normals: if g.normals.len() == n {
            g.normals.iter().map(|v| WARCRAFT.vector_to_ir(*v)).collect()
        } else {
            Vec::new()
        },
        uv_sets: g.uv_sets.iter().filter(|s| s.uvs.len() == n).take(2).map(|s| s.uvs.clone()).collect(),
        skin,
        triangles,
        lod: Lod { level: g.lod.as_ref().map_or(0, |l| l.lod), distance: 0.0 },
        ..Mesh::default()
    })
}
