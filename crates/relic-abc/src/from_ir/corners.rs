//! Key times between a tool's frames, found again where nothing recorded them.
//!
//! An ABC clip is a piecewise-linear curve with its corners at the key times (every node keyed at
//! every key time). Blender's exporter samples it at every frame (24 per second), and a corner
//! that does not fall on a frame comes back as two frames, one on each side, which the key
//! reduction ([`super::resample::reduced`]) must both keep: a clip keyed every 120 ms (FEMBASE
//! "Flirt", 2.9 frames) comes back with twice its keys, a file half as large again. Without the
//! stored key times (a glTF without relic's extras), each such pair of frames is one corner: the
//! line through the two kept keys before it and the line through the two after it meet at the
//! corner, in every channel at the same time. The pair is replaced by that time and value where
//! every channel's lines meet within the reduction's tolerance there; elsewhere the frames stay.

use relic_core::model::{Animation, Channel, ChannelValues, Interpolation};
use relic_core::sample::Sample;

use super::resample::{REDUCE_ROTATION, REDUCE_TRANSLATION};

/// One key time of the result: a kept frame (sampled from the clip) or a recovered corner.
enum Knot {
    Frame(u32),
    /// Time (ms) and each channel's value there.
    Corner(u32, Vec<Vec<f64>>),
}

impl Knot {
    fn time(&self) -> u32 {
        match self {
            Knot::Frame(t) | Knot::Corner(t, _) => *t,
        }
    }
}

/// A channel's value at `ms` as a flat list, a quaternion on the side of `like` (if given).
fn value(channel: &Channel, ms: u32, like: Option<&[f64]>) -> Option<Vec<f64>> {
    match channel.sample(ms as f32 / 1000.0)? {
        Sample::Vector(v) => Some(v.iter().map(|&c| f64::from(c)).collect()),
        Sample::Rotation(q) => {
            let mut v: Vec<f64> = q.iter().map(|&c| f64::from(c)).collect();
            if let Some(like) = like
                && v.iter().zip(like).map(|(a, b)| a * b).sum::<f64>() < 0.0
            {
                v.iter_mut().for_each(|c| *c = -*c);
            }
            Some(v)
        }
    }
}

fn tolerance(channel: &Channel) -> f64 {
    f64::from(match channel.values {
        ChannelValues::Rotation(_) => REDUCE_ROTATION,
        _ => REDUCE_TRANSLATION,
    })
}

/// The corner between the frames `a` and `b` (ms), with the kept keys `p` before and `q` after
/// them on the straight stretches around it: its time, strictly between `a` and `b`, and every
/// channel's value there; `None` where some channel's lines do not meet there.
fn corner(anim: &Animation, [p, a, b, q]: [u32; 4]) -> Option<(u32, Vec<Vec<f64>>)> {
    let mut lines = Vec::with_capacity(anim.channels.len());
    for channel in &anim.channels {
        let at_a = value(channel, a, None)?;
        let [vp, vb, vq] = [p, b, q].map(|t| value(channel, t, Some(&at_a)));
        let (vp, at_b, vq) = (vp?, vb?, vq?);
        let left = at_a.iter().zip(&vp).map(|(x, y)| (x - y) / f64::from(a - p)).collect();
        let right = vq.iter().zip(&at_b).map(|(x, y)| (x - y) / f64::from(q - b)).collect();
        lines.push(Lines { at_a, left, at_b, right, tolerance: tolerance(channel) });
    }
    // The time from the component whose slope changes most (against its tolerance):
    // at_a + left·(t − a) = at_b + right·(t − b).
    let mut best: Option<(f64, f64)> = None;
    for l in &lines {
        for (((x, sl), y), sr) in l.at_a.iter().zip(&l.left).zip(&l.at_b).zip(&l.right) {
            let change = (sl - sr).abs() / l.tolerance;
            if change > best.map_or(0.0, |b| b.0) && (sl - sr).abs() > f64::EPSILON {
                best = Some((change, (y - x + sl * f64::from(a) - sr * f64::from(b)) / (sl - sr)));
            }
        }
    }
    let t = best?.1.round();
    if !(t > f64::from(a) && t < f64::from(b)) {
        return None;
    }
    let mut values = Vec::with_capacity(lines.len());
    for l in &lines {
        let mut v = Vec::with_capacity(l.at_a.len());
        for (((x, sl), y), sr) in l.at_a.iter().zip(&l.left).zip(&l.at_b).zip(&l.right) {
            let (left, right) = (x + sl * (t - f64::from(a)), y + sr * (t - f64::from(b)));
            if (left - right).abs() > l.tolerance {
                return None;
            }
            v.push((left + right) / 2.0);
        }
        values.push(v);
    }
    Some((t as u32, values))
}

/// A channel's two lines around a corner: its value at the frame before the corner and the
/// slope (per ms) of the stretch that ends there, its value at the frame after and the slope of
/// the stretch that starts there.
struct Lines {
    at_a: Vec<f64>,
    left: Vec<f64>,
    at_b: Vec<f64>,
    right: Vec<f64>,
    tolerance: f64,
}

/// The key times (ms) of a baked clip without stored ones, reduced ([`super::resample::reduced`])
/// and with every pair of frames around a corner replaced by the corner (see the module docs);
/// with the clip keyed at exactly those times when a corner was found (the corners' values are
/// not on the clip's sampled curve).
pub(crate) fn reduced(anim: &Animation, times: &[u32]) -> (Vec<u32>, Option<Animation>) {
    let kept = super::resample::reduced(anim, times);
    // One frame of the bake: the closest two of its times.
    let frame = times.windows(2).filter_map(|w| Some(w.get(1)?.saturating_sub(*w.first()?))).min().unwrap_or(0);
    let mut knots: Vec<Knot> = Vec::with_capacity(kept.len());
    let mut i = 0;
    while let Some(&a) = kept.get(i) {
        let around = (i.checked_sub(1).and_then(|j| kept.get(j)), kept.get(i + 1), kept.get(i + 2));
        if let (Some(&p), Some(&b), Some(&q)) = around
            && b - a <= frame + 1
            && let Some((t, values)) = corner(anim, [p, a, b, q])
        {
            knots.push(Knot::Corner(t, values));
            i += 2;
            continue;
        }
        knots.push(Knot::Frame(a));
        i += 1;
    }
    if knots.iter().all(|k| matches!(k, Knot::Frame(_))) {
        return (kept, None);
    }
    let times: Vec<u32> = knots.iter().map(Knot::time).collect();
    let mut out = anim.clone();
    for (c, channel) in out.channels.iter_mut().enumerate() {
        let mut flat: Vec<Vec<f64>> = Vec::with_capacity(knots.len());
        for knot in &knots {
            let v = match knot {
                Knot::Frame(t) => value(channel, *t, flat.last().map(Vec::as_slice)),
                Knot::Corner(_, values) => values.get(c).cloned(),
            };
            flat.push(v.unwrap_or_default());
        }
        channel.values = match channel.values {
            ChannelValues::Translation(_) => ChannelValues::Translation(flat.iter().map(|v| array(v, false)).collect()),
            ChannelValues::Scale(_) => ChannelValues::Scale(flat.iter().map(|v| array(v, false)).collect()),
            ChannelValues::Rotation(_) => ChannelValues::Rotation(flat.iter().map(|v| array(v, true)).collect()),
        };
        channel.times = times.iter().map(|&t| t as f32 / 1000.0).collect();
        channel.interpolation = Interpolation::Linear;
    }
    (times, Some(out))
}

/// The first `N` components of `v` (`N` long: a vector or a quaternion), normalised if `unit`.
fn array<const N: usize>(v: &[f64], unit: bool) -> [f32; N] {
    let norm = if unit { v.iter().map(|c| c * c).sum::<f64>().sqrt().max(f64::MIN_POSITIVE) } else { 1.0 };
    let mut out = [0.0; N];
    for (o, c) in out.iter_mut().zip(v) {
        *o = (c / norm) as f32;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use relic_core::model::Clock;

    /// A clip keyed at 0, 120, 240 ms (corners off Blender's 24 fps frames) baked at every frame.
    fn baked() -> (Animation, Vec<u32>) {
        let corner = |t: f32| -> [f32; 3] {
            // Up 1 unit per 120 ms, then down.
            if t <= 0.12 { [t / 0.12, 0.0, 0.0] } else { [1.0 - (t - 0.12) / 0.12, 0.0, 0.0] }
        };
        let frames: Vec<u32> = (0..=6).map(|f| (f as f32 * 1000.0 / 24.0).round() as u32).collect();
        let channel = Channel {
            bone: 0,
            clock: Clock::Animation,
            interpolation: Interpolation::Linear,
            times: frames.iter().map(|&t| t as f32 / 1000.0).collect(),
            values: ChannelValues::Translation(frames.iter().map(|&t| corner(t as f32 / 1000.0)).collect()),
        };
        (Animation { name: "up".into(), duration: 0.25, channels: vec![channel], ..Animation::default() }, frames)
    }

    #[test]
    fn a_corner_between_two_frames_is_one_key_again() {
        let (anim, frames) = baked();
        // The reduction alone keeps both frames around the corner at 120 ms (83 and 125 ms).
        assert_eq!(super::super::resample::reduced(&anim, &frames), vec![0, 83, 125, 250]);
        let (times, rekeyed) = reduced(&anim, &frames);
        assert_eq!(times, vec![0, 120, 250]);
        let rekeyed = rekeyed.unwrap();
        let Some(Sample::Vector(v)) = rekeyed.channels[0].sample(0.12) else { panic!() };
        assert!((v[0] - 1.0).abs() < 1e-3, "{v:?}");
        // Every frame of the bake is still where it was.
        for &t in &frames {
            let (Some(Sample::Vector(a)), Some(Sample::Vector(b))) =
                (anim.channels[0].sample(t as f32 / 1000.0), rekeyed.channels[0].sample(t as f32 / 1000.0))
            else {
                panic!()
            };
            assert!((a[0] - b[0]).abs() <= REDUCE_TRANSLATION, "{t}: {a:?} {b:?}");
        }
    }
}
