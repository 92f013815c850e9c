//! The writer on models that did not come from an M2: more than four influences, bone palettes
//! of every view, compressed quaternions.

// Test helpers: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::{fixture, palettes_hold};
use relic_core::WriteOptions;
use relic_core::model::{Influence, Model, Skin};

#[test]
fn compressed_quaternions_round_trip_every_code() {
    use relic_m2::file::{decode_component, encode_component};
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
    let d = relic_m2::file::decode_quat(relic_m2::file::encode_quat(q));
    assert!(relic_core::math::max_abs_diff(&q, &d) <= 0.5 / 32767.0 + 1e-7);
}

#[test]
fn more_than_four_influences_are_pruned_with_a_loss() {
    let bytes = fixture("v256_linear.m2");
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
        assert!(palettes_hold(v, &file));
        for s in v.submeshes.iter() {
            assert!(u32::from(s.bone_count) <= v.bone_count_max);
        }
    }
    // 12 bones exceed no budget; with 40 bones view 3 (21) must split.
    let big = synthetic(2000, 40, 1);
    let file = relic_m2::read(&relic_m2::write_model(&big, &WriteOptions::default()).unwrap().value).unwrap();
    assert!(file.views[3].submeshes.len() > file.views[0].submeshes.len());
    for v in file.views.iter() {
        assert!(palettes_hold(v, &file));
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

/// A field the version's layout stores but the record lacks (a record made for another layout)
/// is refused by name when written, not filled with zeros.
#[test]
fn a_field_the_layout_stores_cannot_be_absent() {
    use relic_m2::M2File;
    use relic_m2::file::{Camera, Submesh, View};
    let submesh = Submesh { sort_center: None, sort_radius: Some(1.0), ..Submesh::default() };
    let view = View { submeshes: vec![submesh].into(), ..View::default() };
    let tbc = M2File { version: 260, views: vec![view.clone()].into(), ..M2File::default() };
    let e = relic_m2::write(&tbc).unwrap_err().to_string();
    assert!(e.contains("Submesh.sort_center"), "{e}");
    // Classic's submesh has no sort centre: nothing is missing.
    assert!(relic_m2::write(&M2File { version: 256, ..tbc }).is_ok());
    let camera = Camera { field_of_view: None, ..Camera::default() };
    let file = M2File { version: 256, cameras: vec![camera].into(), ..M2File::default() };
    let e = relic_m2::write(&file).unwrap_err().to_string();
    assert!(e.contains("Camera.field_of_view"), "{e}");
}

/// A mesh whose part id does not fit M2's u16 geoset id is written as geoset 0 with a loss.
#[test]
fn a_part_id_past_u16_is_a_loss() {
    let mut model = relic_m2::read_model(&fixture("v256_linear.m2")).unwrap();
    model.extras = None;
    model.meshes[0].part_id = Some(70_000);
    let out = relic_m2::write_model(&model, &WriteOptions::default()).unwrap();
    assert!(out.losses.iter().any(|l| l.what.contains("part id")), "{:?}", out.losses);
}

/// A replaceable texture type read from a file may be any u32 (the `m2_md21` fuzz target's
/// out-of-memory finding: type 1954048326 sized the replaceable lookup, 4 GB of i16 for a
/// 5,406-byte file). The lookup gets no slot past the types the game knows, with a loss; the
/// texture keeps its type.
#[test]
fn a_replaceable_type_past_the_lookup_is_not_entered() {
    let mut model = synthetic(16, 2, 0);
    model.materials[0].textures[0].replaceable = Some(1_954_048_326);
    for version in [256, 263] {
        let out = relic_m2::write_model(&model, &WriteOptions { version: Some(version) }).unwrap();
        let said = out.losses.iter().any(|l| l.what.contains("replaceable type 1954048326 is past the 256 slots"));
        assert!(said, "v{version}: {:?}", out.losses);
        let file = relic_m2::read(&out.value).unwrap();
        assert!(file.replaceable_texture_lookup.len() <= 256, "v{version}");
        assert_eq!(file.textures[0].kind, 1_954_048_326, "v{version}");
    }
}
