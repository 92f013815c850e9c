//! Quaternion Hermite and Bezier tracks as the game plays them: `squad` (spec §6.4: the viewer
//! the spec follows calls `quat.sqlerp(a, outTan_a, inTan_b, b, t)` for both), which neither
//! glTF nor the common model has. Such a track is resampled to linear keys (spec §7: "resample
//! rather than convert"): each segment into as few as reproduce the curve within [`TOLERANCE`]
//! at the quarter points of each ([`fewest_linear_steps`]), up to [`MOST_STEPS`] (a curve that needs more, its control quaternions far
//! off the keys' arc, is followed at that many points: 7e-3 off for a control quaternion 0.7 rad
//! ahead of a 1.2 rad turn).

use relic_core::sample::{Sample, fewest_linear_steps, normalize4, rotation_gap, slerp};

use super::seconds;

/// A key: its unit quaternion and its (in, out) control quaternions.
type Key = ([f32; 4], Option<[[f32; 4]; 2]>);

/// A key time (seconds from the clip's start, made from whole milliseconds) in milliseconds.
fn milliseconds(t: f32) -> i64 {
    (f64::from(t) * 1000.0).round() as i64
}

/// Most linear keys one segment becomes (the key budget counts a squad key as this many).
pub(crate) const MOST_STEPS: usize = 8;
/// How far (per component of the unit quaternion, about 0.06°) the linear keys may leave the
/// squad curve at the quarter points between two of them.
const TOLERANCE: f32 = 5e-4;

/// `squad(a, out_a, in_b, b; s)`: two slerps, blended by a third at `2s(1 − s)`.
pub(crate) fn squad(a: [f32; 4], out_a: [f32; 4], in_b: [f32; 4], b: [f32; 4], s: f32) -> [f32; 4] {
    normalize4(slerp(slerp(a, b, s), slerp(out_a, in_b, s), 2.0 * s * (1.0 - s)))
}

/// The keys (times and unit quaternions with their (in, out) control quaternions) as linear keys
/// on the squad curve between each two.
/// Also the segments that needed more than [`MOST_STEPS`] keys (followed at that many).
pub(super) fn resample(times: &[f32], keys: &[Key]) -> (Vec<f32>, Vec<[f32; 4]>, Capped) {
    let mut out_times = Vec::with_capacity(times.len());
    let mut out_values = Vec::with_capacity(keys.len());
    let mut coarse = Capped::default();
    for ((w, k), (t, next)) in times.windows(2).zip(keys.windows(2)).zip(times.iter().zip(keys.iter().skip(1))) {
        let (Some(&t1), Some((a, ta))) = (w.get(1), k.first()) else { continue };
        let (b, tb) = next;
        let out_a = ta.map_or(*a, |[_, o]| o);
        let in_b = tb.map_or(*b, |[i, _]| i);
        let curve = |s: f32| squad(*a, out_a, in_b, *b, s);
        let steps = steps(&curve).unwrap_or_else(|| {
            coarse.segments += 1;
            coarse.worst = coarse.worst.max(worst(&curve, MOST_STEPS));
            MOST_STEPS
        });
        // On whole milliseconds, the file's unit, so that the keys write back as they are.
        let (f0, f1) = (milliseconds(*t), milliseconds(t1));
        let mut last = None;
        for j in 0..steps as i64 {
            let f = f0 + (f1 - f0) * j / steps as i64;
            if last == Some(f) {
                continue;
            }
            last = Some(f);
            let s = if f1 > f0 { (f - f0) as f32 / (f1 - f0) as f32 } else { 0.0 };
            out_times.push(if f == f0 { *t } else { seconds(f) });
            out_values.push(curve(s));
        }
    }
    if let (Some(&t), Some((v, _))) = (times.last(), keys.last()) {
        out_times.push(t);
        out_values.push(*v);
    }
    (out_times, out_values, coarse)
}

/// Segments followed at [`MOST_STEPS`] keys though the curve needs more.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub(super) struct Capped {
    /// How many.
    pub(super) segments: usize,
    /// The farthest (per quaternion component) their linear keys are from the curve at the
    /// quarter points between two.
    pub(super) worst: f32,
}

/// How far `n` linear steps are from the curve at most, per component, at their quarter points.
fn worst(curve: &impl Fn(f32) -> [f32; 4], n: usize) -> f32 {
    let mut worst = 0.0f32;
    for j in 0..n {
        let (s0, s1) = (j as f32 / n as f32, (j + 1) as f32 / n as f32);
        for u in [0.25f32, 0.5, 0.75] {
            worst = worst.max(rotation_gap(slerp(curve(s0), curve(s1), u), curve(s0 + (s1 - s0) * u)));
        }
    }
    worst
}

/// The fewest linear steps (slerp between samples of the curve) that stay within [`TOLERANCE`]
/// of it ([`fewest_linear_steps`]); `None` when [`MOST_STEPS`] do not.
fn steps(curve: &impl Fn(f32) -> [f32; 4]) -> Option<usize> {
    let within = |linear: Sample, exact: Sample| match (linear, exact) {
        (Sample::Rotation(l), Sample::Rotation(e)) => rotation_gap(l, e) <= TOLERANCE,
        _ => false,
    };
    fewest_linear_steps(|s| Some(Sample::Rotation(curve(s))), &[1, 2, 4, MOST_STEPS], within)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn about_z(angle: f32) -> [f32; 4] {
        [0.0, 0.0, (angle / 2.0).sin(), (angle / 2.0).cos()]
    }

    #[test]
    fn squad_runs_from_key_to_key() {
        let (a, b) = (about_z(0.0), about_z(1.0));
        let (o, i) = (about_z(0.6), about_z(0.2));
        let close = |x: [f32; 4], y: [f32; 4]| x.iter().zip(&y).all(|(p, q)| (p - q).abs() < 1e-6);
        assert!(close(squad(a, o, i, b, 0.0), a));
        assert!(close(squad(a, o, i, b, 1.0), b));
        // Midway: slerp(a, b) and slerp(o, i) both give 0.5 rad and 0.4 rad; blended by 0.5.
        assert!(close(squad(a, o, i, b, 0.5), about_z(0.45)), "{:?}", squad(a, o, i, b, 0.5));
    }

    #[test]
    fn control_points_on_the_slerp_give_one_step_and_others_more() {
        let (a, b) = (about_z(0.0), about_z(1.0));
        let keys = |o: [f32; 4], i: [f32; 4]| vec![(a, Some([a, o])), (b, Some([i, b]))];
        // Control quaternions equal to the keys: squad is the slerp itself.
        let (t, v, capped) = resample(&[0.0, 1.0], &keys(a, b));
        assert_eq!((t.len(), v.len(), capped), (2, 2, Capped::default()));
        // Tangents off the arc's pace: more keys, still starting at a and ending at b.
        let (t, v, _) = resample(&[0.0, 1.0], &keys(about_z(0.9), about_z(0.9)));
        assert!(t.len() > 2 && t.len() <= MOST_STEPS + 1, "{t:?}");
        assert_eq!((v.first().copied(), v.last().copied()), (Some(a), Some(b)));
        assert!(t.windows(2).all(|w| w[0] < w[1]));
        // Control quaternions far off the arc (0.7 rad ahead of a 1 rad turn at both ends): followed at the
        // most keys, counted, with how far off they are.
        let (t, _, capped) = resample(&[0.0, 1.0], &keys(about_z(1.7), about_z(-0.7)));
        assert_eq!((t.len(), capped.segments), (MOST_STEPS + 1, 1));
        assert!(capped.worst > TOLERANCE && capped.worst < 2e-2, "{capped:?}");
    }
}
