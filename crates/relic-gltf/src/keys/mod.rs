//! Baked keys reduced to the keys the motion needs: those another tool baked (Blender samples every
//! channel at every frame on export) on import, and relic's own bakes (bones glTF cannot compose,
//! global sequences) on export. A key is dropped when interpolating its neighbours reproduces it
//! within a tolerance per channel kind ([`Tolerance`]). Cubic channels are kept as they are.
//!
//! | channel | [`Tolerance::FINE`] | [`Tolerance::CURVE`] | why |
//! |---|---|---|---|
//! | translation | 1e-4 model units per component | 1e-3 + 5e-5 of the channel's largest value | far below what the games' box proofs tell apart (0.01) |
//! | rotation | 1e-4 per quaternion component (≈ 2e-4 rad) | 1e-3 (≈ 2e-3 rad) | a vertex 100 units from its bone moves by 0.02 (0.2) at most |
//! | scale | 1e-5 per component | 1e-3 + 5e-5 of the largest | |
//!
//! `CURVE` is the tolerance relic's export follows a cubic spline within (`export::cubic`). Keys
//! another tool baked are reduced to it where the glTF carries no game file and the model came
//! from a game that keys each channel on its own (WoW M2, Warcraft III MDX, as recorded in the
//! glTF's node names): finer keys would follow the export's own steps, not the motion
//! (PackHorse.mdx's Hermite clips came back from Blender as 4.3 times their keys at `FINE`, a
//! file 1.67 times its size). `FINE` elsewhere:
//!
//! * relic's own bakes;
//! * a glTF that carries its game file: that model is judged against the file's
//!   (`relic_core::still`, within 2e-3), and the export's 1e-3 and a reduction of 1e-3 could add
//!   up past it;
//! * a model from LithTech or Nod, or from no game: ABC and LTB key every node at a clip's shared
//!   key times, which their writers find again from the frames (`relic_core::rekey`, the corners
//!   between two frames): a coarser reduction keeps each channel's keys at other frames, and
//!   PARTNER_DANCIN.ABC came back with 1355 keyframes for its 580 (799 at `FINE`).
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

/// How far a linear key relic writes may leave the curve it stands for, per component: the
/// export's cubic splines as linear keys, and [`Tolerance::CURVE`].
pub(crate) const CURVE_TOLERANCE: f32 = 1e-3;
/// The share of a value's size added to [`CURVE_TOLERANCE`].
pub(crate) const CURVE_RELATIVE: f32 = 5e-5;

/// The largest error a dropped key may leave, per channel kind and component.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Tolerance {
    /// Translation, in model units.
    pub(crate) translation: f32,
    /// Rotation, per component of the unit quaternion.
    pub(crate) rotation: f32,
    /// Scale.
    pub(crate) scale: f32,
    /// The share of the channel's largest value (absolute, any component) added to the
    /// translation's and the scale's.
    pub(crate) relative: f32,
}

impl Tolerance {
    /// relic's own bakes, and a glTF that carries its game file (see the module's notes).
    pub(crate) const FINE: Tolerance = Tolerance { translation: 1e-4, rotation: 1e-4, scale: 1e-5, relative: 0.0 };
    /// Keys another tool baked from a model without its game file: the export's curve tolerance.
    pub(crate) const CURVE: Tolerance = Tolerance {
        translation: CURVE_TOLERANCE,
        rotation: CURVE_TOLERANCE,
        scale: CURVE_TOLERANCE,
        relative: CURVE_RELATIVE,
    };

    /// The tolerance of a translation or scale channel of these values (`base`: its kind's).
    fn of_vectors(&self, base: f32, values: &[[f32; 3]]) -> f32 {
        let largest = values.iter().flatten().map(|v| v.abs()).filter(|v| v.is_finite()).fold(0.0, f32::max);
        base + self.relative * largest
    }
}

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
fn kept(channel: &Channel, tolerance: Tolerance) -> Vec<usize> {
    let (times, step) = (channel.times.as_slice(), channel.interpolation == Interpolation::Step);
    match &channel.values {
        ChannelValues::Translation(v) => {
            span::keep(&mut Linear::new(times, v, tolerance.of_vectors(tolerance.translation, v), step))
        }
        ChannelValues::Scale(v) => {
            span::keep(&mut Linear::new(times, v, tolerance.of_vectors(tolerance.scale, v), step))
        }
        ChannelValues::Rotation(q) => span::keep(&mut Rotation::new(times, q, tolerance.rotation, step)),
    }
}

fn pick<T: Copy>(values: &[T], kept: &[usize]) -> Vec<T> {
    kept.iter().filter_map(|&i| values.get(i).copied()).collect()
}

/// Reduces a linear or step channel in place, within `tolerance`; returns how many keys were
/// dropped.
pub(crate) fn reduce(channel: &mut Channel, tolerance: Tolerance) -> usize {
    // A channel whose values do not match its keys one to one is left as it is, for the model's
    // validation to refuse: below, every key index is also a value's.
    if channel.interpolation == Interpolation::CubicSpline || channel.values.len() != channel.times.len() {
        return 0;
    }
    #[cfg(test)]
    tests::record(channel, tolerance);
    let kept = kept(channel, tolerance);
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
/// [`Tolerance::FINE`]: such a channel changes nothing (a model without it samples the rest pose), and an
/// editor writes one for every bone and property.
pub(crate) fn holds_rest(channel: &Channel, rest: &relic_core::model::Transform) -> bool {
    let Tolerance { translation, rotation, scale, .. } = Tolerance::FINE;
    match &channel.values {
        ChannelValues::Translation(v) => v.iter().all(|t| near(*t, rest.translation, translation)),
        ChannelValues::Scale(v) => v.iter().all(|s| near(*s, rest.scale, scale)),
        ChannelValues::Rotation(q) => {
            q.iter().all(|q| near(*q, rest.rotation, rotation) || near(q.map(|c| -c), rest.rotation, rotation))
        }
    }
}
