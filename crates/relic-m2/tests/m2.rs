//! relic-m2: fixtures, the real 1.12 file, hostile inputs, the common-model round trip and the
//! animation proof.

// Test helpers: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::path::{Path, PathBuf};

use relic_core::model::{ChannelValues, Influence, Model, Skin};
use relic_core::{ReadErrorKind, WriteOptions};
use relic_testkit::{CountingAllocator, Limits};

#[global_allocator]
static ALLOC: CountingAllocator = CountingAllocator;

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/m2")
}

fn fixtures() -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(fixtures_dir())
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "m2"))
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap()))
        .collect();
    out.sort();
    assert!(out.len() >= 10, "fixtures missing: run `cargo xtask fixtures`");
    out
}

fn hostile() -> Vec<(String, Vec<u8>)> {
    let dir = fixtures_dir().join("hostile");
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| (e.file_name().to_string_lossy().into_owned(), std::fs::read(e.path()).unwrap()))
        .collect();
    out.sort();
    assert!(out.len() >= 8);
    out
}

fn corpus() -> Option<Vec<u8>> {
    relic_testkit::corpus_file("GnomePounder-vanilla.m2", "m2/GnomePounder-vanilla.m2")
}

fn blizzard_layout(name: &str) -> bool {
    !name.contains("reordered")
}

#[test]
fn fixtures_round_trip_byte_for_byte() {
    for (name, bytes) in fixtures() {
        let file = relic_m2::read(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let out = relic_m2::write(&file);
        if blizzard_layout(&name) {
            assert!(out == bytes, "{name}: re-write differs");
        } else {
            assert_ne!(out, bytes, "{name} is meant to be in a foreign layout");
            assert_eq!(relic_m2::read(&out).unwrap(), file, "{name}: normalised re-write re-parses differently");
            assert_eq!(relic_m2::write(&relic_m2::read(&out).unwrap()), out);
        }
    }
}

#[test]
fn real_file_round_trips_byte_for_byte() {
    let Some(bytes) = corpus() else { return };
    let file = relic_m2::read(&bytes).unwrap();
    assert_eq!((file.version, file.bones.len(), file.vertices.len(), file.views.len()), (256, 104, 3902, 4));
    assert_eq!((file.sequences.len(), file.particle_emitters.len()), (11, 12));
    assert!(relic_m2::write(&file) == bytes);
}

#[test]
fn ir_round_trip_is_byte_identical() {
    let mut inputs = fixtures();
    if let Some(b) = corpus() {
        inputs.push(("GnomePounder-vanilla.m2".into(), b));
    }
    for (name, bytes) in inputs {
        let model = relic_m2::read_model(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        model.validate().unwrap_or_else(|e| panic!("{name}: {e}"));
        let out = relic_m2::write_model(&model, &WriteOptions::default()).unwrap();
        assert!(out.losses.is_empty(), "{name}: {:?}", out.losses);
        let original = relic_m2::read(&bytes).unwrap();
        let again = relic_m2::read(&out.value).unwrap();
        assert_eq!(again, original, "{name}: format → model → format re-parses differently");
        if blizzard_layout(&name) {
            assert!(out.value == bytes, "{name}: not byte-identical");
        }
        // Through JSON extras (glTF's path) the model still writes a file that reads the same.
        let mut via_json = model.clone();
        let json = model.extras.as_ref().unwrap().json().unwrap();
        via_json.extras = Some(relic_core::model::FormatExtras::from_json(relic_m2::FORMAT, json));
        let out = relic_m2::write_model(&via_json, &WriteOptions::default()).unwrap();
        assert_eq!(relic_m2::read_model(&out.value).unwrap().meshes, model.meshes, "{name} via JSON");
    }
}

/// Channels compared with a tolerance (the pivot offset makes translations round differently).
fn assert_animations_close(a: &Model, b: &Model, what: &str) {
    assert_eq!(a.animations.len(), b.animations.len(), "{what}");
    for (x, y) in a.animations.iter().zip(&b.animations) {
        assert_eq!((x.name.as_str(), x.looping), (y.name.as_str(), y.looping), "{what}");
        assert!((x.duration - y.duration).abs() < 1e-6, "{what}");
        assert_eq!(x.channels.len(), y.channels.len(), "{what} {}", x.name);
        for (c, d) in x.channels.iter().zip(&y.channels) {
            assert_eq!((c.bone, c.clock, c.interpolation), (d.bone, d.clock, d.interpolation), "{what} {}", x.name);
            assert_eq!(c.times.len(), d.times.len());
            for (t, u) in c.times.iter().zip(&d.times) {
                assert!((t - u).abs() < 1e-6, "{what}: time {t} vs {u}");
            }
            let (p, q): (Vec<f32>, Vec<f32>) = match (&c.values, &d.values) {
                (ChannelValues::Rotation(p), ChannelValues::Rotation(q)) => (p.concat(), q.concat()),
                (ChannelValues::Translation(p), ChannelValues::Translation(q))
                | (ChannelValues::Scale(p), ChannelValues::Scale(q)) => (p.concat(), q.concat()),
                _ => panic!("{what}: channel kinds differ"),
            };
            let worst = relic_core::math::max_abs_diff(&p, &q);
            assert!(worst < 1e-4, "{what} {}: values differ by {worst}", x.name);
        }
        assert_eq!(x.events, y.events, "{what}");
    }
}

#[test]
fn rebuild_without_extras_re_reads_the_same_model() {
    let mut inputs = fixtures();
    if let Some(b) = corpus() {
        inputs.push(("GnomePounder-vanilla.m2".into(), b));
    }
    for (name, bytes) in inputs {
        let mut model = relic_m2::read_model(&bytes).unwrap();
        model.extras = None;
        let out = relic_m2::write_model(&model, &WriteOptions::default()).unwrap();
        let back =
            relic_m2::read_model(&out.value).unwrap_or_else(|e| panic!("{name}: rebuilt file does not read: {e}"));
        assert_eq!(back.meshes, model.meshes, "{name}");
        assert_eq!(back.materials, model.materials, "{name}");
        assert_eq!(back.bones, model.bones, "{name}");
        assert_eq!(back.attachments, model.attachments, "{name}");
        assert_eq!(back.global_sequences, model.global_sequences, "{name}");
        assert_animations_close(&back, &model, &name);
        // All four views satisfy the palette rule.
        let file = relic_m2::read(&out.value).unwrap();
        assert_eq!(file.views.len(), 4);
        for v in file.views.iter() {
            assert!(relic_m2::palette::palettes_hold(v, &file.vertices, &file.bone_lookup), "{name}");
        }
    }
}

#[test]
fn versions_convert_both_ways() {
    let bytes = std::fs::read(fixtures_dir().join("v256_hermite.m2")).unwrap();
    let model = relic_m2::read_model(&bytes).unwrap();
    for version in [260, 263, 256] {
        let out = relic_m2::write_model(&model, &WriteOptions { version: Some(version) }).unwrap();
        let back = relic_m2::read_model(&out.value).unwrap();
        assert_eq!(back.source.unwrap().version, version);
        assert_eq!(back.meshes, model.meshes);
        assert_animations_close(&back, &model, &format!("v{version}"));
    }
    assert!(relic_m2::write_model(&model, &WriteOptions { version: Some(264) }).is_err());
}

#[test]
fn hostile_inputs_give_typed_errors() {
    for (name, bytes) in hostile() {
        let err = relic_m2::read(&bytes).expect_err(&name);
        let refused = matches!(err.kind, ReadErrorKind::UnsupportedVersion { .. });
        assert_eq!(refused, ["md21.m2", "skin.m2", "version_264.m2"].contains(&name.as_str()), "{name}: {err}");
        assert!(relic_m2::read_model(&bytes).is_err());
        relic_testkit::check(&name, &bytes, Limits::default(), relic_m2::read_model).unwrap();
        println!("{name}: {err}");
    }
    let err =
        |name: &str| relic_m2::read(&std::fs::read(fixtures_dir().join("hostile").join(name)).unwrap()).unwrap_err();
    assert!(err("version_264.m2").to_string().contains("version 264"));
    assert!(err("version_264.m2").to_string().contains(".skin"));
    assert!(err("cyclic_parents.m2").to_string().contains("cycle"));
    assert!(err("overlapping_arrays.m2").to_string().contains("overlap"));
    assert!(err("range_past_keys.m2").to_string().contains("past the 4 keys"));
    assert_eq!(err("parent_out_of_range.m2").path, "M2File.bones[2].parent");
    assert!(matches!(err("offset_past_end.m2").kind, ReadErrorKind::OffsetOutOfBounds { .. }));
    assert!(matches!(err("count_past_end.m2").kind, ReadErrorKind::OffsetOutOfBounds { .. }));
}

#[test]
fn every_truncation_of_the_small_fixtures_errors_cleanly() {
    for (name, bytes) in fixtures() {
        for cut in relic_testkit::truncations(&bytes, 1) {
            relic_testkit::check(&name, cut, Limits::default(), relic_m2::read_model).unwrap();
            // Only the final padding may go: then the layout pass puts it back.
            if let Ok(file) = relic_m2::read(cut) {
                assert!(
                    blizzard_layout(&name) && relic_m2::write(&file) == bytes,
                    "{name} cut to {} bytes still reads",
                    cut.len()
                );
            }
        }
    }
}

#[test]
fn mutations_never_panic_or_overallocate() {
    let mut rng = relic_testkit::Rng::new(4);
    for (name, bytes) in fixtures() {
        for _ in 0..300 {
            let m = relic_testkit::mutate(&bytes, &mut rng, 3);
            relic_testkit::check(&name, &m, Limits::default(), |b| {
                relic_m2::read_model(b).and_then(|model| {
                    relic_m2::write_model(&model, &WriteOptions::default())
                        .map_err(|_| relic_core::ReadError::new(0, ReadErrorKind::Truncated))
                })
            })
            .unwrap();
        }
    }
}

#[test]
fn sampled_truncations_of_the_real_file() {
    let Some(bytes) = corpus() else { return };
    for cut in relic_testkit::truncations(&bytes, 4099) {
        relic_testkit::check(
            "GnomePounder",
            cut,
            Limits { time: std::time::Duration::from_secs(5), ..Limits::default() },
            relic_m2::read,
        )
        .unwrap();
        if let Ok(file) = relic_m2::read(cut) {
            assert!(relic_m2::write(&file) == bytes, "cut to {} bytes still reads", cut.len());
        }
    }
}

#[test]
fn compressed_quaternions_round_trip_every_code() {
    use relic_m2::track::{decode_component, encode_component};
    for v in i16::MIN..=i16::MAX {
        let f = decode_component(v);
        assert!((-1.0..=1.0).contains(&f), "{v} → {f}");
        let back = encode_component(f);
        if v == i16::MIN {
            assert_eq!(back, 32767, "−32768 is an alias of 0");
        } else {
            assert_eq!(back, v, "{v} → {f} → {back}");
        }
    }
    // The seed's formula maps code 0 to +1: the correct one gives −1.
    assert_eq!(decode_component(0), -1.0);
    assert_eq!(decode_component(-1), 1.0);
    // Unit quaternions survive encoding to within one code.
    let q = relic_core::sample::normalize4([0.3, -0.5, 0.2, 0.8]);
    let d = relic_m2::track::decode_quat(relic_m2::track::encode_quat(q));
    assert!(relic_core::math::max_abs_diff(&q, &d) <= 0.5 / 32767.0 + 1e-7);
}

#[test]
fn more_than_four_influences_are_pruned_with_a_loss() {
    let bytes = std::fs::read(fixtures_dir().join("v256_linear.m2")).unwrap();
    let mut model = relic_m2::read_model(&bytes).unwrap();
    model.extras = None;
    let mesh = &mut model.meshes[0];
    let n = mesh.positions.len();
    mesh.skin = Skin::from_vertices((0..n).map(|v| {
        if v == 3 {
            // Six influences over three bones (repeated bones are allowed in the model).
            [0.3, 0.25, 0.2, 0.1, 0.1, 0.05]
                .iter()
                .enumerate()
                .map(|(i, &w)| Influence { bone: (i % 3) as u32, weight: w })
                .collect()
        } else {
            vec![Influence { bone: 1, weight: 1.0 }]
        }
    }));
    model.validate().unwrap();
    let out = relic_m2::write_model(&model, &WriteOptions::default()).unwrap();
    let loss = out.losses.iter().find(|l| l.what.contains("more than 4 influences")).expect("a pruning loss");
    assert!(loss.what.contains("largest position error"), "{loss}");
    let file = relic_m2::read(&out.value).unwrap();
    let v = &file.vertices[3];
    assert_eq!(v.bone_weights.iter().map(|&w| u32::from(w)).sum::<u32>(), 255);
    assert_eq!(v.bone_weights.iter().filter(|&&w| w > 0).count(), 4);
}

#[test]
fn models_from_elsewhere_write_valid_files() {
    // A model built in memory, with no M2 origin: chain of bones, linear keys, 4 influences.
    let model = synthetic(2000, 12, 3);
    model.validate().unwrap();
    let out = relic_m2::write_model(&model, &WriteOptions::default()).unwrap();
    let back = relic_m2::read_model(&out.value).unwrap();
    assert_eq!(back.source.unwrap().version, 256);
    assert_eq!(back.vertex_count(), model.vertex_count());
    assert_eq!(back.animations.len(), 3);
    assert_eq!(back.bones.len(), 12);
    let file = relic_m2::read(&out.value).unwrap();
    for v in file.views.iter() {
        assert!(relic_m2::palette::palettes_hold(v, &file.vertices, &file.bone_lookup));
        for s in v.submeshes.iter() {
            assert!(u32::from(s.bone_count) <= v.bone_count_max);
        }
    }
    // 12 bones exceed no budget; with 40 bones view 3 (21) must split.
    let big = synthetic(2000, 40, 1);
    let file = relic_m2::read(&relic_m2::write_model(&big, &WriteOptions::default()).unwrap().value).unwrap();
    assert!(file.views[3].submeshes.len() > file.views[0].submeshes.len());
    for v in file.views.iter() {
        assert!(relic_m2::palette::palettes_hold(v, &file.vertices, &file.bone_lookup));
        assert!(v.submeshes.iter().all(|s| u32::from(s.bone_count) <= v.bone_count_max));
    }
}

/// A chain of bones along +Y with a grid skinned to neighbouring bones.
fn synthetic(vertices: usize, bones: usize, animations: usize) -> Model {
    use relic_core::model::*;
    let mut m = Model { name: "synthetic".into(), ..Model::default() };
    m.bones = relic_testkit::bone_chain(bones, "b");
    m.materials.push(Material {
        name: "m".into(),
        textures: vec![TextureRef { path: "A.BLP".into(), uv_set: Some(0), ..TextureRef::default() }],
        depth_write: true,
        ..Material::default()
    });
    let side = (vertices as f64).sqrt() as usize;
    let mut mesh = Mesh { name: "grid".into(), material: Some(0), part_id: Some(0), ..Mesh::default() };
    let mut weights = Vec::new();
    for i in 0..side * side {
        let (x, y) = ((i % side) as f32, (i / side) as f32 / side as f32 * bones as f32);
        mesh.positions.push([x * 0.01, y, 0.0]);
        mesh.normals.push([0.0, 0.0, 1.0]);
        let b0 = (y as usize).min(bones - 1);
        let b1 = (b0 + 1).min(bones - 1);
        weights.push(if b0 == b1 {
            vec![Influence { bone: b0 as u32, weight: 1.0 }]
        } else {
            vec![Influence { bone: b0 as u32, weight: 0.75 }, Influence { bone: b1 as u32, weight: 0.25 }]
        });
    }
    mesh.uv_sets.push(mesh.positions.iter().map(|p| [p[0], p[1]]).collect());
    mesh.skin = Skin::from_vertices(weights);
    for i in 0..side * (side - 1) {
        if i % side == side - 1 {
            continue;
        }
        let (a, b, c, d) = (i as u32, i as u32 + 1, (i + side) as u32, (i + side + 1) as u32);
        mesh.triangles.push([a, b, d]);
        mesh.triangles.push([a, d, c]);
    }
    m.meshes.push(mesh);
    for a in 0..animations {
        let times = vec![0.0, 0.5, 1.0];
        let mut channels = Vec::new();
        for b in 0..bones {
            let angle = |k: usize| (k as f32 * 0.3 + a as f32 + b as f32 * 0.1).sin() * 0.4;
            channels.push(Channel {
                bone: b,
                clock: Clock::Animation,
                interpolation: Interpolation::Linear,
                times: times.clone(),
                values: ChannelValues::Rotation((0..3).map(|k| [0.0, 0.0, angle(k).sin(), angle(k).cos()]).collect()),
            });
        }
        m.animations.push(Animation {
            name: ["Stand", "Walk", "Run"][a % 3].into(),
            duration: 1.0,
            looping: true,
            channels,
            ..Animation::default()
        });
    }
    m
}

/// The real-data proof through the common model and relic-anim: pose every sequence at each of its
/// keys, compare with the stored boxes; a wrong pivot or quaternion convention fails it.
#[test]
fn posed_boxes_match_the_stored_boxes() {
    let Some(bytes) = corpus() else { return };
    let model = relic_m2::read_model(&bytes).unwrap();
    relic_anim::proofs::rest_pose(&model, 1e-5).unwrap();
    let fits = relic_anim::proofs::clip_box_fits(&model).unwrap();
    for f in &fits {
        println!("{:>20} corner {:.4} outside {:.4}", model.animations[f.animation].name, f.corner, f.outside);
    }
    assert!(fits[0].corner <= relic_m2::checks::BOX_TOLERANCE, "{:?}", fits[0]);
    // The model's own posing and the file's agree on every sequence to a few micro-units.
    let file = relic_m2::read(&bytes).unwrap();
    for (a, b) in fits.iter().zip(relic_m2::pose::sequence_box_fits(&file, false, false)) {
        assert!((a.corner - b.corner).abs() < 1e-3, "{a:?} vs {b:?}");
    }
    // Pivots ignored: inverse binds left out.
    let mut no_pivot = model.clone();
    for b in &mut no_pivot.bones {
        b.inverse_bind_matrix = relic_core::math::IDENTITY;
    }
    let bad = relic_anim::proofs::clip_box_fits(&no_pivot).unwrap();
    println!("pivot ignored: corner {:.3}", bad[0].corner);
    assert!(bad[0].corner > 1.0);
    // Quaternions conjugated (the other convention).
    let mut conjugated = model.clone();
    for a in &mut conjugated.animations {
        for c in &mut a.channels {
            if let ChannelValues::Rotation(v) = &mut c.values {
                v.iter_mut().for_each(|q| *q = [-q[0], -q[1], -q[2], q[3]]);
            }
        }
    }
    let bad = relic_anim::proofs::clip_box_fits(&conjugated).unwrap();
    println!("conjugated: corner {:.3}", bad[0].corner);
    assert!(bad[0].corner > 0.1);
    // The same two mistakes in the file's own posing.
    assert!(relic_m2::pose::sequence_box_fits(&file, true, false)[0].corner > 1.0);
    assert!(relic_m2::pose::sequence_box_fits(&file, false, true)[0].corner > 0.1);
}

#[test]
fn detection_and_refusals() {
    assert_eq!(relic_m2::detect(b"MD20\x00\x01\x00\x00").unwrap().source.version, 256);
    assert_eq!(relic_m2::detect(b"MD20\x08\x01\x00\x00").unwrap().source.version, 264);
    assert!(relic_m2::detect(b"MD21").is_some());
    assert!(relic_m2::detect(b"LTMX").is_none());
    assert!(relic_m2::detect(b"MD").is_none());
    let msg = relic_m2::read(b"MD20\x10\x01\x00\x00").unwrap_err().to_string();
    assert!(msg.contains("272") && msg.contains("only 256–263"), "{msg}");
    let checks = relic_m2::checks::corpus_checks(b"MD20\x08\x01\x00\x00");
    assert!(checks.refused());
}

#[test]
fn corpus_checks_pass_on_the_real_file() {
    let Some(bytes) = corpus() else { return };
    let checks = relic_m2::checks::corpus_checks(&bytes);
    for c in &checks.0 {
        println!("{c}");
    }
    assert!(checks.passed() && !checks.refused());
    assert_eq!(checks.0.len(), 7);
    let info = relic_m2::info(&bytes).unwrap();
    for key in [
        "bones",
        "vertices",
        "views",
        "submeshes",
        "textures",
        "sequences",
        "global_sequences",
        "attachments",
        "particles",
        "ribbons",
    ] {
        assert!(info.get(key).is_some(), "{key}");
    }
}

// ---- the shared hostile battery ----------------------------------------------------------------

mod hostile {
    use relic_testkit::{COUNT_VALUES, Field, Harness, Rng, offset_values};

    use super::{fixtures, hostile};

    /// The readers a hostile M2 meets: the file layer with its cross-checks, `info`, the model.
    fn harness<'a>() -> Harness<'a> {
        Harness::new()
            .reader("read", relic_m2::read)
            .reader("info", relic_m2::info)
            .reader("read_model", relic_m2::read_model)
    }

    /// The header's `(count, offset)` pairs in file order (spec §1: 256–263 keep the views inline,
    /// the boxes and radii sit between the lookups and the collision arrays). The three tracks of a
    /// bone and the five arrays of view 0 are added per record in [`fields`].
    const HEADER_ARRAYS: [(&str, usize); 33] = [
        ("name", 8),
        ("global_sequences", 20),
        ("sequences", 28),
        ("sequence_lookup", 36),
        ("playable_lookup", 44),
        ("bones", 52),
        ("key_bone_lookup", 60),
        ("vertices", 68),
        ("views", 76),
        ("colors", 84),
        ("textures", 92),
        ("transparency", 100),
        ("texture_flipbooks", 108),
        ("texture_transforms", 116),
        ("replaceable_texture_lookup", 124),
        ("render_flags", 132),
        ("bone_lookup", 140),
        ("texture_lookup", 148),
        ("texture_unit_lookup", 156),
        ("transparency_lookup", 164),
        ("texture_transform_lookup", 172),
        ("collision_triangles", 236),
        ("collision_vertices", 244),
        ("collision_normals", 252),
        ("attachments", 260),
        ("attachment_lookup", 268),
        ("events", 276),
        ("lights", 284),
        ("cameras", 292),
        ("camera_lookup", 300),
        ("ribbon_emitters", 308),
        ("particle_emitters", 316),
        ("blend_overrides (flag 0x8)", 324),
    ];

    fn u32_at(b: &[u8], at: usize) -> usize {
        u32::from_le_bytes(b[at..at + 4].try_into().unwrap()) as usize
    }

    #[derive(Default, Debug)]
    struct M2Fields {
        counts: Vec<Field>,
        offsets: Vec<Field>,
        parents: Vec<Field>,
        floats: Vec<Field>,
    }

    /// Counts, offsets, bone parents and the floats that matter, located by the layout.
    fn fields(bytes: &[u8]) -> M2Fields {
        let file = relic_m2::read(bytes).unwrap();
        let tbc = file.version >= 260;
        let has_overrides = file.blend_overrides.is_some();
        let mut f = M2Fields::default();
        let array = |f: &mut M2Fields, label: String, at: usize| {
            f.counts.push(Field::u32(format!("{label}.count"), at));
            f.offsets.push(Field::u32(format!("{label}.offset"), at + 4));
        };
        for (label, at) in HEADER_ARRAYS {
            if at == 324 && !has_overrides {
                continue;
            }
            array(&mut f, label.to_string(), at);
        }
        f.floats.push(Field::f32("bounding_box.min.x", 180));
        f.floats.push(Field::f32("bounding_radius", 204));
        // Bones: 108 bytes (112 from 260: a u32 after the submesh id); parent at +8; three
        // 28-byte track headers (u16 interpolation, i16 global sequence, ranges, timestamps, values).
        let (bones, bone_size) = (u32_at(bytes, 52 + 4), if tbc { 112 } else { 108 });
        for b in 0..file.bones.len() {
            let base = bones + b * bone_size;
            f.parents.push(Field::u16(format!("bones[{b}].parent"), base + 8));
            let tracks = base + if tbc { 16 } else { 12 };
            for (t, track) in ["translation", "rotation", "scale"].iter().enumerate() {
                for (a, arr) in ["ranges", "timestamps", "values"].iter().enumerate() {
                    array(&mut f, format!("bones[{b}].{track}.{arr}"), tracks + 28 * t + 4 + 8 * a);
                }
            }
            f.floats.push(Field::f32(format!("bones[{b}].pivot.y"), tracks + 84 + 4));
            // The first translation value of the first animated translation track.
            let values = u32_at(bytes, tracks + 20 + 4);
            if b == 1 && u32_at(bytes, tracks + 20) > 0 {
                f.floats.push(Field::f32(format!("bones[{b}].translation.values[0].x"), values));
            }
            let rotations = u32_at(bytes, tracks + 28 + 20 + 4);
            if b == 1 && u32_at(bytes, tracks + 28 + 20) > 0 && !tbc {
                f.floats.push(Field::f32(format!("bones[{b}].rotation.values[0].w"), rotations + 12));
            }
        }
        // Vertices (48 bytes): position, 4 weights, 4 bone indices, normal, two UVs.
        let (vertices, count) = (u32_at(bytes, 68 + 4), file.vertices.len());
        for (v, label) in [(0, "first"), (count - 1, "last")] {
            f.floats.push(Field::f32(format!("vertices[{label}].position.x"), vertices + 48 * v));
            f.floats.push(Field::f32(format!("vertices[{label}].normal.z"), vertices + 48 * v + 28));
            f.floats.push(Field::f32(format!("vertices[{label}].uv.u"), vertices + 48 * v + 32));
        }
        // View 0: indices, triangles, properties, submeshes, texture units, then u32 bone_count_max.
        let view = u32_at(bytes, 76 + 4);
        for (a, arr) in ["indices", "triangles", "properties", "submeshes", "texture_units"].iter().enumerate() {
            array(&mut f, format!("views[0].{arr}"), view + 8 * a);
        }
        f.counts.push(Field::u32("views[0].bone_count_max", view + 40));
        f
    }

    #[test]
    fn field_tables_match_the_parser() {
        for (name, bytes) in fixtures().into_iter().filter(|(n, _)| !n.contains("reordered")) {
            let file = relic_m2::read(&bytes).unwrap();
            let f = fields(&bytes);
            let get = |label: &str| f.counts.iter().find(|x| x.label == label).unwrap().read(&bytes).unwrap() as usize;
            let offset = |label: &str| f.offsets.iter().find(|x| x.label == label).unwrap().read(&bytes).unwrap();
            assert_eq!(get("bones.count"), file.bones.len(), "{name}");
            assert_eq!(get("vertices.count"), file.vertices.len(), "{name}");
            assert_eq!(offset("vertices.offset"), file.vertices.offset, "{name}");
            assert_eq!(get("particle_emitters.count"), file.particle_emitters.len(), "{name}");
            assert_eq!(offset("sequences.offset"), file.sequences.offset, "{name}");
            assert_eq!(get("views[0].submeshes.count"), file.views[0].submeshes.len(), "{name}");
            assert_eq!(offset("views[0].triangles.offset"), file.views[0].triangles.offset, "{name}");
            let b = file.bones.len() - 1;
            assert_eq!(
                get(&format!("bones[{b}].scale.timestamps.count")),
                file.bones[b].scale.timestamps.len(),
                "{name}"
            );
            assert_eq!(
                offset(&format!("bones[{b}].translation.values.offset")),
                file.bones[b].translation.values.offset,
                "{name}"
            );
            let parent = f.parents.last().unwrap().read(&bytes).unwrap() as u16 as i16;
            assert_eq!(parent, file.bones[b].parent, "{name}");
            let float =
                |label: &str| f32::from_bits(f.floats.iter().find(|x| x.label == label).unwrap().read(&bytes).unwrap());
            assert_eq!(float("vertices[last].normal.z"), file.vertices.last().unwrap().normal[2], "{name}");
            assert_eq!(float(&format!("bones[{b}].pivot.y")), file.bones[b].pivot[1], "{name}");
        }
    }

    /// Every count field (header arrays, each bone's three tracks, view 0) set to 0, 1, 2^16,
    /// 2^31 and 2^32 − 1; every offset at 0, before, at and past the end; bone parents set to form
    /// cycles, self-loops and out-of-range indices; NaN and ±∞ in positions, normals, UVs, pivots,
    /// key values, boxes.
    #[test]
    fn hostile_fields_are_survived() {
        let mut h = harness();
        for (name, bytes) in fixtures().into_iter().filter(|(n, _)| !n.contains("reordered")) {
            let f = fields(&bytes);
            h.fields(&name, &bytes, &f.counts, &COUNT_VALUES);
            h.fields(&name, &bytes, &f.offsets, &offset_values(bytes.len()));
            h.floats(&name, &bytes, &f.floats);
            // Parents: every bone pointed at itself, at the last bone (a cycle through the root
            // for every bone before it), and past the end.
            let last = f.parents.len() as u32 - 1;
            h.fields(&name, &bytes, &f.parents, &[0, last, last + 1, 0x7FFF, 0xFFFE]);
            for (b, field) in f.parents.iter().enumerate() {
                h.input(&format!("{name} bones[{b}] its own parent"), &field.with(&bytes, b as u32));
            }
            // Two bones each other's parent.
            if f.parents.len() >= 3 {
                let two = f.parents[1].with(&f.parents[2].with(&bytes, 1), 2);
                h.input(&format!("{name} bones 1 and 2 each other's parent"), &two);
                let err = relic_m2::read(&two).unwrap_err();
                assert!(err.to_string().contains("cycle") || err.to_string().contains("parent"), "{name}: {err}");
            }
        }
        println!("{} inputs", h.inputs());
        h.finish();
    }

    #[test]
    fn every_single_byte_change_of_every_fixture() {
        let mut h = Harness::new().reader("read_model", relic_m2::read_model);
        for (name, bytes) in fixtures() {
            h.byte_changes(&name, &bytes);
        }
        println!("{} inputs, {} read", h.inputs(), h.accepted());
        h.finish();
    }

    #[test]
    fn ten_thousand_random_mutations() {
        let mut files = fixtures();
        files.extend(hostile());
        let mut h = harness();
        let mut rng = Rng::new(0x0032_0010);
        h.mutations_over(&files, &mut rng, 10_000);
        h.finish();
    }

    /// NaN and ±∞ read from a file stay out of every written file: writers refuse such a model.
    #[test]
    fn non_finite_floats_never_reach_a_written_file() {
        let files: Vec<_> = fixtures().into_iter().filter(|(n, _)| !n.contains("reordered")).collect();
        let write = |m: &relic_core::Model| Some(relic_m2::write_model(m, &Default::default()).map(|_| ()));
        let refused = relic_testkit::bad_floats_are_refused(
            &files,
            |_, bytes| fields(bytes).floats,
            |_, input| relic_m2::read_model(input).ok(),
            &[("m2", &write)],
        );
        println!("{refused} refusals");
        // 285 when written: a drifted field table or a reader that starts refusing NaN shows here.
        assert!(refused >= 200, "{refused}");
    }
}

/// Regression (m2 fuzz target, a mutated GnomePounder): an empty texture-flipbook array with a
/// stale offset read as `[0, 15]`, the layout pass wrote `(0, 0)`, so the re-parse differed.
#[test]
fn an_empty_flipbook_array_with_a_stale_offset_re_parses_equal() {
    let mut bytes = std::fs::read(fixtures_dir().join("v256_linear.m2")).unwrap();
    bytes[108 + 4..108 + 8].copy_from_slice(&15u32.to_le_bytes()); // texture_flipbooks.offset
    let file = relic_m2::read(&bytes).unwrap();
    let again = relic_m2::read(&relic_m2::write(&file)).unwrap();
    assert!(again == file, "flipbooks {:?} re-parse as {:?}", file.texture_flipbooks, again.texture_flipbooks);
}

/// Regression (writer property test): a model without bones whose animation has an event. The
/// writer put the event on bone 0 of a file with no bones, which its reader refuses.
#[test]
fn events_of_a_model_without_bones_do_not_break_the_file() {
    use relic_core::model::*;
    let model = Model {
        name: "no bones".into(),
        meshes: vec![Mesh {
            name: "m".into(),
            positions: vec![[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
            triangles: vec![[0, 1, 2]],
            ..Mesh::default()
        }],
        animations: vec![Animation {
            name: "Stand".into(),
            duration: 1.0,
            events: vec![Event { time: 0.5, name: "$CSS".into(), ..Event::default() }],
            ..Animation::default()
        }],
        ..Model::default()
    };
    model.validate().unwrap();
    let out = relic_m2::write_model(&model, &WriteOptions::default()).unwrap();
    let back = relic_m2::read_model(&out.value).unwrap_or_else(|e| panic!("the written file does not read: {e}"));
    back.validate().unwrap();
}

/// Regression (gltf fuzz target): M2 extras that come back as edited JSON (through glTF) with
/// cross-references the model does not satisfy (a key-bone lookup naming bone −2, a transparency
/// lookup past the texture weights) were written as they were, into files the reader refuses.
#[test]
fn inconsistent_json_extras_never_make_a_file_the_reader_refuses() {
    let bytes = std::fs::read(fixtures_dir().join("v256_linear.m2")).unwrap();
    let model = relic_m2::read_model(&bytes).unwrap();
    let json = model.extras.as_ref().unwrap().json().unwrap();
    for (field, bad) in [("\"key_bone_lookup\":[", "-2,"), ("\"transparency_lookup\":[", "7,")] {
        let at = json.find(field).unwrap_or_else(|| panic!("{field} not in the extras")) + field.len();
        let edited = format!("{}{bad}{}", &json[..at], &json[at..]);
        let mut m = model.clone();
        m.extras = Some(relic_core::model::FormatExtras::from_json(relic_m2::FORMAT, edited));
        match relic_m2::write_model(&m, &WriteOptions::default()) {
            Ok(out) => {
                let back = relic_m2::read_model(&out.value);
                assert!(back.is_ok(), "{field}: the written file does not read: {}", back.unwrap_err());
                assert!(out.losses.iter().any(|l| l.element == "extras"), "{field}: {:?}", out.losses);
            }
            Err(e) => panic!("{field}: {e}"),
        }
    }
}

/// Regression (gltf fuzz target, key times of 1.9e34 s from an edited .glb): milliseconds were
/// summed in i64 without bounds, an overflow (a panic in debug builds, wrapped garbage in release).
#[test]
fn huge_key_and_event_times_do_not_overflow() {
    let bytes = std::fs::read(fixtures_dir().join("v256_linear.m2")).unwrap();
    let mut model = relic_m2::read_model(&bytes).unwrap();
    model.extras = None;
    for (i, a) in model.animations.iter_mut().enumerate() {
        for c in &mut a.channels {
            if c.times.len() >= 2 {
                let n = c.times.len();
                c.times[n - 1] = if i == 0 { 1.8e34 } else { f32::MAX };
            }
        }
        a.events.push(relic_core::model::Event { time: -1.0e34, name: "$CSS".into(), ..Default::default() });
        a.duration = 1.0e30;
    }
    model.validate().unwrap();
    let out = relic_m2::write_model(&model, &WriteOptions::default()).unwrap();
    relic_m2::read_model(&out.value).unwrap();
}
