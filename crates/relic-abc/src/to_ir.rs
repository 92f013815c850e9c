//! ABC → common model.
//!
//! * Frame: v9–v13 are LithTech's left-handed +Y-up frame facing +Z, [`V12_FRAME`]
//!   (mirror X, so the model still faces glTF's front, +Z). v6 geometry is stored with Z flipped:
//!   the engine flips it (`TransformInfo.FlipMat`, and always for LithTech 1.0 files, which have
//!   no `TransformInfo`) before it lives in that frame, so such files map with
//!   [`V6_FLIPPED_FRAME`] (the two mirrors cancel: a half turn about Y); a v6 file with
//!   `FlipMat = 0` maps like v9–v13. Triangle winding is reversed for both families: that makes
//!   the model's triangles counter-clockwise around the stored normals (checked on every real
//!   file by the winding test in `tests/ir.rs`).
//! * Times: milliseconds → seconds. Rotations: v6 keys are conjugated (unless `TransformInfo`
//!   says otherwise), v9–v13 keys are not.
//! * v6 has no bind pose: animation 0 key 0 is the reference pose (as in the engine). Its vertices
//!   are node-local; the model gets them in model space at that pose.
//! * v9–v13 node matrices are the bind pose; weights are the biases normalised to sum 1.
//! * A vertex whose face corners carry different UVs becomes one model vertex per UV.
//! * v6 mesh deformation becomes one morph target per animation key, driven by a morph channel
//!   per animation.

use std::collections::HashMap;

use relic_core::frame::{Axis, Frame};
use relic_core::math::{self, IDENTITY, Mat4};
use relic_core::model::{
    Aabb, Animation, Bone, BoneFlags, Channel, ChannelValues, Clock, Event, Influence, Interpolation, KeyBounds, Lod,
    Material, Mesh, Model, MorphChannel, MorphTarget, Skin, SourceInfo, Specular, Transform,
};
use relic_core::{ReadError, ReadErrorKind};

use crate::common::{NodeKey, text};
use crate::extras::{
    AbcExtras, AnimExtras, FamilyExtras, LodExtras, NodeExtras, PieceExtras, RawV6Vertex, V6AnimExtras, V6Extras,
    V6NodeExtras, V12Extras, bind_digest, mesh_digest, morph_digest,
};
use crate::file::AbcFile;
use crate::v6::V6File;
use crate::v12::{PieceLod, V12File, tree_parents};
use relic_core::math::zip3;

/// The frame of v9–v13 files.
pub const V12_FRAME: Frame = Frame::new([Axis::NegX, Axis::Y, Axis::Z]);
/// LithTech 1.0/1.5 v6 geometry as stored when the engine flips Z on load (`TransformInfo`
/// FlipMat 1, or no `TransformInfo`): right-handed, +Y up, facing −Z; canonical `(−x, y, −z)`.
pub const V6_FLIPPED_FRAME: Frame = Frame::new([Axis::NegX, Axis::Y, Axis::NegZ]);

/// The frame of a v6 file (see the module documentation).
pub fn v6_frame(file: &V6File) -> Frame {
    if file.flips_z() { V6_FLIPPED_FRAME } else { V12_FRAME }
}

/// Interpolation time of animations in files older than v12 (as the engine assumes).
pub const DEFAULT_BLEND_MS: u32 = 200;

/// Morph data larger than this many floats is refused rather than built (a v6 file of a few MB
/// could otherwise ask for gigabytes of morph weights).
const MORPH_FLOAT_LIMIT: usize = 64 << 20;

/// Maps a parsed file to the common model.
pub fn to_ir(file: &AbcFile) -> Result<Model, ReadError> {
    match file {
        AbcFile::V6(f) => v6_to_ir(f),
        AbcFile::V12(f) => Ok(v12_to_ir(f)),
    }
}

/// Milliseconds → seconds.
pub fn seconds(ms: u32) -> f32 {
    ms as f32 / 1000.0
}

/// A row-major file matrix as a column-major model matrix (same frame).
pub fn column_major(row_major: &[f32; 16]) -> Mat4 {
    std::array::from_fn(|i| row_major.get((i % 4) * 4 + i / 4).copied().unwrap_or(0.0))
}

fn box_to_ir(frame: Frame, min: [f32; 3], max: [f32; 3]) -> Aabb {
    let (a, b) = (frame.vector_to_ir(min), frame.vector_to_ir(max));
    Aabb { min: zip3(a, b, f32::min), max: zip3(a, b, f32::max) }
}

/// Model vertices from face corners: model vertex `v` is file vertex `v` with the UV of its first
/// corner; a corner of the same vertex with another UV adds a copy after the file's vertices.
struct CornerSplit {
    uvs: Vec<[f32; 2]>,
    seen: Vec<bool>,
    splits: Vec<u32>,
    copies: HashMap<(u32, [u32; 2]), u32>,
}

impl CornerSplit {
    fn new(vertices: usize) -> Self {
        Self { uvs: vec![[0.0; 2]; vertices], seen: vec![false; vertices], splits: Vec::new(), copies: HashMap::new() }
    }

    /// The model vertex of a corner (`v` is in range: checked when the file was read).
    fn corner(&mut self, v: u32, uv: [f32; 2]) -> u32 {
        let i = v as usize;
        match (self.seen.get_mut(i), self.uvs.get_mut(i)) {
            (Some(seen), Some(slot)) if !*seen => {
                *seen = true;
                *slot = uv;
                return v;
            }
            (Some(_), Some(slot)) if slot.map(f32::to_bits) == uv.map(f32::to_bits) => return v,
            _ => {}
        }
        let next = self.uvs.len() as u32;
        *self.copies.entry((v, uv.map(f32::to_bits))).or_insert_with(|| {
            self.splits.push(v);
            self.uvs.push(uv);
            next
        })
    }

    /// Appends, for every copy, the value of the vertex it copies.
    fn extend<T: Copy>(&self, values: &mut Vec<T>) {
        for &s in &self.splits {
            if let Some(&v) = values.get(s as usize) {
                values.push(v);
            }
        }
    }
}

fn skin_with_copies(per_vertex: Vec<Vec<Influence>>, split: &CornerSplit) -> Skin {
    let copies: Vec<Vec<Influence>> =
        split.splits.iter().map(|&s| per_vertex.get(s as usize).cloned().unwrap_or_default()).collect();
    Skin::from_vertices(per_vertex.into_iter().chain(copies))
}

// ---------------------------------------------------------------------------------------------
// v9–v13
// ---------------------------------------------------------------------------------------------

fn v12_to_ir(file: &V12File) -> Model {
    let frame = V12_FRAME;
    let mut model = Model { source: Some(source(file.header.version)), ..Model::default() };
    let nodes = file.nodes.as_ref().map(|n| n.nodes.as_slice()).unwrap_or_default();
    let parents = tree_parents(nodes.iter().map(|n| n.child_count)).unwrap_or_else(|_| vec![None; nodes.len()]);
    let binds: Vec<Mat4> = nodes.iter().map(|n| frame.matrix_to_ir(&column_major(&n.matrix))).collect();
    for ((node, parent), bind) in nodes.iter().zip(&parents).zip(&binds) {
        let local = match parent.and_then(|p| binds.get(p)).and_then(math::inverse) {
            Some(inv_parent) => math::mul(&inv_parent, bind),
            None => *bind,
        };
        let (translation, rotation, scale) = math::decompose(&local);
        model.bones.push(Bone {
            name: text(&node.name),
            parent: *parent,
            rest: Transform { translation, rotation, scale },
            bind_matrix: *bind,
            inverse_bind_matrix: math::inverse(bind).unwrap_or(IDENTITY),
            flags: BoneFlags { rotation_only: node.flags & 2 != 0, ..BoneFlags::default() },
        });
    }
    let pieces = file.pieces.as_ref().map(|p| p.pieces.as_slice()).unwrap_or_default();
    let mut slots: Vec<u16> = pieces.iter().map(|p| p.material_index).collect();
    slots.sort_unstable();
    slots.dedup();
    for &slot in &slots {
        let first = pieces.iter().find(|p| p.material_index == slot);
        model.materials.push(Material {
            name: format!("material {slot}"),
            specular: first.map(|p| Specular { power: p.specular_power, scale: p.specular_scale }),
            depth_write: true,
            ..Material::default()
        });
    }
    let mut piece_extras = Vec::new();
    for piece in pieces {
        let material = slots.binary_search(&piece.material_index).ok();
        let mut lods = Vec::new();
        for (level, lod) in piece.lods.iter().enumerate() {
            let distance = match level {
                0 => 0.0,
                l => file.header.lod_distances.get(l - 1).copied().unwrap_or(0.0),
            };
            let (mut mesh, extras) = v12_lod_mesh(lod, frame);
            mesh.name = text(&piece.name);
            mesh.material = material;
            mesh.lod = Lod { level: level as u32, distance };
            lods.push(LodExtras { digest: mesh_digest(&mesh), ..extras });
            model.meshes.push(mesh);
        }
        piece_extras.push(PieceExtras {
            material_index: piece.material_index,
            specular_power: piece.specular_power,
            specular_scale: piece.specular_scale,
            lod_weight: piece.lod_weight,
            unknown: piece.unknown,
            lods,
        });
    }
    let mut anim_extras = Vec::new();
    if let Some(a) = &file.animations {
        for anim in &a.animations {
            let keys = anim.keyframes.len();
            let times: Vec<f32> = anim.keyframes.iter().map(|k| seconds(k.time)).collect();
            let mut channels = Vec::new();
            if keys > 0 {
                for n in 0..nodes.len() {
                    channels.extend(node_channels(n, &times, anim.tracks.node(n, keys), frame, false));
                }
            }
            let events = anim
                .keyframes
                .iter()
                .filter(|k| !k.command.0.is_empty())
                .map(|k| Event { time: seconds(k.time), name: text(&k.command), ..Event::default() })
                .collect();
            model.animations.push(Animation {
                name: text(&anim.name),
                duration: times.last().copied().unwrap_or(0.0),
                looping: false,
                blend_in: seconds(anim.interpolation_time.unwrap_or(DEFAULT_BLEND_MS)),
                channels,
                morph_channels: Vec::new(),
                events,
                bounds: None,
                key_bounds: Vec::new(),
            });
            anim_extras.push(AnimExtras {
                name: text(&anim.name),
                dims: anim.dims,
                marker: anim.marker,
                node_prefixes: anim.tracks.node_prefixes.clone(),
                key_extras: anim.tracks.key_extras.clone(),
            });
        }
    }
    if let Some(s) = &file.sockets {
        for socket in &s.sockets {
            model.attachments.push(relic_core::model::Attachment {
                name: text(&socket.name),
                id: None,
                bone: socket.node_index as usize,
                transform: Transform {
                    translation: frame.vector_to_ir(socket.position),
                    rotation: frame.quat_to_ir(socket.rotation),
                    scale: [1.0; 3],
                },
            });
        }
    }
    let h = &file.header;
    let extras = V12Extras {
        internal_radius: h.internal_radius,
        padding: h.padding.to_vec(),
        v13_unknown: h.v13_unknown,
        lod_count: h.lod_count,
        lod_distances: h.lod_distances.clone(),
        pieces: piece_extras,
        bind_digest: bind_digest(&model.bones),
        nodes: nodes.iter().map(|n| NodeExtras { index: n.index, flags: n.flags }).collect(),
        weight_sets: file.nodes.as_ref().map(|n| n.weight_sets.clone()).unwrap_or_default(),
        child_models: file.child_models.clone(),
        animations: anim_extras,
        anim_bindings: file.anim_bindings.clone(),
        unknown: file.unknown.clone(),
        order: file.order.clone(),
    };
    model.extras = Some(
        AbcExtras { version: h.version, command_string: text(&h.command_string), family: FamilyExtras::V12(extras) }
            .into_format_extras(),
    );
    model
}

fn source(version: u32) -> SourceInfo {
    SourceInfo { format: crate::FORMAT, version }
}

/// Translation and rotation channels of node `n` (none without keys).
fn node_channels(n: usize, times: &[f32], keys: &[NodeKey], frame: Frame, conjugate: bool) -> [Channel; 2] {
    let translations = keys.iter().map(|k| frame.vector_to_ir(k.translation)).collect();
    let rotations = keys
        .iter()
        .map(|k| frame.quat_to_ir(if conjugate { math::quat_conjugate(k.rotation) } else { k.rotation }))
        .collect();
    let channel = |values| Channel {
        bone: n,
        clock: Clock::Animation,
        interpolation: Interpolation::Linear,
        times: times.to_vec(),
        values,
    };
    [channel(ChannelValues::Translation(translations)), channel(ChannelValues::Rotation(rotations))]
}

/// The model mesh of one piece LOD (name, material and LOD are filled in by the caller).
fn v12_lod_mesh(lod: &PieceLod, frame: Frame) -> (Mesh, LodExtras) {
    let n = lod.vertices.len();
    let mut split = CornerSplit::new(n);
    let mut triangles = Vec::with_capacity(lod.faces.len());
    for face in &lod.faces {
        let [a, b, c] = face.corners.map(|k| split.corner(u32::from(k.vertex), k.uv));
        triangles.push([c, b, a]);
    }
    let mut positions: Vec<[f32; 3]> = lod.vertices.iter().map(|v| frame.vector_to_ir(v.position)).collect();
    let mut normals: Vec<[f32; 3]> = lod.vertices.iter().map(|v| frame.vector_to_ir(v.normal)).collect();
    split.extend(&mut positions);
    split.extend(&mut normals);
    let influences: Vec<Vec<Influence>> = lod.vertex_weights().map(|(_, w)| normalised(w)).collect();
    let skin = skin_with_copies(influences, &split);
    let extras = LodExtras {
        weight_counts: lod.vertices.iter().map(|v| v.weight_count).collect(),
        weights: lod.weights.clone(),
        sub_lod: lod.vertices.iter().map(|v| v.sub_lod_vertex).collect(),
        splits: split.splits.clone(),
        digest: 0,
    };
    let mesh = Mesh { positions, normals, uv_sets: vec![split.uvs], skin, triangles, ..Mesh::default() };
    (mesh, extras)
}

/// Influences from stored weights: biases normalised to sum 1 (§4.7; the stored sums are not 1).
/// Negative biases count as 0; a vertex without usable weights is shared equally (or, without
/// any weight, bound to node 0).
fn normalised(weights: &[crate::v12::Weight]) -> Vec<Influence> {
    if weights.is_empty() {
        return vec![Influence { bone: 0, weight: 1.0 }];
    }
    let biases: Vec<f32> = weights.iter().map(|w| if w.bias.is_finite() { w.bias.max(0.0) } else { 0.0 }).collect();
    let sum: f32 = biases.iter().sum();
    let share = 1.0 / weights.len() as f32;
    weights
        .iter()
        .zip(biases)
        .map(|(w, b)| Influence {
            bone: w.node_index,
            weight: if sum > 0.0 && sum.is_finite() { b / sum } else { share },
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// v6
// ---------------------------------------------------------------------------------------------

/// The model-space (model frame) matrices of every node at key `k` of animation `a`: the v6 pose.
pub fn v6_globals(file: &V6File, animation: usize, key: usize, parents: &[Option<usize>]) -> Vec<Mat4> {
    let frame = v6_frame(file);
    let conjugate = file.conjugates_keys();
    let anim = file.animations.animations.get(animation);
    let mut out: Vec<Mat4> = Vec::with_capacity(parents.len());
    for (n, parent) in parents.iter().enumerate() {
        let k =
            anim.and_then(|a| a.node_anims.get(n)).and_then(|t| t.keys.get(key)).copied().unwrap_or(NodeKey::IDENTITY);
        let local = v6_local(k, frame, conjugate);
        out.push(match parent.and_then(|p| out.get(p)) {
            Some(p) => math::mul(p, &local.to_matrix()),
            None => local.to_matrix(),
        });
    }
    out
}

fn v6_local(k: NodeKey, frame: Frame, conjugate: bool) -> Transform {
    let q = if conjugate { math::quat_conjugate(k.rotation) } else { k.rotation };
    Transform { translation: frame.vector_to_ir(k.translation), rotation: frame.quat_to_ir(q), scale: [1.0; 3] }
}

fn v6_to_ir(file: &V6File) -> Result<Model, ReadError> {
    let frame = v6_frame(file);
    let conjugate = file.conjugates_keys();
    let mut model = Model { source: Some(source(6)), ..Model::default() };
    let nodes = &file.nodes.nodes;
    let parents = file.nodes.parents();
    let binds = v6_globals(file, 0, 0, &parents);
    let first = file.animations.animations.first();
    for (n, (node, parent)) in nodes.iter().zip(&parents).enumerate() {
        let key = first.and_then(|a| a.node_anims.get(n)).and_then(|t| t.keys.first()).copied();
        let bind = binds.get(n).copied().unwrap_or(IDENTITY);
        model.bones.push(Bone {
            name: text(&node.name),
            parent: *parent,
            rest: key.map_or(Transform::IDENTITY, |k| v6_local(k, frame, conjugate)),
            bind_matrix: bind,
            inverse_bind_matrix: math::inverse(&bind).unwrap_or(IDENTITY),
            flags: BoneFlags::default(),
        });
    }
    let g = &file.geometry;
    let mut split = CornerSplit::new(g.vertices.len());
    let mut triangles = Vec::with_capacity(g.triangles.len());
    let mut face_of_vertex: Vec<Option<usize>> = vec![None; g.vertices.len()];
    for (t, tri) in g.triangles.iter().enumerate() {
        let ([i0, i1, i2], [u0, u1, u2]) = (tri.indices, tri.uvs);
        let [a, b, c] = [(i0, u0), (i1, u1), (i2, u2)].map(|(i, uv)| split.corner(u32::from(i), uv));
        triangles.push([c, b, a]);
        for &i in &tri.indices {
            if let Some(slot @ None) = face_of_vertex.get_mut(usize::from(i)) {
                *slot = Some(t);
            }
        }
    }
    let mut positions = Vec::with_capacity(g.vertices.len());
    let mut normals = Vec::with_capacity(g.vertices.len());
    for (v, vertex) in g.vertices.iter().enumerate() {
        let bind = binds.get(usize::from(vertex.transformation_index)).copied().unwrap_or(IDENTITY);
        positions.push(math::transform_point(&bind, frame.vector_to_ir(vertex.position)));
        let face = face_of_vertex.get(v).copied().flatten().and_then(|t| g.triangles.get(t));
        let local = vertex.normal.decode().or_else(|| face.and_then(|t| t.normal.decode())).unwrap_or([0.0, 1.0, 0.0]);
        let n = math::transform_vector(&bind, frame.vector_to_ir(local));
        normals.push(math::normalize3(n).unwrap_or([0.0, 1.0, 0.0]));
    }
    split.extend(&mut positions);
    split.extend(&mut normals);
    let influences: Vec<Vec<Influence>> =
        g.vertices.iter().map(|v| vec![Influence { bone: u32::from(v.transformation_index), weight: 1.0 }]).collect();
    let skin = skin_with_copies(influences, &split);
    let mut mesh = Mesh {
        name: "geometry".into(),
        positions,
        normals,
        uv_sets: vec![split.uvs.clone()],
        skin,
        triangles,
        ..Mesh::default()
    };
    let mesh_digest_value = mesh_digest(&mesh);
    let (morph_targets, morph_channels) = v6_morphs(file, &mesh, &split, &binds, frame)?;
    mesh.morph_targets = morph_targets;
    model.meshes.push(mesh);

    let mut anim_extras = Vec::new();
    let mut target_start = 0;
    for (anim, morph) in file.animations.animations.iter().zip(morph_channels) {
        let keys = anim.keyframes.len();
        let times: Vec<f32> = anim.keyframes.iter().map(|k| seconds(k.time)).collect();
        let mut channels = Vec::new();
        if keys > 0 {
            for (n, track) in anim.node_anims.iter().enumerate() {
                channels.extend(node_channels(n, &times, &track.keys, frame, conjugate));
            }
        }
        let events = anim
            .keyframes
            .iter()
            .filter(|k| !k.frame_string.0.is_empty())
            .map(|k| Event { time: seconds(k.time), name: text(&k.frame_string), ..Event::default() })
            .collect();
        let key_bounds = anim
            .keyframes
            .iter()
            .map(|k| KeyBounds { time: seconds(k.time), bounds: box_to_ir(frame, k.bounds_min, k.bounds_max) })
            .collect();
        let targets = if morph.is_some() { target_start..target_start + keys } else { 0..0 };
        if morph.is_some() {
            target_start += keys;
        }
        let digest = model.meshes.first().map_or(0, |m| morph_digest(m, targets, morph.as_ref()));
        model.animations.push(Animation {
            name: text(&anim.name),
            duration: seconds(anim.length),
            looping: false,
            blend_in: 0.0,
            channels,
            morph_channels: morph.into_iter().collect(),
            events,
            bounds: Some(box_to_ir(frame, anim.bounds_min, anim.bounds_max)),
            key_bounds,
        });
        anim_extras.push(V6AnimExtras {
            quantization: anim.node_anims.iter().map(|t| [t.scale, t.translation]).collect(),
            vertex_frames: anim.node_anims.iter().map(|t| t.vertex_frames.clone()).collect(),
            morph_digest: digest,
        });
    }
    let extras = V6Extras {
        bounds: [g.bounds_min, g.bounds_max],
        vertex_start_num: g.vertex_start_num.clone(),
        normal_verts: g.normal_verts,
        vertices: g
            .vertices
            .iter()
            .map(|v| RawV6Vertex {
                position: v.position,
                normal: v.normal.0,
                node: v.transformation_index,
                replacements: v.replacements,
            })
            .collect(),
        face_normals: g.triangles.iter().map(|t| t.normal.0).collect(),
        splits: split.splits.clone(),
        mesh_digest: mesh_digest_value,
        bind_digest: bind_digest(&model.bones),
        nodes: nodes
            .iter()
            .map(|n| V6NodeExtras {
                bounds: [n.bounds_min, n.bounds_max],
                transformation_index: n.transformation_index,
                flags: n.flags,
                md_vertices: n.md_vertices.clone(),
            })
            .collect(),
        animations: anim_extras,
        anim_dims: file.anim_dims.as_ref().map(|d| d.dims.clone()),
        transform_info: file.transform_info,
        unknown: file.unknown.clone(),
        order: file.order.clone(),
    };
    model.extras = Some(
        AbcExtras { version: 6, command_string: text(&file.header.command_string), family: FamilyExtras::V6(extras) }
            .into_format_extras(),
    );
    Ok(model)
}

/// Mesh deformation as morph targets: one target per key of every animation (when any node has
/// deformed vertices), the delta from the reference pose in model space; per animation a morph
/// channel that is 1 on that key's target at the key's time.
fn v6_morphs(
    file: &V6File,
    mesh: &Mesh,
    split: &CornerSplit,
    binds: &[Mat4],
    frame: Frame,
) -> Result<(Vec<MorphTarget>, Vec<Option<MorphChannel>>), ReadError> {
    let anims = &file.animations.animations;
    if file.nodes.nodes.iter().all(|n| n.md_vertices.is_empty()) {
        return Ok((Vec::new(), vec![None; anims.len()]));
    }
    let total: usize = anims.iter().map(|a| a.keyframes.len()).sum();
    let vertices = mesh.positions.len();
    let floats = total.saturating_mul(vertices.saturating_mul(3)).saturating_add(total.saturating_mul(total));
    if floats > MORPH_FLOAT_LIMIT {
        return Err(ReadError::at(
            0,
            "Animation",
            ReadErrorKind::Invalid(format!(
                "mesh deformation over {total} keys and {vertices} vertices needs {floats} morph values, more than the {MORPH_FLOAT_LIMIT} relic builds"
            )),
        ));
    }
    // Model vertices of each file vertex (itself and its copies).
    let mut copies: Vec<Vec<u32>> = (0..file.geometry.vertices.len() as u32).map(|v| vec![v]).collect();
    for (i, &s) in split.splits.iter().enumerate() {
        if let Some(c) = copies.get_mut(s as usize) {
            c.push((file.geometry.vertices.len() + i) as u32);
        }
    }
    let mut targets = Vec::with_capacity(total);
    let mut channels = Vec::with_capacity(anims.len());
    for anim in anims {
        let keys = anim.keyframes.len();
        let first = targets.len();
        for k in 0..keys {
            let mut deltas = vec![[0.0f32; 3]; vertices];
            for (n, (node, track)) in file.nodes.nodes.iter().zip(&anim.node_anims).enumerate() {
                let bind = binds.get(n).copied().unwrap_or(IDENTITY);
                let frames = track.vertex_frames.get(k * node.md_vertices.len()..).unwrap_or_default();
                for (&v, bytes) in node.md_vertices.iter().zip(frames) {
                    let local =
                        zip3(zip3(bytes.map(f32::from), track.scale, |b, s| b * s), track.translation, |p, t| p + t);
                    let p = math::transform_point(&bind, frame.vector_to_ir(local));
                    for &m in copies.get(usize::from(v)).map(Vec::as_slice).unwrap_or_default() {
                        if let (Some(d), Some(base)) = (deltas.get_mut(m as usize), mesh.positions.get(m as usize)) {
                            *d = [p[0] - base[0], p[1] - base[1], p[2] - base[2]];
                        }
                    }
                }
            }
            targets.push(MorphTarget {
                name: format!("{}/{k}", text(&anim.name)),
                position_deltas: deltas,
                normal_deltas: Vec::new(),
            });
        }
        let times: Vec<f32> = anim.keyframes.iter().map(|k| seconds(k.time)).collect();
        let mut weights = vec![0.0f32; keys * total];
        for k in 0..keys {
            if let Some(w) = weights.get_mut(k * total + first + k) {
                *w = 1.0;
            }
        }
        channels.push((keys > 0).then_some(MorphChannel {
            mesh: 0,
            interpolation: Interpolation::Linear,
            times,
            weights,
        }));
    }
    Ok((targets, channels))
}
