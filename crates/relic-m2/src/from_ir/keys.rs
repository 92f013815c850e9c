//! One bone property's track from the model's channels: keys in milliseconds on the shared
//! timeline, values in M2's frame and meaning, ranges shared where sequences share keys.

use relic_core::error;
use relic_core::math::{Mat4, quat_conjugate, quat_mul, transform_point, transform_vector};
use relic_core::model::*;

use super::builder::{Builder, Result, ms, to_u32};
use crate::file::*;
use crate::frame::WARCRAFT;
use crate::to_ir;

impl Builder<'_> {
    /// One bone property's track from its channels, one per animation (`N` = 3 or 4 components;
    /// an empty list when no animation has one).
    pub(super) fn build_track<const N: usize>(
        &mut self,
        bone: usize,
        channels: &[Option<&Channel>],
        binds: &[(Mat4, [f32; 4])],
        prop: usize,
    ) -> Result<Track<[f32; N]>>
    where
        [f32; N]: bytemuck::Pod,
    {
        let m = self.model;
        let map = KeyMap::new(m, bone, binds, prop);
        let present: Vec<&Channel> = channels.iter().flatten().copied().collect();
        if present.is_empty() {
            // No channel: the rest pose, written only where M2's implicit one differs.
            let rest = map.rest::<N>();
            if map.is_m2_identity(&rest) {
                return Ok(Track::default());
            }
            return Ok(Track {
                interpolation: INTERPOLATION_NONE,
                global_sequence: -1,
                ranges: Default::default(),
                timestamps: vec![0].into(),
                values: vec![rest].into(),
            });
        }
        // One clock per track: a global clock only when every channel uses the same one.
        let global = match present.first().map(|c| c.clock) {
            Some(Clock::Global(g)) if present.iter().all(|c| c.clock == Clock::Global(g)) => Some(g),
            _ => None,
        };
        if let Some(g) = global {
            let first = present.first().copied();
            if present.iter().any(|c| Some(*c) != first) {
                self.loss(
                    format!("bones[{bone}]"),
                    "global-sequence channels differ between animations: the first is kept",
                );
            }
            let Some(c) = first else { return Ok(Track::default()) };
            let keys = self.channel_keys(c, 0, &map, c.interpolation);
            let (ts, values) = keys;
            return Ok(Track {
                interpolation: interpolation_code(c.interpolation),
                global_sequence: error::fit(&format!("bones[{bone}] global sequence"), g, "i16")?,
                ranges: Default::default(),
                timestamps: ts.into(),
                values: values.into(),
            });
        }
        if present.iter().any(|c| c.clock != Clock::Animation) {
            self.loss(format!("bones[{bone}]"), "a channel on a global clock mixed with animation channels is dropped");
        }
        let interps: Vec<Interpolation> =
            present.iter().filter(|c| c.clock == Clock::Animation).map(|c| c.interpolation).collect();
        let target = match interps.first() {
            Some(&i) if interps.iter().all(|&x| x == i) => i,
            _ => {
                self.loss(format!("bones[{bone}]"), "mixed interpolations resampled to linear");
                Interpolation::Linear
            }
        };
        let mut lists: Vec<(Vec<u32>, Vec<[f32; N]>)> = Vec::with_capacity(channels.len());
        for (a, c) in channels.iter().enumerate() {
            let start = i64::from(self.file.sequences.get(a).map_or(0, |s| s.start));
            let list = match c.filter(|c| c.clock == Clock::Animation) {
                Some(c) if c.interpolation == target => self.channel_keys(c, start, &map, target),
                Some(c) => {
                    let r = resample(c);
                    self.channel_keys(&r, start, &map, Interpolation::Linear)
                }
                None => (vec![to_u32(start)], vec![map.rest::<N>(); per_key(target)]),
            };
            lists.push(list);
        }
        let code = interpolation_code(target);
        // A step track with the same single key in every sequence needs no ranges.
        if code == INTERPOLATION_NONE
            && let Some(first) = lists.first()
            && first.0.len() == 1
            && lists.iter().all(|l| l == first)
        {
            return Ok(Track {
                interpolation: code,
                global_sequence: -1,
                ranges: Default::default(),
                timestamps: first.0.clone().into(),
                values: first.1.clone().into(),
            });
        }
        let pk = per_key(target);
        let (mut ts, mut vals, mut ranges): (Vec<u32>, Vec<[f32; N]>, Vec<[u32; 2]>) =
            (Vec::new(), Vec::new(), Vec::new());
        let mut placed: Vec<(usize, usize)> = Vec::new(); // (first, len) of each sequence's keys
        for (t, v) in &lists {
            let n = t.len();
            let same_as = placed.iter().position(|&(f, len)| {
                len == n
                    && ts.get(f..f + len) == Some(t.as_slice())
                    && vals.get(f * pk..(f + len) * pk) == Some(v.as_slice())
            });
            let first = if let Some(p) = same_as {
                placed.get(p).map_or(0, |x| x.0)
            } else if n > 0 && ts.last() == t.first() && vals.get(vals.len().saturating_sub(pk)..) == v.get(..pk) {
                let f = ts.len() - 1;
                ts.extend(t.iter().skip(1));
                vals.extend(v.iter().skip(pk));
                f
            } else {
                let f = ts.len();
                ts.extend(t);
                vals.extend(v);
                f
            };
            placed.push((first, n));
            ranges.push([first as u32, (first + n).saturating_sub(1) as u32]);
        }
        ranges.push([0, 0]);
        // Every range bound is at most the key count: if that fits, so did they.
        error::fit::<u32>(&format!("bones[{bone}] key count"), ts.len(), "u32")?;
        Ok(Track {
            interpolation: code,
            global_sequence: -1,
            ranges: ranges.into(),
            timestamps: ts.into(),
            values: vals.into(),
        })
    }

    /// A channel's keys as M2 timestamps (ms from `start`) and values (M2 frame and semantics,
    /// `per_key` entries per key), dropping keys that collide after rounding to milliseconds.
    pub(super) fn channel_keys<const N: usize>(
        &mut self,
        c: &Channel,
        start: i64,
        map: &KeyMap,
        interpolation: Interpolation,
    ) -> (Vec<u32>, Vec<[f32; N]>) {
        let pk = per_key(interpolation);
        let mut ts: Vec<u32> = Vec::with_capacity(c.times.len());
        let mut values: Vec<[f32; N]> = Vec::with_capacity(c.times.len() * pk);
        let mut dropped = 0;
        let raw = raw_values::<N>(&c.values);
        for (k, &t) in c.times.iter().enumerate() {
            let at = to_u32(start + ms(t));
            if ts.last().is_some_and(|&l| at <= l) {
                dropped += 1;
                continue;
            }
            ts.push(at);
            if pk == 1 {
                values.push(map.value(raw.get(k).copied().unwrap_or([0.0; N])));
            } else {
                let (before, after) = to_ir::spans(&c.times, k);
                let g = |j: usize| raw.get(3 * k + j).copied().unwrap_or([0.0; N]);
                values.push(map.value(g(1)));
                values.push(map.tangent(g(0), before));
                values.push(map.tangent(g(2), after));
            }
        }
        if dropped > 0 {
            self.loss(
                format!("bones[{}]", c.bone),
                format!("{dropped} keys closer than 1 ms to the previous one dropped"),
            );
        }
        (ts, values)
    }
}

fn per_key(i: Interpolation) -> usize {
    if i == Interpolation::CubicSpline { 3 } else { 1 }
}

fn interpolation_code(i: Interpolation) -> u16 {
    match i {
        Interpolation::Step => INTERPOLATION_NONE,
        Interpolation::Linear => INTERPOLATION_LINEAR,
        Interpolation::CubicSpline => INTERPOLATION_HERMITE,
    }
}

/// The values of a channel as `[f32; N]` (3 for translation/scale, 4 for rotation: the property
/// chooses both the channel's kind and `N`, so every component exists).
fn raw_values<const N: usize>(v: &ChannelValues) -> Vec<[f32; N]> {
    match v {
        ChannelValues::Translation(x) | ChannelValues::Scale(x) => {
            x.iter().map(|p| std::array::from_fn(|i| p.get(i).copied().unwrap_or(0.0))).collect()
        }
        ChannelValues::Rotation(x) => {
            x.iter().map(|p| std::array::from_fn(|i| p.get(i).copied().unwrap_or(0.0))).collect()
        }
    }
}

/// A channel resampled to linear keys (at its keys, 1 ms before each step, and 30 Hz inside
/// cubic segments).
fn resample(c: &Channel) -> Channel {
    let mut times: Vec<f32> = Vec::new();
    for (k, &t) in c.times.iter().enumerate() {
        times.push(t);
        if let Some(&next) = c.times.get(k + 1) {
            match c.interpolation {
                Interpolation::Step if next - t > 0.002 => times.push(next - 0.001),
                Interpolation::CubicSpline => {
                    let n = ((next - t) * 30.0).ceil().max(1.0) as usize;
                    times.extend((1..n).map(|j| t + (next - t) * j as f32 / n as f32));
                }
                _ => {}
            }
        }
    }
    let sample = |t: f32| c.sample(t);
    let values = match &c.values {
        ChannelValues::Rotation(_) => ChannelValues::Rotation(
            times
                .iter()
                .map(|&t| match sample(t) {
                    Some(relic_core::sample::Sample::Rotation(q)) => q,
                    _ => [0.0, 0.0, 0.0, 1.0],
                })
                .collect(),
        ),
        other => {
            let v: Vec<[f32; 3]> = times
                .iter()
                .map(|&t| match sample(t) {
                    Some(relic_core::sample::Sample::Vector(v)) => v,
                    _ => [0.0; 3],
                })
                .collect();
            match other {
                ChannelValues::Scale(_) => ChannelValues::Scale(v),
                _ => ChannelValues::Translation(v),
            }
        }
    };
    Channel { bone: c.bone, clock: c.clock, interpolation: Interpolation::Linear, times, values }
}

/// How a bone's model-frame local values of one property become M2 key values.
pub(super) struct KeyMap {
    /// 0 translation, 1 rotation, 2 scale.
    property: usize,
    /// Translation offset subtracted: pivot − parent pivot (model frame), when binds are pure
    /// translations.
    offset: [f32; 3],
    /// Parent bind rotation (`Rp`), the inverse of the bone's (`Rb⁻¹`) and `Rp` as a matrix,
    /// `None` when both are identity.
    rotations: Option<([f32; 4], [f32; 4], Mat4)>,
    /// parent pivot − pivot (model frame).
    pivot_delta: [f32; 3],
    rest: Transform,
}

// `N` is 3 (translation, scale) or 4 (rotation): component indices 0..N are in bounds.
#[allow(clippy::indexing_slicing)]
impl KeyMap {
    fn new(m: &Model, bone: usize, binds: &[(Mat4, [f32; 4])], property: usize) -> Self {
        let b = m.bones.get(bone);
        let t = |x: &Mat4| [x[12], x[13], x[14]];
        let own = binds.get(bone).copied();
        let parent = b.and_then(|b| b.parent).and_then(|p| binds.get(p).copied());
        let pivot = own.map_or([0.0; 3], |o| t(&o.0));
        let parent_pivot = parent.map_or([0.0; 3], |p| t(&p.0));
        let rb = own.map_or([0.0, 0.0, 0.0, 1.0], |o| o.1);
        let rp = parent.map_or([0.0, 0.0, 0.0, 1.0], |p| p.1);
        let rotations = (!is_identity_rotation(rb) || !is_identity_rotation(rp))
            .then(|| (rp, quat_conjugate(rb), relic_core::math::from_trs([0.0; 3], rp, [1.0; 3])));
        Self {
            property,
            offset: [pivot[0] - parent_pivot[0], pivot[1] - parent_pivot[1], pivot[2] - parent_pivot[2]],
            rotations,
            pivot_delta: [parent_pivot[0] - pivot[0], parent_pivot[1] - pivot[1], parent_pivot[2] - pivot[2]],
            rest: b.map_or(Transform::IDENTITY, |b| b.rest),
        }
    }

    fn rotate(&self, q: [f32; 4]) -> [f32; 4] {
        match self.rotations {
            Some((rp, rb_inv, _)) => quat_mul(quat_mul(rp, q), rb_inv),
            None => q,
        }
    }

    /// `v` (3 or 4 components, as the property has) as `[f32; N]` (the same `N`).
    fn out<const N: usize>(v: &[f32]) -> [f32; N] {
        std::array::from_fn(|i| v.get(i).copied().unwrap_or(0.0))
    }

    /// A key value in M2's frame and meaning.
    fn value<const N: usize>(&self, v: [f32; N]) -> [f32; N] {
        match self.property {
            0 => {
                let p = [v[0], v[1], v[2]];
                let t = match self.rotations {
                    Some((_, _, rp)) => {
                        let r = transform_point(&rp, p);
                        [r[0] + self.pivot_delta[0], r[1] + self.pivot_delta[1], r[2] + self.pivot_delta[2]]
                    }
                    None => [p[0] - self.offset[0], p[1] - self.offset[1], p[2] - self.offset[2]],
                };
                Self::out(&WARCRAFT.vector_from_ir(t))
            }
            1 => Self::out(&WARCRAFT.quat_from_ir(self.rotate([v[0], v[1], v[2], v[3 % N]]))),
            _ => Self::out(&WARCRAFT.scale_from_ir([v[0], v[1], v[2]])),
        }
    }

    /// A cubic tangent (per second in the model) as an M2 per-segment tangent.
    fn tangent<const N: usize>(&self, v: [f32; N], span: f32) -> [f32; N] {
        let s: [f32; N] = std::array::from_fn(|i| (f64::from(v[i]) * f64::from(span)) as f32);
        match self.property {
            0 => {
                let p = [s[0], s[1], s[2]];
                let p = match self.rotations {
                    Some((_, _, rp)) => transform_vector(&rp, p),
                    None => p,
                };
                Self::out(&WARCRAFT.vector_from_ir(p))
            }
            1 => Self::out(&WARCRAFT.quat_from_ir(self.rotate([s[0], s[1], s[2], s[3 % N]]))),
            _ => Self::out(&WARCRAFT.scale_from_ir([s[0], s[1], s[2]])),
        }
    }

    /// The rest transform's value of this property as an M2 key.
    fn rest<const N: usize>(&self) -> [f32; N] {
        let r = &self.rest;
        match self.property {
            0 => self.value(Self::out(&r.translation)),
            1 => self.value(Self::out(&r.rotation)),
            _ => self.value(Self::out(&r.scale)),
        }
    }

    /// True if `v` is what M2 implies without a track (no offset, identity rotation, unit scale).
    fn is_m2_identity<const N: usize>(&self, v: &[f32; N]) -> bool {
        match self.property {
            0 => v.iter().all(|c| c.abs() < 1e-5),
            1 => v.iter().take(3).all(|c| c.abs() < 1e-6) && (v[3 % N].abs() - 1.0).abs() < 1e-6,
            _ => v.iter().all(|c| (c - 1.0).abs() < 1e-6),
        }
    }
}

/// True if `q` is the identity rotation (to 1e-6).
pub(super) fn is_identity_rotation(q: [f32; 4]) -> bool {
    q[0].abs() < 1e-6 && q[1].abs() < 1e-6 && q[2].abs() < 1e-6
}
