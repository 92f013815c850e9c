//! Every generated fixture: parse, byte-identical rewrite, model round trips, the readings the
//! plausibility checks take, the bind-pose proofs, the corpus checks, and a snapshot summary.

// Test code: a failed unwrap or index is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::path::{Path, PathBuf};

use relic_core::check::Status;
use relic_nod::decide::{NodChoices, decide_nad, decide_nod};
use relic_nod::options::{GroupTail, How, MatrixLayout, NodOptions, Polynomial, RestTranslateSpace, Winding};
use relic_nod::{NadFile, NodFile, read_nad as parse_nad};
use serde::Serialize;

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/nod")
}

/// The non-hostile fixtures with the given extension.
fn fixtures(ext: &str) -> Vec<(String, Vec<u8>)> {
    let out: Vec<(String, Vec<u8>)> = relic_testkit::files_in(&fixtures_dir())
        .into_iter()
        .filter(|(n, _)| Path::new(n).extension().is_some_and(|e| e == ext))
        .collect();
    assert!(!out.is_empty(), "no .{ext} fixtures: run `cargo xtask fixtures`");
    out
}

fn read(name: &str) -> Vec<u8> {
    std::fs::read(fixtures_dir().join(name)).unwrap()
}

/// A NOD and the readings `options` lead to.
fn read_nod(bytes: &[u8], options: &NodOptions) -> Result<(NodFile, NodChoices), relic_core::ReadError> {
    let file = relic_nod::read(bytes)?;
    let choices = decide_nod(&file, options)?;
    Ok((file, choices))
}

/// FNV-1a over 16-bit values (the snapshots' checksums).
fn fnv1a_u16(values: impl IntoIterator<Item = u16>) -> u64 {
    let mut h = relic_core::hash::Fnv1a::new();
    for v in values {
        h.update(&v.to_le_bytes());
    }
    h.value()
}

#[test]
fn every_fixture_parses_and_rewrites_byte_identically() {
    for (name, bytes) in fixtures("nod") {
        let file = relic_nod::read(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(relic_nod::write(&file).unwrap(), bytes, "{name}");
    }
    for (name, bytes) in fixtures("nad") {
        let file = parse_nad(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(relic_nod::write_nad(&file).unwrap(), bytes, "{name}");
    }
}

#[test]
fn nod_model_nod_is_byte_identical_and_lossless() {
    for (name, bytes) in fixtures("nod") {
        let model = relic_nod::read_model(&bytes).unwrap();
        assert_eq!(model.validate(), Ok(()), "{name}");
        let out = relic_nod::write_model(&model, &Default::default()).unwrap();
        assert_eq!(out.losses, vec![], "{name}");
        assert!(out.value == bytes, "{name}: rewritten bytes differ");
    }
}

#[test]
fn extras_through_json_give_the_same_bytes() {
    for (name, bytes) in fixtures("nod") {
        let mut model = relic_nod::read_model(&bytes).unwrap();
        let json = model.extras.as_ref().unwrap().json().unwrap();
        model.extras = Some(relic_core::model::FormatExtras::from_json(relic_nod::FORMAT, json));
        let out = relic_nod::write_model(&model, &Default::default()).unwrap();
        assert!(out.value == bytes && out.losses.is_empty(), "{name}: {:?}", out.losses);
    }
}

#[test]
fn model_without_extras_rebuilds_a_nod_that_reads_back_equal() {
    for (name, bytes) in fixtures("nod") {
        let (_, choices) = read_nod(&bytes, &NodOptions::default()).unwrap();
        let options = fixed(&choices);
        let mut model = relic_nod::read_model(&bytes).unwrap();
        model.extras = None;
        let out = relic_nod::write_model_with(&model, &Default::default(), &options).unwrap();
        assert_eq!(out.losses, vec![], "{name}");
        let mut again = relic_nod::read_model_with(&out.value, &options).unwrap();
        again.extras = None;
        assert!(again == model, "{name}: {}", relic_nod::verify::model_difference(&model, &again));
        // What differs in the file is only what the model does not hold.
        let (a, b) = (relic_nod::read(&bytes).unwrap(), relic_nod::read(&out.value).unwrap());
        assert_eq!((a.bones.len(), a.vertices.len(), a.faces.len()), (b.bones.len(), b.vertices.len(), b.faces.len()));
        assert_eq!(
            a.bones.iter().map(|x| x.rest_matrix_inverse).collect::<Vec<_>>(),
            b.bones.iter().map(|x| x.rest_matrix_inverse).collect::<Vec<_>>()
        );
        assert_eq!(a.faces, b.faces, "{name}");
        assert!(b.lod.is_none(), "{name}: the LOD table travels in the extras only");
    }
}

fn fixed(c: &NodChoices) -> NodOptions {
    use relic_nod::options::Choice::Fixed;
    NodOptions {
        matrix_layout: Fixed(c.matrix_layout.value),
        group_tail: Fixed(c.group_tail.value),
        rest_translate: Fixed(c.rest_translate.value),
        winding: Fixed(c.winding.value),
        uv_origin: c.uv_origin,
    }
}

/// The readings each fixture was built to provoke.
#[test]
fn plausibility_checks_pick_the_layout_each_fixture_was_built_with() {
    let expect = |name: &str, matrix: (MatrixLayout, How), tail: (GroupTail, How), winding: (Winding, How)| {
        let (_, c) = read_nod(&read(name), &NodOptions::default()).unwrap();
        assert_eq!((c.matrix_layout.value, c.matrix_layout.how), matrix, "{name}: {}", c.matrix_layout);
        assert_eq!((c.group_tail.value, c.group_tail.how), tail, "{name}: {}", c.group_tail);
        assert_eq!((c.winding.value, c.winding.how), winding, "{name}: {}", c.winding);
        c
    };
    use How::{Auto, Undecided};
    use MatrixLayout::H1;
    // Identity rest matrix: H1 and H2 coincide, neutral tail reads the same under A and B.
    expect("triangle.nod", (H1, Undecided), (GroupTail::B, Undecided), (Winding::CounterClockwise, Auto));
    // Neutral tails: B sees flags 0x0100 for mesh 1 (implausible), so A explains more groups.
    let c = expect("skinned.nod", (H1, Auto), (GroupTail::A, Auto), (Winding::CounterClockwise, Auto));
    assert_eq!((c.rest_translate.value, c.rest_translate.how), (RestTranslateSpace::Parent, Auto));
    expect("static_groups.nod", (H1, Auto), (GroupTail::B, Auto), (Winding::Clockwise, Auto));
    expect("noesis_style.nod", (H1, Auto), (GroupTail::A, Auto), (Winding::CounterClockwise, Auto));
    expect("bones64.nod", (H1, Auto), (GroupTail::B, Undecided), (Winding::CounterClockwise, Auto));
    expect("static_model.nod", (H1, Undecided), (GroupTail::B, Undecided), (Winding::CounterClockwise, Auto));
    // The other readings a real file may hold: the same character in layouts H2 and H3, and with
    // RestTranslate in model space.
    let neutral = (GroupTail::A, Auto);
    expect("skinned_h2.nod", (MatrixLayout::H2, Auto), neutral, (Winding::CounterClockwise, Auto));
    expect("skinned_h3.nod", (MatrixLayout::H3, Auto), neutral, (Winding::CounterClockwise, Auto));
    let c = expect("model_space.nod", (H1, Auto), neutral, (Winding::CounterClockwise, Auto));
    assert_eq!((c.rest_translate.value, c.rest_translate.how), (RestTranslateSpace::Model, Auto));
    // The NAD's smooth curves have no slope jumps under P1.
    let nad = parse_nad(&read("walk.nad")).unwrap();
    let c = decide_nad(&nad, &Default::default());
    assert_eq!((c.polynomial.value, c.polynomial.how), (Polynomial::Ascending, Auto), "{}", c.polynomial);
    // … and under P2 when the factors are stored in the other order.
    let nad = parse_nad(&read("walk_p2.nad")).unwrap();
    let c = decide_nad(&nad, &Default::default());
    assert_eq!((c.polynomial.value, c.polynomial.how), (Polynomial::Descending, Auto), "{}", c.polynomial);
}

#[test]
fn fixed_options_override_and_wrong_ones_fail_the_bind_pose() {
    use relic_nod::options::Choice::Fixed;
    let bytes = read("skinned.nod");
    // Under H2 the same bytes give a skeleton whose chained rest pose misses its own matrices.
    let options = NodOptions { matrix_layout: Fixed(MatrixLayout::H2), ..NodOptions::default() };
    let (file, choices) = read_nod(&bytes, &options).unwrap();
    assert_eq!((choices.matrix_layout.value, choices.matrix_layout.how), (MatrixLayout::H2, How::Fixed));
    let wrong = relic_nod::verify::bind_pose(&file, &choices);
    assert!(wrong.chain_error > 1.0, "{wrong:?}");
    let (file, choices) = read_nod(&bytes, &NodOptions::default()).unwrap();
    let right = relic_nod::verify::bind_pose(&file, &choices);
    assert!(right.chain_error < 1e-5 && right.vertex_error < 1e-5, "{right:?}");
    // A fixed tail layout that does not fit is an error naming the group.
    let err =
        read_nod(&read("static_groups.nod"), &NodOptions { group_tail: Fixed(GroupTail::A), ..NodOptions::default() })
            .unwrap_err();
    assert_eq!(err.path, "groups[0].tail");
    assert!(err.to_string().contains("names bone 4 (3 bones)"), "{err}");
}

#[test]
fn rest_pose_proof_through_the_model_and_relic_anim() {
    for (name, bytes) in fixtures("nod") {
        let model = relic_nod::read_model(&bytes).unwrap();
        let detail = relic_anim::proofs::rest_pose(&model, 1e-4).unwrap_or_else(|e| panic!("{name}: {e}"));
        println!("{name}: {detail}");
    }
}

#[test]
fn corpus_checks_pass_on_every_fixture() {
    for (name, bytes) in fixtures("nod").into_iter().chain(fixtures("nad")) {
        let checks = relic_nod::verify::corpus_checks(&bytes);
        let failed: Vec<String> = checks.failures().map(ToString::to_string).collect();
        assert!(failed.is_empty(), "{name}: {failed:?}");
        assert!(checks.0.iter().filter(|c| c.status == Status::Pass).count() >= 5, "{name}: {:?}", checks.0);
    }
}

#[test]
fn detect_recognises_both_formats_and_nothing_else() {
    for (name, bytes) in fixtures("nod") {
        assert_eq!(
            relic_nod::detect(&bytes).map(|s| (s.source.format, s.source.version)),
            Some((relic_nod::FORMAT, 7)),
            "{name}"
        );
    }
    for (name, bytes) in fixtures("nad") {
        assert_eq!(
            relic_nod::detect(&bytes).map(|s| (s.source.format, s.source.version)),
            Some((relic_nod::NAD_FORMAT, 3)),
            "{name}"
        );
    }
    // Other formats' fixtures (whatever exists of them) and other files are never taken.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
    for dir in ["abc", "m2"] {
        for entry in std::fs::read_dir(root.join(dir)).into_iter().flatten() {
            let path = entry.unwrap().path();
            if path.is_file() {
                assert_eq!(relic_nod::detect(&std::fs::read(&path).unwrap()), None, "{}", path.display());
            }
        }
    }
    let mut rng = relic_testkit::Rng::new(11);
    for len in [0usize, 4, 16, 100, 334, 1000, 4096] {
        for _ in 0..200 {
            let mut bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
            if len >= 4 && rng.below(2) == 0 {
                bytes[..4].copy_from_slice(&(if rng.below(2) == 0 { 7u32 } else { 3 }).to_le_bytes());
            }
            assert_eq!(relic_nod::detect(&bytes), None, "random {len} bytes");
        }
    }
    let gltf = br#"{"asset":{"version":"2.0"},"meshes":[]}"#;
    assert_eq!(relic_nod::detect(gltf), None);
    assert_eq!(relic_nod::detect(b"glTF\x02\0\0\0\x0c\0\0\0"), None);
    assert_eq!(relic_nod::detect(b"MD20\x08\x01\0\0"), None);
    // A NAD is not a model on its own.
    let err = relic_nod::read_model(&read("walk.nad")).unwrap_err();
    assert!(err.to_string().contains("NAD animation"), "{err}");
}

// ---- snapshots ------------------------------------------------------------------------------

#[derive(Serialize)]
struct NodSummary {
    version: u32,
    materials: Vec<String>,
    mesh_names: Vec<String>,
    model_flags: String,
    bounds: [f32; 6],
    bones: Vec<String>,
    groups: Vec<String>,
    vertices: usize,
    first_vertices: Vec<String>,
    last_vertex: String,
    vertex_checksum: String,
    faces: usize,
    first_faces: Vec<[u16; 3]>,
    face_checksum: String,
    lod: Option<String>,
    readings: Vec<String>,
    model: ModelSummary,
}

#[derive(Serialize)]
struct ModelSummary {
    bones: Vec<String>,
    meshes: Vec<String>,
    materials: Vec<String>,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn nod_summary(file: &NodFile, choices: &NodChoices, bytes: &[u8]) -> NodSummary {
    let vertex = |v: &relic_nod::file::NodVertex| {
        format!(
            "pos {:?} norm {:?} uv {:?} weight {} bone {} pad {}",
            v.pos,
            v.norm,
            v.uv,
            v.weight,
            v.bone_num,
            hex(&v.pad)
        )
    };
    let model = relic_nod::read_model(bytes).unwrap();
    let round = |x: f32| (x * 1e5).round() / 1e5 + 0.0;
    NodSummary {
        version: file.version,
        materials: file.materials.iter().map(|n| format!("{:?} raw {}", n.to_text(), hex(&n.0))).collect(),
        mesh_names: file.mesh_names.iter().map(|n| n.to_text()).collect(),
        model_flags: format!("{:#x}", file.model_flags),
        bounds: file.bounds,
        bones: file
            .bones
            .iter()
            .take(6)
            .map(|b| format!("parent {} child {} sibling {} rest_translate {:?}", b.parent, b.child, b.sibling, b.rest_translate))
            .collect(),
        groups: file
            .groups
            .iter()
            .map(|g| {
                format!(
                    "material {} faces {} vertices {} min {:#06x} tail {} reserved {}",
                    g.material_id,
                    g.num_faces,
                    g.num_vertices,
                    g.min_vertices,
                    hex(&g.tail),
                    hex(&g.reserved)
                )
            })
            .collect(),
        vertices: file.vertices.len(),
        first_vertices: file.vertices.iter().take(2).map(vertex).collect(),
        last_vertex: file.vertices.last().map(vertex).unwrap_or_default(),
        vertex_checksum: format!("{:016x}", fnv1a_u16(bytemuck::cast_slice::<_, u16>(&file.vertices).iter().copied())),
        faces: file.faces.len(),
        first_faces: file.faces.iter().take(2).copied().collect(),
        face_checksum: format!("{:016x}", fnv1a_u16(file.faces.iter().flatten().copied())),
        lod: file.lod.as_ref().map(|l| format!("{} entries, first {:?}, checksum {:016x}", l.len(), &l[..l.len().min(8)], fnv1a_u16(l.iter().copied()))),
        readings: vec![
            format!("matrix {}", choices.matrix_layout.value),
            format!("tail {}", choices.group_tail.value),
            format!("rest_translate {}", choices.rest_translate.value),
            format!("winding {}", choices.winding.value),
        ],
        model: ModelSummary {
            bones: model
                .bones
                .iter()
                .take(6)
                .map(|b| {
                    format!(
                        "{} parent {:?} rest t {:?} r {:?}",
                        b.name,
                        b.parent,
                        b.rest.translation,
                        b.rest.rotation.map(round)
                    )
                })
                .collect(),
            meshes: model
                .meshes
                .iter()
                .map(|m| {
                    format!(
                        "{:?} material {:?} vertices {} triangles {} influences ≤ {} first position {:?} first triangle {:?}",
                        m.name,
                        m.material,
                        m.positions.len(),
                        m.triangles.len(),
                        m.skin.max_influences(),
                        m.positions.first(),
                        m.triangles.first()
                    )
                })
                .collect(),
            materials: model.materials.iter().map(|m| format!("{:?} textures {:?}", m.name, m.textures.iter().map(|t| &t.path).collect::<Vec<_>>())).collect(),
        },
    }
}

#[derive(Serialize)]
struct NadSummary {
    version: u32,
    flags: u32,
    duration: f32,
    tracks: Vec<String>,
    tags: Vec<String>,
    key_checksum: String,
    polynomial: String,
    animation: Vec<String>,
    events: Vec<String>,
}

fn nad_summary(nad: &NadFile, bytes: &[u8]) -> NadSummary {
    let skeleton = relic_nod::read_model(&read("skinned.nod")).unwrap();
    let anim = relic_nod::read_animation(&skeleton, bytes, "clip", &Default::default()).unwrap();
    let key = |k: &relic_nod::file::NadKey| format!("frame {} scale {} value {:?}", k.frame, k.frame_scale, k.value);
    NadSummary {
        version: nad.version,
        flags: nad.flags,
        duration: nad.duration,
        tracks: nad
            .tracks
            .iter()
            .map(|t| {
                format!(
                    "bone {} type {} keys {} first ({}) last ({})",
                    t.bone,
                    t.track_type,
                    t.keys.len(),
                    t.keys.first().map(key).unwrap_or_default(),
                    t.keys.last().map(key).unwrap_or_default()
                )
            })
            .collect(),
        tags: nad.tags.iter().map(|t| format!("frame {} type {}", t.frame, t.tag_type)).collect(),
        key_checksum: format!(
            "{:016x}",
            fnv1a_u16(nad.tracks.iter().flat_map(|t| bytemuck::cast_slice::<_, u16>(&t.keys).to_vec()))
        ),
        polynomial: decide_nad(nad, &Default::default()).polynomial.value.to_string(),
        animation: anim
            .channels
            .iter()
            .map(|c| {
                format!(
                    "bone {} {} {:?} keys {} from {} s to {} s",
                    c.bone,
                    c.values.property(),
                    c.interpolation,
                    c.times.len(),
                    c.times.first().unwrap(),
                    c.times.last().unwrap()
                )
            })
            .collect(),
        events: anim.events.iter().map(|e| format!("{} at {} s ({:?})", e.name, e.time, e.parameter)).collect(),
    }
}

#[test]
fn snapshots() {
    insta::glob!("../../../fixtures", "nod/*.nod", |path| {
        let bytes = std::fs::read(path).unwrap();
        let (file, choices) = read_nod(&bytes, &NodOptions::default()).unwrap();
        insta::assert_yaml_snapshot!(nod_summary(&file, &choices, &bytes));
    });
    insta::glob!("../../../fixtures", "nod/*.nad", |path| {
        let bytes = std::fs::read(path).unwrap();
        let nad = parse_nad(&bytes).unwrap();
        insta::assert_yaml_snapshot!(nad_summary(&nad, &bytes));
    });
}

#[test]
fn info_lists_counts_and_readings() {
    let info = relic_nod::info(&read("static_groups.nod")).unwrap();
    use relic_core::Fact::{Count, Text};
    assert_eq!(info.get("bones"), Some(&Count(3)));
    assert_eq!(info.get("groups"), Some(&Count(2)));
    assert_eq!(info.get("vertices"), Some(&Count(18)));
    let Some(Text(tail)) = info.get("group_tail") else { panic!() };
    assert!(tail.starts_with("B (auto: only B gives in-range numbers"), "{tail}");
    let Some(Text(winding)) = info.get("winding") else { panic!() };
    assert!(winding.starts_with("cw (auto"), "{winding}");
    let info = relic_nod::info(&read("walk.nad")).unwrap();
    assert_eq!((info.format, info.version), (relic_nod::NAD_FORMAT, 3));
    assert_eq!(info.get("tracks"), Some(&Count(6)));
    assert_eq!(info.get("keys"), Some(&Count(25)));
    assert_eq!(info.get("tags"), Some(&Count(4)));
    let Some(Text(poly)) = info.get("polynomial") else { panic!() };
    assert!(poly.starts_with("P1"), "{poly}");
}

#[test]
fn lod_table_reduces_groups() {
    let file = relic_nod::read(&read("skinned_lod.nod")).unwrap();
    let full = relic_nod::read(&read("skinned.nod")).unwrap();
    let g0 = &file.groups[0];
    assert_eq!((g0.num_vertices, g0.min_vertices), (12, 6));
    // All vertices: the faces as stored.
    assert_eq!(file.lod_faces(0, 12).unwrap(), full.faces[..12].to_vec());
    // The second ring collapses onto the first: the tube flattens to nothing.
    assert_eq!(file.lod_faces(0, 6).unwrap(), Vec::<[u16; 3]>::new());
    // Halfway: faces touching collapsed vertices that stay non-degenerate are kept, remapped.
    let half = file.lod_faces(0, 9).unwrap();
    assert!(!half.is_empty() && half.len() < 12, "{half:?}");
    assert!(half.iter().flatten().all(|&i| i < 9));
    // Below MinVertices clamps to it; no table, no reduction.
    assert_eq!(file.lod_faces(0, 0).unwrap(), Vec::<[u16; 3]>::new());
    assert!(full.lod_faces(0, 6).is_none());
    assert!(file.lod_faces(5, 6).is_none());
}

/// Every reading of an open question gives the same common model (to float rounding for a
/// model-space RestTranslate): the H2, H3 and model-space fixtures are skinned.nod stored another
/// way, and walk_p2.nad is walk.nad with its factors in the other order.
#[test]
fn other_readings_give_the_same_model() {
    let skinned = relic_nod::read_model(&read("skinned.nod")).unwrap();
    for name in ["skinned_h2.nod", "skinned_h3.nod", "model_space.nod"] {
        let other = relic_nod::read_model(&read(name)).unwrap();
        assert_eq!(other.meshes, skinned.meshes, "{name}");
        for (a, b) in other.bones.iter().zip(&skinned.bones) {
            assert_eq!(
                (a.parent, a.bind_matrix, a.inverse_bind_matrix),
                (b.parent, b.bind_matrix, b.inverse_bind_matrix)
            );
            assert_eq!(a.rest.rotation, b.rest.rotation, "{name}");
            let gap = a.rest.translation.iter().zip(&b.rest.translation).fold(0.0f32, |m, (x, y)| m.max((x - y).abs()));
            assert!(gap < 2e-6, "{name}: {gap}");
        }
    }
    let walk = relic_nod::read_animation(&skinned, &read("walk.nad"), "walk", &Default::default()).unwrap();
    let p2 = relic_nod::read_animation(&skinned, &read("walk_p2.nad"), "walk", &Default::default()).unwrap();
    assert_eq!(p2, walk);
}
