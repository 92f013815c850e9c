//! The spec's open questions (fields tagged [peers], [conflict], unknown or "preserve" in
//! `shared/specs/m2.md`): each value the spec allows is handled, or refused with an error naming
//! the field, its offset and the value. docs/FORMAT-NOTES.md (M2 table) lists them with these tests.

// Test helpers: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::fixture;
use relic_core::WriteOptions;
use relic_m2::file::ParticleBlend;

fn u32_at(bytes: &[u8], at: usize) -> usize {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize
}

/// `read → write` and `format → model → format` give the same bytes with no loss.
fn kept(bytes: &[u8], what: &str) -> relic_m2::M2File {
    let file = relic_m2::read(bytes).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(relic_m2::write(&file).unwrap() == bytes, "{what}: re-write differs");
    let model = relic_m2::read_model(bytes).unwrap();
    let out = relic_m2::write_model(&model, &WriteOptions::default()).unwrap();
    assert!(out.losses.is_empty(), "{what}: {:?}", out.losses);
    assert!(out.value == bytes, "{what}: not byte-identical through the model");
    file
}

/// Spec §1: 257–259 were never reported; they are read with the Classic layout.
#[test]
fn version_257_reads_as_classic() {
    let file = kept(&fixture("v257_linear.m2"), "v257");
    assert_eq!(file.version, 257);
    assert!(matches!(file.bones[1].rotation, relic_m2::file::RotationTrack::Float(_)));
}

/// Spec §2: texture flipbooks are never populated (record layout unknown); a count is refused
/// with the field, its offset and the count.
#[test]
fn populated_texture_flipbooks_are_refused() {
    let mut bytes = fixture("v256_linear.m2");
    bytes[0x6C..0x70].copy_from_slice(&3u32.to_le_bytes());
    let err = relic_m2::read(&bytes).unwrap_err();
    assert_eq!((err.path.as_str(), err.offset), ("texture_flipbooks", 0x6C), "{err}");
    assert!(err.to_string().contains("3 texture flipbooks"), "{err}");
}

/// Spec §14 [conflict]: bytes 0x28–0x2B of a particle emitter. Up to 259 always two u16; from 260
/// u8 + u8 + u16 when that reads as a blend mode 0–7 and an emitter type 1–3, or when two u16 do
/// not; else two u16. The four bytes come back as read either way.
#[test]
fn particle_blend_bytes_are_read_by_what_makes_sense() {
    let wide = |b, e| ParticleBlend::Wide { blend_mode: b, emitter_type: e };
    let split = |b, e, c| ParticleBlend::Split { blend_mode: b, emitter_type: e, color_index: c };
    for (name, version, raw, want) in [
        ("v256_effects.m2", 256, [2u8, 0, 1, 0], wide(2, 1)),
        ("v256_effects.m2", 256, [2, 1, 0, 0], wide(0x102, 0)),
        ("v260_effects_wide.m2", 260, [2, 0, 1, 0], wide(2, 1)),
        ("v263_effects_overrides.m2", 263, [2, 1, 0, 0], split(2, 1, 0)),
        ("v263_effects_overrides.m2", 263, [2, 1, 5, 0], split(2, 1, 5)),
        ("v263_effects_overrides.m2", 263, [9, 9, 9, 9], split(9, 9, 0x909)),
    ] {
        let mut bytes = fixture(name);
        let particles = u32_at(&bytes, 0x13C + 4);
        bytes[particles + 0x28..particles + 0x2C].copy_from_slice(&raw);
        let file = kept(&bytes, name);
        assert_eq!((file.version, file.particle_emitters[0].blend.blending), (version, want), "{name} {raw:?}");
    }
}

/// Spec §8 [conflict]: texture-transform rotations are read as 4×f32 in every version. A file
/// storing them as 4×i16 (8 bytes a key) followed by its padding reads with the wrong stride,
/// but the model never interprets them (texture animations stay in the extras) and the bytes
/// come back unchanged.
#[test]
fn texture_rotations_of_another_layout_come_back_unchanged() {
    for name in ["v256_texture_animation.m2", "v263_texture_animation.m2"] {
        let bytes = fixture(name);
        let file = kept(&bytes, name);
        let rotation = &file.texture_transforms[0].rotation;
        assert_eq!(rotation.values.len(), 2, "{name}");
        // Two keys as compressed shorts (16 bytes), then 16 bytes of padding.
        let mut shorts = bytes.clone();
        let at = rotation.values.offset as usize;
        let codes: Vec<u8> =
            [32767i16, 32767, 32767, -1, 32767, 32767, 23169, 23169].iter().flat_map(|c| c.to_le_bytes()).collect();
        shorts[at..at + 16].copy_from_slice(&codes);
        shorts[at + 16..at + 32].fill(0);
        kept(&shorts, &format!("{name} with 4×i16 rotations"));
    }
}

/// Spec §7: a track whose range count is not sequences + 1 (no terminator here) animates only the
/// sequences it has a range for, and is kept as stored. (The patched count leaves 8 bytes
/// unreferenced, so this file comes back in Blizzard's layout; the generator's files without a
/// terminator come back byte for byte.)
#[test]
fn a_range_count_other_than_sequences_plus_one_is_kept() {
    let mut bytes = fixture("v256_linear.m2");
    let bones = u32_at(&bytes, 0x38);
    let ranges = bones + 108 + 0x28 + 4; // bone 1's rotation ranges pair
    assert_eq!(u32_at(&bytes, ranges), 3);
    bytes[ranges..ranges + 4].copy_from_slice(&2u32.to_le_bytes());
    let file = relic_m2::read(&bytes).unwrap();
    assert_eq!(file.bones[1].rotation.head().2.len(), 2);
    let normalised = relic_m2::write(&file).unwrap();
    assert_eq!(relic_m2::read(&normalised).unwrap(), file);
    kept(&normalised, "2 ranges");
}

/// Spec §5, §6, §12, §13: sequence flags ("preserve"), the TBC bone u32 (unknown), render flag
/// 0x8 (unclear) and the attachment's unknown u16 are kept as read.
#[test]
fn unknown_and_unclear_values_are_kept() {
    let bytes = fixture("v256_texture_animation.m2");
    let file = kept(&bytes, "v256_texture_animation");
    assert_eq!(file.sequences[1].flags, 0x3);
    assert_eq!(file.render_flags[1].flags, 0x18);
    assert_eq!(file.attachments[0].unknown, 7);
    assert_eq!((file.colors.len(), file.texture_transforms.len()), (1, 1));
    let mut tbc = fixture("v263_texture_animation.m2");
    let bones = u32_at(&tbc, 0x38);
    tbc[bones + 112 + 12..bones + 112 + 16].copy_from_slice(&0xDEAD_BEEFu32.to_le_bytes());
    let file = kept(&tbc, "v263 bone unknown");
    assert_eq!(file.bones[1].unknown, Some(0xDEAD_BEEF));
}

/// What the model has no field for is reported when it is dropped: render-flag bit 0x8 when the
/// materials are rebuilt from the model.
#[test]
fn unmapped_render_flag_bits_dropped_are_a_loss() {
    let mut model = relic_m2::read_model(&fixture("v256_texture_animation.m2")).unwrap();
    model.materials[0].textures[0].path = "CREATURE\\FIXTURE\\OTHER.BLP".into();
    let out = relic_m2::write_model(&model, &WriteOptions::default()).unwrap();
    assert!(out.losses.iter().any(|l| l.what.contains("render-flag bits 0x8")), "{:?}", out.losses);
    assert!(out.losses.iter().any(|l| l.what.contains("colour and UV animations")), "{:?}", out.losses);
}
