//! Cross-reference checks after parsing, with the offset and field path of the first problem:
//! what every reading needs (bones, groups, faces, LOD entries), what depends on the group-tail
//! reading (mesh and bone numbers of the groups, bone numbers of the vertices), and what the
//! mapping of a NAD onto a skeleton relies on (bones in range, finite values, ascending frames,
//! the rotation sampling budget).

use relic_core::{ReadError, ReadErrorKind};

use crate::file::{
    BONE_SIZE, FACE_SIZE, GROUP_SIZE, KEY_SIZE, LOD_ENTRY_SIZE, Layout, NadFile, NodFile, TRACK_ROTATION, VERTEX_SIZE,
};
use crate::options::{GROUP_NOSKINNING, GroupTail, seconds};

/// Rotation tracks are sampled at every whole frame; a NAD may make at most this many samples per
/// stored key …
pub(crate) const MAX_SAMPLES_PER_KEY: u64 = 32;
/// … plus this many (a 2-key track may span about 18 minutes).
pub(crate) const MAX_SAMPLES_FIXED: u64 = 32_768;

/// Checks bones (one root first, parents in range, no cycle, parents before children, links in
/// range), group sums, material numbers, face indices and LOD entries against their group.
pub(crate) fn check_structure(file: &NodFile) -> Result<(), ReadError> {
    let layout = file.layout();
    check_bones(file, &layout)?;
    check_groups(file, &layout)?;
    check_faces(file, &layout)?;
    check_lod(file, &layout)
}

fn bone_at(layout: &Layout, index: usize, field_offset: u64) -> u64 {
    layout.bones + BONE_SIZE * index as u64 + field_offset
}

fn check_bones(file: &NodFile, layout: &Layout) -> Result<(), ReadError> {
    let n = file.bones.len();
    let in_range = |v: i16| v == -1 || usize::try_from(v).is_ok_and(|v| v < n);
    for (i, bone) in file.bones.iter().enumerate() {
        let at = |field: u64| bone_at(layout, i, field);
        match (i, bone.parent) {
            (0, -1) => {}
            (0, p) => {
                return Err(ReadError::invalid(
                    at(64),
                    "bones[0].parent",
                    format!("the root bone 0 has parent {p}, not -1"),
                ));
            }
            (_, -1) => {
                return Err(ReadError::invalid(
                    at(64),
                    format!("bones[{i}].parent"),
                    format!("bone {i} has no parent; only bone 0 may be a root"),
                ));
            }
            (_, p) if !in_range(p) => {
                return Err(ReadError::invalid(
                    at(64),
                    format!("bones[{i}].parent"),
                    format!("parent {p} is out of range ({n} bones)"),
                ));
            }
            _ => {}
        }
        for (field, name, value) in [(60, "sibling", bone.sibling), (62, "child", bone.child)] {
            if !in_range(value) {
                return Err(ReadError::invalid(
                    at(field),
                    format!("bones[{i}].{name}"),
                    format!("{name} {value} is out of range ({n} bones)"),
                ));
            }
        }
    }
    // With every parent in range, a bone that does not reach the root within n steps is on a cycle.
    let parent = |b: usize| file.bones.get(b).and_then(|x| usize::try_from(x.parent).ok());
    for start in 0..n {
        let mut chain = vec![start];
        let mut b = start;
        while let Some(p) = parent(b) {
            chain.push(p);
            if p == start || chain.len() > n {
                let cycle: Vec<String> = chain.iter().map(usize::to_string).collect();
                return Err(ReadError::invalid(
                    bone_at(layout, start, 64),
                    format!("bones[{start}].parent"),
                    format!("bone parents form a cycle ({})", cycle.join(" → ")),
                ));
            }
            b = p;
        }
    }
    for (i, bone) in file.bones.iter().enumerate() {
        if let Ok(p) = usize::try_from(bone.parent)
            && p >= i
        {
            return Err(ReadError::invalid(
                bone_at(layout, i, 64),
                format!("bones[{i}].parent"),
                format!("parent {p} comes after bone {i}; NOD skeletons are stored parents first"),
            ));
        }
    }
    Ok(())
}

fn check_groups(file: &NodFile, layout: &Layout) -> Result<(), ReadError> {
    let materials = file.materials.len();
    for (i, g) in file.groups.iter().enumerate() {
        let ok = g.material_id == -1 || usize::try_from(g.material_id).is_ok_and(|m| m < materials);
        if !ok {
            return Err(ReadError::invalid(
                layout.groups + GROUP_SIZE * i as u64,
                format!("groups[{i}].material_id"),
                format!("material {} is out of range ({materials} materials; -1 = untextured)", g.material_id),
            ));
        }
    }
    let sum_v: u64 = file.groups.iter().map(|g| u64::from(g.num_vertices)).sum();
    let sum_f: u64 = file.groups.iter().map(|g| u64::from(g.num_faces)).sum();
    if sum_v != file.vertices.len() as u64 {
        return Err(ReadError::invalid(
            layout.groups,
            "groups.num_vertices",
            format!("the groups hold {sum_v} vertices but the header says {}", file.vertices.len()),
        ));
    }
    if sum_f != file.faces.len() as u64 {
        return Err(ReadError::invalid(
            layout.groups,
            "groups.num_faces",
            format!("the groups hold {sum_f} faces but the header says {}", file.faces.len()),
        ));
    }
    Ok(())
}

fn check_faces(file: &NodFile, layout: &Layout) -> Result<(), ReadError> {
    for (g, (group, (_, first_face))) in file.groups.iter().zip(file.group_starts()).enumerate() {
        let faces = file.group_faces(first_face, group);
        let limit = group.num_vertices;
        // One pass for the common case; the slow search only runs to name the culprit.
        if faces.iter().all(|f| f[0] < limit && f[1] < limit && f[2] < limit) {
            continue;
        }
        for (k, face) in faces.iter().enumerate() {
            if let Some((corner, index)) = face.iter().enumerate().find(|(_, v)| **v >= limit) {
                let f = first_face + k;
                return Err(ReadError::invalid(
                    layout.faces + FACE_SIZE * f as u64 + 2 * corner as u64,
                    format!("faces[{f}][{corner}]"),
                    format!("vertex {index} is out of group {g}'s range ({limit} vertices)"),
                ));
            }
        }
    }
    Ok(())
}

fn check_lod(file: &NodFile, layout: &Layout) -> Result<(), ReadError> {
    let (Some(lod), Some(lod_at)) = (&file.lod, layout.lod) else { return Ok(()) };
    for (g, (group, (first, _))) in file.groups.iter().zip(file.group_starts()).enumerate() {
        // The LOD table has one entry per vertex (checked when it is read): inside, as the vertices.
        let entries = lod.get(first..first + usize::from(group.num_vertices)).unwrap_or_default();
        if let Some((k, &to)) = entries.iter().enumerate().find(|(_, to)| **to >= group.num_vertices) {
            let v = first + k;
            return Err(ReadError::invalid(
                lod_at + LOD_ENTRY_SIZE * v as u64,
                format!("lod[{v}]"),
                format!("collapses into vertex {to}, outside group {g}'s range ({} vertices)", group.num_vertices),
            ));
        }
    }
    Ok(())
}

/// The first group whose tail does not give in-range numbers under `layout`: (offset, path, why).
pub(crate) fn tail_problem(file: &NodFile, layout: GroupTail) -> Option<(u64, String, String)> {
    let groups_at = file.layout().groups;
    let (meshes, bones) = (file.mesh_names.len(), file.bones.len());
    let (bone_off, mesh_off) = layout.bone_mesh_offsets();
    for (i, g) in file.groups.iter().enumerate() {
        let t = layout.decode(g.tail);
        let at = groups_at + GROUP_SIZE * i as u64 + 22;
        if usize::from(t.mesh) >= meshes {
            return Some((
                at + mesh_off,
                format!("groups[{i}].tail"),
                format!("under layout {layout} group {i} names mesh {} ({meshes} meshes)", t.mesh),
            ));
        }
        if bones > 0 && usize::from(t.bone) >= bones {
            return Some((
                at + bone_off,
                format!("groups[{i}].tail"),
                format!("under layout {layout} group {i} names bone {} ({bones} bones)", t.bone),
            ));
        }
    }
    None
}

/// Checks the bone numbers of the vertices of every group whose per-vertex binding counts under
/// the tail reading `tail` (a NOSKINNING group is rigid on its own bone).
pub(crate) fn check_vertex_bones(file: &NodFile, tail: GroupTail) -> Result<(), ReadError> {
    let bones = file.bones.len();
    if bones == 0 {
        return Ok(());
    }
    let vertices_at = file.layout().vertices;
    for (group, (first, _)) in file.groups.iter().zip(file.group_starts()) {
        if tail.decode(group.tail).effective_flags() & GROUP_NOSKINNING != 0 {
            continue; // The per-vertex binding is ignored: the group is rigid on its bone.
        }
        let vertices = file.group_vertices(first, group);
        if let Some((k, v)) = vertices.iter().enumerate().find(|(_, v)| usize::from(v.bone_num) >= bones) {
            let index = first + k;
            return Err(ReadError::at(
                vertices_at + VERTEX_SIZE * index as u64 + 36,
                format!("vertices[{index}].bone_num"),
                ReadErrorKind::Invalid(format!("bone {} is out of range ({bones} bones)", v.bone_num)),
            ));
        }
    }
    Ok(())
}

/// Checks what mapping a NAD onto a skeleton of `bones` bones relies on, in time linear in the
/// file's size: bones in range, finite values, strictly ascending frames (also as seconds), finite
/// frame scales between keys, a sample budget for rotation tracks.
pub(crate) fn check_for_model(nad: &NadFile, bones: usize) -> Result<(), ReadError> {
    if !nad.duration.is_finite() || nad.duration < 0.0 {
        return Err(ReadError::invalid(12, "duration", format!("duration {} frames is not a length", nad.duration)));
    }
    let budget = MAX_SAMPLES_FIXED + MAX_SAMPLES_PER_KEY * nad.key_count() as u64;
    let mut samples = 0u64;
    for (t, track) in nad.tracks.iter().enumerate() {
        let sampled = track.track_type == TRACK_ROTATION && !track.holds();
        if track.bone as usize >= bones {
            return Err(ReadError::invalid(
                nad.track_offset(t) + 4,
                format!("tracks[{t}].bone"),
                format!("bone {} is out of range (the model has {bones} bones)", track.bone),
            ));
        }
        for (k, key) in track.keys.iter().enumerate() {
            // Offsets are summed over the earlier tracks: computed only for an error, so that a
            // file of many tracks is checked in linear time.
            let at = || nad.key_offset(t, k);
            let path = |field: &str| format!("tracks[{t}].keys[{k}].{field}");
            if !key.frame.is_finite() {
                return Err(ReadError::invalid(at(), path("frame"), format!("frame {} is not finite", key.frame)));
            }
            for (off, field, v) in [(8, "value", key.value), (20, "c", key.c), (32, "b", key.b), (44, "a", key.a)] {
                if v.iter().any(|x| !x.is_finite()) {
                    return Err(ReadError::invalid(at() + off, path(field), format!("{v:?} is not finite")));
                }
            }
            if let Some(next) = track.keys.get(k + 1) {
                let ascending =
                    next.frame > key.frame && seconds(f64::from(next.frame)) > seconds(f64::from(key.frame));
                if !ascending {
                    return Err(ReadError::invalid(
                        at() + KEY_SIZE,
                        format!("tracks[{t}].keys[{}].frame", k + 1),
                        format!("frame {} does not come after frame {}", next.frame, key.frame),
                    ));
                }
                if !key.frame_scale.is_finite() {
                    return Err(ReadError::invalid(
                        at() + 4,
                        path("frame_scale"),
                        format!("frame scale {} before the last key", key.frame_scale),
                    ));
                }
                if sampled && !key.holds_until(next) {
                    samples = samples.saturating_add(interior_frames(key.frame, next.frame));
                }
            }
            samples = samples.saturating_add(1);
        }
        if samples > budget {
            return Err(ReadError::invalid(
                nad.track_offset(t),
                format!("tracks[{t}]"),
                format!(
                    "sampling the rotations at 30 frames per second needs more than {budget} keys \
                     ({MAX_SAMPLES_PER_KEY} per stored key + {MAX_SAMPLES_FIXED}); the frames span too long a time"
                ),
            ));
        }
    }
    for (i, tag) in nad.tags.iter().enumerate() {
        if !tag.frame.is_finite() {
            return Err(ReadError::invalid(
                nad.tag_offset(i),
                format!("tags[{i}].frame"),
                format!("frame {} is not finite", tag.frame),
            ));
        }
    }
    Ok(())
}

/// Whole frames strictly between `a` and `b`.
pub(crate) fn interior_frames(a: f32, b: f32) -> u64 {
    let n = f64::from(b).ceil() - f64::from(a).floor() - 1.0;
    if n > 0.0 { n as u64 } else { 0 }
}
