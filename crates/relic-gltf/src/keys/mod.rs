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
//!
//! Which keys stay is decided greedily from the first key (see [`span::keep`]): a span grows while
//! every key inside it lies on the interpolation between its ends ([`Motion::fits`], the test of
//! record), up to [`span::MAX_SPAN`] keys. Checking every inside key at every step cost up to 63
//! interpolations per key; the spans are now certified in constant time per key (see [`span`]),
//! with the same keys kept: the test of record runs wherever the certificate cannot decide.

mod linear;
mod rotation;
mod span;
#[cfg(test)]
mod tests;

pub(crate) use rotation::{MAX_ANGLE, angle};

use relic_core::model::{Channel, ChannelValues, Interpolation};

use linear::Linear;
use rotation::Rotation;

/// Largest error a dropped translation key may leave.
pub(crate) const TRANSLATION_TOLERANCE: f32 = 1e-4;
/// Largest error a dropped rotation key may leave (per component of the unit quaternion).
pub(crate) const ROTATION_TOLERANCE: f32 = 1e-4;
/// Largest error a dropped scale key may leave.
pub(crate) const SCALE_TOLERANCE: f32 = 1e-5;

fn near<const N: usize>(a: [f32; N], b: [f32; N], tolerance: f32) -> bool {
    a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tolerance)
}

/// Where key `k` lies between keys `a` and `b` (0 for step channels and empty spans).
fn fraction(times: &[f32], step: bool, a: usize, b: usize, k: usize) -> f32 {
    // `a`, `b` and `k` are keys of the channel (below `Motion::len`): the 0s are never taken.
    let (ta, tb, tk) = (
        times.get(a).copied().unwrap_or(0.0),
        times.get(b).copied().unwrap_or(0.0),
        times.get(k).copied().unwrap_or(0.0),
    );
    if step || tb <= ta { 0.0 } else { (tk - ta) / (tb - ta) }
}

/// The indices of the keys of `channel` to keep.
fn kept(channel: &Channel) -> Vec<usize> {
    let (times, step) = (channel.times.as_slice(), channel.interpolation == Interpolation::Step);
    match &channel.values {
        ChannelValues::Translation(v) => span::keep(&mut Linear::new(times, v, TRANSLATION_TOLERANCE, step)),
        ChannelValues::Scale(v) => span::keep(&mut Linear::new(times, v, SCALE_TOLERANCE, step)),
        ChannelValues::Rotation(q) => span::keep(&mut Rotation::new(times, q, step)),
    }
}

fn pick<T: Copy>(values: &[T], kept: &[usize]) -> Vec<T> {
    kept.iter().filter_map(|&i| values.get(i).copied()).collect()
}

/// Reduces a linear or step channel in place; returns how many keys were dropped.
pub(crate) fn reduce(channel: &mut Channel) -> usize {
    // A channel whose values do not match its keys one to one is left as it is, for the model's
    // validation to refuse: below, every key index is also a value's.
    if channel.interpolation == Interpolation::CubicSpline || channel.values.len() != channel.times.len() {
        return 0;
    }
    #[cfg(test)]
    tests::record(channel);
    let kept = kept(channel);
    let dropped = channel.times.len() - kept.len();
    if dropped > 0 {
        channel.times = pick(&channel.times, &kept);
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
