//! Every fixture (built by `cargo xtask fixtures` from the spec, not by this crate's writer):
//! detected, read, written back byte for byte, every level decoded, re-encoded within the bound;
//! what each variant decodes to; hostile fixtures refused with typed errors naming the field.

// Test code: a failed unwrap or index is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::path::{Path, PathBuf};

use relic_core::ReadErrorKind;
use relic_core::texture::{Image, TextureEncoding, TextureOptions};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/blp")
}

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e} (run `cargo xtask fixtures`)"))
}

fn decode(name: &str, level: usize) -> Image {
    relic_blp::decode_bytes(&fixture(name), level, &TextureOptions::default()).unwrap()
}

fn alphas(image: &Image) -> Vec<u8> {
    image.rgba.chunks(4).map(|p| p[3]).collect()
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
        assert!(relic_blp::detect(&bytes).is_some(), "{name}");
        let checks = relic_blp::verify::corpus_checks(&relic_core::format::Input::bytes_only(&bytes));
        let lines: Vec<String> = checks.0.iter().map(ToString::to_string).collect();
        assert!(checks.passed() && !checks.refused(), "{name}: {lines:?}");
        seen += 1;
    }
    assert!(seen >= 14, "{seen} fixtures");
}

#[test]
fn variants_decode_as_the_spec_says() {
    // Alpha depth 0: opaque; 1: only 0 and 255; 4: multiples of 17; 8: any.
    assert!(decode("pala0.blp", 0).is_opaque());
    assert!(decode("pala1.blp", 0).has_binary_alpha() && !decode("pala1.blp", 0).is_opaque());
    assert!(alphas(&decode("pala4.blp", 0)).iter().all(|a| a % 17 == 0));
    assert!(alphas(&decode("pala8.blp", 0)).contains(&120));
    // Palette entry i is (i·37, i·91, i·53) stored B, G, R; pixel (0, 0) of level 0 has index 0,
    // pixel (1, 0) index 7.
    let pala = decode("pala0.blp", 0);
    assert_eq!(&pala.rgba[4..8], &[(7 * 37 % 256) as u8, (7 * 91 % 256) as u8, (7 * 53 % 256) as u8, 255]);
    // DXT1 of alpha depth 0: the 3-colour blocks' index 3 is opaque black; depth 1: transparent.
    let dxt1 = decode("dxt1.blp", 0);
    let dxt1a = decode("dxt1a.blp", 0);
    assert!(dxt1.is_opaque());
    assert!(alphas(&dxt1a).contains(&0));
    assert_eq!(dxt1.rgba.len(), dxt1a.rgba.len());
    // Levels: max(1, side >> i), DXT levels below 4×4 decoded from whole blocks.
    let sizes = |name: &str| {
        let file = relic_blp::read(&fixture(name)).unwrap();
        relic_blp::validate::levels(&file).unwrap().iter().map(|l| (l.width, l.height)).collect::<Vec<_>>()
    };
    assert_eq!(sizes("npot_pala8.blp"), [(24, 17), (12, 8), (6, 4), (3, 2), (1, 1)]);
    assert_eq!(sizes("npot_dxt1.blp"), [(12, 6), (6, 3), (3, 1), (1, 1)]);
    assert_eq!(sizes("dxt5.blp"), [(16, 8), (8, 4), (4, 2), (2, 1), (1, 1)]);
    assert_eq!(decode("dxt3.blp", 3).rgba.len(), 4);
    // Raw: B, G, R, A stored; pixel 1 is (9, 5, 199, alpha 255) as B, G, R.
    assert_eq!(&decode("raw.blp", 0).rgba[4..8], &[199, 5, 9, 255]);
    // BLP1 palettized: the same palette and planes; pixel 0 has alpha 0, pixel 1 alpha 255.
    let blp1 = decode("blp1_pala8.blp", 0);
    assert_eq!(&blp1.rgba[..8], &[0, 0, 0, 0, (7 * 37 % 256) as u8, (7 * 91 % 256) as u8, (7 * 53 % 256) as u8, 255]);
}

/// The B, G, R, A values xtask's JPEG builder gave 8 × 8 block `(bx, by)` of level `level`.
fn jpeg_block(level: usize, bx: usize, by: usize) -> [u8; 4] {
    [
        (40 + 100 * bx + 10 * level) as u8,
        (200 - 90 * by) as u8,
        (30 + 40 * level) as u8,
        (30 + 200 * ((bx + by) % 2)) as u8,
    ]
}

#[test]
fn jpeg_levels_decode_to_their_four_components_as_blue_green_red_alpha() {
    let bytes = fixture("blp1_jpeg.blp");
    let file = relic_blp::read(&bytes).unwrap();
    assert_eq!(relic_blp::write(&file).unwrap(), bytes);
    let levels = relic_blp::validate::levels(&file).unwrap();
    assert_eq!(levels.len(), 5);
    for (i, level) in levels.iter().enumerate() {
        let image = relic_blp::decode(&file, i, &TextureOptions::default()).unwrap();
        assert_eq!((image.width, image.height), (level.width, level.height));
        for (k, pixel) in image.rgba.chunks(4).enumerate() {
            let (x, y) = (k % image.width as usize, k / image.width as usize);
            let [b, g, r, a] = jpeg_block(i, x / 8, y / 8);
            assert_eq!(pixel, [r, g, b, a], "level {i} pixel ({x}, {y})");
        }
    }
    // Alpha bits 0: the fourth component (30 or 230 here) is not opacity.
    let opaque = decode("blp1_jpeg_opaque.blp", 0);
    let [b, g, r, _] = jpeg_block(0, 0, 0);
    assert_eq!(&opaque.rgba[..4], &[r, g, b, 255]);
    assert!(opaque.is_opaque());
    // A level whose JPEG is not the size the header gives is refused, naming the level.
    let err =
        relic_blp::decode_bytes(&fixture("hostile/jpeg_wrong_size.blp"), 0, &TextureOptions::default()).unwrap_err();
    assert_eq!(err.path, "Blp1Header.mip_offsets[0]", "{err}");
    assert!(err.to_string().contains("16 × 16"), "{err}");
}

/// Levels that all point at level 0's JPEG (a tool's shortcut the game loads: SmileyGW.blp of a
/// Warcraft III map): each decodes as level 0 halved down to its size, the facts count them,
/// and the file writes back byte for byte.
#[test]
fn jpeg_levels_sharing_level_0_decode_halved() {
    let bytes = fixture("blp1_jpeg_shared_levels.blp");
    let file = relic_blp::read(&bytes).unwrap();
    assert_eq!(relic_blp::write(&file).unwrap(), bytes);
    let info = relic_blp::info(&bytes).unwrap();
    assert!(matches!(info.get("larger_jpeg_levels"), Some(relic_core::info::Fact::Count(4))), "{info:?}");
    let levels = relic_blp::validate::levels(&file).unwrap();
    assert_eq!(levels.len(), 5);
    // Levels 0–3 (16 down to 2 pixels): every pixel lies in one flat 8 × 8 block of level 0.
    for i in 0..4 {
        let image = relic_blp::decode(&file, i, &TextureOptions::default()).unwrap();
        assert_eq!((image.width, image.height), (16 >> i, 16 >> i));
        for (k, pixel) in image.rgba.chunks(4).enumerate() {
            let (x, y) = (k % image.width as usize, k / image.width as usize);
            let [b, g, r, a] = jpeg_block(0, (x << i) / 8, (y << i) / 8);
            assert_eq!(pixel, [r, g, b, a], "level {i} pixel ({x}, {y})");
        }
    }
    // Level 4 (1 × 1): the rounded mean of the four blocks.
    let last = relic_blp::decode(&file, 4, &TextureOptions::default()).unwrap();
    let blocks = [(0, 0), (1, 0), (0, 1), (1, 1)].map(|(bx, by)| jpeg_block(0, bx, by));
    let mean = |c: usize| ((blocks.iter().map(|b| u32::from(b[c])).sum::<u32>() + 2) / 4) as u8;
    assert_eq!(last.rgba, [mean(2), mean(1), mean(0), mean(3)]);
}

/// Thin DXT levels stored as Blizzard's writer stores them (⌊w/4⌋·⌊h/4⌋ blocks, at least 1):
/// read, listed, decoded with the stored blocks in place and the last one repeated after them,
/// and written back byte for byte.
#[test]
fn short_thin_dxt_levels_read_decode_and_write_back() {
    for (name, bc, short) in [
        ("dxt1_short.blp", relic_texture::bc::Bc::Bc1, [1, 2].as_slice()),
        ("dxt3_short.blp", relic_texture::bc::Bc::Bc2, &[1, 2]),
        ("dxt5_short.blp", relic_texture::bc::Bc::Bc3, &[3]),
    ] {
        let bytes = fixture(name);
        let file = relic_blp::read(&bytes).unwrap();
        assert_eq!(relic_blp::write(&file).unwrap(), bytes, "{name}");
        let pixels = relic_blp::validate::pixels(&file).unwrap();
        let levels = relic_blp::validate::levels(&file).unwrap();
        let shorts: Vec<usize> = (0..levels.len()).filter(|&i| levels[i].is_short(&pixels)).collect();
        assert_eq!(shorts, short, "{name}");
        let info = relic_blp::info(&bytes).unwrap();
        assert!(format!("{info:?}").contains("short_levels"), "{name}: {info:?}");
        for (i, level) in levels.iter().enumerate() {
            let image = relic_blp::decode(&file, i, &TextureOptions::default()).unwrap();
            assert_eq!((image.width, image.height), (level.width, level.height), "{name} level {i}");
            if !shorts.contains(&i) {
                continue;
            }
            // The one stored block covers the first 4 × 4 texels; every other block repeats it.
            let data = relic_blp::validate::level_data(&file, level).unwrap();
            assert_eq!(data.len(), bc.block_bytes(), "{name} level {i}");
            let block = relic_texture::bc::decode(bc, data, 4, 4);
            let (w, h) = (level.width as usize, level.height as usize);
            for y in 0..h {
                for x in 0..w {
                    let at = (y * w + x) * 4;
                    let want = ((y % 4) * 4 + x % 4) * 4;
                    assert_eq!(&image.rgba[at..at + 4], &block[want..want + 4], "{name} level {i} ({x}, {y})");
                }
            }
        }
    }
}

/// Issue 39 item 5: a file whose header lists levels past its end (cut off after the larger
/// levels; the client draws the levels it has) reads the levels present, counts the others, and
/// writes back byte for byte.
#[test]
fn levels_past_the_end_are_cut_off_not_refused() {
    let bytes = fixture("dxt1_cut_off.blp");
    let file = relic_blp::read(&bytes).unwrap();
    assert_eq!(relic_blp::write(&file).unwrap(), bytes);
    let levels = relic_blp::validate::levels(&file).unwrap();
    assert_eq!(levels.len(), 2);
    assert_eq!(relic_blp::validate::cut_off_levels(&file).unwrap(), 3);
    let info = format!("{:?}", relic_blp::info(&bytes).unwrap());
    assert!(info.contains("cut_off_levels") && info.contains('3'), "{info}");
    for (i, size) in [(0, 16), (1, 8)] {
        let image = relic_blp::decode(&file, i, &TextureOptions::default()).unwrap();
        assert_eq!((image.width, image.height), (size, size));
    }
    let err = relic_blp::decode(&file, 2, &TextureOptions::default()).unwrap_err();
    assert!(err.to_string().contains("level 2 does not exist"), "{err}");
    // Level 0 past the end is still refused: there is nothing to draw.
    let err = relic_blp::read(&fixture("hostile/level_past_end.blp")).unwrap_err();
    assert_eq!(err.path, "Blp2Header.mip_offsets[0]", "{err}");
}

#[test]
fn hostile_fixtures_are_refused_with_the_field() {
    let expect = [
        ("huge.blp", "Blp2Header.mip_sizes[0]"),
        ("blp0.blp", "magic"),
        ("level_past_end.blp", "Blp2Header.mip_offsets[0]"),
        ("level_in_header.blp", "Blp2Header.mip_offsets[0]"),
        ("short_level.blp", "Blp2Header.mip_sizes[0]"),
        ("bad_compression.blp", "Blp2Header.compression"),
        ("bad_alpha_depth.blp", "Blp2Header.alpha_depth"),
        ("empty.blp", "Blp2Header.width"),
    ];
    for (name, path) in expect {
        let err = relic_blp::read(&fixture(&format!("hostile/{name}"))).unwrap_err();
        assert_eq!(err.path, path, "{name}: {err}");
    }
    let err = relic_blp::read(&fixture("hostile/blp0.blp")).unwrap_err();
    assert!(matches!(err.kind, ReadErrorKind::UnsupportedVersion { version: 0, .. }), "{err}");
    // Decoding a 65,535 × 65,535 header: refused by max_pixels before anything else, naming it.
    let err = relic_blp::decode_bytes(&fixture("hostile/huge.blp"), 0, &TextureOptions::default()).unwrap_err();
    assert!(matches!(err.kind, ReadErrorKind::ImageTooLarge { width: 65_535, height: 65_535, .. }), "{err}");
    assert_eq!(err.path, "Blp2Header.width");
    // The limit is the caller's: lowered, a small file is refused too; raised, it decodes.
    let small = TextureOptions { max_pixels: 63, ..TextureOptions::default() };
    let err = relic_blp::decode_bytes(&fixture("dxt1.blp"), 0, &small).unwrap_err();
    assert!(matches!(err.kind, ReadErrorKind::ImageTooLarge { width: 8, height: 8, max_pixels: 63 }), "{err}");
    assert!(relic_blp::decode_bytes(&fixture("dxt1.blp"), 1, &small).is_ok());
    let err = relic_blp::decode_bytes(&fixture("dxt1.blp"), 4, &TextureOptions::default()).unwrap_err();
    assert!(err.to_string().contains("level 4 does not exist"), "{err}");
}

#[test]
fn encoding_chooses_by_alpha_and_makes_every_level() {
    let opaque = decode("pala0.blp", 0);
    let cut_out = decode("pala1.blp", 0);
    let soft = decode("pala8.blp", 0);
    let pixels = |bytes: &[u8]| relic_blp::validate::pixels(&relic_blp::read(bytes).unwrap()).unwrap().name();
    let auto = TextureOptions::default();
    assert_eq!(pixels(&relic_blp::encode_bytes(&opaque, &auto).unwrap().value), "DXT1 a0");
    assert_eq!(pixels(&relic_blp::encode_bytes(&cut_out, &auto).unwrap().value), "DXT1 a1");
    assert_eq!(pixels(&relic_blp::encode_bytes(&soft, &auto).unwrap().value), "DXT5");
    let palettized = TextureOptions { encoding: TextureEncoding::Palettized, ..auto };
    for (image, want) in [(&opaque, "palettized a0"), (&cut_out, "palettized a1"), (&soft, "palettized a8")] {
        let out = relic_blp::encode_bytes(image, &palettized).unwrap();
        assert!(out.losses.is_empty(), "{want}: {:?}", out.losses);
        let file = relic_blp::read(&out.value).unwrap();
        assert_eq!(pixels(&out.value), want);
        let levels = relic_blp::validate::levels(&file).unwrap();
        assert_eq!(levels.len() as u32, relic_texture::mips::full_chain(image.width, image.height));
        assert_eq!(&relic_blp::decode(&file, 0, &auto).unwrap(), image, "{want}: palettized is lossless here");
    }
    let dxt = relic_blp::encode_bytes(&soft, &TextureOptions { encoding: TextureEncoding::Dxt1, ..auto }).unwrap();
    assert!(dxt.losses.iter().any(|l| l.element == "alpha"), "{:?}", dxt.losses);
    let raw = relic_blp::encode_bytes(&soft, &TextureOptions { encoding: TextureEncoding::Raw32, ..auto }).unwrap();
    assert_eq!(relic_blp::decode_bytes(&raw.value, 0, &auto).unwrap(), soft);
    let blp1 = TextureOptions { version: Some(1), ..auto };
    assert!(relic_blp::encode_bytes(&soft, &blp1).is_err());
    let empty = Image { width: 0, height: 4, rgba: vec![] };
    assert!(relic_blp::encode_bytes(&empty, &auto).is_err());
}

/// Writing like a template (what `relic convert X.blp Y.blp` does): unchanged, the template
/// itself (a BLP1 too, which is not written otherwise); edited, the template's encoding and level
/// count with its untouched DXT blocks kept; an edited BLP1 becomes BLP2, saying so.
#[test]
fn encoding_like_a_template_keeps_what_the_options_leave_open() {
    let auto = TextureOptions::default();
    for name in ["blp1_pala8.blp", "blp1_jpeg.blp", "pala4.blp", "dxt1.blp", "dxt5_short.blp", "raw.blp"] {
        let template = relic_blp::read(&fixture(name)).unwrap();
        let same = relic_blp::encode_like(&decode(name, 0), &auto, Some(&template)).unwrap();
        assert!(same.losses.is_empty(), "{name}: {:?}", same.losses);
        assert_eq!(relic_blp::write(&same.value).unwrap(), fixture(name), "{name}");
    }
    let template = relic_blp::read(&fixture("dxt5.blp")).unwrap();
    let mut image = decode("dxt5.blp", 0);
    image.rgba[..4].copy_from_slice(&[1, 2, 3, 4]);
    let out = relic_blp::encode_like(&image, &auto, Some(&template)).unwrap().value;
    let (old, new) = (relic_blp::validate::levels(&template).unwrap(), relic_blp::validate::levels(&out).unwrap());
    assert_eq!(relic_blp::validate::pixels(&out).unwrap().name(), "DXT5");
    assert_eq!(new.len(), old.len());
    let (old0, new0) = (
        relic_blp::validate::level_data(&template, &old[0]).unwrap(),
        relic_blp::validate::level_data(&out, &new[0]).unwrap(),
    );
    assert_ne!(old0[..16], new0[..16], "the edited block");
    assert_eq!(old0[16..], new0[16..], "the others, byte for byte");
    let mut image = decode("blp1_pala8.blp", 0);
    image.rgba[0] ^= 1;
    let out =
        relic_blp::encode_like(&image, &auto, Some(&relic_blp::read(&fixture("blp1_pala8.blp")).unwrap())).unwrap();
    assert_eq!(out.value.version(), 2);
    assert_eq!(relic_blp::validate::pixels(&out.value).unwrap().name(), "palettized a8");
    assert!(out.losses.iter().any(|l| l.element == "version"), "{:?}", out.losses);
}

/// A DXT or raw BLP2 without the palette's 1024 bytes, its levels right after the 148-byte header
/// (War3Net's writer lays DXT files out so; the game reads the levels at their offsets): made
/// from a fixture by cutting the palette out and moving every level offset back by 1024. It
/// reads, decodes to the same pixels and writes back byte for byte.
#[test]
fn a_blp2_without_a_palette_reads_at_its_offsets() {
    for name in ["dxt1.blp", "dxt5.blp", "raw_mips.blp"] {
        let full = fixture(name);
        let mut cut = full[..0x94].to_vec();
        cut.extend_from_slice(&full[0x494..]);
        for slot in 0..16 {
            let at = 0x14 + 4 * slot;
            let offset = u32::from_le_bytes(cut[at..at + 4].try_into().unwrap());
            if offset != 0 {
                cut[at..at + 4].copy_from_slice(&(offset - 0x400).to_le_bytes());
            }
        }
        let file = relic_blp::read(&cut).unwrap_or_else(|e| panic!("{name} without a palette: {e}"));
        assert!(file.palette().is_none(), "{name}");
        assert_eq!(relic_blp::write(&file).unwrap(), cut, "{name}");
        let options = TextureOptions::default();
        for level in 0..3 {
            let want = relic_blp::decode_bytes(&full, level, &options).unwrap();
            let got = relic_blp::decode_bytes(&cut, level, &options).unwrap();
            assert_eq!(got, want, "{name} level {level}");
        }
    }
    // A palettized file always has its palette: a level inside it is refused by name.
    let mut pala = fixture("pala8.blp");
    pala[0x14..0x18].copy_from_slice(&0x100u32.to_le_bytes());
    let err = relic_blp::read(&pala)
        .map(drop)
        .and_then(|()| relic_blp::decode_bytes(&pala, 0, &TextureOptions::default()).map(drop));
    assert!(err.is_err_and(|e| e.to_string().contains("mip_offsets[0]")), "pala8 with level 0 in its palette");
}
