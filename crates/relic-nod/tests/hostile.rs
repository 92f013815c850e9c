//! Hostile input: the hostile fixtures give typed errors with offset and field; every truncation
//! and single-byte mutation of every small fixture (and random multi-byte mutations) is refused
//! or read without a panic, within a second, allocating at most 16 × the input + 1 MiB.

// Test code: a failed unwrap or index is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::path::{Path, PathBuf};

use relic_core::{Model, ReadError, ReadErrorKind};
use relic_nod::read_nad as parse_nad;
use relic_testkit::{CountingAllocator, Limits, Rng, check, counting_installed, mutate, truncations};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/nod")
}

fn read(name: &str) -> Vec<u8> {
    std::fs::read(dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e} (run `cargo xtask fixtures`)"))
}

fn skeleton() -> Model {
    relic_nod::read_model(&read("skinned.nod")).unwrap()
}

/// Every fixture, hostile ones included.
fn all_fixtures() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for d in [dir(), dir().join("hostile")] {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_file() {
                let name = path.strip_prefix(dir()).unwrap().display().to_string();
                out.push((name, std::fs::read(&path).unwrap()));
            }
        }
    }
    out.sort();
    assert!(out.len() >= 15, "fixtures missing: run `cargo xtask fixtures`");
    out
}

fn expect_error(err: ReadError, offset: u64, path: &str, text: &str) {
    assert_eq!((err.offset, err.path.as_str()), (offset, path), "{err}");
    assert!(err.to_string().contains(text), "{err}");
}

#[test]
fn hostile_fixtures_name_offset_and_field() {
    let err = relic_nod::read_model(&read("hostile/size_rule.nod")).unwrap_err();
    assert_eq!(err.kind, ReadErrorKind::TrailingBytes(1));
    expect_error(err, 334, "size_rule", "1 unexpected bytes");

    let err = relic_nod::read_model(&read("hostile/version.nod")).unwrap_err();
    assert!(matches!(err.kind, ReadErrorKind::UnsupportedVersion { version: 6, .. }), "{err}");
    expect_error(err, 0, "version", "reads NOD version 7");

    // Faces start at 8 + 32 + 42 + 66 + 32 + 3·40 = 300; corner 2 of face 0 is at 304.
    let err = relic_nod::read_model(&read("hostile/face_index.nod")).unwrap_err();
    assert!(matches!(err.kind, ReadErrorKind::Invalid(_)));
    expect_error(err, 304, "faces[0][2]", "vertex 3 is out of group 0's range (3 vertices)");

    // Bones start at 8 + 2·32 + 42 = 114; bone 2's parent is at 114 + 2·66 + 64.
    let err = relic_nod::read_model(&read("hostile/parent_cycle.nod")).unwrap_err();
    expect_error(err, 114 + 2 * 66 + 64, "bones[2].parent", "bone parents form a cycle (2 → 3 → 2)");

    let err = relic_nod::read_model(&read("hostile/bones65.nod")).unwrap_err();
    expect_error(err, 40, "num_bones", "65 bones; a NOD holds at most 64");

    let err = relic_nod::read_model(&read("hostile/group_sums.nod")).unwrap_err();
    expect_error(err, 306, "groups.num_vertices", "the groups hold 2 vertices but the header says 3");

    let err = relic_nod::read_model(&read("hostile/big_endian.nod")).unwrap_err();
    assert!(matches!(err.kind, ReadErrorKind::UnsupportedVersion { version: 0x0700_0000, .. }), "{err}");
    expect_error(err, 0, "version", "big-endian 7");

    // Bone 1's sibling at 114 + 66 + 60; bone 2's parent at 114 + 2·66 + 64.
    let err = relic_nod::read_model(&read("hostile/links.nod")).unwrap_err();
    expect_error(err, 114 + 66 + 60, "bones[1].sibling", "sibling 9 is out of range (4 bones)");
    let err = relic_nod::read_model(&read("hostile/parent_order.nod")).unwrap_err();
    expect_error(err, 114 + 2 * 66 + 64, "bones[2].parent", "parent 3 comes after bone 2");

    // LOD table after 28 vertices at 114 + 4·66 + 2·32 = 442: entry 11 at 442 + 28·40 + 2·11.
    let err = relic_nod::read_model(&read("hostile/lod_entry.nod")).unwrap_err();
    expect_error(err, 442 + 28 * 40 + 22, "lod[11]", "collapses into vertex 12, outside group 0's range (12 vertices)");

    let err = relic_nod::read_model(&read("hostile/vertex_bone.nod")).unwrap_err();
    expect_error(err, 180 + 36, "vertices[0].bone_num", "bone 5 is out of range (1 bones)");
    let err = parse_nad(&read("hostile/track_bone.nad")).unwrap_err();
    expect_error(err, 16 + 4, "tracks[0].bone", "bone 64; a NOD has at most 64 bones");

    let err = parse_nad(&read("hostile/version.nad")).unwrap_err();
    assert!(matches!(err.kind, ReadErrorKind::UnsupportedVersion { version: 2, .. }), "{err}");
    expect_error(err, 0, "version", "reads NAD version 3");

    // Group 0 at 306: the tail at +22, layout A's mesh byte at +3.
    let err = relic_nod::read_model(&read("hostile/group_tail.nod")).unwrap_err();
    expect_error(err, 306 + 22 + 3, "groups[0].tail", "no group-tail layout fits");

    let err = parse_nad(&read("hostile/track_type.nad")).unwrap_err();
    expect_error(err, 16 + 8, "tracks[0].track_type", "track type 7");

    let err = parse_nad(&read("hostile/trailing.nad")).unwrap_err();
    assert_eq!(err.kind, ReadErrorKind::TrailingBytes(1));
    expect_error(err, 1524, "end", "1 unexpected bytes");

    let err = parse_nad(&read("hostile/key_count.nad")).unwrap_err();
    assert!(matches!(err.kind, ReadErrorKind::CountTooLarge { count: 0x7FFF_FFFF, record_size: 56, .. }), "{err}");
    expect_error(err, 28, "tracks[0].keys", "count 2147483647 of 56-byte records");

    // The file is well-formed; the mapping refuses frames that go backwards (key 2 at 16 + 12 + 2·56).
    let bytes = read("hostile/frames.nad");
    assert!(parse_nad(&bytes).is_ok());
    let err = relic_nod::read_animation(&skeleton(), &bytes, "bad", &Default::default()).unwrap_err();
    expect_error(err, 140, "tracks[0].keys[2].frame", "frame 5 does not come after frame 10");

    // A NAD for more bones than the model has.
    let mut walk = read("walk.nad");
    walk[16 + 4..16 + 8].copy_from_slice(&9u32.to_le_bytes());
    let err = relic_nod::read_animation(&skeleton(), &walk, "walk", &Default::default()).unwrap_err();
    expect_error(err, 20, "tracks[0].bone", "bone 9 is out of range (the model has 4 bones)");
}

#[test]
fn hostile_counts_are_refused_before_allocating() {
    let limits = Limits { per_input_byte: 16, fixed: 64 << 10, ..Limits::default() };
    let base = read("triangle.nod");
    // NumVertices (at 8 + 32 + 4) and NumFaces (+8) set to huge values: the size rule refuses them.
    for (at, value) in [(44usize, u32::MAX), (48, u32::MAX), (4, u32::MAX)] {
        let mut bytes = base.clone();
        bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
        check("count", &bytes, limits, relic_nod::read_model).unwrap();
        assert!(relic_nod::read_model(&bytes).is_err());
    }
    let mut nad = read("walk.nad");
    nad[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
    check("tracks", &nad, limits, parse_nad).unwrap();
    assert!(matches!(parse_nad(&nad).unwrap_err().kind, ReadErrorKind::CountTooLarge { .. }));
}

/// The readers a hostile file meets: both parsers, `info`, the model and animation mappings, and
/// the whole corpus battery (which also writes).
fn run_all(name: &str, input: &[u8], model: &Model, corpus: bool) -> Result<(), String> {
    let limits = Limits::default();
    check(name, input, limits, relic_nod::read_model)?;
    check(name, input, limits, relic_nod::info)?;
    check(name, input, limits, parse_nad)?;
    check(name, input, limits, |b| relic_nod::read_animation(model, b, "x", &Default::default()))?;
    if corpus {
        // The battery also writes: its NAD round trip of a clip sampled up to the budget (32 768
        // + 32 per key frames, see `validate::check_for_model`) builds a NAD of up to ~2 MB, ~7 MB
        // at peak whatever the input's size. The readers above keep the 16 × + 1 MiB bar.
        let limits = Limits { fixed: 8 << 20, ..limits };
        check(name, input, limits, |b| -> Result<(), ()> {
            std::hint::black_box(relic_nod::verify::corpus_checks(b));
            Ok(())
        })?;
    }
    Ok(())
}

#[test]
fn every_truncation_is_refused_cleanly() {
    assert!(counting_installed());
    let model = skeleton();
    let mut failures = Vec::new();
    for (name, bytes) in all_fixtures() {
        for cut in truncations(&bytes, 1) {
            if let Err(e) = run_all(&format!("{name} cut at {}", cut.len()), cut, &model, false) {
                failures.push(e);
            }
            // A truncated file is never read as a whole one (a hostile file minus its extra byte is).
            if !name.starts_with("hostile") && (relic_nod::read_model(cut).is_ok() || parse_nad(cut).is_ok()) {
                failures.push(format!("{name} cut at {} was accepted", cut.len()));
            }
        }
    }
    assert!(failures.is_empty(), "{} failures, first: {:?}", failures.len(), &failures[..failures.len().min(5)]);
}

/// The fixture that makes the sampler produce ~32 000 frames: mutating it byte by byte would
/// re-sample them thousands of times (half a minute in debug) to test the same bound, which
/// `sampling_a_long_rotation_gap_stays_within_the_allocation_budget` and its truncations check.
fn samples_the_budget(name: &str) -> bool {
    name.ends_with("long_rotation_gap.nad")
}

#[test]
fn every_single_byte_mutation_is_survived() {
    let model = skeleton();
    let mut failures = Vec::new();
    let mut checked = 0usize;
    for (name, bytes) in all_fixtures().into_iter().filter(|(n, _)| !samples_the_budget(n)) {
        // The 12 KB skeleton: every byte of the header and the 64 bones, then every 37th byte,
        // through `read_model` alone (which parses, decides and maps); the small files: every
        // byte, four values, through every reader (and every seventh byte through the battery).
        let large = bytes.len() > 4096;
        for at in (0..bytes.len()).filter(|&at| !large || at < 8 + 32 + 42 + 64 * 66 || at % 37 == 0) {
            let old = bytes[at];
            let values: &[u8] = if large { &[0xFF, 0x01] } else { &[0x00, 0xFF, 0x01, 0x80] };
            for &flip in values {
                let new = if flip == 0x00 || flip == 0xFF { flip } else { old ^ flip };
                if new == old {
                    continue;
                }
                let mut m = bytes.clone();
                m[at] = new;
                let what = format!("{name} byte {at} = {new:#04x}");
                let result = if large {
                    check(&what, &m, Limits::default(), relic_nod::read_model)
                } else {
                    run_all(&what, &m, &model, at % 7 == 0)
                };
                if let Err(e) = result {
                    failures.push(e);
                }
                checked += 1;
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} failed, first: {:?}",
        failures.len(),
        &failures[..failures.len().min(5)]
    );
}

#[test]
fn random_mutations_are_survived() {
    let model = skeleton();
    let mut rng = Rng::new(0x005E_ED0D);
    let mut failures = Vec::new();
    for (name, bytes) in all_fixtures().into_iter().filter(|(n, _)| !samples_the_budget(n)) {
        for round in 0..if bytes.len() > 4096 { 30 } else { 150 } {
            let m = mutate(&bytes, &mut rng, 1 + round % 6);
            if let Err(e) = run_all(&format!("{name} round {round}"), &m, &model, true) {
                failures.push(e);
            }
        }
    }
    assert!(failures.is_empty(), "{} failures, first: {:?}", failures.len(), &failures[..failures.len().min(5)]);
}

#[test]
fn hostile_frames_cannot_make_the_sampler_run_away() {
    // Two keys a billion frames apart on a moving rotation track: refused by the sample budget.
    let mut walk = read("walk.nad");
    let last_frame = 16 + 12 + 4 * 56; // the first track's fifth and last key
    walk[last_frame..last_frame + 4].copy_from_slice(&1.0e9f32.to_le_bytes());
    let limits = Limits::default();
    check("far key", &walk, limits, |b| relic_nod::read_animation(&skeleton(), b, "x", &Default::default())).unwrap();
    let err = relic_nod::read_animation(&skeleton(), &walk, "x", &Default::default()).unwrap_err();
    assert!(err.to_string().contains("sampling the rotations at 30 frames per second needs more than"), "{err}");
    // A constant track may span any time: it needs no samples in between.
    let mut constant = read("single_keys.nad");
    assert!(relic_nod::read_animation(&skeleton(), &constant, "x", &Default::default()).is_ok());
    constant[12..16].copy_from_slice(&1.0e9f32.to_le_bytes()); // duration
    check("long clip", &constant, limits, |b| relic_nod::read_animation(&skeleton(), b, "x", &Default::default()))
        .unwrap();
}

// ---- the shared battery: fields located by the layout ----------------------------------------

mod fields {
    use relic_nod::file::{BONE_SIZE, GROUP_SIZE, VERTEX_SIZE};
    use relic_nod::{read as parse_nod, read_nad as parse_nad};
    use relic_testkit::{COUNT_VALUES, Field, Harness, Rng};

    use super::{Model, all_fixtures, read, skeleton};

    /// Every reader a hostile NOD or NAD meets: both parsers, `info`, `detect`, the model mapping
    /// and the animation mapping onto the 4-bone fixture skeleton.
    fn harness<'a>(model: &'a relic_core::Model) -> Harness<'a> {
        Harness::new()
            .reader("parse_nod", parse_nod)
            .reader("parse_nad", parse_nad)
            .reader("info", relic_nod::info)
            .reader("read_model", relic_nod::read_model)
            .reader("read_animation", move |b: &[u8]| relic_nod::read_animation(model, b, "x", &Default::default()))
            .reader("detect", |b: &[u8]| relic_nod::detect(b).ok_or(()))
    }

    #[derive(Default, Debug)]
    struct NodFields {
        counts: Vec<Field>,
        parents: Vec<Field>,
        floats: Vec<Field>,
    }

    /// NOD v7 (spec §2): `u32 version, u32 NumMaterials`, the names, a packed block of
    /// `u16 NumBones, u16 NumMeshes, u32 NumVertices, u32 NumFaces, u16 NumGroups, u32 ModelFlags,
    /// f32 bounds[6]`, then bones (66 B: translate, 12-float inverse matrix, sibling, child,
    /// parent), mesh names, vertices (40 B), LOD table, faces, groups (28 B: u16 NumFaces at 16,
    /// NumVertices at 18, MinVertices at 20).
    fn nod_fields(bytes: &[u8]) -> NodFields {
        let file = parse_nod(bytes).unwrap();
        let layout = file.layout();
        let (c, mut f) = (layout.counts as usize, NodFields::default());
        f.counts.push(Field::u32("num_materials", 4));
        f.counts.push(Field::u16("num_bones", c));
        f.counts.push(Field::u16("num_meshes", c + 2));
        f.counts.push(Field::u32("num_vertices", c + 4));
        f.counts.push(Field::u32("num_faces", c + 8));
        f.counts.push(Field::u16("num_groups", c + 12));
        f.floats.push(Field::f32("bounds.min.x", c + 18));
        for b in 0..file.bones.len() {
            let base = layout.bones as usize + b * BONE_SIZE as usize;
            f.parents.push(Field::u16(format!("bones[{b}].parent"), base + 64));
            if b + 1 == file.bones.len() {
                f.floats.push(Field::f32(format!("bones[{b}].rest_translate.x"), base));
                f.floats.push(Field::f32(format!("bones[{b}].rest_matrix_inverse[0]"), base + 12));
                f.floats.push(Field::f32(format!("bones[{b}].rest_matrix_inverse[11]"), base + 12 + 44));
            }
        }
        for v in [0, file.vertices.len().saturating_sub(1)].into_iter().filter(|_| !file.vertices.is_empty()) {
            let base = layout.vertices as usize + v * VERTEX_SIZE as usize;
            f.floats.push(Field::f32(format!("vertices[{v}].pos.y"), base + 4));
            f.floats.push(Field::f32(format!("vertices[{v}].norm.x"), base + 12));
            f.floats.push(Field::f32(format!("vertices[{v}].uv.u"), base + 24));
            f.floats.push(Field::f32(format!("vertices[{v}].weight"), base + 32));
        }
        for g in 0..file.groups.len() {
            let base = layout.groups as usize + g * GROUP_SIZE as usize;
            f.counts.push(Field::u16(format!("groups[{g}].num_faces"), base + 16));
            f.counts.push(Field::u16(format!("groups[{g}].num_vertices"), base + 18));
            f.counts.push(Field::u16(format!("groups[{g}].min_vertices"), base + 20));
        }
        f
    }

    /// NAD v3 (spec §3): `u32 version, u32 NumTracks, u32 flags, f32 duration`, then per track
    /// `u32 NumKeys, u32 bone, u32 type` and 56-byte keys (frame, frame scale, value, c, b, a),
    /// then `u32 NumTags` and 8-byte tags.
    fn nad_fields(bytes: &[u8]) -> NodFields {
        let nad = parse_nad(bytes).unwrap();
        let mut f = NodFields::default();
        f.counts.push(Field::u32("num_tracks", 4));
        f.floats.push(Field::f32("duration", 12));
        for t in 0..nad.tracks.len() {
            let at = nad.track_offset(t) as usize;
            f.counts.push(Field::u32(format!("tracks[{t}].num_keys"), at));
            f.counts.push(Field::u32(format!("tracks[{t}].bone"), at + 4));
            if !nad.tracks[t].keys.is_empty() {
                let key = nad.key_offset(t, 0) as usize;
                f.floats.push(Field::f32(format!("tracks[{t}].keys[0].frame"), key));
                f.floats.push(Field::f32(format!("tracks[{t}].keys[0].frame_scale"), key + 4));
                f.floats.push(Field::f32(format!("tracks[{t}].keys[0].value.y"), key + 12));
                f.floats.push(Field::f32(format!("tracks[{t}].keys[0].a.z"), key + 52));
            }
        }
        let tags = nad.tag_offset(0) as usize - 4;
        f.counts.push(Field::u32("num_tags", tags));
        if !nad.tags.is_empty() {
            f.floats.push(Field::f32("tags[0].frame", tags + 4));
        }
        f
    }

    fn fields_of(name: &str, bytes: &[u8]) -> NodFields {
        if name.ends_with(".nad") { nad_fields(bytes) } else { nod_fields(bytes) }
    }

    fn well_formed() -> Vec<(String, Vec<u8>)> {
        all_fixtures().into_iter().filter(|(n, _)| !n.starts_with("hostile")).collect()
    }

    #[test]
    fn field_tables_match_the_parser() {
        let bytes = read("skinned_lod.nod");
        let file = parse_nod(&bytes).unwrap();
        let f = nod_fields(&bytes);
        let get = |l: &str| f.counts.iter().find(|x| x.label == l).unwrap().read(&bytes).unwrap() as usize;
        assert_eq!(get("num_bones"), file.bones.len());
        assert_eq!(get("num_faces"), file.faces.len());
        assert_eq!(get("groups[1].num_vertices"), usize::from(file.groups[1].num_vertices));
        let parent = f.parents[3].read(&bytes).unwrap() as u16 as i16;
        assert_eq!(parent, file.bones[3].parent);
        let float = |l: &str| f32::from_bits(f.floats.iter().find(|x| x.label == l).unwrap().read(&bytes).unwrap());
        let last = file.vertices.len() - 1;
        assert_eq!(float(&format!("vertices[{last}].weight")), file.vertices[last].weight);

        let bytes = read("walk.nad");
        let nad = parse_nad(&bytes).unwrap();
        let f = nad_fields(&bytes);
        let get = |l: &str| f.counts.iter().find(|x| x.label == l).unwrap().read(&bytes).unwrap() as usize;
        assert_eq!(get("num_tracks"), nad.tracks.len());
        assert_eq!(get("tracks[2].num_keys"), nad.tracks[2].keys.len());
        assert_eq!(get("num_tags"), nad.tags.len());
        let float = |l: &str| f32::from_bits(f.floats.iter().find(|x| x.label == l).unwrap().read(&bytes).unwrap());
        assert_eq!(float("tracks[1].keys[0].value.y"), nad.tracks[1].keys[0].value[1]);
    }

    /// Counts set to 0, 1, 2^16, 2^31, 2^32 − 1 (u16 counts take the low half); NaN and ±∞ in
    /// bounds, rest translations and matrices, positions, normals, UVs, weights, key frames and
    /// values, durations and tag frames; bone parents set to cycles, self-loops, −1 (a second
    /// root) and out of range. (NOD and NAD have no offsets: every section follows the last.)
    #[test]
    fn hostile_fields_are_survived() {
        let model = skeleton();
        let mut h = harness(&model);
        for (name, bytes) in well_formed() {
            let f = fields_of(&name, &bytes);
            h.fields(&name, &bytes, &f.counts, &COUNT_VALUES);
            h.floats(&name, &bytes, &f.floats);
            if !f.parents.is_empty() {
                let last = f.parents.len() as u32 - 1;
                h.fields(&name, &bytes, &f.parents, &[0, last, last + 1, 0xFFFF, 0x7FFF]);
                for (b, field) in f.parents.iter().enumerate() {
                    h.input(&format!("{name} bones[{b}] its own parent"), &field.with(&bytes, b as u32));
                }
            }
            if f.parents.len() >= 3 {
                let cycle = f.parents[1].with(&f.parents[2].with(&bytes, 1), 2);
                h.input(&format!("{name} bones 1 and 2 each other's parent"), &cycle);
                let err = relic_nod::read_model(&cycle).unwrap_err();
                assert!(err.to_string().contains("cycle") || err.path.contains("parent"), "{name}: {err}");
            }
        }
        println!("{} inputs", h.inputs());
        h.finish();
    }

    #[test]
    fn ten_thousand_random_mutations() {
        let model = skeleton();
        let mut h = harness(&model);
        let files: Vec<_> = all_fixtures().into_iter().filter(|(_, b)| b.len() < 4096).collect();
        let mut rng = Rng::new(0x0A0D_0010);
        h.mutations_over(&files, &mut rng, 10_000);
        h.finish();
    }

    /// NaN and ±∞ read from a NOD or NAD stay out of every written file.
    #[test]
    fn non_finite_floats_never_reach_a_written_file() {
        let model = skeleton();
        let read = |name: &str, input: &[u8]| {
            if name.ends_with(".nad") {
                let animation = relic_nod::read_animation(&model, input, "x", &Default::default()).ok()?;
                Some(Model { animations: vec![animation], ..model.clone() })
            } else {
                relic_nod::read_model(input).ok()
            }
        };
        let nod = |m: &Model| Some(relic_nod::write_model(m, &Default::default()).map(|_| ()));
        let nad = |m: &Model| {
            (!m.animations.is_empty()).then(|| relic_nod::write_animation(m, 0, &Default::default()).map(|_| ()))
        };
        let refused = relic_testkit::bad_floats_are_refused(
            &well_formed(),
            |name, bytes| fields_of(name, bytes).floats,
            read,
            &[("nod", &nod), ("nad", &nad)],
        );
        println!("{refused} refusals");
        // 180 when written: a drifted field table or a reader that starts refusing NaN shows here.
        assert!(refused >= 120, "{refused}");
    }
}

/// Regression (nod fuzz target): keys a subnormal number of frames apart read fine, but the frame
/// scale a writer computes from them (1 / gap) overflows to +∞, which the reader refuses before the
/// last key. `write_animation` must write a NAD that reads back (it drops the key it cannot
/// separate) or refuse with a typed error; never write what its reader refuses.
#[test]
fn keys_closer_than_a_frame_scale_can_express_are_refused_by_the_writer() {
    let bytes = read("hostile/subnormal_key_gap.nad");
    let mut model = skeleton();
    let animation = relic_nod::read_animation(&model, &bytes, "gap", &Default::default()).unwrap();
    model.animations.push(animation);
    model.validate().unwrap();
    match relic_nod::write_animation(&model, 0, &Default::default()) {
        Ok(out) => {
            let back = relic_nod::read_animation(&model, &out.value, "gap", &Default::default());
            assert!(back.is_ok(), "the writer wrote a NAD its reader refuses: {}", back.unwrap_err());
        }
        Err(e) => {
            assert!(matches!(e, relic_core::WriteError::Unsupported(_)), "{e:?}");
            assert!(e.to_string().contains("frame_scale"), "{e}");
        }
    }
}

/// Regression (found by the NAD benchmark after 627dfbe): a clip read from a NAD holds rotation
/// keys at 30 fps sample times that are not whole frames in f32 (2.9999998); the writer added the
/// whole frame beside each (3.0), keys closer than the reader can order in seconds, so it refused
/// the clip. NAD → model → NAD → model → NAD must keep working, generation after generation.
#[test]
fn a_clip_read_from_a_nad_writes_back_generation_after_generation() {
    use relic_nod::file::{NadFile, NadKey, NadTrack};
    let skeleton = skeleton();
    // The benchmark's clip: whole-frame keys 0‥899 on a rotation and a translation track per bone.
    let mut tracks = Vec::new();
    for bone in 0..4u32 {
        for track_type in [0u32, 1] {
            let keys = (0..900)
                .map(|k| {
                    let v = (k as f32 * 0.05 + bone as f32).sin() * 20.0;
                    let frame_scale = if k == 899 { f32::INFINITY } else { 1.0 };
                    NadKey {
                        frame: k as f32,
                        frame_scale,
                        value: [v, v * 0.5, -v],
                        c: [1.0, 0.5, -1.0],
                        b: [0.0; 3],
                        a: [0.0; 3],
                    }
                })
                .collect();
            tracks.push(NadTrack { bone, track_type, keys });
        }
    }
    let clip = relic_nod::write_nad(&NadFile { version: 3, flags: 0, duration: 900.0, tracks, tags: vec![] }).unwrap();
    for (name, mut bytes) in [("walk.nad", read("walk.nad")), ("900 keys", clip)] {
        bytes = write_back(&skeleton, &bytes, name, 3);
        assert!(!bytes.is_empty());
    }
}

fn write_back(skeleton: &relic_core::Model, first: &[u8], name: &str, generations: usize) -> Vec<u8> {
    let mut bytes = first.to_vec();
    for generation in 0..generations {
        let animation = relic_nod::read_animation(skeleton, &bytes, "walk", &Default::default())
            .unwrap_or_else(|e| panic!("{name} generation {generation}: {e}"));
        let mut model = skeleton.clone();
        model.extras = None;
        model.animations = vec![animation];
        bytes = relic_nod::write_animation(&model, 0, &Default::default())
            .unwrap_or_else(|e| panic!("{name} generation {generation}: {e}"))
            .value;
    }
    bytes
}

/// Regression (nod fuzz target, a mutated walk.nad of 1524 bytes peaking at 1.1 MB): a moving
/// rotation track sampled at every frame up to the sampling budget must stay within 16 × the
/// input + 1 MiB (the sampler collected every frame number in a growing list first).
#[test]
fn sampling_a_long_rotation_gap_stays_within_the_allocation_budget() {
    let bytes = read("hostile/long_rotation_gap.nad");
    let model = skeleton();
    let read = |b: &[u8]| relic_nod::read_animation(&model, b, "gap", &Default::default());
    let animation = read(&bytes).unwrap();
    assert!(animation.channels[0].times.len() > 30_000, "{}", animation.channels[0].times.len());
    check("long_rotation_gap.nad", &bytes, Limits::default(), read).unwrap();
}

/// Regression (nod fuzz target, 19 s for a 200-byte NAD): a held rotation track spanning 49.5
/// million frames reads without sampling, and writing it back must not sample it either (the
/// writer sampled its own Euler keys at every frame of the span to measure the round trip): its
/// keys and peak bytes are counted; a moving rotation over such a span cannot be written within
/// the sampling budget and is refused, with the count of keys it would need.
#[test]
fn writing_rotations_over_huge_spans_is_bounded() {
    let bytes = read("hostile/held_rotation_span.nad");
    let mut model = skeleton();
    model.extras = None;
    let animation = relic_nod::read_animation(&model, &bytes, "held", &Default::default()).unwrap();
    model.animations = vec![animation];
    let (out, peak) =
        relic_testkit::peak_allocation(|| relic_nod::write_animation(&model, 0, &Default::default()).unwrap());
    relic_nod::read_animation(&model, &out.value, "held", &Default::default()).unwrap();
    // Counted, not timed: the held span is written as its keys alone, and the writer holds no
    // sample per frame of the span (49.5 million frames would be hundreds of MB).
    let written = parse_nad(&out.value).unwrap();
    let keys: Vec<usize> = written.tracks.iter().map(|t| t.keys.len()).collect();
    assert_eq!((keys, out.value.len()), (vec![3], bytes.len()), "keys written, bytes written");
    assert!(peak <= 4096, "{peak} bytes at peak writing a {} byte NAD", out.value.len());
    // The same span, moving: refused with a typed error that counts the keys it would need.
    let channel = &mut model.animations[0].channels[0];
    channel.interpolation = relic_core::model::Interpolation::Linear;
    let (err, peak) =
        relic_testkit::peak_allocation(|| relic_nod::write_animation(&model, 0, &Default::default()).unwrap_err());
    assert!(
        matches!(err, relic_core::WriteError::Unsupported(_))
            && err.to_string().contains("need 49545224 Euler keys at 30 frames per second")
            && err.to_string().contains("more than a NAD may hold (32864)"),
        "{err}"
    );
    // Refused from the count alone, before any key is sampled.
    assert!(peak <= 4096, "{peak} bytes at peak refusing the moving span");
}

/// A NAD of tens of thousands of one-key tracks is checked in time linear in its size: the key
/// offsets an error would name were once summed over every earlier track for every key.
#[test]
fn many_tracks_are_checked_in_linear_time() {
    use relic_nod::file::{NadFile, NadKey, NadTrack};
    let key = NadKey { frame: 0.0, frame_scale: f32::INFINITY, value: [0.0; 3], c: [0.0; 3], b: [0.0; 3], a: [0.0; 3] };
    let tracks = (0..60_000).map(|i| NadTrack { bone: i % 2, track_type: 1, keys: vec![key] }).collect();
    let bytes = relic_nod::write_nad(&NadFile { version: 3, flags: 0, duration: 1.0, tracks, tags: vec![] }).unwrap();
    let model = skeleton();
    let limits = Limits::default();
    let read = |b: &[u8]| relic_nod::read_animation(&model, b, "many", &relic_nod::options::NadOptions::default());
    assert_eq!(check("60 000 one-key tracks", &bytes, limits, read), Ok(()));
    // The whole file was checked and mapped, not refused early.
    let before = NadFile::tracks_summed();
    assert_eq!(read(&bytes).unwrap().channels.len(), 60_000);
    // Linear, counted: no key offset was summed over the earlier tracks (summing one per key, as
    // the check once did, is 60 000 × 59 999 / 2 tracks).
    assert_eq!(NadFile::tracks_summed() - before, 0, "earlier tracks summed for offsets");
}
