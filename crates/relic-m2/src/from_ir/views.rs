//! The views (spec §10): the file's own while the meshes are the ones it was read with, else
//! rebuilt — as many as the file had (1–4: the extras' file, else the game file the model records
//! it came from; 4 for a model from elsewhere).
//!
//! The model's meshes are view 0's submeshes: mesh `s`, vertex `k` is file vertex
//! `view0.indices[vs + k]`. So the file's own vertex order (any order another tool chose) comes
//! back from the meshes through view 0, and the meshes are unchanged exactly when that array has
//! the digest the extras recorded (`vertex_digest`, normals aside). Then every view and the bone
//! lookup are the file's, and the vertex array is the file's with the model's normals (an edited
//! normal is carried; Blender's float noise on normals changes no view). A moved vertex, a changed
//! weight or a changed triangle rebuilds the views, with a loss saying how many.

use super::builder::{Builder, Result, unsupported};
use super::palette::{self, Part, VIEW_BUDGETS};
use crate::extras::digest_matches;
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
        let stored = stored_order(base, vertices, parts)?;
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

/// How far (per component) the normals that two submeshes give one file vertex may differ and
/// still be that one vertex: Blender moves the normals of a vertex shared by submeshes by about
/// 1e-5 (m2-wrath/creature.m2: 33 vertices of its three geoset-0 submeshes), and relic-gltf's
/// import welds corners whose normals differ by up to 1e-2 for the same reason.
const NORMAL_NOISE: f32 = 1e-2;

/// Whether `b`, given by another submesh, is the file vertex `a` already holds: equal in every
/// byte but the normal, and the normals within [`NORMAL_NOISE`] (`a`'s is the one written).
fn same_vertex(a: &Vertex, b: &Vertex) -> bool {
    Vertex { normal: b.normal, ..*a } == *b
        && a.normal.iter().zip(&b.normal).all(|(x, y)| (x - y).abs() <= NORMAL_NOISE)
}

/// The meshes' vertices (`vertices`, in mesh order, one [`Part`] per mesh) put back in the file's
/// order through its view 0; `None` if the meshes no longer have view 0's topology (submeshes,
/// vertex counts, triangles), a file vertex would get two different values (normals aside, which
/// may differ by float noise: [`same_vertex`]), or a view names a vertex no mesh gives.
fn stored_order(base: &M2File, vertices: &[Vertex], parts: &[Part]) -> Option<Vec<Vertex>> {
    let Some(view0) = base.views.first() else {
        // A file without views (and so without meshes) is unchanged while the model has none.
        return parts.is_empty().then(Vec::new);
    };
    if view0.submeshes.len() != parts.len() {
        return None;
    }
    let count = base.views.iter().flat_map(|v| v.indices.iter()).fold(0, |n, &i| n.max(usize::from(i) + 1));
    let mut stored: Vec<Option<Vertex>> = vec![None; count];
    for (s, part) in view0.submeshes.iter().zip(parts) {
        let (vs, vc) = s.vertices();
        let (is, ic) = s.indices();
        let first = usize::from(*part.vertices.first().unwrap_or(&0));
        if part.vertices.len() != vc || part.triangles.len() * 3 != ic {
            return None;
        }
        let stored_tris = view0.triangles.get(is..is + ic)?;
        let same_triangles = part
            .triangles
            .iter()
            .flatten()
            .zip(stored_tris)
            .all(|(&g, &t)| usize::from(g).checked_sub(first) == usize::from(t).checked_sub(vs));
        if !same_triangles {
            return None;
        }
        for (k, &g) in part.vertices.iter().enumerate() {
            let at = usize::from(*view0.indices.get(vs + k)?);
            let v = *vertices.get(usize::from(g))?;
            match stored.get_mut(at)? {
                slot @ None => *slot = Some(v),
                Some(w) if same_vertex(w, &v) => {}
                Some(_) => return None,
            }
        }
    }
    stored.into_iter().collect()
}
