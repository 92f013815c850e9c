//! Damaged input: every truncation, every single-byte change, huge counts and random mutations
//! must end in an error or a model, never a panic, a hang, or an allocation out of proportion
//! (`relic_testkit::check`: ≤ 16 × input + 1 MiB, ≤ 1 s per input).

// Test helpers may fail loudly: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use relic_testkit::{
    CountingAllocator, INTERESTING_U32, Limits, Rng, check, counting_installed, mutate, truncations, write_at,
};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// Parses and maps to the model (`read_model` does both): within the limits.
fn survive(what: &str, bytes: &[u8]) -> Result<(), String> {
    check(what, bytes, Limits::default(), relic_abc::read_model)
}

fn small_files() -> Vec<(String, Vec<u8>)> {
    let mut files = common::fixtures();
    files.extend(common::hostile_fixtures());
    if let Some(spider) = common::corpus_file("SPIDER.ABC") {
        files.push(("SPIDER.ABC".into(), spider));
    }
    files
}

#[test]
fn the_allocator_is_counting() {
    assert!(counting_installed());
}

/// Every prefix of every fixture and of SPIDER.ABC is an error (exhaustively), and so is a sample
/// of the prefixes of the larger real files.
#[test]
fn every_truncation_is_an_error() {
    let mut files = small_files().into_iter().map(|(n, b)| (n, b, 1)).collect::<Vec<_>>();
    for (name, bytes) in common::corpus().unwrap_or_default() {
        if bytes.len() > 10_000 {
            let step = bytes.len() / 300;
            files.push((name, bytes, step));
        }
    }
    let mut cuts = 0;
    for (name, bytes, step) in &files {
        for cut in truncations(bytes, *step) {
            let what = format!("{name} cut at {}", cut.len());
            survive(&what, cut).unwrap();
            check(&what, cut, Limits::default(), relic_abc::info).unwrap();
            assert!(relic_abc::read(cut).is_err(), "{what} parsed");
            cuts += 1;
        }
    }
    println!("{cuts} truncations of {} files", files.len());
}

/// Every byte of every fixture and of SPIDER.ABC set to 0x00, 0xFF and its complement (the hostile
/// fixtures are single changes of `v12_full.abc` already), through the model mapping.
#[test]
fn every_single_byte_change_is_survived() {
    let mut h = Harness::new().reader("read_model", relic_abc::read_model);
    for (name, bytes) in small_files().into_iter().filter(|(n, _)| !common::is_hostile(n)) {
        h.byte_changes(&name, &bytes);
    }
    println!("{} single-byte changes", h.inputs());
    h.finish();
}

/// Huge and odd values written over every (unaligned) position: counts past the end of the file
/// are refused before anything proportional to them is allocated.
#[test]
fn huge_counts_are_refused_without_allocating() {
    let mut writes = 0;
    for (name, bytes) in common::fixtures() {
        let mut copy = bytes.clone();
        for at in 0..bytes.len().saturating_sub(3) {
            for value in INTERESTING_U32.into_iter().filter(|v| *v > 2) {
                write_at(&mut copy, at, &value.to_le_bytes());
                survive(&format!("{name} u32 {value:#x} at {at}"), &copy).unwrap();
                writes += 1;
            }
            copy[at..at + 4].copy_from_slice(&bytes[at..at + 4]);
        }
    }
    println!("{writes} u32 writes");
}

/// Random multi-byte mutations (fixed seeds) of the larger real files (the fixtures get 10,000 in
/// `ten_thousand_random_mutations`).
#[test]
fn random_mutations_of_the_real_files_are_survived() {
    let Some(files) = common::corpus() else { return };
    let mut h = Harness::new().reader("read_model", relic_abc::read_model);
    for (name, bytes) in files {
        let mut rng = Rng::new(bytes.len() as u64);
        h.mutations(&name, &bytes, &mut rng, if bytes.len() > 100_000 { 30 } else { 300 });
    }
    h.finish();
}

/// A mutated file that still parses re-writes to bytes that parse the same (the writer never
/// produces something its reader disagrees with).
#[test]
fn whatever_parses_rewrites_consistently() {
    let mut rewritten = 0;
    for (name, bytes) in small_files() {
        let mut rng = Rng::new(7 + bytes.len() as u64);
        for round in 0..200 {
            let mutated = mutate(&bytes, &mut rng, 1 + round % 3);
            let Ok(file) = relic_abc::read(&mutated) else { continue };
            let out = relic_abc::write(&file).unwrap_or_else(|e| panic!("{name} mutation {round}: {e}"));
            let back = relic_abc::read(&out).unwrap_or_else(|e| panic!("{name} mutation {round}: {e}"));
            // NaN floats compare unequal; compare the bytes of a second rewrite instead.
            assert_eq!(relic_abc::write(&back).unwrap(), out, "{name} mutation {round}");
            rewritten += 1;
        }
    }
    assert!(rewritten > 100, "{rewritten}");
}

// ---- fields located by format knowledge ------------------------------------------------------

use relic_testkit::{COUNT_VALUES, Field, Harness, offset_values};

/// The shared battery's readers for ABC: the file layer, `info` and the model mapping.
fn harness<'a>() -> Harness<'a> {
    Harness::new()
        .reader("read", relic_abc::read)
        .reader("info", relic_abc::info)
        .reader("read_model", relic_abc::read_model)
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

fn u16_at(b: &[u8], at: usize) -> usize {
    usize::from(u16::from_le_bytes(b[at..at + 2].try_into().unwrap()))
}

/// The fields of an ABC file, found by walking its sections the way the format lays them out
/// (spec §4; `v12.rs`, `v6.rs`): counts, section next-offsets and the floats that matter.
#[derive(Default, Debug)]
struct AbcFields {
    counts: Vec<Field>,
    offsets: Vec<Field>,
    floats: Vec<Field>,
}

/// Walks the section chain: `(name, offset of the next-offset field, body offset)`.
fn sections(b: &[u8]) -> Vec<(String, usize, usize)> {
    let mut out = Vec::new();
    let mut at = 0usize;
    loop {
        let len = u16_at(b, at);
        let name = String::from_utf8_lossy(&b[at + 2..at + 2 + len]).into_owned();
        let next_field = at + 2 + len;
        out.push((name, next_field, next_field + 4));
        let next = i32::from_le_bytes(b[next_field..next_field + 4].try_into().unwrap());
        if next < 0 {
            return out;
        }
        at = next as usize;
    }
}

/// Skips a length-prefixed string.
fn skip_string(b: &[u8], at: usize) -> usize {
    at + 2 + u16_at(b, at)
}

fn v12_fields(b: &[u8]) -> AbcFields {
    let mut f = AbcFields::default();
    let mut version = 0;
    let (mut nodes, mut lods, mut keys) = (0usize, 0usize, Vec::new());
    for (name, next_field, body) in sections(b) {
        f.offsets.push(Field::u32(format!("{name}.next"), next_field));
        match name.as_str() {
            "Header" => {
                version = u32_at(b, body);
                let names = [
                    "keyframe_count",
                    "animation_count",
                    "node_count",
                    "piece_count",
                    "child_model_count",
                    "face_count",
                    "vertex_count",
                    "weight_count",
                    "lod_count",
                    "socket_count",
                    "weight_set_count",
                ];
                for (i, n) in names.iter().enumerate() {
                    f.counts.push(Field::u32(format!("Header.{n}"), body + 4 + 4 * i));
                }
                nodes = u32_at(b, body + 12) as usize;
                lods = u32_at(b, body + 36) as usize;
                let mut at = body + 48 + if version >= 13 { 4 } else { 0 };
                f.counts.push(Field::u32("Header.string_count", at));
                at = skip_string(b, at + 8);
                f.floats.push(Field::f32("Header.internal_radius", at));
                f.counts.push(Field::u32("Header.lod_distance_count", at + 4));
                if u32_at(b, at + 4) > 0 {
                    f.floats.push(Field::f32("Header.lod_distances[0]", at + 8 + 60));
                }
            }
            "Pieces" => {
                f.counts.push(Field::u32("Pieces.weight_count", body));
                f.counts.push(Field::u32("Pieces.piece_count", body + 4));
                let mut at = body + 8;
                for p in 0..u32_at(b, body + 4) as usize {
                    f.floats.push(Field::f32(format!("pieces[{p}].specular_power"), at + 2));
                    at = skip_string(b, at + 2 + 8 + if version >= 10 { 4 } else { 0 } + 2);
                    for l in 0..lods {
                        let faces = u32_at(b, at) as usize;
                        f.counts.push(Field::u32(format!("pieces[{p}].lods[{l}].face_count"), at));
                        if faces > 0 {
                            f.floats.push(Field::f32(format!("pieces[{p}].lods[{l}].faces[0].uv"), at + 4));
                        }
                        at += 4 + 30 * faces;
                        f.counts.push(Field::u32(format!("pieces[{p}].lods[{l}].vertex_count"), at));
                        let vertices = u32_at(b, at) as usize;
                        at += 4;
                        for v in 0..vertices {
                            let weights = u16_at(b, at);
                            if v == 0 {
                                f.counts
                                    .push(Field::u16(format!("pieces[{p}].lods[{l}].vertices[0].weight_count"), at));
                                if weights > 0 {
                                    f.floats
                                        .push(Field::f32(format!("pieces[{p}].lods[{l}].weights[0].offset"), at + 8));
                                    f.floats
                                        .push(Field::f32(format!("pieces[{p}].lods[{l}].weights[0].bias"), at + 20));
                                }
                            }
                            at += 4 + 20 * weights;
                            if v == 0 {
                                f.floats
                                    .push(Field::f32(format!("pieces[{p}].lods[{l}].vertices[0].position.y"), at + 4));
                                f.floats
                                    .push(Field::f32(format!("pieces[{p}].lods[{l}].vertices[0].normal.z"), at + 20));
                            }
                            at += 24;
                        }
                    }
                }
            }
            "Nodes" => {
                let mut at = body;
                for n in 0..nodes {
                    let matrix = skip_string(b, at) + 3;
                    f.floats.push(Field::f32(format!("nodes[{n}].matrix[3]"), matrix + 12));
                    f.floats.push(Field::f32(format!("nodes[{n}].matrix[0]"), matrix));
                    f.counts.push(Field::u32(format!("nodes[{n}].child_count"), matrix + 64));
                    at = matrix + 68;
                }
                f.counts.push(Field::u32("Nodes.weight_set_count", at));
                if u32_at(b, at) > 0 {
                    let count = skip_string(b, at + 4);
                    f.counts.push(Field::u32("weight_sets[0].node_count", count));
                    f.floats.push(Field::f32("weight_sets[0].weights[0]", count + 4));
                }
            }
            "ChildModels" => f.counts.push(Field::u32("ChildModels.count", body)),
            "Animation" => {
                f.counts.push(Field::u32("Animation.count", body));
                let mut at = body + 4;
                for a in 0..u32_at(b, body) as usize {
                    f.floats.push(Field::f32(format!("animations[{a}].dims"), at));
                    // The marker: −1, then InterpolationTime (v ≥ 12) and KeyframeCount; or the
                    // keyframe count itself.
                    let marker = skip_string(b, at + 12);
                    at = match u32_at(b, marker) {
                        u32::MAX => marker + 4 + if version >= 12 { 4 } else { 0 },
                        _ => marker,
                    };
                    f.counts.push(Field::u32(format!("animations[{a}].keyframe_count"), at));
                    let k = u32_at(b, at) as usize;
                    keys.push(k);
                    at += 4;
                    for _ in 0..k {
                        at = skip_string(b, at + 4);
                    }
                    // Transforms: node after node, key after key (v13: a node prefix, 36-byte keys).
                    let (prefix, key) = if version >= 13 { (4, 36) } else { (0, 28) };
                    for n in 0..nodes {
                        if k > 0 && n == nodes - 1 {
                            f.floats.push(Field::f32(
                                format!("animations[{a}].nodes[{n}].keys[0].translation"),
                                at + prefix,
                            ));
                            f.floats.push(Field::f32(
                                format!("animations[{a}].nodes[{n}].keys[0].rotation.w"),
                                at + prefix + 24,
                            ));
                        }
                        at += prefix + key * k;
                    }
                }
            }
            "Sockets" => {
                f.counts.push(Field::u32("Sockets.count", body));
                if u32_at(b, body) > 0 {
                    f.counts.push(Field::u32("sockets[0].node_index", body + 4));
                    let rotation = skip_string(b, body + 8);
                    f.floats.push(Field::f32("sockets[0].rotation.x", rotation));
                    f.floats.push(Field::f32("sockets[0].position.z", rotation + 24));
                }
            }
            "AnimBindings" => f.counts.push(Field::u32("AnimBindings.groups[0].count", body)),
            _ => {}
        }
    }
    f
}

fn v6_fields(b: &[u8]) -> AbcFields {
    let mut f = AbcFields::default();
    let mut vertices = 0usize;
    for (name, next_field, body) in sections(b) {
        f.offsets.push(Field::u32(format!("{name}.next"), next_field));
        match name.as_str() {
            "Geometry" => {
                f.floats.push(Field::f32("Geometry.bounds_min.x", body));
                f.counts.push(Field::u32("Geometry.num_lods", body + 24));
                let lods = u32_at(b, body + 24) as usize;
                let tris = body + 28 + 2 * (lods + 1);
                f.counts.push(Field::u32("Geometry.num_tris", tris));
                let verts = tris + 4 + 33 * u32_at(b, tris) as usize;
                f.counts.push(Field::u32("Geometry.num_verts", verts));
                f.counts.push(Field::u32("Geometry.normal_verts", verts + 4));
                vertices = u32_at(b, verts) as usize;
                if vertices > 0 {
                    f.floats.push(Field::f32("Geometry.vertices[0].position.x", verts + 8));
                    f.floats
                        .push(Field::f32("Geometry.vertices[last].position.y", verts + 8 + 20 * (vertices - 1) + 4));
                }
            }
            "Nodes" => {
                // The root node: bounds, name, u16 index, u8 flags, u32 NumMDVerts, the MD vertices,
                // u32 NumChildren.
                let md = skip_string(b, body + 24) + 3;
                f.floats.push(Field::f32("nodes[0].bounds_max.y", body + 16));
                f.counts.push(Field::u32("nodes[0].num_md_verts", md));
                f.counts.push(Field::u32("nodes[0].num_children", md + 4 + 2 * u32_at(b, md) as usize));
            }
            "Animation" => {
                f.counts.push(Field::u32("Animation.count", body));
                if u32_at(b, body) > 0 {
                    let length = skip_string(b, body + 4);
                    f.floats.push(Field::f32("animations[0].bounds_min.x", length + 4));
                    f.counts.push(Field::u32("animations[0].num_keyframes", length + 28));
                    let keys = u32_at(b, length + 28) as usize;
                    let mut at = length + 32;
                    for k in 0..keys {
                        if k == 0 {
                            f.floats.push(Field::f32("animations[0].keyframes[0].bounds_max.z", at + 4 + 20));
                        }
                        at = skip_string(b, at + 28);
                    }
                    // The root node's keys (28 bytes each) come first.
                    if keys > 0 {
                        f.floats.push(Field::f32("animations[0].node_anims[0].keys[0].translation.x", at));
                        f.floats.push(Field::f32("animations[0].node_anims[0].keys[0].rotation.w", at + 24));
                    }
                }
            }
            _ => {}
        }
    }
    let _ = vertices;
    f
}

fn fields_of(name: &str, bytes: &[u8]) -> AbcFields {
    if name.starts_with("v6") { v6_fields(bytes) } else { v12_fields(bytes) }
}

/// The walkers agree with the parser: every located count holds the value the parsed file has.
#[test]
fn field_tables_match_the_parser() {
    let (_, v12) = common::fixtures().into_iter().find(|(n, _)| n == "v12_full.abc").unwrap();
    let f = v12_fields(&v12);
    let relic_abc::AbcFile::V12(file) = relic_abc::read(&v12).unwrap() else { panic!() };
    let get = |label: &str| f.counts.iter().find(|x| x.label == label).unwrap().read(&v12).unwrap();
    assert_eq!(get("Header.node_count"), file.header.counts.node_count);
    assert_eq!(get("Header.lod_count"), file.header.counts.lod_count);
    let pieces = file.pieces.as_ref().unwrap();
    assert_eq!(get("Pieces.piece_count") as usize, pieces.pieces.len());
    assert_eq!(get("pieces[1].lods[1].face_count") as usize, pieces.pieces[1].lods[1].faces.len());
    assert_eq!(get("pieces[1].lods[1].vertex_count") as usize, pieces.pieces[1].lods[1].vertices.len());
    assert_eq!(
        get("pieces[0].lods[0].vertices[0].weight_count") as u16,
        pieces.pieces[0].lods[0].vertices[0].weight_count
    );
    let nodes = &file.nodes.as_ref().unwrap().nodes;
    assert_eq!(get("nodes[2].child_count"), nodes[2].child_count);
    let anims = &file.animations.as_ref().unwrap().animations;
    assert_eq!(get("animations[1].keyframe_count") as usize, anims[1].keyframes.len());
    assert_eq!(get("Sockets.count") as usize, file.sockets.as_ref().unwrap().sockets.len());
    let float = |label: &str| f32::from_bits(f.floats.iter().find(|x| x.label == label).unwrap().read(&v12).unwrap());
    assert_eq!(float("pieces[0].lods[0].vertices[0].position.y"), pieces.pieces[0].lods[0].vertices[0].position[1]);
    assert_eq!(float("pieces[0].lods[0].weights[0].bias"), pieces.pieces[0].lods[0].weights[0].bias);
    let last = nodes.len() - 1;
    let key = anims[1].tracks.node(last, anims[1].keyframes.len())[0];
    assert_eq!(float(&format!("animations[1].nodes[{last}].keys[0].rotation.w")), key.rotation[3]);
    assert!(f.counts.len() >= 30 && f.offsets.len() == 7 && f.floats.len() >= 20, "{f:?}");

    let (_, v6) = common::fixtures().into_iter().find(|(n, _)| n == "v6_basic.abc").unwrap();
    let f = v6_fields(&v6);
    let relic_abc::AbcFile::V6(file) = relic_abc::read(&v6).unwrap() else { panic!() };
    let get = |label: &str| f.counts.iter().find(|x| x.label == label).unwrap().read(&v6).unwrap() as usize;
    assert_eq!(get("Geometry.num_tris"), file.geometry.triangles.len());
    assert_eq!(get("Geometry.num_verts"), file.geometry.vertices.len());
    assert_eq!(get("nodes[0].num_children"), file.nodes.nodes[0].num_children as usize);
    assert_eq!(get("animations[0].num_keyframes"), file.animations.animations[0].keyframes.len());
    let float = |label: &str| f32::from_bits(f.floats.iter().find(|x| x.label == label).unwrap().read(&v6).unwrap());
    assert_eq!(
        float("animations[0].node_anims[0].keys[0].rotation.w"),
        file.animations.animations[0].node_anims[0].keys[0].rotation[3]
    );
}

/// Every count field of every well-formed fixture set to 0, 1, 2^16, 2^31 and 2^32 − 1; every
/// section next-offset at, before and past the end; NaN and ±∞ in positions, weights, node
/// matrices, key values and boxes. (ABC stores its skeleton as a pre-order list with child counts:
/// a parent cycle cannot be written down; a child count past the list is refused, see
/// `hostile/v6_node_children_huge.abc`.)
#[test]
fn hostile_fields_are_survived() {
    let mut h = harness();
    for (name, bytes) in common::fixtures() {
        let f = fields_of(&name, &bytes);
        h.fields(&name, &bytes, &f.counts, &COUNT_VALUES);
        h.fields(&name, &bytes, &f.offsets, &offset_values(bytes.len()));
        h.floats(&name, &bytes, &f.floats);
    }
    println!("{} inputs, {} reader runs accepted", h.inputs(), h.accepted());
    h.finish();
}

/// NaN and ±∞ in a file are data the file layer keeps (read → write stays byte-identical), and
/// the model mapping passes them on; `validate()` names them, so no writer turns them into a file:
/// every writer refuses such a model with `WriteError::InvalidModel` (glTF export validates too).
#[test]
fn non_finite_floats_never_reach_a_written_file() {
    let write = |version| {
        move |m: &relic_core::Model| {
            Some(relic_abc::write_model(m, &relic_core::WriteOptions { version: Some(version) }).map(|_| ()))
        }
    };
    let (v6, v12) = (write(6), write(12));
    let refused = relic_testkit::bad_floats_are_refused(
        &common::fixtures(),
        |name, bytes| fields_of(name, bytes).floats,
        |_, input| relic_abc::read_model(input).ok(),
        &[("v6", &v6), ("v12", &v12)],
    );
    println!("{refused} refusals");
    assert!(refused > 100, "{refused}");
}

/// 10,000 random multi-byte mutations (fixed seed) over the fixtures, through every reader.
#[test]
fn ten_thousand_random_mutations() {
    let files = small_files();
    let mut h = harness();
    let mut rng = Rng::new(0xABC0_0010);
    h.mutations_over(&files, &mut rng, 10_000);
    h.finish();
}
