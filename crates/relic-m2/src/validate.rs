//! Read-time checks that need more than one record: every index into another table, the bone
//! hierarchy (parents in range, no cycle), the submesh ranges, and blocks that overlap.
//! Each failure names the field and the byte offset of the offending value.

use relic_core::ReadError;

use crate::array::M2Array;
use crate::file::*;
use crate::track::{EventTrack, RotationTrack, SplineTrack, Track};

/// Offset of record `i` of `size` bytes in `array`, plus `field`.
fn at<T>(array: &M2Array<T>, i: usize, size: u64, field: u64) -> u64 {
    u64::from(array.offset) + i as u64 * size + field
}

/// `index` must be below `count` (or −1 where `allow_none`).
fn check_index(
    value: i64,
    count: usize,
    allow_none: bool,
    offset: u64,
    path: impl FnOnce() -> String,
    what: &str,
) -> Result<(), ReadError> {
    if (allow_none && value == -1) || (value >= 0 && (value as u64) < count as u64) {
        return Ok(());
    }
    Err(ReadError::invalid(offset, path(), format!("{what} {value} is out of range ({count} exist)")))
}

pub(crate) fn validate(file: &M2File, file_len: u64) -> Result<(), ReadError> {
    sequences(file)?;
    bones(file)?;
    vertices(file)?;
    views(file)?;
    lookups(file)?;
    others(file)?;
    overlaps(file, file_len)
}

fn sequences(f: &M2File) -> Result<(), ReadError> {
    let n = f.sequences.len();
    for (i, s) in f.sequences.iter().enumerate() {
        if s.end < s.start {
            return Err(ReadError::invalid(
                at(&f.sequences, i, 68, 8),
                format!("M2File.sequences[{i}].end"),
                format!("sequence ends at {} ms before it starts at {} ms", s.end, s.start),
            ));
        }
        check_index(
            i64::from(s.next_variation),
            n,
            true,
            at(&f.sequences, i, 68, 64),
            || format!("M2File.sequences[{i}].next_variation"),
            "sequence",
        )?;
    }
    Ok(())
}

fn bones(f: &M2File) -> Result<(), ReadError> {
    let n = f.bones.len();
    let size = bone_size(f.version);
    for (i, b) in f.bones.iter().enumerate() {
        let path = || format!("M2File.bones[{i}].parent");
        check_index(i64::from(b.parent), n, true, at(&f.bones, i, size, 8), path, "parent bone")?;
    }
    // Walk up from each bone until a root or a bone already known to reach one; every bone is
    // walked over once (walking the whole way up from each made a 100 000-bone chain cost 5·10⁹
    // steps). Reaching a bone of the current walk again is a cycle.
    const UNSEEN: u8 = 0;
    const ON_WALK: u8 = 1;
    const ROOTED: u8 = 2;
    let mut state = vec![UNSEEN; n];
    let mut walk = Vec::new();
    for i in 0..n {
        let mut p = i;
        loop {
            match state.get(p).copied() {
                Some(UNSEEN) => {
                    if let Some(s) = state.get_mut(p) {
                        *s = ON_WALK;
                    }
                    walk.push(p);
                    match f.bones.get(p).and_then(|b| usize::try_from(b.parent).ok()) {
                        Some(parent) => p = parent,
                        None => break,
                    }
                }
                Some(ON_WALK) => {
                    let detail = if p == i {
                        format!("bone {i} is its own ancestor (the parents form a cycle)")
                    } else {
                        format!(
                            "bone {i} has bone {p} among its ancestors, which is its own ancestor (the parents form a cycle)"
                        )
                    };
                    return Err(ReadError::invalid(
                        at(&f.bones, i, size, 8),
                        format!("M2File.bones[{i}].parent"),
                        detail,
                    ));
                }
                _ => break,
            }
        }
        for q in walk.drain(..) {
            if let Some(s) = state.get_mut(q) {
                *s = ROOTED;
            }
        }
    }
    Ok(())
}

fn vertices(f: &M2File) -> Result<(), ReadError> {
    let n = f.bones.len();
    for (i, v) in f.vertices.iter().enumerate() {
        for (j, (&w, &b)) in v.bone_weights.iter().zip(&v.bone_indices).enumerate() {
            if w > 0 && usize::from(b) >= n {
                return Err(ReadError::invalid(
                    at(&f.vertices, i, 48, 16 + j as u64),
                    format!("M2File.vertices[{i}].bone_indices[{j}]"),
                    format!("bone {b} is out of range ({n} exist)"),
                ));
            }
        }
    }
    Ok(())
}

fn views(f: &M2File) -> Result<(), ReadError> {
    let nv = f.vertices.len();
    let sub_size = submesh_size(f.version);
    for (vi, view) in f.views.iter().enumerate() {
        let p = |field: &str| format!("M2File.views[{vi}].{field}");
        if let Some(k) = view.indices.iter().position(|&x| usize::from(x) >= nv) {
            return Err(ReadError::invalid(
                at(&view.indices, k, 2, 0),
                p(&format!("indices[{k}]")),
                format!("vertex {} is out of range ({nv} exist)", view.indices.get(k).copied().unwrap_or(0)),
            ));
        }
        let ni = view.indices.len();
        if let Some(k) = view.triangles.iter().position(|&x| usize::from(x) >= ni) {
            return Err(ReadError::invalid(
                at(&view.triangles, k, 2, 0),
                p(&format!("triangles[{k}]")),
                format!("view vertex {} is out of range ({ni} exist)", view.triangles.get(k).copied().unwrap_or(0)),
            ));
        }
        if view.properties.len() != ni {
            return Err(ReadError::invalid(
                at(&f.views, vi, 44, 16),
                p("properties"),
                format!("{} vertex properties for {ni} view vertices", view.properties.len()),
            ));
        }
        for (si, s) in view.submeshes.iter().enumerate() {
            let off = |field: u64| at(&view.submeshes, si, sub_size, field);
            let sp = |field: &str| p(&format!("submeshes[{si}].{field}"));
            let (vs, vc) = submesh_vertices(s);
            if vs + vc > ni {
                return Err(ReadError::invalid(
                    off(4),
                    sp("vertex_count"),
                    format!("vertices {vs}..{} run past the {ni} view vertices", vs + vc),
                ));
            }
            let (is, ic) = submesh_indices(s);
            if is + ic > view.triangles.len() || ic % 3 != 0 {
                return Err(ReadError::invalid(
                    off(8),
                    sp("index_count"),
                    format!("triangle entries {is}..{} do not fit the {} entries", is + ic, view.triangles.len()),
                ));
            }
            let tris = view.triangles.get(is..is + ic).unwrap_or_default();
            if let Some(k) = tris.iter().position(|&t| !(vs..vs + vc).contains(&usize::from(t))) {
                return Err(ReadError::invalid(
                    at(&view.triangles, is + k, 2, 0),
                    p(&format!("triangles[{}]", is + k)),
                    format!(
                        "a triangle of submesh {si} uses view vertex {} outside the submesh's {vs}..{}",
                        tris.get(k).copied().unwrap_or(0),
                        vs + vc
                    ),
                ));
            }
            let palette_end = usize::from(s.bone_combo_index) + usize::from(s.bone_count);
            if palette_end > f.bone_lookup.len() {
                return Err(ReadError::invalid(
                    off(14),
                    sp("bone_combo_index"),
                    format!(
                        "palette {}..{palette_end} runs past the {} bone-lookup entries",
                        s.bone_combo_index,
                        f.bone_lookup.len()
                    ),
                ));
            }
        }
        for (ui, u) in view.texture_units.iter().enumerate() {
            let off = |field: u64| at(&view.texture_units, ui, 24, field);
            let up = |field: &str| p(&format!("texture_units[{ui}].{field}"));
            check_index(
                i64::from(u.submesh_index),
                view.submeshes.len(),
                false,
                off(4),
                || up("submesh_index"),
                "submesh",
            )?;
            check_index(i64::from(u.color_index), f.colors.len(), true, off(8), || up("color_index"), "colour")?;
            check_index(
                i64::from(u.render_flag_index),
                f.render_flags.len(),
                false,
                off(10),
                || up("render_flag_index"),
                "render flag",
            )?;
            let count = usize::from(u.texture_count.max(1));
            let tex_end = usize::from(u.texture_combo_index) + count;
            if tex_end > f.texture_lookup.len() {
                return Err(ReadError::invalid(
                    off(16),
                    up("texture_combo_index"),
                    format!(
                        "texture combo ends at {tex_end} past the {} texture-lookup entries",
                        f.texture_lookup.len()
                    ),
                ));
            }
            check_index(
                i64::from(u.texture_coord_combo_index),
                f.texture_unit_lookup.len(),
                false,
                off(18),
                || up("texture_coord_combo_index"),
                "texture-coordinate combo",
            )?;
            check_index(
                i64::from(u.transparency_combo_index),
                f.transparency_lookup.len(),
                false,
                off(20),
                || up("transparency_combo_index"),
                "transparency combo",
            )?;
            if u.texture_transform_combo_index != u16::MAX {
                check_index(
                    i64::from(u.texture_transform_combo_index),
                    f.texture_transform_lookup.len(),
                    false,
                    off(22),
                    || up("texture_transform_combo_index"),
                    "texture-transform combo",
                )?;
            }
        }
    }
    Ok(())
}

/// A submesh's view vertices (with the `level` high word).
pub(crate) fn submesh_vertices(s: &Submesh) -> (usize, usize) {
    ((usize::from(s.level) << 16) + usize::from(s.vertex_start), usize::from(s.vertex_count))
}

/// A submesh's triangle-list entries (with the `level` high word).
pub(crate) fn submesh_indices(s: &Submesh) -> (usize, usize) {
    ((usize::from(s.level) << 16) + usize::from(s.index_start), usize::from(s.index_count))
}

fn lookup(table: &M2Array<i16>, count: usize, name: &str, what: &str) -> Result<(), ReadError> {
    for (i, &v) in table.iter().enumerate() {
        check_index(i64::from(v), count, true, at(table, i, 2, 0), || format!("M2File.{name}[{i}]"), what)?;
    }
    Ok(())
}

fn lookups(f: &M2File) -> Result<(), ReadError> {
    lookup(&f.sequence_lookup, f.sequences.len(), "sequence_lookup", "sequence")?;
    lookup(&f.key_bone_lookup, f.bones.len(), "key_bone_lookup", "bone")?;
    lookup(&f.replaceable_texture_lookup, f.textures.len(), "replaceable_texture_lookup", "texture")?;
    lookup(&f.texture_lookup, f.textures.len(), "texture_lookup", "texture")?;
    lookup(&f.transparency_lookup, f.transparency.len(), "transparency_lookup", "texture weight")?;
    lookup(&f.texture_transform_lookup, f.texture_transforms.len(), "texture_transform_lookup", "texture transform")?;
    lookup(&f.attachment_lookup, f.attachments.len(), "attachment_lookup", "attachment")?;
    lookup(&f.camera_lookup, f.cameras.len(), "camera_lookup", "camera")?;
    for (i, &b) in f.bone_lookup.iter().enumerate() {
        check_index(
            i64::from(b),
            f.bones.len(),
            false,
            at(&f.bone_lookup, i, 2, 0),
            || format!("M2File.bone_lookup[{i}]"),
            "bone",
        )?;
    }
    for (i, &v) in f.collision_triangles.iter().enumerate() {
        check_index(
            i64::from(v),
            f.collision_vertices.len(),
            false,
            at(&f.collision_triangles, i, 2, 0),
            || format!("M2File.collision_triangles[{i}]"),
            "collision vertex",
        )?;
    }
    Ok(())
}

fn others(f: &M2File) -> Result<(), ReadError> {
    let nb = f.bones.len();
    for (i, a) in f.attachments.iter().enumerate() {
        check_index(
            i64::from(a.bone),
            nb,
            false,
            at(&f.attachments, i, 48, 4),
            || format!("M2File.attachments[{i}].bone"),
            "bone",
        )?;
    }
    for (i, e) in f.events.iter().enumerate() {
        check_index(
            i64::from(e.bone),
            nb,
            false,
            at(&f.events, i, 44, 8),
            || format!("M2File.events[{i}].bone"),
            "bone",
        )?;
    }
    for (i, l) in f.lights.iter().enumerate() {
        check_index(
            i64::from(l.bone),
            nb,
            true,
            at(&f.lights, i, 212, 2),
            || format!("M2File.lights[{i}].bone"),
            "bone",
        )?;
    }
    for (i, r) in f.ribbon_emitters.iter().enumerate() {
        check_index(
            i64::from(r.bone),
            nb,
            false,
            at(&f.ribbon_emitters, i, 220, 4),
            || format!("M2File.ribbon_emitters[{i}].bone"),
            "bone",
        )?;
        for (k, &t) in r.textures.iter().enumerate() {
            check_index(
                i64::from(t),
                f.textures.len(),
                false,
                at(&r.textures, k, 2, 0),
                || format!("M2File.ribbon_emitters[{i}].textures[{k}]"),
                "texture",
            )?;
        }
        for (k, &m) in r.materials.iter().enumerate() {
            check_index(
                i64::from(m),
                f.render_flags.len(),
                false,
                at(&r.materials, k, 2, 0),
                || format!("M2File.ribbon_emitters[{i}].materials[{k}]"),
                "render flag",
            )?;
        }
    }
    for (i, p) in f.particle_emitters.iter().enumerate() {
        check_index(
            i64::from(p.bone),
            nb,
            false,
            at(&f.particle_emitters, i, 504, 20),
            || format!("M2File.particle_emitters[{i}].bone"),
            "bone",
        )?;
    }
    Ok(())
}

/// A block of the file: where, how long, and a label to name it by.
#[derive(Debug, Clone, Copy)]
struct Span {
    start: u64,
    len: u64,
    what: &'static str,
    index: usize,
}

/// Every block of a file, listed (`keep`) or only summed.
#[derive(Default)]
struct Spans {
    list: Vec<Span>,
    keep: bool,
    total: u64,
}

impl Spans {
    fn push(&mut self, span: Span) {
        self.total = self.total.saturating_add(span.len);
        if self.keep {
            self.list.push(span);
        }
    }
    fn add<T>(&mut self, a: &M2Array<T>, what: &'static str, index: usize) {
        let len = (a.len() * size_of::<T>()) as u64;
        if len > 0 {
            self.push(Span { start: u64::from(a.offset), len, what, index });
        }
    }
    fn track<T>(&mut self, t: &Track<T>, what: &'static str, index: usize) {
        self.add(&t.ranges, what, index);
        self.add(&t.timestamps, what, index);
        self.add(&t.values, what, index);
    }
    fn spline<T>(&mut self, t: &SplineTrack<T>, what: &'static str, index: usize) {
        self.add(&t.ranges, what, index);
        self.add(&t.timestamps, what, index);
        self.add(&t.values, what, index);
    }
    fn event(&mut self, t: &EventTrack, what: &'static str, index: usize) {
        self.add(&t.ranges, what, index);
        self.add(&t.timestamps, what, index);
    }
}

/// Bytes of the header (with the blend-override pair when the file has one).
fn header_len(f: &M2File) -> u64 {
    HEADER_SIZE as u64 + if f.blend_overrides.is_some() { 8 } else { 0 }
}

/// Bytes the file's data occupies: the header and every block, padding left out. The reader
/// refuses overlapping blocks, so for a file it accepted this is at most the file's length.
pub(crate) fn data_bytes(f: &M2File) -> u64 {
    let mut s = Spans::default();
    blocks(f, header_len(f), &mut s);
    s.total
}

fn overlaps(f: &M2File, file_len: u64) -> Result<(), ReadError> {
    let mut s = Spans { keep: true, ..Spans::default() };
    blocks(f, header_len(f).min(file_len), &mut s);
    let mut spans = s.list;
    spans.sort_unstable_by_key(|s| (s.start, s.len));
    for pair in spans.windows(2) {
        if let [a, b] = pair
            && b.start < a.start + a.len
        {
            return Err(ReadError::invalid(
                b.start,
                "M2File",
                format!(
                    "blocks overlap: {} [{}] at {:#x} ({} bytes) and {} [{}] at {:#x}",
                    a.what, a.index, a.start, a.len, b.what, b.index, b.start
                ),
            ));
        }
    }
    Ok(())
}

/// Gives every block of the file to `s`, the header first (`header` bytes).
fn blocks(f: &M2File, header: u64, s: &mut Spans) {
    s.push(Span { start: 0, len: header, what: "header", index: 0 });
    s.add(&f.name, "name", 0);
    s.add(&f.global_sequences, "global_sequences", 0);
    s.add(&f.sequences, "sequences", 0);
    s.add(&f.sequence_lookup, "sequence_lookup", 0);
    s.add(&f.playable_lookup, "playable_lookup", 0);
    s.push(Span {
        start: u64::from(f.bones.offset),
        len: f.bones.len() as u64 * bone_size(f.version),
        what: "bones",
        index: 0,
    });
    for (i, b) in f.bones.iter().enumerate() {
        s.track(&b.translation, "bone translation", i);
        match &b.rotation {
            RotationTrack::Float(t) => s.track(t, "bone rotation", i),
            RotationTrack::Compressed(t) => s.track(t, "bone rotation", i),
        }
        s.track(&b.scale, "bone scale", i);
    }
    s.add(&f.key_bone_lookup, "key_bone_lookup", 0);
    s.add(&f.vertices, "vertices", 0);
    s.push(Span { start: u64::from(f.views.offset), len: f.views.len() as u64 * 44, what: "views", index: 0 });
    for (i, v) in f.views.iter().enumerate() {
        s.add(&v.indices, "view indices", i);
        s.add(&v.triangles, "view triangles", i);
        s.add(&v.properties, "view properties", i);
        let subs = v.submeshes.len() as u64 * submesh_size(f.version);
        if subs > 0 {
            s.push(Span { start: u64::from(v.submeshes.offset), len: subs, what: "view submeshes", index: i });
        }
        s.add(&v.texture_units, "view texture units", i);
    }
    let records = |s: &mut Spans, offset: u32, n: usize, size: u64, what| {
        if n > 0 {
            s.push(Span { start: u64::from(offset), len: n as u64 * size, what, index: 0 });
        }
    };
    records(s, f.colors.offset, f.colors.len(), 56, "colors");
    for (i, c) in f.colors.iter().enumerate() {
        s.track(&c.color, "colour", i);
        s.track(&c.alpha, "colour alpha", i);
    }
    records(s, f.textures.offset, f.textures.len(), 16, "textures");
    for (i, t) in f.textures.iter().enumerate() {
        s.add(&t.filename, "texture name", i);
    }
    records(s, f.transparency.offset, f.transparency.len(), 28, "transparency");
    for (i, t) in f.transparency.iter().enumerate() {
        s.track(&t.weight, "texture weight", i);
    }
    records(s, f.texture_transforms.offset, f.texture_transforms.len(), 84, "texture_transforms");
    for (i, t) in f.texture_transforms.iter().enumerate() {
        s.track(&t.translation, "texture transform", i);
        s.track(&t.rotation, "texture transform", i);
        s.track(&t.scaling, "texture transform", i);
    }
    s.add(&f.replaceable_texture_lookup, "replaceable_texture_lookup", 0);
    s.add(&f.render_flags, "render_flags", 0);
    s.add(&f.bone_lookup, "bone_lookup", 0);
    s.add(&f.texture_lookup, "texture_lookup", 0);
    s.add(&f.texture_unit_lookup, "texture_unit_lookup", 0);
    s.add(&f.transparency_lookup, "transparency_lookup", 0);
    s.add(&f.texture_transform_lookup, "texture_transform_lookup", 0);
    s.add(&f.collision_triangles, "collision_triangles", 0);
    s.add(&f.collision_vertices, "collision_vertices", 0);
    s.add(&f.collision_normals, "collision_normals", 0);
    records(s, f.attachments.offset, f.attachments.len(), 48, "attachments");
    for (i, a) in f.attachments.iter().enumerate() {
        s.track(&a.visibility, "attachment visibility", i);
    }
    s.add(&f.attachment_lookup, "attachment_lookup", 0);
    records(s, f.events.offset, f.events.len(), 44, "events");
    for (i, e) in f.events.iter().enumerate() {
        s.event(&e.times, "event times", i);
    }
    records(s, f.lights.offset, f.lights.len(), 212, "lights");
    for (i, l) in f.lights.iter().enumerate() {
        s.track(&l.ambient_color, "light", i);
        s.track(&l.ambient_intensity, "light", i);
        s.track(&l.diffuse_color, "light", i);
        s.track(&l.diffuse_intensity, "light", i);
        s.track(&l.attenuation_start, "light", i);
        s.track(&l.attenuation_end, "light", i);
        s.track(&l.visibility, "light", i);
    }
    records(s, f.cameras.offset, f.cameras.len(), 124, "cameras");
    for (i, c) in f.cameras.iter().enumerate() {
        s.spline(&c.positions, "camera", i);
        s.spline(&c.target_positions, "camera", i);
        s.spline(&c.roll, "camera", i);
    }
    s.add(&f.camera_lookup, "camera_lookup", 0);
    records(s, f.ribbon_emitters.offset, f.ribbon_emitters.len(), 220, "ribbon_emitters");
    for (i, r) in f.ribbon_emitters.iter().enumerate() {
        s.add(&r.textures, "ribbon", i);
        s.add(&r.materials, "ribbon", i);
        s.track(&r.color, "ribbon", i);
        s.track(&r.alpha, "ribbon", i);
        s.track(&r.height_above, "ribbon", i);
        s.track(&r.height_below, "ribbon", i);
        s.track(&r.texture_slot, "ribbon", i);
        s.track(&r.visibility, "ribbon", i);
    }
    records(s, f.particle_emitters.offset, f.particle_emitters.len(), 504, "particle_emitters");
    for (i, p) in f.particle_emitters.iter().enumerate() {
        s.add(&p.geometry_model, "particle", i);
        s.add(&p.recursion_model, "particle", i);
        for t in [
            &p.emission_speed,
            &p.speed_variation,
            &p.vertical_range,
            &p.horizontal_range,
            &p.gravity,
            &p.lifespan,
            &p.emission_rate,
            &p.emission_area_length,
            &p.emission_area_width,
            &p.z_source,
        ] {
            s.track(t, "particle", i);
        }
        s.add(&p.spline_points, "particle", i);
        s.track(&p.enabled_in, "particle", i);
    }
    if let Some(o) = &f.blend_overrides {
        s.add(o, "blend_overrides", 0);
    }
}
