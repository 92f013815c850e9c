//! Common model → v6 file.
//!
//! v6 has one mesh whose vertices each belong rigidly to one node, in that node's local space, and
//! no bind pose (the engine uses animation 0, key 0). Vertices are placed with the model's bind
//! matrices, so the posed mesh is the model's at every key. Morph targets become mesh-deformation
//! frames (positions per key, quantised to bytes per node and animation). A v6 model must have
//! an animation with a key (the games crash otherwise): a model without one gets `base`.

use relic_core::binary::PackedNormal;
use relic_core::frame::Frame;
use relic_core::math::{self, IDENTITY, Mat4};
use relic_core::model::{Aabb, Animation, Model};
use relic_core::{Loss, WriteError};

use crate::common::{NodeKey, len_string};
use crate::extras::{AbcExtras, FamilyExtras, V6Extras, bind_digest, mesh_digest, morph_digest};
use crate::from_ir::{
    BoneTracks, Skeleton, bone_tracks, key_commands, key_times, millis, morph_weights, sample_local, stored_name,
};
use crate::v6::{
    AnimDims, FILE_TOKEN, Geometry, Triangle, V6Animation, V6Animations, V6File, V6Header, V6Keyframe, V6Node,
    V6NodeAnim, V6Nodes, V6SectionId, V6Vertex,
};
use relic_core::math::zip3;

/// Builds a v6 file from a valid model.
pub(crate) fn build(model: &Model, extras: Option<&AbcExtras>, losses: &mut Vec<Loss>) -> Result<V6File, WriteError> {
    let ex = match extras.map(|e| &e.family) {
        Some(FamilyExtras::V6(x)) => Some(x),
        Some(FamilyExtras::V12(x)) => {
            let mut dropped = Vec::new();
            if x.child_models.as_ref().is_some_and(|c| !c.children.is_empty()) {
                dropped.push("child models");
            }
            if !x.weight_sets.is_empty() {
                dropped.push("weight sets");
            }
            if x.anim_bindings.as_ref().is_some_and(|b| b.groups.len() > 1) {
                dropped.push("child-model animation bindings");
            }
            dropped.push("radius, LOD weights, animation dims");
            losses.push(Loss::new("extras", format!("not stored by v6: {}", dropped.join(", "))));
            None
        }
        None => None,
    };
    let transform_info = ex.and_then(|x| x.transform_info);
    let frame = if transform_info.is_some_and(|t| t.flip_mat == 0) {
        crate::to_ir::V12_FRAME
    } else {
        crate::to_ir::V6_FLIPPED_FRAME
    };
    let conjugate = transform_info.is_none_or(|t| t.fix_anim_keyframes != 0);
    let sk = Skeleton::new(model, true, losses);
    if !model.attachments.is_empty() {
        losses.push(Loss::new("attachments", format!("{} sockets dropped (v6 has none)", model.attachments.len())));
    }
    let inverse_binds: Vec<Mat4> =
        sk.binds.iter().map(|b| math::inverse(&frame.matrix_from_ir(b)).unwrap_or(IDENTITY)).collect();
    let binds_fit = ex.is_some_and(|x| sk.identity && x.bind_digest == bind_digest(&model.bones));
    let nodes_fit = ex.filter(|x| x.nodes.len() == sk.nodes.len());

    let mut geo = build_geometry(model, &sk, ex.filter(|_| binds_fit), &inverse_binds, frame, losses)?;
    let mut anims: Vec<Animation> = model.animations.clone();
    if anims.is_empty() {
        losses.push(Loss::new("animations", "added animation \"base\" holding the rest pose (a v6 model needs one)"));
        anims.push(Animation { name: "base".into(), ..Animation::default() });
    }
    let key_ms: Vec<Vec<u32>> =
        anims.iter().map(|a| key_times(a, &a.key_bounds.iter().map(|k| k.time).collect::<Vec<_>>(), losses)).collect();
    let md = mesh_deformation(model, &anims, &key_ms, &geo, ex, &inverse_binds, sk.nodes.len(), frame);
    let nodes = build_nodes(model, &sk, &geo, &md, nodes_fit.filter(|_| geo.exact), nodes_fit, losses);

    let mut animations = Vec::with_capacity(anims.len());
    for (a, (anim, times)) in anims.iter().zip(&key_ms).enumerate() {
        animations.push(build_animation(model, &sk, a, anim, times, &geo, &md, conjugate, frame, losses));
    }
    if !geo.exact {
        geo.geometry.bounds_min = [0.0; 3];
        geo.geometry.bounds_max = [0.0; 3];
        let boxes = animations
            .iter()
            .flat_map(|a| &a.keyframes)
            .filter(|k| k.bounds_min != [0.0; 3] || k.bounds_max != [0.0; 3]);
        let corners: Vec<[f32; 3]> = boxes.flat_map(|k| [k.bounds_min, k.bounds_max]).collect();
        if let Some(b) = Aabb::of_points(&corners) {
            geo.geometry.bounds_min = b.min;
            geo.geometry.bounds_max = b.max;
        }
    }
    let computed_dims = || AnimDims { dims: animations.iter().map(half_extents).collect() };
    let anim_dims = match ex {
        Some(x) => x.anim_dims.as_ref().map(|d| match d.len() == animations.len() {
            true => AnimDims { dims: d.clone() },
            false => computed_dims(),
        }),
        None => Some(computed_dims()),
    };
    let (unknown, mut order) = match ex {
        Some(x) => (x.unknown.clone(), x.order.clone()),
        None => {
            (Vec::new(), vec![V6SectionId::Geometry, V6SectionId::Nodes, V6SectionId::Animation, V6SectionId::AnimDims])
        }
    };
    order.retain(|id| match id {
        V6SectionId::AnimDims => anim_dims.is_some(),
        V6SectionId::TransformInfo => transform_info.is_some(),
        V6SectionId::Unknown(i) => *i < unknown.len(),
        _ => true,
    });
    let command = extras.map_or_else(String::new, |e| e.command_string.clone());
    Ok(V6File {
        header: V6Header {
            file_token: relic_core::binary::LenString(FILE_TOKEN.to_vec()),
            command_string: stored_name(|| "command string".into(), &command, losses),
        },
        geometry: geo.geometry,
        nodes: V6Nodes { nodes },
        animations: V6Animations { animations },
        anim_dims,
        transform_info,
        unknown,
        order,
    })
}

fn half_extents(a: &V6Animation) -> [f32; 3] {
    let ([x0, y0, z0], [x1, y1, z1]) = (a.bounds_min, a.bounds_max);
    [(x1 - x0) / 2.0, (y1 - y0) / 2.0, (z1 - z0) / 2.0]
}

/// The written geometry and where each model vertex went.
struct Geo {
    geometry: Geometry,
    /// True if the stored vertices were used unchanged.
    exact: bool,
    /// Per LOD-0 mesh written: `(mesh index, file vertex of each model vertex)`.
    meshes: Vec<(usize, Vec<u32>)>,
}

fn build_geometry(
    model: &Model,
    sk: &Skeleton,
    ex: Option<&V6Extras>,
    inverse_binds: &[Mat4],
    frame: Frame,
    losses: &mut Vec<Loss>,
) -> Result<Geo, WriteError> {
    let lod0: Vec<usize> = model.meshes.iter().enumerate().filter(|(_, m)| m.lod.level == 0).map(|(i, _)| i).collect();
    let dropped = model.meshes.len() - lod0.len();
    if dropped > 0 {
        losses.push(Loss::new("meshes", format!("{dropped} lower-LOD meshes dropped (v6 LODs are not written)")));
    }
    if lod0.len() > 1 {
        losses.push(Loss::new("meshes", format!("{} meshes merged into the one v6 mesh", lod0.len())));
    }
    if !model.materials.is_empty() {
        losses.push(Loss::new(
            "materials",
            format!("{} materials not stored (v6 models have none)", model.materials.len()),
        ));
    }
    if let (Some(x), [only]) = (ex, lod0.as_slice())
        && let Some(mesh) = model.meshes.get(*only)
        && x.mesh_digest == mesh_digest(mesh)
        && x.vertices.len() + x.splits.len() == mesh.positions.len()
        && x.face_normals.len() == mesh.triangles.len()
    {
        let n = x.vertices.len();
        let file_vertex =
            |v: u32| if (v as usize) < n { v } else { x.splits.get(v as usize - n).copied().unwrap_or(0) };
        let uv = |v: u32| mesh.uv_sets.first().and_then(|s| s.get(v as usize)).copied().unwrap_or([0.0; 2]);
        let triangles = mesh
            .triangles
            .iter()
            .zip(&x.face_normals)
            .map(|(&[a, b, c], normal)| Triangle {
                uvs: [uv(c), uv(b), uv(a)],
                indices: [c, b, a].map(|v| file_vertex(v) as u16),
                normal: PackedNormal(*normal),
            })
            .collect();
        let vertices = x
            .vertices
            .iter()
            .map(|v| V6Vertex {
                position: v.position,
                normal: PackedNormal(v.normal),
                transformation_index: v.node,
                replacements: v.replacements,
            })
            .collect();
        let map = (0..mesh.positions.len() as u32).map(file_vertex).collect();
        let geometry = Geometry {
            bounds_min: x.bounds[0],
            bounds_max: x.bounds[1],
            vertex_start_num: x.vertex_start_num.clone(),
            triangles,
            normal_verts: x.normal_verts,
            vertices,
        };
        return Ok(Geo { geometry, exact: true, meshes: vec![(*only, map)] });
    }
    let mut vertices: Vec<V6Vertex> = Vec::new();
    let mut triangles = Vec::new();
    let mut meshes = Vec::new();
    let mut shared = 0usize;
    for &m in &lod0 {
        let Some(mesh) = model.meshes.get(m) else { continue };
        let element = || format!("meshes[{m}] {:?}", mesh.name);
        if mesh.uv_sets.len() > 1 {
            losses.push(Loss::new(element(), format!("{} UV sets: only the first written", mesh.uv_sets.len())));
        }
        if mesh.skin.is_empty() && !model.bones.is_empty() {
            losses.push(Loss::new(element(), "unskinned mesh bound rigidly to the root node"));
        }
        let base = vertices.len() as u32;
        let normals =
            if mesh.normals.is_empty() { crate::from_ir_v12::computed_normals(mesh) } else { mesh.normals.clone() };
        for (v, p) in mesh.positions.iter().enumerate() {
            let influences = mesh.skin.vertex(v);
            if influences.iter().filter(|i| i.weight > 0.0).count() > 1 {
                shared += 1;
            }
            let strongest = influences.iter().fold(None::<&relic_core::model::Influence>, |best, i| match best {
                Some(b) if b.weight >= i.weight => Some(b),
                _ => Some(i),
            });
            let node = strongest.map_or(0, |i| sk.node(i.bone as usize));
            let node_byte = u8::try_from(node).map_err(|_| WriteError::DoesNotFit {
                field: format!("{} vertex {v}: node", element()),
                value: u64::from(node),
                ty: "u8",
            })?;
            let inv = inverse_binds.get(node as usize).copied().unwrap_or(IDENTITY);
            let local = math::transform_point(&inv, frame.vector_from_ir(*p));
            let n = normals.get(v).copied().unwrap_or([0.0, 1.0, 0.0]);
            let local_n =
                math::normalize3(math::transform_vector(&inv, frame.vector_from_ir(n))).unwrap_or([0.0, 1.0, 0.0]);
            vertices.push(V6Vertex {
                position: local,
                normal: PackedNormal::encode(local_n),
                transformation_index: node_byte,
                replacements: [0, 0],
            });
        }
        let uv = |v: u32| mesh.uv_sets.first().and_then(|s| s.get(v as usize)).copied().unwrap_or([0.0; 2]);
        for &[a, b, c] in &mesh.triangles {
            let indices = [c, b, a].map(|v| base + v);
            let [p0, p1, p2] = indices.map(|i| vertices.get(i as usize).map_or([0.0; 3], |v: &V6Vertex| v.position));
            let normal = math::normalize3(math::cross3(math::sub3(p2, p0), math::sub3(p1, p0)))
                .map_or(PackedNormal([0; 3]), PackedNormal::encode);
            triangles.push((indices, [uv(c), uv(b), uv(a)], normal));
        }
        meshes.push((m, (0..mesh.positions.len() as u32).map(|v| base + v).collect()));
    }
    if shared > 0 {
        losses.push(Loss::new(
            "meshes",
            format!("{shared} vertices with several bone influences bound to their strongest bone only"),
        ));
    }
    if vertices.len() > usize::from(u16::MAX) + 1 {
        return Err(WriteError::DoesNotFit {
            field: "meshes: vertex index".into(),
            value: vertices.len() as u64,
            ty: "u16",
        });
    }
    let triangles = triangles
        .into_iter()
        .map(|(indices, uvs, normal)| Triangle { uvs, indices: indices.map(|i| i as u16), normal })
        .collect();
    let count = vertices.len() as u32;
    let geometry = Geometry {
        bounds_min: [0.0; 3],
        bounds_max: [0.0; 3],
        vertex_start_num: vec![0],
        triangles,
        normal_verts: count,
        vertices,
    };
    Ok(Geo { geometry, exact: false, meshes })
}

/// `[key]`: `(file vertex, node-local position)` of each deformed vertex.
type KeyedPositions = Vec<Vec<(u32, [f32; 3])>>;

/// Mesh-deformation data: per node its MD vertices; per animation and node the frames and their
/// quantisation.
struct Deformation {
    md_vertices: Vec<Vec<u16>>,
    /// `[animation][node]`.
    frames: Vec<Vec<Vec<[u8; 3]>>>,
    /// `[animation][node]`: `(scale, translation)`.
    quantization: Vec<Vec<[[f32; 3]; 2]>>,
    /// `[animation]`: node-local position of each deformed file vertex at each key.
    positions: Vec<KeyedPositions>,
}

#[allow(clippy::too_many_arguments)]
fn mesh_deformation(
    model: &Model,
    anims: &[Animation],
    key_ms: &[Vec<u32>],
    geo: &Geo,
    ex: Option<&V6Extras>,
    inverse_binds: &[Mat4],
    node_count: usize,
    frame: Frame,
) -> Deformation {
    let identity_q = [[1.0f32; 3], [0.0; 3]];
    let stored_q = |a: usize, n: usize| {
        ex.filter(|x| x.animations.len() == anims.len() && x.nodes.len() == node_count)
            .and_then(|x| x.animations.get(a))
            .and_then(|s| s.quantization.get(n))
            .copied()
            .unwrap_or(identity_q)
    };
    // The stored frames, while the morph data is still what they gave.
    if geo.exact
        && let Some(x) = ex
        && x.animations.len() == anims.len()
        && x.nodes.len() == node_count
        && let Some(&(m, _)) = geo.meshes.first()
        && let Some(mesh) = model.meshes.get(m)
    {
        let any_md = x.nodes.iter().any(|n| !n.md_vertices.is_empty());
        let mut start = 0;
        let mut fits = true;
        for (a, (anim, times)) in anims.iter().zip(key_ms).enumerate() {
            let keys = times.len();
            let channel = anim.morph_channels.iter().find(|c| c.mesh == m);
            let range = if any_md && channel.is_some() { start..start + keys } else { 0..0 };
            if any_md && channel.is_some() {
                start += keys;
            }
            let digest = morph_digest(mesh, range, channel);
            fits &= x.animations.get(a).is_some_and(|s| s.morph_digest == digest);
        }
        fits &= start == mesh.morph_targets.len();
        if fits {
            return Deformation {
                md_vertices: x.nodes.iter().map(|n| n.md_vertices.clone()).collect(),
                frames: x.animations.iter().map(|a| a.vertex_frames.clone()).collect(),
                quantization: x.animations.iter().map(|a| a.quantization.clone()).collect(),
                positions: vec![Vec::new(); anims.len()],
            };
        }
    }
    // Deformed file vertices: those a morph target moves, per node.
    let mut md_vertices: Vec<Vec<u16>> = vec![Vec::new(); node_count];
    let mut deformed: Vec<(usize, usize, u32)> = Vec::new(); // (mesh, model vertex, file vertex)
    for (m, map) in &geo.meshes {
        let Some(mesh) = model.meshes.get(*m) else { continue };
        for (v, &f) in map.iter().enumerate() {
            let moves = mesh.morph_targets.iter().any(|t| t.position_deltas.get(v).is_some_and(|d| *d != [0.0; 3]));
            if moves && !deformed.iter().any(|&(_, _, g)| g == f) {
                deformed.push((*m, v, f));
            }
        }
    }
    deformed.sort_by_key(|&(_, _, f)| f);
    let node_of = |f: u32| geo.geometry.vertices.get(f as usize).map_or(0, |v| usize::from(v.transformation_index));
    for &(_, _, f) in &deformed {
        if let Some(list) = md_vertices.get_mut(node_of(f)) {
            list.push(f as u16);
        }
    }
    let mut frames = Vec::with_capacity(anims.len());
    let mut quantization = Vec::with_capacity(anims.len());
    let mut positions = Vec::with_capacity(anims.len());
    for (a, (anim, times)) in anims.iter().zip(key_ms).enumerate() {
        // Node-local positions of each deformed vertex at each key.
        let mut at_keys: Vec<Vec<(u32, [f32; 3])>> = Vec::with_capacity(times.len());
        for &t in times {
            let mut row = Vec::with_capacity(deformed.len());
            for &(m, v, f) in &deformed {
                let Some(mesh) = model.meshes.get(m) else { continue };
                let channel = anim.morph_channels.iter().find(|c| c.mesh == m);
                let weights =
                    channel.map(|c| morph_weights(c, mesh.morph_targets.len(), t as f32 / 1000.0)).unwrap_or_default();
                let mut p = mesh.positions.get(v).copied().unwrap_or_default();
                for (target, w) in mesh.morph_targets.iter().zip(&weights) {
                    if let Some(d) = target.position_deltas.get(v) {
                        p = [p[0] + w * d[0], p[1] + w * d[1], p[2] + w * d[2]];
                    }
                }
                let inv = inverse_binds.get(node_of(f)).copied().unwrap_or(IDENTITY);
                row.push((f, math::transform_point(&inv, frame.vector_from_ir(p))));
            }
            at_keys.push(row);
        }
        let mut node_frames = Vec::with_capacity(node_count);
        let mut node_q = Vec::with_capacity(node_count);
        for (n, list) in md_vertices.iter().enumerate() {
            if list.is_empty() {
                node_frames.push(Vec::new());
                node_q.push(stored_q(a, n));
                continue;
            }
            let points: Vec<[f32; 3]> =
                at_keys.iter().flat_map(|row| row.iter().filter(|(f, _)| node_of(*f) == n).map(|(_, p)| *p)).collect();
            let bounds = Aabb::of_points(&points).unwrap_or(Aabb { min: [0.0; 3], max: [0.0; 3] });
            let scale = zip3(bounds.max, bounds.min, |hi, lo| (hi - lo) / 255.0);
            node_q.push([scale, bounds.min]);
            let quantise = |p: [f32; 3]| -> [u8; 3] {
                let steps = zip3(zip3(p, bounds.min, |p, lo| p - lo), scale, |d, s| if s > 0.0 { d / s } else { 0.0 });
                steps.map(|x| x.round().clamp(0.0, 255.0) as u8)
            };
            let mut bytes = Vec::with_capacity(times.len() * list.len());
            for row in &at_keys {
                for &f in list {
                    let p = row.iter().find(|(g, _)| u32::from(f) == *g).map_or([0.0; 3], |(_, p)| *p);
                    bytes.push(quantise(p));
                }
            }
            node_frames.push(bytes);
        }
        frames.push(node_frames);
        quantization.push(node_q);
        positions.push(at_keys);
    }
    Deformation { md_vertices, frames, quantization, positions }
}

#[allow(clippy::too_many_arguments)]
fn build_nodes(
    model: &Model,
    sk: &Skeleton,
    geo: &Geo,
    md: &Deformation,
    exact: Option<&V6Extras>,
    fits: Option<&V6Extras>,
    losses: &mut Vec<Loss>,
) -> Vec<V6Node> {
    let mut boxes: Vec<Option<Aabb>> = vec![None; sk.nodes.len()];
    for v in &geo.geometry.vertices {
        if let Some(b) = boxes.get_mut(usize::from(v.transformation_index)) {
            *b = Some(b.map_or(Aabb { min: v.position, max: v.position }, |b| b.including(v.position)));
        }
    }
    let mut out = Vec::with_capacity(sk.nodes.len());
    for (i, (&children, bounds)) in sk.child_counts.iter().zip(boxes).enumerate() {
        let md_vertices = md.md_vertices.get(i).cloned().unwrap_or_default();
        let deform = if md_vertices.is_empty() { 0 } else { 4 };
        let stored = fits.and_then(|x| x.nodes.get(i));
        let flags = match stored {
            Some(s) => (s.flags & !4) | deform,
            None => (if bounds.is_some() { 2 } else { 1 }) | deform,
        };
        let (bounds_min, bounds_max) = match exact.and_then(|x| x.nodes.get(i)) {
            Some(s) => (s.bounds[0], s.bounds[1]),
            None => bounds.map_or(([0.0; 3], [0.0; 3]), |b| (b.min, b.max)),
        };
        let name = sk.name(model, i);
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

#[allow(clippy::too_many_arguments)]
fn build_animation(
    model: &Model,
    sk: &Skeleton,
    a: usize,
    anim: &Animation,
    times: &[u32],
    geo: &Geo,
    md: &Deformation,
    conjugate: bool,
    frame: Frame,
    losses: &mut Vec<Loss>,
) -> V6Animation {
    let tracks: Vec<BoneTracks<'_>> = bone_tracks(model, anim, losses);
    let mut commands = key_commands(anim, losses);
    // Local transforms per node and key (model frame).
    let locals: Vec<Vec<relic_core::model::Transform>> = (0..sk.nodes.len())
        .map(|n| {
            let bone = sk.bone(model, n);
            let tr = sk.nodes.get(n).copied().flatten().and_then(|b| tracks.get(b));
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
    for (k, &t) in times.iter().enumerate() {
        let stored = anim.key_bounds.iter().find(|b| millis(b.time) == t).map(|b| box_from_ir(frame, &b.bounds));
        let (bounds_min, bounds_max) =
            stored.unwrap_or_else(|| posed_box(sk, &locals, k, geo, md.positions.get(a).and_then(|p| p.get(k)), frame));
        keyframes.push(V6Keyframe {
            time: t,
            bounds_min,
            bounds_max,
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
            vertex_frames: md.frames.get(a).and_then(|f| f.get(n)).cloned().unwrap_or_default(),
            scale: md.quantization.get(a).and_then(|q| q.get(n)).map_or([1.0; 3], |q| q[0]),
            translation: md.quantization.get(a).and_then(|q| q.get(n)).map_or([0.0; 3], |q| q[1]),
        })
        .collect();
    let (bounds_min, bounds_max) = match &anim.bounds {
        Some(b) => box_from_ir(frame, b),
        None => {
            let corners: Vec<[f32; 3]> =
                keyframes.iter().flat_map(|k: &V6Keyframe| [k.bounds_min, k.bounds_max]).collect();
            Aabb::of_points(&corners).map_or(([0.0; 3], [0.0; 3]), |b| (b.min, b.max))
        }
    };
    V6Animation {
        name: stored_name(|| format!("animations[{a}]"), &anim.name, losses),
        length: millis(anim.duration),
        bounds_min,
        bounds_max,
        keyframes,
        node_anims,
    }
}

fn box_from_ir(frame: Frame, b: &Aabb) -> ([f32; 3], [f32; 3]) {
    let (p, q) = (frame.vector_from_ir(b.min), frame.vector_from_ir(b.max));
    let ([p0, p1, p2], [q0, q1, q2]) = (p, q);
    ([p0.min(q0), p1.min(q1), p2.min(q2)], [p0.max(q0), p1.max(q1), p2.max(q2)])
}

/// The box (file frame) of the mesh posed at key `k`: node-local vertices (deformed ones at their
/// keyed positions) through the node matrices of that key.
fn posed_box(
    sk: &Skeleton,
    locals: &[Vec<relic_core::model::Transform>],
    k: usize,
    geo: &Geo,
    deformed: Option<&Vec<(u32, [f32; 3])>>,
    frame: Frame,
) -> ([f32; 3], [f32; 3]) {
    let mut globals: Vec<Mat4> = Vec::with_capacity(sk.nodes.len());
    for (n, parent) in sk.parents.iter().enumerate() {
        let local = locals.get(n).and_then(|l| l.get(k)).map_or(IDENTITY, |t| t.to_matrix());
        globals.push(match parent.and_then(|p| globals.get(p)) {
            Some(p) => math::mul(p, &local),
            None => local,
        });
    }
    let mut points = Vec::with_capacity(geo.geometry.vertices.len());
    for (f, v) in geo.geometry.vertices.iter().enumerate() {
        let local = deformed.and_then(|d| d.iter().find(|(g, _)| *g as usize == f)).map_or(v.position, |(_, p)| *p);
        let g = globals.get(usize::from(v.transformation_index)).copied().unwrap_or(IDENTITY);
        points.push(frame.vector_from_ir(math::transform_point(&g, frame.vector_to_ir(local))));
    }
    Aabb::of_points(&points).map_or(([0.0; 3], [0.0; 3]), |b| (b.min, b.max))
}
