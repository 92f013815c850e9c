//! Tracks as channels of the clips (spec §6.4, §7), and the budget of the keys the clips copy.

use relic_core::ReadError;
use relic_core::model::{Channel, ChannelValues, Clock, Interpolation};

use super::{NodeRef, WARCRAFT, add, seconds};
use crate::file::*;

/// A key's value and its (in, out) tangents, in the model's frame.
pub(super) type FrameKey<const N: usize> = ([f32; N], Option<[[f32; N]; 2]>);

/// Keys the model may hold for every key of the file (a global-sequence track is copied into
/// every clip), beyond [`KEY_BUDGET_FIXED`].
const KEY_BUDGET_PER_KEY: u64 = 8;
/// See [`KEY_BUDGET_PER_KEY`].
const KEY_BUDGET_FIXED: u64 = 100_000;

/// How often the model holds a track's keys.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Copies {
    /// In every clip whose interval holds the key.
    Within,
    /// In every clip: a node's global-sequence track.
    EveryClip,
    /// Once, on its global sequence's clock: a global-sequence track of another record.
    Once,
}

/// Refuses a file whose clips would copy its keys (and events) so many times that the model would
/// be far larger than the file: many sequences times long global-sequence tracks, or overlapping
/// sequences that hold the same keys of any track (a node's, or another record's:
/// `MdxFile::record_tracks`).
pub(super) fn check_key_budget(
    nodes: &[NodeRef<'_>],
    sequences: &[&Sequence],
    file: &MdxFile,
) -> Result<(), ReadError> {
    let mut stored = 0u64;
    let mut copied = 0u64;
    let events = file.chunks.iter().filter_map(|c| if let Chunk::Events(e) = c { Some(e) } else { None }).flatten();
    // Each list: its frames, whether on a global sequence, and how many model keys one key
    // becomes (a squad rotation key up to `MOST_STEPS` linear keys, `squad`), counted so on
    // both sides: a file of such keys may build its clips as one of other keys may.
    let frame_lists: Vec<(Vec<i64>, Copies, u64)> = nodes
        .iter()
        .flat_map(|r| {
            r.node.tracks.iter().map(|t| {
                let squad = t.tag.0 == *b"KGRT" && t.interpolation >= HERMITE;
                let weight = if squad { super::squad::MOST_STEPS as u64 } else { 1 };
                let copies = if t.global_sequence_id != -1 { Copies::EveryClip } else { Copies::Within };
                (t.keys.frames().into_iter().map(i64::from).collect(), copies, weight)
            })
        })
        .chain(
            events
                .filter_map(|e| e.track.as_ref())
                .map(|t| (t.frames.iter().map(|&f| i64::from(f)).collect(), Copies::Within, 1)),
        )
        .chain(file.record_tracks().map(|t| {
            let copies = if t.global_sequence_id != -1 { Copies::Once } else { Copies::Within };
            (t.keys.frames().into_iter().map(i64::from).collect(), copies, 1)
        }))
        .collect();
    for (frames, copies, weight) in &frame_lists {
        stored = stored.saturating_add((frames.len() as u64).saturating_mul(*weight));
        let clips = if *copies == Copies::Once { &[][..] } else { sequences };
        let mut keys = if *copies == Copies::Once { frames.len() as u64 } else { 0 };
        for s in clips {
            let (start, end) = (i64::from(s.interval_start), i64::from(s.interval_end));
            keys = keys.saturating_add(if *copies == Copies::EveryClip {
                frames.len() as u64
            } else {
                frames.iter().filter(|&&f| (start..=end).contains(&f)).count() as u64
            });
        }
        copied = copied.saturating_add(keys.saturating_mul(*weight));
    }
    let budget = stored.saturating_mul(KEY_BUDGET_PER_KEY).saturating_add(KEY_BUDGET_FIXED);
    if copied > budget {
        return Err(ReadError::document(format!(
            "the {} sequences would copy the file's {stored} keys into {copied} model keys, more than the {budget} \
             relic builds for them (global-sequence tracks are copied into every clip)",
            sequences.len()
        )));
    }
    Ok(())
}

/// A node track as a channel of one sequence (or, on a global sequence, of every sequence);
/// `coarse` gathers the squad segments followed at the most keys a segment becomes.
pub(super) fn channel(
    t: &Track,
    bone: usize,
    start: i64,
    end: i64,
    offset: [f32; 3],
    globals: usize,
    coarse: &mut super::squad::Capped,
) -> Option<Channel> {
    let global = usize::try_from(t.global_sequence_id).ok();
    if global.is_some_and(|g| g >= globals) {
        return None;
    }
    let keep = |frame: i32| global.is_some() || (start..=end).contains(&i64::from(frame));
    let base = if global.is_some() { 0 } else { start };
    let bezier = t.interpolation == BEZIER;
    let effective = |keys: usize| interpolation(t.interpolation, keys);
    let values = match (&t.tag.0, &t.keys) {
        (b"KGTR", Keys::Vec3(k)) => {
            // Values and Bezier control points get the rest offset; Hermite tangents do not.
            let (times, v) = pick(k, keep, base, |v, tangent| {
                WARCRAFT.vector_to_ir(if tangent && !bezier { v } else { add(offset, v) })
            });
            (ChannelValues::Translation(cubic(&times, v, bezier, effective(times.len()))), times)
        }
        (b"KGSC", Keys::Vec3(k)) => {
            let (times, v) = pick(k, keep, base, |v, _| WARCRAFT.scale_to_ir(v));
            (ChannelValues::Scale(cubic(&times, v, bezier, effective(times.len()))), times)
        }
        (b"KGRT", Keys::Quat(k)) => {
            let (times, v) = pick(k, keep, base, |q, tangent| {
                let q = WARCRAFT.quat_to_ir(q);
                let norm = relic_core::math::quat_norm(q);
                if tangent || norm.is_nan() || norm <= 0.0 { q } else { q.map(|c| c / norm) }
            });
            if effective(times.len()) == Interpolation::CubicSpline {
                // The game plays these by squad, which no interpolation of the model is.
                let (times, values, capped) = super::squad::resample(&times, &v);
                coarse.segments += capped.segments;
                coarse.worst = coarse.worst.max(capped.worst);
                let clock = global.map_or(Clock::Animation, Clock::Global);
                let values = ChannelValues::Rotation(values);
                return Some(Channel { bone, clock, interpolation: Interpolation::Linear, times, values });
            }
            (ChannelValues::Rotation(cubic(&times, v, bezier, effective(times.len()))), times)
        }
        _ => return None,
    };
    let (values, times) = values;
    if times.is_empty() {
        return None;
    }
    let clock = global.map_or(Clock::Animation, Clock::Global);
    Some(Channel { bone, clock, interpolation: effective(times.len()), times, values })
}

/// The model's interpolation of a track of interpolation `code` holding `keys` keys: one key holds
/// one value, its tangents shape nothing, and glTF wants two keys or more for a cubic spline (the
/// validator's ANIMATION_SAMPLER_INPUT_ACCESSOR_TOO_FEW_ELEMENTS), so it is linear.
pub(super) fn interpolation(code: u32, keys: usize) -> Interpolation {
    match code {
        DONT_INTERP => Interpolation::Step,
        LINEAR => Interpolation::Linear,
        _ if keys < 2 => Interpolation::Linear,
        _ => Interpolation::CubicSpline,
    }
}

/// The keys of a track that `keep` keeps, sorted, one a frame (the first), with their times in
/// seconds from `base` and their values (and tangents) converted by `value` (told whether it
/// converts a tangent).
pub(super) fn pick<T: Value + Copy, const N: usize>(
    keys: &[Key<T>],
    keep: impl Fn(i32) -> bool,
    base: i64,
    value: impl Fn(T, bool) -> [f32; N],
) -> (Vec<f32>, Vec<FrameKey<N>>) {
    let mut chosen: Vec<&Key<T>> = keys.iter().filter(|k| keep(k.frame)).collect();
    chosen.sort_by_key(|k| k.frame);
    chosen.dedup_by_key(|k| k.frame);
    let times = chosen.iter().map(|k| seconds(i64::from(k.frame) - base)).collect();
    let values = chosen
        .iter()
        .map(|k| (value(k.value, false), k.tangents.map(|[a, b]| [value(a, true), value(b, true)])))
        .collect();
    (times, values)
}

/// Values for the channel: one per key, or (in, value, out) per key for a cubic spline with the
/// tangents per second (spec §7).
pub(super) fn cubic<const N: usize>(
    times: &[f32],
    keys: Vec<FrameKey<N>>,
    bezier: bool,
    interpolation: Interpolation,
) -> Vec<[f32; N]> {
    if interpolation != Interpolation::CubicSpline {
        return keys.into_iter().map(|(v, _)| v).collect();
    }
    let span = |i: usize| match (times.get(i), times.get(i + 1)) {
        (Some(a), Some(b)) if b > a => Some(b - a),
        _ => None,
    };
    let mut out = Vec::with_capacity(keys.len() * 3);
    for (k, (p, t)) in keys.into_iter().enumerate() {
        let [i, o] = t.unwrap_or([p, p]);
        let after = span(k);
        let before = k.checked_sub(1).and_then(span);
        let (before, after) = (before.or(after).unwrap_or(1.0), after.or(before).unwrap_or(1.0));
        let (m_in, m_out): ([f32; N], [f32; N]) = if bezier {
            (
                std::array::from_fn(|c| 3.0 * (p.get(c).copied().unwrap_or(0.0) - i.get(c).copied().unwrap_or(0.0))),
                std::array::from_fn(|c| 3.0 * (o.get(c).copied().unwrap_or(0.0) - p.get(c).copied().unwrap_or(0.0))),
            )
        } else {
            (i, o)
        };
        out.push(m_in.map(|x| x / before));
        out.push(p);
        out.push(m_out.map(|x| x / after));
    }
    out
}
