//! The NAD checks: parse, rewrite, curves (spec §9.5), the model round trip on a stand-in
//! skeleton, the rotation sampling error, tags.

use relic_core::Model;
use relic_core::check::Checks;
use relic_core::model::{Animation, Bone, Channel, ChannelValues};
use relic_core::sample::{Sample, sample_rotation, segment_at};

use super::{first_difference, same_bytes};
use crate::decide::{NadChoices, curve_report, decide_nad};
use crate::file::{NadFile, NadTrack, TAG_NAMES, TRACK_ROTATION, parse_nad};
use crate::from_ir::animation::{nad_from_animation, rotation_angle};
use crate::from_ir::skeleton::BoneMap;
use crate::options::{Choice, FRAMES_PER_SECOND, MAX_BONES, NadOptions};
use crate::to_ir::NOD_FRAME;
use crate::to_ir::animation::animation_from_nad;
use crate::{attach_animation, write_animation};

/// A stand-in model for checking a NAD alone: 64 bones at the origin.
pub(crate) fn stand_in_skeleton() -> Model {
    Model {
        bones: (0..MAX_BONES)
            .map(|b| Bone { name: format!("bone_{b}"), parent: b.checked_sub(1), ..Bone::default() })
            .collect(),
        ..Model::default()
    }
}

pub(crate) fn nad_checks(bytes: &[u8]) -> Checks {
    let mut checks = Checks::new();
    let options = NadOptions::default();
    let parsed = parse_nad(bytes).map(|nad| {
        let choices = decide_nad(&nad, &options);
        (nad, choices)
    });
    let Some((nad, choices)) = checks.parsed(parsed, |(nad, choices)| {
        format!(
            "{} tracks, {} keys, {} tags, {} frames; polynomial {}",
            nad.tracks.len(),
            nad.key_count(),
            nad.tags.len(),
            nad.duration,
            choices.polynomial
        )
    }) else {
        return checks;
    };
    checks.run("rewrite", || same_bytes(bytes, nad.to_bytes()));
    checks.run("curves", || curves(&nad));
    checks.run("ir-round-trip", || nad_round_trip(bytes, &nad, &options));
    checks.run("rotation-sampling", || {
        let skeleton = stand_in_skeleton();
        let anim = animation_from_nad(&nad, skeleton.bones.len(), "check", &choices).map_err(|e| e.to_string())?;
        let worst = nad
            .tracks
            .iter()
            .zip(&anim.channels)
            .filter(|(t, _)| t.track_type == TRACK_ROTATION)
            .map(|(t, c)| rotation_error(c, t, &choices, 8))
            .fold(0.0, f64::max);
        Ok(format!(
            "largest deviation between the 30 fps quaternion keys and the Euler curves {:.4}°",
            worst.to_degrees()
        ))
    });
    let unknown: Vec<u32> = nad.tags.iter().map(|t| t.tag_type).filter(|t| *t as usize >= TAG_NAMES.len()).collect();
    checks.pass(
        "tags",
        if unknown.is_empty() {
            format!("{} tags, all of known types", nad.tags.len())
        } else {
            format!("{} tags, types not in the spec: {unknown:?} (kept as tag_<n>)", nad.tags.len())
        },
    );
    checks
}

fn curves(nad: &NadFile) -> Result<String, String> {
    let r = curve_report(nad);
    let scale = nad
        .tracks
        .iter()
        .flat_map(|t| t.keys.iter().flat_map(|k| k.value))
        .map(|v| f64::from(v.abs()))
        .fold(0.0, f64::max);
    let detail = format!(
        "{} segments; segment ends miss the next key by {:.2e} (P1) / {:.2e} (P2); |Δframe·FrameScale − 1| ≤ {:.2e}; \
         last-key FrameScale +∞ on {} of {} tracks; slope jumps P1 {:.2e} P2 {:.2e}",
        r.segments,
        r.end_gap[0],
        r.end_gap[1],
        r.frame_scale_error,
        r.infinite_last,
        r.tracks_with_keys,
        r.slope_jump[0],
        r.slope_jump[1]
    );
    if !r.ascending {
        return Err(format!("frames not strictly ascending; {detail}"));
    }
    if r.end_gap[0].min(r.end_gap[1]) > 1e-3 * (1.0 + scale) {
        return Err(format!("segments do not end on the next key; {detail}"));
    }
    Ok(detail)
}

fn nad_round_trip(bytes: &[u8], nad: &NadFile, options: &NadOptions) -> Result<String, String> {
    let mut model = stand_in_skeleton();
    let index = attach_animation(&mut model, bytes, "check", options).map_err(|e| e.to_string())?;
    let exact = write_animation(&model, index, options).map_err(|e| e.to_string())?;
    if exact.value != bytes {
        return Err(format!("through the kept bytes: {}", first_difference(bytes, &exact.value)));
    }
    let choices = decide_nad(nad, options);
    let Some(anim) = model.animations.get(index) else { return Err("animation missing".into()) };
    let mut losses = Vec::new();
    let map = BoneMap::new(&model, &mut losses).map_err(|e| e.to_string())?;
    let rebuilt =
        nad_from_animation(anim, &map, &NadOptions { polynomial: Choice::Fixed(choices.polynomial.value), ..*options });
    let again_bytes = rebuilt.value.to_bytes().map_err(|e| e.to_string())?;
    let again_nad = parse_nad(&again_bytes).map_err(|e| e.to_string())?;
    let again = animation_from_nad(
        &again_nad,
        model.bones.len(),
        "check",
        &decide_nad(&again_nad, &NadOptions { polynomial: Choice::Fixed(choices.polynomial.value), ..*options }),
    )
    .map_err(|e| e.to_string())?;
    let worst = animation_gap(anim, &again);
    let detail =
        format!("identical through the kept bytes; rebuilt from the animation alone: worst deviation {worst:.2e}");
    if worst <= 1e-3 { Ok(detail) } else { Err(detail) }
}

/// Largest difference between two animations' channels, sampled at the first one's key times and
/// halfway between (translation/scale: relative to the value; rotation: radians).
pub fn animation_gap(a: &Animation, b: &Animation) -> f64 {
    let mut worst = 0.0f64;
    for (x, y) in a.channels.iter().zip(&b.channels) {
        let mut times: Vec<f32> = x.times.clone();
        times.extend(x.times.windows(2).filter_map(|w| w.first().zip(w.get(1)).map(|(p, q)| 0.5 * (p + q))));
        for t in times {
            match (x.sample(t), y.sample(t)) {
                (Some(Sample::Vector(p)), Some(Sample::Vector(q))) => {
                    let diff = p.iter().zip(&q).map(|(x, y)| (f64::from(*x) - f64::from(*y)).abs()).fold(0.0, f64::max);
                    let d = diff / (1.0 + f64::from(p.iter().fold(0.0f32, |m, c| m.max(c.abs()))));
                    worst = worst.max(d);
                }
                (Some(Sample::Rotation(p)), Some(Sample::Rotation(q))) => {
                    worst = worst.max(rotation_angle(p, q));
                }
                _ => worst = f64::INFINITY,
            }
        }
        if matches!((&x.values, &y.values), (ChannelValues::Rotation(_), ChannelValues::Translation(_))) {
            worst = f64::INFINITY;
        }
    }
    if a.channels.len() != b.channels.len() { f64::INFINITY } else { worst }
}

/// The largest angle (radians) between a model rotation channel and the NAD rotation track it was
/// made from, checked at the channel's keys and `substeps` − 1 points between each pair.
pub(crate) fn rotation_error(channel: &Channel, track: &NadTrack, choices: &NadChoices, substeps: usize) -> f64 {
    let ChannelValues::Rotation(values) = &channel.values else { return 0.0 };
    let fps = f64::from(FRAMES_PER_SECOND);
    let truth = |f: f64| {
        let angles = track.eval(f, choices.polynomial.value).map(|a| a * choices.angle_unit.to_radians());
        let q = choices.euler_order.rotation(angles);
        NOD_FRAME.quat_to_ir([q.i, q.j, q.k, q.w].map(|c| c as f32))
    };
    let mut worst = 0.0f64;
    let substeps = substeps.max(1);
    for (k, pair) in channel.times.windows(2).enumerate() {
        let [a, b] = pair else { continue };
        let (fa, fb) = (f64::from(*a) * fps, f64::from(*b) * fps);
        for i in 0..substeps {
            let f = fa + (fb - fa) * i as f64 / substeps as f64;
            let seg = segment_at(&channel.times, k, (f / fps) as f32);
            if let Some(q) = sample_rotation(values, channel.interpolation, seg) {
                worst = worst.max(rotation_angle(q, truth(f)));
            }
        }
    }
    worst
}
