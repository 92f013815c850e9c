//! Lights, cameras and collision shapes as nodes (named after them) under their bones:
//!
//! * a light as a `KHR_lights_punctual` light on its node (point, directional or spot; colour
//!   clamped to 0–1 and range the attenuation's end, as the extension wants them); an ambient
//!   light has no glTF kind: its node carries it in extras only (noted);
//! * a camera as a perspective glTF camera on a node at its position, turned so that its −Z
//!   (where a glTF camera looks) points at its target, under its bone or the scene's root;
//! * a collision shape as an empty node.
//!
//! Every node's `extras.relic` holds the whole of what the model has ([`ex::SceneObjectExtras`]: the
//! exact numbers, the target, the shape, the animated parameters), which import reads back.

use gltf_json as json;
use json::Index;
use json::validation::Checked::Valid;
use relic_core::math::{cross3, decompose, normalize3};
use relic_core::model::{Camera, LightKind, Transform};

use crate::GltfError;
use crate::extras::{self as ex};

use super::{Exporter, node_trs, push_child};

/// The extension's name.
pub(crate) const LIGHTS: &str = "KHR_lights_punctual";

impl Exporter<'_> {
    /// Every light, camera and collision shape as a node (see the module docs).
    pub(super) fn scene_objects(&mut self) -> Result<(), GltfError> {
        let model = self.model;
        let mut lights = Vec::new();
        let mut ambient = 0usize;
        for (i, l) in model.lights.iter().enumerate() {
            let mut n = node_trs(&l.name, &l.transform);
            n.extras = ex::wrap(ex::SceneObjectExtras::Light {
                index: i as u32,
                kind: l.kind.as_str().into(),
                transform: l.transform.into(),
                color: l.color,
                intensity: l.intensity,
                attenuation: l.attenuation,
                ambient: l.ambient,
                cone: l.cone,
                tracks: ex::tracks_text(&l.tracks),
            })?;
            if l.kind == LightKind::Ambient {
                ambient += 1;
            } else {
                let mut light = serde_json::Map::new();
                light.insert("name".into(), l.name.clone().into());
                light.insert("type".into(), l.kind.as_str().into());
                let color = l.color.map(|c| if c.is_finite() { c.clamp(0.0, 1.0) } else { 1.0 });
                light.insert("color".into(), serde_json::json!(color));
                let intensity = if l.intensity.is_finite() { l.intensity.max(0.0) } else { 1.0 };
                light.insert("intensity".into(), intensity.into());
                let range = l.attenuation.map(|[_, end]| end).filter(|r| r.is_finite() && *r > 0.0);
                if let (Some(range), false) = (range, l.kind == LightKind::Directional) {
                    light.insert("range".into(), range.into());
                }
                if l.kind == LightKind::Spot {
                    let [inner, outer] = l.cone.unwrap_or([0.0, std::f32::consts::FRAC_PI_4]);
                    let outer = if outer.is_finite() { outer.clamp(1e-3, std::f32::consts::FRAC_PI_2) } else { 0.785 };
                    let inner = if inner.is_finite() { inner.clamp(0.0, outer * 0.999) } else { 0.0 };
                    light
                        .insert("spot".into(), serde_json::json!({ "innerConeAngle": inner, "outerConeAngle": outer }));
                }
                let mut others = serde_json::Map::new();
                others.insert(LIGHTS.into(), serde_json::json!({ "light": lights.len() }));
                n.extensions = Some(json::extensions::scene::Node { others });
                lights.push(light);
            }
            let index = self.root.push(n);
            push_child(&mut self.root, Index::new(l.bone as u32), index);
        }
        if !lights.is_empty() {
            self.use_extension(LIGHTS);
            let root = self.root.extensions.get_or_insert_with(Default::default);
            root.others.insert(LIGHTS.into(), serde_json::json!({ "lights": lights }));
        }
        if ambient > 0 {
            self.loss(
                "lights",
                format!("{ambient} ambient lights: glTF has none (empty nodes, the light in their extras)"),
            );
        }
        for (i, c) in model.cameras.iter().enumerate() {
            let mut n =
                node_trs(&c.name, &Transform { translation: c.position, rotation: look_at(c), ..Transform::IDENTITY });
            let fine = |v: f32| v.is_finite() && v > 0.0;
            let znear = if fine(c.znear) { c.znear } else { 1e-3 };
            n.camera = Some(self.root.push(json::Camera {
                name: Some(c.name.clone()),
                orthographic: None,
                perspective: Some(json::camera::Perspective {
                    aspect_ratio: None,
                    yfov: if fine(c.yfov) { c.yfov } else { std::f32::consts::FRAC_PI_4 },
                    zfar: Some(c.zfar).filter(|&f| fine(f) && f > znear),
                    znear,
                    extensions: None,
                    extras: Default::default(),
                }),
                type_: Valid(json::camera::Type::Perspective),
                extensions: None,
                extras: Default::default(),
            }));
            n.extras = ex::wrap(ex::SceneObjectExtras::Camera {
                index: i as u32,
                position: c.position,
                target: c.target,
                yfov: c.yfov,
                znear: c.znear,
                zfar: c.zfar,
                tracks: ex::tracks_text(&c.tracks),
            })?;
            let index = self.root.push(n);
            match c.bone.map(|b| Index::new(b as u32)).or(self.synthetic_root) {
                Some(parent) => push_child(&mut self.root, parent, index),
                None => {
                    if let Some(scene) = self.root.scenes.first_mut() {
                        scene.nodes.push(index);
                    }
                }
            }
        }
        for (i, c) in model.collision_shapes.iter().enumerate() {
            let mut n = node_trs(&c.name, &c.transform);
            n.extras = ex::wrap(ex::SceneObjectExtras::CollisionShape {
                index: i as u32,
                shape: c.shape.as_str().into(),
                transform: c.transform.into(),
                points: c.shape.points(),
                radius: c.shape.radius(),
            })?;
            let index = self.root.push(n);
            push_child(&mut self.root, Index::new(c.bone as u32), index);
        }
        Ok(())
    }
}

/// The turn that points a glTF camera's −Z from its position at its target, +Y up as far as it
/// can (identity when the two coincide).
fn look_at(c: &Camera) -> [f32; 4] {
    let d = [c.target[0] - c.position[0], c.target[1] - c.position[1], c.target[2] - c.position[2]];
    let Some(back) = normalize3(d.map(|x| -x)) else { return [0.0, 0.0, 0.0, 1.0] };
    let up = if back[1].abs() > 0.999 { [0.0, 0.0, 1.0] } else { [0.0, 1.0, 0.0] };
    let Some(x) = normalize3(cross3(up, back)) else { return [0.0, 0.0, 0.0, 1.0] };
    let y = cross3(back, x);
    let m = [x[0], x[1], x[2], 0.0, y[0], y[1], y[2], 0.0, back[0], back[1], back[2], 0.0, 0.0, 0.0, 0.0, 1.0];
    decompose(&m).1
}
