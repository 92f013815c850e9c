//! Key times back to a game file's after a tool baked the animation.
//!
//! Blender's exporter samples every channel at every frame (24 per second), so a clip keyed at 20
//! times comes back keyed at 200 (fewer after relic-gltf's key reduction). Formats that keep
//! their files' key times in their extras (ABC, LTB) key such a clip at them again. The original
//! clip is a piecewise-linear curve with its corners at the stored times; the baked keys are
//! samples of it. Sampling the baked curve at the stored times would cut every corner that does
//! not fall on a frame, so the values at the stored times are instead *fitted*: the
//! piecewise-linear curve with corners at the stored times closest (least squares) to the channel
//! at its own keys (frames of the original) and at stored times far from any key (inside a stretch
//! the key reduction found straight).
//!
//! The fit is kept when it reproduces every one of those samples within
//! [`TRANSLATION_TOLERANCE`] / [`ROTATION_TOLERANCE`]; a clip edited in the tool (a pose changed
//! between stored times, keys past the stored end) does not, and keeps its own keys.
//!
//! (Shared by every format that keys clips at stored times: relic-abc's `from_ir::resample` and
//! relic-ltb.)

use crate::model::{Animation, Channel, ChannelValues, Interpolation};
use crate::sample::Sample;

/// How far (game units, per coordinate) the fitted curve may be from a baked sample.
pub const TRANSLATION_TOLERANCE: f32 = 2e-3;
/// How far (per quaternion component, normalised; 5e-3 is about 0.6°) the fitted curve may be
/// from a baked sample. The fit meets Blender's samples within 2e-3 but where two stored keys
/// straddle a frame closely (PARTNER_DANCIN "Expire": a sample 4 ms before a key).
pub const ROTATION_TOLERANCE: f32 = 5e-3;
/// How close (seconds) a stored time may be to a key of the channel and still be observed
/// directly: one 24 fps frame.
const FRAME: f32 = 1.0 / 24.0;
/// Weight of the pull towards the channel's own value at a stored time (keeps a stored time no
/// sample constrains — two stored keys within one frame — where the channel is).
const PULL: f64 = 1e-4;
/// How close (seconds) a sample must be to a stored time to be taken as the value there: f32
/// rounding of the same time.
const ON_KNOT_SECONDS: f32 = 1e-5;

/// The channel's value at `t` (seconds) as a flat list: a vector or a quaternion.
fn value(channel: &Channel, t: f32) -> Option<Vec<f64>> {
    match channel.sample(t)? {
        Sample::Vector(v) => Some(v.iter().map(|&c| f64::from(c)).collect()),
        Sample::Rotation(q) => Some(q.iter().map(|&c| f64::from(c)).collect()),
    }
}

/// The animation keyed at `knots` (seconds, strictly increasing) with every channel fitted there,
/// or `None` if a channel does not fit (see the module docs).
pub fn rekeyed(anim: &Animation, knots: &[f32]) -> Option<Animation> {
    let knots = knots.to_vec();
    let (&first, &last) = (knots.first()?, knots.last()?);
    let mut out = anim.clone();
    if (anim.duration - last).abs() <= FRAME {
        out.duration = last;
    }
    for channel in &mut out.channels {
        let (&a, &b) = (channel.times.first()?, channel.times.last()?);
        if a < first - FRAME || b > last + FRAME || channel.interpolation == Interpolation::CubicSpline {
            return None;
        }
        let fitted = fit(channel, &knots)?;
        channel.values = match channel.values {
            ChannelValues::Translation(_) => ChannelValues::Translation(fitted.iter().map(|v| array(v, 1.0)).collect()),
            ChannelValues::Rotation(_) => ChannelValues::Rotation(
                fitted
                    .iter()
                    .map(|v| array(v, v.iter().map(|c| c * c).sum::<f64>().sqrt().max(f64::MIN_POSITIVE)))
                    .collect(),
            ),
            ChannelValues::Scale(_) => ChannelValues::Scale(fitted.iter().map(|v| array(v, 1.0)).collect()),
        };
        channel.times = knots.clone();
        channel.interpolation = Interpolation::Linear;
    }
    Some(out)
}

/// The first `N` components of `v` (a fitted vector or quaternion, `N` long), divided by `by`.
fn array<const N: usize>(v: &[f64], by: f64) -> [f32; N] {
    let mut out = [0.0; N];
    for (o, c) in out.iter_mut().zip(v) {
        *o = (c / by) as f32;
    }
    out
}

/// The samples a channel's fit must pass through: its keys, and the stored times more than a
/// frame from any key. Quaternions are put on one side (each with a non-negative dot product
/// with the one before).
fn samples(channel: &Channel, knots: &[f32]) -> Option<Vec<(f32, Vec<f64>)>> {
    let far = knots.iter().copied().filter(|&k| {
        let i = channel.times.partition_point(|&t| t < k);
        let gap = |j: Option<usize>| j.and_then(|j| channel.times.get(j)).is_none_or(|&t| (t - k).abs() > FRAME);
        gap(i.checked_sub(1)) && gap(Some(i))
    });
    let mut times: Vec<f32> = channel.times.iter().copied().chain(far).collect();
    times.sort_by(f32::total_cmp);
    times.dedup();
    let mut out: Vec<(f32, Vec<f64>)> = Vec::with_capacity(times.len());
    for t in times {
        let mut v = value(channel, t)?;
        let rotation = matches!(channel.values, ChannelValues::Rotation(_));
        if rotation
            && let Some((_, p)) = out.last()
            && p.iter().zip(&v).map(|(a, b)| a * b).sum::<f64>() < 0.0
        {
            v.iter_mut().for_each(|c| *c = -*c);
        }
        out.push((t, v));
    }
    Some(out)
}

/// Where `t` falls among the knots: the segment's first knot and the share of the segment.
fn segment(knots: &[f32], t: f32) -> (usize, f64) {
    let n = knots.len();
    let k = knots.partition_point(|&x| x <= t).clamp(1, n.max(2) - 1) - 1;
    let (t0, t1) = (knots.get(k).copied().unwrap_or(t), knots.get(k + 1).copied().unwrap_or(t));
    let s = if t1 > t0 { f64::from(((t - t0) / (t1 - t0)).clamp(0.0, 1.0)) } else { 0.0 };
    (k, s)
}

/// The fitted curve at `t`.
fn curve(knots: &[f32], values: &[Vec<f64>], t: f32) -> Vec<f64> {
    let (k, s) = segment(knots, t);
    // One value per knot (`solve`): `k` is a knot, `j` the next one or past the last.
    let at = |j: usize| values.get(j).or(values.get(k)).cloned().unwrap_or_default();
    if knots.len() == 1 {
        return at(0);
    }
    at(k).iter().zip(at(k + 1)).map(|(a, b)| a * (1.0 - s) + b * s).collect()
}

/// One least-squares solve: the values at the knots closest to `obs`, pulled towards `pull`.
fn solve(knots: &[f32], obs: &[(f32, Vec<f64>)], pull: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = knots.len();
    // Normal equations: diagonal, off-diagonal to the next knot, right-hand sides.
    let mut diag = vec![PULL; n];
    let mut upper = vec![0.0f64; n];
    let mut rhs: Vec<Vec<f64>> = pull.iter().map(|p| p.iter().map(|c| c * PULL).collect()).collect();
    for (t, v) in obs {
        let (k, s) = segment(knots, *t);
        let (w0, w1) = if n == 1 { (1.0, 0.0) } else { (1.0 - s, s) };
        *diag.get_mut(k)? += w0 * w0;
        if n > 1 {
            *diag.get_mut(k + 1)? += w1 * w1;
            *upper.get_mut(k)? += w0 * w1;
        }
        for (d, c) in v.iter().enumerate() {
            *rhs.get_mut(k)?.get_mut(d)? += w0 * c;
            if n > 1 {
                *rhs.get_mut(k + 1)?.get_mut(d)? += w1 * c;
            }
        }
    }
    thomas(&diag, &upper, &rhs)
}

/// Least-squares values at `knots` of the piecewise-linear curve through the channel's samples
/// (a tridiagonal system per component), checked against the samples. Rotations: Blender
/// evaluates quaternion keys per component and normalises, so a baked sample is the direction of
/// the linear curve, not a point on it; each sample is rescaled to the fitted curve's length there
/// and the fit repeated until it settles.
fn fit(channel: &Channel, knots: &[f32]) -> Option<Vec<Vec<f64>>> {
    let obs = samples(channel, knots)?;
    let rotation = matches!(channel.values, ChannelValues::Rotation(_));
    let mut pull: Vec<Vec<f64>> = knots.iter().map(|&k| value(channel, k)).collect::<Option<_>>()?;
    // Keep the pull on the samples' side of the quaternion sphere.
    for (p, &t) in pull.iter_mut().zip(knots) {
        let near = obs.iter().min_by(|a, b| (a.0 - t).abs().total_cmp(&(b.0 - t).abs()))?;
        if p.iter().zip(&near.1).map(|(a, b)| a * b).sum::<f64>() < 0.0 {
            p.iter_mut().for_each(|c| *c = -*c);
        }
    }
    let mut solved = solve(knots, &obs, &pull)?;
    for _ in 0..if rotation { 4 } else { 0 } {
        let scaled: Vec<(f32, Vec<f64>)> = obs
            .iter()
            .map(|(t, v)| {
                let length = curve(knots, &solved, *t).iter().map(|c| c * c).sum::<f64>().sqrt();
                (*t, v.iter().map(|c| c * length).collect())
            })
            .collect();
        solved = solve(knots, &scaled, &pull)?;
    }
    if !reproduces(knots, &solved, &obs, rotation) {
        return None;
    }
    // A baked curve passes exactly through its keys: where a sample was taken at a stored time
    // itself, that sample is the stored value (up to the tool's rounding) and replaces the fit's
    // (which spreads its neighbours' error onto it — a v6 model's bind pose is its first clip's
    // first key, and an error there moves every vertex). Kept if the curve still fits.
    let mut snapped = solved.clone();
    for (knot, value) in knots.iter().zip(&mut snapped) {
        if let Some((_, v)) = obs.iter().find(|(t, _)| (t - knot).abs() <= ON_KNOT_SECONDS) {
            let length = if rotation { value.iter().map(|c| c * c).sum::<f64>().sqrt() } else { 1.0 };
            *value = v.iter().map(|c| c * length).collect();
        }
    }
    Some(if reproduces(knots, &snapped, &obs, rotation) { snapped } else { solved })
}

/// Whether the curve through `values` at `knots` passes every sample within the tolerance.
fn reproduces(knots: &[f32], values: &[Vec<f64>], obs: &[(f32, Vec<f64>)], rotation: bool) -> bool {
    let tolerance = f64::from(if rotation { ROTATION_TOLERANCE } else { TRANSLATION_TOLERANCE });
    obs.iter().all(|(t, v)| {
        let mut y = curve(knots, values, *t);
        if rotation {
            let norm = y.iter().map(|c| c * c).sum::<f64>().sqrt();
            if norm > 0.0 {
                y.iter_mut().for_each(|c| *c /= norm);
            }
        }
        y.iter().zip(v).all(|(y, c)| (y - c).abs() <= tolerance)
    })
}

/// Solves a symmetric tridiagonal system (`diag`, `upper[i]` between i and i + 1) for each
/// right-hand-side component.
fn thomas(diag: &[f64], upper: &[f64], rhs: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    // Forward sweep: (pivot, right-hand side) of each row after eliminating the row before.
    let mut rows: Vec<(f64, Vec<f64>)> = Vec::with_capacity(diag.len());
    for ((&b, r), i) in diag.iter().zip(rhs).zip(0usize..) {
        let row = match rows.last() {
            Some((pb, pr)) => {
                let u = upper.get(i.checked_sub(1)?).copied()?;
                let m = u / pb;
                if !m.is_finite() {
                    return None;
                }
                (b - m * u, r.iter().zip(pr).map(|(x, p)| x - m * p).collect())
            }
            None => (b, r.clone()),
        };
        rows.push(row);
    }
    // Back substitution.
    let mut x: Vec<Vec<f64>> = Vec::with_capacity(rows.len());
    for (i, (b, r)) in rows.iter().enumerate().rev() {
        // The last row has no term above the diagonal.
        let u = upper.get(i).copied().unwrap_or(0.0);
        let value: Vec<f64> = match x.last() {
            Some(next) => r.iter().zip(next).map(|(v, nx)| (v - u * nx) / b).collect(),
            None => r.iter().map(|v| v / b).collect(),
        };
        x.push(value);
    }
    x.reverse();
    x.iter().flatten().all(|v| v.is_finite()).then_some(x)
}

/// How far (game units, per coordinate) a dropped key's translation may be from the line
/// between the keys kept around it.
pub const REDUCE_TRANSLATION: f32 = 1e-3;
/// How far (per quaternion component) a dropped key's rotation may be from the interpolation
/// between the keys kept around it (2e-4 ≈ 0.02°).
pub const REDUCE_ROTATION: f32 = 2e-4;

/// Whether key times (ms) look baked by a tool: at least 8 keys, all on the frames of one common
/// frame rate (24, 25, 30 or 60 per second, within the 1 ms rounding), as Blender's exporter
/// writes them (relic-gltf's key reduction keeps a subset of those frames).
pub fn looks_baked(times: &[u32]) -> bool {
    let on_frames = |fps: f64| {
        times.iter().all(|&t| {
            let frames = f64::from(t) * fps / 1000.0;
            (frames - frames.round()).abs() * 1000.0 / fps <= 1.0
        })
    };
    times.len() >= 8 && [24.0, 25.0, 30.0, 60.0].into_iter().any(on_frames)
}

/// The key times (ms) of a baked clip without stored ones, reduced: a time is dropped while every
/// channel's value there is within [`REDUCE_TRANSLATION`] / [`REDUCE_ROTATION`] of the
/// interpolation between the times kept around it (ABC keys every node at every key time, so a
/// time stays when any channel needs it). First and last times stay.
pub fn reduced(anim: &Animation, times: &[u32]) -> Vec<u32> {
    let secs: Vec<f32> = times.iter().map(|&t| t as f32 / 1000.0).collect();
    let values: Vec<Vec<Option<Vec<f64>>>> =
        anim.channels.iter().map(|c| secs.iter().map(|&t| value(c, t)).collect()).collect();
    let fits = |a: usize, b: usize| {
        anim.channels.iter().zip(&values).all(|(c, vals)| {
            let rotation = matches!(c.values, ChannelValues::Rotation(_));
            let tolerance = f64::from(if rotation { REDUCE_ROTATION } else { REDUCE_TRANSLATION });
            let (Some(Some(va)), Some(Some(vb))) = (vals.get(a), vals.get(b)) else { return true };
            // `a`, `b` and every `k` between them index `secs` (one time per value).
            let (ta, tb) = (secs.get(a).copied().unwrap_or(0.0), secs.get(b).copied().unwrap_or(0.0));
            let flip = rotation && va.iter().zip(vb).map(|(x, y)| x * y).sum::<f64>() < 0.0;
            (a + 1..b).all(|k| {
                let Some(Some(vk)) = vals.get(k) else { return true };
                let s = f64::from((secs.get(k).copied().unwrap_or(0.0) - ta) / (tb - ta).max(f32::MIN_POSITIVE));
                let mut y: Vec<f64> =
                    va.iter().zip(vb).map(|(x, y)| x + ((if flip { -y } else { *y }) - x) * s).collect();
                if rotation {
                    let n = y.iter().map(|c| c * c).sum::<f64>().sqrt().max(f64::MIN_POSITIVE);
                    y.iter_mut().for_each(|c| *c /= n);
                    if y.iter().zip(vk).map(|(a, b)| a * b).sum::<f64>() < 0.0 {
                        y.iter_mut().for_each(|c| *c = -*c);
                    }
                }
                y.iter().zip(vk).all(|(y, v)| (y - v).abs() <= tolerance)
            })
        })
    };
    let mut kept = Vec::with_capacity(times.len());
    let mut a = 0usize;
    kept.extend(times.first().copied());
    while a + 1 < times.len() {
        let mut b = a + 1;
        while b + 1 < times.len() && fits(a, b + 1) {
            b += 1;
        }
        kept.extend(times.get(b).copied());
        a = b;
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Clock;

    /// The original: a translation keyed at 0, 0.1 and 0.3 s (a corner at 0.1 s, between
    /// frames); baked at every 24th of a second, `edit` added to the frame at 0.25 s.
    fn baked(edit: f32) -> Animation {
        let original = |t: f32| if t <= 0.1 { t * 10.0 } else { 1.0 + (t - 0.1) * 5.0 };
        let times: Vec<f32> = (0..=8).map(|f| (f as f32 / 24.0).min(0.3)).collect();
        let values =
            times.iter().map(|&t| [original(t) + if (t - 0.25).abs() < 1e-4 { edit } else { 0.0 }, 0.0, 0.0]).collect();
        Animation {
            channels: vec![Channel {
                bone: 0,
                clock: Clock::Animation,
                interpolation: Interpolation::Linear,
                times,
                values: ChannelValues::Translation(values),
            }],
            ..Animation::default()
        }
    }

    fn at(anim: &Animation, k: usize) -> f32 {
        match &anim.channels[0].values {
            ChannelValues::Translation(v) => v[k][0],
            _ => f32::NAN,
        }
    }

    #[test]
    fn the_corner_between_frames_comes_back() {
        let rekeyed = rekeyed(&baked(0.0), &[0.0, 0.1, 0.3]).expect("fits");
        assert_eq!(rekeyed.channels[0].times, vec![0.0, 0.1, 0.3]);
        // Sampling the baked curve at 0.1 s gives 0.95 (the corner cut); the fit gives 1.
        assert!((at(&rekeyed, 1) - 1.0).abs() < 1e-4, "{}", at(&rekeyed, 1));
        assert!((at(&rekeyed, 2) - 2.0).abs() < 1e-4);
    }

    #[test]
    fn an_edited_clip_keeps_its_keys() {
        assert!(rekeyed(&baked(0.5), &[0.0, 0.1, 0.3]).is_none());
        // The stored times miss the corner.
        assert!(rekeyed(&baked(0.0), &[0.0, 0.3]).is_none());
        // Keys past the stored end.
        assert!(rekeyed(&baked(0.0), &[0.0, 0.1, 0.2]).is_none());
    }

    #[test]
    fn baked_keys_reduce_to_the_corners() {
        let mut anim = baked(0.0);
        if let Some(c) = anim.channels.first_mut() {
            c.times = vec![0.0, 0.125, 0.333];
            c.values = ChannelValues::Translation(vec![[0.0; 3], [1.0, 0.0, 0.0], [2.0, 0.0, 0.0]]);
        }
        // Every frame at 24 fps, in ms.
        let times: Vec<u32> = (0..=8).map(|f| (f64::from(f) * 1000.0 / 24.0).round() as u32).collect();
        assert!(looks_baked(&times));
        // The curve bends at 125 ms (frame 3) only: 0, 125 and 333 stay.
        assert_eq!(reduced(&anim, &times), vec![0, 125, 333]);
        assert!(!looks_baked(&[0, 100, 300]));
        // Frames of 24 fps, some dropped by a key reduction, rounded to ms.
        assert!(looks_baked(&[0, 42, 83, 167, 250, 292, 333, 417, 1000]));
        assert!(!looks_baked(&[0, 42, 83, 167, 250, 292, 333, 417, 1010]));
    }

    #[test]
    fn tridiagonal_solve() {
        // [2 1 0; 1 2 1; 0 1 2] x = [4 8 8] → x = [1 2 3].
        let x = thomas(&[2.0, 2.0, 2.0], &[1.0, 1.0, 0.0], &[vec![4.0], vec![8.0], vec![8.0]]).expect("solves");
        for (xi, want) in x.iter().zip([1.0, 2.0, 3.0]) {
            assert!((xi[0] - want).abs() < 1e-9);
        }
    }
}
