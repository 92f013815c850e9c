//! Meshes → pieces and LODs: a stored LOD where the mesh is still the one it was read as, else
//! a LOD built from the mesh ([`super::render`]).

use relic_core::math::Mat4;
use relic_core::model::{Mesh, Model};
use relic_core::{Loss, WriteError};

use super::render;
use super::{Ctx, close, nodes::stored_name};
use crate::extras::mesh_digest;
use crate::file::{Lod, LtbFile, Piece, RenderObject};

/// How far (game units) a vertex may be from its stored position and still be it.
pub(crate) const POSITION_TOLERANCE: f32 = 1e-3;
/// How far a normal component may be (Blender's custom normals come back within about 1e-3,
/// a few within 1e-2 where it welds or splits them).
const NORMAL_TOLERANCE: f32 = 5e-2;
/// How far a texture coordinate may be.
const UV_TOLERANCE: f32 = 1e-4;
/// How far a weight may be (glTF stores weights in 8 or 16 bits).
const WEIGHT_TOLERANCE: f32 = 1e-2;

/// The meshes grouped into pieces: a LOD-0 mesh starts a piece, a lower LOD joins the last piece
/// of its name (else the piece before it); each piece's meshes by level.
fn group(model: &Model, losses: &mut Vec<Loss>) -> Vec<Vec<usize>> {
    let mut pieces: Vec<Vec<usize>> = Vec::new();
    for (i, mesh) in model.meshes.iter().enumerate() {
        let named = pieces
            .iter()
            .rposition(|p| p.first().and_then(|&f| model.meshes.get(f)).is_some_and(|f| f.name == mesh.name));
        match (mesh.lod.level, named.or(pieces.len().checked_sub(1))) {
            (0, _) | (_, None) => pieces.push(vec![i]),
            (_, Some(p)) => {
                if let Some(piece) = pieces.get_mut(p) {
                    piece.push(i);
                }
            }
        }
    }
    for p in &mut pieces {
        p.sort_by_key(|&m| model.meshes.get(m).map_or(0, |x| x.lod.level));
        for (level, &i) in p.iter().enumerate() {
            let Some(mesh) = model.meshes.get(i) else { continue };
            if mesh.lod.level as usize != level {
                losses.push(Loss::new(
                    format!("meshes[{i}] {:?}", mesh.name),
                    format!("LOD level {} written as level {level}", mesh.lod.level),
                ));
            }
        }
    }
    pieces
}

/// The stored piece for the `p`-th group named `name`: the stored piece at `p` of that name,
/// else the first of that name.
fn stored_piece<'s>(stored: &'s LtbFile, p: usize, name: &str) -> Option<(usize, &'s Piece)> {
    let named = |x: &&Piece| x.name.to_text() == name;
    match stored.pieces.get(p).filter(named) {
        Some(x) => Some((p, x)),
        None => stored.pieces.iter().enumerate().find(|(_, x)| named(x)),
    }
}

/// The pieces.
pub(super) fn build(ctx: &Ctx<'_>, losses: &mut Vec<Loss>) -> Result<Vec<Piece>, WriteError> {
    let model = ctx.model;
    // Without a stored file (no extras) there is nothing stored: no binds, no stored pieces.
    let stored_binds: Vec<Mat4> = ctx.stored.map(crate::to_ir::binds).unwrap_or_default();
    let mut out = Vec::new();
    for (p, group) in group(model, losses).iter().enumerate() {
        let Some(first) = group.first().and_then(|&m| model.meshes.get(m)) else { continue };
        let stored = ctx.stored.filter(|_| ctx.same_nodes).and_then(|s| stored_piece(s, p, &first.name));
        let mut lods = Vec::with_capacity(group.len());
        let mut distances = Vec::with_capacity(group.len());
        for (l, &m) in group.iter().enumerate() {
            let Some(mesh) = model.meshes.get(m) else { continue };
            let stored_lod = stored.and_then(|(sp, piece)| Some((stored_mesh_index(ctx, sp, l)?, piece.lods.get(l)?)));
            let kept = stored_lod.filter(|(index, lod)| {
                let digest = ctx.digests.and_then(|d| d.meshes.get(*index)).copied();
                digest == Some(mesh_digest(mesh))
                    || same_geometry(mesh, &crate::to_ir::lod_mesh(&lod.object, &stored_binds))
            });
            lods.push(match kept {
                Some((_, lod)) => lod.clone(),
                None => build_lod(ctx, mesh, m, stored_lod.map(|(_, l)| l), losses)?,
            });
            let stored_distance = stored.and_then(|(_, s)| s.lod_distances.get(l)).copied();
            distances.push(match stored_distance {
                Some(d) if close(&[d], &[mesh.lod.distance], 1e-3 * d.abs().max(1.0)) => d,
                _ => mesh.lod.distance,
            });
        }
        // A stored LOD that draws nothing (null, or of a type the engine skips) has no mesh a
        // glTF can carry (its accessors cannot be empty): kept where the model ends before it.
        if let Some((_, sp)) = stored {
            for (l, lod) in sp.lods.iter().enumerate().skip(lods.len()) {
                if !matches!(lod.object, RenderObject::Null | RenderObject::Opaque { .. }) {
                    break;
                }
                lods.push(lod.clone());
                // The stored file was read: a distance per LOD, the 0 is never taken.
                distances.push(sp.lod_distances.get(l).copied().unwrap_or(0.0));
            }
        }
        out.push(Piece {
            // The group is not empty (`first` above): the 0 is never taken.
            name: stored_name(|| format!("meshes[{}]", group.first().copied().unwrap_or(0)), &first.name, losses),
            lod_distances: distances,
            min_lod_offset: stored.map_or(0, |(_, s)| s.min_lod_offset),
            max_lod_offset: stored.map_or(0, |(_, s)| s.max_lod_offset),
            lods,
        });
    }
    // A stored piece that draws nothing at all has no mesh in a glTF: kept in its place.
    if let Some(stored) = ctx.stored.filter(|_| ctx.same_nodes) {
        let empty =
            |p: &Piece| p.lods.iter().all(|l| matches!(l.object, RenderObject::Null | RenderObject::Opaque { .. }));
        for (i, piece) in stored.pieces.iter().enumerate() {
            if empty(piece) && !out.iter().any(|p| p.name == piece.name) {
                out.insert(i.min(out.len()), piece.clone());
            }
        }
    }
    Ok(out)
}

/// The index of stored piece `p`'s LOD `l` among the meshes `to_ir` made from the stored file.
fn stored_mesh_index(ctx: &Ctx<'_>, p: usize, l: usize) -> Option<usize> {
    let stored = ctx.stored?;
    let before: usize = stored.pieces.get(..p)?.iter().map(|x| x.lods.len()).sum();
    Some(before + l)
}

/// A LOD built from a mesh, with the stored LOD's texture slots and render style where there is
/// one, else the material's.
fn build_lod(
    ctx: &Ctx<'_>,
    mesh: &Mesh,
    index: usize,
    stored: Option<&Lod>,
    losses: &mut Vec<Loss>,
) -> Result<Lod, WriteError> {
    let (object, used_nodes) = render::build(ctx, mesh, index, losses)?;
    if let Some(s) = stored {
        dropped_fields(s, mesh, index, losses);
    }
    let (texture_count, textures) = match stored {
        Some(s) => (s.texture_count, s.textures),
        None => texture_slots(ctx.model, mesh),
    };
    Ok(Lod {
        texture_count,
        textures,
        render_style: stored.map_or(0, |s| s.render_style),
        render_priority: stored.map_or(0, |s| s.render_priority),
        object,
        used_nodes,
    })
}

/// Reports what the stored LOD held that a LOD rebuilt from its changed mesh cannot: vertex
/// colours, UV sets past the second, basis vectors, a matrix palette, an unknown object.
fn dropped_fields(stored: &Lod, mesh: &Mesh, index: usize, losses: &mut Vec<Loss>) {
    let element = || format!("meshes[{index}] {:?}", mesh.name);
    // A null or unknown object has no streams.
    let streams = stored.object.streams().map(|(s, _, _)| s).unwrap_or_default();
    for (what, had) in [
        ("vertex colours", streams.iter().any(|s| !s.colors.is_empty())),
        ("UV sets 3 and 4", streams.iter().map(|s| s.uv_sets.len()).sum::<usize>() > 2),
        ("basis vectors (S, T)", streams.iter().any(|s| !s.basis.is_empty())),
        (
            "the matrix palette (written as bone sets)",
            matches!(&stored.object, crate::file::RenderObject::Skeletal(m) if m.matrix_palette != 0),
        ),
        ("the vertex animation", matches!(stored.object, crate::file::RenderObject::VertexAnimated(_))),
        ("the render object of an unknown type", matches!(stored.object, crate::file::RenderObject::Opaque { .. })),
    ] {
        if had {
            losses.push(Loss::new(element(), format!("{what} of the stored LOD dropped: the mesh changed")));
        }
    }
}

/// The texture slots of a mesh's material: its textures' slots (`TextureRef::slot`), else the
/// numbers in its name (`skin 1`, `skins 1 4`, ABC's `material 1`), else its index. Unused entries hold their
/// own position, as the packer's leftovers do in the samples (`0, 1, 2, 3` with slot 0 set).
fn texture_slots(model: &Model, mesh: &Mesh) -> (u32, [i32; 4]) {
    let material = mesh.material.and_then(|m| model.materials.get(m));
    // No material: no slots from it (the name and index rules below apply).
    let mut slots: Vec<i32> =
        material.map(|m| m.textures.iter().filter_map(|t| t.slot).map(|s| s as i32).collect()).unwrap_or_default();
    if slots.is_empty() {
        // `skin 0`, `skins 1 4` (what `to_ir` names them), ABC's `material 1`.
        let words = material.map(|m| m.name.split(' ').skip(1).map(str::parse::<i32>).collect::<Result<Vec<_>, _>>());
        slots = match words {
            Some(Ok(numbers)) if !numbers.is_empty() => numbers,
            _ => vec![mesh.material.map_or(0, |m| m as i32)],
        };
    }
    slots.truncate(4);
    let mut textures = [0, 1, 2, 3];
    for (t, s) in textures.iter_mut().zip(&slots) {
        *t = *s;
    }
    (slots.len() as u32, textures)
}

/// Whether a model mesh is the stored LOD's mesh after a tool rewrote it (Blender reorders the
/// vertices in the order its triangles use them, moves every value by float noise and keeps one
/// of two triangles on the same three corners): the triangles, in order, have corners that agree
/// in position, normal, texture coordinates and influences with the stored triangles' corners,
/// where a stored triangle the model lacks has the corners of an earlier one (in any order) or
/// two corners on one point. A stored normal of zero length (SAS_BODY_GR has three) matches any.
fn same_geometry(mesh: &Mesh, stored: &Mesh) -> bool {
    if mesh.positions.len() != stored.positions.len() || mesh.uv_sets.len() != stored.uv_sets.len() {
        return false;
    }
    let corners_match =
        |a: &[u32; 3], b: &[u32; 3]| a.iter().zip(b).all(|(&m, &s)| same_vertex(mesh, m as usize, stored, s as usize));
    // The stored mesh is a read LOD's: its triangles name its vertices, the default is never taken.
    let position = |t: &[u32; 3]| t.map(|i| stored.positions.get(i as usize).copied().unwrap_or_default());
    let mut model = mesh.triangles.iter().peekable();
    for (j, s) in stored.triangles.iter().enumerate() {
        match model.peek() {
            Some(m) if corners_match(m, s) => {
                model.next();
            }
            _ => {
                // A repeat of an earlier stored triangle (the same corner positions in any order:
                // a double-sided pair too, which Blender cannot keep as two faces).
                let corners = position(s);
                let repeat = stored.triangles.iter().take(j).any(|e| {
                    let e = position(e);
                    corners.iter().all(|c| e.iter().any(|x| close(x, c, POSITION_TOLERANCE)))
                        && e.iter().all(|x| corners.iter().any(|c| close(x, c, POSITION_TOLERANCE)))
                });
                // Or degenerate: two corners on one point (Blender's import removes such faces).
                let degenerate = (0..3).any(|c| {
                    corners.get(c).zip(corners.get((c + 1) % 3)).is_some_and(|(a, b)| close(a, b, POSITION_TOLERANCE))
                });
                if !repeat && !degenerate {
                    return false;
                }
            }
        }
    }
    model.next().is_none()
}

/// Whether model vertex `m` is stored vertex `s` up to float noise.
fn same_vertex(mesh: &Mesh, m: usize, stored: &Mesh, s: usize) -> bool {
    // `m` and `s` are vertices of the validated model mesh and of the read LOD, whose columns have
    // a value per vertex; only a model mesh without normals gives zeros, which match no stored
    // normal of length (the LOD is rebuilt then).
    let get3 = |v: &[[f32; 3]], i: usize| v.get(i).copied().unwrap_or_default();
    close(&get3(&mesh.positions, m), &get3(&stored.positions, s), POSITION_TOLERANCE)
        && (stored.normals.is_empty()
            || get3(&stored.normals, s) == [0.0; 3]
            || close(&get3(&mesh.normals, m), &get3(&stored.normals, s), NORMAL_TOLERANCE))
        && mesh.uv_sets.iter().zip(&stored.uv_sets).all(|(a, b)| {
            close(&a.get(m).copied().unwrap_or_default(), &b.get(s).copied().unwrap_or_default(), UV_TOLERANCE)
        })
        && same_influences(mesh, m, stored, s)
}

fn same_influences(mesh: &Mesh, m: usize, stored: &Mesh, s: usize) -> bool {
    let sorted = |mesh: &Mesh, v: usize| {
        let mut x: Vec<(u32, f32)> =
            mesh.skin.vertex(v).iter().filter(|i| i.weight > 1e-4).map(|i| (i.bone, i.weight)).collect();
        x.sort_by_key(|i| i.0);
        x
    };
    let (a, b) = (sorted(mesh, m), sorted(stored, s));
    a.len() == b.len() && a.iter().zip(&b).all(|(x, y)| x.0 == y.0 && (x.1 - y.1).abs() <= WEIGHT_TOLERANCE)
}

/// The header's source vertex and weight counts (ltb.md §4.2: only the source model knew them):
/// the stored ones while every LOD has the stored render vertex count, else the model's.
pub(super) fn source_counts(ctx: &Ctx<'_>, file: &mut LtbFile, losses: &mut Vec<Loss>) {
    let counts =
        |f: &LtbFile| -> Vec<u32> { f.pieces.iter().flat_map(|p| &p.lods).map(|l| l.object.vertex_count()).collect() };
    let same = ctx.stored.is_some_and(|s| counts(s) == counts(file));
    let empty = file.pieces.is_empty();
    let c = &mut file.header.counts;
    match ctx.stored {
        Some(s) if same => {
            (c.vertex_count, c.vertex_weight_count) =
                (s.header.counts.vertex_count, s.header.counts.vertex_weight_count);
            if empty {
                (c.piece_count, c.lod_count, c.triangle_count) =
                    (s.header.counts.piece_count, s.header.counts.lod_count, s.header.counts.triangle_count);
            }
        }
        stored => {
            let vertices: usize = ctx.model.meshes.iter().map(|m| m.positions.len()).sum();
            let weights: usize = ctx.model.meshes.iter().map(|m| m.skin.influences.len().max(m.positions.len())).sum();
            if let Some(s) = stored {
                losses.push(Loss::new(
                    "source vertices",
                    format!(
                        "the header's source vertex and weight counts ({} and {}) count the model's vertices and influences ({vertices} and {weights}): the meshes changed",
                        s.header.counts.vertex_count, s.header.counts.vertex_weight_count
                    ),
                ));
            }
            (c.vertex_count, c.vertex_weight_count) = (vertices as u32, weights as u32);
        }
    }
}
