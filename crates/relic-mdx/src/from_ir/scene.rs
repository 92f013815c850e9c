//! The model's lights, cameras and collision shapes as LITE, CAMS and CLID (the inverse of
//! `to_ir::scene`).
//!
//! * A light or collision shape on a bone of its own name, unskinned and not already an
//!   attachment point or event object, at the bone (a light) or under the transform that undoes
//!   the bone's pivot (a shape: what `to_ir` reads), is that bone's node; any other gets a node
//!   of its own under its bone, at its place (counted).
//! * Spot lights are written as omnidirectional (MDX has no cone), a light without attenuation
//!   or ambient colour with zeros; a camera on a bone is written at the bone's rest place (a
//!   camera is no node); each counted.
//! * Tracks: a track per parameter, the clips' keys laid on the timeline as node tracks are
//!   (`animation`), colours reversed back to BGR; a parameter MDX has no tag for is counted.

use relic_core::Loss;
use relic_core::math::{IDENTITY, mul, transform_point};
use relic_core::model::{Clock, EmitterTrack, Interpolation, LightKind, Model, ShapeKind, Transform};

use super::animation::{Timeline, WcKey, finish, keys_of, rank};
use super::names::{Names, fixed};
use super::skeleton::{Kind, PlannedNode, Skeleton};
use crate::file::*;
use crate::to_ir::WARCRAFT;
use crate::to_ir::scene::PROPERTIES;

/// The node each light and collision shape is written on.
pub(super) struct Placed {
    lights: Vec<usize>,
    shapes: Vec<usize>,
}

/// The order of the chunks in real files (spec §3), for placing LITE, CAMS and CLID.
const ORDER: [&[u8; 4]; 23] = [
    b"VERS", b"MODL", b"SEQS", b"GLBS", b"MTLS", b"TEXS", b"TXAN", b"GEOS", b"GEOA", b"BONE", b"LITE", b"HELP",
    b"ATCH", b"PIVT", b"PREM", b"PRE2", b"CORN", b"RIBB", b"CAMS", b"EVTS", b"CLID", b"FAFX", b"BPOS",
];

fn skinned(model: &Model, bone: usize) -> bool {
    model.meshes.iter().any(|m| m.skin.influences.iter().any(|i| usize::try_from(i.bone).ok() == Some(bone)))
}

/// The matrix from a thing's space on `bone` to model space: the bone's bind times `t`.
fn placement(model: &Model, bone: usize, t: &Transform) -> relic_core::math::Mat4 {
    mul(&model.bones.get(bone).map_or(IDENTITY, |b| b.bind_matrix), &t.to_matrix())
}

/// Picks or adds a node for every light and collision shape (before the tracks are laid).
pub(super) fn plan(model: &Model, sk: &mut Skeleton, losses: &mut Vec<Loss>) -> Placed {
    let mut added = [0usize; 2];
    let mut taken = std::collections::HashSet::new();
    let mut place = |name: &str, bone: usize, own_transform: bool, at: [f32; 3], added: &mut usize| -> usize {
        let own = own_transform
            && model.bones.get(bone).is_some_and(|b| b.name == name)
            && !skinned(model, bone)
            && sk.nodes.get(bone).is_some_and(|n| n.kind == Kind::Helper)
            && taken.insert(bone);
        if own {
            return bone;
        }
        *added += 1;
        sk.nodes.push(PlannedNode {
            name: name.to_string(),
            parent: model.bones.get(bone).map(|_| bone),
            kind: Kind::Helper,
            pivot: WARCRAFT.vector_from_ir(at),
            flags: 0,
            frames: Vec::new(),
        });
        sk.nodes.len() - 1
    };
    let [lights_added, shapes_added] = &mut added;
    let lights = model
        .lights
        .iter()
        .map(|l| {
            let at = transform_point(&placement(model, l.bone, &l.transform), [0.0; 3]);
            place(&l.name, l.bone, l.transform == Transform::IDENTITY, at, lights_added)
        })
        .collect();
    let shapes = model
        .collision_shapes
        .iter()
        .map(|c| {
            let pivot =
                model.bones.get(c.bone).map_or([0.0; 3], |b| [b.bind_matrix[12], b.bind_matrix[13], b.bind_matrix[14]]);
            let undoes = c.transform == Transform { translation: pivot.map(|x| -x), ..Transform::IDENTITY };
            let at = transform_point(&placement(model, c.bone, &Transform::IDENTITY), [0.0; 3]);
            place(&c.name, c.bone, undoes, at, shapes_added)
        })
        .collect();
    for (n, what) in [(added[0], "lights"), (added[1], "collision shapes")] {
        if n > 0 {
            losses.push(Loss::new(
                what,
                format!(
                    "{n} {what} are not on a bone of their own: each is written as a node of its own under its bone \
                     (the model read back has a bone more for each)"
                ),
            ));
        }
    }
    Placed { lights, shapes }
}

/// LITE, CAMS and CLID records.
pub(super) struct SceneRecords {
    pub(super) lights: Vec<Light>,
    pub(super) cameras: Vec<Camera>,
    pub(super) shapes: Vec<CollisionShape>,
}

/// Counts of what the records could not keep.
#[derive(Default)]
struct Counts {
    spots: usize,
    defaults: usize,
    on_bones: usize,
    untagged: usize,
    outside: usize,
    same_frame: usize,
    reinterpolated: usize,
    global_beside: usize,
}

/// Takes the planned nodes out of the helpers and builds the records around them.
pub(super) fn records(
    model: &Model,
    placed: &Placed,
    helpers: &mut Vec<Helper>,
    tl: &Timeline,
    names: &mut Names,
    losses: &mut Vec<Loss>,
) -> SceneRecords {
    let mut counts = Counts::default();
    let mut take = |n: usize, type_bit: u32| -> Option<Node> {
        let at = helpers.iter().position(|h| h.node.object_id == n as i32)?;
        let mut node = helpers.remove(at).node;
        node.flags |= type_bit;
        Some(node)
    };
    let mut lights = Vec::new();
    for (l, &n) in model.lights.iter().zip(&placed.lights) {
        let Some(node) = take(n, node_flags::LIGHT) else { continue };
        let light_type = match l.kind {
            LightKind::Point => 0,
            LightKind::Spot => {
                counts.spots += 1;
                0
            }
            LightKind::Directional => 1,
            LightKind::Ambient => 2,
        };
        counts.defaults += usize::from(l.attenuation.is_none() || l.ambient.is_none());
        let [attenuation_start, attenuation_end] = l.attenuation.unwrap_or([0.0; 2]);
        let (ambient_color, ambient_intensity) = l.ambient.unwrap_or(([0.0; 3], 0.0));
        lights.push(Light {
            node,
            light_type,
            attenuation_start,
            attenuation_end,
            color: l.color,
            intensity: l.intensity,
            ambient_color,
            ambient_intensity,
            shadow_intensity: None,
            tracks: tracks(&l.tracks, tl, &mut counts),
        });
    }
    let mut shapes = Vec::new();
    for (c, &n) in model.collision_shapes.iter().zip(&placed.shapes) {
        let Some(node) = take(n, node_flags::COLLISION_SHAPE) else { continue };
        let m = placement(model, c.bone, &c.transform);
        // A shape under the transform that undoes its bone's pivot keeps its points as they are
        // (x + 0.0 would turn a stored −0.0 into +0.0).
        let f = |p: [f32; 3]| WARCRAFT.vector_from_ir(if m == IDENTITY { p } else { transform_point(&m, p) });
        let shape = match c.shape.map_points(f) {
            ShapeKind::Box { corners } => Shape::Box(corners),
            ShapeKind::Plane { corners } => Shape::Plane(corners),
            ShapeKind::Sphere { center, radius } => Shape::Sphere(center, radius),
            ShapeKind::Cylinder { ends, radius } => Shape::Cylinder(ends, radius),
        };
        shapes.push(CollisionShape { node, shape });
    }
    let cameras = model
        .cameras
        .iter()
        .map(|c| {
            let m = c.bone.map(|b| placement(model, b, &Transform::IDENTITY));
            counts.on_bones += usize::from(m.is_some());
            let at = |p: [f32; 3]| WARCRAFT.vector_from_ir(m.map_or(p, |m| transform_point(&m, p)));
            Camera {
                name: fixed(&c.name, names),
                position: at(c.position),
                field_of_view: c.yfov,
                far_clip: c.zfar,
                near_clip: c.znear,
                target_position: at(c.target),
                tracks: tracks(&c.tracks, tl, &mut counts),
            }
        })
        .collect();
    counts.losses(losses);
    SceneRecords { lights, cameras, shapes }
}

/// How a parameter's values go back to the file's frame (the inverse of `to_ir::scene`'s).
fn value_from_ir(tag: &[u8; 4], v: [f32; 3]) -> [f32; 3] {
    match tag {
        b"KLAC" | b"KLBC" => [v[2], v[1], v[0]],
        b"KCTR" | b"KTTR" => WARCRAFT.vector_from_ir(v),
        _ => v,
    }
}

/// One track per parameter, in the order the parameters first appear.
fn tracks(list: &[EmitterTrack], tl: &Timeline, counts: &mut Counts) -> Vec<Track> {
    let mut properties: Vec<&str> = Vec::new();
    for t in list {
        if !properties.contains(&t.property.as_str()) {
            properties.push(&t.property);
        }
    }
    let mut out = Vec::new();
    for p in properties {
        let of: Vec<&EmitterTrack> = list.iter().filter(|t| t.property == p).collect();
        let tag = PROPERTIES.iter().find(|(_, name)| *name == p).map(|(t, _)| **t);
        let kind = tag.and_then(value_kind);
        let components = of.first().map_or(0, |t| t.components);
        match (tag, kind) {
            (Some(tag), Some(ValueKind::Float)) if components == 1 => {
                out.extend(track::<1>(&of, tl, counts, |v| v).map(|(keys, i, g)| Track {
                    tag: Tag(tag),
                    interpolation: i,
                    global_sequence_id: g,
                    keys: Keys::Float(finish(keys, &mut counts.same_frame, |[v]| v)),
                }))
            }
            (Some(tag), Some(ValueKind::Vec3)) if components == 3 => {
                out.extend(track::<3>(&of, tl, counts, |v| value_from_ir(&tag, v)).map(|(keys, i, g)| Track {
                    tag: Tag(tag),
                    interpolation: i,
                    global_sequence_id: g,
                    keys: Keys::Vec3(finish(keys, &mut counts.same_frame, |v| v)),
                }))
            }
            _ => counts.untagged += of.len(),
        }
    }
    out.retain(|t| !t.keys.is_empty());
    out
}

/// The keys of one parameter (its clips' tracks on the timeline, or its global track), the
/// interpolation and the global sequence.
fn track<const N: usize>(
    of: &[&EmitterTrack],
    tl: &Timeline,
    counts: &mut Counts,
    convert: impl Fn([f32; N]) -> [f32; N],
) -> Option<(Vec<WcKey<N>>, u32, i32)> {
    let global = of.iter().find_map(|t| if let Clock::Global(g) = t.clock { Some((g, *t)) } else { None });
    // (track, first frame, last frame) of each clip a track is laid in.
    let laid: Vec<(&EmitterTrack, i64, i64)> = match global {
        Some((_, t)) => {
            counts.global_beside += of.len() - 1;
            vec![(t, 0, i64::MAX)]
        }
        None => of
            .iter()
            .flat_map(|t| {
                let clips: Vec<usize> = match t.animation {
                    Some(a) => vec![a],
                    None => (0..tl.starts.len()).collect(),
                };
                clips.into_iter().filter_map(move |a| Some((*t, *tl.starts.get(a)?, *tl.ends.get(a)?)))
            })
            .collect(),
    };
    let best = laid.iter().map(|(t, ..)| t.interpolation).max_by_key(|&i| rank(i))?;
    counts.reinterpolated += laid.iter().filter(|(t, ..)| t.interpolation != best).count();
    let target = match best {
        Interpolation::Step => DONT_INTERP,
        Interpolation::Linear => LINEAR,
        Interpolation::CubicSpline => HERMITE,
    };
    let mut keys = Vec::new();
    for (t, start, end) in laid {
        let values: Vec<[f32; N]> =
            t.values.chunks_exact(N).map(|c| std::array::from_fn(|i| c.get(i).copied().unwrap_or(0.0))).collect();
        let all = keys_of((&t.times, t.interpolation), &values, start, &|v, _| convert(v), target);
        let before = all.len();
        let inside: Vec<WcKey<N>> = all.into_iter().filter(|k| (start..=end).contains(&k.0)).collect();
        counts.outside += before - inside.len();
        keys.extend(inside);
    }
    Some((keys, target, global.map_or(-1, |(g, _)| g as i32)))
}

impl Counts {
    fn losses(&self, losses: &mut Vec<Loss>) {
        let mut note = |element: &str, n: usize, what: &str| {
            if n > 0 {
                losses.push(Loss::new(element, format!("{n} {what}")));
            }
        };
        note("lights", self.spots, "spot lights written as omnidirectional (MDX lights have no cone)");
        note("lights", self.defaults, "lights without attenuation or ambient colour: written with zeros");
        note("cameras", self.on_bones, "cameras on a bone written at its rest place (an MDX camera is no node)");
        note("tracks", self.untagged, "light and camera parameter tracks MDX has no tag for dropped");
        note("tracks", self.outside, "light and camera keys outside their clip dropped");
        note("tracks", self.same_frame, "light and camera keys on a millisecond another key holds dropped");
        note(
            "tracks",
            self.reinterpolated,
            "light and camera tracks written with the interpolation of other clips of their parameter",
        );
        note("tracks", self.global_beside, "light and camera clip tracks beside a global-sequence track dropped");
    }
}

impl SceneRecords {
    /// Puts the LITE, CAMS and CLID chunks (those not empty) where real files have them.
    pub(super) fn insert_into(self, chunks: &mut Vec<Chunk>) {
        let rank = |tag: [u8; 4]| ORDER.iter().position(|t| **t == tag).unwrap_or(ORDER.len());
        let made = [
            (!self.lights.is_empty()).then_some(Chunk::Lights(self.lights)),
            (!self.cameras.is_empty()).then_some(Chunk::Cameras(self.cameras)),
            (!self.shapes.is_empty()).then_some(Chunk::CollisionShapes(self.shapes)),
        ];
        for chunk in made.into_iter().flatten() {
            let own = rank(chunk.tag().0);
            let at = chunks.iter().position(|c| rank(c.tag().0) > own).unwrap_or(chunks.len());
            chunks.insert(at, chunk);
        }
    }
}
