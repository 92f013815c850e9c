//! 256–263 → Wrath (m2-wrath.md §9, "256 → 264 writer"): ranges cut into one timeline per
//! sequence, every sequence's keys in the `.m2` (flag 0x20), sequences sharing a window and keys
//! marked as aliases, variation indices counted per id, the hash lookup, bone distances, views
//! moved into `.skin` files.

use relic_core::Loss;

use super::particles;
use super::tracks::{split, split_events, split_rotation, split_spline};
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
    let sequences = sequences(file);
    let bones: Vec<WrathBone> = file
        .bones
        .iter()
        .map(|b| WrathBone {
            key_bone_id: b.key_bone_id,
            flags: b.flags,
            parent: b.parent,
            distance_to_parent: if file.version >= 260 { b.submesh_id } else { distance_to_parent(file, b) },
            name_crc: b.unknown.unwrap_or(0),
            translation: split(&b.translation, &windows),
            rotation: split_rotation(&b.rotation, &windows),
            scale: split(&b.scale, &windows),
            pivot: b.pivot,
        })
        .collect();
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
        version,
        name: file.name.clone(),
        flags: file.flags,
        global_sequences: file.global_sequences.clone(),
        sequences: sequences.into(),
        sequence_lookup: super::hash_lookup(&ids).into(),
        bones: bones.into(),
        key_bone_lookup: file.key_bone_lookup.clone(),
        vertices: file.vertices.clone(),
        skin_profiles: skins.len() as u32,
        colors: file
            .colors
            .iter()
            .map(|c| WrathColor { color: split(&c.color, &windows), alpha: split(&c.alpha, &windows) })
            .collect::<Vec<_>>()
            .into(),
        textures: file.textures.clone(),
        transparency: file
            .transparency
            .iter()
            .map(|t| WrathTextureWeight { weight: split(&t.weight, &windows) })
            .collect::<Vec<_>>()
            .into(),
        texture_transforms: file
            .texture_transforms
            .iter()
            .map(|t| WrathTextureTransform {
                translation: split(&t.translation, &windows),
                rotation: split(&t.rotation, &windows),
                scaling: split(&t.scaling, &windows),
            })
            .collect::<Vec<_>>()
            .into(),
        replaceable_texture_lookup: file.replaceable_texture_lookup.clone(),
        render_flags: file.render_flags.clone(),
        bone_lookup: file.bone_lookup.clone(),
        texture_lookup: file.texture_lookup.clone(),
        texture_unit_lookup: file.texture_unit_lookup.clone(),
        transparency_lookup: file.transparency_lookup.clone(),
        texture_transform_lookup: file.texture_transform_lookup.clone(),
        bounding_box: file.bounding_box,
        bounding_radius: file.bounding_radius,
        collision_box: file.collision_box,
        collision_radius: file.collision_radius,
        collision_triangles: file.collision_triangles.clone(),
        collision_vertices: file.collision_vertices.clone(),
        collision_normals: file.collision_normals.clone(),
        attachments: file
            .attachments
            .iter()
            .map(|a| WrathAttachment {
                id: a.id,
                bone: a.bone,
                unknown: a.unknown,
                position: a.position,
                visibility: split(&a.visibility, &windows),
            })
            .collect::<Vec<_>>()
            .into(),
        attachment_lookup: file.attachment_lookup.clone(),
        events: file
            .events
            .iter()
            .map(|e| WrathEvent {
                identifier: e.identifier,
                data: e.data,
                bone: e.bone,
                position: e.position,
                times: split_events(&e.times, &windows),
            })
            .collect::<Vec<_>>()
            .into(),
        lights: file.lights.iter().map(|l| light(l, &windows)).collect::<Vec<_>>().into(),
        cameras: file.cameras.iter().map(|c| camera(c, &windows, version)).collect::<Vec<_>>().into(),
        camera_lookup: file.camera_lookup.clone(),
        ribbon_emitters: file.ribbon_emitters.iter().map(|r| ribbon(r, &windows)).collect::<Vec<_>>().into(),
        particle_emitters: file
            .particle_emitters
            .iter()
            .map(|p| particles::from_classic(p, &windows, version))
            .collect::<Vec<_>>()
            .into(),
        combiner_combos: file.blend_overrides.clone(),
    };
    if f.flags & FLAG_COMBINER_COMBOS != 0 && f.combiner_combos.is_none() {
        f.combiner_combos = Some(M2Array::default());
    }
    mark_aliases(&mut f, &windows);
    (Wrath { file: f, skins, anim_files: Vec::new(), notes: Vec::new() }, losses)
}

/// Sequences with durations, flag 0x20 (keys in the `.m2`), variation indices counted per id,
/// alias-next pointing at themselves (aliases are marked afterwards).
fn sequences(file: &M2File) -> Vec<WrathSequence> {
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
                blend_time: s.blend_time,
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

/// True if every track holds the same keys for sequences `s` and `t`.
fn same_keys(f: &WrathFile, s: usize, t: usize) -> bool {
    use crate::file::record::{Field, Record, Visitor};
    struct Same(usize, usize, bool);
    impl<'f> Visitor<'f> for Same {
        fn pod<T: bytemuck::Pod>(&mut self, _: Field, _: &'f M2Array<T>) {}
        fn records<R: Record>(&mut self, _: Field, array: &'f M2Array<R>) {
            for r in array.iter() {
                r.visit(self);
            }
        }
        fn timelines<T: bytemuck::Pod>(&mut self, _: Field, outer: &'f M2Array<M2Array<T>>) {
            let bytes = |i: usize| outer.get(i).map(|t| bytemuck::cast_slice::<T, u8>(&t.items).to_vec());
            self.2 &= bytes(self.0) == bytes(self.1);
        }
    }
    let mut same = Same(s, t, true);
    f.visit(&mut same);
    same.2
}

fn light(l: &Light, w: &[(u32, u32)]) -> WrathLight {
    WrathLight {
        kind: l.kind,
        bone: l.bone,
        position: l.position,
        ambient_color: split(&l.ambient_color, w),
        ambient_intensity: split(&l.ambient_intensity, w),
        diffuse_color: split(&l.diffuse_color, w),
        diffuse_intensity: split(&l.diffuse_intensity, w),
        attenuation_start: split(&l.attenuation_start, w),
        attenuation_end: split(&l.attenuation_end, w),
        visibility: split(&l.visibility, w),
    }
}

fn camera(c: &Camera, w: &[(u32, u32)], version: u32) -> WrathCamera {
    let fov_track = SeqTrack {
        interpolation: 0,
        global_sequence: -1,
        timestamps: M2Array::new(vec![M2Array::new(vec![0])]),
        values: M2Array::new(vec![M2Array::new(vec![[c.field_of_view, 0.0, 0.0]])]),
    };
    WrathCamera {
        kind: c.kind,
        field_of_view: (version < 272).then_some(c.field_of_view),
        far_clip: c.far_clip,
        near_clip: c.near_clip,
        positions: split_spline(&c.positions, w),
        position_base: c.position_base,
        target_positions: split_spline(&c.target_positions, w),
        target_position_base: c.target_position_base,
        roll: split_spline(&c.roll, w),
        field_of_view_track: (version >= 272).then_some(fov_track),
    }
}

fn ribbon(r: &Ribbon, w: &[(u32, u32)]) -> WrathRibbon {
    WrathRibbon {
        id: r.id,
        bone: r.bone,
        position: r.position,
        textures: r.textures.clone(),
        materials: r.materials.clone(),
        color: split(&r.color, w),
        alpha: split(&r.alpha, w),
        height_above: split(&r.height_above, w),
        height_below: split(&r.height_below, w),
        edges_per_second: r.edges_per_second,
        edge_lifetime: r.edge_lifetime,
        gravity: r.gravity,
        texture_rows: r.texture_rows,
        texture_cols: r.texture_cols,
        texture_slot: split(&r.texture_slot, w),
        visibility: split(&r.visibility, w),
        priority_plane: 0,
        padding: 0,
    }
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
