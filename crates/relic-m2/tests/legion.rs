//! Legion's companion files (issue 40): chunked `.anim` (AFM2/AFSA/AFSB) and `.skel` beside a
//! chunked model, from the independent builder's fixtures (`fixtures/m2-md21/`): each file read and
//! written back byte for byte; the skeletal model's bones and sequences as the builder stated
//! them; ported down to 264 and 256 (the skeleton merged into the MD20 block, the keys in raw
//! `.anim` files) and up again to 274; broken `.skel` files refused with typed errors.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

#[path = "../../../xtask/src/fixtures/m2_md21/stated.rs"]
mod stated;
#[path = "../../../xtask/src/fixtures/m2_wrath/stated.rs"]
mod wrath_stated;

use relic_core::format::Input;
use relic_core::{ReadErrorKind, WriteOptions};
use relic_m2::md21::{self, Md21};
use relic_m2::wrath::SiblingBytes;
use relic_testkit::{CountingAllocator, Harness};

#[global_allocator]
static ALLOC: CountingAllocator = CountingAllocator;

/// Every fixture file of `m2-md21/`.
fn all() -> SiblingBytes {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/m2-md21");
    SiblingBytes(relic_testkit::files_in(&dir))
}

fn file(all: &SiblingBytes, name: &str) -> Vec<u8> {
    all.0.iter().find(|(n, _)| n == name).unwrap_or_else(|| panic!("{name}: run `cargo xtask fixtures`")).1.clone()
}

fn read(stem: &str, siblings: &SiblingBytes) -> Result<Md21, relic_core::ReadError> {
    let name = format!("{stem}.m2");
    let bytes = file(siblings, &name);
    md21::read(&Input { bytes: &bytes, name: &name, siblings })
}

/// Reads `stem`'s model, writes it back and compares the `.m2` and every file written beside it
/// with the fixture of that name.
fn round_trip(stem: &str) -> Md21 {
    let all = all();
    let m = read(stem, &all).unwrap_or_else(|e| panic!("{stem}: {e}"));
    let (bytes, files) = md21::write(&m).unwrap();
    assert!(bytes == file(&all, &format!("{stem}.m2")), "{stem}.m2 differs");
    for f in &files {
        let name = format!("{stem}{}", f.suffix);
        assert!(f.bytes == file(&all, &name), "{name} differs");
    }
    m
}

#[test]
fn an_afm2_only_anim_reads_and_writes_back_chunked() {
    let m = round_trip(stated::CHUNKED_ANIM_STEM);
    assert_eq!(m.model.anim_files, ["v274_anim0000-00.anim"]);
    // The keys equal the raw-.anim model's (the same builder's v264_external, at 274).
    let stand = m.model.file.sequences.iter().position(|s| s.id == 0).unwrap();
    let times: Vec<u32> = m.model.file.events[0].times.timestamps[stand].to_vec();
    assert_eq!(times, wrath_stated::keys(wrath_stated::EVENT_TIMES, 0).0);
    let (_, files) = md21::write(&m).unwrap();
    assert!(files.iter().any(|f| f.suffix == "0000-00.anim" && f.bytes.starts_with(b"AFM2")));
}

#[test]
fn a_272_chunked_model_round_trips() {
    let m = round_trip(stated::V272_STEM);
    assert_eq!(m.model.file.version, 272);
}

#[test]
fn the_skeletal_model_reads_its_skel_parent_and_split_anim_as_stated() {
    let m = round_trip(stated::SKELETAL_STEM);
    let tags: Vec<[u8; 4]> = m.chunks.iter().map(|c| c.tag).collect();
    assert_eq!(tags, stated::SKELETAL_CHUNKS.map(|t| *t));
    let f = &m.model.file;
    let sk = m.model.skeleton.as_ref().expect("read with its skeleton");
    assert_eq!(sk.skel.tags(), stated::SKEL_CHUNKS.map(|t| String::from_utf8_lossy(t).into_owned()));
    assert_eq!(sk.parents.len(), 1);
    assert_eq!(sk.parents[0].tags(), stated::PARENT_SKEL_CHUNKS.map(|t| String::from_utf8_lossy(t).into_owned()));
    assert_eq!(sk.skel.parent(), Some(stated::PARENT_SKELETON_FILE_ID));
    // The MD20 block's own arrays are empty; the model's come from the skeleton.
    assert!(sk.own.bones.is_empty() && sk.own.sequences.is_empty() && sk.own.attachments.is_empty());
    assert_eq!(f.global_sequences.to_vec(), stated::GLOBAL_LOOPS);
    let ids: Vec<(u16, u32)> = f.sequences.iter().map(|s| (s.id, s.flags)).collect();
    assert_eq!(ids, [(wrath_stated::WALK.id, wrath_stated::WALK.flags), (0, wrath_stated::STAND_EXTERNAL.flags)]);
    assert_eq!(f.bones.len(), wrath_stated::BONES.len());
    for (b, s) in f.bones.iter().zip(wrath_stated::BONES) {
        assert_eq!((b.key_bone_id, b.parent, b.pivot), (s.key_bone_id, s.parent, s.pivot));
    }
    // Stand's bone keys come from the .anim's AFSB blob, its attachment keys from AFSA.
    let stand = 1;
    let rotation: Vec<[i16; 4]> = f.bones[1].rotation.values[stand].to_vec();
    assert_eq!(rotation, wrath_stated::keys(wrath_stated::BONE1_ROTATION, 0).1);
    assert_eq!(f.attachments.len(), 1);
    assert_eq!(f.attachments[0].visibility.values[stand].to_vec(), stated::ATTACHMENT_ANIMATE[0].2);
    assert_eq!(f.attachments[0].visibility.values[0].to_vec(), stated::ATTACHMENT_ANIMATE[1].2);
    let anim = file(&all(), "v274_skeletal0000-00.anim");
    assert_eq!(&anim[..4], b"AFM2");
    // The .bone of BFID entry 0, as stated.
    assert_eq!(m.model.bone_files.len(), 1);
    let (index, bone) = &m.model.bone_files[0];
    assert_eq!((*index, bone.version), (0, stated::BONE_FILE_VERSION));
    assert_eq!(bone.bone_ids(), stated::BONE_FILE_BONE_IDS);
    assert_eq!(bone.chunks[1].data, relic_m2::bone_file::BoneData::Matrices(stated::BONE_FILE_MATRICES.to_vec()));
}

#[test]
fn a_missing_skel_is_an_incomplete_model_and_a_missing_parent_a_note() {
    let all = all();
    let without = SiblingBytes(all.0.iter().filter(|(n, _)| n != "v274_skeletal.skel").cloned().collect());
    let e = read(stated::SKELETAL_STEM, &without).unwrap_err();
    match &e.kind {
        ReadErrorKind::Incomplete { missing, .. } => {
            assert_eq!(missing, &["v274_skeletal.skel (FileDataID 1000300, no listfile given)"])
        }
        other => panic!("{other:?}"),
    }
    let orphan = SiblingBytes(all.0.iter().filter(|(n, _)| n != "1000301.skel").cloned().collect());
    let m = read(stated::SKELETAL_STEM, &orphan).unwrap();
    assert!(m.model.notes.iter().any(|n| n.contains("FileDataID 1000301")), "{:?}", m.model.notes);
    assert!(m.model.notes.iter().any(|n| n.contains("attachments (the MD20 block's 0 used)")), "{:?}", m.model.notes);
    assert_eq!(m.model.file.attachments.len(), 0);
}

/// Porting down: 264 and 256 hold the skeleton in the MD20 block (a loss with the counts), the
/// keys of Stand in a raw `.anim` (264) or inline (256); up again to 274 a chunked file.
#[test]
fn the_skeletal_model_ports_down_and_back_up() {
    let all = all();
    let name = format!("{}.m2", stated::SKELETAL_STEM);
    let bytes = file(&all, &name);
    let read = relic_m2::read_input(&Input { bytes: &bytes, name: &name, siblings: &all }).unwrap();
    // What the user is told of the .skel is said of the files beside the model (not of its skins).
    assert!(
        read.losses.iter().any(|l| l.element == "files beside the model" && l.what.starts_with("v274_skeletal.skel: ")),
        "{:?}",
        read.losses
    );
    let model = read.value;
    // Written back as it came: the .m2, .skel, .anim and skins byte for byte.
    let same = relic_m2::write_files(&model, &WriteOptions::default()).unwrap().value;
    assert!(same.bytes == bytes);
    for f in &same.siblings {
        assert!(f.bytes == file(&all, &format!("{}{}", stated::SKELETAL_STEM, f.suffix)), "{}", f.suffix);
    }
    for version in [264, 256] {
        let out = relic_m2::write_files(&model, &WriteOptions { version: Some(version) }).unwrap();
        let said: Vec<String> = out.losses.iter().map(ToString::to_string).collect();
        assert!(said.iter().any(|l| l.contains("1 of 1 .bone files dropped")), "v{version}: {said:?}");
        if version == 264 {
            assert!(
                said.iter().any(|l| l.contains("v274_skeletal.skel merged into the MD20 block (version 264): 2 sequences, 1 global sequences, 3 bones, 1 attachments")),
                "{said:?}"
            );
            // Any .anim written for Wrath is raw (rebuilt from the model, the keys laid out anew).
            for anim in out.value.siblings.iter().filter(|s| s.suffix.ends_with(".anim")) {
                assert!(!anim.bytes.starts_with(b"AFM2"), "a raw .anim for Wrath");
            }
            assert!(!out.value.siblings.iter().any(|s| s.suffix.ends_with(".skel") || s.suffix.ends_with(".bone")));
        }
        let files: Vec<(String, Vec<u8>)> =
            out.value.siblings.iter().map(|s| (format!("down{}", s.suffix), s.bytes.clone())).collect();
        let siblings = SiblingBytes(files);
        let input = Input { bytes: &out.value.bytes, name: "down.m2", siblings: &siblings };
        let info = relic_m2::info_input(&input).unwrap_or_else(|e| panic!("v{version}: {e}"));
        let count = |k: &str| match info.get(k) {
            Some(relic_core::info::Fact::Count(n)) => *n,
            other => panic!("v{version} {k}: {other:?}"),
        };
        assert_eq!([count("bones"), count("attachments"), count("global_sequences"), count("sequences")], [3, 1, 1, 2]);
        let down = relic_m2::read_input(&input).unwrap_or_else(|e| panic!("v{version}: {e}")).value;
        assert_eq!(down.animations.len(), model.animations.len(), "v{version}");
        assert_eq!(down.bones.len(), model.bones.len(), "v{version}");
        let up = relic_m2::write_files(&down, &WriteOptions { version: Some(274) }).unwrap().value;
        assert_eq!(&up.bytes[..4], b"MD21", "v{version} → 274");
        let files: Vec<(String, Vec<u8>)> =
            up.siblings.iter().map(|s| (format!("up{}", s.suffix), s.bytes.clone())).collect();
        let siblings = SiblingBytes(files);
        let again = md21::read(&Input { bytes: &up.bytes, name: "up.m2", siblings: &siblings })
            .unwrap_or_else(|e| panic!("v{version} → 274: {e}"));
        assert_eq!(again.model.file.bones.len(), 3);
    }
}

/// A `.skel` truncated anywhere, or whose chunk overruns it: a typed error naming the file,
/// never a panic, allocation bounded by the input.
#[test]
fn broken_skels_are_refused_with_typed_errors() {
    let all = all();
    let skel = file(&all, "v274_skeletal.skel");
    let with = |bytes: &[u8]| {
        let files = all
            .0
            .iter()
            .map(|(n, b)| if n == "v274_skeletal.skel" { (n.clone(), bytes.to_vec()) } else { (n.clone(), b.clone()) })
            .collect();
        read(stated::SKELETAL_STEM, &SiblingBytes(files))
    };
    let mut overrun = skel.clone();
    overrun[4..8].copy_from_slice(&(skel.len() as u32).to_le_bytes());
    let e = with(&overrun).unwrap_err();
    assert!(e.path.contains("v274_skeletal.skel") && e.path.contains("ChunkHeader(SKL1).size"), "{e}");
    let mut h = Harness::new().reader("md21::read", |bytes: &[u8]| with(bytes));
    h.truncations("v274_skeletal.skel", &skel);
    h.byte_changes("v274_skeletal.skel", &skel[..skel.len().min(256)]);
    assert!(h.failures().is_empty(), "{:?}", h.failures());
}

/// A `.bone` or a split `.anim` truncated anywhere or changed byte by byte: read (kept raw where
/// a chunk no longer fits its entries) or a typed error naming the file, never a panic.
#[test]
fn broken_bone_and_split_anim_files_are_refused_with_typed_errors() {
    let all = all();
    for name in ["v274_skeletal_00.bone", "v274_skeletal0000-00.anim"] {
        let original = file(&all, name);
        let with = |bytes: &[u8]| {
            let files = all
                .0
                .iter()
                .map(|(n, b)| if n == name { (n.clone(), bytes.to_vec()) } else { (n.clone(), b.clone()) })
                .collect();
            read(stated::SKELETAL_STEM, &SiblingBytes(files))
        };
        let mut overrun = original.clone();
        let at = if name.ends_with(".bone") { 8 } else { 4 };
        overrun[at..at + 4].copy_from_slice(&(original.len() as u32).to_le_bytes());
        let e = with(&overrun).unwrap_err();
        assert!(e.path.contains(name) && e.path.contains(".size"), "{e}");
        let mut h = Harness::new().reader("md21::read", |bytes: &[u8]| with(bytes));
        h.truncations(name, &original);
        h.byte_changes(name, &original);
        assert!(h.failures().is_empty(), "{:?}", h.failures());
    }
}

/// `relic info` counts the `.skel` files a model was read with (its own and its parent), so that
/// a file written without them — built from a model another tool gave back without relic's
/// extras — says so when compared with the original ("skel files: 2 in the original, 0 written").
#[test]
fn info_counts_the_skel_files() {
    let all = all();
    let name = format!("{}.m2", stated::SKELETAL_STEM);
    let bytes = file(&all, &name);
    let info = relic_m2::info_input(&Input { bytes: &bytes, name: &name, siblings: &all }).unwrap();
    assert_eq!(format!("{:?}", info.get("skel_files")), "Some(Count(2))");
    let plain = format!("{}.m2", stated::CHUNKED_ANIM_STEM);
    let bytes = file(&all, &plain);
    let info = relic_m2::info_input(&Input { bytes: &bytes, name: &plain, siblings: &all }).unwrap();
    assert_eq!(info.get("skel_files"), None);
}

/// Chunks relic does not know are counted beside their tags, so that a file written without them
/// says so ("unknown chunks: 1 in the original, 0 written").
#[test]
fn info_counts_the_unknown_chunks() {
    let all = all();
    let name = format!("{}.m2", stated::STEM);
    let bytes = file(&all, &name);
    let info = relic_m2::info_input(&Input { bytes: &bytes, name: &name, siblings: &all }).unwrap();
    let tag = String::from_utf8_lossy(stated::UNKNOWN_CHUNK.0);
    assert_eq!(format!("{:?}", info.get("raw_chunks")), format!("Some(Text({tag:?}))"));
    assert_eq!(format!("{:?}", info.get("unknown_chunks")), "Some(Count(1))");
}
