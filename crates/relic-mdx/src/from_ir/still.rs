//! Whether a model is still the one its kept MDX maps to: exactly (relic's own read and write),
//! or but for what a tool that rewrote it changes without an edit. Blender, through glTF:
//!
//! | part | what the tool changes | compared |
//! |---|---|---|
//! | bones | float noise in the rest pose | names, parents and flags equal; rest within [`TRANSFORM_TOLERANCE`] |
//! | geosets | vertex order (the order its triangles use them), float noise, normals recompressed; a vertex keeps its 4 strongest influences, renormalised | triangles in order, their corners the stored vertices one for one: positions within [`POSITION_TOLERANCE`] (and relative noise), texture coordinates within [`UV_TOLERANCE`], normals within [`NORMAL_TOLERANCE`], influences the stored ones or their 4 strongest renormalised within [`WEIGHT_TOLERANCE`] |
//! | clips | keys resampled and reduced (relic-gltf `keys`) | names, lengths, looping, events; every stored key's value, the model's channel sampled at its time, within [`TRANSFORM_TOLERANCE`]; a channel the file lacks holds the rest pose |
//! | materials, global sequences, attachments, emitters | nothing (they travel in glTF as they are) | equal (attachments within noise) |
//!
//! Anything beyond is an edit: the file is built from the model, and the first difference found
//! is named in the note that says so.

use relic_core::Model;
use relic_core::model::{Animation, Bone, Channel, ChannelValues, Clock, Mesh, Transform};
use relic_core::sample::Sample;

use crate::file::MdxFile;

/// How far (model units, per coordinate; plus [`RELATIVE`] of the value) a vertex may be from
/// its stored position and still be that vertex.
const POSITION_TOLERANCE: f32 = 1e-3;
/// Noise relative to a value's size (Blender's about 2e-5 of the largest coordinate).
const RELATIVE: f32 = 1e-4;
/// How far a normal's component may move: Blender keeps custom normals compressed.
const NORMAL_TOLERANCE: f32 = 5e-2;
/// How far a texture coordinate may move.
const UV_TOLERANCE: f32 = 1e-4;
/// How far a normalised influence may be from the stored share.
const WEIGHT_TOLERANCE: f32 = 1e-2;
/// How far a rest or key value may move (per component, plus [`RELATIVE`] of the value): the
/// key reduction on the way back allows 1e-4.
const TRANSFORM_TOLERANCE: f32 = 2e-3;
/// How many influences a vertex keeps through glTF and Blender.
const GLTF_INFLUENCES: usize = 4;

/// `Ok` when `model` is the model `file` maps to, but for a tool's noise; else the first
/// difference, in words.
pub(super) fn the_file(model: &Model, file: &MdxFile) -> Result<(), String> {
    let read = crate::to_ir::to_ir(file).map_err(|e| format!("the kept file does not map: {e}"))?.value;
    // A file without a model name gets its file's name from the facade (`relic::load_model`):
    // that name is not an edit, and the file keeps its empty one.
    if read.name != model.name && !read.name.is_empty() {
        return Err(format!("the model's name is {:?}, the file's {:?}", model.name, read.name));
    }
    if read.bones == model.bones
        && read.meshes == model.meshes
        && read.materials == model.materials
        && read.animations == model.animations
        && read.global_sequences == model.global_sequences
        && read.attachments == model.attachments
        && read.emitters == model.emitters
    {
        return Ok(());
    }
    bones(&model.bones, &read.bones)?;
    let material_of = materials(model, &read)?;
    if model.emitters != read.emitters {
        return Err("the emitters differ".into());
    }
    let globals = model.global_sequences.len() == read.global_sequences.len()
        && model.global_sequences.iter().zip(&read.global_sequences).all(|(a, b)| near(*a, *b, 1e-4));
    if !globals {
        return Err("the global sequences differ".into());
    }
    attachments(model, &read)?;
    if model.meshes.len() != read.meshes.len() {
        return Err(format!("{} meshes, the file {}", model.meshes.len(), read.meshes.len()));
    }
    for (i, (m, s)) in model.meshes.iter().zip(&read.meshes).enumerate() {
        if m.material.map(|k| material_of.get(k).copied()) != s.material.map(Some) {
            return Err(format!("mesh {i} has another material"));
        }
        geometry(m, s).map_err(|e| format!("mesh {i}: {e}"))?;
    }
    if model.animations.len() != read.animations.len() {
        return Err(format!("{} animations, the file {}", model.animations.len(), read.animations.len()));
    }
    for (a, s) in model.animations.iter().zip(&read.animations) {
        animation(a, s, &read).map_err(|e| format!("animation {:?}: {e}", s.name))?;
    }
    Ok(())
}

fn near(a: f32, b: f32, tolerance: f32) -> bool {
    (a - b).abs() <= tolerance + RELATIVE * a.abs().max(b.abs())
}

fn close<const N: usize>(a: &[f32; N], b: &[f32; N], tolerance: f32) -> bool {
    a.iter().zip(b).all(|(x, y)| near(*x, *y, tolerance))
}

/// Quaternions `q` and `−q` are one rotation.
fn same_rotation(a: &[f32; 4], b: &[f32; 4], tolerance: f32) -> bool {
    close(a, b, tolerance) || close(a, &b.map(|x| -x), tolerance)
}

fn same_transform(a: &Transform, b: &Transform) -> bool {
    close(&a.translation, &b.translation, TRANSFORM_TOLERANCE)
        && same_rotation(&a.rotation, &b.rotation, TRANSFORM_TOLERANCE)
        && close(&a.scale, &b.scale, TRANSFORM_TOLERANCE)
}

fn bones(model: &[Bone], read: &[Bone]) -> Result<(), String> {
    if model.len() != read.len() {
        return Err(format!("{} bones, the file {}", model.len(), read.len()));
    }
    for (i, (a, b)) in model.iter().zip(read).enumerate() {
        if (&a.name, a.parent, a.flags) != (&b.name, b.parent, b.flags) {
            return Err(format!("bone {i} ({:?}) has another name, parent or flags", b.name));
        }
        if !same_transform(&a.rest, &b.rest) {
            return Err(format!("bone {i} ({:?}) has another rest pose", b.name));
        }
    }
    Ok(())
}

/// The file's material of each model material (by name: a tool orders them by first use and
/// leaves out those no mesh uses), each equal; `Err` names the first that is
/// not the file's.
fn materials(model: &Model, read: &Model) -> Result<Vec<usize>, String> {
    let mut out = Vec::with_capacity(model.materials.len());
    for (i, m) in model.materials.iter().enumerate() {
        let found = read.materials.iter().position(|r| r.name == m.name);
        match found.and_then(|k| read.materials.get(k).map(|r| (k, r))) {
            Some((k, r)) if r == m => out.push(k),
            _ => {
                return Err(format!("material {i} ({:?}) is not the file's", m.name));
            }
        }
    }
    let used = |k: usize| read.meshes.iter().any(|m| m.material == Some(k));
    match (0..read.materials.len()).find(|&k| !out.contains(&k) && used(k)) {
        Some(k) => Err(format!("the file's material {k} is missing")),
        None => Ok(out),
    }
}

fn attachments(model: &Model, read: &Model) -> Result<(), String> {
    let same = model.attachments.len() == read.attachments.len()
        && model.attachments.iter().zip(&read.attachments).all(|(a, b)| {
            (&a.name, a.id, a.bone) == (&b.name, b.id, b.bone) && same_transform(&a.transform, &b.transform)
        });
    if same { Ok(()) } else { Err("the attachments differ".into()) }
}

/// The model mesh is the stored geoset's: its triangles, in order, name vertices within noise of
/// the stored triangles' corners, each model vertex always the same stored vertex.
fn geometry(mesh: &Mesh, stored: &Mesh) -> Result<(), String> {
    if mesh.lod != stored.lod {
        return Err("another level of detail".into());
    }
    if mesh.uv_sets.len() != stored.uv_sets.len() {
        return Err(format!("{} texture coordinate sets, the file {}", mesh.uv_sets.len(), stored.uv_sets.len()));
    }
    if mesh.triangles.len() != stored.triangles.len() {
        return Err(format!("{} triangles, the file {}", mesh.triangles.len(), stored.triangles.len()));
    }
    for (t, (m, s)) in mesh.triangles.iter().zip(&stored.triangles).enumerate() {
        for (&mv, &sv) in m.iter().zip(s) {
            same_vertex(mesh, mv as usize, stored, sv as usize)
                .map_err(|what| format!("triangle {t}: vertex {mv} is not stored vertex {sv} ({what})"))?;
        }
    }
    Ok(())
}

fn same_vertex(mesh: &Mesh, m: usize, stored: &Mesh, s: usize) -> Result<(), &'static str> {
    let get3 = |v: &[[f32; 3]], i: usize| v.get(i).copied().unwrap_or_default();
    let get2 = |v: &[[f32; 2]], i: usize| v.get(i).copied().unwrap_or_default();
    if !close(&get3(&mesh.positions, m), &get3(&stored.positions, s), POSITION_TOLERANCE) {
        return Err("position");
    }
    // Compared as directions: a tool keeps normals of unit length (Blender), files not always.
    let direction = |v: &[[f32; 3]], i: usize| relic_core::math::normalize3(get3(v, i));
    if let Some(normal) = direction(&stored.normals, s)
        && !direction(&mesh.normals, m).is_some_and(|n| close(&n, &normal, NORMAL_TOLERANCE))
    {
        return Err("normal");
    }
    if !mesh.uv_sets.iter().zip(&stored.uv_sets).all(|(a, b)| close(&get2(a, m), &get2(b, s), UV_TOLERANCE)) {
        return Err("texture coordinates");
    }
    if !same_influences(mesh, m, stored, s) {
        return Err("influences");
    }
    Ok(())
}

/// The model vertex's influences are the stored ones, or (past [`GLTF_INFLUENCES`]) as many of
/// them renormalised, none weaker than one left out.
fn same_influences(mesh: &Mesh, m: usize, stored: &Mesh, s: usize) -> bool {
    if mesh.skin.is_empty() || stored.skin.is_empty() {
        return mesh.skin.is_empty() == stored.skin.is_empty();
    }
    let model: Vec<_> = mesh.skin.vertex(m).iter().filter(|i| i.weight > 1e-4).collect();
    let file: Vec<_> = stored.skin.vertex(s).iter().filter(|i| i.weight > 0.0).collect();
    if model.len() != file.len().min(GLTF_INFLUENCES) {
        return false;
    }
    let share = |bone: u32| file.iter().find(|i| i.bone == bone).map(|i| i.weight);
    let Some(kept) = model.iter().map(|i| share(i.bone)).sum::<Option<f32>>() else { return false };
    let weakest_kept = model.iter().filter_map(|i| share(i.bone)).fold(f32::INFINITY, f32::min);
    let strongest_left =
        file.iter().filter(|f| !model.iter().any(|i| i.bone == f.bone)).map(|f| f.weight).fold(0.0f32, f32::max);
    kept > 0.0
        && strongest_left <= weakest_kept + WEIGHT_TOLERANCE
        && model.iter().all(|i| share(i.bone).is_some_and(|w| (i.weight - w / kept).abs() <= WEIGHT_TOLERANCE))
}

fn animation(a: &Animation, s: &Animation, read: &Model) -> Result<(), String> {
    if a.name != s.name || a.looping != s.looping || !near(a.duration, s.duration, 1e-4) {
        return Err("another name, length or looping".into());
    }
    let events = a.events.len() == s.events.len()
        && a.events.iter().zip(&s.events).all(|(x, y)| {
            (&x.name, x.bone, x.parameter) == (&y.name, y.bone, y.parameter) && near(x.time, y.time, 1e-4)
        });
    if !events {
        return Err("the events differ".into());
    }
    let frames = frames(a);
    for c in &s.channels {
        let what = || format!("bone {} {}", c.bone, c.values.property());
        let baked = match c.clock {
            Clock::Global(g) => find(&a.channels, c, Clock::Animation).map(|d| (d, g)),
            Clock::Animation => None,
        };
        match (find(&a.channels, c, c.clock), baked) {
            (Some(d), _) if d == c => {}
            (Some(d), _) if c.clock == Clock::Animation => {
                same_at(d, c, frames.iter().map(|&t| (t, t))).map_err(|t| format!("{} at {t} s", what()))?;
            }
            (Some(d), _) => {
                same_at(d, c, c.times.iter().map(|&t| (t, t))).map_err(|t| format!("{} at {t} s", what()))?;
            }
            (None, Some((d, g))) => {
                let period = read.global_sequences.get(g).copied().unwrap_or(0.0);
                let looped = frames.iter().map(|&t| (t, if period > 0.0 { t % period } else { t }));
                same_at(d, c, looped).map_err(|t| format!("{} at {t} s (global sequence {g}, baked)", what()))?;
            }
            (None, None) => {
                holds_rest(c, &read.bones)
                    .map_err(|t| format!("{} at {t} s: the model has no such channel", what()))?;
            }
        }
    }
    // A channel the file lacks holds the rest pose; one on the clip's clock that a global
    // sequence's channel of the file was baked into (glTF has no global clocks) is compared above.
    let baked_into = |d: &Channel| {
        d.clock == Clock::Animation
            && s.channels.iter().any(|c| matches!(c.clock, Clock::Global(_)) && animates_same(c, d))
    };
    for d in a.channels.iter().filter(|d| find(&s.channels, d, d.clock).is_none() && !baked_into(d)) {
        holds_rest(d, &read.bones)
            .map_err(|t| format!("bone {} {} at {t} s: the file has no such channel", d.bone, d.values.property()))?;
    }
    Ok(())
}

/// Whether two channels animate one property of one bone.
fn animates_same(c: &Channel, d: &Channel) -> bool {
    (c.bone, c.values.property()) == (d.bone, d.values.property())
}

/// The channel of `list` that animates what `c` does, on `clock`.
fn find<'a>(list: &'a [Channel], c: &Channel, clock: Clock) -> Option<&'a Channel> {
    list.iter().find(|d| d.clock == clock && animates_same(c, d))
}

/// The times a tool that bakes clips sampled the clip at: its whole frames, one frame being the
/// shortest step between two keys of the clip (Blender keys every frame; the keys relic keeps of
/// them lie on frames), from 0 to the last whole frame of the clip (Blender samples no part of a
/// frame: a clip of 1.333 s at 24 frames a second ends at frame 31, 1.2917 s). A clip without
/// two keys: its key times.
fn frames(a: &Animation) -> Vec<f32> {
    let steps = a.channels.iter().flat_map(|c| c.times.iter().zip(c.times.iter().skip(1)).map(|(a, b)| b - a));
    let step = steps.filter(|d| *d > 1e-3).fold(f32::INFINITY, f32::min);
    if !step.is_finite() {
        return a.channels.iter().flat_map(|c| c.times.iter().copied()).collect();
    }
    // A frame within a thousandth of the end is whole (float noise in the step).
    let count = (a.duration / step + 1e-3).floor() as usize;
    (0..=count).map(|n| (n as f32 * step).min(a.duration)).collect()
}

/// `model` at each first time against `stored` at each second; `Err` gives the first time that
/// differs.
fn same_at(model: &Channel, stored: &Channel, times: impl Iterator<Item = (f32, f32)>) -> Result<(), f32> {
    let linear_rotation = matches!(stored.values, ChannelValues::Rotation(_))
        && stored.interpolation == relic_core::model::Interpolation::Linear;
    for (t, k) in times {
        let at = model.sample(t);
        let same = same_sample(at, stored.sample(k)) || (linear_rotation && same_sample(at, nlerp(stored, k)));
        if !same {
            return Err(t);
        }
    }
    Ok(())
}

/// A linear rotation channel at `t` as a tool that interpolates each quaternion component on its
/// own (Blender's curves) and normalises gives it.
fn nlerp(c: &Channel, t: f32) -> Option<Sample> {
    let ChannelValues::Rotation(v) = &c.values else { return None };
    let seg = relic_core::sample::find_segment(&c.times, t);
    let a = *v.get(seg.key)?;
    let b = v.get(seg.key + 1).copied().unwrap_or(a);
    let b = if a.iter().zip(&b).map(|(x, y)| x * y).sum::<f32>() < 0.0 { b.map(|x| -x) } else { b };
    let mut q = a;
    for (x, y) in q.iter_mut().zip(b) {
        *x += (y - *x) * seg.fraction;
    }
    Some(Sample::Rotation(relic_core::sample::normalize4(q)))
}

fn same_sample(a: Option<Sample>, b: Option<Sample>) -> bool {
    match (a, b) {
        (Some(Sample::Vector(x)), Some(Sample::Vector(y))) => close(&x, &y, TRANSFORM_TOLERANCE),
        (Some(Sample::Rotation(x)), Some(Sample::Rotation(y))) => same_rotation(&x, &y, TRANSFORM_TOLERANCE),
        (None, None) => true,
        _ => false,
    }
}

/// `Ok` when the channel holds its bone's rest value at every key; else the first key's time
/// that does not.
fn holds_rest(c: &Channel, bones: &[Bone]) -> Result<(), f32> {
    let Some(rest) = bones.get(c.bone).map(|b| b.rest) else { return Err(c.times.first().copied().unwrap_or(0.0)) };
    let value = match c.values {
        ChannelValues::Translation(_) => Sample::Vector(rest.translation),
        ChannelValues::Rotation(_) => Sample::Rotation(rest.rotation),
        ChannelValues::Scale(_) => Sample::Vector(rest.scale),
    };
    match c.times.iter().find(|&&t| !same_sample(c.sample(t), Some(value))) {
        Some(&t) => Err(t),
        None => Ok(()),
    }
}
