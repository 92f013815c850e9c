//! Bone palettes of the four views (spec §10).
//!
//! A submesh may only use `bone_count_max` bones (256, 75, 53, 21 in Blizzard's views). For each
//! view the writer gives every submesh a palette (a run of the bone lookup); a submesh whose bones
//! do not fit is split, triangle by triangle in order, into parts whose bones fit, duplicating the
//! vertices the parts share. Identical palettes share one run of the lookup. The rule every view
//! must satisfy, for each weighted slot j of view vertex k in submesh s:
//! `bone_lookup[s.bone_combo_index + properties[k][j]] == vertex[indices[k]].bone_indices[j]`.

use relic_core::WriteError;
use relic_core::error::fit;

use crate::file::{Submesh, TextureUnit, Vertex, View};

/// Palette budgets of the four views Blizzard writes.
pub(crate) const VIEW_BUDGETS: [u32; 4] = [256, 75, 53, 21];

/// A submesh of view 0 as the writer knows it: its vertices (global indices) and triangles
/// (global indices), with its geoset id.
#[derive(Debug, Clone)]
pub(crate) struct Part {
    /// Geoset id.
    pub id: u16,
    /// Global vertex indices, in order.
    pub vertices: Vec<u16>,
    /// Triangles of global vertex indices.
    pub triangles: Vec<[u16; 3]>,
}

/// Bones a vertex uses (weighted slots).
fn bones_of(v: &Vertex) -> impl Iterator<Item = u8> + '_ {
    v.bone_weights.iter().zip(&v.bone_indices).filter(|(w, _)| **w > 0).map(|(_, b)| *b)
}

/// Builds one view from the parts with palettes of at most `budget` bones; `lookup` receives the
/// palettes. Returns the view and, per submesh of the view, the part it came from.
pub(crate) fn build_view(
    vertices: &[Vertex],
    parts: &[Part],
    budget: u32,
    lookup: &mut Vec<u16>,
    tbc: bool,
) -> Result<(View, Vec<usize>), String> {
    let budget = budget.max(12) as usize; // one triangle needs up to 12 bones
    let mut view = View { bone_count_max: budget as u32, ..View::default() };
    let mut origin = Vec::new();
    // One shared palette when every bone of the model fits (Blizzard's view 0 does this).
    let mut all: Vec<u8> = Vec::new();
    for p in parts {
        for &g in &p.vertices {
            for b in vertices.get(usize::from(g)).map(bones_of).into_iter().flatten() {
                if !all.contains(&b) {
                    all.push(b);
                }
            }
        }
    }
    let shared = all.len() <= budget;
    let mut slots = VertexSlots::default();
    for (pi, part) in parts.iter().enumerate() {
        let pieces = if shared { vec![part.triangles.clone()] } else { split(vertices, part, budget) };
        for tris in pieces {
            // The piece's vertices: the part's vertices in order that its triangles use (or all
            // of them when the part is not split).
            let used: Vec<u16> = if shared {
                part.vertices.clone()
            } else {
                slots.mark(tris.iter().flatten());
                let used = part.vertices.iter().copied().filter(|&g| slots.is_marked(g)).collect();
                slots.unmark(tris.iter().flatten());
                used
            };
            let palette: Vec<u8> = if shared {
                all.clone()
            } else {
                let mut p = Vec::new();
                for &g in &used {
                    for b in vertices.get(usize::from(g)).map(bones_of).into_iter().flatten() {
                        if !p.contains(&b) {
                            p.push(b);
                        }
                    }
                }
                p
            };
            let combo = place_palette(lookup, &palette)?;
            let vertex_start = view.indices.len();
            let index_start = view.triangles.len();
            slots.number(&used);
            for &g in &used {
                view.indices.push(g);
                let v = vertices
                    .get(usize::from(g))
                    .ok_or_else(|| format!("submesh {pi} names vertex {g}, past the {}", vertices.len()))?;
                let mut prop = [0u8; 4];
                for (slot, (&w, &b)) in prop.iter_mut().zip(v.bone_weights.iter().zip(&v.bone_indices)) {
                    if w > 0 {
                        // The palette was gathered from these vertices' weighted bones.
                        let at = palette.iter().position(|&x| x == b);
                        *slot = at.ok_or_else(|| format!("bone {b} of vertex {g} is not in its palette"))? as u8;
                    }
                }
                view.properties.push(prop);
            }
            for t in &tris {
                for &g in t {
                    let local = slots.local(g) + vertex_start;
                    view.triangles
                        .push(u16::try_from(local).map_err(|_| "a view needs more than 65535 vertices".to_string())?);
                }
            }
            slots.unnumber(&used);
            let submesh = describe(
                vertices,
                &used,
                part.id,
                vertex_start,
                index_start,
                tris.len() * 3,
                palette.len(),
                combo,
                tbc,
            )?;
            view.submeshes.push(submesh);
            origin.push(pi);
        }
    }
    Ok((view, origin))
}

/// Per global vertex (a `u16`, so 65 536 slots): whether the current piece's triangles use it,
/// and its position in the piece's vertex list. Set and cleared piece by piece, so building a
/// view stays linear in its triangles (a search per corner made it quadratic).
#[derive(Debug)]
struct VertexSlots {
    marked: Vec<bool>,
    /// Position of the first occurrence in the piece's vertex list, or `u32::MAX`.
    local: Vec<u32>,
}

impl Default for VertexSlots {
    fn default() -> Self {
        let n = usize::from(u16::MAX) + 1;
        Self { marked: vec![false; n], local: vec![u32::MAX; n] }
    }
}

impl VertexSlots {
    fn set_marks<'a>(&mut self, vertices: impl Iterator<Item = &'a u16>, to: bool) {
        for &g in vertices {
            if let Some(m) = self.marked.get_mut(usize::from(g)) {
                *m = to;
            }
        }
    }
    fn mark<'a>(&mut self, vertices: impl Iterator<Item = &'a u16>) {
        self.set_marks(vertices, true);
    }
    fn unmark<'a>(&mut self, vertices: impl Iterator<Item = &'a u16>) {
        self.set_marks(vertices, false);
    }
    fn is_marked(&self, g: u16) -> bool {
        self.marked.get(usize::from(g)).copied().unwrap_or(false)
    }
    /// Numbers the piece's vertices (the first occurrence of a repeated one wins).
    fn number(&mut self, used: &[u16]) {
        for (i, &g) in used.iter().enumerate() {
            if let Some(slot) = self.local.get_mut(usize::from(g))
                && *slot == u32::MAX
            {
                *slot = i as u32;
            }
        }
    }
    fn unnumber(&mut self, used: &[u16]) {
        for &g in used {
            if let Some(slot) = self.local.get_mut(usize::from(g)) {
                *slot = u32::MAX;
            }
        }
    }
    /// The position of `g` in the piece's vertex list (0 if it is not there).
    fn local(&self, g: u16) -> usize {
        match self.local.get(usize::from(g)) {
            Some(&i) if i != u32::MAX => i as usize,
            _ => 0,
        }
    }
}

/// Splits a part's triangles into runs whose bones fit the budget.
fn split(vertices: &[Vertex], part: &Part, budget: usize) -> Vec<Vec<[u16; 3]>> {
    let mut pieces = Vec::new();
    let mut current: Vec<[u16; 3]> = Vec::new();
    let mut bones: Vec<u8> = Vec::new();
    for t in &part.triangles {
        let mut needed = bones.clone();
        for g in t {
            for b in vertices.get(usize::from(*g)).map(bones_of).into_iter().flatten() {
                if !needed.contains(&b) {
                    needed.push(b);
                }
            }
        }
        if needed.len() > budget && !current.is_empty() {
            pieces.push(std::mem::take(&mut current));
            bones.clear();
            for g in t {
                for b in vertices.get(usize::from(*g)).map(bones_of).into_iter().flatten() {
                    if !bones.contains(&b) {
                        bones.push(b);
                    }
                }
            }
        } else {
            bones = needed;
        }
        current.push(*t);
    }
    if !current.is_empty() || pieces.is_empty() {
        pieces.push(current);
    }
    pieces
}

/// Appends a palette to the lookup, or finds an identical run already there.
fn place_palette(lookup: &mut Vec<u16>, palette: &[u8]) -> Result<u16, String> {
    let wanted: Vec<u16> = palette.iter().map(|&b| u16::from(b)).collect();
    if wanted.is_empty() {
        return Ok(0);
    }
    if let Some(at) = lookup.windows(wanted.len()).position(|w| w == wanted.as_slice()) {
        return u16::try_from(at).map_err(|_| "the bone lookup outgrows 65535 entries".to_string());
    }
    let at = u16::try_from(lookup.len()).map_err(|_| "the bone lookup outgrows 65535 entries".to_string())?;
    lookup.extend(wanted);
    Ok(at)
}

/// The submesh record of a piece: ranges, palette, most-weighted bone, centre (vertex mean).
// Indices 0..3 into fixed-size position arrays.
#[allow(clippy::too_many_arguments, clippy::indexing_slicing)]
fn describe(
    vertices: &[Vertex],
    used: &[u16],
    id: u16,
    vertex_start: usize,
    index_start: usize,
    index_count: usize,
    bone_count: usize,
    combo: u16,
    tbc: bool,
) -> Result<Submesh, String> {
    // The level is the index start's high word only (`Submesh::vertices`).
    let level = index_start >> 16;
    let vs = vertex_start;
    let fit = |v: usize, what: &str| u16::try_from(v).map_err(|_| format!("submesh {what} {v} does not fit a u16"));
    let verts: Vec<&Vertex> = used.iter().filter_map(|&g| vertices.get(usize::from(g))).collect();
    let n = verts.len().max(1) as f64;
    let mut center = [0f64; 3];
    let mut weight = [0u32; 256];
    let mut influences = 0;
    let mut lo = [f32::INFINITY; 3];
    let mut hi = [f32::NEG_INFINITY; 3];
    for v in &verts {
        for c in 0..3 {
            center[c] += f64::from(v.position[c]);
            lo[c] = lo[c].min(v.position[c]);
            hi[c] = hi[c].max(v.position[c]);
        }
        influences = influences.max(v.bone_weights.iter().filter(|&&w| w > 0).count());
        for (&w, &b) in v.bone_weights.iter().zip(&v.bone_indices) {
            if let Some(slot) = weight.get_mut(usize::from(b)) {
                *slot += u32::from(w);
            }
        }
    }
    let center = center.map(|c| (c / n) as f32);
    let center_bone = weight.iter().enumerate().max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(&a.0))).map_or(0, |(i, _)| i);
    let (sort_center, sort_radius) = if tbc {
        let c: [f32; 3] = if verts.is_empty() { [0.0; 3] } else { std::array::from_fn(|i| (lo[i] + hi[i]) / 2.0) };
        let r = verts
            .iter()
            .map(|v| (0..3).map(|i| (v.position[i] - c[i]).powi(2)).sum::<f32>().sqrt())
            .fold(0.0f32, f32::max);
        (Some(c), Some(r))
    } else {
        (None, None)
    };
    Ok(Submesh {
        id,
        level: fit(level, "level")?,
        vertex_start: fit(vs, "vertex start")?,
        vertex_count: fit(used.len(), "vertex count")?,
        index_start: fit(index_start - (level << 16), "index start")?,
        index_count: fit(index_count, "index count")?,
        bone_count: fit(bone_count, "bone count")?,
        bone_combo_index: combo,
        bone_influences: influences as u16,
        center_bone_index: center_bone as u16,
        center_position: center,
        sort_center,
        sort_radius,
    })
}

/// Texture units of a view built from view 0's units: each submesh gets the units of the view-0
/// submesh it came from. An error if a submesh index does not fit the units' u16 fields.
pub(crate) fn units_for(view0_units: &[TextureUnit], origin: &[usize]) -> Result<Vec<TextureUnit>, WriteError> {
    let mut out = Vec::new();
    for (s, &o) in origin.iter().enumerate() {
        for u in view0_units.iter().filter(|u| usize::from(u.submesh_index) == o) {
            let submesh_index = fit(&format!("view submesh {s} texture unit submesh"), s, "u16")?;
            let geoset_index = fit(&format!("view submesh {s} texture unit geoset"), o, "u16")?;
            out.push(TextureUnit { submesh_index, geoset_index, ..*u });
        }
    }
    Ok(out)
}

/// Checks the palette rule of a view against the vertices (used to decide whether stored views
/// still fit rebuilt vertices).
pub(crate) fn palettes_hold(view: &View, vertices: &[Vertex], lookup: &[u16]) -> bool {
    view.submeshes.iter().all(|s| {
        let (vs, vc) = s.vertices();
        (vs..vs + vc).all(|k| {
            let (Some(&g), Some(prop)) = (view.indices.get(k), view.properties.get(k)) else { return false };
            let Some(v) = vertices.get(usize::from(g)) else { return false };
            v.bone_weights.iter().zip(&v.bone_indices).zip(prop).all(|((&w, &b), &p)| {
                w == 0
                    || lookup.get(usize::from(s.bone_combo_index) + usize::from(p)).copied() == Some(u16::from(b))
                        && u16::from(p) < s.bone_count
            })
        })
    })
}
