//! The views (spec §10): the file's own while the meshes are the ones it was read with, else
//! rebuilt — as many as the file had (1–4: the extras' file, else the game file the model records
//! it came from; 4 for a model from elsewhere).
//!
//! The model's meshes are view 0's submeshes, triangle for triangle: the corner of mesh `s`'s
//! triangle `j` is the file vertex view 0's triangle names there. So the file's own vertex order
//! (any order another tool chose) comes back from the meshes through view 0, whatever order the
//! meshes number their vertices in (an editor renumbers, splits and welds them), and the meshes
//! are unchanged when that array has the digest the extras recorded (`vertex_digest`: the same
//! influences, positions and texture coordinates within float noise, normals aside). Then every
//! view and the bone lookup are the file's, and the vertex array is the file's order with the
//! model's values (an edited normal is carried; Blender's float noise changes no view). A moved
//! vertex, a changed weight or a changed triangle rebuilds the views, with a loss saying how many.

use super::builder::{Builder, Result, unsupported};
use super::palette::{self, Part, VIEW_BUDGETS};
use crate::extras::{digest_matches, float_noise};
use crate::file::*;

impl Builder<'_> {
    /// Sets the views, the bone lookup and the vertex array from the meshes' `vertices` (in mesh
    /// order) and `parts`. `materials_fit`: the texture units of view 0 (`units`) are the file's.
    /// Returns true if the file's views were kept.
    pub(super) fn views(
        &mut self,
        vertices: Vec<Vertex>,
        parts: &[Part],
        materials_fit: bool,
        units: &[TextureUnit],
    ) -> Result<bool> {
        if let Some(b) = self.base
            && let Some(stored) = self.unchanged_vertices(b, &vertices, parts)
        {
            self.file.views = b.views.clone();
            self.file.bone_lookup = b.bone_lookup.clone();
            self.file.vertices = stored.into();
            if self.retargeted {
                sort_fields_for(&mut self.file);
            }
            if !materials_fit {
                for v in self.file.views.iter_mut() {
                    let origin: Vec<usize> = (0..v.submeshes.len())
                        .map(|s| {
                            // A stored view's submesh comes from the view-0 submesh of its first unit.
                            v.texture_units
                                .iter()
                                .find(|u| usize::from(u.submesh_index) == s)
                                .map_or(s, |u| usize::from(u.geoset_index))
                        })
                        .collect();
                    v.texture_units = palette::units_for(units, &origin)?.into();
                }
            }
            return Ok(true);
        }
        let count = match (self.stored_views, self.original_views) {
            (0, 0) => VIEW_BUDGETS.len(),
            (0, n) | (n, _) => n.min(VIEW_BUDGETS.len()),
        };
        let tbc = self.version >= 260;
        let mut lookup = Vec::new();
        let mut views = Vec::with_capacity(count);
        for &budget in VIEW_BUDGETS.iter().take(count) {
            let (mut view, origin) =
                palette::build_view(&vertices, parts, budget, &mut lookup, tbc).map_err(unsupported)?;
            view.texture_units = palette::units_for(units, &origin)?.into();
            views.push(view);
        }
        if self.stored_views > 0 && !self.retargeted {
            let budgets = VIEW_BUDGETS.iter().take(count).map(u32::to_string).collect::<Vec<_>>().join("/");
            let n = if count == 1 { "view".to_string() } else { format!("{count} views") };
            self.loss(
                "views",
                format!("the meshes changed: the file's {n} rebuilt (bone palettes of at most {budgets} bones)"),
            );
        }
        self.file.views = views.into();
        self.file.bone_lookup = lookup.into();
        self.file.vertices = vertices.into();
        Ok(false)
    }

    /// The file's vertex array rebuilt from the meshes through view 0, if the meshes are the
    /// ones the file was read with: the same topology and, where the extras recorded one, the
    /// same digest (without one: every stored view's palettes still name the vertices' bones).
    fn unchanged_vertices(&self, base: &M2File, vertices: &[Vertex], parts: &[Part]) -> Option<Vec<Vertex>> {
        let stored = stored_order(base, vertices, parts, self.unviewed)?;
        let bones = self.model.bones.len();
        if base.bone_lookup.iter().any(|&b| usize::from(b) >= bones) {
            return None;
        }
        let same = match self.vertex_digest {
            Some(digest) => digest_matches(digest, &stored),
            None => base.views.iter().all(|v| palette::palettes_hold(v, &stored, &base.bone_lookup)),
        };
        same.then_some(stored)
    }
}

/// Moves the views of a file to its version's submesh record: Classic's has no sort centre and
/// radius (dropped); The Burning Crusade's gets them from the submesh's vertices (the centre of
/// their box, the largest distance from it) where the views came from Classic.
fn sort_fields_for(file: &mut M2File) {
    let tbc = file.version >= 260;
    let vertices = &file.vertices;
    for view in file.views.iter_mut() {
        let indices = view.indices.items.clone();
        for s in view.submeshes.iter_mut() {
            if !tbc {
                (s.sort_center, s.sort_radius) = (None, None);
                continue;
            }
            if s.sort_center.is_some() && s.sort_radius.is_some() {
                continue;
            }
            let (start, count) = s.vertices();
            // A submesh past its view's vertices keeps no sort fields: the writer refuses it by
            // name (`Submesh.sort_center`).
            let Some(local) = indices.get(start..start + count) else { continue };
            let points: Vec<[f32; 3]> =
                local.iter().filter_map(|&i| vertices.get(usize::from(i)).map(|v| v.position)).collect();
            let (mut lo, mut hi) = ([f32::MAX; 3], [f32::MIN; 3]);
            for p in &points {
                for c in 0..3 {
                    if let (Some(l), Some(h), Some(v)) = (lo.get_mut(c), hi.get_mut(c), p.get(c)) {
                        *l = l.min(*v);
                        *h = h.max(*v);
                    }
                }
            }
            let center: [f32; 3] = if points.is_empty() {
                [0.0; 3]
            } else {
                std::array::from_fn(|c| (lo.get(c).unwrap_or(&0.0) + hi.get(c).unwrap_or(&0.0)) / 2.0)
            };
            let radius = points
                .iter()
                .map(|p| p.iter().zip(&center).map(|(a, b)| (a - b) * (a - b)).sum::<f32>().sqrt())
                .fold(0.0f32, f32::max);
            (s.sort_center, s.sort_radius) = (Some(center), Some(radius));
        }
    }
}

/// How far (per component) the normals that two corners give one file vertex may differ and still
/// be that one vertex: Blender moves the normals of a vertex shared by submeshes by about 1e-5
/// (m2-wrath/creature.m2: 33 vertices of its three geoset-0 submeshes), and relic-gltf's import
/// welds corners whose normals differ by up to 1e-2 for the same reason.
const NORMAL_NOISE: f32 = 1e-2;

/// Whether `b`, given by another corner, is the file vertex `a` already holds: the same bone
/// indices and weights, positions and texture coordinates within an editor's float noise
/// ([`float_noise`], the vertex digest's; Blender gives a vertex it split up to an ulp apart),
/// normals within [`NORMAL_NOISE`].
/// `a`'s values are the ones written.
fn same_vertex(a: &Vertex, b: &Vertex) -> bool {
    let near = |x: &[f32], y: &[f32]| x.iter().zip(y).all(|(x, y)| (x - y).abs() <= float_noise(*x));
    a.bone_indices == b.bone_indices
        && a.bone_weights == b.bone_weights
        && near(&a.position, &b.position)
        && near(&a.tex_coords, &b.tex_coords)
        && near(&a.tex_coords2, &b.tex_coords2)
        && a.normal.iter().zip(&b.normal).all(|(x, y)| (x - y).abs() <= NORMAL_NOISE)
}

/// The meshes' vertices (`vertices`, in mesh order, one [`Part`] per mesh) put back in the file's
/// order through its view 0: each triangle corner of a submesh gives the file vertex the stored
/// triangle names there, so the meshes may number their vertices in any order, and hold a vertex
/// twice or two as one (an editor splits and welds them). `None` if the meshes no longer have view
/// 0's triangles (submeshes, triangle counts), two corners of one file vertex disagree (beyond
/// float noise: [`same_vertex`]), or a view names a vertex no mesh gives. A submesh vertex that no
/// triangle names is the mesh's vertex at its place, where the mesh has as many as the submesh.
fn stored_order(base: &M2File, vertices: &[Vertex], parts: &[Part], unviewed: &[(u32, Vertex)]) -> Option<Vec<Vertex>> {
    let Some(view0) = base.views.first() else {
        // A file without views (and so without meshes) is unchanged while the model has none.
        return parts.is_empty().then(Vec::new);
    };
    if view0.submeshes.len() != parts.len() {
        return None;
    }
    let count = base.views.iter().flat_map(|v| v.indices.iter()).fold(0, |n, &i| n.max(usize::from(i) + 1));
    let count = unviewed.iter().fold(count, |n, &(i, _)| n.max(i as usize + 1));
    let mut stored: Vec<Option<Vertex>> = vec![None; count];
    // The vertices no view names go back to their places (the digest then checks them too).
    for &(i, v) in unviewed {
        if let Some(slot) = stored.get_mut(i as usize) {
            *slot = Some(v);
        }
    }
    let give = |stored: &mut Vec<Option<Vertex>>, at: usize, v: Vertex| match stored.get_mut(at) {
        Some(slot @ None) => {
            *slot = Some(v);
            true
        }
        Some(Some(w)) => same_vertex(w, &v),
        None => false,
    };
    for (s, part) in view0.submeshes.iter().zip(parts) {
        let (is, ic) = s.indices();
        if part.triangles.len() * 3 != ic {
            return None;
        }
        let stored_tris = view0.triangles.get(is..is + ic)?;
        for (&g, &t) in part.triangles.iter().flatten().zip(stored_tris) {
            let at = usize::from(*view0.indices.get(usize::from(t))?);
            if !give(&mut stored, at, *vertices.get(usize::from(g))?) {
                return None;
            }
        }
    }
    for (s, part) in view0.submeshes.iter().zip(parts) {
        let (vs, vc) = s.vertices();
        if part.vertices.len() != vc {
            continue;
        }
        for (k, &g) in part.vertices.iter().enumerate() {
            let at = usize::from(*view0.indices.get(vs + k)?);
            if stored.get(at).is_some_and(Option::is_none) {
                give(&mut stored, at, *vertices.get(usize::from(g))?);
            }
        }
    }
    stored.into_iter().collect()
}
