//! Between the Wrath layout (264, 272) and 256–263 (m2-wrath.md §9): `to_classic` lays every
//! sequence on one timeline and moves the `.skin` files into the file's views (at most 4);
//! `from_classic` cuts the timeline into one per sequence and the views into `.skin` files.
//! Everything one side cannot hold comes back as a [`Loss`] with counts.
//!
//! The common model of a Wrath file is the common model of its 256–263 form (`to_classic`), so
//! the mapping of bones, meshes, materials and effects is the one of 256–263.

mod particles;
mod retime;
pub(crate) mod tracks;

use relic_core::{Loss, ReadError, ReadErrorKind};

use self::tracks::{Flatten, Windows};
use super::Wrath;
use crate::file::wrath::*;
use crate::file::*;

/// Windows start on the next mark of 10 000/3 ms after the previous window ends (10 of the 11
/// windows of the Classic GnomePounder sit there; §9).
fn next_mark(after: u64) -> u64 {
    // Marks round to the nearest millisecond: 3333, 6667, 10000, 13333, …
    let mark = |k: u64| (k * 10_000 + 1) / 3;
    let mut k = after * 3 / 10_000;
    while mark(k) <= after {
        k += 1;
    }
    mark(k)
}

/// The sequences of a Wrath file laid on one timeline as [`to_classic`] lays them: what turns
/// its emitters into their 256–263 forms, which a model read from a Wrath file holds.
pub(crate) struct Timeline(Windows);

impl Timeline {
    /// The timeline of `f`; `None` when its sequences cannot be laid out.
    pub(crate) fn of(f: &WrathFile) -> Option<Self> {
        windows(f).ok().map(Timeline)
    }

    /// The 256–263 form of a Wrath particle emitter.
    pub(crate) fn particle(&self, p: &WrathParticle) -> Particle {
        p.retime(&Flatten(&self.0))
    }

    /// The 256–263 form of a Wrath ribbon emitter.
    pub(crate) fn ribbon(&self, r: &WrathRibbon) -> Ribbon {
        r.retime(&Flatten(&self.0))
    }
}

/// Refuses a Wrath file whose sequences its reader cannot lay on one timeline ([`windows`]: each
/// from the next 3,333 ms mark after the last, within a `u32` of milliseconds), which the
/// 256–263 timeline a model is written from may still fit: the writer refuses what its reader
/// will not take.
pub(crate) fn timeline_fits(f: &WrathFile) -> Result<(), ReadError> {
    windows(f).map(|_| ())
}

/// Lays the sequences on one timeline: each non-alias on the next mark after the last, each alias
/// on its target's window (reusing its keys where they are equal).
fn windows(f: &WrathFile) -> Result<Windows, ReadError> {
    let n = f.sequences.len();
    let mut spans = vec![(0u32, 0u32); n];
    let mut reuses = vec![None; n];
    let mut end = 0u64;
    for (s, seq) in f.sequences.iter().enumerate() {
        if seq.is_alias() {
            continue;
        }
        let start = next_mark(end);
        end = start + u64::from(seq.duration);
        let (Ok(a), Ok(b)) = (u32::try_from(start), u32::try_from(end)) else {
            let message =
                format!("the sequences' durations add up past the u32 milliseconds of one timeline at sequence {s}");
            return Err(ReadError::new(u64::from(f.sequences.offset), ReadErrorKind::Invalid(message)));
        };
        if let Some(span) = spans.get_mut(s) {
            *span = (a, b);
        }
    }
    for s in 0..n {
        // An alias's target is a sequence of the file (`resolve_alias`).
        if let Some((t, &target)) = f.resolve_alias(s).filter(|&t| t != s).and_then(|t| Some((t, spans.get(t)?)))
            && let (Some(span), Some(reuse)) = (spans.get_mut(s), reuses.get_mut(s))
        {
            *span = target;
            *reuse = (t < s).then_some(t);
        }
    }
    Ok(Windows { spans, reuses })
}

/// A direct id → first sequence table (256–263's sequence lookup).
fn direct_lookup(ids: impl Iterator<Item = u16> + Clone) -> Vec<i16> {
    let len = ids.clone().fold(0, |n, id| n.max(usize::from(id) + 1));
    let mut table = vec![-1i16; len];
    for (i, id) in ids.enumerate() {
        if let Some(slot) = table.get_mut(usize::from(id))
            && *slot == -1
        {
            *slot = i as i16;
        }
    }
    table
}

/// Wrath's hash lookup (§3.5): N the smallest prime above twice the number of ids, slot `id mod
/// N`, linear probing, −1 empty.
fn hash_lookup(ids: &[u16]) -> Vec<i16> {
    // Each id with its first sequence, in increasing id order.
    let mut firsts: Vec<(u16, usize)> = ids.iter().enumerate().map(|(i, &id)| (id, i)).collect();
    firsts.sort_unstable();
    firsts.dedup_by_key(|&mut (id, _)| id);
    if firsts.is_empty() {
        return Vec::new();
    }
    let prime = |p: usize| p >= 2 && (2..).take_while(|d| d * d <= p).all(|d| !p.is_multiple_of(d));
    let size = (2 * firsts.len() + 1..).find(|&p| prime(p)).unwrap_or(2);
    let mut table = vec![-1i16; size];
    for (id, first) in firsts {
        let first = first as i16;
        let home = usize::from(id) % size;
        if let Some(slot) = (0..size).map(|k| (home + k) % size).find(|&k| table.get(k) == Some(&-1))
            && let Some(entry) = table.get_mut(slot)
        {
            *entry = first;
        }
    }
    table
}

/// The first version whose sequence blend time is two u16, blend in and blend out (m2-md21.md
/// §4.3: 274 by every source; 273 disputed and not read).
pub(crate) const SPLIT_BLEND_TIME: u32 = 274;

/// A Wrath model as a 256–263 file (version 263: compressed rotations, 48-byte submeshes), and
/// what that file cannot hold.
pub(crate) fn to_classic(wrath: &Wrath) -> Result<(M2File, Vec<Loss>), ReadError> {
    let f = &wrath.file;
    let w = windows(f)?;
    let r = Flatten(&w);
    let mut losses = Vec::new();
    let sequences: Vec<Sequence> = f
        .sequences
        .iter()
        .zip(&w.spans)
        .map(|(s, &(start, end))| Sequence {
            id: s.id,
            variation: 0,
            start,
            end,
            move_speed: s.move_speed,
            flags: s.flags & !(SEQUENCE_IN_MODEL | SEQUENCE_ALIAS),
            frequency: s.frequency,
            padding: s.padding,
            replay: s.replay,
            blend_time: if f.version >= SPLIT_BLEND_TIME { s.blend_time & 0xFFFF } else { s.blend_time },
            bounds: s.bounds,
            bounds_radius: s.bounds_radius,
            next_variation: s.next_variation,
            alias_next: 0,
        })
        .collect();
    let split = f.version >= SPLIT_BLEND_TIME;
    let blend_out: Vec<usize> =
        f.sequences.iter().enumerate().filter(|(_, s)| split && s.blend_time >> 16 != 0).map(|(i, _)| i).collect();
    if let Some(&first) = blend_out.first() {
        losses.push(Loss::new(
            "sequences",
            format!(
                "{} sequences (the first is {first}) have a blend-out time (the upper u16 of version {}'s blend time): the model keeps the blend-in time only",
                blend_out.len(),
                f.version
            ),
        ));
    }
    let ids = f.sequences.iter().map(|s| s.id);
    let sequence_lookup = direct_lookup(ids);
    let playable = PlayableAnimation::derived(&sequence_lookup, sequence_lookup.len());
    if !playable.is_empty() {
        let missing = playable.iter().enumerate().filter(|(id, p)| p.fallback_id as usize != *id).count();
        losses.push(Loss::new(
            PLAYABLE_LOOKUP_LOSS,
            format!("built for {} ids without the client's AnimationData fallbacks: {missing} ids the model lacks fall back to Stand", playable.len()),
        ));
    }
    losses.extend(unread_skins(wrath));
    let flat = M2File {
        sequences: sequences.into(),
        sequence_lookup: sequence_lookup.into(),
        playable_lookup: playable.into(),
        views: wrath.skins.iter().map(|s| s.view.clone()).collect::<Vec<_>>().into(),
        ..f.retime(&r)
    };
    count_losses(f, &mut losses);
    Ok((flat, losses))
}

/// Counts what a 256–263 file cannot hold of `f`.
fn count_losses(f: &WrathFile, losses: &mut Vec<Loss>) {
    let mut parts: Vec<(&str, usize)> = Vec::new();
    for p in f.particle_emitters.iter() {
        for what in particles::unheld(p) {
            match parts.iter_mut().find(|(w, _)| *w == what) {
                Some((_, n)) => *n += 1,
                None => parts.push((what, 1)),
            }
        }
    }
    for (what, n) in parts {
        losses.push(Loss::new(
            "particle emitters",
            format!("{what}: dropped on {n} of {} emitters", f.particle_emitters.len()),
        ));
    }
    let planes = f
        .ribbon_emitters
        .iter()
        .filter(|r| r.priority_plane.is_some_and(|p| p != 0) || r.padding.is_some_and(|p| p != 0))
        .count();
    if planes > 0 {
        losses.push(Loss::new("ribbon emitters", format!("priority plane dropped on {planes} ribbons")));
    }
    let keys = |c: &WrathCamera| c.field_of_view_track.as_ref().map(|t| t.timestamps.iter().map(|t| t.len()).sum());
    let fov_tracks = f.cameras.iter().filter(|c| keys(c).is_some_and(|n: usize| n > 1)).count();
    if fov_tracks > 0 {
        losses.push(Loss::new("cameras", format!("{fov_tracks} animated fields of view kept as their first value")));
    }
    let unset = f.cameras.iter().filter(|c| c.field_of_view.is_none() && keys(c).is_none_or(|n| n == 0)).count();
    if unset > 0 {
        let what = format!("{unset} cameras without a field of view (a 272 track without keys): written as π/4");
        losses.push(Loss::new("cameras", what));
    }
    let aliases = f.sequences.iter().filter(|s| s.is_alias()).count();
    if aliases > 0 {
        losses
            .push(Loss::new(ALIASES_LOSS, format!("{aliases} aliases become sequences sharing their target's window")));
    }
}

mod back;
pub(crate) use back::from_classic;

/// The element of the loss saying the 256–263 form's playable animation lookup was built (Wrath
/// has none: a Wrath file built again does not have this loss).
pub(crate) const PLAYABLE_LOOKUP_LOSS: &str = "playable animation lookup";
/// The element of the loss saying a Wrath file's aliases became sequences in its 256–263 form
/// (a Wrath file built again marks them again: `from_classic`).
pub(crate) const ALIASES_LOSS: &str = "sequences";

/// The `.skin` files the header counts that were not read (a model of m2-incomplete/): a note
/// on reading, and on every write, which cannot give them back.
pub(crate) fn unread_skins(wrath: &Wrath) -> Option<Loss> {
    let (counted, read) = (wrath.file.skin_profiles as usize, wrath.skins.len());
    (counted > read).then(|| Loss::new("views", format!("{} of {counted} .skin files were not read", counted - read)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The marks of the Classic GnomePounder's windows (§9): 10 000/3 ms, rounded.
    #[test]
    fn windows_start_on_the_next_third_of_ten_seconds() {
        let starts: Vec<u64> = [0, 6667, 13333, 20000, 26667, 31333, 34000, 38167, 41500].map(next_mark).to_vec();
        assert_eq!(starts, [3333, 10000, 16667, 23333, 30000, 33333, 36667, 40000, 43333]);
    }

    #[test]
    fn the_hash_lookup_finds_every_id_on_its_home_slot_or_after() {
        let ids = [0, 0, 0, 0, 4, 5, 16, 16, 130, 8, 1];
        let table = hash_lookup(&ids);
        assert_eq!(table.len(), 17);
        for (i, &id) in ids.iter().enumerate() {
            let first = ids.iter().position(|&x| x == id).unwrap_or(i) as i16;
            assert!(table.contains(&first), "{id}");
        }
        assert_eq!(table.get(usize::from(ids[8]) % 17), Some(&8));
    }
}
