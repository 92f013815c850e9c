//! LITE, CAMS and CLID as the model's lights, cameras and collision shapes (spec §4.11, §4.18,
//! §4.20).
//!
//! * A light and a collision shape sit on their own node's bone, which is where the model reads
//!   their pivot: the light at the bone (identity transform), the shape's points as the file
//!   stores them, in model space (PackHorse's box is centred on the origin, its node's pivot
//!   is not), under a transform that undoes the bone's pivot.
//! * A camera is no node: it is placed in the model (no bone), position and target as stored.
//! * Light kinds: 0 omnidirectional → point, 1 directional, 2 ambient (a type the spec does not
//!   list is read as a point light and noted). Colours: the static ones as stored (RGB), the
//!   KLAC and KLBC keys reversed (they are stored BGR: spec §8.6).
//! * Tracks: one [`EmitterTrack`] per clip the keys fall in (a global-sequence track once, on
//!   its clock), named by [`PROPERTIES`]; 0 → step, 1 → linear, 2 and 3 → cubic spline as node
//!   tracks are read.

use relic_core::Loss;
use relic_core::model::{self as ir, EmitterTrack, LightKind, ShapeKind, Transform};

use super::surface::{Clips, keyed};
use super::{Skeleton, WARCRAFT};
use crate::file::*;

/// Each light and camera track tag and the model's name for the parameter.
pub(crate) const PROPERTIES: [(&[u8; 4], &str); 10] = [
    (b"KLAS", "attenuation_start"),
    (b"KLAE", "attenuation_end"),
    (b"KLAC", "color"),
    (b"KLAI", "intensity"),
    (b"KLBC", "ambient_color"),
    (b"KLBI", "ambient_intensity"),
    (b"KLAV", "visibility"),
    (b"KCTR", "translation"),
    (b"KTTR", "target_translation"),
    (b"KCRL", "roll"),
];

/// The model's name of a track's parameter (the tag itself for one [`PROPERTIES`] lacks).
fn property(tag: &Tag) -> String {
    PROPERTIES.iter().find(|(t, _)| **t == tag.0).map_or_else(|| tag.text(), |(_, p)| (*p).to_string())
}

/// How a parameter's values change frame: colours reverse (BGR keys), positions turn, the rest
/// stay.
fn value_to_ir(tag: &Tag, v: [f32; 3]) -> [f32; 3] {
    match &tag.0 {
        b"KLAC" | b"KLBC" => [v[2], v[1], v[0]],
        b"KCTR" | b"KTTR" => WARCRAFT.vector_to_ir(v),
        _ => v,
    }
}

/// A track's keys per clip (or once on its global sequence).
pub(super) fn parameter_tracks(t: &Track, clips: &Clips<'_>) -> Vec<EmitterTrack> {
    let name = property(&t.tag);
    match &t.keys {
        Keys::Float(k) => keyed(t, k, &name, clips, |v: f32, _| [v]),
        Keys::Vec3(k) => keyed(t, k, &name, clips, |v, _| value_to_ir(&t.tag, v)),
        Keys::Int(_) | Keys::Quat(_) => Vec::new(),
    }
}

/// The model's lights, cameras and collision shapes, and what they could not keep.
#[derive(Default)]
pub(super) struct Scene {
    pub(super) lights: Vec<ir::Light>,
    pub(super) cameras: Vec<ir::Camera>,
    pub(super) collision_shapes: Vec<ir::CollisionShape>,
}

/// Reads LITE, CAMS and CLID; `pivot(node)` is a node's pivot (Warcraft's frame).
pub(super) fn scene(
    file: &MdxFile,
    sk: &Skeleton,
    pivot: &dyn Fn(usize) -> [f32; 3],
    clips: &Clips<'_>,
    losses: &mut Vec<Loss>,
) -> Scene {
    let mut out = Scene::default();
    let (mut odd_types, mut shadows) = (0usize, 0usize);
    let bone_of = |node: &Node| sk.by_id.get(&node.object_id).map(|&n| (n, sk.rank.get(n).copied().unwrap_or(0)));
    for chunk in &file.chunks {
        match chunk {
            Chunk::Lights(v) => {
                for l in v {
                    let Some((_, bone)) = bone_of(&l.node) else { continue };
                    let kind = match l.light_type {
                        0 => LightKind::Point,
                        1 => LightKind::Directional,
                        2 => LightKind::Ambient,
                        _ => {
                            odd_types += 1;
                            LightKind::Point
                        }
                    };
                    shadows += usize::from(l.shadow_intensity.is_some());
                    out.lights.push(ir::Light {
                        name: l.node.name.to_text(),
                        kind,
                        bone,
                        transform: Transform::IDENTITY,
                        color: l.color,
                        intensity: l.intensity,
                        attenuation: Some([l.attenuation_start, l.attenuation_end]),
                        ambient: Some((l.ambient_color, l.ambient_intensity)),
                        cone: None,
                        tracks: l.tracks.iter().flat_map(|t| parameter_tracks(t, clips)).collect(),
                        record: None,
                    });
                }
            }
            Chunk::Cameras(v) => out.cameras.extend(v.iter().map(|c| ir::Camera {
                name: c.name.to_text(),
                bone: None,
                position: WARCRAFT.vector_to_ir(c.position),
                target: WARCRAFT.vector_to_ir(c.target_position),
                yfov: c.field_of_view,
                znear: c.near_clip,
                zfar: c.far_clip,
                tracks: c.tracks.iter().flat_map(|t| parameter_tracks(t, clips)).collect(),
                record: None,
            })),
            Chunk::CollisionShapes(v) => {
                for c in v {
                    let Some((node, bone)) = bone_of(&c.node) else { continue };
                    let to_ir = |p| WARCRAFT.vector_to_ir(p);
                    let shape = match c.shape {
                        Shape::Box(corners) => ShapeKind::Box { corners: corners.map(to_ir) },
                        Shape::Plane(corners) => ShapeKind::Plane { corners: corners.map(to_ir) },
                        Shape::Sphere(center, radius) => ShapeKind::Sphere { center: to_ir(center), radius },
                        Shape::Cylinder(ends, radius) => ShapeKind::Cylinder { ends: ends.map(to_ir), radius },
                    };
                    let undo_pivot = to_ir(pivot(node)).map(|c| -c);
                    out.collision_shapes.push(ir::CollisionShape {
                        name: c.node.name.to_text(),
                        bone,
                        transform: Transform { translation: undo_pivot, ..Transform::IDENTITY },
                        shape,
                    });
                }
            }
            _ => {}
        }
    }
    if odd_types > 0 {
        losses.push(Loss::new(
            "LITE",
            format!("{odd_types} lights of a type the spec does not list: read as point lights"),
        ));
    }
    if shadows > 0 {
        losses.push(Loss::new("LITE", format!("{shadows} lights' shadow intensity (1200 on): the model holds none")));
    }
    out
}
