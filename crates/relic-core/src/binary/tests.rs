use binrw::{BinRead, BinReaderExt, Endian};

use super::*;

#[derive(Debug, BinRead)]
#[br(little)]
#[allow(dead_code)]
struct Item {
    n: u32,
    #[br(parse_with = counted, args(u64::from(n), 2))]
    values: Vec<u16>,
}

#[derive(Debug, BinRead)]
#[br(little)]
#[allow(dead_code)]
struct List {
    count: u32,
    #[br(parse_with = counted, args(u64::from(count), 4))]
    items: Vec<Item>,
}

#[test]
fn hostile_count_is_refused_before_allocating() {
    // count = 2^31 records of ≥ 4 bytes in a 12-byte file: refused with the sizes.
    let mut bytes = vec![];
    bytes.extend_from_slice(&(1u32 << 31).to_le_bytes());
    bytes.extend_from_slice(&[0; 8]);
    let err = parse(&bytes, |s| s.read_le::<List>()).unwrap_err();
    assert_eq!(err.offset, 4);
    assert_eq!(err.kind, ReadErrorKind::CountTooLarge { count: 1 << 31, record_size: 4, needed: 1 << 33, left: 8 });
    assert_eq!(err.path, "items");
}

#[test]
fn pod_vec_refuses_hostile_count() {
    let bytes = [0u8; 16];
    let err = parse(&bytes, |s| pod_vec::<_, [f32; 3]>(s, Endian::Little, (1 << 31,))).unwrap_err();
    assert!(matches!(err.kind, ReadErrorKind::CountTooLarge { count: 2147483648, record_size: 12, .. }));
    let err = parse(&bytes, |s| pod_vec::<_, u8>(s, Endian::Little, (u64::from(u32::MAX),))).unwrap_err();
    assert!(matches!(err.kind, ReadErrorKind::CountTooLarge { .. }));
}

#[test]
fn error_path_names_fields_and_indices() {
    // Two items; the second says 3 values but the file ends after one.
    let mut bytes = vec![];
    for v in [2u32, 1] {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    bytes.extend_from_slice(&7u16.to_le_bytes());
    bytes.extend_from_slice(&3u32.to_le_bytes());
    bytes.extend_from_slice(&7u16.to_le_bytes());
    bytes.extend_from_slice(&[0; 2]);
    let err = parse(&bytes, |s| s.read_le::<List>()).unwrap_err();
    assert_eq!(err.path, "items[1].values");
    assert_eq!(err.offset, 14);
    assert!(matches!(err.kind, ReadErrorKind::CountTooLarge { count: 3, record_size: 2, needed: 6, left: 4 }));
    assert_eq!(
        err.to_string(),
        "items[1].values: count 3 of 2-byte records needs 6 bytes but only 4 are left (at byte 0xe)"
    );
}

#[test]
fn truncation_reports_the_field_offset() {
    #[derive(Debug, BinRead)]
    #[br(little)]
    #[allow(dead_code)]
    struct Pair {
        a: u16,
        b: u32,
    }
    // `b` starts at byte 2 and is cut after 2 of its 4 bytes.
    let err = parse(&[1u8, 0, 5, 0], |s| s.read_le::<Pair>()).unwrap_err();
    assert_eq!(err.kind, ReadErrorKind::Truncated);
    assert_eq!(err.offset, 2);
    assert_eq!(err.path, "b");
    // A count that fits the bytes left passes the bound check; the cut shows up in the field.
    let err = parse(&[1u8, 0, 0, 0, 1, 0, 0, 0, 9], |s| s.read_le::<List>()).unwrap_err();
    assert_eq!(err.kind, ReadErrorKind::CountTooLarge { count: 1, record_size: 2, needed: 2, left: 1 });
    assert_eq!(err.path, "items[0].values");
}

#[test]
fn len_string_round_trip_and_bounds() {
    let bytes = [3u8, 0, b'a', 0xE9, b'c'];
    let s = parse(&bytes, |s| s.read_le::<LenString>()).unwrap();
    assert_eq!(s.to_text(), "aéc");
    let mut w = ByteWriter::new();
    w.write(&s).unwrap();
    assert_eq!(w.as_bytes(), &bytes);
    let err = parse(&[0xFF, 0xFF, b'a'], |s| s.read_le::<LenString>()).unwrap_err();
    assert!(matches!(err.kind, ReadErrorKind::CountTooLarge { count: 65535, .. }));
}

#[test]
fn fixed_string_keeps_junk_after_nul() {
    let mut raw = [0xCDu8; 8];
    raw[..3].copy_from_slice(b"ab\0");
    let s = FixedString(raw);
    assert_eq!(s.to_text(), "ab");
    assert_eq!(FixedString::<4>::from_text("abc").unwrap().0, *b"abc\0");
    assert!(FixedString::<4>::from_text("abcd").is_none());
}

#[test]
fn records_decode_and_encode() {
    #[derive(Debug, PartialEq)]
    struct R {
        a: u16,
        b: f32,
    }
    impl Record for R {
        const SIZE: usize = 6;
        fn decode(f: &mut Fields<'_>) -> Self {
            Self { a: f.u16(), b: f.f32() }
        }
        fn encode(&self, out: &mut Vec<u8>) {
            out.put(self.a.to_le_bytes());
            out.put(self.b.to_le_bytes());
        }
    }
    let mut bytes = vec![];
    for (a, b) in [(1u16, 0.5f32), (2, -1.0)] {
        bytes.extend_from_slice(&a.to_le_bytes());
        bytes.extend_from_slice(&b.to_le_bytes());
    }
    let v = parse(&bytes, |s| records::<_, R>(s, Endian::Little, (2,))).unwrap();
    assert_eq!(v, vec![R { a: 1, b: 0.5 }, R { a: 2, b: -1.0 }]);
    let mut w = ByteWriter::new();
    write_records(&mut w, &v).unwrap();
    assert_eq!(w.as_bytes(), &bytes);
    let err = parse(&bytes, |s| records::<_, R>(s, Endian::Little, (3,))).unwrap_err();
    assert!(matches!(err.kind, ReadErrorKind::CountTooLarge { count: 3, record_size: 6, needed: 18, left: 12 }));
}

#[test]
fn writer_patches_and_aligns() {
    let mut w = ByteWriter::new();
    w.append(b"MD20");
    let slot = w.reserve_u32();
    w.append(b"x");
    w.align(16);
    let at = w.len() as u32;
    w.append(b"data");
    w.patch_u32(slot, at);
    assert_eq!(&w.as_bytes()[4..8], &16u32.to_le_bytes());
    assert_eq!(w.len(), 20);
}

#[test]
fn packed_normal() {
    let n = PackedNormal([0, 127, 0]).decode().unwrap();
    assert_eq!(n, [0.0, 1.0, 0.0]);
    assert_eq!(PackedNormal::encode([0.0, -1.0, 0.0]).0, [0, -127, 0]);
    assert!(PackedNormal([0, 0, 0]).decode().is_none());
}

#[test]
fn count_offset_reads_and_refuses() {
    // (count 2, offset 8) then junk, then two u16 at 8.
    let bytes = [2u8, 0, 0, 0, 8, 0, 0, 0, 7, 0, 9, 0];
    let read = |b: &[u8]| parse(b, |s| count_offset::<_, u16, ()>(s, Endian::Little, (2, ())));
    assert_eq!(read(&bytes).unwrap(), vec![7, 9]);
    // An offset past the end names the pair's position and the span.
    let mut far = bytes;
    far[4] = 11;
    let err = read(&far).unwrap_err();
    assert_eq!(err.offset, 0);
    assert_eq!(err.kind, ReadErrorKind::OffsetOutOfBounds { target: 11, len: 4, file_len: 12 });
    // A hostile count is refused before allocating.
    let mut huge = bytes;
    huge[..4].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(matches!(read(&huge).unwrap_err().kind, ReadErrorKind::OffsetOutOfBounds { .. }));
}

#[test]
fn rest_of_file_takes_what_is_left() {
    let bytes = [1u8, 2, 3, 4, 5];
    let rest = parse(&bytes, |s| {
        s.seek(SeekFrom::Start(2))?;
        rest_of_file(s, Endian::Little, ())
    })
    .unwrap();
    assert_eq!(rest, [3, 4, 5]);
}

#[test]
fn span_check() {
    let bytes = [0u8; 10];
    let err = parse(&bytes, |s| check_span(s, 2, 8, 4)).unwrap_err();
    assert_eq!(err.kind, ReadErrorKind::OffsetOutOfBounds { target: 8, len: 4, file_len: 10 });
    assert_eq!(err.offset, 2);
    let err = parse(&bytes, |s| check_span(s, 0, u64::MAX, 1)).unwrap_err();
    assert!(matches!(err.kind, ReadErrorKind::OffsetOutOfBounds { .. }));
}
