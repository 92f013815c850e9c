//! Whether a model is still the one a game file maps to: exactly (relic's own read and write), or
//! but for what a tool that rewrote it changes without an edit. Blender, through glTF:
//!
//! | part | what the tool changes | compared |
//! |---|---|---|
//! | bones | float noise in the rest pose | names, parents and flags equal; rest within [`TRANSFORM_TOLERANCE`] |
//! | meshes | vertex order (the order its triangles use them), float noise, normals recompressed; a vertex keeps its 4 strongest influences, renormalised | triangles in order, their corners the stored vertices one for one: positions within [`POSITION_TOLERANCE`] (and relative noise), texture coordinates within [`UV_TOLERANCE`], normals within [`NORMAL_TOLERANCE`], influences the stored ones or their 4 strongest renormalised within [`WEIGHT_TOLERANCE`] |
//! | clips | keys resampled and reduced (relic-gltf `keys`) | names, lengths, looping, events; every stored key's value, the model's channel sampled at its time, within [`TRANSFORM_TOLERANCE`]; a channel the file lacks holds the rest pose |
//! | materials, global sequences, attachments, emitters, lights, cameras, collision shapes, tints, UV animations | nothing (they travel in glTF as they are) | equal (attachments, lights, cameras and collision shapes within noise) |
//!
//! Anything beyond is an edit: [`judge`] names the first difference found, and the writer builds
//! the file from the model. A writer that keeps the file it read (MDX's extras; the facade's
//! [`Original::files`](crate::model::Original::files), carried through glTF) writes it back as
//! it is while [`judge`] finds the model still the one read from it.

use crate::model::{Animation, Bone, Channel, ChannelValues, Clock, Mesh, Model, Transform};
use crate::sample::Sample;

mod scene;

/// How far (model units, per coordinate; plus [`RELATIVE`] of the value) a vertex may be from
/// its stored position and still be that vertex.
pub const POSITION_TOLERANCE: f32 = 1e-3;
/// Noise relative to a value's size (Blender's about 2e-5 of the largest coordinate).
pub const RELATIVE: f32 = 1e-4;
/// How far a normal's component may move: Blender keeps custom normals compressed.
pub const NORMAL_TOLERANCE: f32 = 5e-2;
/// How far a texture coordinate may move.
pub const UV_TOLERANCE: f32 = 1e-4;
/// How far a normalised influence may be from the stored share.
pub const WEIGHT_TOLERANCE: f32 = 1e-2;
/// How far a rest or key value may move (per component, plus [`RELATIVE`] of the value): the
/// key reduction on the way back allows 1e-4.
pub const TRANSFORM_TOLERANCE: f32 = 2e-3;
/// How many influences a vertex keeps through glTF and Blender.
const GLTF_INFLUENCES: usize = 4;

/// `Ok` when `model` is `read` (the model a game file maps to), but for a tool's noise; else the
/// first difference, in words.
pub fn judge(model: &Model, read: &Model) -> Result<(), String> {
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
        && (&read.lights, &read.cameras, &read.collision_shapes)
            == (&model.lights, &model.cameras, &model.collision_shapes)
        && read.tints == model.tints
        && read.uv_animations == model.uv_animations
    {
        return Ok(());
    }
    bones(&model.bones, &read.bones)?;
    materials(model, read)?;
    emitters(model, read)?;
    scene::scene(model, read)?;
    if read.tints != model.tints || read.uv_animations != model.uv_animations {
        return Err("the tints or UV animations differ".into());
    }
    let globals = model.global_sequences.len() == read.global_sequences.len()
        && model.global_sequences.iter().zip(&read.global_sequences).all(|(a, b)| near(*a, *b, 1e-4));
    if !globals {
        return Err("the global sequences differ".into());
    }
    attachments(model, read)?;
    if model.meshes.len() != read.meshes.len() {
        return Err(format!("{} meshes, the file {}", model.meshes.len(), read.meshes.len()));
    }
    for (i, (m, s)) in model.meshes.iter().zip(&read.meshes).enumerate() {
        // By content: two equal materials are one to the model.
        fn of(model: &Model, k: Option<usize>) -> Option<Option<&crate::model::Material>> {
            k.map(|k| model.materials.get(k))
        }
        if of(model, m.material) != of(read, s.material) {
            return Err(format!("mesh {i} has another material"));
        }
        geometry(m, s).map_err(|e| format!("mesh {i}: {e}"))?;
    }
    if model.animations.len() != read.animations.len() {
        return Err(format!("{} animations, the file {}", model.animations.len(), read.animations.len()));
    }
    for (a, s) in model.animations.iter().zip(&read.animations) {
        animation(a, s, read).map_err(|e| format!("animation {:?}: {e}", s.name))?;
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

/// Each model material is one of the file's (found by content: a tool orders them by first use
/// and leaves out those no mesh uses), and each the file's meshes use is among them; `Err` names
/// the first that is not.
fn materials(model: &Model, read: &Model) -> Result<(), String> {
    let mut out = Vec::with_capacity(model.materials.len());
    for (i, m) in model.materials.iter().enumerate() {
        // Names repeat (two M2 materials of one replaceable texture): the first equal one not
        // taken yet, else any equal one.
        let equal = |k: &usize| read.materials.get(*k) == Some(m);
        let free = (0..read.materials.len()).filter(equal).find(|k| !out.contains(k));
        match free.or_else(|| (0..read.materials.len()).find(equal)) {
            Some(k) => out.push(k),
            None => return Err(format!("material {i} ({:?}) is not the file's", m.name)),
        }
    }
    let used = |k: usize| read.meshes.iter().any(|m| m.material == Some(k));
    match (0..read.materials.len()).find(|&k| !out.contains(&k) && used(k)) {
        Some(k) => Err(format!("the file's material {k} is missing")),
        None => Ok(()),
    }
}

/// The emitters are the file's: their records (what a writer writes) equal, their places within
/// noise. Their tracks are the records' parameters for viewers: a glTF carries the record alone.
fn emitters(model: &Model, read: &Model) -> Result<(), String> {
    if model.emitters.len() != read.emitters.len() {
        return Err(format!("{} emitters, the file {}", model.emitters.len(), read.emitters.len()));
    }
    for (i, (a, b)) in model.emitters.iter().zip(&read.emitters).enumerate() {
        let record = match (&a.record, &b.record) {
            (Some(x), Some(y)) => x.same_data(y),
            (x, y) => x.is_none() && y.is_none(),
        };
        let same = record
            && (a.kind, &a.name, a.bone, &a.texture) == (b.kind, &b.name, b.bone, &b.texture)
            && near(a.size, b.size, TRANSFORM_TOLERANCE)
            && same_transform(&a.transform, &b.transform)
            && (a.tracks.is_empty() || a.tracks == b.tracks);
        if !same {
            return Err(format!("emitter {i} ({:?}) differs", b.name));
        }
    }
    Ok(())
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
    let direction = |v: &[[f32; 3]], i: usize| crate::math::normalize3(get3(v, i));
    if let Some(normal) = direction(&stored.normals, s)
        && !direction(&mesh.normals, m).is_some_and(|n| close(&n, &normal, NORMAL_TOLERANCE))
        && !back_to_back(stored, s)
        && !folded(stored, s)
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

/// A vertex's influences as an editor holds them: one per bone (a vertex group; UI_RS_Dwarf.m2
/// names bone 43 twice for a vertex), the weights of a bone summed, none below what an editor
/// keeps (Arm_FoxHowl_teacher_BL.LTB gives a vertex 6e-8 of a third bone).
fn by_bone(influences: &[crate::model::Influence]) -> Vec<crate::model::Influence> {
    let mut out: Vec<crate::model::Influence> = Vec::with_capacity(influences.len());
    for i in influences {
        match out.iter_mut().find(|o| o.bone == i.bone) {
            Some(o) => o.weight += i.weight,
            None => out.push(*i),
        }
    }
    out.retain(|i| i.weight > WEIGHT_FLOOR);
    out
}

/// The least weight an influence has to an editor (smaller ones are dropped on the way).
const WEIGHT_FLOOR: f32 = 1e-4;

/// Whether stored vertex `s` is a corner of two triangles at one place (a two-sided sheet, its
/// faces back to back, or a face repeated). Blender 4.1 and later keep no custom normal there
/// (the corner's normal space has no reference direction) and give the vertex one of their own:
/// not an edit. (PARTNER_DANCIN.ABC's legs4 LOD 4 through Blender 5.0.)
fn back_to_back(stored: &Mesh, s: usize) -> bool {
    let at = |v: u32| stored.positions.get(v as usize).copied().unwrap_or_default();
    let same_place = |a: u32, b: u32| close(&at(a), &at(b), POSITION_TOLERANCE);
    let around: Vec<&[u32; 3]> = stored.triangles.iter().filter(|t| t.contains(&(s as u32))).collect();
    around
        .iter()
        .enumerate()
        .any(|(i, a)| around.iter().skip(i + 1).any(|b| a.iter().all(|&x| b.iter().any(|&y| same_place(x, y)))))
}

/// Whether the faces around stored vertex `s` fold back on each other: the sum of their normals,
/// each weighted by its corner's angle (the normal an editor computes for the vertex), is under
/// [`FOLDED`] of the angles' sum. Blender then has no direction to keep a custom normal against
/// and gives the vertex one of its own (UI_RS_Scourge.m2's vertex 56, the tip of a fold, through
/// Blender 3.4): not an edit.
fn folded(stored: &Mesh, s: usize) -> bool {
    use crate::math::{cross3, normalize3, sub3};
    let at = |v: u32| stored.positions.get(v as usize).copied().unwrap_or_default();
    let (mut sum, mut angles) = ([0.0f32; 3], 0.0f32);
    for t in stored.triangles.iter().filter(|t| t.contains(&(s as u32))) {
        let Some(k) = t.iter().position(|&v| v as usize == s) else { continue };
        let corner = |i: usize| t.get((k + i) % 3).copied().map_or([0.0; 3], at);
        let (a, b, c) = (corner(0), corner(1), corner(2));
        let (Some(n), Some(e1), Some(e2)) =
            (normalize3(cross3(sub3(b, a), sub3(c, a))), normalize3(sub3(b, a)), normalize3(sub3(c, a)))
        else {
            continue;
        };
        let angle = e1.iter().zip(&e2).map(|(x, y)| x * y).sum::<f32>().clamp(-1.0, 1.0).acos();
        sum.iter_mut().zip(n).for_each(|(x, y)| *x += y * angle);
        angles += angle;
    }
    angles > 0.0 && sum.iter().map(|x| x * x).sum::<f32>().sqrt() < FOLDED * angles
}

/// How short the angle-weighted normal sum of a vertex's faces may be, against their angles' sum,
/// for the faces to count as folded ([`folded`]; UI_RS_Scourge.m2's fold: 0.018).
const FOLDED: f32 = 0.1;

/// The model vertex's influences are the stored ones, or (past [`GLTF_INFLUENCES`]) as many of
/// them renormalised, none weaker than one left out.
fn same_influences(mesh: &Mesh, m: usize, stored: &Mesh, s: usize) -> bool {
    if mesh.skin.is_empty() || stored.skin.is_empty() {
        return mesh.skin.is_empty() == stored.skin.is_empty();
    }
    let (model, file) = (by_bone(mesh.skin.vertex(m)), by_bone(stored.skin.vertex(s)));
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
    // At an instant the file's clip jumps (two keys of a channel within one), an editor's frame
    // may hold either value or one between, and so may every bone it moves or was baked against:
    // those frames say nothing.
    let jumps = jumps(s);
    let settled = |t: &f32| !jumps.iter().any(|j| (t - j).abs() <= ONE_INSTANT);
    let frames = frames(a);
    // A channel's own jump is judged by its keys ([`within_instant`]); another's is skipped (a
    // global sequence's keys are in its own time: its frames are the settled ones).
    let frames_of = |c: &Channel| -> Vec<f32> {
        let own = |t: &f32| c.times.iter().any(|k| (k - t).abs() <= ONE_INSTANT);
        frames.iter().copied().filter(|t| settled(t) || own(t)).collect()
    };
    // A rotation-only bone's translation keys are not played (LithTech nodes): a tool that
    // plays the model drops them.
    let played = |c: &&Channel| {
        let rotation_only = read.bones.get(c.bone).is_some_and(|b| b.flags.rotation_only);
        !(rotation_only && matches!(c.values, ChannelValues::Translation(_)))
    };
    for c in s.channels.iter().filter(played) {
        let what = || format!("bone {} {}", c.bone, c.values.property());
        let baked = match c.clock {
            Clock::Global(g) => find(&a.channels, c, Clock::Animation).map(|d| (d, g)),
            Clock::Animation => None,
        };
        match (find(&a.channels, c, c.clock), baked) {
            (Some(d), _) if d == c => {}
            (Some(d), _) if c.clock == Clock::Animation => {
                same_at(d, c, frames_of(c).into_iter().map(|t| (t, t))).map_err(|t| format!("{} at {t} s", what()))?;
            }
            (Some(d), _) => {
                same_at(d, c, c.times.iter().map(|&t| (t, t))).map_err(|t| format!("{} at {t} s", what()))?;
            }
            (None, Some((d, g))) => {
                let period = read.global_sequences.get(g).copied().unwrap_or(0.0);
                let looped =
                    frames.iter().copied().filter(settled).map(|t| (t, if period > 0.0 { t % period } else { t }));
                same_at(d, c, looped).map_err(|t| format!("{} at {t} s (global sequence {g}, baked)", what()))?;
            }
            (None, None) => {
                holds_rest(c, &read.bones, &settled)
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
    for d in a.channels.iter().filter(played).filter(|d| find(&s.channels, d, d.clock).is_none() && !baked_into(d)) {
        holds_rest(d, &read.bones, &settled)
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
    // A whole number of frames a second (Blender's 24) is taken as exact: frame 77 is 77/24 s,
    // not 77 times a step with float noise in it (3.20814 s, where GOODMAN.ABC's pelvis moves
    // 35 units a second).
    let rate = (1.0 / f64::from(step)).round();
    let step = if (1.0 / f64::from(step) - rate).abs() < 1e-3 * rate { 1.0 / rate } else { f64::from(step) };
    // A frame within a thousandth of the end is whole (float noise in the step).
    let count = (f64::from(a.duration) / step + 1e-3).floor() as usize;
    (0..=count).map(|n| ((n as f64 * step) as f32).min(a.duration)).collect()
}

/// `model` at each first time against `stored` at each second; `Err` gives the first time that
/// differs.
fn same_at(model: &Channel, stored: &Channel, times: impl Iterator<Item = (f32, f32)>) -> Result<(), f32> {
    let linear_rotation = matches!(stored.values, ChannelValues::Rotation(_))
        && stored.interpolation == crate::model::Interpolation::Linear;
    for (t, k) in times {
        let at = model.sample(t);
        let same = same_sample(at, stored.sample(k))
            || (linear_rotation && same_sample(at, nlerp(stored, k)))
            || within_instant(stored, k, at);
        if !same {
            return Err(t);
        }
    }
    Ok(())
}

/// Keys closer in time than this are one frame to an editor: it keeps one of their values, or one
/// between them.
const ONE_INSTANT: f32 = 1e-3;

/// Whether `at` is `c`'s value somewhere between its keys within [`ONE_INSTANT`] of `t` (an LTB
/// clip keys 0 and 1e-45 s with two values: Blender 3.4 keeps the first, Blender 5 the second;
/// UI_RS_Scourge.m2 keys 0 and 0.001 s, and Blender 5 gives frame 0 a value a quarter of the way).
fn within_instant(c: &Channel, t: f32, at: Option<Sample>) -> bool {
    let from = c.times.partition_point(|&x| x < t - ONE_INSTANT);
    let near = c.times.get(from..).unwrap_or_default().iter().take_while(|&&x| x <= t + ONE_INSTANT);
    let (Some(first), Some(last)) = (near.clone().next(), near.last()) else { return false };
    let (Some(a), Some(b)) = (c.sample(first.min(t)), c.sample(last.max(t))) else { return false };
    // The point of the way from `a` to `b` nearest the model's value.
    let between = match (a, b, at) {
        (Sample::Vector(a), Sample::Vector(b), Some(Sample::Vector(m))) => on_way(&a, &b, &m).map(|f| {
            let mut v = a;
            v.iter_mut().zip(&b).for_each(|(x, y)| *x += f * (y - *x));
            Sample::Vector(v)
        }),
        (Sample::Rotation(a), Sample::Rotation(b), Some(Sample::Rotation(m))) => {
            let dot = |p: &[f32; 4], q: &[f32; 4]| p.iter().zip(q).map(|(x, y)| x * y).sum::<f32>();
            let toward_a = |q: [f32; 4]| if dot(&a, &q) < 0.0 { q.map(|x| -x) } else { q };
            let (b, m) = (toward_a(b), toward_a(m));
            on_way(&a, &b, &m).map(|f| Sample::Rotation(crate::sample::slerp(a, b, f)))
        }
        _ => None,
    };
    between.is_some_and(|v| same_sample(at, Some(v)))
}

/// The fraction (0 to 1) of the way from `a` to `b` nearest `m`; `None` when `a` is `b`.
fn on_way(a: &[f32], b: &[f32], m: &[f32]) -> Option<f32> {
    let d: Vec<f32> = a.iter().zip(b).map(|(a, b)| b - a).collect();
    let length = d.iter().map(|x| x * x).sum::<f32>();
    let along = m.iter().zip(a).zip(&d).map(|((m, a), d)| (m - a) * d).sum::<f32>();
    (length > 0.0).then(|| (along / length).clamp(0.0, 1.0))
}

/// A linear rotation channel at `t` as a tool that interpolates each quaternion component on its
/// own (Blender's curves) and normalises gives it.
fn nlerp(c: &Channel, t: f32) -> Option<Sample> {
    let ChannelValues::Rotation(v) = &c.values else { return None };
    let seg = crate::sample::find_segment(&c.times, t);
    let a = *v.get(seg.key)?;
    let b = v.get(seg.key + 1).copied().unwrap_or(a);
    let b = if a.iter().zip(&b).map(|(x, y)| x * y).sum::<f32>() < 0.0 { b.map(|x| -x) } else { b };
    let mut q = a;
    for (x, y) in q.iter_mut().zip(b) {
        *x += (y - *x) * seg.fraction;
    }
    Some(Sample::Rotation(crate::sample::normalize4(q)))
}

fn same_sample(a: Option<Sample>, b: Option<Sample>) -> bool {
    match (a, b) {
        (Some(Sample::Vector(x)), Some(Sample::Vector(y))) => close(&x, &y, TRANSFORM_TOLERANCE),
        (Some(Sample::Rotation(x)), Some(Sample::Rotation(y))) => same_rotation(&x, &y, TRANSFORM_TOLERANCE),
        (None, None) => true,
        _ => false,
    }
}

/// The times at which a channel of `s` has two keys within [`ONE_INSTANT`] with other values.
fn jumps(s: &Animation) -> Vec<f32> {
    let mut out = Vec::new();
    for c in &s.channels {
        for pair in c.times.windows(2) {
            if let [t0, t1] = pair
                && t1 - t0 <= ONE_INSTANT
                && c.sample(*t0) != c.sample(*t1)
            {
                out.push(*t0);
            }
        }
    }
    out
}

/// `Ok` when the channel holds its bone's rest value at every key `settled` accepts; else the
/// first key's time that does not.
fn holds_rest(c: &Channel, bones: &[Bone], settled: &dyn Fn(&f32) -> bool) -> Result<(), f32> {
    let Some(rest) = bones.get(c.bone).map(|b| b.rest) else { return Err(c.times.first().copied().unwrap_or(0.0)) };
    let value = match c.values {
        ChannelValues::Translation(_) => Sample::Vector(rest.translation),
        ChannelValues::Rotation(_) => Sample::Rotation(rest.rotation),
        ChannelValues::Scale(_) => Sample::Vector(rest.scale),
    };
    match c.times.iter().filter(|t| settled(t)).find(|&&t| !same_sample(c.sample(t), Some(value))) {
        Some(&t) => Err(t),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests;
