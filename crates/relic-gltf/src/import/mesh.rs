//! Meshes: primitives, skins, weight sets, unskinned placement.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use gltf_json as json;
use json::accessor::ComponentType;
use json::mesh::{Mode, Semantic};
use json::validation::Checked::Valid;
use relic_core::math::{self, Mat4};
use relic_core::model::{Influence, Lod, Mesh, MorphTarget, Skin};
use relic_core::validate::WEIGHT_SUM_TOLERANCE;

use crate::GltfError;
use crate::extras::{self as ex};

use super::tree::{Globals, Tree, nearest_marked};
use super::{Importer, WEIGHT_IMPORT_TOLERANCE};

impl Importer<'_> {
    /// Model meshes of every mesh node in scene order. Returns node → model mesh indices.
    pub(super) fn meshes(
        &mut self,
        tree: &Tree,
        node_bone: &[Option<usize>],
    ) -> Result<HashMap<usize, Vec<usize>>, GltfError> {
        let mut node_meshes: HashMap<usize, Vec<usize>> = HashMap::new();
        let root = self.root;
        let is_bone: Vec<bool> = node_bone.iter().map(Option::is_some).collect();
        let bone_above = nearest_marked(&tree.parent, &is_bone);
        let mut globals = Globals { root, parent: &tree.parent, memo: HashMap::new() };
        // How many nodes draw each mesh: its primitives are decoded once, copied for all but the
        // last of them, which takes the decoded data.
        let mut uses: HashMap<usize, usize> = HashMap::new();
        for &n in &tree.order {
            if let Some(m) = root.nodes.get(n).and_then(|node| node.mesh).filter(|&m| root.get(m).is_some()) {
                *uses.entry(m.value()).or_default() += 1;
            }
        }
        let mut decoded: HashMap<(usize, usize), Decoded> = HashMap::new();
        for &n in &tree.order {
            let Some(node) = root.nodes.get(n) else { continue };
            let Some(mesh_index) = node.mesh else { continue };
            let Some(mesh) = root.get(mesh_index) else { continue };
            // An emitter's stand-in shows where the emitter is: it is not the model's geometry.
            if super::emitters::is_stand_in(&mesh.extras, mesh.name.as_deref()) {
                continue;
            }
            let last_use = uses.get_mut(&mesh_index.value()).is_none_or(|left| {
                *left = left.saturating_sub(1);
                *left == 0
            });
            let joints: Option<Vec<Option<usize>>> = node
                .skin
                .and_then(|s| root.get(s))
                .map(|skin| skin.joints.iter().map(|j| node_bone.get(j.value()).copied().flatten()).collect());
            // Unskinned: bound rigidly to the nearest bone above, in model space.
            let global = globals.of(n);
            let rigid_bone = tree
                .parent
                .get(n)
                .copied()
                .flatten()
                .and_then(|p| bone_above.get(p).copied().flatten())
                .and_then(|p| node_bone.get(p).copied().flatten());
            let extras: Option<ex::MeshExtrasOuter> =
                mesh.extras.as_ref().and_then(|r| serde_json::from_str(r.get()).ok());
            let name = mesh
                .name
                .clone()
                .or_else(|| node.name.clone())
                .unwrap_or_else(|| format!("mesh_{}", mesh_index.value()));
            let name = self.clean_name(&name).to_string();
            // `piece LOD2 (600)`: the level and distance travel in the name too.
            let (name, named_lod) = match crate::naming::parse_mesh_name(&name) {
                Some((base, lod)) => (base, Some(lod)),
                None => (name, None),
            };
            let single_primitive = mesh.primitives.len() == 1;
            for (p, primitive) in mesh.primitives.iter().enumerate() {
                let element = format!("meshes[{}].primitives[{p}]", mesh_index.value());
                let key = (mesh_index.value(), p);
                let entry = match decoded.entry(key) {
                    Entry::Occupied(e) => e.into_mut(),
                    Entry::Vacant(v) => v.insert(Decoded { mesh: self.primitive(&element, primitive)?, weights: None }),
                };
                let Some(vertices) = entry.mesh.as_ref().map(|m| m.positions.len()) else { continue };
                if joints.is_some() && entry.weights.is_none() {
                    entry.weights = Some(self.weight_sets(&element, primitive, vertices)?);
                }
                let skin = match (&joints, &entry.weights) {
                    (Some(joints), Some(sets)) => skin_from(&element, sets, joints, vertices)?,
                    _ => Skin::default(),
                };
                let mesh = if last_use {
                    decoded.remove(&key).and_then(|d| d.mesh)
                } else {
                    let skin_bytes = skin.influences.len() as u64 * 8 + skin.offsets.len() as u64 * 4;
                    let bytes = entry.mesh.as_ref().map_or(0, mesh_bytes).saturating_add(skin_bytes);
                    self.charge_copy(&format!("nodes[{n}]"), &format!("mesh {}", mesh_index.value()), bytes)?;
                    entry.mesh.clone()
                };
                let Some(mesh) = mesh else { continue };
                let mut m = Mesh { skin, ..mesh };
                m.name = if p == 0 { name.clone() } else { format!("{name}.{p}") };
                if let Some(lod) = named_lod {
                    m.lod = lod;
                }
                if let Some(e) = &extras {
                    if let Some(r) = &e.relic {
                        m.lod = Lod {
                            level: r.lod,
                            distance: if r.lod_distance.is_finite() { r.lod_distance } else { 0.0 },
                        };
                        m.part_id = r.part_id;
                    }
                    for (t, target) in m.morph_targets.iter_mut().enumerate() {
                        if let Some(name) = e.target_names.get(t) {
                            target.name = name.clone();
                        }
                    }
                }
                if joints.is_none() {
                    place_unskinned(&mut m, &global, rigid_bone);
                }
                // relic's record of the mesh (one primitive per glTF mesh in its export).
                let recorded = extras.as_ref().and_then(|e| e.relic.as_ref()).filter(|_| single_primitive);
                // The vertex copies relic's export made, joined exactly (in relic's own file: an
                // editor's file keeps them as vertices alike in everything, which welding joins).
                if let Some((r, vertices)) = recorded.and_then(|r| Some((r, r.vertices?))).filter(|_| !self.foreign) {
                    crate::faces::rejoin(&mut m, vertices as usize, &r.copies);
                }
                self.mesh_records.push(recorded.map_or((None, None), |r| (r.index, r.vertices)));
                node_meshes.entry(n).or_default().push(self.model.meshes.len());
                self.model.meshes.push(m);
            }
        }
        Ok(node_meshes)
    }

    /// Charges another copy of data decoded once (a mesh drawn by several nodes, the morph
    /// weights of a node's primitives) against the bytes copies may total.
    pub(super) fn charge_copy(&mut self, element: &str, what: &str, bytes: u64) -> Result<(), GltfError> {
        if bytes > self.copy_budget {
            return Err(GltfError::invalid(
                element,
                format!("another copy of {what} ({bytes} bytes) exceeds what the input size allows"),
            ));
        }
        self.copy_budget -= bytes;
        Ok(())
    }

    /// One triangle primitive without its skin; `None` for points and lines or a primitive
    /// without positions.
    pub(super) fn primitive(
        &mut self,
        element: &str,
        primitive: &json::mesh::Primitive,
    ) -> Result<Option<Mesh>, GltfError> {
        let mode = match primitive.mode {
            Valid(m) => m,
            _ => return Ok(None),
        };
        if !matches!(mode, Mode::Triangles | Mode::TriangleStrip | Mode::TriangleFan) {
            return Ok(None);
        }
        let attr = |s: Semantic| primitive.attributes.get(&Valid(s)).copied();
        let Some(pos) = attr(Semantic::Positions) else { return Ok(None) };
        let positions = self.reader.floats::<3>(pos, &[ComponentType::F32])?;
        let n = positions.len();
        let same = |what: &str, len: usize| -> Result<(), GltfError> {
            if len == n {
                Ok(())
            } else {
                Err(GltfError::invalid(element, format!("{what} has {len} elements for {n} positions")))
            }
        };
        let normals = match attr(Semantic::Normals) {
            Some(a) => {
                let v = self.reader.floats::<3>(a, &[ComponentType::F32, ComponentType::I8, ComponentType::I16])?;
                same("NORMAL", v.len())?;
                v
            }
            None => Vec::new(),
        };
        let uv_types =
            [ComponentType::F32, ComponentType::U8, ComponentType::U16, ComponentType::I8, ComponentType::I16];
        let mut uv_sets = Vec::new();
        for set in 0..2 {
            let Some(a) = attr(Semantic::TexCoords(set)) else { break };
            let v = self.reader.floats::<2>(a, &uv_types)?;
            same("TEXCOORD", v.len())?;
            uv_sets.push(v);
        }
        let indices: Vec<u32> = match primitive.indices {
            Some(a) => self.reader.ints::<1>(a)?.into_iter().map(|[i]| i).collect(),
            None => (0..n as u32).collect(),
        };
        if let Some((k, i)) = indices.iter().enumerate().find(|(_, i)| **i as usize >= n) {
            return Err(GltfError::invalid(element, format!("index {k} is {i}, past the {n} vertices")));
        }
        let triangles = unroll(mode, &indices);
        let mut morph_targets = Vec::new();
        for (t, target) in primitive.targets.iter().flatten().enumerate() {
            let position_deltas = match target.positions {
                Some(a) => self.reader.floats::<3>(a, &[ComponentType::F32, ComponentType::I8, ComponentType::I16])?,
                None => vec![[0.0; 3]; n],
            };
            same("morph target POSITION", position_deltas.len())?;
            let normal_deltas = match target.normals {
                Some(a) => self.reader.floats::<3>(a, &[ComponentType::F32, ComponentType::I8, ComponentType::I16])?,
                None => Vec::new(),
            };
            if !normal_deltas.is_empty() {
                same("morph target NORMAL", normal_deltas.len())?;
            }
            morph_targets.push(MorphTarget { name: format!("target_{t}"), position_deltas, normal_deltas });
        }
        let material = primitive.material.and_then(|m| self.material_map.get(m.value()).copied().flatten());
        Ok(Some(Mesh {
            name: String::new(),
            material,
            positions,
            normals,
            uv_sets,
            skin: Skin::default(),
            triangles,
            lod: Lod::default(),
            part_id: None,
            morph_targets,
        }))
    }

    /// The `JOINTS_n`/`WEIGHTS_n` sets of a primitive of `n` vertices.
    pub(super) fn weight_sets(
        &mut self,
        element: &str,
        primitive: &json::mesh::Primitive,
        n: usize,
    ) -> Result<WeightSets, GltfError> {
        let mut sets = Vec::new();
        for set in 0.. {
            let (Some(j), Some(w)) = (
                primitive.attributes.get(&Valid(Semantic::Joints(set))).copied(),
                primitive.attributes.get(&Valid(Semantic::Weights(set))).copied(),
            ) else {
                break;
            };
            let js = self.reader.ints::<4>(j)?;
            let ws = self.reader.floats::<4>(w, &[ComponentType::F32, ComponentType::U8, ComponentType::U16])?;
            if js.len() != n || ws.len() != n {
                return Err(GltfError::invalid(
                    element,
                    format!("JOINTS_{set}/WEIGHTS_{set} have {}/{} elements for {n} positions", js.len(), ws.len()),
                ));
            }
            sets.push((js, ws));
        }
        if sets.is_empty() {
            return Err(GltfError::invalid(element, "a skinned mesh without JOINTS_0/WEIGHTS_0"));
        }
        Ok(sets)
    }
}

/// `JOINTS_n`/`WEIGHTS_n` sets decoded from a primitive: joint indices and weights per vertex.
pub(super) type WeightSets = Vec<(Vec<[u32; 4]>, Vec<[f32; 4]>)>;

/// A primitive decoded once for every node that draws it: the mesh without its skin (`None` for
/// points, lines or no positions), and its weight sets once a skinned node draws it.
pub(super) struct Decoded {
    mesh: Option<Mesh>,
    weights: Option<WeightSets>,
}

/// Heap bytes of a decoded mesh (what another copy of it costs).
pub(super) fn mesh_bytes(m: &Mesh) -> u64 {
    let n = |len: usize, size: usize| len as u64 * size as u64;
    n(m.positions.len(), 12)
        + n(m.normals.len(), 12)
        + m.uv_sets.iter().map(|u| n(u.len(), 8)).sum::<u64>()
        + n(m.triangles.len(), 12)
        + n(m.skin.influences.len(), 8)
        + n(m.skin.offsets.len(), 4)
        + m.morph_targets.iter().map(|t| n(t.position_deltas.len(), 12) + n(t.normal_deltas.len(), 12)).sum::<u64>()
}

/// Influences of `n` vertices from their weight sets, joints remapped to bones.
pub(super) fn skin_from(
    element: &str,
    sets: &WeightSets,
    joints: &[Option<usize>],
    n: usize,
) -> Result<Skin, GltfError> {
    let mut skin = Skin { offsets: Vec::with_capacity(n + 1), influences: Vec::with_capacity(n * 4) };
    skin.offsets.push(0);
    let mut list: Vec<(u32, f32)> = Vec::with_capacity(8);
    for v in 0..n {
        list.clear();
        for (js, ws) in sets {
            let (Some(j), Some(w)) = (js.get(v), ws.get(v)) else { continue };
            for (&joint, &weight) in j.iter().zip(w) {
                if weight <= 0.0 || !weight.is_finite() {
                    continue;
                }
                let bone = joints.get(joint as usize).copied().flatten().ok_or_else(|| {
                    GltfError::invalid(
                        element,
                        format!("vertex {v} uses joint {joint} of a skin with {} joints", joints.len()),
                    )
                })? as u32;
                match list.iter_mut().find(|(b, _)| *b == bone) {
                    Some(e) => e.1 += weight,
                    None => list.push((bone, weight)),
                }
            }
        }
        let sum: f32 = list.iter().map(|(_, w)| w).sum();
        if list.is_empty() {
            return Err(GltfError::invalid(
                element,
                format!(
                    "vertex {v} has no bone weight: every vertex of a skinned mesh needs one (in Blender: assign it to a vertex group, then Normalize All)"
                ),
            ));
        }
        if (sum - 1.0).abs() > WEIGHT_IMPORT_TOLERANCE {
            return Err(GltfError::invalid(element, format!("vertex {v} weights sum to {sum}, not 1")));
        }
        let scale = if (sum - 1.0).abs() > WEIGHT_SUM_TOLERANCE / 10.0 { 1.0 / sum } else { 1.0 };
        skin.influences.extend(list.iter().map(|&(bone, w)| Influence { bone, weight: w * scale }));
        skin.offsets.push(skin.influences.len() as u32);
    }
    Ok(skin)
}

/// Triangles of a triangle list, strip or fan.
pub(super) fn unroll(mode: Mode, indices: &[u32]) -> Vec<[u32; 3]> {
    match mode {
        Mode::TriangleStrip => indices
            .windows(3)
            .enumerate()
            .filter_map(|(k, w)| match w {
                [a, b, c] if k % 2 == 0 => Some([*a, *b, *c]),
                [a, b, c] => Some([*b, *a, *c]),
                _ => None,
            })
            .collect(),
        Mode::TriangleFan => {
            let Some((&first, rest)) = indices.split_first() else { return Vec::new() };
            rest.windows(2)
                .filter_map(|w| match w {
                    [b, c] => Some([first, *b, *c]),
                    _ => None,
                })
                .collect()
        }
        _ => indices.as_chunks::<3>().0.to_vec(),
    }
}

/// Moves an unskinned mesh into model space by its node's global transform and binds it rigidly
/// to `bone` if it hangs under one.
pub(super) fn place_unskinned(mesh: &mut Mesh, global: &Mat4, bone: Option<usize>) {
    if *global != math::IDENTITY {
        for p in &mut mesh.positions {
            *p = math::transform_point(global, *p);
        }
        let normal_matrix = math::inverse(global).map(|m| math::transpose(&m)).unwrap_or(math::IDENTITY);
        for n in &mut mesh.normals {
            *n = math::normalize3(math::transform_vector(&normal_matrix, *n)).unwrap_or(*n);
        }
        for t in &mut mesh.morph_targets {
            for d in &mut t.position_deltas {
                *d = math::transform_vector(global, *d);
            }
            for d in &mut t.normal_deltas {
                *d = math::transform_vector(&normal_matrix, *d);
            }
        }
        let det = determinant3(global);
        if det < 0.0 {
            for t in &mut mesh.triangles {
                t.swap(1, 2);
            }
        }
    }
    if let Some(bone) = bone {
        mesh.skin =
            Skin::from_vertices((0..mesh.positions.len()).map(|_| [Influence { bone: bone as u32, weight: 1.0 }]));
    }
}

pub(super) fn determinant3(m: &Mat4) -> f32 {
    let e = |r, c| math::at(m, r, c);
    e(0, 0) * (e(1, 1) * e(2, 2) - e(1, 2) * e(2, 1)) - e(0, 1) * (e(1, 0) * e(2, 2) - e(1, 2) * e(2, 0))
        + e(0, 2) * (e(1, 0) * e(2, 1) - e(1, 1) * e(2, 0))
}

impl Importer<'_> {
    /// Meshes back in the order of the model relic exported, when an editor wrote them in its own
    /// (Blender sorts objects by name) and every mesh carries its recorded index once: formats
    /// number their parts and geosets by position.
    pub(super) fn restore_mesh_order(&mut self, node_meshes: &mut HashMap<usize, Vec<usize>>) {
        let n = self.model.meshes.len();
        if self.mesh_records.len() != n {
            return;
        }
        let Some(order) = super::recorded_order(self.mesh_records.iter().map(|(i, _)| *i)) else { return };
        if order.iter().enumerate().all(|(k, &at)| k == at) {
            return;
        }
        super::rearranged(&mut self.model.meshes, &order);
        // Old mesh index → new.
        let mut new_index = vec![0; n];
        for (k, &at) in order.iter().enumerate() {
            if let Some(slot) = new_index.get_mut(at) {
                *slot = k;
            }
        }
        for list in node_meshes.values_mut() {
            for m in list.iter_mut() {
                *m = new_index.get(*m).copied().unwrap_or(*m);
            }
        }
    }
}

impl Importer<'_> {
    /// Welds the vertices an editor split ([`super::weld`]), in a file another tool wrote. Each
    /// mesh stops at its recorded vertex count; without those (an editor dropped relic's extras),
    /// all meshes together stop at the model's vertex count in relic's record of the original
    /// (`relic original: model_vertices = N`).
    pub(super) fn weld_split_vertices(&mut self) {
        if !self.foreign {
            return;
        }
        let mut plans: Vec<super::weld::Plan> = self.model.meshes.iter().map(super::weld::Plan::of).collect();
        let recorded: Option<Vec<usize>> = self.mesh_records.iter().map(|(_, v)| v.map(|v| v as usize)).collect();
        match recorded.filter(|r| r.len() == plans.len()) {
            Some(counts) => {
                for ((plan, mesh), floor) in plans.iter_mut().zip(&self.model.meshes).zip(counts) {
                    super::weld::limit(&mut [plan], mesh.positions.len().saturating_sub(floor));
                }
            }
            None => {
                let floor = self.model.original.as_ref().map(|o| o.count(relic_core::model::MODEL_VERTICES));
                if let Some(floor) = floor.filter(|&f| f > 0) {
                    let total: usize = self.model.meshes.iter().map(|m| m.positions.len()).sum();
                    let allowed = total.saturating_sub(usize::try_from(floor).unwrap_or(usize::MAX));
                    super::weld::limit(&mut plans.iter_mut().collect::<Vec<_>>(), allowed);
                }
            }
        }
        for (mesh, plan) in self.model.meshes.iter_mut().zip(&plans) {
            super::weld::apply(mesh, plan);
        }
    }
}
