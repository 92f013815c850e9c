//! 256–263 → Wrath (m2-wrath.md §9, "256 → 264 writer"): ranges cut into one timeline per
//! sequence, every sequence's keys in the `.m2` (flag 0x20), sequences sharing a window and keys
//! marked as aliases, variation indices counted per id, the hash lookup, bone distances, views
//! moved into `.skin` files.

use relic_core::Loss;

use super::tracks::Split;
use crate::file::wrath::*;
use crate::file::*;
use crate::wrath::{MAX_SKINS, Wrath};

/// Bone 0x0A from Wrath on: `floor(36 × |pivot − parent pivot|)`, 0 for a root (§5.1).
fn distance_to_parent(file: &M2File, b: &Bone) -> u16 {
    let Some(parent) = usize::try_from(b.parent).ok().and_then(|p| file.bones.get(p)) else { return 0 };
    let d: f32 = b.pivot.iter().zip(&parent.pivot).map(|(a, p)| (a - p).powi(2)).sum::<f32>().sqrt();
    (36.0 * d).floor().clamp(0.0, f32::from(u16::MAX)) as u16
}

/// The playable lookup says nothing the sequences do not ([`PlayableAnimation::derived`], the
/// table relic builds for a model without one): nothing is lost when Wrath goes without it.
fn playable_is_derived(file: &M2File) -> bool {
    *file.playable_lookup == *PlayableAnimation::derived(&file.sequence_lookup, file.playable_lookup.len())
}

/// A 256–263 file as a Wrath model of `version` (264 or 272), and what it cannot hold.
pub(crate) fn from_classic(file: &M2File, version: u32) -> (Wrath, Vec<Loss>) {
    let mut losses = Vec::new();
    let windows: Vec<(u32, u32)> = file.sequences.iter().map(|s| (s.start, s.end)).collect();
    let r = Split { windows: &windows, version };
    let sequences = sequences(file, version);
    let ids: Vec<u16> = sequences.iter().map(|s| s.id).collect();
    let mut skins: Vec<Skin> = file.views.iter().map(|v| Skin::from_view(v, version)).collect();
    if skins.len() > MAX_SKINS as usize {
        losses
            .push(Loss::new("views", format!("{} views beyond the {MAX_SKINS} .skin files dropped", skins.len() - 4)));
        skins.truncate(MAX_SKINS as usize);
    }
    if !playable_is_derived(file) {
        losses.push(Loss::new(
            "playable animation lookup",
            format!("{} entries dropped: Wrath has none", file.playable_lookup.len()),
        ));
    }
    let mut f = WrathFile {
        sequences: sequences.into(),
        sequence_lookup: super::hash_lookup(&ids).into(),
        skin_profiles: skins.len() as u32,
        ..file.retime(&r)
    };
    if file.version < 260 {
        // Classic writes 0 at 0x0A; from 260 on it is the distance Wrath keeps there.
        for (bone, b) in f.bones.iter_mut().zip(file.bones.iter()) {
            bone.submesh_id = distance_to_parent(file, b);
        }
    }
    mark_aliases(&mut f, &windows);
    (
        Wrath { file: f, skins, anim_files: Vec::new(), notes: Vec::new(), skeleton: None, bone_files: Vec::new() },
        losses,
    )
}

/// Sequences with durations, flag 0x20 (keys in the `.m2`), variation indices counted per id,
/// alias-next pointing at themselves (aliases are marked afterwards). From 274 the blend time is
/// two u16 (in, out: m2-md21.md §4.3): the time goes in, at most 65 535 ms, and out is 0.
fn sequences(file: &M2File, version: u32) -> Vec<WrathSequence> {
    let mut seen: Vec<(u16, u16)> = Vec::new();
    file.sequences
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let variation = match seen.iter_mut().find(|(id, _)| *id == s.id) {
                Some((_, n)) => {
                    *n += 1;
                    *n
                }
                None => {
                    seen.push((s.id, 0));
                    0
                }
            };
            WrathSequence {
                id: s.id,
                variation,
                duration: s.end.saturating_sub(s.start),
                move_speed: s.move_speed,
                flags: (s.flags & !SEQUENCE_ALIAS) | SEQUENCE_IN_MODEL,
                frequency: s.frequency,
                padding: s.padding,
                replay: s.replay,
                blend_time: if version >= super::SPLIT_BLEND_TIME { s.blend_time.min(0xFFFF) } else { s.blend_time },
                bounds: s.bounds,
                bounds_radius: s.bounds_radius,
                next_variation: s.next_variation,
                alias_next: i as u16,
            }
        })
        .collect()
}

/// Marks as an alias every sequence whose window and keys equal an earlier sequence's (§9: "mark
/// shared-window sequences as aliases"); the target's alias-next points back at its alias (§3.2).
fn mark_aliases(f: &mut WrathFile, windows: &[(u32, u32)]) {
    for s in 0..windows.len() {
        let Some(t) = (0..s).find(|&t| windows.get(t) == windows.get(s)) else { continue };
        if f.sequences.get(t).is_some_and(WrathSequence::is_alias) || !same_keys(f, s, t) {
            continue;
        }
        if let Some(seq) = f.sequences.get_mut(s) {
            seq.flags |= SEQUENCE_ALIAS;
            seq.alias_next = t as u16;
        }
        if let Some(target) = f.sequences.get_mut(t) {
            target.alias_next = s as u16;
        }
    }
}

/// True if every track with a timeline per sequence holds the same keys for sequences `s` and
/// `t`.
fn same_keys(f: &WrathFile, s: usize, t: usize) -> bool {
    use crate::file::record::{Field, Record, Visitor};
    struct Same(usize, usize, bool);
    impl<'f> Visitor<'f> for Same {
        fn pod<T: bytemuck::Pod>(&mut self, _: Field, _: &'f M2Array<T>) {}
        fn records<R: Record>(&mut self, _: Field, array: &'f M2Array<R>) {
            for r in array.iter() {
                r.walk("", self);
            }
        }
        fn timelines<T: bytemuck::Pod>(&mut self, _: Field, outer: &'f M2Array<M2Array<T>>) {
            // A track of one timeline (a global sequence's, or a constant's: creature.m2's
            // texture weight, attachments and cameras) holds no sequence's keys of its own.
            if outer.len() <= 1 {
                return;
            }
            let bytes = |i: usize| outer.get(i).map(|t| bytemuck::cast_slice::<T, u8>(&t.items).to_vec());
            self.2 &= bytes(self.0) == bytes(self.1);
        }
    }
    let mut same = Same(s, t, true);
    f.visit(&mut same);
    same.2
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(sequence_lookup: Vec<i16>, playable: Vec<(i16, i16)>) -> M2File {
        let playable: Vec<PlayableAnimation> =
            playable.into_iter().map(|(fallback_id, flags)| PlayableAnimation { fallback_id, flags }).collect();
        M2File { sequence_lookup: sequence_lookup.into(), playable_lookup: playable.into(), ..M2File::default() }
    }

    #[test]
    fn only_a_lookup_that_says_more_than_the_sequences_is_a_loss_in_wrath() {
        // Ids 0 and 2 present, 1 and 3 not: the derived table plays 0, Stand, 2, Stand.
        let lookup = vec![0, -1, 1];
        assert!(playable_is_derived(&file(lookup.clone(), vec![])));
        assert!(playable_is_derived(&file(lookup.clone(), vec![(0, 0), (0, 0), (2, 0), (0, 0)])));
        // Blizzard's own: id 1 falls back to id 2, or id 2 plays backwards.
        assert!(!playable_is_derived(&file(lookup.clone(), vec![(0, 0), (2, 0), (2, 0)])));
        assert!(!playable_is_derived(&file(lookup, vec![(0, 0), (0, 0), (2, 1)])));
    }
}
