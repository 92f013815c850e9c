//! Issue 27 class 3: every layout a real file was found in writes back byte for byte, through
//! `write` and through the common model (a same-format convert with nothing changed). Each file
//! here is a fixture changed the way the layout's description says by relic-testkit's
//! `m2::layouts` (docs/FORMAT-NOTES.md, "M2 layouts").
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::fixture;
use relic_core::WriteOptions;
use relic_core::format::Input;
use relic_m2::file::M2Array;
use relic_m2::wrath::{self, SiblingBytes};
use relic_testkit::m2::layouts;

fn u32_at(bytes: &[u8], at: usize) -> usize {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize
}

fn first_difference(a: &[u8], b: &[u8]) -> Option<usize> {
    a.iter().zip(b).position(|(x, y)| x != y).or((a.len() != b.len()).then(|| a.len().min(b.len())))
}

/// A 256–263 file written back by `write` and by the model (as `relic convert x.m2 y.m2` does,
/// a reader naming an unnamed model after its file).
fn same_both_ways(name: &str, bytes: &[u8]) {
    let file = relic_m2::read(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    let out = relic_m2::write(&file).unwrap();
    assert!(out == bytes, "{name}: write differs from byte {:?}", first_difference(&out, bytes));
    let mut model = relic_m2::read_model(bytes).unwrap();
    if model.name.is_empty() {
        model.name = "file stem".into();
    }
    let converted = relic_m2::write_model(&model, &WriteOptions::default()).unwrap();
    assert!(
        converted.value == bytes,
        "{name}: convert differs from byte {:?}",
        first_difference(&converted.value, bytes)
    );
}

/// An unaligned converter layout (M2Lib's GnomePounder-converted: blocks packed without padding;
/// the fixture: the header's blocks in reverse order, 4-byte aligned) comes back as it was, not
/// "normalised".
#[test]
fn a_foreign_layout_comes_back_as_it_was() {
    same_both_ways("v256_reordered.m2", &fixture("v256_reordered.m2"));
}

/// A layout kept only while it holds: a block that grew is laid out anew (Blizzard's layout),
/// and the file reads back equal.
#[test]
fn a_grown_block_lays_the_file_out_anew() {
    let bytes = fixture("v256_reordered.m2");
    let mut file = relic_m2::read(&bytes).unwrap();
    file.key_bone_lookup.push(-1);
    let out = relic_m2::write(&file).unwrap();
    assert_ne!(out, bytes);
    assert_eq!(out.len() % 16, 0, "Blizzard's layout pads the file to 16");
    assert_eq!(relic_m2::read(&out).unwrap(), file);
}

/// An empty sequence box stored inverted (min above max: Rotating-MinimapArrow.m2 of the 1.12.1
/// interface), with its 201-entry playable lookup, comes back as stored.
#[test]
fn an_inverted_sequence_box_is_kept() {
    let mut bytes = fixture("v256_linear.m2");
    layouts::inverted_box(&mut bytes, 0);
    let sequence = u32_at(&bytes, 0x20);
    assert_eq!(bytes[sequence + 0x24..sequence + 0x28], f32::MAX.to_le_bytes());
    same_both_ways("v256_linear.m2 with an inverted box", &bytes);
}

/// The name "\0Creature…" (stored behind a NUL): the model is named by its text, and the file
/// comes back with the stored bytes, not with the file's name.
#[test]
fn a_name_behind_a_nul_is_read_and_kept() {
    let mut bytes = fixture("v256_linear.m2");
    let text = layouts::name_behind_nul(&mut bytes);
    assert!(!text.is_empty());
    assert_eq!(relic_m2::read(&bytes).unwrap().name_text(), text);
    assert_eq!(relic_m2::read_model(&bytes).unwrap().name, text);
    same_both_ways("v256_linear.m2 with its name behind a NUL", &bytes);
}

/// A name of NULs only: the model is named after its file, and writing that name is said.
#[test]
fn no_name_text_is_reported_when_another_name_is_written() {
    let mut bytes = fixture("v256_linear.m2");
    layouts::no_name_text(&mut bytes);
    let mut model = relic_m2::read_model(&bytes).unwrap();
    assert_eq!(model.name, "");
    model.name = "file stem".into();
    let out = relic_m2::write_model(&model, &WriteOptions::default()).unwrap();
    assert!(out.losses.iter().any(|l| l.element == "name" && l.what.contains("file stem")), "{:?}", out.losses);
    assert_eq!(relic_m2::read(&out.value).unwrap().name_text(), "file stem");
}

/// What the Wrath fixtures hold, as their builder states it (`cargo xtask fixtures` lays these
/// values out from m2-wrath.md without relic).
#[path = "../../../xtask/src/fixtures/m2_wrath/stated.rs"]
mod stated;

use stated::{Model, PerSequence, Timeline};

/// The files of a Wrath fixture model, by name.
fn wrath_fixture(stem: &str) -> Vec<(String, Vec<u8>)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/m2-wrath");
    relic_testkit::files_in(&dir).into_iter().filter(|(n, _)| n.starts_with(stem)).collect()
}

/// `(times, values)` of every timeline of a track as relic read it.
fn read_timelines<T: Copy>(times: &[M2Array<u32>], values: &[M2Array<T>]) -> Vec<(Vec<u32>, Vec<T>)> {
    assert_eq!(times.len(), values.len(), "timestamps and values differ in timelines");
    times.iter().zip(values).map(|(t, v)| (t.items.clone(), v.items.clone())).collect()
}

/// What the builder states for a track with a timeline per sequence, in `m`'s sequence order.
fn stated_per_sequence<T: Copy>(m: &Model, track: PerSequence<T>) -> Vec<(Vec<u32>, Vec<T>)> {
    m.sequences.iter().map(|s| stated::keys(track, s.id)).map(|(t, v)| (t.to_vec(), v.to_vec())).collect()
}

/// What the builder states for a track with one timeline for every sequence.
fn stated_one<T: Copy>(t: Timeline<T>) -> Vec<(Vec<u32>, Vec<T>)> {
    vec![(t.0.to_vec(), t.1.to_vec())]
}

/// The one value of a constant track.
fn constant<T: Copy>(times: &[M2Array<u32>], values: &[M2Array<T>]) -> T {
    assert_eq!(times.len(), 1, "not one timeline");
    assert_eq!(times[0].items, [0], "not one key at 0");
    values[0].items[0]
}

/// Checks what relic read of a Wrath fixture against what its builder states.
fn assert_stated(what: &str, w: &wrath::Wrath, m: &Model) {
    let f = &w.file;
    assert_eq!((f.version, f.flags, f.name_text()), (m.version, m.flags, m.name.to_string()), "{what}");
    assert!(f.global_sequences.is_empty(), "{what}");
    let sequences: Vec<_> =
        f.sequences.iter().map(|s| (s.id, s.variation, s.duration, s.move_speed, s.flags, s.blend_time)).collect();
    let stated_sequences: Vec<_> =
        m.sequences.iter().map(|s| (s.id, s.variation, s.duration, s.move_speed, s.flags, s.blend_time)).collect();
    assert_eq!(sequences, stated_sequences, "{what}: sequences");
    for (i, s) in f.sequences.iter().enumerate() {
        assert_eq!((s.next_variation, usize::from(s.alias_next), s.frequency), (-1, i, 0x7FFF), "{what}: sequence {i}");
    }
    assert_eq!(f.sequence_lookup.items, m.sequence_lookup, "{what}: sequence lookup");

    assert_eq!(f.bones.len(), stated::BONES.len(), "{what}: bones");
    for (i, (b, s)) in f.bones.iter().zip(&stated::BONES).enumerate() {
        let head = (b.key_bone_id, b.flags, b.parent, b.submesh_id, b.unknown, b.pivot);
        assert_eq!(head, (s.key_bone_id, s.flags, s.parent, s.distance, Some(s.crc), s.pivot), "{what}: bone {i}");
    }
    let [b0, b1, b2] = [&f.bones[0], &f.bones[1], &f.bones[2]];
    let none: Vec<(Vec<u32>, Vec<[f32; 3]>)> = Vec::new();
    let quats_none: Vec<(Vec<u32>, Vec<[i16; 4]>)> = Vec::new();
    assert_eq!(read_timelines(&b0.translation.timestamps, &b0.translation.values), none, "{what}: bone 0 translation");
    assert_eq!(read_timelines(&b0.rotation.timestamps, &b0.rotation.values), quats_none, "{what}: bone 0 rotation");
    assert_eq!(
        read_timelines(&b0.scale.timestamps, &b0.scale.values),
        stated_one(stated::BONE0_SCALE),
        "{what}: bone 0 scale"
    );
    assert_eq!(b0.scale.global_sequence, -1, "{what}");
    assert_eq!(
        read_timelines(&b1.rotation.timestamps, &b1.rotation.values),
        stated_per_sequence(m, stated::BONE1_ROTATION),
        "{what}: bone 1 rotation"
    );
    assert_eq!(b1.rotation.interpolation, 1, "{what}");
    assert_eq!(
        read_timelines(&b2.translation.timestamps, &b2.translation.values),
        stated_per_sequence(m, stated::BONE2_TRANSLATION),
        "{what}: bone 2 translation"
    );
    assert_eq!(
        read_timelines(&b2.scale.timestamps, &b2.scale.values),
        stated_per_sequence(m, stated::BONE2_SCALE),
        "{what}: bone 2 scale"
    );
    let mut key_bones = vec![-1i16; stated::KEY_BONE_LOOKUP_LEN];
    key_bones[26] = 0;
    assert_eq!(f.key_bone_lookup.items, key_bones, "{what}: key-bone lookup");

    let vertices: Vec<_> = f.vertices.iter().map(|v| (v.position, v.bone_weights, v.bone_indices)).collect();
    assert_eq!(vertices, stated::VERTICES, "{what}: vertices");
    let textures: Vec<_> = f.textures.iter().map(|t| (t.kind, t.flags, t.filename.items.clone())).collect();
    let stated_textures: Vec<_> =
        stated::TEXTURES.iter().map(|(k, fl, n)| (*k, *fl, n.bytes().chain([0]).collect::<Vec<u8>>())).collect();
    assert_eq!(textures, stated_textures, "{what}: textures");
    assert_eq!(f.bone_lookup.items, stated::BONE_LOOKUP, "{what}: bone lookup");
    assert_eq!(f.texture_lookup.items, stated::TEXTURE_LOOKUP, "{what}: texture lookup");

    assert_eq!(f.colors.len(), 1, "{what}: colours");
    let c = &f.colors[0];
    assert_eq!(read_timelines(&c.color.timestamps, &c.color.values), stated_one(stated::COLOR_RGB), "{what}");
    assert_eq!(
        read_timelines(&c.alpha.timestamps, &c.alpha.values),
        stated_per_sequence(m, stated::COLOR_ALPHA),
        "{what}: colour alpha"
    );
    assert_eq!(f.events.len(), 1, "{what}: events");
    let e = &f.events[0];
    assert_eq!((&e.identifier, e.data, e.bone), (b"$CSS", 7, 1), "{what}: event");
    let event_times: Vec<Vec<u32>> = e.times.timestamps.iter().map(|t| t.items.clone()).collect();
    let stated_times: Vec<Vec<u32>> = stated_per_sequence(m, stated::EVENT_TIMES).into_iter().map(|t| t.0).collect();
    assert_eq!(event_times, stated_times, "{what}: event times");
    assert_eq!((f.attachments.len(), f.attachment_lookup.items.as_slice()), (1, &[0][..]), "{what}");
    assert_eq!(
        constant(&f.attachments[0].visibility.timestamps, &f.attachments[0].visibility.values),
        1,
        "{what}: attachment visibility"
    );
    assert_eq!(
        constant(&f.transparency[0].weight.timestamps, &f.transparency[0].weight.values),
        0x7FFF,
        "{what}: texture weight"
    );

    assert_eq!(f.cameras.len(), 1, "{what}: cameras");
    let cam = &f.cameras[0];
    assert_eq!((cam.far_clip, cam.near_clip), stated::CAMERA_CLIP, "{what}: camera clip");
    if m.version >= 272 {
        assert_eq!(cam.field_of_view, None, "{what}: a 272 camera has no FOV float");
        let fov = cam.field_of_view_track.as_ref().expect("a 272 camera has a FOV track");
        assert_eq!(fov.values[0].items, [[stated::CAMERA_FOV, 0.0, 0.0]], "{what}: FOV track");
    } else {
        assert_eq!((cam.field_of_view, cam.field_of_view_track.is_none()), (Some(stated::CAMERA_FOV), true), "{what}");
    }

    let effects = usize::from(m.effects);
    let counts = (f.lights.len(), f.ribbon_emitters.len(), f.particle_emitters.len());
    assert_eq!(counts, (effects, effects, effects), "{what}: lights, ribbons, particles");
    if m.effects {
        let r = &f.ribbon_emitters[0];
        assert_eq!((r.edges_per_second, r.edge_lifetime, r.priority_plane.unwrap()), stated::RIBBON, "{what}: ribbon");
        assert_eq!((r.textures.items.as_slice(), r.materials.items.as_slice()), (&[0u16][..], &[1u16][..]), "{what}");
        let p = &f.particle_emitters[0];
        let parameters = [
            &p.emission_speed,
            &p.speed_variation,
            &p.vertical_range,
            &p.horizontal_range,
            &p.gravity,
            &p.lifespan,
            &p.emission_rate,
            &p.emission_area_length,
            &p.emission_area_width,
            &p.z_source,
        ]
        .map(|t| constant(&t.timestamps, &t.values));
        assert_eq!(parameters, stated::PARTICLE_PARAMETERS, "{what}: particle parameters");
        let variations = (p.lifespan_variation, p.emission_rate_variation);
        assert_eq!(variations, (Some(stated::PARTICLE_VARIATIONS.0), Some(stated::PARTICLE_VARIATIONS.1)), "{what}");
        assert_eq!((p.blend.blend_mode, p.blend.emitter_type, p.texture_rows, p.texture_cols), (2, 1, 8, 8), "{what}");
        let ages: Vec<u32> = p.life.color.ages.iter().map(|&a| u32::from(a)).collect();
        assert_eq!(
            (ages, p.life.color.values.items.clone()),
            (stated::PARTICLE_COLOR.0.to_vec(), stated::PARTICLE_COLOR.1.to_vec())
        );
        let spin = [p.base_spin, p.base_spin_variation, Some(p.spin), p.spin_variation];
        assert_eq!(spin, stated::PARTICLE_SPIN.map(Some), "{what}");
        assert_eq!(
            read_timelines(&p.enabled_in.timestamps, &p.enabled_in.values),
            stated_per_sequence(m, stated::PARTICLE_ENABLED),
            "{what}: particle enabled"
        );
        assert_eq!(p.multi_texture.is_some(), m.version >= 272, "{what}: multi-texture parameters");
    }

    assert_eq!((f.skin_profiles as usize, w.skins.len()), (m.skins, m.skins), "{what}: skins");
    for (i, (skin, s)) in w.skins.iter().zip(&stated::SKINS).enumerate() {
        assert_eq!(skin.view.indices.items, s.vertices, "{what}: skin {i}'s vertex list");
        let triangles: Vec<u16> = skin.view.triangles.iter().map(|&t| skin.view.indices[usize::from(t)]).collect();
        assert_eq!(triangles, stated::TRIANGLES, "{what}: skin {i}'s triangles");
        let props: Vec<[u8; 4]> = s.vertices.iter().map(|&v| stated::VERTICES[usize::from(v)].2).collect();
        assert_eq!(skin.view.properties.items, props, "{what}: skin {i}'s bone palette slots");
        assert_eq!(skin.view.bone_count_max, s.bone_count_max, "{what}: skin {i}");
        assert_eq!((skin.view.submeshes.len(), skin.view.texture_units.len()), (1, 2), "{what}: skin {i}");
        let shadows: Vec<_> = skin
            .shadow_batches
            .iter()
            .flat_map(|b| b.iter())
            .map(|b| (b.flags, b.flags2, b.unknown, b.submesh, b.texture, b.color, b.transparency))
            .collect();
        let stated_shadows = if m.version >= 272 { stated::SHADOW_BATCHES.to_vec() } else { Vec::new() };
        assert_eq!(shadows, stated_shadows, "{what}: skin {i}'s shadow batches");
    }
    let anims: Vec<String> = m.anims.iter().map(|(_, n)| n.to_string()).collect();
    assert_eq!(w.anim_files, anims, "{what}: .anim files");
    for (s, _) in m.anims {
        assert!(wrath::is_external(&f.sequences, *s), "{what}: sequence {s} is external");
    }
}

/// Reads a Wrath model from its files, checks it against what its builder states, and writes
/// it back — as read, through the common model and, for files in Blizzard's layout (the
/// builder's), laid out anew — to the bytes of its files.
fn wrath_same_both_ways(what: &str, m: &Model, files: &[(String, Vec<u8>)], blizzards_layout: bool) {
    let stem = m.stem;
    let name = format!("{stem}.m2");
    let bytes = files.iter().find(|(n, _)| *n == name).unwrap().1.clone();
    let siblings = SiblingBytes(files.to_vec());
    let input = Input { bytes: &bytes, name: &name, siblings: &siblings };
    let w = wrath::read(&input).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_stated(what, &w, m);
    let (as_read, beside) = wrath::write(&w).unwrap();
    let mut anew = w.clone();
    anew.file.as_read = Default::default();
    for s in &mut anew.skins {
        s.as_read = Default::default();
    }
    let (laid_out, laid_out_beside) = wrath::write(&anew).unwrap();
    let model = relic_m2::read_input(&input).unwrap().value;
    let converted = relic_m2::write_files(&model, &WriteOptions::default()).unwrap().value;
    for (how, out, beside) in [
        ("as read", as_read, beside),
        ("anew", laid_out, laid_out_beside),
        ("via the model", converted.bytes, converted.siblings),
    ] {
        if how == "anew" && !blizzards_layout {
            continue;
        }
        assert!(out == bytes, "{what} ({how}): the .m2 differs from byte {:?}", first_difference(&out, &bytes));
        let names: Vec<String> = beside.iter().map(|s| format!("{stem}{}", s.suffix)).collect();
        let mut expected: Vec<String> = files.iter().map(|(n, _)| n.clone()).filter(|n| *n != name).collect();
        expected.sort();
        let mut written = names.clone();
        written.sort();
        assert_eq!(written, expected, "{what} ({how}): the files written beside the model");
        for s in beside {
            let original = &files.iter().find(|(n, _)| *n == format!("{stem}{}", s.suffix)).unwrap().1;
            assert!(
                s.bytes == *original,
                "{what} ({how}): {} differs from byte {:?}",
                s.suffix,
                first_difference(&s.bytes, original)
            );
        }
    }
}

/// Every Wrath fixture reads as its builder states and writes back to the builder's bytes (the
/// fixtures are laid out by xtask's own builder from m2-wrath.md, not by relic's writer).
#[test]
fn wrath_fixtures_read_as_stated_and_write_back_the_builders_bytes() {
    for m in &stated::MODELS {
        let files = wrath_fixture(m.stem);
        assert_eq!(files.len(), 1 + m.skins + m.anims.len(), "{}: run `cargo xtask fixtures`", m.stem);
        wrath_same_both_ways(m.stem, m, &files, true);
    }
}

/// A 264 file whose texture lookup `(0, 1)` is stored as the first entries of its bone lookup
/// `(0, 1, 2)` (the writer stored one as a prefix of the other).
#[test]
fn a_lookup_sharing_a_longer_ones_bytes_is_kept() {
    let mut files = wrath_fixture("v264_skins");
    let m2 = files.iter_mut().find(|(n, _)| n == "v264_skins.m2").unwrap();
    let bytes = &mut m2.1;
    // Wrath header: bone lookup (u16) at 0x78, texture lookup (u16) at 0x80 (m2-wrath.md §2.1).
    assert!(layouts::shared_prefix(bytes, 0x80, 0x78, 2), "the texture lookup is the bone lookup's start");
    assert_eq!(u32_at(bytes, 0x80 + 4), u32_at(bytes, 0x78 + 4));
    wrath_same_both_ways("v264 with a shared lookup", &stated::V264_SKINS, &files, false);
}

/// A 264 model whose `.anim` holds bytes no pair points to after its keys (converters porting
/// Legion models leave other sequences' keys there: ZombiesProject's druidcat2, 56 384 bytes of
/// which its pairs reach 14 096): the `.anim` comes back whole (issue 39 class 6).
#[test]
fn an_anim_with_bytes_past_its_keys_is_kept() {
    let mut files = wrath_fixture("v264_external");
    let (_, anim) = files.iter_mut().find(|(n, _)| n.ends_with(".anim")).unwrap();
    anim.extend((1..=48u8).map(|b| b.wrapping_mul(37)));
    assert_eq!(anim.len() % 16, 0);
    wrath_same_both_ways("v264 with an .anim longer than its keys", &stated::V264_EXTERNAL, &files, false);
}

/// A 264 model's `.skin` with Cataclysm's header (56 bytes, padded to 0x40: the shadow-batch pair
/// at 0x30) reads its shadow batches and comes back with that header.
#[test]
fn a_cataclysm_skin_header_on_264_is_kept() {
    let mut files = wrath_fixture("v264_skins");
    for (name, bytes) in files.iter_mut().filter(|(n, _)| n.ends_with(".skin")) {
        *bytes = layouts::cataclysm_skin_header(bytes);
        assert_eq!(u32_at(bytes, 0x04 + 4), 0x40, "{name}");
    }
    let name = "v264_skins.m2".to_string();
    let m2 = files.iter().find(|(n, _)| *n == name).unwrap().1.clone();
    let siblings = SiblingBytes(files.clone());
    let w = wrath::read(&Input { bytes: &m2, name: &name, siblings: &siblings }).unwrap();
    assert!(w.skins.iter().all(|s| s.shadow_batches.as_ref().is_some_and(|b| b.is_empty())));
    wrath_same_both_ways("v264 with Cataclysm .skin headers", &stated::V264_SKINS, &files, false);
}

/// Issue 39 item 4: a 264 model's `.skin` with Cataclysm's header whose shadow batches lie past
/// the end of the file (the Wrath client never reads them): read, noted, the pair kept, and the
/// files written back byte for byte (as read, and through the common model).
#[test]
fn shadow_batches_past_the_end_of_a_264_skin_are_kept_unread() {
    let mut files = wrath_fixture("v264_skins");
    for (_, bytes) in files.iter_mut().filter(|(n, _)| n.ends_with(".skin")) {
        *bytes = layouts::shadow_batches_past_end(bytes, 3);
    }
    let name = "v264_skins.m2".to_string();
    let m2 = files.iter().find(|(n, _)| *n == name).unwrap().1.clone();
    let siblings = SiblingBytes(files.clone());
    let input = Input { bytes: &m2, name: &name, siblings: &siblings };
    let w = wrath::read(&input).unwrap();
    for (skin, (_, bytes)) in w.skins.iter().zip(files.iter().filter(|(n, _)| n.ends_with(".skin"))) {
        let pair = skin.unread_shadow_batches.unwrap();
        assert_eq!((pair.count, pair.offset), (3, bytes.len() as u32 + 256));
        assert!(skin.shadow_batches.as_ref().is_some_and(|b| b.is_empty()));
    }
    let read = relic_m2::read_input(&input).unwrap();
    let notes: Vec<String> = read.losses.iter().map(|l| l.to_string()).collect();
    let note = notes.iter().find(|n| n.contains("shadow batches past the end"));
    assert!(note.is_some_and(|n| n.contains(&format!("{} entries", w.skins.len()))), "{notes:?}");
    wrath_same_both_ways("v264 with shadow batches past the end", &stated::V264_SKINS, &files, false);
    // From 272 on the client reads shadow batches: the same pair is refused, naming it.
    let skin = files.iter().find(|(n, _)| n.ends_with(".skin")).unwrap().1.clone();
    let err = relic_m2::wrath::read_skin(&skin, 272).unwrap_err();
    assert!(err.to_string().contains("shadow_batches"), "{err}");
}

/// The real creature.m2 (wowserhq/format): its alias (sequence 1 → 0) shares its target's keys
/// although the texture weight, attachments and cameras have one timeline for every sequence; in
/// Blizzard's layout (the layout pass, not the one kept) it comes back byte for byte.
#[test]
fn creature_aliases_share_keys_in_blizzards_layout() {
    let Some((bytes, siblings)) = common::corpus_creature() else { return };
    let mut w = wrath::read(&Input { bytes: &bytes, name: "creature.m2", siblings: &siblings }).unwrap();
    w.file.as_read = Default::default();
    let (out, _) = wrath::write(&w).unwrap();
    assert!(out == bytes, "creature.m2 differs from byte {:?}", first_difference(&out, &bytes));
}
