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

/// `Ok` when the model's lights, cameras and collision shapes are the file's.
pub(super) fn scene(model: &Model, read: &Model) -> Result<(), String> {
    let counts = |m: &Model| (m.lights.len(), m.cameras.len(), m.collision_shapes.len());
    if counts(model) != counts(read) {
        return Err(format!("{:?} lights, cameras and collision shapes, the file {:?}", counts(model), counts(read)));
    }
    for (a, b) in model.lights.iter().zip(&read.lights) {
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
    for (a, b) in model.cameras.iter().zip(&read.cameras) {
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
