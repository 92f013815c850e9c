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

/// An event time that goes back is still refused: only equal times are tolerated.
#[test]
fn an_event_time_going_back_is_still_refused() {
    let mut bytes = fixture("m2/v256_converter.m2");
    let file = relic_m2::read(&bytes).unwrap();
    let at = file.events[0].times.timestamps.offset as usize + 4;
    bytes[at..at + 4].copy_from_slice(&3000u32.to_le_bytes());
    let e = relic_m2::read(&bytes).unwrap_err().to_string();
    assert!(e.contains("does not come after"), "{e}");
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
