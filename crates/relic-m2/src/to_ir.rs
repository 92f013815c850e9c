//! M2 → common model.
//!
//! * Frame: WoW is right-handed Z-up; everything passes through
//!   [`Frame::Warcraft`] once (`(x, y, z) → (y, z, x)`: Z up becomes Y up and the creature's
//!   forward, +X, becomes glTF's front, +Z; a rotation, so winding is unchanged).
//! * Bones (spec §6): the file stores pivots, no bind matrices. The bind matrix is
//!   `translate(pivot)`, the inverse bind `translate(−pivot)`, the rest transform the translation
//!   `pivot − parent pivot`; an animated translation key is `pivot − parent pivot + value`.
//! * Sequences → animations named `<AnimationData name>.<n>` (n counts the sequences of one id in
//!   file order: the stored variation field is 0 everywhere in the real 1.12 file). Key times are
//!   seconds from the sequence start; a range's keys may lie outside the sequence (kept, the
//!   sampler clamps). Tracks without ranges apply to every sequence with their absolute times;
//!   global-sequence tracks go into every animation on [`Clock::Global`] with their own times.
//! * Interpolation 0 → step, 1 → linear, 2 (Hermite) and 3 (Bezier) → glTF cubic spline. M2
//!   tangents are per segment (the parameter runs 0–1 over a segment, as in Warcraft III MDX);
//!   glTF's are per second, so a key's out-tangent is divided by the length of the segment after
//!   it and its in-tangent by the segment before it (the first in- and last out-tangent, which
//!   no segment uses, by the nearest segment). Bezier control points become Hermite tangents:
//!   `out = 3 (C_out − P)`, `in = 3 (P − C_in)`.
//! * Meshes: one per submesh of view 0, vertices through the view's index list, weights
//!   `w / Σw` (= w / 255), part id = geoset id. Materials from the submesh's texture units (base
//!   layer first); equal materials are shared.
//! * Everything else, and the file itself for exact writing back, goes into [`M2Extras`].

use relic_core::frame::Frame;
use relic_core::math::IDENTITY;
use relic_core::model::{self as ir, *};
use relic_core::{Model, ReadError};
use serde::{Deserialize, Serialize};

use crate::file::*;
use crate::names;
use crate::track::{INTERPOLATION_BEZIER, INTERPOLATION_HERMITE, INTERPOLATION_NONE, RotationTrack, decode_quat};
use crate::validate::{submesh_indices, submesh_vertices};

/// The frame conversion of M2.
pub const FRAME: Frame = Frame::Warcraft;

/// What an M2 holds that the common model does not: the file as read, without its vertex array
/// (the model's meshes hold those). [`crate::from_ir`] takes each section from here while mapping
/// it gives exactly what the model now holds, and rebuilds it from the model otherwise.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct M2Extras {
    /// The file as read, `vertices` emptied.
    pub file: M2File,
}

/// The extras' operations (JSON through serde).
pub static EXTRAS_OPS: ExtrasOps =
    relic_core::extras_ops!(M2Extras, |e: &M2Extras| serde_json::to_string(e).unwrap_or_default());

/// The model name: the text before the first NUL, Windows-1252.
pub fn name_text(name: &[u8]) -> String {
    relic_core::text::decode_cp1252(name.split(|&b| b == 0).next().unwrap_or_default())
}

/// Bone order of the model: parents before children, file order otherwise. Returns
/// `(order, rank)`: `order[ir] = file index`, `rank[file index] = ir`.
pub fn bone_order(file: &M2File) -> (Vec<usize>, Vec<usize>) {
    let n = file.bones.len();
    let mut order = Vec::with_capacity(n);
    let mut placed = vec![false; n];
    // The reader rejected cycles and out-of-range parents, so each pass places at least one bone.
    while order.len() < n {
        let before = order.len();
        for (i, b) in file.bones.iter().enumerate() {
            let parent_placed = usize::try_from(b.parent).map_or(true, |p| placed.get(p).copied().unwrap_or(true));
            if !placed.get(i).copied().unwrap_or(true) && parent_placed {
                order.push(i);
                if let Some(p) = placed.get_mut(i) {
                    *p = true;
                }
            }
        }
        if order.len() == before {
            break;
        }
    }
    let mut rank = vec![0; n];
    for (ir, &f) in order.iter().enumerate() {
        if let Some(r) = rank.get_mut(f) {
            *r = ir;
        }
    }
    (order, rank)
}

/// A bone's pivot (M2 frame); zero for "no bone".
pub(crate) fn pivot(file: &M2File, bone: i64) -> [f32; 3] {
    usize::try_from(bone).ok().and_then(|b| file.bones.get(b)).map_or([0.0; 3], |b| b.pivot)
}

fn sub3(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn add3(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

/// The pivot-relative rest offset of a bone (M2 frame).
pub(crate) fn rest_offset(file: &M2File, bone: usize) -> [f32; 3] {
    let b = file.bones.get(bone);
    let parent = b.map_or(-1, |b| i64::from(b.parent));
    sub3(b.map_or([0.0; 3], |b| b.pivot), pivot(file, parent))
}

fn translate(t: [f32; 3]) -> relic_core::math::Mat4 {
    let mut m = IDENTITY;
    m[12] = t[0];
    m[13] = t[1];
    m[14] = t[2];
    m
}

/// A cylindrical billboard locked to the model's axis `axis` (0 = X, 1 = Y, 2 = Z).
pub fn cylindrical(axis: usize) -> Billboard {
    match axis {
        0 => Billboard::CylindricalX,
        1 => Billboard::CylindricalY,
        _ => Billboard::CylindricalZ,
    }
}

/// The bone flags of the model from M2 bone flags.
pub fn bone_flags(flags: u32) -> BoneFlags {
    // M2's cylindrical lock axes are M2 axes; the model's are its own.
    let billboard = if flags & BONE_BILLBOARD != 0 {
        Billboard::Spherical
    } else if flags & BONE_BILLBOARD_X != 0 {
        cylindrical(FRAME.axis_to_ir(0))
    } else if flags & BONE_BILLBOARD_Y != 0 {
        cylindrical(FRAME.axis_to_ir(1))
    } else if flags & BONE_BILLBOARD_Z != 0 {
        cylindrical(FRAME.axis_to_ir(2))
    } else {
        Billboard::None
    };
    BoneFlags {
        inherit_translation: flags & BONE_IGNORE_PARENT_TRANSLATION == 0,
        inherit_rotation: flags & BONE_IGNORE_PARENT_ROTATION == 0,
        inherit_scale: flags & BONE_IGNORE_PARENT_SCALE == 0,
        rotation_only: false,
        billboard,
    }
}

/// The model's bones (in `order`).
pub fn bones_to_ir(file: &M2File, order: &[usize], rank: &[usize]) -> Vec<ir::Bone> {
    order
        .iter()
        .enumerate()
        .filter_map(|(ir, &f)| {
            let b = file.bones.get(f)?;
            let p = FRAME.vector_to_ir(b.pivot);
            Some(ir::Bone {
                name: names::bone_name(ir, b.key_bone_id),
                parent: usize::try_from(b.parent).ok().and_then(|p| rank.get(p).copied()),
                rest: Transform { translation: FRAME.vector_to_ir(rest_offset(file, f)), ..Transform::IDENTITY },
                bind_matrix: translate(p),
                inverse_bind_matrix: translate(p.map(|c| -c)),
                flags: bone_flags(b.flags),
            })
        })
        .collect()
}

/// Seconds from a sequence start to a key (exact for any millisecond count below 2²⁴).
#[inline]
pub fn seconds(ms: i64) -> f32 {
    (ms as f64 / 1000.0) as f32
}

/// Animation names: `<AnimationData name>.<n>`, n counting the sequences of one id in file order.
pub fn animation_names(sequences: &[Sequence]) -> Vec<String> {
    sequences
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let n = sequences.iter().take(i).filter(|o| o.id == s.id).count();
            format!("{}.{n}", names::animation_name(s.id))
        })
        .collect()
}

/// A sequence box in the model's frame.
// Component indices 0..3 of 3-element arrays.
#[allow(clippy::indexing_slicing)]
pub fn bounds_to_ir(b: &Bounds) -> Aabb {
    let (a, c) = (FRAME.vector_to_ir(b.min), FRAME.vector_to_ir(b.max));
    Aabb { min: std::array::from_fn(|i| a[i].min(c[i])), max: std::array::from_fn(|i| a[i].max(c[i])) }
}

/// One stored track, reduced to what channel building needs: its head and its values already in
/// the model's frame, `per_key` entries per key in M2's order (value, in, out).
pub(crate) struct TrackView<'a, const N: usize> {
    pub interpolation: u16,
    pub global_sequence: i16,
    pub ranges: &'a [[u32; 2]],
    pub timestamps: &'a [u32],
    pub values: Vec<[f32; N]>,
}

impl<const N: usize> TrackView<'_, N> {
    fn per_key(&self) -> usize {
        crate::track::values_per_key(self.interpolation)
    }

    /// The keys (index range) and clock of sequence `s`, or `None` if the track does not animate it.
    fn keys_for(&self, s: usize) -> Option<(std::ops::Range<usize>, Clock)> {
        let n = self.timestamps.len();
        if n == 0 {
            return None;
        }
        if let Ok(g) = usize::try_from(self.global_sequence) {
            return Some((0..n, Clock::Global(g)));
        }
        if self.ranges.is_empty() {
            return Some((0..n, Clock::Animation));
        }
        let [first, last] = *self.ranges.get(s)?;
        let (first, last) = (first as usize, last as usize);
        (first <= last && last < n).then_some((first..last + 1, Clock::Animation))
    }

    /// The channel of sequence `s` (starting at `start` ms) for `bone`.
    pub(crate) fn channel(
        &self,
        s: usize,
        start: u32,
        bone: usize,
        make: fn(Vec<[f32; N]>) -> ChannelValues,
    ) -> Option<Channel> {
        let (keys, clock) = self.keys_for(s)?;
        let origin = if clock == Clock::Animation { i64::from(start) } else { 0 };
        let times: Vec<f32> =
            self.timestamps.get(keys.clone())?.iter().map(|&t| seconds(i64::from(t) - origin)).collect();
        let per_key = self.per_key();
        let stored = self.values.get(keys.start * per_key..keys.end * per_key)?;
        let (interpolation, values) = if per_key == 1 {
            let i = if self.interpolation == INTERPOLATION_NONE { Interpolation::Step } else { Interpolation::Linear };
            (i, stored.to_vec())
        } else {
            (Interpolation::CubicSpline, cubic_values(stored, &times, self.interpolation == INTERPOLATION_BEZIER))
        };
        Some(Channel { bone, clock, interpolation, times, values: make(values) })
    }
}

/// Segment lengths in seconds around key `k`: (before, after), falling back to the neighbour
/// segment at the ends and to 1 s for a single key.
pub(crate) fn spans(times: &[f32], k: usize) -> (f32, f32) {
    let seg = |i: usize| match (times.get(i), times.get(i + 1)) {
        (Some(a), Some(b)) => Some(b - a),
        _ => None,
    };
    let before = k.checked_sub(1).and_then(seg);
    let after = seg(k);
    let before_or = before.or(after).unwrap_or(1.0);
    let after_or = after.or(before).unwrap_or(1.0);
    (before_or, after_or)
}

/// M2 spline keys (value, in, out) → glTF cubic triples (in/s, value, out/s).
// Component indices run over 0..N of `[f32; N]` arrays.
#[allow(clippy::indexing_slicing)]
fn cubic_values<const N: usize>(stored: &[[f32; N]], times: &[f32], bezier: bool) -> Vec<[f32; N]> {
    let mut out = Vec::with_capacity(stored.len());
    for (k, key) in stored.chunks_exact(3).enumerate() {
        let (Some(&p), Some(&i), Some(&o)) = (key.first(), key.get(1), key.get(2)) else { continue };
        let (before, after) = spans(times, k);
        let (m_in, m_out): ([f32; N], [f32; N]) = if bezier {
            (std::array::from_fn(|c| 3.0 * (p[c] - i[c])), std::array::from_fn(|c| 3.0 * (o[c] - p[c])))
        } else {
            (i, o)
        };
        out.push(std::array::from_fn(|c| (f64::from(m_in[c]) / f64::from(before)) as f32));
        out.push(p);
        out.push(std::array::from_fn(|c| (f64::from(m_out[c]) / f64::from(after)) as f32));
    }
    out
}

/// Converts a bone's translation values to the model's frame: values and Bezier control points
/// get the pivot offset, Hermite tangents do not.
fn translation_values(values: &[[f32; 3]], interpolation: u16, offset: [f32; 3]) -> Vec<[f32; 3]> {
    let per_key = crate::track::values_per_key(interpolation);
    values
        .iter()
        .enumerate()
        .map(|(j, v)| {
            let is_tangent = per_key == 3 && j % 3 != 0 && interpolation == INTERPOLATION_HERMITE;
            FRAME.vector_to_ir(if is_tangent { *v } else { add3(offset, *v) })
        })
        .collect()
}

/// The three tracks of a file bone as views in the model's frame.
pub(crate) fn bone_tracks(file: &M2File, f: usize) -> Option<(TrackView<'_, 3>, TrackView<'_, 4>, TrackView<'_, 3>)> {
    let b = file.bones.get(f)?;
    let offset = rest_offset(file, f);
    let t = &b.translation;
    let translation = TrackView {
        interpolation: t.interpolation,
        global_sequence: t.global_sequence,
        ranges: &t.ranges,
        timestamps: &t.timestamps,
        values: translation_values(&t.values, t.interpolation, offset),
    };
    let (interpolation, global_sequence, ranges, timestamps) = b.rotation.head();
    let rotation = TrackView {
        interpolation,
        global_sequence,
        ranges,
        timestamps,
        values: match &b.rotation {
            RotationTrack::Float(t) => t.values.iter().map(|q| FRAME.quat_to_ir(*q)).collect(),
            RotationTrack::Compressed(t) => t.values.iter().map(|q| FRAME.quat_to_ir(decode_quat(*q))).collect(),
        },
    };
    let s = &b.scale;
    let scale = TrackView {
        interpolation: s.interpolation,
        global_sequence: s.global_sequence,
        ranges: &s.ranges,
        timestamps: &s.timestamps,
        values: s.values.iter().map(|v| FRAME.scale_to_ir(*v)).collect(),
    };
    Some((translation, rotation, scale))
}

/// Channels of one file bone (IR index `ir`) for every sequence: `[sequence][t, r, s]`.
pub(crate) fn bone_channels(file: &M2File, f: usize, ir: usize) -> Vec<[Option<Channel>; 3]> {
    let Some((t, r, s)) = bone_tracks(file, f) else { return Vec::new() };
    file.sequences
        .iter()
        .enumerate()
        .map(|(i, seq)| {
            [
                t.channel(i, seq.start, ir, ChannelValues::Translation),
                r.channel(i, seq.start, ir, ChannelValues::Rotation),
                s.channel(i, seq.start, ir, ChannelValues::Scale),
            ]
        })
        .collect()
}

/// The event name of an identifier (`$CSS`), Windows-1252 up to the first NUL.
pub fn event_name(identifier: &[u8; 4]) -> String {
    relic_core::text::decode_cp1252(identifier.split(|&b| b == 0).next().unwrap_or_default())
}

/// Events of sequence `s` (ranges are half-open).
pub(crate) fn events_for(file: &M2File, s: usize, rank: &[usize]) -> Vec<ir::Event> {
    let Some(seq) = file.sequences.get(s) else { return Vec::new() };
    let mut out = Vec::new();
    for e in file.events.iter() {
        let t = &e.times;
        let n = t.timestamps.len();
        let (keys, origin) = if t.global_sequence >= 0 || t.ranges.is_empty() {
            (0..n, if t.global_sequence >= 0 { 0 } else { i64::from(seq.start) })
        } else {
            match t.ranges.get(s) {
                Some(&[a, b]) if a < b && b as usize <= n => (a as usize..b as usize, i64::from(seq.start)),
                _ => continue,
            }
        };
        let bone = rank.get(e.bone as usize).copied();
        let position = FRAME.vector_to_ir(sub3(e.position, pivot(file, i64::from(e.bone))));
        for &ts in t.timestamps.get(keys).unwrap_or_default() {
            out.push(ir::Event {
                time: seconds(i64::from(ts) - origin),
                name: event_name(&e.identifier),
                bone,
                position: Some(position),
                parameter: Some(e.data),
            });
        }
    }
    out.sort_by(|a, b| a.time.total_cmp(&b.time));
    out
}

/// The model's animations.
pub fn animations_to_ir(file: &M2File, order: &[usize], rank: &[usize]) -> Vec<Animation> {
    let names = animation_names(&file.sequences);
    let mut animations: Vec<Animation> = file
        .sequences
        .iter()
        .zip(names)
        .enumerate()
        .map(|(s, (seq, name))| Animation {
            name,
            duration: seconds(i64::from(seq.end) - i64::from(seq.start)),
            looping: seq.flags & 1 == 0,
            blend_in: seconds(i64::from(seq.blend_time)),
            channels: Vec::new(),
            morph_channels: Vec::new(),
            events: events_for(file, s, rank),
            bounds: Some(bounds_to_ir(&seq.bounds)),
            key_bounds: Vec::new(),
        })
        .collect();
    for (ir, &f) in order.iter().enumerate() {
        for (anim, channels) in animations.iter_mut().zip(bone_channels(file, f, ir)) {
            anim.channels.extend(channels.into_iter().flatten());
        }
    }
    animations
}

/// The model's materials and, per submesh of view 0, its material index.
pub fn materials_to_ir(file: &M2File) -> (Vec<Material>, Vec<Option<usize>>) {
    let Some(view) = file.views.first() else { return (Vec::new(), Vec::new()) };
    let mut materials: Vec<Material> = Vec::new();
    let mut of_submesh = Vec::with_capacity(view.submeshes.len());
    for s in 0..view.submeshes.len() {
        let units: Vec<&TextureUnit> =
            view.texture_units.iter().filter(|u| usize::from(u.submesh_index) == s).collect();
        let Some(material) = material_of_units(file, &units) else {
            of_submesh.push(None);
            continue;
        };
        let index = match materials.iter().position(|m| *m == material) {
            Some(i) => i,
            None => {
                materials.push(material);
                materials.len() - 1
            }
        };
        of_submesh.push(Some(index));
    }
    (materials, of_submesh)
}

/// The material of one submesh's texture units (base layer first).
pub(crate) fn material_of_units(file: &M2File, units: &[&TextureUnit]) -> Option<Material> {
    let base = units.first()?;
    let mut textures = Vec::new();
    for u in units {
        for k in 0..usize::from(u.texture_count.max(1)) {
            let texture = file
                .texture_lookup
                .get(usize::from(u.texture_combo_index) + k)
                .and_then(|&t| usize::try_from(t).ok())
                .and_then(|t| file.textures.get(t));
            let Some(texture) = texture else { continue };
            let coord = file.texture_unit_lookup.get(usize::from(u.texture_coord_combo_index) + k).copied();
            textures.push(TextureRef {
                path: name_text(&texture.filename),
                replaceable: (texture.kind != 0).then_some(texture.kind),
                uv_set: match coord {
                    Some(c) if c >= 0 => Some(c as u32),
                    Some(_) => None,
                    None => Some(0),
                },
                wrap_u: texture.flags & 1 != 0,
                wrap_v: texture.flags & 2 != 0,
            });
        }
    }
    let flags = file.render_flags.get(usize::from(base.render_flag_index)).copied().unwrap_or_default();
    let name = textures.first().map_or_else(|| "material".to_string(), texture_stem);
    Some(Material {
        name,
        textures,
        blend: blend_mode(flags.blend_mode),
        double_sided: flags.flags & 0x4 != 0,
        unlit: flags.flags & 0x1 != 0,
        unfogged: flags.flags & 0x2 != 0,
        depth_write: flags.flags & 0x10 == 0,
        specular: None,
    })
}

fn texture_stem(t: &TextureRef) -> String {
    if t.path.is_empty() {
        return format!("replaceable_{}", t.replaceable.unwrap_or(0));
    }
    let file = t.path.rsplit(['\\', '/']).next().unwrap_or(&t.path);
    file.split('.').next().unwrap_or(file).to_string()
}

/// The blend mode of an M2 blend-mode number.
pub fn blend_mode(mode: u16) -> BlendMode {
    match mode {
        1 => BlendMode::AlphaKey,
        2 => BlendMode::Alpha,
        3 => BlendMode::Add,
        4 => BlendMode::AddAlpha,
        5 => BlendMode::Modulate,
        6 => BlendMode::Modulate2x,
        _ => BlendMode::Opaque,
    }
}

/// True if any vertex has a second UV set (any bit set).
pub(crate) fn has_uv2(file: &M2File) -> bool {
    file.vertices.iter().any(|v| v.tex_coords2.iter().any(|c| c.to_bits() != 0))
}

/// The model's meshes, one per submesh of view 0.
pub fn meshes_to_ir(file: &M2File, rank: &[usize], materials: &[Option<usize>]) -> Vec<Mesh> {
    let Some(view) = file.views.first() else { return Vec::new() };
    let uv2 = has_uv2(file);
    let skinned = !file.bones.is_empty();
    view.submeshes
        .iter()
        .enumerate()
        .map(|(si, s)| {
            let (vs, vc) = submesh_vertices(s);
            let (is, ic) = submesh_indices(s);
            let globals = view.indices.get(vs..vs + vc).unwrap_or_default();
            let vertices: Vec<&Vertex> = globals.iter().filter_map(|&g| file.vertices.get(usize::from(g))).collect();
            let mut mesh = Mesh {
                name: format!("geoset {}", s.id),
                material: materials.get(si).copied().flatten(),
                positions: vertices.iter().map(|v| FRAME.vector_to_ir(v.position)).collect(),
                normals: vertices.iter().map(|v| FRAME.vector_to_ir(v.normal)).collect(),
                uv_sets: vec![vertices.iter().map(|v| v.tex_coords).collect()],
                part_id: Some(u32::from(s.id)),
                ..Mesh::default()
            };
            if uv2 {
                mesh.uv_sets.push(vertices.iter().map(|v| v.tex_coords2).collect());
            }
            if skinned {
                mesh.skin = Skin::from_vertices(vertices.iter().map(|v| influences(v, rank)));
            }
            mesh.triangles = view
                .triangles
                .get(is..is + ic)
                .unwrap_or_default()
                .chunks_exact(3)
                .map(|t| std::array::from_fn(|k| u32::from(t.get(k).copied().unwrap_or(0)).saturating_sub(vs as u32)))
                .collect();
            mesh
        })
        .collect()
}

/// A vertex's influences: weighted slots in order, weights `w / Σw`. A vertex without weight is
/// bound to its first slot's bone.
pub(crate) fn influences(v: &Vertex, rank: &[usize]) -> Vec<Influence> {
    let sum: u32 = v.bone_weights.iter().map(|&w| u32::from(w)).sum();
    let bone = |b: u8| rank.get(usize::from(b)).copied().unwrap_or(0) as u32;
    if sum == 0 {
        return vec![Influence { bone: bone(v.bone_indices[0]), weight: 1.0 }];
    }
    v.bone_weights
        .iter()
        .zip(&v.bone_indices)
        .filter(|(w, _)| **w > 0)
        .map(|(&w, &b)| Influence { bone: bone(b), weight: f32::from(w) / sum as f32 })
        .collect()
}

/// The model's attachments.
pub fn attachments_to_ir(file: &M2File, rank: &[usize]) -> Vec<ir::Attachment> {
    file.attachments
        .iter()
        .map(|a| ir::Attachment {
            name: format!("attachment {}", a.id),
            id: Some(a.id),
            bone: rank.get(usize::from(a.bone)).copied().unwrap_or(0),
            transform: Transform {
                translation: FRAME.vector_to_ir(sub3(a.position, pivot(file, i64::from(a.bone)))),
                ..Transform::IDENTITY
            },
        })
        .collect()
}

/// Maps a file to the common model (see the module docs).
pub fn to_ir(file: &M2File) -> Result<Model, ReadError> {
    let model = mapped(file);
    Ok(with_extras(model, file.clone()))
}

/// [`to_ir`] for a file the caller no longer needs: the file becomes the model's extras without
/// a copy (reading a model then holds the file once, not twice).
pub fn into_ir(file: M2File) -> Result<Model, ReadError> {
    let model = mapped(&file);
    Ok(with_extras(model, file))
}

/// The model without its extras.
fn mapped(file: &M2File) -> Model {
    let (order, rank) = bone_order(file);
    let (materials, of_submesh) = materials_to_ir(file);
    Model {
        name: name_text(&file.name),
        source: Some(SourceInfo { format: FormatKind::M2, version: file.version }),
        bones: bones_to_ir(file, &order, &rank),
        meshes: meshes_to_ir(file, &rank, &of_submesh),
        materials,
        animations: animations_to_ir(file, &order, &rank),
        global_sequences: file.global_sequences.iter().map(|&g| seconds(i64::from(g))).collect(),
        attachments: attachments_to_ir(file, &rank),
        extras: None,
    }
}

/// Keeps the file (less its vertices, which the meshes hold) as the model's extras.
fn with_extras(model: Model, mut kept: M2File) -> Model {
    kept.vertices = Default::default();
    Model { extras: Some(FormatExtras::new(FormatKind::M2, M2Extras { file: kept }, &EXTRAS_OPS)), ..model }
}
