//! Hostile input: the hostile fixtures give typed errors naming offset and field; every
//! truncation and single-byte change of every fixture, and random mutations, are refused or read
//! without a panic, within the time limit, allocating at most 16 × the input + 1 MiB.

// Test code: a failed unwrap or index is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::path::{Path, PathBuf};

use relic_core::{ReadError, ReadErrorKind};
use relic_testkit::{CountingAllocator, Harness, Rng, counting_installed};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/mdx")
}

fn read(name: &str) -> Vec<u8> {
    std::fs::read(dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e} (run `cargo xtask fixtures`)"))
}

fn models() -> Vec<(String, Vec<u8>)> {
    ["v800_full.mdx", "v900_emissive.mdx", "v1000_hd.mdx", "v1100_slots.mdx", "v1200_shadow.mdx"]
        .iter()
        .map(|n| (n.to_string(), read(n)))
        .collect()
}

fn expect(name: &str, offset: u64, path: &str, text: &str) -> ReadError {
    let err = relic_mdx::read(&read(name)).unwrap_err();
    assert_eq!((err.offset, err.path.as_str()), (offset, path), "{name}: {err}");
    assert!(err.to_string().contains(text), "{name}: {err}");
    err
}

/// Where `needle` first occurs in `bytes`.
fn find(bytes: &[u8], needle: &[u8]) -> u64 {
    bytes.windows(needle.len()).position(|w| w == needle).unwrap() as u64
}

#[test]
fn hostile_fixtures_name_offset_and_field() {
    let base = read("v800_full.mdx");
    let geos = find(&base, b"GEOS");
    expect("hostile/chunk_size.mdx", geos, "GEOS", "GEOS chunk size 16777215 runs past the end of the file");
    let mtls = find(&base, b"MTLS");
    expect(
        "hostile/record_size.mdx",
        mtls + 8,
        "MTLS[0]",
        "inclusive size 128 disagrees with the contents, which take 124 bytes",
    );
    let vrtx = find(&base, b"VRTX");
    let err = expect("hostile/vertex_count.mdx", vrtx + 8, "GEOS[0].vertices", "count 2147483647 of 12-byte records");
    assert!(matches!(err.kind, ReadErrorKind::CountTooLarge { count: 0x7FFF_FFFF, record_size: 12, .. }));
    let kgtr = find(&base, b"KGTR");
    let err = expect(
        "hostile/key_count.mdx",
        kgtr + 16,
        "BONE[0].node.tracks[0].keys",
        "count 2147483647 of 16-byte records",
    );
    assert!(matches!(err.kind, ReadErrorKind::CountTooLarge { .. }));
    expect("hostile/track_tag.mdx", kgtr, "BONE[0].node.tracks[0].tag", "unknown track tag KXYZ");
    expect("hostile/interpolation.mdx", kgtr + 8, "BONE[0].node.tracks[0].interpolation", "interpolation 7");
    let vers = find(&base, b"VERS");
    let err = expect("hostile/version.mdx", vers + 8, "VERS.version", "unsupported version 1300");
    assert!(matches!(err.kind, ReadErrorKind::UnsupportedVersion { version: 1300, .. }));
    let shape = find(&base, b"Box\0") + 92;
    expect("hostile/shape_type.mdx", shape, "CLID[0].shape", "collision shape type 9");
    // `info` and the corpus checks refuse them too.
    for name in [
        "chunk_size",
        "record_size",
        "vertex_count",
        "key_count",
        "track_tag",
        "interpolation",
        "version",
        "shape_type",
    ] {
        let bytes = read(&format!("hostile/{name}.mdx"));
        assert!(relic_mdx::info(&bytes).is_err(), "{name}");
        let checks = relic_mdx::verify::corpus_checks(&bytes);
        // A version relic does not read is refused as out of scope; the others fail to parse.
        assert_eq!(checks.refused(), name == "version", "{name}: {checks:?}");
        let failed: Vec<&str> = checks.failures().map(|c| c.name.as_str()).collect();
        assert_eq!(failed, if name == "version" { vec![] } else { vec!["parse"] }, "{name}: {checks:?}");
    }
}

#[test]
fn a_chunk_whose_size_disagrees_with_its_contents_names_tag_offset_and_sizes() {
    // VERS with 8 bytes: its contents take 4.
    let mut bytes = b"MDLXVERS".to_vec();
    bytes.extend_from_slice(&8u32.to_le_bytes());
    bytes.extend_from_slice(&800u32.to_le_bytes());
    bytes.extend_from_slice(&0u32.to_le_bytes());
    let err = relic_mdx::read(&bytes).unwrap_err();
    assert_eq!((err.offset, err.path.as_str()), (4, "VERS"), "{err}");
    assert!(err.to_string().contains("VERS chunk size 8 disagrees with its contents, which take 4 bytes"), "{err}");
    // Fixed records that do not fill the chunk: SEQS of 100 bytes.
    let mut bytes = b"MDLXSEQS".to_vec();
    bytes.extend_from_slice(&100u32.to_le_bytes());
    bytes.extend_from_slice(&[0u8; 100]);
    let err = relic_mdx::read(&bytes).unwrap_err();
    assert!(err.to_string().contains("100 bytes are not a whole number of 132-byte records"), "{err}");
    // Not an MDX, and a stray byte after the last chunk.
    assert!(matches!(relic_mdx::read(b"MDLYxxxx").unwrap_err().kind, ReadErrorKind::BadMagic { .. }));
    let err = relic_mdx::read(b"MDLX\0").unwrap_err();
    assert!(err.to_string().contains("1 bytes after the last chunk"), "{err}");
}

#[test]
fn huge_counts_are_refused_before_allocating() {
    assert!(counting_installed());
    let mut h = Harness::new().reader("read", relic_mdx::read).reader("info", relic_mdx::info);
    for name in ["hostile/vertex_count.mdx", "hostile/key_count.mdx", "hostile/chunk_size.mdx"] {
        h.input(name, &read(name));
    }
    h.finish();
}

#[test]
fn truncations_and_byte_changes_are_survived() {
    assert!(counting_installed());
    // `info` reads and counts; the other reads and writes.
    let mut h = Harness::new()
        .reader("info", relic_mdx::info)
        .reader("read, then write", read_then_write)
        .reader("read_model", relic_mdx::read_model);
    for (name, bytes) in models() {
        h.truncations(&name, &bytes);
        // A truncated model is never read as a whole one: the last chunk loses bytes it needs.
        for cut in relic_testkit::truncations(&bytes, 1) {
            assert!(
                relic_mdx::read(cut).is_err() || cut.len() <= 4 || is_chunk_boundary(&bytes, cut.len()),
                "{name} cut at {}",
                cut.len()
            );
        }
    }
    let (name, bytes) = &models()[2];
    h.byte_changes(name, bytes);
    h.finish();
}

/// Whether `at` is where a chunk starts (a file cut there is a shorter, valid file).
fn is_chunk_boundary(bytes: &[u8], at: usize) -> bool {
    let mut pos = 4usize;
    while pos < at {
        let size = u32::from_le_bytes(bytes[pos + 4..pos + 8].try_into().unwrap()) as usize;
        pos += 8 + size;
    }
    pos == at
}

/// Reads `b`; a file that reads must write back as the same bytes: anything else panics, which
/// the harness reports as a failure.
fn read_then_write(b: &[u8]) -> Result<(), ()> {
    let Ok(file) = relic_mdx::read(b) else { return Err(()) };
    let out = relic_mdx::write(&file).unwrap_or_else(|e| panic!("a file read is refused by the writer: {e}"));
    assert!(out == b, "a file read did not rewrite byte for byte");
    Ok(())
}

#[test]
fn random_mutations_are_survived_and_what_reads_rewrites() {
    let mut rng = Rng::new(0x4D44_4C58);
    let mut h = Harness::new().reader("read, then write", read_then_write).reader("read_model", relic_mdx::read_model);
    h.mutations_over(&models(), &mut rng, 3000);
    let accepted = h.accepted();
    h.finish();
    assert!(accepted > 0);
}

/// A sequence over frames 0 to 1000, for files that repeat it many times.
fn one_second() -> relic_mdx::file::Sequence {
    relic_mdx::file::Sequence {
        name: Default::default(),
        interval_start: 0,
        interval_end: 1000,
        move_speed: 0.0,
        flags: 0,
        rarity: 0.0,
        sync_point: 0,
        extent: relic_mdx::file::Extent::default(),
    }
}

/// Many sequences times a long global-sequence track: the clips would copy the track's keys into
/// each of them; refused before the model is built, within the allocation budget.
#[test]
fn clips_that_would_copy_keys_past_the_budget_are_refused() {
    use relic_mdx::file::{Chunk, Key, Keys, Tag, Track};
    let (_, mut file) = {
        let bytes = read("v800_full.mdx");
        let file = relic_mdx::read(&bytes).unwrap();
        (bytes, file)
    };
    let sequence = one_second();
    let track = Track {
        tag: Tag(*b"KGTR"),
        interpolation: 1,
        global_sequence_id: 0,
        keys: Keys::Vec3((0..20_000).map(|f| Key { frame: f, value: [0.0; 3], tangents: None }).collect()),
    };
    for chunk in &mut file.chunks {
        match chunk {
            Chunk::Sequences(s) => *s = vec![sequence.clone(); 2_000],
            Chunk::Bones(b) => b[0].node.tracks = vec![track.clone()],
            _ => {}
        }
    }
    let bytes = relic_mdx::write(&file).unwrap();
    let err = relic_mdx::read_model(&bytes).unwrap_err().to_string();
    assert!(err.contains("would copy the file's"), "{err}");
    relic_testkit::check("budget", &bytes, relic_testkit::Limits::default(), relic_mdx::read_model).unwrap();
}

/// Overlapping sequences that each hold a light's long track: the clips would copy its keys as
/// they copy a node's; refused the same way (before, only node, GEOA, layer and TXAN keys were
/// counted, and a light, camera or emitter track was copied into every clip unbounded).
#[test]
fn a_light_track_copied_past_the_budget_is_refused() {
    use relic_mdx::file::{Chunk, Key, Keys, Tag, Track};
    let mut file = relic_mdx::read(&read("v800_full.mdx")).unwrap();
    let sequence = one_second();
    let track = Track {
        tag: Tag(*b"KLAI"),
        interpolation: 1,
        global_sequence_id: -1,
        keys: Keys::Float((0..=1000).map(|f| Key { frame: f, value: 1.0, tangents: None }).collect()),
    };
    let mut lights = 0;
    for chunk in &mut file.chunks {
        match chunk {
            Chunk::Sequences(s) => *s = vec![sequence.clone(); 2_000],
            Chunk::Lights(l) => {
                lights = l.len();
                l[0].tracks = vec![track.clone()];
            }
            _ => {}
        }
    }
    assert_eq!(lights, 1, "v800_full has one light");
    let bytes = relic_mdx::write(&file).unwrap();
    let err = relic_mdx::read_model(&bytes).unwrap_err().to_string();
    assert!(err.contains("the 2000 sequences would copy the file's 1039 keys into 2072001 model keys"), "{err}");
}

/// A light's track written after its LITE chunk, counted in no size (as AMISD666/War3ModelView's
/// test model nwdg32.mdx holds one): refused where the track stands, naming the chunk before it,
/// not as a chunk named KLAC whose "size" sends the next header into the track's keys.
#[test]
fn a_track_after_its_chunk_is_refused_naming_the_chunk() {
    let bytes = read("v800_full.mdx");
    let mut at = 4;
    let mut lite_end = None;
    while at + 8 <= bytes.len() {
        let size = u32::from_le_bytes(bytes[at + 4..at + 8].try_into().unwrap()) as usize;
        if &bytes[at..at + 4] == b"LITE" {
            lite_end = Some(at + 8 + size);
        }
        at += 8 + size;
    }
    let lite_end = lite_end.expect("v800_full has a LITE chunk");
    let mut track = b"KLAC".to_vec();
    for word in [1u32, 0, u32::MAX, 0] {
        track.extend(word.to_le_bytes());
    }
    track.extend([0u8; 8].iter().chain(&1f32.to_le_bytes()));
    let mut broken = bytes[..lite_end].to_vec();
    broken.extend(&track);
    broken.extend(&bytes[lite_end..]);
    let err = relic_mdx::read(&broken).unwrap_err().to_string();
    assert!(
        err.contains(&format!(
            "a KLAC track where a chunk should start: the LITE chunk before it does not count it in its size (at byte \
             {lite_end:#x})"
        )),
        "{err}"
    );
}

/// Whatever version-800 file reads goes MDX → MDL → MDX → MDL to the same text (the fuzz
/// target's check, here on mutations of the fixture).
#[test]
fn mdl_of_any_file_read_is_a_fixed_point() {
    use relic_mdx::mdl::{FloatStyle, read_mdl, write_mdl};
    let check = |b: &[u8]| -> Result<(), ()> {
        let file = relic_mdx::read(b).map_err(|_| ())?;
        if file.version() != 800 {
            return Err(());
        }
        let text = write_mdl(&file, FloatStyle::Shortest).unwrap().value;
        let again = read_mdl(&text).unwrap_or_else(|e| panic!("the MDL written does not read: {e}"));
        assert!(write_mdl(&again, FloatStyle::Shortest).unwrap().value == text, "MDL → MDX → MDL differs");
        Ok(())
    };
    let mut h = Harness::new().reader("mdl twice", check);
    let files: Vec<(String, Vec<u8>)> = vec![("v800_full.mdx".into(), read("v800_full.mdx"))];
    h.mutations_over(&files, &mut Rng::new(0x4D44_4C01), 3000);
    let accepted = h.accepted();
    h.finish();
    assert!(accepted > 100, "{accepted}");
}
