//! Lights → the model's lights (for other formats and viewers; the M2 writer writes a file's
//! lights from the file it keeps): kind 0 directional, 1 point; on the bone they name, at their
//! position; colour, intensity, attenuation and ambient colour the first key of their tracks,
//! every track as keys per clip (`diffuse_color` → `color`, …). A light on no bone (−1) or on a
//! bone out of range is left out (its count noted by the writers that drop it, none here).

use relic_core::math::sub3;
use relic_core::model::{Light, LightKind, Transform};

use super::emitters::keys;
use super::skeleton::pivot;
use crate::file::*;
use crate::frame::WARCRAFT;

/// The file's lights (`light 0`, …) that are on a bone.
pub(super) fn lights_to_ir(file: &M2File, rank: &[usize]) -> Vec<Light> {
    file.lights
        .iter()
        .enumerate()
        .filter_map(|(i, l)| {
            let bone = *rank.get(usize::try_from(l.bone).ok()?)?;
            let first3 = |t: &Track<[f32; 3]>| t.values.first().copied().unwrap_or([1.0; 3]);
            let first = |t: &Track<f32>| t.values.first().copied().unwrap_or(0.0);
            let mut tracks = keys(file, "color", &l.diffuse_color, |v| v.to_vec());
            tracks.extend(keys(file, "intensity", &l.diffuse_intensity, |v| vec![*v]));
            tracks.extend(keys(file, "ambient_color", &l.ambient_color, |v| v.to_vec()));
            tracks.extend(keys(file, "ambient_intensity", &l.ambient_intensity, |v| vec![*v]));
            tracks.extend(keys(file, "attenuation_start", &l.attenuation_start, |v| vec![*v]));
            tracks.extend(keys(file, "attenuation_end", &l.attenuation_end, |v| vec![*v]));
            tracks.extend(keys(file, "visibility", &l.visibility, |v| vec![f32::from(*v)]));
            Some(Light {
                name: format!("light {i}"),
                kind: if l.kind == 0 { LightKind::Directional } else { LightKind::Point },
                bone,
                transform: Transform {
                    translation: WARCRAFT.vector_to_ir(sub3(l.position, pivot(file, i64::from(l.bone)))),
                    ..Transform::IDENTITY
                },
                color: first3(&l.diffuse_color),
                intensity: first(&l.diffuse_intensity),
                attenuation: Some([first(&l.attenuation_start), first(&l.attenuation_end)]),
                ambient: Some((first3(&l.ambient_color), first(&l.ambient_intensity))),
                cone: None,
                tracks,
                record: None,
            })
        })
        .collect()
}
