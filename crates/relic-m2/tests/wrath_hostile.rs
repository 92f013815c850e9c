//! Damaged Wrath files and the files beside them: missing, truncated or pointing past their end —
//! typed errors naming the file or field, never a panic, allocation bounded by the input.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use relic_core::format::Input;
use relic_m2::wrath::{self, SiblingBytes};
use relic_testkit::{CountingAllocator, Harness};

#[global_allocator]
static ALLOC: CountingAllocator = CountingAllocator;

/// The real Rabbit (264, one skin), `None` without the corpus.
fn rabbit() -> Option<(Vec<u8>, Vec<u8>)> {
    let m2 = relic_testkit::corpus_file("Wrath hostile inputs", "m2-wrath/Rabbit.m2")?;
    let skin = relic_testkit::corpus_file("Wrath hostile inputs", "m2-wrath/Rabbit00.skin")?;
    Some((m2, skin))
}

fn read(m2: &[u8], files: Vec<(&str, Vec<u8>)>) -> Result<wrath::Wrath, relic_core::ReadError> {
    let siblings = SiblingBytes(files.into_iter().map(|(n, b)| (n.to_string(), b)).collect());
    wrath::read(&Input { bytes: m2, name: "Rabbit.m2", siblings: &siblings })
}

/// Rabbit with sequence 0 (Walk, id 4) made external: its keys come from `Rabbit0004-00.anim`.
fn external(m2: &[u8]) -> Vec<u8> {
    let mut m = m2.to_vec();
    m[0x15c..0x160].copy_from_slice(&0u32.to_le_bytes());
    m
}

#[test]
fn missing_files_are_named() {
    let Some((m2, skin)) = rabbit() else { return };
    let e = read(&m2, vec![]).unwrap_err().to_string();
    assert!(e.contains("Rabbit00.skin"), "{e}");
    // A second profile the header promises but the folder lacks: a note, the model still reads.
    let mut two = m2.clone();
    two[0x44..0x48].copy_from_slice(&2u32.to_le_bytes());
    let w = read(&two, vec![("Rabbit00.skin", skin.clone())]).unwrap();
    assert_eq!(w.skins.len(), 1);
    assert!(w.notes.iter().any(|n| n.contains("Rabbit01.skin")), "{:?}", w.notes);
    let e = read(&external(&m2), vec![("Rabbit00.skin", skin)]).unwrap_err().to_string();
    assert!(e.contains("Rabbit0004-00.anim"), "{e}");
}

/// An external sequence reads its keys from its `.anim` (here the `.m2`'s own bytes, where the
/// offsets point) and writes them into a new `.anim` that reads back the same.
#[test]
fn external_keys_round_trip_through_their_anim_file() {
    let Some((m2, skin)) = rabbit() else { return };
    let m = external(&m2);
    let w = read(&m, vec![("Rabbit00.skin", skin.clone()), ("Rabbit0004-00.anim", m2.clone())]).unwrap();
    assert_eq!(w.anim_files, ["Rabbit0004-00.anim"]);
    // In the layout it was read with, the .anim comes back whole (every byte of the one read,
    // here the whole .m2); laid out anew, it holds the keys alone.
    let (_, kept) = wrath::write(&w).unwrap();
    let kept = kept.iter().find(|f| f.suffix == "0004-00.anim").expect("the .anim is written");
    assert!(kept.bytes == m2, "the .anim read is written back whole");
    let mut anew = w.clone();
    anew.file.as_read = Default::default();
    let (bytes, files) = wrath::write(&anew).unwrap();
    let anim = files.iter().find(|f| f.suffix == "0004-00.anim").expect("the .anim is written");
    assert!(anim.bytes.len() < m2.len() && anim.bytes.len() % 16 == 0);
    let back = read(&bytes, vec![("Rabbit00.skin", skin), ("Rabbit0004-00.anim", anim.bytes.clone())]).unwrap();
    assert!(back.file == w.file && back.skins == w.skins);
}

/// `bytes` as the payload of one chunk `tag` (m2-md21.md §2.1: tag, u32 size, payload).
fn chunk(tag: &[u8; 4], bytes: &[u8]) -> Vec<u8> {
    [tag.as_slice(), &(bytes.len() as u32).to_le_bytes(), bytes].concat()
}

/// A chunked `.anim` (Legion 7.3, m2-md21.md §6): a model without a skeleton reads every key
/// from the `AFM2` payload, gives the file back chunked byte for byte, and laid out anew (as when
/// porting down to 264) a raw `.anim` holding the same keys.
#[test]
fn chunked_anim_keys_come_from_the_afm2_payload() {
    let Some((m2, skin)) = rabbit() else { return };
    let m = external(&m2);
    let raw = read(&m, vec![("Rabbit00.skin", skin.clone()), ("Rabbit0004-00.anim", m2.clone())]).unwrap();
    // The offsets count from AFM2's payload; an unknown chunk after it is kept and reported.
    let chunked = [chunk(b"AFM2", &m2), chunk(b"XTRA", &[1, 2, 3])].concat();
    let w = read(&m, vec![("Rabbit00.skin", skin.clone()), ("Rabbit0004-00.anim", chunked.clone())]).unwrap();
    assert!(w.file == raw.file, "the keys read from AFM2 are those of the raw file");
    assert!(w.notes.iter().any(|n| n.contains("Rabbit0004-00.anim") && n.contains("XTRA")), "{:?}", w.notes);
    let (_, kept) = wrath::write(&w).unwrap();
    let kept = kept.iter().find(|f| f.suffix == "0004-00.anim").expect("the .anim is written");
    assert!(kept.bytes == chunked, "the chunked .anim comes back byte for byte");
    let mut anew = w.clone();
    anew.file.as_read = Default::default();
    let (model, files) = wrath::write(&anew).unwrap();
    let anim = files.iter().find(|f| f.suffix == "0004-00.anim").expect("the .anim is written");
    assert!(&anim.bytes[..4] != b"AFM2" && anim.bytes.len() < m2.len(), "laid out anew it is raw");
    let again =
        read(&model, vec![("Rabbit00.skin", skin.clone()), ("Rabbit0004-00.anim", anim.bytes.clone())]).unwrap();
    assert!(again.file == raw.file);
    // A split .anim beside a model without a skeleton: its tracks read AFM2, the AFSB blob is a note.
    let split = [chunk(b"AFM2", &m2), chunk(b"AFSB", &[0; 16])].concat();
    let w = read(&m, vec![("Rabbit00.skin", skin), ("Rabbit0004-00.anim", split)]).unwrap();
    assert!(w.file == raw.file);
    assert!(w.notes.iter().any(|n| n.starts_with("Rabbit0004-00.anim splits its keys")), "{:?}", w.notes);
}

/// A chunked `.anim` whose chunk overruns the file, or that has no `AFM2` for the model's
/// tracks, or whose offsets leave the `AFM2` payload: typed errors naming the file.
#[test]
fn broken_chunked_anims_are_refused_by_name() {
    let Some((m2, skin)) = rabbit() else { return };
    let m = external(&m2);
    let read_anim =
        |anim: Vec<u8>| read(&m, vec![("Rabbit00.skin", skin.clone()), ("Rabbit0004-00.anim", anim)]).unwrap_err();
    let mut overrun = chunk(b"AFM2", &m2);
    overrun[4..8].copy_from_slice(&(m2.len() as u32 + 1).to_le_bytes());
    let e = read_anim(overrun);
    assert!(e.path.contains("Rabbit0004-00.anim") && e.path.contains("ChunkHeader(AFM2).size"), "{e}");
    assert_eq!(e.offset, 4);
    let e = read_anim(chunk(b"AFSB", &m2)).to_string();
    assert!(e.contains("Rabbit0004-00.anim has no AFM2 chunk"), "{e}");
    let e = read_anim(chunk(b"AFM2", &m2[..0x100])).to_string();
    assert!(e.contains("Rabbit0004-00.anim") && e.contains("AFM2"), "{e}");
    // Truncated anywhere: an error, never a panic, allocation bounded by the input.
    let mut h = Harness::new().reader("wrath::read", |anim: &[u8]| {
        read(&m, vec![("Rabbit00.skin", skin.clone()), ("Rabbit0004-00.anim", anim.to_vec())])
    });
    h.truncations("chunked Rabbit0004-00.anim", &chunk(b"AFM2", &m2[..m2.len().min(0x3000)]));
    assert!(h.failures().is_empty(), "{:?}", h.failures());
}

#[test]
fn anim_offsets_past_the_end_are_refused() {
    let Some((m2, skin)) = rabbit() else { return };
    let m = external(&m2);
    let mut h = Harness::new().reader("wrath::read", |anim: &[u8]| {
        read(&m, vec![("Rabbit00.skin", skin.clone()), ("Rabbit0004-00.anim", anim.to_vec())])
    });
    h.truncations("Rabbit0004-00.anim", &m2[..m2.len().min(0x3000)]);
    assert!(h.failures().is_empty(), "{:?}", h.failures());
    drop(h);
    let e = read(&m, vec![("Rabbit00.skin", skin), ("Rabbit0004-00.anim", m2[..64].to_vec())]).unwrap_err();
    assert!(e.to_string().contains(".anim file of sequence 0"), "{e}");
}

#[test]
fn truncated_and_damaged_skins_are_refused() {
    let Some((m2, skin)) = rabbit() else { return };
    let mut h = Harness::new().reader("wrath::read", |s: &[u8]| read(&m2, vec![("Rabbit00.skin", s.to_vec())]));
    h.truncations("Rabbit00.skin", &skin);
    h.byte_changes("Rabbit00.skin", &skin[..0x40]);
    assert!(h.failures().is_empty(), "{:?}", h.failures());
    // A skin vertex naming a model vertex that does not exist.
    let mut bad = skin.clone();
    let at = u32::from_le_bytes(skin[8..12].try_into().unwrap()) as usize;
    bad[at..at + 2].copy_from_slice(&500u16.to_le_bytes());
    let e = read(&m2, vec![("Rabbit00.skin", bad)]).unwrap_err().to_string();
    assert!(e.contains("model vertex 500") && e.contains("154 exist"), "{e}");
}

#[test]
fn truncated_and_damaged_models_are_refused() {
    let Some((m2, skin)) = rabbit() else { return };
    let mut h = Harness::new().reader("wrath::read", |m: &[u8]| read(m, vec![("Rabbit00.skin", skin.clone())]));
    h.truncations("Rabbit.m2", &m2[..0x400]);
    h.byte_changes("Rabbit.m2", &m2[..0x140]);
    assert!(h.failures().is_empty(), "{:?}", h.failures());
}

/// The fuzz findings of issue 42 (`fixtures/m2-wrath/hostile/fuzz_skin_*.skin`), read as the
/// `m2_skin` target reads them: as `v264_skins00.skin` beside `m2-wrath/v264_skins.m2`. Each was
/// accepted and written back into a skin that re-read differently; an array that starts inside
/// the header is refused now, within the budget (a skin the reader accepts is one the writer
/// gives back: the m2_skin target checks the rest).
#[test]
fn fuzz_found_skins_are_refused() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/m2-wrath");
    let m2 = std::fs::read(root.join("v264_skins.m2")).unwrap();
    let findings: Vec<_> = relic_testkit::files_with_extension(&root.join("hostile"), "skin")
        .into_iter()
        .filter(|(n, _)| n.starts_with("fuzz_skin_"))
        .collect();
    assert_eq!(findings.len(), 3);
    for (name, skin) in findings {
        relic_testkit::check(&name, &skin, relic_testkit::Limits::default(), |b| {
            let siblings = SiblingBytes(vec![("v264_skins00.skin".into(), b.to_vec())]);
            wrath::read(&Input { bytes: &m2, name: "v264_skins.m2", siblings: &siblings })
        })
        .unwrap();
        let siblings = SiblingBytes(vec![("v264_skins00.skin".into(), skin.clone())]);
        // Each has an array at byte 0, inside the .skin's header: read, it was written back in
        // another layout (its "records" were the header's bytes), so it re-read differently.
        let e = wrath::read(&Input { bytes: &m2, name: "v264_skins.m2", siblings: &siblings }).err();
        let e = e.map(|e| e.to_string()).unwrap_or_default();
        assert!(e.contains("inside the") && e.contains("-byte header"), "{name}: {e}");
    }
}
