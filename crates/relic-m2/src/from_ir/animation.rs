//! Sequences on one timeline, their lookups, and events.

use relic_core::Loss;
use relic_core::error;
use relic_core::model::*;

use super::builder::{Builder, Result, cp1252_lossy, inverse, ms, to_u32};
use crate::file::{self as m2, *};
use crate::frame::WARCRAFT;
use crate::names;
use crate::to_ir;

impl Builder<'_> {
    /// Sequences, their lookups and the timeline. Returns true if the extras' sequences fit.
    pub(super) fn sequences(&mut self) -> Result<bool> {
        let m = self.model;
        let base_seqs: &[Sequence] = self.base.map_or(&[], |b| &b.sequences);
        let fit = self.base.is_some() && base_seqs.len() == m.animations.len();
        let base_names = to_ir::animation_names(base_seqs);
        let mut seqs = Vec::with_capacity(m.animations.len());
        let mut cursor = 0i64;
        for (i, a) in m.animations.iter().enumerate() {
            let duration = ms(a.duration).max(0);
            // Clips added or removed: a clip keeps the stored sequence of its name (its id,
            // flags, frequency), placed anew on the timeline below.
            let mut s = match base_seqs.get(i).filter(|_| fit) {
                Some(&s) => s,
                None => base_names
                    .iter()
                    .position(|n| *n == a.name)
                    .and_then(|j| base_seqs.get(j))
                    .copied()
                    .unwrap_or_else(fresh_sequence),
            };
            if !fit {
                let (lo, hi) = key_extent(a);
                let start = cursor + (-lo).max(0);
                s.start = to_u32(start);
                cursor = start + duration.max(hi) + 1;
            }
            s.end = to_u32(i64::from(s.start) + duration);
            if base_names.get(i) != Some(&a.name) {
                s.id = names::animation_id(&a.name).unwrap_or_else(|| {
                    self.losses.push(Loss::new(
                        format!("animations[{i}] {:?}", a.name),
                        "no AnimationData id for this name: written as Stand (id 0)",
                    ));
                    0
                });
            }
            s.flags = if a.looping { s.flags & !1 } else { s.flags | 1 };
            // The stored blend time while it is the model's: seconds in an f32 cannot give back
            // every millisecond count (a ported file's 22 937 950, two u16 of 350 side by side).
            if to_ir::seconds(i64::from(s.blend_time)) != a.blend_in {
                s.blend_time = to_u32(ms(a.blend_in));
            }
            // The stored box while it is the model's (an empty box stored inverted, min above
            // max, comes back as it was).
            if let Some(b) = a.bounds
                && to_ir::bounds_to_ir(&s.bounds) != b
            {
                s.bounds = bounds_from_ir(&b);
            }
            seqs.push(s);
        }
        // Variation chains (each sequence names the next one of its id: one pass from the end),
        // unless the stored sequences keep their ids (then their chains are kept as stored:
        // another tool may have written −1 everywhere).
        let ids_kept = fit && seqs.iter().zip(base_seqs).all(|(a, b)| a.id == b.id);
        let mut next_of_id: std::collections::HashMap<u16, usize> = std::collections::HashMap::new();
        for (i, s) in seqs.iter_mut().enumerate().rev().filter(|_| !ids_kept) {
            s.next_variation = match next_of_id.get(&s.id) {
                Some(&j) => error::fit(&format!("sequences[{i}].next_variation"), j, "i16")?,
                None => -1,
            };
            next_of_id.insert(s.id, i);
        }
        let same = fit && seqs.iter().zip(base_seqs).all(|(a, b)| a == b);
        if let Some(b) = self.base.filter(|_| same) {
            self.file.sequence_lookup = b.sequence_lookup.clone();
            self.file.playable_lookup = b.playable_lookup.clone();
        } else {
            let max_id = seqs.iter().map(|s| usize::from(s.id)).max().map_or(0, |m| m + 1);
            let mut lookup = vec![-1i16; max_id];
            for (i, s) in seqs.iter().enumerate().rev() {
                if let Some(l) = lookup.get_mut(usize::from(s.id)) {
                    *l = error::fit(&format!("sequence_lookup[{}]", s.id), i, "i16")?;
                }
            }
            let playable = PlayableAnimation::derived(&lookup, max_id.max(names::CLASSIC_ANIMATION_IDS));
            self.file.sequence_lookup = lookup.into();
            self.file.playable_lookup = if seqs.is_empty() { Default::default() } else { playable.into() };
        }
        self.file.sequences = seqs.into();
        Ok(fit)
    }

    pub(super) fn events(&mut self, fit: bool) -> Result<()> {
        let m = self.model;
        if let Some(b) = self.base.filter(|_| fit) {
            let rank = inverse(&self.to_file);
            let same = to_ir::events_match(b, &rank, &m.animations);
            if same {
                self.file.events = b.events.clone();
                return Ok(());
            }
        }
        // An M2 event hangs on a bone: a file without bones cannot hold one (its reader refuses
        // bone 0 of none).
        if self.file.bones.is_empty() {
            let dropped: usize = m.animations.iter().map(|a| a.events.len()).sum();
            if dropped > 0 {
                self.loss(
                    "events",
                    format!("{dropped} events dropped: an M2 event needs a bone and the model has none"),
                );
            }
            self.file.events = Vec::new().into();
            return Ok(());
        }
        // Group by what the event is; one firing-time list per sequence.
        let mut kinds: Vec<EventKind> = Vec::new();
        for a in &m.animations {
            for e in &a.events {
                let k = (e.name.clone(), e.bone, e.position, e.parameter);
                if !kinds.contains(&k) {
                    kinds.push(k);
                }
            }
        }
        let mut out = Vec::with_capacity(kinds.len());
        for (name, bone, position, parameter) in kinds {
            let mut ts: Vec<u32> = Vec::new();
            let mut ranges = Vec::new();
            for (s, a) in m.animations.iter().enumerate() {
                let start = i64::from(self.file.sequences.get(s).map_or(0, |q| q.start));
                let first = ts.len();
                for e in a
                    .events
                    .iter()
                    .filter(|e| e.name == name && e.bone == bone && e.position == position && e.parameter == parameter)
                {
                    let t = to_u32(start + ms(e.time));
                    // An event may fire twice at one time (the reader keeps such firings).
                    if ts.last().is_none_or(|&l| t >= l) {
                        ts.push(t);
                    }
                }
                ranges.push([first as u32, ts.len() as u32]);
            }
            ranges.push([0, 0]);
            // Every range bound is at most the firing-time count: if that fits, so did they.
            error::fit::<u32>(&format!("event {name:?} firing times"), ts.len(), "u32")?;
            let b = bone.map_or(0, |b| self.to_file.get(b).copied().unwrap_or(b));
            let pivot = self.file.bones.get(b).map_or([0.0; 3], |x| x.pivot);
            let p = WARCRAFT.vector_from_ir(position.unwrap_or([0.0; 3]));
            // Four Windows-1252 bytes, NUL-padded; lengths are those of the encoded bytes.
            let mut identifier = [0u8; 4];
            for (d, s) in identifier.iter_mut().zip(cp1252_lossy(&name)) {
                *d = s;
            }
            let back = crate::file::text(&identifier);
            if back != name {
                self.loss(
                    format!("event {name:?}"),
                    format!("identifier written as {back:?} (4 Windows-1252 bytes, characters outside it as '?')"),
                );
            }
            out.push(m2::Event {
                identifier,
                // An event without a parameter: data 0, as the game's own events without one.
                data: parameter.unwrap_or(0),
                bone: error::fit(&format!("event {name:?} bone"), b, "u32")?,
                position: [pivot[0] + p[0], pivot[1] + p[1], pivot[2] + p[2]],
                times: EventTrack {
                    interpolation: 0,
                    global_sequence: -1,
                    ranges: ranges.into(),
                    timestamps: ts.into(),
                },
            });
        }
        self.file.events = out.into();
        Ok(())
    }
}

fn fresh_sequence() -> Sequence {
    Sequence { frequency: 0x7FFF, replay: [0, 0], next_variation: -1, ..Sequence::default() }
}

/// Earliest and latest key of an animation (ms relative to its start, events included).
fn key_extent(a: &Animation) -> (i64, i64) {
    let times = a
        .channels
        .iter()
        .filter(|c| c.clock == Clock::Animation)
        .flat_map(|c| c.times.iter().copied())
        .chain(a.events.iter().map(|e| e.time));
    times.fold((0, 0), |(lo, hi), t| (lo.min(ms(t)), hi.max(ms(t))))
}

/// A sequence box back in M2's frame.
// Component indices 0..3 of 3-element arrays.
#[allow(clippy::indexing_slicing)]
fn bounds_from_ir(b: &Aabb) -> Bounds {
    let (a, c) = (WARCRAFT.vector_from_ir(b.min), WARCRAFT.vector_from_ir(b.max));
    Bounds { min: std::array::from_fn(|i| a[i].min(c[i])), max: std::array::from_fn(|i| a[i].max(c[i])) }
}

/// What an event is: name, bone, position, parameter.
type EventKind = (String, Option<usize>, Option<[f32; 3]>, Option<u32>);
