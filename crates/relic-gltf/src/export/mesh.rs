//! Meshes, their skins and normals.

use gltf_json as json;
use json::Index;
use json::buffer::Target;
use json::mesh::{Mode, Semantic};
use json::validation::Checked::Valid;
use relic_core::model::Mesh;

use crate::GltfError;
use crate::extras::{self as ex};

use super::{Exporter, node};

impl Exporter<'_> {
    pub(super) fn meshes(&mut self, materials: &[Index<json::Material>]) -> Result<(), GltfError> {
        let model = self.model;
        for (m, mesh) in model.meshes.iter().enumerate() {
            let element = format!("meshes[{m}] {:?}", mesh.name);
            if self.options.lod0_only && mesh.lod.level != 0 {
                continue;
            }
            if mesh.positions.is_empty() || mesh.triangles.is_empty() {
                self.loss(element, "mesh without triangles: not exported (glTF accessors cannot be empty)");
                continue;
            }
            if mesh.positions.len() > u32::MAX as usize {
                return Err(GltfError::TooLarge {
                    what: format!("{element} vertices"),
                    count: mesh.positions.len(),
                    limit: u32::MAX as usize,
                });
            }
            let gltf_mesh = self.mesh(m, mesh, materials)?;
            let mut n = node(&crate::naming::mesh_name(mesh));
            n.mesh = Some(gltf_mesh);
            if !mesh.skin.is_empty() && !model.bones.is_empty() {
                // Filled in by `skin_and_scene` (the skin comes after the meshes).
                n.skin = Some(Index::new(0));
            }
            let index = self.root.push(n);
            if let Some(slot) = self.mesh_nodes.get_mut(m) {
                *slot = Some(index);
            }
        }
        Ok(())
    }

    pub(super) fn mesh(
        &mut self,
        m: usize,
        mesh: &Mesh,
        materials: &[Index<json::Material>],
    ) -> Result<Index<json::Mesh>, GltfError> {
        let element = format!("meshes[{m}] {:?}", mesh.name);
        let model_vertices = mesh.positions.len();
        // Triangles an editor would merge away get their own vertex copies (`faces`).
        let separated = crate::faces::separated(mesh);
        let copied = separated.as_ref().map(|s| crate::faces::with_copies(mesh, s));
        let mesh = copied.as_ref().unwrap_or(mesh);
        let mut attributes = std::collections::BTreeMap::new();
        let position = self.bin.accessor(&mut self.root, &mesh.positions, Some(Target::ArrayBuffer), true, false);
        attributes.insert(Valid(Semantic::Positions), position);
        if !mesh.normals.is_empty() {
            let (normals, fixed) = unit_normals(&mesh.normals);
            if fixed > 0 {
                self.loss(
                    &element,
                    format!("{fixed} normals were not unit length: renormalised (zero ones set to +Y)"),
                );
            }
            let a = self.bin.accessor(&mut self.root, &normals, Some(Target::ArrayBuffer), false, false);
            attributes.insert(Valid(Semantic::Normals), a);
        }
        for (set, uv) in mesh.uv_sets.iter().enumerate() {
            let a = self.bin.accessor(&mut self.root, uv, Some(Target::ArrayBuffer), false, false);
            attributes.insert(Valid(Semantic::TexCoords(set as u32)), a);
        }
        if !mesh.skin.is_empty() && !self.model.bones.is_empty() {
            self.skin_attributes(mesh, &mut attributes);
        }
        let indices = if mesh.positions.len() <= u16::MAX as usize {
            let flat: Vec<u16> = mesh.triangles.iter().flatten().map(|&i| i as u16).collect();
            self.bin.scalars(&mut self.root, &flat, Some(Target::ElementArrayBuffer), false)
        } else {
            let flat: Vec<u32> = mesh.triangles.iter().flatten().copied().collect();
            self.bin.scalars(&mut self.root, &flat, Some(Target::ElementArrayBuffer), false)
        };
        let targets = (!mesh.morph_targets.is_empty()).then(|| {
            mesh.morph_targets
                .iter()
                .map(|t| json::mesh::MorphTarget {
                    positions: Some(self.bin.accessor(
                        &mut self.root,
                        &t.position_deltas,
                        Some(Target::ArrayBuffer),
                        true,
                        false,
                    )),
                    normals: (!t.normal_deltas.is_empty()).then(|| {
                        self.bin.accessor(&mut self.root, &t.normal_deltas, Some(Target::ArrayBuffer), false, false)
                    }),
                    tangents: None,
                })
                .collect::<Vec<_>>()
        });
        let primitive = json::mesh::Primitive {
            attributes,
            extensions: None,
            extras: Default::default(),
            indices: Some(indices),
            material: mesh.material.and_then(|i| materials.get(i).copied()),
            mode: Valid(Mode::Triangles),
            targets,
        };
        let extras = ex::MeshExtrasOuter {
            target_names: mesh.morph_targets.iter().map(|t| t.name.clone()).collect(),
            relic: Some(ex::MeshExtras {
                lod: mesh.lod.level,
                lod_distance: mesh.lod.distance,
                part_id: mesh.part_id,
                index: u32::try_from(m).ok(),
                vertices: u32::try_from(model_vertices).ok(),
                // No triangle needed separating: no copies.
                copies: separated.map(|s| s.copies).unwrap_or_default(),
            }),
        };
        Ok(self.root.push(json::Mesh {
            extensions: None,
            extras: ex::raw(&extras)?,
            name: Some(crate::naming::mesh_name(mesh)),
            primitives: vec![primitive],
            weights: (!mesh.morph_targets.is_empty()).then(|| vec![0.0; mesh.morph_targets.len()]),
        }))
    }

    /// `JOINTS_n`/`WEIGHTS_n` in groups of four: duplicate bones merged, zero weights dropped,
    /// weights renormalised in f64 so each vertex sums to 1 as closely as f32 allows.
    pub(super) fn skin_attributes(
        &mut self,
        mesh: &Mesh,
        attributes: &mut std::collections::BTreeMap<json::validation::Checked<Semantic>, Index<json::Accessor>>,
    ) {
        let n = mesh.positions.len();
        // Merged, normalised influences of every vertex, flat: vertex v has
        // `flat[offsets[v]..offsets[v + 1]]` (one reusable scratch list, no allocation per vertex).
        let mut flat: Vec<(u32, f32)> = Vec::with_capacity(mesh.skin.influences.len());
        let mut offsets: Vec<usize> = Vec::with_capacity(n + 1);
        offsets.push(0);
        let mut list: Vec<(u32, f64)> = Vec::with_capacity(8);
        for v in 0..n {
            list.clear();
            for inf in mesh.skin.vertex(v) {
                if inf.weight <= 0.0 {
                    continue;
                }
                match list.iter_mut().find(|(b, _)| *b == inf.bone) {
                    Some(entry) => entry.1 += f64::from(inf.weight),
                    None => list.push((inf.bone, f64::from(inf.weight))),
                }
            }
            let sum: f64 = list.iter().map(|(_, w)| w).sum();
            flat.extend(list.iter().map(|&(b, w)| (b, (w / sum) as f32)));
            offsets.push(flat.len());
        }
        let vertices = || offsets.iter().zip(offsets.iter().skip(1)).map(|(&start, &end)| (start, end));
        let most = vertices().map(|(start, end)| end - start).fold(0, usize::max);
        let sets = most.div_ceil(4).max(1);
        let wide = self.model.bones.len() > 256;
        for set in 0..sets {
            let mut joints: Vec<[u16; 4]> = Vec::with_capacity(n);
            let mut weights: Vec<[f32; 4]> = Vec::with_capacity(n);
            for (start, end) in vertices() {
                let mut j = [0u16; 4];
                let mut x = [0f32; 4];
                // The offsets are `flat`'s lengths as it grew: the range is in it, never the default.
                let group = flat.get(start..end).unwrap_or_default().iter().skip(set * 4).take(4);
                for ((js, ws), (b, weight)) in j.iter_mut().zip(x.iter_mut()).zip(group) {
                    *js = *b as u16;
                    *ws = *weight;
                }
                joints.push(j);
                weights.push(x);
            }
            let ja = if wide {
                self.bin.accessor(&mut self.root, &joints, Some(Target::ArrayBuffer), false, false)
            } else {
                let narrow: Vec<[u8; 4]> = joints.iter().map(|j| j.map(|x| x as u8)).collect();
                self.bin.accessor(&mut self.root, &narrow, Some(Target::ArrayBuffer), false, false)
            };
            let wa = self.bin.weights(&mut self.root, &weights);
            attributes.insert(Valid(Semantic::Joints(set as u32)), ja);
            attributes.insert(Valid(Semantic::Weights(set as u32)), wa);
        }
    }
}

/// Normals with those further than [`NORMAL_TOLERANCE`] from unit length renormalised (zero ones
/// become +Y); returns how many were changed.
pub(super) fn unit_normals(normals: &[[f32; 3]]) -> (Vec<[f32; 3]>, usize) {
    let mut fixed = 0;
    let out = normals
        .iter()
        .map(|n| {
            let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
            if (len - 1.0).abs() <= NORMAL_TOLERANCE {
                *n
            } else {
                fixed += 1;
                relic_core::math::normalize3(*n).unwrap_or([0.0, 1.0, 0.0])
            }
        })
        .collect();
    (out, fixed)
}

/// The most joints a skin may have here (JOINTS as u16).
pub(super) const MAX_JOINTS: usize = u16::MAX as usize + 1;

/// How far a normal's length may be from 1 before export renormalises it (the validator allows
/// 0.00674).
pub(super) const NORMAL_TOLERANCE: f32 = 5e-3;
