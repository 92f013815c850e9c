//! The file layer: byte-identical rewrites, header counts, version deltas, detection, `info`, and
//! the typed errors of the hostile fixtures.

// Test helpers may fail loudly: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use relic_abc::{AbcFile, read, write};
use relic_core::ReadErrorKind;
use relic_core::check::Status;
use relic_core::info::Fact;

fn v12(bytes: &[u8]) -> relic_abc::file::V12File {
    match read(bytes).unwrap() {
        AbcFile::V12(f) => f,
        AbcFile::V6(_) => panic!("expected v9–v13"),
    }
}

fn v6(bytes: &[u8]) -> relic_abc::file::V6File {
    match read(bytes).unwrap() {
        AbcFile::V6(f) => f,
        AbcFile::V12(_) => panic!("expected v6"),
    }
}

#[test]
fn fixtures_rewrite_byte_identically() {
    for (name, bytes) in common::fixtures() {
        let file = read(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(write(&file).unwrap(), bytes, "{name}");
    }
}

#[test]
fn corpus_rewrites_byte_identically() {
    let Some(files) = common::corpus() else { return };
    assert!(files.len() >= 14, "{} real ABC files", files.len());
    for (name, bytes) in files {
        let file = read(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let out = write(&file).unwrap();
        assert!(out == bytes, "{name}: {} bytes written for {}", out.len(), bytes.len());
    }
}

/// The writer recomputes every header count; on the real files that gives exactly what they store.
#[test]
fn recomputed_header_counts_equal_the_stored_ones() {
    let mut files = common::fixtures();
    files.extend(common::corpus().unwrap_or_default());
    let mut checked = 0;
    for (name, bytes) in files {
        let AbcFile::V12(_) = read(&bytes).unwrap() else { continue };
        let (status, detail) = common::check(&bytes, "header-counts");
        assert_eq!(status, Status::Pass, "{name}: {detail}");
        let note = if name == "v12_no_lod_distances.abc" {
            "; LODDistanceCount 0 is not LODCount − 1 (as io_scene_abc writes)"
        } else {
            ""
        };
        assert_eq!(detail, format!("14 counts equal{note}"), "{name}");
        checked += 1;
    }
    assert!(checked >= 10);
}

/// Counts really are recomputed: change the data and the written header follows.
#[test]
fn written_counts_follow_the_data() {
    let mut f = v12(&std::fs::read(common::fixtures_dir().join("v12_full.abc")).unwrap());
    let before = f.header.clone();
    f.sockets.as_mut().unwrap().sockets.pop();
    let anims = &mut f.animations.as_mut().unwrap().animations;
    anims[1].keyframes[1].command = "a brand new command".into();
    let out = write(&AbcFile::V12(f)).unwrap();
    let back = v12(&out);
    assert_eq!(back.header.counts.socket_count, before.counts.socket_count - 1);
    // The old command string was used once, the new one is new: same count, longer total.
    assert_eq!(back.header.string_count, before.string_count);
    let delta = "a brand new command".len() as i64 - "cmd msg c1cam12 trigger".len() as i64;
    assert_eq!(i64::from(back.header.string_length_total), i64::from(before.string_length_total) + delta);
    let (status, detail) = common::check(&out, "header-counts");
    assert_eq!(status, Status::Pass, "{detail}");
}

/// The string rule of §4.1 on the real files: distinct non-empty strings among command string,
/// node names, child-model names, animation names and keyframe strings; socket, piece and
/// weight-set names are not counted (adding them breaks the equality).
#[test]
fn string_count_rule() {
    let Some(bytes) = common::corpus_file("PARTNER_DANCIN.ABC") else { return };
    let f = v12(&bytes);
    // Counting socket names too (as Jupiter's ModelAllocations does) would not match.
    let mut counted: std::collections::HashSet<Vec<u8>> = std::collections::HashSet::new();
    counted.insert(f.header.command_string.0.clone());
    counted.extend(f.nodes.as_ref().unwrap().nodes.iter().map(|n| n.name.0.clone()));
    counted.extend(f.child_models.as_ref().unwrap().children.iter().map(|c| c.file_name.0.clone()));
    for a in &f.animations.as_ref().unwrap().animations {
        counted.insert(a.name.0.clone());
        counted.extend(a.keyframes.iter().map(|k| k.command.0.clone()));
    }
    counted.remove(&Vec::new());
    assert_eq!(counted.len() as u32, f.header.string_count);
    assert_eq!(counted.iter().map(|s| s.len() as u32).sum::<u32>(), f.header.string_length_total);
    let sockets = f.sockets.as_ref().unwrap().sockets.iter().filter(|s| !counted.contains(&s.name.0)).count();
    assert!(sockets > 0, "socket names would change the count");
}

#[test]
fn version_deltas_are_in_the_types() {
    let read = |name: &str| v12(&std::fs::read(common::fixtures_dir().join(name)).unwrap());
    let v9 = read("v9.abc");
    assert!(v9.pieces.unwrap().pieces.iter().all(|p| p.lod_weight.is_none()));
    assert!(v9.animations.unwrap().animations.iter().all(|a| a.interpolation_time.is_none()));
    for name in ["v10.abc", "v11.abc"] {
        let f = read(name);
        assert_eq!(f.pieces.unwrap().pieces.iter().map(|p| p.lod_weight).collect::<Vec<_>>(), [Some(1.0), Some(3.0)]);
        assert!(f.animations.unwrap().animations.iter().all(|a| a.interpolation_time.is_none()));
    }
    let v12f = read("v12_full.abc");
    let anims = v12f.animations.unwrap().animations;
    assert_eq!(anims.iter().map(|a| a.interpolation_time).collect::<Vec<_>>(), [Some(200), Some(300)]);
    assert!(anims.iter().all(|a| a.tracks.v13.is_empty() && a.tracks.transforms.len() == 3 * a.keyframes.len()));
    let v13 = read("v13.abc");
    assert_eq!(v13.header.v13_unknown, Some(0x1234));
    let walk = &v13.animations.as_ref().unwrap().animations[1];
    assert!(walk.tracks.transforms.is_empty());
    assert_eq!(walk.tracks.v13.iter().map(|t| t.prefix).collect::<Vec<_>>(), [-1, -1, -1]);
    assert_eq!(walk.tracks.v13.iter().map(|t| t.keys.len()).sum::<usize>(), 9);
    assert_eq!(walk.tracks.v13[0].keys[2].extra, [2, 0, 0, 0, 0, 0, 0, 0]);
    // v13 relations stay 28 bytes: the child model of the fixture reads with identity relations.
    let children = &v13.child_models.unwrap().children;
    assert_eq!(children[0].save_index, 764);
    assert!(children[0].relations.iter().all(|r| *r == relic_abc::file::NodeKey::IDENTITY));
}

#[test]
fn optional_parts_of_the_fixtures() {
    let read = |name: &str| std::fs::read(common::fixtures_dir().join(name)).unwrap();
    assert_eq!(v12(&read("v12_zero_pieces.abc")).pieces.unwrap().pieces.len(), 0);
    let none = v12(&read("v12_no_pieces_section.abc"));
    assert!(none.pieces.is_none());
    assert!(!none.order.contains(&relic_abc::file::SectionId::Pieces));
    let marker = v12(&read("v12_marker.abc"));
    assert_eq!(marker.animations.unwrap().animations.iter().map(|a| a.marker()).collect::<Vec<_>>(), [-1, 3]);
    let unknown = v12(&read("v12_unknown_section.abc"));
    assert_eq!(unknown.unknown.len(), 1);
    assert_eq!(unknown.unknown[0].name, b"Extra");
    assert_eq!(unknown.unknown[0].body, [1, 2, 3, 4, 5]);
    let empty = v12(&read("v12_empty_strings.abc"));
    assert!(empty.header.command_string.0.is_empty());
    let lods = v6(&read("v6_lods.abc"));
    assert_eq!(lods.geometry.vertex_start_num, [0, 4, 5]);
    assert_eq!((lods.geometry.normal_verts, lods.geometry.vertices.len()), (4, 6));
    assert_eq!(lods.geometry.vertices[5].replacements, [2, 3]);
    let morph = v6(&read("v6_vertex_animation.abc"));
    assert_eq!(morph.nodes.nodes[2].md_vertices, [6, 7]);
    assert_eq!(morph.nodes.nodes[2].flags, 6);
    assert_eq!(morph.animations.animations[0].node_anims[2].vertex_frames.len(), 3 * 2);
    let info = v6(&read("v6_transform_info.abc"));
    assert_eq!(info.transform_info.map(|t| (t.flip_mat, t.fix_anim_keyframes)), Some((1, 0)));
    assert!(!info.conjugates_keys() && info.flips_z());
    let no_flip = v6(&read("v6_transform_info_no_flip.abc"));
    assert_eq!(no_flip.transform_info.map(|t| (t.flip_mat, t.fix_anim_keyframes)), Some((0, 1)));
    assert!(no_flip.conjugates_keys() && !no_flip.flips_z());
    let distances = v12(&read("v12_no_lod_distances.abc"));
    assert_eq!((distances.header.counts.lod_count, distances.header.lod_distances.len()), (2, 0));
}

fn section_field(bytes: &[u8], name: &str) -> u64 {
    let mut needle = (name.len() as u16).to_le_bytes().to_vec();
    needle.extend_from_slice(name.as_bytes());
    (bytes.windows(needle.len()).position(|w| w == needle).unwrap() + needle.len()) as u64
}

/// Each hostile fixture fails with the kind, field path and offset its damage calls for.
#[test]
fn hostile_fixtures_give_typed_errors() {
    let hostile = common::hostile_fixtures();
    assert_eq!(hostile.len(), 9);
    for (name, bytes) in hostile {
        let err = read(&bytes).unwrap_err();
        let text = err.to_string();
        match name.as_str() {
            "next_offset_backwards.abc" => {
                assert_eq!((err.path.as_str(), err.offset), ("Nodes.next", section_field(&bytes, "Nodes")), "{text}");
                assert!(matches!(err.kind, ReadErrorKind::Invalid(_)), "{text}");
            }
            "next_offset_past_end.abc" => {
                assert_eq!((err.path.as_str(), err.offset), ("Pieces.next", section_field(&bytes, "Pieces")), "{text}");
                assert_eq!(
                    err.kind,
                    ReadErrorKind::OffsetOutOfBounds { target: 0x7FFF_0000, len: 6, file_len: bytes.len() as u64 }
                );
            }
            "next_offset_inside_next.abc" => {
                assert_eq!(err.path, "Pieces", "{text}");
                assert_eq!(err.kind, ReadErrorKind::TrailingBytes(4));
            }
            "face_count_past_end.abc" => {
                assert_eq!(err.path, "Pieces.pieces[0].lods[0].faces", "{text}");
                assert!(
                    matches!(err.kind, ReadErrorKind::CountTooLarge { count: 0x4000_0000, record_size: 30, .. }),
                    "{text}"
                );
            }
            "face_vertex_out_of_range.abc" => {
                assert_eq!(err.path, "Pieces.pieces[0].lods[0].faces[0]", "{text}");
                assert!(text.contains("vertex index 99 ≥ vertex count 4"), "{text}");
            }
            "v107_global_operations.abc" => {
                assert!(matches!(err.kind, ReadErrorKind::UnsupportedVersion { version: 107, .. }), "{text}");
                assert!(text.contains("Global Operations"), "{text}");
            }
            "v6_node_children_huge.abc" => {
                assert!(err.path.starts_with("Nodes.nodes["), "{text}");
                assert!(matches!(err.kind, ReadErrorKind::CountTooLarge { .. } | ReadErrorKind::Truncated), "{text}");
            }
            "marker_not_a_count.abc" | "marker_below_minus_one.abc" => {
                // Checked field by field in tests/markers.rs.
                assert_eq!(err.path, "Animation.animations[1].marker", "{text}");
            }
            other => panic!("unexpected hostile fixture {other}: {text}"),
        }
    }
}

#[test]
fn every_version_is_detected_and_other_files_are_not() {
    for (name, bytes) in common::fixtures() {
        let found = relic_abc::detect(&bytes).unwrap_or_else(|| panic!("{name}"));
        assert_eq!(found.source.version, read(&bytes).unwrap().version(), "{name}");
    }
    let v6 = std::fs::read(common::fixtures_dir().join("v6_basic.abc")).unwrap();
    assert_eq!(relic_abc::detect(&v6).map(|d| d.source.version), Some(6));
    for other in [
        &b"Ogawa\0\0\0\0\0\0\0\0\0\0\0"[..],
        b"\x89HDF\r\n\x1a\n\0\0\0\0\0\0\0\0",
        b"\x09\0LTBHeader\0\0\0\0\0\0",
        b"",
        b"\x06\0Head",
    ] {
        assert_eq!(relic_abc::detect(other), None);
    }
    let go = std::fs::read(common::fixtures_dir().join("hostile/v107_global_operations.abc")).unwrap();
    assert_eq!(relic_abc::detect(&go).map(|s| s.source.version), Some(107));
}

fn count(info: &relic_core::Info, key: &str) -> u64 {
    match info.get(key) {
        Some(Fact::Count(n)) => *n,
        other => panic!("{key}: {other:?}"),
    }
}

/// `info` lists the counts as the file states them (figures from the corpus MANIFEST).
#[test]
fn info_lists_the_stated_counts() {
    let Some(bytes) = common::corpus_file("PARTNER_DANCIN.ABC") else { return };
    let info = relic_abc::info(&bytes).unwrap();
    assert_eq!(info.version, 12);
    for key in [
        "nodes",
        "pieces",
        "lods",
        "vertices",
        "faces",
        "weights",
        "animations",
        "keyframes",
        "child_models",
        "sockets",
        "weight_sets",
    ] {
        assert!(info.get(key).is_some(), "{key}");
    }
    assert_eq!(count(&info, "lods"), 5);
    assert_eq!(count(&info, "animations"), 13);
    assert_eq!(count(&info, "child_models"), 3);
    assert_eq!(count(&info, "sockets"), 11);
    assert_eq!(count(&info, "weight_sets"), 109);
    let info = relic_abc::info(&common::corpus_file("INTHERO_ACTION.ABC").unwrap()).unwrap();
    assert_eq!((count(&info, "nodes"), count(&info, "pieces"), count(&info, "lods")), (25, 7, 1));
    assert_eq!((count(&info, "keyframes"), count(&info, "sockets")), (151, 2));
    let info = relic_abc::info(&common::corpus_file("SHOTGUN_PV.ABC").unwrap()).unwrap();
    assert_eq!(info.version, 6);
    assert_eq!((count(&info, "nodes"), count(&info, "animations"), count(&info, "keyframes")), (29, 6, 86));
    assert!(info.get("child_models").is_none(), "v6 lists only what applies");
}

/// The writer refuses structs that would not read back as themselves.
#[test]
fn inconsistent_structs_are_refused_on_write() {
    let base = v12(&std::fs::read(common::fixtures_dir().join("v12_full.abc")).unwrap());
    let mut f = base.clone();
    f.pieces.as_mut().unwrap().pieces[0].lod_weight = None;
    assert!(write(&AbcFile::V12(f)).unwrap_err().to_string().contains("lod_weight"));
    let mut f = base.clone();
    f.pieces.as_mut().unwrap().pieces[1].lods.pop();
    assert!(write(&AbcFile::V12(f)).unwrap_err().to_string().contains("LODs"));
    let mut f = base.clone();
    f.animations.as_mut().unwrap().animations[0].tracks.transforms.pop();
    assert!(write(&AbcFile::V12(f)).unwrap_err().to_string().contains("transforms"));
    let mut f = base.clone();
    f.order.pop();
    assert!(write(&AbcFile::V12(f)).unwrap_err().to_string().contains("leaves out"));
    let mut f = base;
    f.header.command_string = relic_core::binary::LenString(vec![b'x'; 70_000]);
    assert!(matches!(write(&AbcFile::V12(f)).unwrap_err(), relic_core::WriteError::DoesNotFit { .. }));
}
