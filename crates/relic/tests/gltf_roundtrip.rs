//! IR → glTF → IR round trips, and "animates the same" checks of the baked exports.

// Test helpers: a failure must stop the test loudly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

mod common;

use relic_core::Model;

use common::{posed, strip_extras, weights_match_then_align, worst};
use relic_core::model::{ChannelValues, Interpolation};
use relic_gltf::{ExportOptions, GltfError, export_glb, export_gltf, import, samples};

fn exact() -> ExportOptions {
    ExportOptions { quaternion_continuity: false, keep_tangents: true, ..ExportOptions::default() }
}

fn glb_round_trip(model: &Model, options: &ExportOptions) -> Model {
    let glb = export_glb(model, options).unwrap();
    let back = import(&glb.value, None).unwrap();
    assert_eq!(back.validate(), Ok(()));
    back
}

#[test]
fn every_sample_comes_back_equal() {
    for (name, model) in samples::all() {
        let mut back = glb_round_trip(&model, &exact());
        weights_match_then_align(&model, &mut back);
        assert_eq!(back, model, "{name}");
    }
}

#[test]
fn rich_sample_keeps_what_the_issue_names() {
    let model = samples::skinned_animated();
    let back = glb_round_trip(&model, &exact());
    // Skeleton, six influences per vertex, LODs, morphs, materials with texture names, clips with
    // cubic and step keys, events, attachments and format extras: all there, by value.
    assert_eq!(
        back.bones.iter().map(|b| b.name.as_str()).collect::<Vec<_>>(),
        ["root", "hips", "spine", "chest", "head", "arm_l", "arm_r"]
    );
    assert_eq!(back.meshes[0].skin.max_influences(), 6);
    assert_eq!(back.meshes[1].lod.level, 1);
    assert_eq!(back.meshes[1].lod.distance, 12.5);
    assert_eq!(back.meshes[2].morph_targets[0].name, "smile");
    assert_eq!(back.materials[1].textures[0].path, "TEXTURES\\SAMPLE\\SKIN1.BLP");
    assert_eq!(back.materials[1].textures[0].replaceable, Some(11));
    let wave = &back.animations[1];
    assert_eq!(wave.channels[0].interpolation, Interpolation::CubicSpline);
    assert_eq!(back.animations[2].channels[0].interpolation, Interpolation::Step);
    assert_eq!(back.animations[2].morph_channels[0].weights, vec![0.0, 0.0, 0.5, 1.0, 0.0, 0.0]);
    assert_eq!(back.animations[0].events[0].name, "footstep left");
    assert!(back.animations[3].channels.is_empty(), "the hold channel of a morph-only clip is not imported");
    assert_eq!(back.animations[3].morph_channels.len(), 1);
    assert!(back.animations[4].channels.is_empty(), "the hold channel of an empty clip is not imported");
    assert_eq!(back.attachments[0].name, "hand_r");
    let fx = back.extras.as_ref().unwrap();
    assert_eq!(fx.format(), relic_abc::FORMAT);
    assert!(fx.json().unwrap().contains("weight_sets"));
}

#[test]
fn continuity_flips_signs_but_not_rotations() {
    let model = samples::skinned_animated();
    let glb = export_glb(&model, &ExportOptions::default()).unwrap().value;
    // The last key of arm_l's turn was stored in the far hemisphere: the glTF keys (its long
    // arcs cut on the way) never flip from one to the next...
    let document = gltf::Gltf::from_slice(&glb).unwrap();
    let blob = document.blob.as_deref().unwrap();
    let clip = document.animations().next().unwrap();
    let turn = clip
        .channels()
        .find(|c| {
            c.target().node().name() == Some("arm_l") && c.target().property() == gltf::animation::Property::Rotation
        })
        .unwrap();
    let reader = turn.reader(|_| Some(blob));
    let Some(gltf::animation::util::ReadOutputs::Rotations(rotations)) = reader.read_outputs() else {
        panic!("rotation outputs expected")
    };
    let keys: Vec<[f32; 4]> = rotations.into_f32().collect();
    assert!(keys.len() > 3, "the long arcs are cut");
    let dot = |a: &[f32; 4], b: &[f32; 4]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f32>();
    assert!(keys.windows(2).all(|w| dot(&w[0], &w[1]) >= 0.0), "{keys:?}");
    // ...and relic's import gives the stored channel back, its far key as it was.
    let back = import(&glb, None).unwrap();
    assert_eq!(back.animations[0].channels[1], model.animations[0].channels[1]);
    let ChannelValues::Rotation(a) = &model.animations[0].channels[1].values else {
        panic!("rotation channel expected")
    };
    assert!(dot(&a[1], &a[2]) < 0.0, "the sample stores its last key in the far hemisphere");
}

#[test]
fn gltf_with_external_bin_round_trips() {
    let model = samples::skinned_animated();
    let dir = tempfile::tempdir().unwrap();
    let out = export_gltf(&model, &exact(), "sample.bin").unwrap();
    let (json, bin) = out.value;
    assert!(json.contains("\"uri\": \"sample.bin\""));
    std::fs::write(dir.path().join("sample.gltf"), &json).unwrap();
    std::fs::write(dir.path().join("sample.bin"), &bin).unwrap();
    let bytes = std::fs::read(dir.path().join("sample.gltf")).unwrap();
    let mut back = import(&bytes, Some(dir.path())).unwrap();
    weights_match_then_align(&model, &mut back);
    assert_eq!(back, model);
    // Without the folder the external buffer cannot be found: a clear error, no panic.
    assert!(matches!(import(&bytes, None), Err(GltfError::Resource { .. })));
}

#[test]
fn lod0_only_drops_other_levels() {
    let model = samples::skinned_animated();
    let options = ExportOptions { lod0_only: true, ..exact() };
    let back = glb_round_trip(&model, &options);
    assert_eq!(back.meshes.len(), model.meshes.len() - 1);
    assert!(back.meshes.iter().all(|m| m.lod.level == 0));
    // The morph channel of mesh 2 now targets mesh 1.
    assert_eq!(back.animations[2].morph_channels[0].mesh, 1);
}

#[test]
fn export_refuses_an_invalid_model() {
    let mut model = samples::skinned_animated();
    model.bones[1].parent = Some(3);
    let err = export_glb(&model, &ExportOptions::default()).unwrap_err();
    assert!(matches!(err, GltfError::InvalidModel(_)), "{err}");
    assert!(err.to_string().contains("bones[1]"), "{err}");
}

/// What a plain glTF viewer shows (no relic extras, plain node composition) moves every vertex as
/// relic-anim moves the original model: at rest, and at every key and bake sample of every clip.
#[test]
fn exports_animate_the_same_without_relic_extras() {
    for (name, model) in samples::all() {
        let glb = export_glb(&model, &ExportOptions::default()).unwrap();
        let plain = import(&strip_extras(&glb.value), None).unwrap();
        assert!(plain.bones.iter().all(|b| b.flags == Default::default()), "{name}: flags are extras only");
        let rest = worst(&posed(&model, None, 0.0), &posed(&plain, None, 0.0));
        assert!(rest < 1e-5, "{name}: rest pose differs by {rest}");
        for (a, anim) in model.animations.iter().enumerate() {
            let n = 60;
            let mut max = 0.0f32;
            // Times on the 30 fps bake grid (every key of the samples is on it too).
            for k in 0..=n {
                let t = (k as f32 / 30.0).min(anim.duration);
                max = max.max(worst(&posed(&model, Some(a), t), &posed(&plain, Some(a), t)));
            }
            assert!(max < 2e-4, "{name} {}: posed vertices differ by {max}", anim.name);
        }
    }
}

/// Without baking the flags, a plain viewer would show something else: the check above can fail.
#[test]
fn ignoring_the_flags_would_be_visible() {
    let model = samples::flagged_bones();
    let mut unflagged = model.clone();
    for b in &mut unflagged.bones {
        b.flags = Default::default();
    }
    let d = worst(&posed(&model, Some(0), 0.5), &posed(&unflagged, Some(0), 0.5));
    assert!(d > 0.1, "the sample's flags must matter ({d})");
}

#[test]
fn textures_are_embedded_only_where_an_image_exists() {
    let model = samples::skinned_animated();
    let dir = tempfile::tempdir().unwrap();
    samples::write_textures(dir.path()).unwrap();
    let source = relic_gltf::textures::DirTextures::new(dir.path());
    let options = ExportOptions { textures: Some(std::sync::Arc::new(source)), ..exact() };
    let built = relic_gltf::export::build(&model, &options, None).unwrap();
    let root = &built.value.root;
    // skin0 (by path) and SKIN2 (by stem) are PNGs; skin1.jpg is not an image: reported, and
    // every texture without a file is a note naming where relic looked.
    assert_eq!(root.images.len(), 2);
    let textured: Vec<bool> =
        root.materials.iter().map(|m| m.pbr_metallic_roughness.base_color_texture.is_some()).collect();
    assert_eq!(textured, [true, false, true, false, false, false, false]);
    assert!(built.losses.iter().any(|l| l.what.contains("not a PNG or JPEG")), "{:?}", built.losses);
    let missing = built.losses.iter().filter(|l| l.what.contains("not found")).count();
    assert_eq!(missing, 4, "{:?}", built.losses);
    // The fixed UV transform of material 2 travels as KHR_texture_transform.
    let info = root.materials[2].pbr_metallic_roughness.base_color_texture.as_ref().unwrap();
    let transform = info.extensions.as_ref().and_then(|e| e.texture_transform.as_ref()).unwrap();
    assert_eq!((transform.offset.0, transform.scale.0), ([0.25, 0.0], [2.0, 1.0]));
    assert!(root.extensions_used.iter().any(|e| e == "KHR_texture_transform"));
    // The game's texture names survive either way.
    let glb = export_glb(&model, &options).unwrap();
    let mut back = import(&glb.value, None).unwrap();
    weights_match_then_align(&model, &mut back);
    assert_eq!(back, model);
}

/// A format's extras travel as the text the format wrote: JSON is embedded verbatim (key order
/// and number spelling kept, not re-parsed into a sorted tree), and text that is not JSON (extras
/// edited by hand) comes back as the same text.
#[test]
fn format_extras_text_comes_back_verbatim() {
    use relic_core::model::FormatExtras;
    for text in [r#"{"zeta":1,"alpha":[1.50e-7,2],"nested":{"b":true,"a":null}}"#, "not json {", ""] {
        let mut model = samples::all().into_iter().next().unwrap().1;
        model.extras = Some(FormatExtras::from_json(relic_m2::FORMAT, text.to_string()));
        let back = glb_round_trip(&model, &exact());
        let extras = back.extras.as_ref().unwrap();
        assert_eq!(extras.format(), relic_m2::FORMAT);
        assert_eq!(extras.json().as_deref(), Some(text));
    }
}

/// Regression (glTF fuzz target): a model with nothing to place exports a scene without `nodes`
/// (valid glTF 2.0: the list is optional), which gltf-json 1.4 refused to read back. Import fills
/// the list in; another tool's empty scene imports too.
#[test]
fn a_scene_without_nodes_imports() {
    let empty = Model { name: "empty".into(), ..Model::default() };
    let glb = export_glb(&empty, &exact()).unwrap();
    let back = import(&glb.value, None).unwrap_or_else(|e| panic!("{e}"));
    assert!(back.bones.is_empty() && back.meshes.is_empty());
    assert_eq!(back.name, "empty");
    let foreign = br#"{"asset":{"version":"2.0"},"scene":0,"scenes":[{"name":"nothing"}]}"#;
    let model = import(foreign, None).unwrap_or_else(|e| panic!("{e}"));
    assert!(model.meshes.is_empty());
}

/// Issue 27 class 6: a triangle that repeats another's corners (double-sided: ABC lower LODs,
/// UI_Draenei) or names a vertex twice is a face of its own in the glTF (its own copy of a
/// corner), because Blender keeps one face per vertex set and none with a vertex twice. relic's
/// import joins the copies exactly; an editor's file (no copy list, another generator) by their
/// triangles, down to the recorded vertex count.
#[test]
fn repeated_and_degenerate_triangles_survive_an_editor() {
    let mut model = samples::skinned_animated();
    let mesh = &mut model.meshes[0];
    let [a, b, c] = mesh.triangles[0];
    mesh.triangles.extend([[a, c, b], [a, a, b], [b, c, a]]);
    let glb = export_glb(&model, &exact()).unwrap().value;
    // Every triangle has three vertices of its own set.
    let doc = gltf::Gltf::from_slice(&glb).unwrap();
    let blob = doc.blob.clone().unwrap();
    let primitive = doc.meshes().next().unwrap().primitives().next().unwrap();
    let reader = primitive.reader(|_| Some(&blob));
    let indices: Vec<u32> = reader.read_indices().unwrap().into_u32().collect();
    let mut sets: Vec<[u32; 3]> = indices.chunks(3).map(|t| [t[0], t[1], t[2]]).collect();
    assert!(sets.iter().all(|t| t[0] != t[1] && t[1] != t[2] && t[0] != t[2]), "{sets:?}");
    sets.iter_mut().for_each(|t| t.sort_unstable());
    let triangles = sets.len();
    sets.sort_unstable();
    sets.dedup();
    assert_eq!(sets.len(), triangles, "a triangle repeats another's vertices");
    assert_eq!(reader.read_positions().unwrap().count(), model.meshes[0].positions.len() + 3);
    // relic's own import: the model as it was.
    let mut back = import(&glb, None).unwrap();
    weights_match_then_align(&model, &mut back);
    assert_eq!(back.meshes[0], model.meshes[0]);
    // An editor's file: the same glTF from another generator, without the copy list.
    let json_len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let mut json: serde_json::Value = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
    json["asset"]["generator"] = "Khronos glTF Blender I/O".into();
    json["meshes"][0]["extras"]["relic"].as_object_mut().unwrap().remove("copies").unwrap();
    let text = serde_json::to_string(&json).unwrap();
    let foreign = gltf::binary::Glb {
        header: gltf::binary::Header { magic: *b"glTF", version: 2, length: 0 },
        json: std::borrow::Cow::Owned(text.into_bytes()),
        bin: Some(std::borrow::Cow::Owned(blob)),
    };
    let back = import(&foreign.to_vec().unwrap(), None).unwrap();
    assert_eq!(back.meshes[0].positions.len(), model.meshes[0].positions.len());
    assert_eq!(back.meshes[0].triangles, model.meshes[0].triangles);
}
