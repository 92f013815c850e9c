//! Issue 27 class 3: every layout a real file was found in writes back byte for byte, through
//! `write` and through the common model (a same-format convert with nothing changed). Each file
//! here is a fixture changed the way the layout's description says by relic-testkit's
//! `m2::layouts` (docs/FORMAT-NOTES.md, "M2 layouts").
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::fixture;
use relic_core::WriteOptions;
use relic_core::format::Input;
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

/// The files of a Wrath fixture model, by name.
fn wrath_fixture(stem: &str) -> Vec<(String, Vec<u8>)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/m2-wrath");
    relic_testkit::files_in(&dir).into_iter().filter(|(n, _)| n.starts_with(stem)).collect()
}

/// A Wrath model and its files written back by `wrath::write` and by the model.
fn wrath_same_both_ways(what: &str, stem: &str, files: &[(String, Vec<u8>)]) {
    let name = format!("{stem}.m2");
    let bytes = files.iter().find(|(n, _)| *n == name).unwrap().1.clone();
    let siblings = SiblingBytes(files.to_vec());
    let input = Input { bytes: &bytes, name: &name, siblings: &siblings };
    let w = wrath::read(&input).unwrap_or_else(|e| panic!("{what}: {e}"));
    let (model_bytes, written) = wrath::write(&w).unwrap();
    let model = relic_m2::read_input(&input).unwrap().value;
    let converted = relic_m2::write_files(&model, &WriteOptions::default()).unwrap().value;
    for (out, beside) in [(model_bytes, written), (converted.bytes, converted.siblings)] {
        assert!(out == bytes, "{what}: the .m2 differs from byte {:?}", first_difference(&out, &bytes));
        for s in beside {
            let original = &files.iter().find(|(n, _)| *n == format!("{stem}{}", s.suffix)).unwrap().1;
            assert!(
                s.bytes == *original,
                "{what}: {} differs from byte {:?}",
                s.suffix,
                first_difference(&s.bytes, original)
            );
        }
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
    wrath_same_both_ways("v264 with a shared lookup", "v264_skins", &files);
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
    wrath_same_both_ways("v264 with Cataclysm .skin headers", "v264_skins", &files);
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
