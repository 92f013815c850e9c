//! Posing without the common model, straight from the file (spec §6):
//! `M_b = T(pivot) · T(translation) · R(rotation) · S(scale) · T(−pivot)`,
//! `W_b = W_parent · M_b`, a vertex goes to `Σ w_j / 255 · W_{bone_j} · v`.
//!
//! This is independent of `relic-anim` and of the model mapping, so the corpus check of the
//! sequence boxes ([`sequence_box_fits`]) tests the file's own animation math; the same proof
//! through the common model and `relic-anim` lives in the crate's tests. [`pruning_error`]
//! measures, on the common model, what dropping influences beyond 4 costs.

use std::borrow::Cow;

use relic_core::math::add3;
use relic_core::math::{IDENTITY, Mat4, from_trs, mul, transform_point};
use relic_core::model::{Aabb, Influence, Model};
use relic_core::sample::{Sample, hermite_weights, normalize4, slerp};

use crate::file::{M2File, Sequence};
use crate::to_ir::bone_order;
use crate::track::{
    INTERPOLATION_BEZIER, INTERPOLATION_HERMITE, INTERPOLATION_NONE, RotationTrack, Track, decode_quat,
};

/// The segment of `times` (ms, strictly increasing) that holds `t`, clamped outside, as
/// `(key, fraction)`: [`relic_core::sample::find_segment`] on the times as `f32`, without making
/// that list for every sample.
fn segment(times: &[u32], t: f32) -> (usize, f32) {
    let at = |i: usize| times.get(i).map_or(0.0, |&k| k as f32);
    let last = times.len().saturating_sub(1);
    if times.len() < 2 || t.is_nan() || t <= at(0) {
        return (0, 0.0);
    }
    if t >= at(last) {
        return (last, 0.0);
    }
    // The first key after t is at least key 1 here.
    let key = times.partition_point(|&k| k as f32 <= t).saturating_sub(1);
    let (a, b) = (at(key), at(key + 1));
    if b > a { (key, ((t - a) / (b - a)).clamp(0.0, 1.0)) } else { (key, 0.0) }
}

// Component indices run over 0..N of `[f32; N]` arrays.
/// Samples `N` components of a track at absolute time `t` (ms) for sequence `s`; `None` if the
/// track does not animate that sequence. Clamped outside the keys.
#[allow(clippy::too_many_arguments, clippy::indexing_slicing)]
fn sample_track<const N: usize>(
    interpolation: u16,
    global_sequence: i16,
    ranges: &[[u32; 2]],
    timestamps: &[u32],
    values: &[[f32; N]],
    s: usize,
    t_seq: f64,
    t_global: f64,
    globals: &[u32],
    rotation: bool,
) -> Option<[f32; N]> {
    let n = timestamps.len();
    if n == 0 {
        return None;
    }
    let (keys, t) = if let Ok(g) = usize::try_from(global_sequence) {
        let d = f64::from(globals.get(g).copied().unwrap_or(0));
        (0..n, if d > 0.0 { t_global.rem_euclid(d) } else { 0.0 })
    } else if ranges.is_empty() {
        (0..n, t_seq)
    } else {
        let [a, b] = *ranges.get(s)?;
        let (a, b) = (a as usize, b as usize);
        if a > b || b >= n {
            return None;
        }
        (a..b + 1, t_seq)
    };
    let ts = timestamps.get(keys.clone())?;
    let per_key = crate::track::values_per_key(interpolation);
    let vals = values.get(keys.start * per_key..keys.end * per_key)?;
    let (k, f) = segment(ts, t as f32);
    let key = |i: usize, j: usize| vals.get(i * per_key + j).copied();
    let p0 = key(k, 0)?;
    if f == 0.0 || interpolation == INTERPOLATION_NONE {
        return Some(p0);
    }
    let p1 = key(k + 1, 0)?;
    let out: [f32; N] = match interpolation {
        INTERPOLATION_HERMITE | INTERPOLATION_BEZIER => {
            let (o0, i1) = (key(k, 2)?, key(k + 1, 1)?);
            if interpolation == INTERPOLATION_HERMITE {
                let [h00, h10, h01, h11] = hermite_weights(f);
                std::array::from_fn(|c| h00 * p0[c] + h10 * o0[c] + h01 * p1[c] + h11 * i1[c])
            } else {
                let g = 1.0 - f;
                std::array::from_fn(|c| {
                    g * g * g * p0[c] + 3.0 * g * g * f * o0[c] + 3.0 * g * f * f * i1[c] + f * f * f * p1[c]
                })
            }
        }
        _ if rotation => {
            let q = slerp(to4(p0), to4(p1), f);
            std::array::from_fn(|c| q.get(c).copied().unwrap_or(0.0))
        }
        _ => std::array::from_fn(|c| p0[c] + (p1[c] - p0[c]) * f),
    };
    if rotation {
        let q = normalize4(to4(out));
        return Some(std::array::from_fn(|c| q.get(c).copied().unwrap_or(0.0)));
    }
    Some(out)
}

fn to4<const N: usize>(v: [f32; N]) -> [f32; 4] {
    std::array::from_fn(|i| v.get(i).copied().unwrap_or(0.0))
}

fn sample3(track: &Track<[f32; 3]>, s: usize, t: f64, tg: f64, globals: &[u32]) -> Option<[f32; 3]> {
    sample_track(
        track.interpolation,
        track.global_sequence,
        &track.ranges,
        &track.timestamps,
        &track.values,
        s,
        t,
        tg,
        globals,
        false,
    )
}

/// A file made ready for posing many times: the parents-first bone order and every rotation track
/// as float quaternions, worked out once (not once per pose).
#[derive(Debug, Clone)]
pub struct Poser<'a> {
    file: &'a M2File,
    order: Vec<usize>,
    /// Per bone, its rotation values as floats (borrowed for Classic files).
    rotations: Vec<Cow<'a, [[f32; 4]]>>,
}

impl<'a> Poser<'a> {
    /// Prepares `file`.
    pub fn new(file: &'a M2File) -> Self {
        let (order, _) = bone_order(file);
        let rotations = file
            .bones
            .iter()
            .map(|b| match &b.rotation {
                RotationTrack::Float(t) => Cow::Borrowed(t.values.as_slice()),
                RotationTrack::Compressed(t) => Cow::Owned(t.values.iter().map(|q| decode_quat(*q)).collect()),
            })
            .collect();
        Self { file, order, rotations }
    }

    /// Model-space bone matrices `W_b` (M2 frame) of sequence `s` at `tau` ms into it.
    /// `conjugate` deliberately inverts every rotation (for the test that shows a wrong convention
    /// fails).
    pub fn bone_matrices(&self, s: usize, tau: f64, ignore_pivots: bool, conjugate: bool) -> Vec<Mat4> {
        let file = self.file;
        let start = file.sequences.get(s).map_or(0.0, |q: &Sequence| f64::from(q.start));
        let (t, tg) = (start + tau, tau);
        let mut out = vec![IDENTITY; file.bones.len()];
        for &f in &self.order {
            let Some(b) = file.bones.get(f) else { continue };
            let tr = sample3(&b.translation, s, t, tg, &file.global_sequences).unwrap_or([0.0; 3]);
            let sc = sample3(&b.scale, s, t, tg, &file.global_sequences).unwrap_or([1.0; 3]);
            let (i, g, r, ts) = b.rotation.head();
            let values = self.rotations.get(f).map_or(&[][..], |v| v.as_ref());
            let mut q = sample_track(i, g, r, ts, values, s, t, tg, &file.global_sequences, true)
                .unwrap_or([0.0, 0.0, 0.0, 1.0]);
            if conjugate {
                q = [-q[0], -q[1], -q[2], q[3]];
            }
            let p = if ignore_pivots { [0.0; 3] } else { b.pivot };
            let local = mul(&from_trs(add3(p, tr), q, sc), &from_trs(p.map(|c| -c), [0.0, 0.0, 0.0, 1.0], [1.0; 3]));
            let parent = usize::try_from(b.parent).ok().and_then(|p| out.get(p)).copied();
            let global = parent.map_or(local, |w| mul(&w, &local));
            if let Some(o) = out.get_mut(f) {
                *o = global;
            }
        }
        out
    }

    /// The box (M2 frame) of every vertex posed for sequence `s` at `tau` ms.
    pub fn posed_box(&self, s: usize, tau: f64, ignore_pivots: bool, conjugate: bool) -> Option<Aabb> {
        let w = self.bone_matrices(s, tau, ignore_pivots, conjugate);
        let points = self.file.vertices.iter().map(|v| {
            let mut p = [0.0f32; 3];
            for (&wt, &b) in v.bone_weights.iter().zip(&v.bone_indices) {
                if wt == 0 {
                    continue;
                }
                let q = transform_point(w.get(usize::from(b)).unwrap_or(&IDENTITY), v.position);
                let f = f32::from(wt) / 255.0;
                p = [p[0] + f * q[0], p[1] + f * q[1], p[2] + f * q[2]];
            }
            p
        });
        points.fold(None, |acc: Option<Aabb>, p| Some(acc.map_or(Aabb { min: p, max: p }, |b| b.including(p))))
    }
}

/// Model-space bone matrices `W_b` (M2 frame) of sequence `s` at `tau` ms into it (see
/// [`Poser::bone_matrices`]; make one [`Poser`] to pose a file more than once).
pub fn bone_matrices(file: &M2File, s: usize, tau: f64, ignore_pivots: bool, conjugate: bool) -> Vec<Mat4> {
    Poser::new(file).bone_matrices(s, tau, ignore_pivots, conjugate)
}

/// Every key time (ms from the start) of sequence `s` within `[0, duration]`, plus both ends.
pub fn key_times(file: &M2File, s: usize) -> Vec<f64> {
    let Some(seq) = file.sequences.get(s) else { return Vec::new() };
    let (start, end) = (seq.start, seq.end);
    let mut times = vec![0.0, f64::from(end - start)];
    for b in file.bones.iter() {
        let (_, g, r, ts) = b.rotation.head();
        for (g, ranges, ts) in [
            (b.translation.global_sequence, &b.translation.ranges[..], &b.translation.timestamps[..]),
            (g, r, ts),
            (b.scale.global_sequence, &b.scale.ranges[..], &b.scale.timestamps[..]),
        ] {
            if g >= 0 {
                continue;
            }
            let keys = match ranges.get(s) {
                Some(&[a, z]) if a <= z => ts.get(a as usize..=z as usize).unwrap_or_default(),
                Some(_) => &[],
                None if ranges.is_empty() => ts,
                None => &[],
            };
            times.extend(keys.iter().filter(|&&k| (start..=end).contains(&k)).map(|&k| f64::from(k - start)));
        }
    }
    times.sort_by(f64::total_cmp);
    times.dedup();
    times
}

/// The box (M2 frame) of every vertex posed for sequence `s` at `tau` ms (see
/// [`Poser::posed_box`]; make one [`Poser`] to pose a file more than once).
pub fn posed_box(file: &M2File, s: usize, tau: f64, ignore_pivots: bool, conjugate: bool) -> Option<Aabb> {
    Poser::new(file).posed_box(s, tau, ignore_pivots, conjugate)
}

/// How the posed box of one sequence compares with the box it stores (M2 frame, model units).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoxFit {
    /// Sequence index.
    pub sequence: usize,
    /// Largest per-coordinate distance between the posed and the stored box corners.
    pub corner: f32,
    /// Largest distance by which a posed vertex lies outside the stored box (0 if none).
    pub outside: f32,
    /// Key times posed.
    pub poses: usize,
}

/// Poses every sequence at each of its key times and compares the union box with the stored one.
pub fn sequence_box_fits(file: &M2File, ignore_pivots: bool, conjugate: bool) -> Vec<BoxFit> {
    let poser = Poser::new(file);
    (0..file.sequences.len())
        .filter_map(|s| {
            let stored = file.sequences.get(s)?.bounds;
            let times = key_times(file, s);
            let mut total: Option<Aabb> = None;
            for &t in &times {
                if let Some(b) = poser.posed_box(s, t, ignore_pivots, conjugate) {
                    total = Some(total.map_or(b, |acc| acc.including(b.min).including(b.max)));
                }
            }
            let posed = total?;
            let stored = Aabb { min: stored.min, max: stored.max };
            let below = stored.min.iter().zip(&posed.min).map(|(s, p)| s - p);
            let above = posed.max.iter().zip(&stored.max).map(|(p, s)| p - s);
            Some(BoxFit {
                sequence: s,
                corner: posed.max_corner_distance(&stored),
                outside: below.chain(above).fold(0.0f32, f32::max),
                poses: times.len(),
            })
        })
        .collect()
}

// ------------------------------------------------------------------------------------------------
// Pruning error on the common model.

/// Model-space skin matrices (`global · inverse bind`) of `model` at time `t` of animation `a`
/// (plain parent · local composition; enough to measure weight changes).
fn skin_matrices(model: &Model, a: Option<usize>, t: f32) -> Vec<Mat4> {
    let mut locals: Vec<([f32; 3], [f32; 4], [f32; 3])> =
        model.bones.iter().map(|b| (b.rest.translation, b.rest.rotation, b.rest.scale)).collect();
    if let Some(anim) = a.and_then(|a| model.animations.get(a)) {
        for c in &anim.channels {
            let time = match c.clock {
                relic_core::model::Clock::Animation => t,
                relic_core::model::Clock::Global(g) => match model.global_sequences.get(g) {
                    Some(&d) if d > 0.0 => t.rem_euclid(d),
                    _ => 0.0,
                },
            };
            let Some(l) = locals.get_mut(c.bone) else { continue };
            match (c.sample(time), &c.values) {
                (Some(Sample::Rotation(q)), _) => l.1 = q,
                (Some(Sample::Vector(v)), relic_core::model::ChannelValues::Translation(_)) => l.0 = v,
                (Some(Sample::Vector(v)), _) => l.2 = v,
                _ => {}
            }
        }
    }
    let mut globals: Vec<Mat4> = Vec::with_capacity(model.bones.len());
    for (b, (tr, q, s)) in model.bones.iter().zip(&locals) {
        let local = from_trs(*tr, *q, *s);
        let g = b.parent.and_then(|p| globals.get(p)).map_or(local, |p| mul(p, &local));
        globals.push(g);
    }
    globals.iter().zip(&model.bones).map(|(g, b)| mul(g, &b.inverse_bind_matrix)).collect()
}

fn skin_point(m: &[Mat4], inf: &[Influence], p: [f32; 3]) -> [f32; 3] {
    let total: f32 = inf.iter().map(|i| i.weight).sum::<f32>().max(f32::MIN_POSITIVE);
    inf.iter().fold([0.0; 3], |acc, i| {
        let q = transform_point(m.get(i.bone as usize).unwrap_or(&IDENTITY), p);
        let w = i.weight / total;
        [acc[0] + w * q[0], acc[1] + w * q[1], acc[2] + w * q[2]]
    })
}

/// The largest distance, over the rest pose and every animation at its first, middle and last
/// moment, between a vertex skinned with all its influences and with only its 4 largest
/// (renormalised). `vertices` lists `(mesh, vertex)` pairs.
pub fn pruning_error(model: &Model, vertices: &[(usize, usize)]) -> f32 {
    let mut poses = vec![skin_matrices(model, None, 0.0)];
    for (a, anim) in model.animations.iter().enumerate() {
        for t in [0.0, anim.duration * 0.5, anim.duration] {
            poses.push(skin_matrices(model, Some(a), t));
        }
    }
    let mut worst = 0.0f32;
    for &(m, v) in vertices {
        let Some(mesh) = model.meshes.get(m) else { continue };
        let Some(&p) = mesh.positions.get(v) else { continue };
        let all = mesh.skin.vertex(v);
        let mut kept: Vec<Influence> = all.to_vec();
        kept.sort_by(|a, b| b.weight.total_cmp(&a.weight));
        kept.truncate(4);
        for pose in &poses {
            let a = skin_point(pose, all, p);
            let b = skin_point(pose, &kept, p);
            worst = worst.max(relic_core::math::max_abs_diff(&a, &b));
        }
    }
    worst
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segment_is_find_segment_on_float_times() {
        let mut rng = relic_testkit::Rng::new(3);
        for _ in 0..5000 {
            let mut t = rng.below(20) as u32;
            let times: Vec<u32> = (0..rng.below(6))
                .map(|_| {
                    t += rng.below(40) as u32 + 1;
                    if rng.below(4) == 0 { t + (1 << 25) } else { t }
                })
                .collect();
            let mut times = times;
            times.sort_unstable();
            let at = rng.below(300) as f32 - 20.0 + if rng.below(4) == 0 { (1 << 25) as f32 } else { 0.0 };
            let floats: Vec<f32> = times.iter().map(|&x| x as f32).collect();
            let want = relic_core::sample::find_segment(&floats, at);
            assert_eq!(segment(&times, at), (want.key, want.fraction), "{times:?} at {at}");
        }
    }
}
