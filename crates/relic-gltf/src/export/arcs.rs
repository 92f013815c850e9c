//! Linear rotation channels whose keys turn far, written as shorter arcs on the same curve.
//!
//! glTF's linear rotation is slerp, as the games play it; Blender's importer keys each
//! quaternion component on its own curve and normalises, which leaves the arc in the middle of a
//! long span (GnomePounder.m2's bone 3 in Stand.1 came back from Blender 3.6·10⁻³ off at
//! 0.042 s, and the bones that do not inherit its turn, baked against the game's arc, moved
//! with it). Each span turning more than [`crate::keys::MAX_ANGLE`] is cut into as many equal
//! spans as keep each within it, the keys between on slerp's arc: every viewer plays the game's
//! curve. The channel as stored goes to the clip's extras (relic's own import takes it from
//! there), as a baked one does.

use relic_core::model::{Channel, ChannelValues, Clock, Interpolation};
use relic_core::sample::Sample;

use crate::keys::{MAX_ANGLE, angle};

/// Most keys one channel becomes: a channel that would need more is written as it is.
const MOST_KEYS: usize = 20_000;

/// Whether `ch` is a linear rotation on its clip's clock with a span longer than [`MAX_ANGLE`]
/// (between the unit quaternions: half the turn) (and cut, under [`MOST_KEYS`]).
pub(super) fn long(ch: &Channel) -> bool {
    let ChannelValues::Rotation(q) = &ch.values else { return false };
    ch.interpolation == Interpolation::Linear
        && ch.clock == Clock::Animation
        && q.windows(2).any(|w| matches!(w, [a, b] if further(a, b)))
        && cut_count(q) <= MOST_KEYS
}

/// Whether the unit quaternions of `a` and `b` are further apart than [`MAX_ANGLE`]: their
/// cosine below its cosine (no arc tangent per key: every rotation channel of every clip is
/// asked).
fn further(a: &[f32; 4], b: &[f32; 4]) -> bool {
    let dot = |p: &[f32; 4], q: &[f32; 4]| p.iter().zip(q).map(|(x, y)| f64::from(*x) * f64::from(*y)).sum::<f64>();
    let lengths = (dot(a, a) * dot(b, b)).sqrt();
    lengths > 0.0 && dot(a, b).abs() < MAX_ANGLE.cos() * lengths
}

/// How many keys the channel of rotations `q` becomes.
fn cut_count(q: &[[f32; 4]]) -> usize {
    1 + q.windows(2).map(|w| if let [a, b] = w { pieces(*a, *b) } else { 1 }).sum::<usize>()
}

/// How many spans the span from `a` to `b` becomes.
fn pieces(a: [f32; 4], b: [f32; 4]) -> usize {
    (angle(a, b) / MAX_ANGLE).ceil().clamp(1.0, MOST_KEYS as f64) as usize
}

/// `ch` ([`long`]) with each long span cut: the stored keys kept, keys on the arc between.
pub(super) fn cut(ch: &Channel) -> Channel {
    let ChannelValues::Rotation(q) = &ch.values else { return ch.clone() };
    let mut times = Vec::with_capacity(cut_count(q));
    let mut values = Vec::with_capacity(times.capacity());
    for (k, (&t, &v)) in ch.times.iter().zip(q).enumerate() {
        if let (Some(&t1), Some(&v1)) = (ch.times.get(k + 1), q.get(k + 1)) {
            let n = pieces(v, v1);
            times.push(t);
            values.push(v);
            for i in 1..n {
                let at = t + (t1 - t) * (i as f32 / n as f32);
                if let Some(Sample::Rotation(r)) = ch.sample(at)
                    && at > t
                    && at < t1
                {
                    times.push(at);
                    values.push(r);
                }
            }
        } else {
            times.push(t);
            values.push(v);
        }
    }
    Channel { times, values: ChannelValues::Rotation(values), ..ch.clone() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quarter_turn_is_cut_into_arcs_no_longer_than_the_limit() {
        let z = |a: f32| [0.0, 0.0, (a / 2.0).sin(), (a / 2.0).cos()];
        let ch = Channel {
            bone: 0,
            clock: Clock::Animation,
            interpolation: Interpolation::Linear,
            times: vec![0.0, 1.0, 2.0],
            values: ChannelValues::Rotation(vec![z(0.0), z(std::f32::consts::FRAC_PI_2), z(1.6)]),
        };
        assert!(long(&ch));
        let cut = cut(&ch);
        let ChannelValues::Rotation(q) = &cut.values else { unreachable!() };
        // A quarter turn is 0.785 between the unit quaternions: 8 spans of 0.098; the last span
        // (0.015) stays one.
        assert_eq!(cut.times.len(), 10);
        assert!(q.windows(2).all(|w| angle(w[0], w[1]) <= MAX_ANGLE + 1e-6));
        assert_eq!((cut.times[8], q[8]), (1.0, z(std::f32::consts::FRAC_PI_2)));
        for t in [0.1, 0.55, 1.3] {
            let (Some(Sample::Rotation(a)), Some(Sample::Rotation(b))) = (ch.sample(t), cut.sample(t)) else {
                unreachable!()
            };
            assert!(angle(a, b) < 1e-5, "{t}");
        }
        let short = Channel { values: ChannelValues::Rotation(vec![z(0.0), z(0.05), z(0.1)]), ..ch };
        assert!(!long(&short));
    }
}
