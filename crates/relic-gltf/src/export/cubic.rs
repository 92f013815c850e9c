//! Cubic-spline channels written as linear keys on their curve.
//!
//! glTF's CUBICSPLINE is the Hermite curve MDX and M2 store, but Blender's glTF importer (3.4 to
//! 5.0) reads only the keys' values and gives them automatic handles ("TODO manage tangent?"):
//! a Warcraft III bone keyed with Hermite tangents plays another curve there (evilakama's bone 3
//! in Walk: −1.40 where the curve is at −1.81). Unless [`crate::ExportOptions::keep_tangents`]
//! is set, each segment becomes as few linear keys as follow the curve within [`TOLERANCE`]
//! ([`fewest_linear_steps`]), up to [`MOST_STEPS`]; every viewer then plays the game's curve.

use relic_core::model::{Channel, ChannelValues, Interpolation};
use relic_core::sample::{Sample, fewest_linear_steps, rotation_gap};

/// Most linear keys one segment becomes.
pub(super) const MOST_STEPS: usize = 128;
/// How far (per component, plus [`RELATIVE`] of the value) the linear keys may leave the curve
/// at the quarter points between two of them.
pub(super) const TOLERANCE: f32 = crate::keys::CURVE_TOLERANCE;
/// The share of a value's size added to [`TOLERANCE`].
const RELATIVE: f32 = crate::keys::CURVE_RELATIVE;

/// Most linear keys one channel becomes: a channel whose curve needs more stays a cubic spline
/// (glTF's exact form of it), with a note. It bounds what a file of wild tangents costs.
pub(super) const MOST_KEYS: usize = 20_000;

/// What a cubic-spline channel becomes.
pub(super) enum Linear {
    /// Linear keys on the curve, and how many segments needed more than [`MOST_STEPS`] keys.
    Keys(Channel, usize),
    /// The curve needs more than [`MOST_KEYS`] keys: left a cubic spline.
    TooMany,
}

/// A cubic-spline channel as linear keys: its values alone for one key (glTF wants two keys or
/// more for CUBICSPLINE, the validator's ANIMATION_SAMPLER_INPUT_ACCESSOR_TOO_FEW_ELEMENTS);
/// with `resample`, every channel, on its curve. `None` for any other channel (and for a cubic
/// one of two keys or more without `resample`).
pub(super) fn as_linear(ch: &Channel, resample: bool) -> Option<Linear> {
    if ch.interpolation != Interpolation::CubicSpline || (ch.times.len() > 1 && !resample) {
        return None;
    }
    // The steps of every segment first: a channel over the budget is not built.
    let segments = || ch.times.iter().zip(ch.times.iter().skip(1));
    let mut steps = Vec::with_capacity(ch.times.len());
    let mut keys = 1;
    for (&t0, &t1) in segments() {
        let at = |s: f32| ch.sample(t0 + (t1 - t0) * s);
        let n = fewest_linear_steps(at, &[1, 2, 4, 8, 16, 32, 64, MOST_STEPS], within);
        keys += n.unwrap_or(MOST_STEPS);
        if keys > MOST_KEYS {
            return Some(Linear::TooMany);
        }
        steps.push(n);
    }
    let coarse = steps.iter().filter(|n| n.is_none()).count();
    let mut times = Vec::with_capacity(keys);
    let mut samples = Vec::with_capacity(keys);
    for ((&t0, &t1), n) in segments().zip(steps) {
        let n = n.unwrap_or(MOST_STEPS);
        for j in 0..n {
            let s = j as f32 / n as f32;
            if let Some(v) = ch.sample(t0 + (t1 - t0) * s) {
                times.push(if j == 0 { t0 } else { t0 + (t1 - t0) * s });
                samples.push(v);
            }
        }
    }
    if let Some((&t, v)) = ch.times.last().zip(ch.times.last().and_then(|&t| ch.sample(t))) {
        times.push(t);
        samples.push(v);
    }
    let values = match &ch.values {
        ChannelValues::Translation(_) => ChannelValues::Translation(vectors(&samples)),
        ChannelValues::Scale(_) => ChannelValues::Scale(vectors(&samples)),
        ChannelValues::Rotation(_) => ChannelValues::Rotation(
            samples.iter().filter_map(|s| if let Sample::Rotation(q) = s { Some(*q) } else { None }).collect(),
        ),
    };
    Some(Linear::Keys(Channel { interpolation: Interpolation::Linear, times, values, ..ch.clone() }, coarse))
}

fn vectors(samples: &[Sample]) -> Vec<[f32; 3]> {
    samples.iter().filter_map(|s| if let Sample::Vector(v) = s { Some(*v) } else { None }).collect()
}

/// Whether a linear value is within [`TOLERANCE`] of the curve's, per component (plus
/// [`RELATIVE`] of it; a rotation against the curve's or its opposite quaternion).
fn within(linear: Sample, exact: Sample) -> bool {
    let near = |x: f32, y: f32| (x - y).abs() <= TOLERANCE + RELATIVE * y.abs();
    match (linear, exact) {
        (Sample::Vector(l), Sample::Vector(e)) => l.iter().zip(&e).all(|(x, y)| near(*x, *y)),
        // Unit quaternions: the relative share is at most RELATIVE.
        (Sample::Rotation(l), Sample::Rotation(e)) => rotation_gap(l, e) <= TOLERANCE + RELATIVE,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use relic_core::model::Clock;

    use super::*;

    /// A Hermite translation from 0 to 1 in one second, leaving and arriving with `slope`
    /// (in-tangent, value, out-tangent per key).
    fn hermite(slope: f32) -> Channel {
        Channel {
            bone: 0,
            clock: Clock::Animation,
            interpolation: Interpolation::CubicSpline,
            times: vec![0.0, 1.0],
            values: ChannelValues::Translation(vec![
                [0.0; 3],
                [0.0; 3],
                [slope, 0.0, 0.0],
                [-slope, 0.0, 0.0],
                [1.0; 3],
                [0.0; 3],
            ]),
        }
    }

    #[test]
    fn a_hermite_segment_becomes_linear_keys_on_its_curve() {
        let ch = hermite(0.5);
        let Some(Linear::Keys(linear, coarse)) = as_linear(&ch, true) else { panic!("not resampled") };
        assert_eq!((linear.interpolation, coarse), (Interpolation::Linear, 0));
        assert!(linear.times.len() > 4, "{:?}", linear.times);
        assert_eq!((linear.times.first(), linear.times.last()), (Some(&0.0), Some(&1.0)));
        for k in 0..=200 {
            let t = k as f32 / 200.0;
            let (Some(Sample::Vector(a)), Some(Sample::Vector(b))) = (linear.sample(t), ch.sample(t)) else {
                panic!("no sample at {t}")
            };
            assert!(a.iter().zip(&b).all(|(x, y)| (x - y).abs() <= 2.0 * TOLERANCE), "{t}: {a:?} {b:?}");
        }
        // The keys' own values are kept.
        assert_eq!(linear.sample(1.0), Some(Sample::Vector([1.0; 3])));
        // A curve too tight for the most keys a segment becomes is counted.
        let Some(Linear::Keys(tight, coarse)) = as_linear(&hermite(1000.0), true) else { panic!("not resampled") };
        assert_eq!((tight.times.len(), coarse), (MOST_STEPS + 1, 1));
        // A channel whose curve would need more keys than the budget stays a cubic spline.
        let n = MOST_KEYS / MOST_STEPS + 2;
        let times: Vec<f32> = (0..n).map(|k| k as f32).collect();
        let values = (0..n).flat_map(|k| [[1000.0, 0.0, 0.0], [(k % 2) as f32; 3], [1000.0, 0.0, 0.0]]).collect();
        let wild = Channel { times, values: ChannelValues::Translation(values), ..hermite(0.0) };
        assert!(matches!(as_linear(&wild, true), Some(Linear::TooMany)));
    }

    #[test]
    fn kept_tangents_leave_a_curve_alone_but_a_lone_key_is_linear() {
        assert!(as_linear(&hermite(2.0), false).is_none());
        let lone = Channel {
            times: vec![0.5],
            values: ChannelValues::Scale(vec![[0.0; 3], [2.0; 3], [0.0; 3]]),
            ..hermite(0.0)
        };
        let Some(Linear::Keys(linear, _)) = as_linear(&lone, false) else { panic!("a lone key stays cubic") };
        assert_eq!((linear.times, linear.values), (vec![0.5], ChannelValues::Scale(vec![[2.0; 3]])));
        let linear_channel = Channel { interpolation: Interpolation::Linear, ..lone };
        assert!(as_linear(&linear_channel, true).is_none());
    }
}
