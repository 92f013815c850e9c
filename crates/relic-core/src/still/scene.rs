//! Lights, cameras and collision shapes: equal but for float noise in their numbers (they travel
//! in glTF as they are; an editor may round them). Their tracks count when the model has any (a
//! glTF whose editor dropped extras carries none).

use super::{TRANSFORM_TOLERANCE, near, same_transform};
use crate::model::{EmitterTrack, Model};

fn close(a: impl IntoIterator<Item = f32>, b: impl IntoIterator<Item = f32>) -> bool {
    let (a, b): (Vec<f32>, Vec<f32>) = (a.into_iter().collect(), b.into_iter().collect());
    a.len() == b.len() && a.iter().zip(&b).all(|(x, y)| near(*x, *y, TRANSFORM_TOLERANCE))
}

fn tracks(model: &[EmitterTrack], read: &[EmitterTrack]) -> bool {
    model.is_empty() || model == read
}

/// `Ok` when the model's lights, cameras and collision shapes are the file's. A model without
/// any light and any camera is judged on its collision shapes alone: Blender's glTF exporter
/// leaves lights and cameras out unless its "Punctual Lights" and "Cameras" boxes are ticked,
/// which is no edit of the model (as a model without any emitter keeps the kept file's).
pub(super) fn scene(model: &Model, read: &Model) -> Result<(), String> {
    let left_out = model.lights.is_empty() && model.cameras.is_empty();
    let (read_lights, read_cameras) = if left_out { (&[][..], &[][..]) } else { (&read.lights[..], &read.cameras[..]) };
    let counts = (model.lights.len(), model.cameras.len(), model.collision_shapes.len());
    let file = (read_lights.len(), read_cameras.len(), read.collision_shapes.len());
    if counts != file {
        return Err(format!("{counts:?} lights, cameras and collision shapes, the file {file:?}"));
    }
    for (a, b) in model.lights.iter().zip(read_lights) {
        let numbers = |l: &crate::model::Light| {
            let mut v: Vec<f32> = l.color.iter().copied().chain([l.intensity]).collect();
            v.extend(l.attenuation.iter().flatten());
            v.extend(l.ambient.iter().flat_map(|(c, i)| c.iter().copied().chain([*i])));
            v.extend(l.cone.iter().flatten());
            v
        };
        let same = (&a.name, a.kind, a.bone) == (&b.name, b.kind, b.bone)
            && same_transform(&a.transform, &b.transform)
            && close(numbers(a), numbers(b))
            && tracks(&a.tracks, &b.tracks);
        if !same {
            return Err(format!("the light {:?} differs", b.name));
        }
    }
    for (a, b) in model.cameras.iter().zip(read_cameras) {
        let numbers =
            |c: &crate::model::Camera| c.position.into_iter().chain(c.target).chain([c.yfov, c.znear, c.zfar]);
        let same =
            (&a.name, a.bone) == (&b.name, b.bone) && close(numbers(a), numbers(b)) && tracks(&a.tracks, &b.tracks);
        if !same {
            return Err(format!("the camera {:?} differs", b.name));
        }
    }
    for (a, b) in model.collision_shapes.iter().zip(&read.collision_shapes) {
        let numbers = |c: &crate::model::CollisionShape| {
            c.shape.points().into_iter().flatten().chain([c.shape.radius()]).collect::<Vec<f32>>()
        };
        let same = (&a.name, a.bone, a.shape.as_str()) == (&b.name, b.bone, b.shape.as_str())
            && same_transform(&a.transform, &b.transform)
            && close(numbers(a), numbers(b));
        if !same {
            return Err(format!("the collision shape {:?} differs", b.name));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::scene;
    use crate::model::{Light, LightKind, Model, Transform};

    fn light(name: &str) -> Light {
        Light {
            name: name.into(),
            kind: LightKind::Point,
            bone: 0,
            transform: Transform::IDENTITY,
            color: [1.0, 0.5, 0.25],
            intensity: 4.0,
            attenuation: Some([10.0, 15.0]),
            ambient: None,
            cone: None,
            tracks: Vec::new(),
            record: None,
        }
    }

    /// An exporter that leaves every light and camera out (Blender's default) makes no edit; one
    /// light of two gone, or another light, is one.
    #[test]
    fn a_model_without_lights_and_cameras_is_judged_on_its_shapes() {
        let read = Model { lights: vec![light("a"), light("b")], ..Model::default() };
        assert_eq!(scene(&read, &read), Ok(()));
        assert_eq!(scene(&Model::default(), &read), Ok(()));
        let one = Model { lights: vec![light("a")], ..Model::default() };
        assert!(scene(&one, &read).is_err());
        let other = Model { lights: vec![light("a"), light("c")], ..Model::default() };
        assert!(scene(&other, &read).is_err());
    }
}
