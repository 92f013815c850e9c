//! Baked keys reduced to the keys the motion needs: those another tool baked (Blender samples every
//! channel at every frame on export) on import, and relic's own bakes (bones glTF cannot compose,
//! global sequences) on export. A key is dropped when interpolating its neighbours reproduces it
//! within a tolerance per channel kind. Cubic channels are kept as they are.
//!
//! | channel | tolerance | why |
//! |---|---|---|
//! | translation | [`TRANSLATION_TOLERANCE`] model units per component | far below what the games' box proofs tell apart (0.01) |
//! | rotation | [`ROTATION_TOLERANCE`] per quaternion component (≈ 2e-4 rad) | a vertex 100 units from its bone moves by 0.02 at most |
//! | scale | [`SCALE_TOLERANCE`] per component | |

use relic_core::model::{Channel, ChannelValues, Interpolation};
use relic_core::sample::slerp;

/// Largest error a dropped translation key may leave.
pub(crate) const TRANSLATION_TOLERANCE: f32 = 1e-4;
/// Largest error a dropped rotation key may leave (per component of the unit quaternion).
pub(crate) const ROTATION_TOLERANCE: f32 = 1e-4;
/// Largest error a dropped scale key may leave.
pub(crate) const SCALE_TOLERANCE: f32 = 1e-5;

fn lerp3(a: [f32; 3], b: [f32; 3], f: f32) -> [f32; 3] {
    relic_core::math::zip3(a, b, |x, y| x + (y - x) * f)
}

fn near<const N: usize>(a: [f32; N], b: [f32; N], tolerance: f32) -> bool {
    a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tolerance)
}

/// Most keys one kept key may stand for (the ones between two kept keys, plus one).
const MAX_SPAN: usize = 64;

/// The indices of the keys to keep: the first, the last, and every key its neighbours do not
/// reproduce. `fits(a, b, k)` says whether key `k` lies on the interpolation from key `a` to `b`.
fn keep(n: usize, fits: impl Fn(usize, usize, usize) -> bool) -> Vec<usize> {
    if n <= 2 {
        return (0..n).collect();
    }
    let mut kept = vec![0];
    let mut anchor = 0;
    for end in 2..n {
        // A span is at most MAX_SPAN keys long, which keeps the work linear in the keys (each
        // candidate span is checked key by key) on a bake of 20 000 samples.
        if end - anchor > MAX_SPAN || !(anchor + 1..end).all(|k| fits(anchor, end, k)) {
            anchor = end - 1;
            kept.push(anchor);
        }
    }
    kept.push(n - 1);
    kept
}

fn pick<T: Copy>(values: &[T], kept: &[usize]) -> Vec<T> {
    kept.iter().filter_map(|&i| values.get(i).copied()).collect()
}

/// Reduces a linear or step channel in place; returns how many keys were dropped.
pub(crate) fn reduce(channel: &mut Channel) -> usize {
    if channel.interpolation == Interpolation::CubicSpline {
        return 0;
    }
    let times = channel.times.clone();
    let step = channel.interpolation == Interpolation::Step;
    let fraction = |a: usize, b: usize, k: usize| {
        let (ta, tb, tk) = (
            times.get(a).copied().unwrap_or(0.0),
            times.get(b).copied().unwrap_or(0.0),
            times.get(k).copied().unwrap_or(0.0),
        );
        if step || tb <= ta { 0.0 } else { (tk - ta) / (tb - ta) }
    };
    let n = times.len();
    let kept = match &channel.values {
        ChannelValues::Translation(v) | ChannelValues::Scale(v) => {
            let tolerance =
                if matches!(channel.values, ChannelValues::Scale(_)) { SCALE_TOLERANCE } else { TRANSLATION_TOLERANCE };
            let at = |i: usize| v.get(i).copied().unwrap_or_default();
            keep(n, |a, b, k| near(lerp3(at(a), at(b), fraction(a, b, k)), at(k), tolerance))
        }
        ChannelValues::Rotation(q) => {
            let at = |i: usize| q.get(i).copied().unwrap_or([0.0, 0.0, 0.0, 1.0]);
            keep(n, |a, b, k| {
                let mut want = at(k);
                let got = slerp(at(a), at(b), fraction(a, b, k));
                if want.iter().zip(got).map(|(x, y)| x * y).sum::<f32>() < 0.0 {
                    want = want.map(|c| -c);
                }
                near(got, want, ROTATION_TOLERANCE)
            })
        }
    };
    let dropped = n - kept.len();
    if dropped > 0 {
        channel.times = pick(&times, &kept);
        channel.values = match &channel.values {
            ChannelValues::Translation(v) => ChannelValues::Translation(pick(v, &kept)),
            ChannelValues::Scale(v) => ChannelValues::Scale(pick(v, &kept)),
            ChannelValues::Rotation(q) => ChannelValues::Rotation(pick(q, &kept)),
        };
    }
    dropped
}

/// Whether every key of `channel` is the bone's rest value `rest` within the channel kind's
/// tolerance: such a channel changes nothing (a model without it samples the rest pose), and an
/// editor writes one for every bone and property.
pub(crate) fn holds_rest(channel: &Channel, rest: &relic_core::model::Transform) -> bool {
    match &channel.values {
        ChannelValues::Translation(v) => v.iter().all(|t| near(*t, rest.translation, TRANSLATION_TOLERANCE)),
        ChannelValues::Scale(v) => v.iter().all(|s| near(*s, rest.scale, SCALE_TOLERANCE)),
        ChannelValues::Rotation(q) => q.iter().all(|q| {
            near(*q, rest.rotation, ROTATION_TOLERANCE) || near(q.map(|c| -c), rest.rotation, ROTATION_TOLERANCE)
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use relic_core::model::Clock;

    #[test]
    fn baked_straight_lines_become_their_ends_and_corners_stay() {
        // A move from 0 to 1 over a second, then back to 0 over the next, baked at 24 fps.
        let times: Vec<f32> = (0..=48).map(|f| f as f32 / 24.0).collect();
        let values = times.iter().map(|&t| [if t <= 1.0 { t } else { 2.0 - t }, 0.0, 0.0]).collect();
        let mut c = Channel {
            bone: 0,
            clock: Clock::Animation,
            interpolation: Interpolation::Linear,
            times,
            values: ChannelValues::Translation(values),
        };
        assert_eq!(reduce(&mut c), 46);
        assert_eq!(c.times, vec![0.0, 1.0, 2.0]);
        // A rotation held still keeps its two ends.
        let mut r = Channel {
            bone: 0,
            clock: Clock::Animation,
            interpolation: Interpolation::Linear,
            times: vec![0.0, 0.5, 1.0, 1.5],
            values: ChannelValues::Rotation(vec![[0.0, 0.0, 0.0, 1.0]; 4]),
        };
        assert_eq!(reduce(&mut r), 2);
        assert_eq!(r.times, vec![0.0, 1.5]);
    }
}
