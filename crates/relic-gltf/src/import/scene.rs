//! Lights, cameras and collision shapes from their nodes: the node's `extras.relic` where
//! present (relic's export, or an editor that kept it), else a `KHR_lights_punctual` light or a
//! perspective camera as another tool wrote it (its place from the node; a camera's target one
//! unit down its −Z). A light or shape needs a bone above it; one without is not read.

use gltf_json as json;
use relic_core::model::{Camera, CollisionShape, EmitterTrack, Light, LightKind, ShapeKind, Transform};

use crate::extras::{self as ex, SceneObjectExtras};

use super::Importer;
use super::tree::{Tree, node_local};

/// The extension's name.
const LIGHTS: &str = "KHR_lights_punctual";

/// Whether relic wrote `node` for a light, camera or collision shape, or it holds a glTF light.
pub(super) fn is_scene_node(node: &json::Node) -> bool {
    ex::unwrap::<SceneObjectExtras>(&node.extras).is_some()
        || node.extensions.as_ref().is_some_and(|e| e.others.contains_key(LIGHTS))
}

/// What was found, each with the index relic recorded.
#[derive(Default)]
struct Found {
    lights: Vec<(Option<u32>, Light)>,
    cameras: Vec<(Option<u32>, Camera)>,
    shapes: Vec<(Option<u32>, CollisionShape)>,
}

fn in_order<T>(found: Vec<(Option<u32>, T)>) -> Vec<T> {
    let order = super::recorded_order(found.iter().map(|(i, _)| *i));
    let mut items: Vec<T> = found.into_iter().map(|(_, x)| x).collect();
    if let Some(order) = order {
        super::rearranged(&mut items, &order);
    }
    items
}

fn shape(kind: &str, points: &[[f32; 3]], radius: f32) -> Option<ShapeKind> {
    let two = |i: usize| points.get(i).copied();
    Some(match kind {
        "box" => ShapeKind::Box { corners: [two(0)?, two(1)?] },
        "plane" => ShapeKind::Plane { corners: [two(0)?, two(1)?] },
        "sphere" => ShapeKind::Sphere { center: two(0)?, radius },
        "cylinder" => ShapeKind::Cylinder { ends: [two(0)?, two(1)?], radius },
        _ => return None,
    })
}

impl Importer<'_> {
    /// The scene's lights, cameras and collision shapes, in the order relic recorded (else node
    /// order).
    pub(super) fn scene_objects(&mut self, tree: &Tree, node_bone: &[Option<usize>]) {
        let mut in_scene = tree.order.clone();
        in_scene.sort_unstable();
        let mut found = Found::default();
        for &n in &in_scene {
            let Some(node) = self.root.nodes.get(n) else { continue };
            let bone = tree.parent.get(n).copied().flatten().and_then(|p| node_bone.get(p).copied().flatten());
            let name = self.clean_name(node.name.as_deref().unwrap_or_default()).to_string();
            match ex::unwrap::<SceneObjectExtras>(&node.extras) {
                Some(x) => self.read_extras(x, name, bone, &mut found),
                None => self.read_gltf_object(node, name, bone, &mut found),
            }
        }
        self.model.lights = in_order(found.lights);
        self.model.cameras = in_order(found.cameras);
        self.model.collision_shapes = in_order(found.shapes);
    }

    fn read_extras(&self, x: SceneObjectExtras, name: String, bone: Option<usize>, found: &mut Found) {
        match x {
            SceneObjectExtras::Light {
                index,
                kind,
                transform,
                color,
                intensity,
                attenuation,
                ambient,
                cone,
                tracks,
            } => {
                let Some(bone) = bone else { return };
                found.lights.push((
                    Some(index),
                    Light {
                        name,
                        kind: LightKind::from_name(&kind).unwrap_or_default(),
                        bone,
                        transform: transform.into(),
                        color,
                        intensity,
                        attenuation,
                        ambient,
                        cone,
                        tracks: self.tracks(&tracks),
                        record: None,
                    },
                ));
            }
            SceneObjectExtras::Camera { index, position, target, yfov, znear, zfar, tracks } => found.cameras.push((
                Some(index),
                Camera { name, bone, position, target, yfov, znear, zfar, tracks: self.tracks(&tracks), record: None },
            )),
            SceneObjectExtras::CollisionShape { index, shape: kind, transform, points, radius } => {
                let (Some(bone), Some(shape)) = (bone, shape(&kind, &points, radius)) else { return };
                found.shapes.push((Some(index), CollisionShape { name, bone, transform: transform.into(), shape }));
            }
        }
    }

    /// A glTF light or perspective camera another tool wrote.
    fn read_gltf_object(&self, node: &json::Node, name: String, bone: Option<usize>, found: &mut Found) {
        let local = node_local(node);
        let light = node
            .extensions
            .as_ref()
            .and_then(|e| e.others.get(LIGHTS))
            .and_then(|v| v.get("light"))
            .and_then(serde_json::Value::as_u64)
            .and_then(|i| self.light(i));
        if let (Some(light), Some(bone)) = (light, bone) {
            found.lights.push((None, Light { name: name.clone(), bone, transform: local, ..light }));
        }
        let perspective =
            node.camera.and_then(|c| self.root.cameras.get(c.value())).and_then(|c| c.perspective.as_ref());
        if let Some(p) = perspective {
            let ahead = relic_core::math::quat_rotate(local.rotation, [0.0, 0.0, -1.0]);
            let at = local.translation;
            found.cameras.push((
                None,
                Camera {
                    name,
                    bone,
                    position: at,
                    target: [at[0] + ahead[0], at[1] + ahead[1], at[2] + ahead[2]],
                    yfov: p.yfov,
                    znear: p.znear,
                    zfar: p.zfar.unwrap_or(f32::MAX),
                    tracks: Vec::new(),
                    record: None,
                },
            ));
        }
    }

    /// Light `i` of the root's `KHR_lights_punctual` list.
    fn light(&self, i: u64) -> Option<Light> {
        let list = self.root.extensions.as_ref()?.others.get(LIGHTS)?.get("lights")?;
        let l = list.get(usize::try_from(i).ok()?)?;
        let number = |v: Option<&serde_json::Value>| v.and_then(serde_json::Value::as_f64).map(|x| x as f32);
        let kind = LightKind::from_name(l.get("type")?.as_str()?)?;
        let color = match l.get("color").and_then(|c| c.as_array()) {
            Some(c) => [number(c.first())?, number(c.get(1))?, number(c.get(2))?],
            None => [1.0; 3],
        };
        let spot = l.get("spot");
        let cone = spot.map(|s| {
            [number(s.get("innerConeAngle")).unwrap_or(0.0), number(s.get("outerConeAngle")).unwrap_or(0.785)]
        });
        Some(Light {
            kind,
            color,
            intensity: number(l.get("intensity")).unwrap_or(1.0),
            attenuation: number(l.get("range")).map(|r| [0.0, r]),
            cone,
            transform: Transform::IDENTITY,
            ..Light::default()
        })
    }

    /// The tracks of a node's extras that fit the model's clips and clocks.
    fn tracks(&self, text: &str) -> Vec<EmitterTrack> {
        let (clips, globals) = (self.model.animations.len(), self.model.global_sequences.len());
        ex::tracks_of_text(text)
            .into_iter()
            .filter(|t| {
                t.animation.is_none_or(|a| a < clips)
                    && match t.clock {
                        relic_core::model::Clock::Global(g) => g < globals,
                        relic_core::model::Clock::Animation => true,
                    }
            })
            .collect()
    }
}
