//! Inconsistencies the game loads (issue 27 class 2): converter-written files open, keep their
//! bytes, and each inconsistency is a note among the read's losses, naming what relic did.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use relic_core::format::Input;
use relic_m2::wrath::SiblingBytes;

fn fixture(path: &str) -> Vec<u8> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
    std::fs::read(dir.join(path)).expect("run `cargo xtask fixtures`")
}

fn notes(losses: &[relic_core::Loss]) -> String {
    losses.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")
}

#[test]
fn a_converter_written_classic_file_opens_keeps_its_bytes_and_names_each_inconsistency() {
    let bytes = fixture("m2/v256_converter.m2");
    let file = relic_m2::read(&bytes).unwrap();
    assert_eq!(relic_m2::write(&file).unwrap(), bytes, "same-format write is byte-identical");
    let empty = SiblingBytes(Vec::new());
    let read = relic_m2::read_input(&Input { bytes: &bytes, name: "v256_converter.m2", siblings: &empty }).unwrap();
    let text = notes(&read.losses);
    for what in ["collision_triangles: entry 5", "texture_transform_lookup: entry 0", "events: entry 0"] {
        assert!(text.contains(what), "{what} missing from:\n{text}");
    }
    assert_eq!(read.losses.len(), 3, "{text}");
    // The model converts back to the same bytes (both firings of the event are kept).
    let out = relic_m2::write_model(&read.value, &Default::default()).unwrap();
    assert_eq!(out.value, bytes);
    // relic info lists the notes.
    let info = relic_m2::info(&bytes).unwrap();
    assert_eq!(info.facts.iter().filter(|(k, _)| *k == "note").count(), 3);
    // Every check of the corpus battery passes on it.
    let checks = relic_m2::verify::corpus_checks(&bytes);
    assert!(checks.passed(), "{checks:?}");
}

/// Blocks that share bytes (issue 39 class 1, as three converter-written v256 creatures have
/// them): read where each pair points, a note naming the first pair and the count, the file
/// written back byte for byte, through the common model too.
#[test]
fn blocks_that_share_bytes_are_read_as_the_game_reads_them_and_kept() {
    let bytes = fixture("m2/v256_overlapping.m2");
    let file = relic_m2::read(&bytes).unwrap();
    assert_eq!(relic_m2::write(&file).unwrap(), bytes, "same-format write is byte-identical");
    // The translation's last two keys are the texture name's letters read as floats.
    let keys = &file.bones[2].translation.values;
    assert_eq!(keys[2][0].to_le_bytes(), *b"CREA", "{keys:?}");
    assert_eq!(keys[3][1].to_le_bytes(), *b"\\FIX", "{keys:?}");
    let empty = SiblingBytes(Vec::new());
    let read = relic_m2::read_input(&Input { bytes: &bytes, name: "v256_overlapping.m2", siblings: &empty }).unwrap();
    let text = notes(&read.losses);
    assert!(text.contains("layout: 4 pairs of blocks share bytes"), "{text}");
    assert!(text.contains("bones[2].translation.values at 0x8f8"), "{text}");
    let out = relic_m2::write_model(&read.value, &Default::default()).unwrap();
    assert_eq!(out.value, bytes);
    let checks = relic_m2::verify::corpus_checks(&bytes);
    assert!(checks.passed(), "{checks:?}");
}

/// A Wrath file's keys live in per-sequence timelines and `.anim` files: the 256–263 form it is
/// mapped through has no offsets of its own, so no "layout" note may come of it (every Wrath file
/// with external keys had "N pairs of blocks share bytes … at 0x0", a layout that is not there).
#[test]
fn a_wrath_file_with_anim_files_has_no_layout_note() {
    let files = ["v264_external.m2", "v264_external00.skin", "v264_external01.skin", "v264_external02.skin"];
    let mut siblings: Vec<(String, Vec<u8>)> =
        files[1..].iter().map(|n| (n.to_string(), fixture(&format!("m2-wrath/{n}")))).collect();
    siblings.push(("v264_external0000-00.anim".into(), fixture("m2-wrath/v264_external0000-00.anim")));
    let bytes = fixture("m2-wrath/v264_external.m2");
    let siblings = SiblingBytes(siblings);
    let read = relic_m2::read_input(&Input { bytes: &bytes, name: files[0], siblings: &siblings }).unwrap();
    let text = notes(&read.losses);
    assert!(!text.contains("layout:"), "{text}");
    let (_, info) =
        relic_m2::read_input_with_info(&Input { bytes: &bytes, name: files[0], siblings: &siblings }).unwrap();
    let layout = info
        .facts
        .iter()
        .filter(|(k, v)| *k == "note" && matches!(v, relic_core::info::Fact::Text(t) if t.starts_with("layout:")))
        .count();
    assert_eq!(layout, 0, "{:?}", info.facts);
}

/// Blocks that read the same bytes many times over are still refused: the reader's memory stays
/// bounded by the file's size.
#[test]
fn blocks_adding_up_to_many_times_the_file_are_refused() {
    let mut bytes = fixture("m2/v256_linear.m2");
    let len = bytes.len() as u32;
    // The global sequences (0x14, u32 each) and the collision normals (0xfc, 12 bytes each) each
    // made to cover the whole file; the name (0x08) and the collision vertices (0xf4) too.
    for (pair, size) in [(0x08, 1), (0x14, 4), (0xf4, 12), (0xfc, 12)] {
        bytes[pair..pair + 4].copy_from_slice(&(len / size).to_le_bytes());
        bytes[pair + 4..pair + 8].copy_from_slice(&0u32.to_le_bytes());
    }
    let e = relic_m2::read(&bytes).unwrap_err().to_string();
    assert!(e.contains("more than 4 × the file's"), "{e}");
}

/// Vertices no view names (Koward/Improved_Models' kobold2.m2: 1,255 of 3,130): the model cannot
/// hold them, the extras do, and a same-format write puts them back in place — through the
/// typed extras and through their JSON (glTF's path).
#[test]
fn vertices_no_view_names_come_back_in_place() {
    let bytes = fixture("m2/v256_unviewed_vertices.m2");
    let file = relic_m2::read(&bytes).unwrap();
    assert_eq!(file.vertices.len(), 8);
    let model = relic_m2::read_model(&bytes).unwrap();
    assert_eq!(model.vertex_count(), 6, "the model holds the viewed vertices");
    let out = relic_m2::write_model(&model, &Default::default()).unwrap();
    assert!(out.losses.is_empty(), "{:?}", out.losses);
    assert_eq!(out.value, bytes);
    let extras = model.extras.as_ref().unwrap();
    let mut via_json = model.clone();
    via_json.extras = Some(relic_core::model::FormatExtras::from_json(relic_m2::FORMAT, extras.json().unwrap()));
    assert_eq!(relic_m2::write_model(&via_json, &Default::default()).unwrap().value, bytes);
}

/// Event tracks the game loads (issue 39 class 3): a range reaching past the keys, times going
/// back, an event without keys whose range is `[0, 1)`: read, two notes, kept byte for byte; the
/// model fires, for each sequence, the keys its range has, in time order.
#[test]
fn event_tracks_the_game_loads_are_read_noted_and_kept() {
    let bytes = fixture("m2/v256_loose_events.m2");
    let file = relic_m2::read(&bytes).unwrap();
    assert_eq!(relic_m2::write(&file).unwrap(), bytes);
    let empty = SiblingBytes(Vec::new());
    let read = relic_m2::read_input(&Input { bytes: &bytes, name: "v256_loose_events.m2", siblings: &empty }).unwrap();
    let text = notes(&read.losses);
    assert!(text.contains("events: 2 entries (the first is 0) has a sequence range reaching past its keys"), "{text}");
    assert!(text.contains("events: entry 0 has firing times that go back"), "{text}");
    // Stand [0, 2): 3900 and 3500 ms on the timeline, Stand starting at 3333 ms; Walk [2, 4)
    // fires the one key that exists (10500 ms, Walk starting at 10000 ms).
    let times = |a: usize| read.value.animations[a].events.iter().map(|e| e.time).collect::<Vec<_>>();
    assert_eq!(times(0), [0.167, 0.567]);
    assert_eq!(times(1), [0.5]);
    let out = relic_m2::write_model(&read.value, &Default::default()).unwrap();
    assert_eq!(out.value, bytes);
    let checks = relic_m2::verify::corpus_checks(&bytes);
    assert!(checks.passed(), "{checks:?}");
}

/// Particle tracks holding NaN (issue 39 class 2): the model carries 0 in their place (glTF holds
/// no NaN), a note counts them, and the record keeps the bits: the file comes back byte for byte.
#[test]
fn non_finite_particle_values_are_kept_bit_for_bit_with_a_finite_stand_in() {
    let bytes = fixture("m2/v256_nan_particle.m2");
    let file = relic_m2::read(&bytes).unwrap();
    assert_eq!(file.particle_emitters[0].emission_speed.values[0].to_bits(), 0x7FC0_0001);
    assert_eq!(relic_m2::write(&file).unwrap(), bytes);
    let empty = SiblingBytes(Vec::new());
    let read = relic_m2::read_input(&Input { bytes: &bytes, name: "v256_nan_particle.m2", siblings: &empty }).unwrap();
    let text = notes(&read.losses);
    assert!(text.contains("particle_emitters: entry 0 has 2 track values that are not finite"), "{text}");
    let speed = read.value.emitters[0].tracks.iter().find(|t| t.property == "emission_speed").unwrap();
    assert_eq!(speed.values, [0.0]);
    read.value.validate().unwrap();
    let out = relic_m2::write_model(&read.value, &Default::default()).unwrap();
    assert_eq!(out.value, bytes);
}

/// A v272 item whose texture units name texture-coordinate combo 0 when the lookup is empty (as
/// the real axe_1h_blacksmithing_d_01.m2 does): read, with a note; its texture uses UV set 0.
#[test]
fn a_v272_texture_unit_naming_a_combo_when_there_are_none_is_a_note() {
    let mut m2 = fixture("m2-wrath/v272_effects.m2");
    m2[0x88..0x8C].copy_from_slice(&0u32.to_le_bytes());
    let skins: Vec<(String, Vec<u8>)> = (0..4)
        .map(|i| (format!("v272_effects{i:02}.skin"), fixture(&format!("m2-wrath/v272_effects{i:02}.skin"))))
        .collect();
    let siblings = SiblingBytes(skins);
    let input = Input { bytes: &m2, name: "v272_effects.m2", siblings: &siblings };
    let read = relic_m2::read_input(&input).unwrap();
    let text = notes(&read.losses);
    assert!(text.contains("views[0].texture_units: ") && text.contains("UV set 0"), "{text}");
    let uv_sets: Vec<Option<u32>> =
        read.value.materials.iter().flat_map(|m| m.textures.iter().map(|t| t.uv_set)).collect();
    assert!(!uv_sets.is_empty() && uv_sets.iter().all(|&s| s == Some(0)), "{uv_sets:?}");
}
