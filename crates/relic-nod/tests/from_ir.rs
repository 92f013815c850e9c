//! Common model → NOD for models the format cannot hold as they are: more than two influences,
//! second influences that are not the parent, more than 64 bones, several roots, groups over
//! 65535 vertices, edited NOD models, foreign extras. Each gives a clear error or a reported
//! reduction, and the result reads back.

// Test code: a failed unwrap or index is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::path::Path;

use relic_core::model::{
    Animation, Bone, Channel, ChannelValues, Clock, FormatExtras, Influence, Interpolation, Material, Mesh, Model, Skin,
};
use relic_core::{Loss, WriteError, WriteOptions};
use relic_nod::options::NadOptions;

fn read(name: &str) -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/nod").join(name)).unwrap()
}

fn losses_text(losses: &[Loss]) -> String {
    losses.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")
}

/// Every vertex of the NOD model has at most two influences, the second on the first's parent.
fn assert_legal_skin(model: &Model) {
    for mesh in &model.meshes {
        for v in 0..mesh.positions.len() {
            match mesh.skin.vertex(v) {
                [] | [_] => {}
                [a, b] => assert_eq!(model.bones[a.bone as usize].parent, Some(b.bone as usize)),
                more => panic!("{} influences", more.len()),
            }
        }
    }
}

/// A chain of `n` bones one unit apart along Y (in the model's Y-up frame).
fn chain(n: usize) -> Vec<Bone> {
    relic_testkit::bone_chain(n, "b")
}

/// A strip mesh of `n` vertices skinned with `skin(i)`.
fn strip(n: usize, skin: impl Fn(usize) -> Vec<Influence>) -> Mesh {
    Mesh {
        name: "strip".into(),
        material: Some(0),
        positions: (0..n).map(|i| [(i / 2) as f32 * 0.01, (i % 2) as f32, 0.0]).collect(),
        // The strip's triangles turn counter-clockwise seen from −Z.
        normals: vec![[0.0, 0.0, -1.0]; n],
        uv_sets: vec![(0..n).map(|i| [(i % 7) as f32 / 7.0, 0.5]).collect()],
        skin: Skin::from_vertices((0..n).map(skin)),
        triangles: (0..n.saturating_sub(2) as u32)
            .map(|i| if i % 2 == 0 { [i, i + 1, i + 2] } else { [i + 1, i, i + 2] })
            .collect(),
        ..Mesh::default()
    }
}

fn wave(bone: usize) -> Animation {
    let s = std::f32::consts::FRAC_1_SQRT_2;
    Animation {
        name: "wave".into(),
        duration: 1.0,
        channels: vec![Channel {
            bone,
            clock: Clock::Animation,
            interpolation: Interpolation::Linear,
            times: vec![0.0, 1.0],
            values: ChannelValues::Rotation(vec![[0.0, 0.0, 0.0, 1.0], [0.0, 0.0, s, s]]),
        }],
        ..Animation::default()
    }
}

fn model(bones: Vec<Bone>, mesh: Mesh) -> Model {
    Model {
        name: "test".into(),
        bones,
        meshes: vec![mesh],
        materials: vec![Material { name: "skin".into(), ..Material::default() }],
        ..Model::default()
    }
}

#[test]
fn extra_and_non_parent_influences_are_reweighted_with_the_error_reported() {
    let mut m = relic_nod::read_model(&read("skinned.nod")).unwrap();
    relic_nod::attach_animation(&mut m, &read("walk.nad"), "walk", &NadOptions::default()).unwrap();
    let mesh = &mut m.meshes[1];
    let mut vertices: Vec<Vec<Influence>> = (0..mesh.positions.len()).map(|v| mesh.skin.vertex(v).to_vec()).collect();
    // Two siblings (2 and 3 are both children of 1), and three influences.
    vertices[0] = vec![Influence { bone: 2, weight: 0.6 }, Influence { bone: 3, weight: 0.4 }];
    vertices[1] = vec![
        Influence { bone: 0, weight: 0.2 },
        Influence { bone: 1, weight: 0.3 },
        Influence { bone: 2, weight: 0.5 },
    ];
    mesh.skin = Skin::from_vertices(vertices);
    let out = relic_nod::write_model(&m, &WriteOptions::default()).unwrap();
    let text = losses_text(&out.losses);
    let line = text.lines().find(|l| l.contains("re-weighted")).unwrap_or_else(|| panic!("{text}"));
    assert!(line.starts_with("meshes[1] \"arms\": 2 vertices"), "{line}");
    assert!(line.contains("largest weight moved 0.400"), "{line}");
    assert!(line.contains("at the rest pose") && line.contains("sampled animation poses"), "{line}");
    // The bind pose cannot show a re-weighting (every skin matrix is the identity there); the
    // poses of the walk do.
    let rest: f32 = line.split("position error ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    assert!(rest < 1e-4, "{line}");
    let posed: f32 = line.split("largest ").nth(2).unwrap().split(' ').next().unwrap().parse().unwrap();
    assert!(posed > 0.01, "{line}");
    let back = relic_nod::read_model(&out.value).unwrap();
    assert_legal_skin(&back);
    assert_eq!(back.meshes[1].skin.vertex(0), &[Influence { bone: 2, weight: 1.0 }]);
    let v1 = back.meshes[1].skin.vertex(1);
    assert_eq!((v1[0].bone, v1[1].bone), (2, 1));
    assert!((v1[0].weight - 0.625).abs() < 1e-6);
    relic_anim::proofs::rest_pose(&back, 1e-4).unwrap();
}

#[test]
fn unused_bones_beyond_64_are_dropped_and_too_many_used_ones_refused() {
    let mut m = model(chain(80), strip(40, |i| vec![Influence { bone: (i % 10) as u32, weight: 1.0 }]));
    m.animations.push(wave(50));
    m.animations.push(wave(3));
    let out = relic_nod::write_model(&m, &WriteOptions::default()).unwrap();
    let text = losses_text(&out.losses);
    assert!(text.contains("bones: 70 of 80 bones move no vertex and hold no attachment; dropped"), "{text}");
    let back = relic_nod::read_model(&out.value).unwrap();
    assert_eq!(back.bones.len(), 10);
    relic_anim::proofs::rest_pose(&back, 1e-4).unwrap();
    let lost = relic_nod::write_animation(&m, 0, &NadOptions::default()).unwrap();
    assert!(losses_text(&lost.losses).contains("bone 50 is not in the NOD: channel dropped"));
    let kept = relic_nod::write_animation(&m, 1, &NadOptions::default()).unwrap();
    assert_eq!(relic_nod::read_nad(&kept.value).unwrap().tracks[0].bone, 3);

    let all_used = model(chain(80), strip(160, |i| vec![Influence { bone: (i / 2) as u32, weight: 1.0 }]));
    let err = relic_nod::write_model(&all_used, &WriteOptions::default()).unwrap_err();
    assert!(
        matches!(&err, WriteError::Unsupported(t) if t.contains("80 of them move vertices") && t.contains("at most 64")),
        "{err}"
    );
}

#[test]
fn several_roots_get_one_added_root() {
    let mut bones = chain(2);
    bones.push(Bone { name: "prop".into(), parent: None, ..Bone::default() });
    let mut m = model(bones, strip(12, |i| vec![Influence { bone: if i < 6 { 1 } else { 2 }, weight: 1.0 }]));
    m.animations.push(wave(2));
    let out = relic_nod::write_model(&m, &WriteOptions::default()).unwrap();
    assert!(losses_text(&out.losses).contains("the model has 2 root bones; a NOD has one: added a root bone"));
    let back = relic_nod::read_model(&out.value).unwrap();
    assert_eq!(back.bones.iter().map(|b| b.parent).collect::<Vec<_>>(), vec![None, Some(0), Some(1), Some(0)]);
    relic_anim::proofs::rest_pose(&back, 1e-5).unwrap();
    let nad = relic_nod::write_animation(&m, 0, &NadOptions::default()).unwrap();
    assert_eq!(relic_nod::read_nad(&nad.value).unwrap().tracks[0].bone, 3, "model bone 2 is NOD bone 3");
}

#[test]
fn groups_over_65535_vertices_are_split() {
    let n = 70_000;
    let m = model(chain(2), strip(n, |i| vec![Influence { bone: (i % 2) as u32, weight: 1.0 }]));
    let out = relic_nod::write_model(&m, &WriteOptions::default()).unwrap();
    let text = losses_text(&out.losses);
    assert!(text.contains("70000 vertices and 69998 triangles split into 2 groups of at most 65535"), "{text}");
    let back = relic_nod::read_model(&out.value).unwrap();
    assert_eq!(back.meshes.len(), 2);
    assert!(back.meshes.iter().all(|g| g.positions.len() <= 65_535 && g.name == "strip"));
    // The same triangles, by their corners' positions.
    let corners = |model: &Model| {
        let mut out: Vec<[u32; 9]> = model
            .meshes
            .iter()
            .flat_map(|mesh| {
                mesh.triangles.iter().map(move |t| {
                    let p = t.map(|i| mesh.positions[i as usize]);
                    std::array::from_fn(|k| p[k / 3][k % 3].to_bits())
                })
            })
            .collect();
        out.sort_unstable();
        out
    };
    let (a, b) = (corners(&back), corners(&m));
    assert_eq!(a.len(), b.len());
    let first = a.iter().zip(&b).position(|(x, y)| x != y);
    assert!(first.is_none(), "first difference at {first:?}: {:?} vs {:?}", first.map(|i| a[i]), first.map(|i| b[i]));
    relic_anim::proofs::rest_pose(&back, 1e-4).unwrap();
}

#[test]
fn a_model_from_elsewhere_writes_a_nod_that_reads_back() {
    // Four influences per vertex along a chain, several meshes, no normals, two UV sets, long names.
    let mut mesh = strip(30, |i| {
        let b = (i % 6) as u32;
        (0..4).map(|k| Influence { bone: (b + k) % 8, weight: 0.25 }).collect()
    });
    mesh.normals.clear();
    mesh.uv_sets.push(mesh.uv_sets[0].clone());
    let mut m = model(chain(8), mesh.clone());
    m.meshes.push(Mesh { name: "a mesh name that is far longer than thirty-one characters".into(), ..mesh });
    m.materials[0].name = "material name longer than thirty-one bytes".into();
    m.animations.push(wave(4));
    let out = relic_nod::write_model(&m, &WriteOptions::default()).unwrap();
    let text = losses_text(&out.losses);
    for expected in [
        "has no normals: computed",
        "1 UV sets beyond the first dropped",
        "re-weighted",
        "31 Windows-1252 characters",
        "each is a NAD (write_animation) file of its own",
    ] {
        assert!(text.contains(expected), "{expected}: {text}");
    }
    let back = relic_nod::read_model(&out.value).unwrap();
    assert_legal_skin(&back);
    relic_anim::proofs::rest_pose(&back, 1e-4).unwrap();
    assert_eq!(back.materials[0].name, "material name longer than thirt");
    assert!(back.meshes[0].normals.iter().all(|n| (relic_core::math::max_abs_diff(n, &[0.0, 0.0, 1.0]) < 1e-6)
        || (relic_core::math::max_abs_diff(n, &[0.0, 0.0, -1.0]) < 1e-6)));
}

#[test]
fn edited_nod_models_drop_only_what_no_longer_fits() {
    // Moving a vertex: the stored box is replaced, everything else kept.
    let mut m = relic_nod::read_model(&read("skinned_lod.nod")).unwrap();
    m.meshes[0].positions[0][0] += 100.0;
    let out = relic_nod::write_model(&m, &WriteOptions::default()).unwrap();
    assert_eq!(out.losses.len(), 1, "{:?}", out.losses);
    assert!(out.losses[0].what.contains("stored box is replaced"));
    let file = relic_nod::read(&out.value).unwrap();
    assert!(file.lod.is_some(), "the LOD table still fits");
    // The model's +X is the NOD's −X (the character's left): the box's minimum X moves out.
    assert!(file.bounds[0] < -75.0, "{:?}", file.bounds);
    // Reordering triangles: the collapse table no longer applies.
    let mut m = relic_nod::read_model(&read("skinned_lod.nod")).unwrap();
    m.meshes[1].triangles.reverse();
    let out = relic_nod::write_model(&m, &WriteOptions::default()).unwrap();
    assert!(losses_text(&out.losses).contains("LOD collapse table no longer applies"), "{:?}", out.losses);
    assert!(relic_nod::read(&out.value).unwrap().lod.is_none());
    // Removing a mesh: the group data is rebuilt.
    let mut m = relic_nod::read_model(&read("skinned_lod.nod")).unwrap();
    m.meshes.pop();
    let out = relic_nod::write_model(&m, &WriteOptions::default()).unwrap();
    let text = losses_text(&out.losses);
    assert!(text.contains("no longer fits its meshes") && text.contains("LOD collapse table no longer fits"), "{text}");
    assert!(relic_nod::read_model(&out.value).is_ok());
    // Rebinding a NOSKINNING group's vertex: the flag is dropped, the new binding written.
    let mut m = relic_nod::read_model(&read("static_groups.nod")).unwrap();
    let mut vertices: Vec<Vec<Influence>> =
        (0..m.meshes[0].positions.len()).map(|v| m.meshes[0].skin.vertex(v).to_vec()).collect();
    vertices[3] = vec![Influence { bone: 1, weight: 1.0 }];
    m.meshes[0].skin = Skin::from_vertices(vertices);
    let out = relic_nod::write_model(&m, &WriteOptions::default()).unwrap();
    assert!(losses_text(&out.losses).contains("groups[0]: the vertex bindings changed"), "{:?}", out.losses);
    let back = relic_nod::read_model(&out.value).unwrap();
    assert_eq!(back.meshes[0].skin.vertex(3), &[Influence { bone: 1, weight: 1.0 }]);
    assert_eq!(back.meshes[0].skin.vertex(2), &[Influence { bone: 2, weight: 1.0 }]);
}

#[test]
fn version_and_foreign_extras() {
    let mut m = relic_nod::read_model(&read("triangle.nod")).unwrap();
    let err = relic_nod::write_model(&m, &WriteOptions { version: Some(6) }).unwrap_err();
    assert!(err.to_string().contains("NOD version 6 cannot be written"), "{err}");
    assert!(relic_nod::write_model(&m, &WriteOptions { version: Some(7) }).is_ok());
    m.extras = Some(FormatExtras::from_json(relic_core::FormatId::new("abc"), "{}".into()));
    let out = relic_nod::write_model(&m, &WriteOptions::default()).unwrap();
    assert!(
        losses_text(&out.losses).contains("abc-specific data travels with the model but cannot be written to a NOD")
    );
    m.extras = Some(FormatExtras::from_json(relic_nod::FORMAT, "not json".into()));
    let out = relic_nod::write_model(&m, &WriteOptions::default()).unwrap();
    assert!(losses_text(&out.losses).contains("NOD extras are unreadable"));
    // An invalid model is refused before anything is written.
    m.meshes[0].triangles.push([0, 1, 9]);
    assert!(matches!(relic_nod::write_model(&m, &WriteOptions::default()), Err(WriteError::InvalidModel(_))));
}

/// Regression (glTF fuzz target): NOD extras edited through glTF with a bone link out of range
/// (sibling −2) were written as they were, and the written NOD failed its own reader. The links
/// are now derived from the hierarchy, with a loss.
#[test]
fn out_of_range_links_in_edited_extras_are_derived_not_written() {
    use relic_core::model::FormatExtras;
    let mut model = relic_nod::read_model(&read("skinned.nod")).unwrap();
    let json = model.extras.as_ref().unwrap().json().unwrap();
    let mut value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let bones = value["nod"]["bones"].as_array_mut().expect("the extras keep the NOD's bones");
    assert!(bones.len() >= 2);
    bones[1]["sibling"] = serde_json::json!(-2);
    model.extras = Some(FormatExtras::from_json(relic_nod::FORMAT, value.to_string()));
    let out = relic_nod::write_model(&model, &Default::default()).unwrap();
    let back = relic_nod::read_model(&out.value).unwrap_or_else(|e| panic!("the written NOD does not read: {e}"));
    assert_eq!(back.bones.len(), model.bones.len());
    assert!(out.losses.iter().any(|l| l.to_string().contains("bone links out of range")), "{:?}", out.losses);
}
