//! Every fixture (built by `cargo xtask fixtures` from the spec, not by this crate's writer):
//! detected, read, written back byte for byte, every mip decoded, re-encoded within the bound;
//! what each variant decodes to; hostile fixtures refused with typed errors naming the field.

// Test code: a failed unwrap or index is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::path::{Path, PathBuf};

use relic_core::ReadErrorKind;
use relic_core::texture::{Image, TextureEncoding, TextureOptions};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/dtx")
}

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e} (run `cargo xtask fixtures`)"))
}

fn decode(name: &str, level: usize) -> Image {
    relic_dtx::decode_bytes(&fixture(name), level, &TextureOptions::default()).unwrap()
}

#[test]
fn every_fixture_passes_the_checks() {
    let mut seen = 0;
    for entry in std::fs::read_dir(dir()).unwrap() {
        let path = entry.unwrap().path();
        if !path.is_file() {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        assert!(relic_dtx::detect(&bytes).is_some(), "{name}: not detected");
        let checks = relic_dtx::verify::corpus_checks(&relic_core::format::Input::bytes_only(&bytes));
        let lines: Vec<String> = checks.0.iter().map(ToString::to_string).collect();
        assert!(checks.passed(), "{name}: {lines:?}");
        assert_eq!(checks.refused(), name == "v5_bpp16.dtx", "{name}: {lines:?}");
        seen += 1;
    }
    assert!(seen >= 12, "{seen} fixtures");
}

#[test]
fn variants_decode_as_the_spec_says() {
    // v−2: palette bytes X, R, G, B; pixel 1 of mip 0 has index 7.
    let v2 = decode("v2_pal.dtx", 0);
    assert!(v2.is_opaque());
    assert_eq!(&v2.rgba[4..8], &[(7 * 37 % 256) as u8, (7 * 91 % 256) as u8, (7 * 53 % 256) as u8, 255]);
    // Masks: 4 bits, low nibble first, × 17; the 1×1 mip has a 0-byte mask (w·h/2): alpha 0.
    let masked = decode("v2_masks.dtx", 0);
    assert_eq!(masked.rgba[3], 0);
    assert_eq!(masked.rgba[7], 255);
    assert_eq!(masked.rgba[11], 7 * 17);
    assert_eq!(decode("v2_masks.dtx", 3).rgba[3], 0);
    assert_eq!(decode("v3_pal.dtx", 1).rgba.len(), 4 * 4 * 4);
    // BPP_32: B, G, R, A; ident 0 reads as BPP_32.
    assert_eq!(&decode("v5_bgra.dtx", 0).rgba[4..8], &[254, 3, 11, 255]);
    assert_eq!(decode("v5_bpp0.dtx", 0).rgba[..4], decode("v5_bgra.dtx", 0).rgba[..4]);
    // DXT mips by LithTech's rule: 8×8 DXT1 mips hold 32, 8, 2 and 0 bytes; all decode.
    let file = relic_dtx::read(&fixture("v5_dxt1.dtx")).unwrap();
    assert_eq!(file.mips.iter().map(Vec::len).collect::<Vec<_>>(), [32, 8, 2, 0]);
    assert_eq!(decode("v5_dxt1.dtx", 3), Image { width: 1, height: 1, rgba: vec![0, 0, 0, 255] });
    assert_eq!(
        relic_dtx::read(&fixture("v5_dxt3.dtx")).unwrap().mips.iter().map(Vec::len).collect::<Vec<_>>(),
        [64, 16, 4, 1]
    );
    assert_eq!((decode("v5_npot.dtx", 1).width, decode("v5_npot.dtx", 1).height), (6, 3));
    // Sections and LIGHTDEFS are kept as bytes.
    let section = relic_dtx::read(&fixture("v5_section.dtx")).unwrap();
    assert_eq!(section.sections.len(), 1);
    assert_eq!(section.sections[0].kind.to_text(), "CUBEMAPDATA");
    assert_eq!(section.sections[0].data.len(), 48);
    let lights = relic_dtx::read(&fixture("v2_lights.dtx")).unwrap();
    assert!(lights.trailing.starts_with(b"LIGHTDEFS"));
    // BPP_16: read, not decoded, naming the ident.
    let err = relic_dtx::decode_bytes(&fixture("v5_bpp16.dtx"), 0, &TextureOptions::default()).unwrap_err();
    assert_eq!(err.path, "DtxHeader.extra_lt2.bpp");
    assert!(err.to_string().contains("BPP ident 2 (BPP_16)"), "{err}");
}

#[test]
fn hostile_fixtures_are_refused_with_the_field() {
    let expect = [
        ("huge.dtx", "DtxFile.mips[0]"),
        ("v4.dtx", "DtxHeader.version"),
        ("mips16.dtx", "DtxHeader.mip_count"),
        ("mips_too_deep.dtx", "DtxHeader.mip_count"),
        ("sections_too_many.dtx", "DtxFile.sections"),
        ("section_len.dtx", "DtxFile.sections[0].data"),
        ("bpp9.dtx", "DtxHeader.extra_lt2.bpp"),
        ("v3_trailing.dtx", "DtxFile.trailing"),
    ];
    for (name, path) in expect {
        let bytes = fixture(&format!("hostile/{name}"));
        let err = relic_dtx::read(&bytes).unwrap_err();
        assert_eq!(err.path, path, "{name}: {err}");
        assert!(relic_dtx::detect(&bytes).is_none(), "{name} detected");
    }
    let err = relic_dtx::read(&fixture("hostile/v4.dtx")).unwrap_err();
    assert!(matches!(err.kind, ReadErrorKind::UnsupportedVersion { version: 4, .. }), "{err}");
    let err = relic_dtx::decode_bytes(&fixture("hostile/huge.dtx"), 0, &TextureOptions::default()).unwrap_err();
    assert!(matches!(err.kind, ReadErrorKind::ImageTooLarge { width: 65_535, height: 65_535, .. }), "{err}");
    assert_eq!(err.path, "DtxHeader.width");
}

#[test]
fn encoding_writes_the_variant_asked_for() {
    let image = decode("v5_bgra.dtx", 0);
    let auto = TextureOptions::default();
    let read = |bytes: &[u8]| relic_dtx::read(bytes).unwrap();
    let raw = relic_dtx::encode_bytes(&image, &auto).unwrap();
    let file = read(&raw.value);
    assert_eq!((file.header.version, file.bpp()), (-5, Some(relic_dtx::Bpp::Bgra32)));
    assert_eq!(file.mips.len(), 3, "8×4 holds 3 mips");
    assert_eq!(relic_dtx::decode(&file, 0, &auto).unwrap(), image);
    for (encoding, bpp) in
        [(TextureEncoding::Dxt1, relic_dtx::Bpp::Dxt1), (TextureEncoding::Dxt5, relic_dtx::Bpp::Dxt5)]
    {
        let out = relic_dtx::encode_bytes(&image, &TextureOptions { encoding, ..auto }).unwrap();
        assert_eq!(read(&out.value).bpp(), Some(bpp));
        assert!(out.losses.iter().any(|l| l.element == "mips"), "{:?}", out.losses);
    }
    let palettized = TextureOptions { encoding: TextureEncoding::Palettized, ..auto };
    let v2 = relic_dtx::encode_bytes(&decode("v2_masks.dtx", 0), &palettized).unwrap();
    let file = read(&v2.value);
    assert_eq!((file.header.version, file.header.flags), (-2, 0xA));
    assert_eq!(relic_dtx::decode(&file, 0, &auto).unwrap(), decode("v2_masks.dtx", 0));
    // Keeping a template's header: flags, extra bytes, command string.
    let template = read(&fixture("v5_dxt5.dtx"));
    let like =
        relic_dtx::encode_like(&decode("v5_dxt5.dtx", 0), &relic_dtx::options_for(&template), Some(&template)).unwrap();
    assert_eq!(like.value.header.flags, template.header.flags);
    assert_eq!(like.value.header.command, template.header.command);
    assert_eq!(like.value.header.mip_count, 3);
    // v−3 is not written; v−2 holds no DXT. (v−5 palettized is BPP_32P: bpp32p_encodes_back_….)
    for bad in [
        TextureOptions { version: Some(3), ..auto },
        TextureOptions { version: Some(2), encoding: TextureEncoding::Dxt1, ..auto },
    ] {
        assert!(relic_dtx::encode_bytes(&image, &bad).is_err(), "{bad:?}");
    }
}

/// Writing like a template (what `relic convert X.dtx Y.dtx` does): unchanged, the template
/// itself; edited, the template's version, encoding, mip count and header, its untouched DXT
/// blocks kept; a v−3 template, which is not written, becomes v−2 with a loss.
#[test]
fn encoding_like_a_template_keeps_what_the_options_leave_open() {
    let auto = TextureOptions::default();
    let read = |name: &str| relic_dtx::read(&fixture(name)).unwrap();
    for name in ["v2_pal.dtx", "v2_masks.dtx", "v3_pal.dtx", "v5_bgra.dtx", "v5_dxt1.dtx", "v5_dxt5.dtx"] {
        let template = read(name);
        let same = relic_dtx::encode_like(&decode(name, 0), &auto, Some(&template)).unwrap();
        assert!(same.losses.is_empty(), "{name}: {:?}", same.losses);
        assert_eq!(relic_dtx::write(&same.value).unwrap(), fixture(name), "{name}");
    }
    // Edited DXT1: still v−5 DXT1 with the template's header and mip count; the blocks the edit
    // left alone keep their bytes.
    let template = read("v5_dxt1.dtx");
    let mut image = decode("v5_dxt1.dtx", 0);
    image.rgba[..4].copy_from_slice(&[1, 2, 3, 255]);
    let out = relic_dtx::encode_like(&image, &auto, Some(&template)).unwrap().value;
    assert_eq!((out.header.version, out.bpp()), (-5, Some(relic_dtx::Bpp::Dxt1)));
    assert_eq!(
        (out.header.flags, out.header.command, out.mips.len()),
        (template.header.flags, template.header.command, template.mips.len())
    );
    assert_ne!(out.mips[0][..8], template.mips[0][..8], "the edited block");
    assert_eq!(out.mips[0][8..], template.mips[0][8..], "the others, byte for byte");
    // Edited v−3: written as v−2, saying so.
    let mut image = decode("v3_pal.dtx", 0);
    image.rgba[0] ^= 1;
    let out = relic_dtx::encode_like(&image, &auto, Some(&read("v3_pal.dtx"))).unwrap();
    assert_eq!(out.value.header.version, -2);
    assert!(out.losses.iter().any(|l| l.element == "version"), "{:?}", out.losses);
    // Asked for another version, the encoding follows it where the template's does not fit.
    let v5 = relic_dtx::encode_like(
        &decode("v2_pal.dtx", 0),
        &TextureOptions { version: Some(5), ..auto },
        Some(&read("v2_pal.dtx")),
    )
    .unwrap()
    .value;
    assert_eq!(
        (v5.header.version, v5.bpp(), v5.mips.len()),
        (-5, Some(relic_dtx::Bpp::Bgra32), read("v2_pal.dtx").mips.len())
    );
}

/// The inputs of `v5_bpp32p.dtx` (xtask/src/fixtures/dtx.rs): palette entry `i` as stored, bytes
/// B, G, R, A on the PS2 scale.
fn palette32_entry(i: u32) -> [u8; 4] {
    let alpha = if i == 255 { 0xFF } else { [0x80, 0x7F, 0x40, 0x00][(i % 4) as usize] };
    [(i * 7) as u8, 255 - i as u8, (i * 3 + 1) as u8, alpha]
}

/// The index of pixel `p` of mip `i` in `v5_bpp32p.dtx`.
fn palette32_index(p: u32, i: u32) -> u8 {
    ((p * 37 + 5 + i * 11) % 256) as u8
}

/// PS2-scale alpha to 0–255 as docs/FORMAT-NOTES.md gives it: doubled; 0x7F (LithTech's tools
/// store 255 as 255 / 2) and above are opaque.
fn ps2_alpha(a: u8) -> u8 {
    if a >= 0x7F { 255 } else { a * 2 }
}

/// Mip `level` of `v5_bpp32p.dtx` as the builder's inputs give it.
fn bpp32p_expected(level: u32) -> Vec<u8> {
    let (w, h) = (8 >> level, 8 >> level);
    (0..w * h)
        .flat_map(|p| {
            let [b, g, r, a] = palette32_entry(u32::from(palette32_index(p, level)));
            [r, g, b, ps2_alpha(a)]
        })
        .collect()
}

#[test]
fn bpp32p_decodes_through_its_pallete32_section() {
    for level in 0..3u32 {
        let image = decode("v5_bpp32p.dtx", level as usize);
        assert_eq!((image.width, image.height), (8 >> level, 8 >> level));
        assert_eq!(image.rgba, bpp32p_expected(level), "mip {level}");
    }
    // Two palettes: the last one, which LithTech's loader finds (it links each section in front).
    let mut two = relic_dtx::read(&fixture("v5_bpp32p.dtx")).unwrap();
    let mut second = two.sections[0].clone();
    second.data[5 * 4..6 * 4].copy_from_slice(&[9, 8, 7, 0x80]);
    two.sections.push(second);
    two.header.section_count = 2;
    assert_eq!(palette32_index(0, 0), 5);
    assert_eq!(relic_dtx::decode(&two, 0, &TextureOptions::default()).unwrap().rgba[..4], [7, 8, 9, 255]);
    // A palette that is not there, or too short for 256 entries, is an error naming the section.
    let mut file = relic_dtx::read(&fixture("v5_bpp32p.dtx")).unwrap();
    file.sections[0].data.truncate(1020);
    let err = relic_dtx::decode(&file, 0, &TextureOptions::default()).unwrap_err();
    assert_eq!(err.path, "DtxFile.sections[0].data", "{err}");
    file.sections.clear();
    file.header.section_count = 0;
    let err = relic_dtx::decode(&file, 0, &TextureOptions::default()).unwrap_err();
    assert_eq!(err.path, "DtxFile.sections", "{err}");
}

#[test]
fn bpp32p_encodes_back_keeping_its_palette() {
    let bytes = fixture("v5_bpp32p.dtx");
    let file = relic_dtx::read(&bytes).unwrap();
    let auto = TextureOptions::default();
    let image = decode("v5_bpp32p.dtx", 0);
    // Unchanged: the file itself, byte for byte.
    let same = relic_dtx::encode_like(&image, &auto, Some(&file)).unwrap();
    assert!(same.losses.is_empty(), "{:?}", same.losses);
    assert_eq!(relic_dtx::write(&same.value).unwrap(), bytes);
    assert_eq!(relic_dtx::encode_like_bytes(&image, &auto, &bytes).unwrap().value, bytes);
    // Edited with a colour of the palette: the palette section is kept byte for byte, the one
    // pixel's index changes, the other indices of mip 0 stay.
    let mut edited = image.clone();
    edited.rgba.copy_within(4..8, 0);
    let out = relic_dtx::encode_like(&edited, &auto, Some(&file)).unwrap();
    assert!(out.losses.is_empty(), "{:?}", out.losses);
    let out = out.value;
    assert_eq!((out.bpp(), out.header.section_count, out.mips.len()), (Some(relic_dtx::Bpp::Palettized32), 1, 3));
    assert_eq!(out.sections, file.sections);
    assert_eq!(out.mips[0][0], palette32_index(1, 0));
    assert_eq!(out.mips[0][1..], file.mips[0][1..]);
    assert_eq!(relic_dtx::decode(&out, 0, &auto).unwrap(), edited);
    // A colour the palette lacks, and an alpha between two PS2 steps: a new palette, exact in
    // colour, the alpha step said.
    edited.rgba[..4].copy_from_slice(&[1, 2, 3, 201]);
    let out = relic_dtx::encode_like(&edited, &auto, Some(&file)).unwrap();
    assert!(out.losses.iter().any(|l| l.element == "alpha"), "{:?}", out.losses);
    let again = relic_dtx::decode(&out.value, 0, &auto).unwrap();
    assert_eq!(again.rgba[..4], [1, 2, 3, 200]);
    assert_eq!(again.rgba[4..], edited.rgba[4..]);
    // From an image alone, asked for version 5 palettized: BPP_32P with a PALLETE32 section.
    let options = TextureOptions { encoding: TextureEncoding::Palettized, version: Some(5), ..auto };
    let new = relic_dtx::encode_bytes(&image, &options).unwrap();
    assert!(new.losses.is_empty(), "{:?}", new.losses);
    let new = relic_dtx::read(&new.value).unwrap();
    assert_eq!(new.bpp(), Some(relic_dtx::Bpp::Palettized32));
    assert_eq!(new.sections[0].kind.to_text(), "PALLETE32");
    assert_eq!(relic_dtx::decode(&new, 0, &auto).unwrap(), image);
}
