// Test code: a failed unwrap or index is a failed test.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use super::*;
use crate::model::{Interpolation, Lod, Material, Skin};

/// Two bones; one mesh: a two-sided sheet (triangles 0 and 1 at one place, back to back, on
/// vertices 0–2 and 3, a copy of 1) and a triangle to vertex 4; a clip that turns bone 1 with
/// two keys at one instant first (as an LTB clip does).
fn model() -> Model {
    let bone = |name: &str, parent| Bone {
        name: name.into(),
        parent,
        rest: Transform { translation: [0.0, 1.0, 0.0], ..Transform::default() },
        ..Bone::default()
    };
    let corners = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
    let mut positions = corners.to_vec();
    positions.extend([corners[1], [5.0, 5.0, 5.0]]);
    let normals = vec![[0.0, 0.0, 1.0]; 5];
    let mesh = Mesh {
        name: "sheet".into(),
        material: Some(0),
        positions,
        normals,
        uv_sets: vec![vec![[0.5, 0.5]; 5]],
        skin: Skin::default(),
        triangles: vec![[0, 1, 2], [0, 2, 3], [0, 1, 4]],
        lod: Lod::default(),
        ..Mesh::default()
    };
    let turn = Channel {
        bone: 1,
        clock: Clock::Animation,
        interpolation: Interpolation::Linear,
        times: vec![0.0, 1e-45, 1.0],
        values: ChannelValues::Rotation(vec![
            [0.0, 0.0, 0.0, 1.0],
            [0.0, 0.0, 0.38268343, 0.9238795],
            [0.0, 0.0, 0.70710677, 0.70710677],
        ]),
    };
    let clip = Animation { name: "turn".into(), duration: 1.0, channels: vec![turn], ..Animation::default() };
    Model {
        name: "sample".into(),
        bones: vec![bone("root", None), bone("arm", Some(0))],
        meshes: vec![mesh],
        materials: vec![Material { name: "skin".into(), alpha_cutoff: Some(0.5), ..Material::default() }],
        animations: vec![clip],
        ..Model::default()
    }
}

#[test]
fn the_same_model_and_one_with_an_editors_noise_are_still_the_files() {
    let read = model();
    assert_eq!(judge(&read, &read), Ok(()));
    let mut noisy = read.clone();
    noisy.meshes[0].positions[4][0] += 2e-5;
    noisy.meshes[0].uv_sets[0][4][1] -= 5e-5;
    noisy.bones[1].rest.translation[1] += 1e-4;
    assert_eq!(judge(&noisy, &read), Ok(()));
}

#[test]
fn a_moved_vertex_a_new_normal_or_another_alpha_key_is_an_edit() {
    let read = model();
    let mut moved = read.clone();
    moved.meshes[0].positions[4][0] += 0.1;
    let why = judge(&moved, &read).unwrap_err();
    assert!(why.contains("vertex 4") && why.contains("position"), "{why}");
    let mut turned = read.clone();
    turned.meshes[0].normals[4] = [1.0, 0.0, 0.0];
    assert!(judge(&turned, &read).unwrap_err().contains("normal"));
    let mut keyed = read.clone();
    keyed.materials[0].alpha_cutoff = None;
    assert!(judge(&keyed, &read).unwrap_err().contains("material 0"));
}

#[test]
fn a_normal_an_editor_cannot_keep_on_a_two_sided_sheet_is_not_an_edit() {
    let read = model();
    // Vertex 0 is a corner of both sides of the sheet: Blender 5 gives it a normal of its own.
    let mut model = read.clone();
    model.meshes[0].normals[0] = [0.0, 0.6, 0.8];
    assert_eq!(judge(&model, &read), Ok(()));
}

#[test]
fn keys_at_one_instant_are_one_frame_and_either_value_is_the_files() {
    let read = model();
    let one_key = |value: [f32; 4]| {
        let mut model = read.clone();
        let c = &mut model.animations[0].channels[0];
        c.times = vec![0.0, 1.0];
        c.values = ChannelValues::Rotation(vec![value, [0.0, 0.0, 0.70710677, 0.70710677]]);
        model
    };
    // Blender 3.4 keeps the first key of the instant, Blender 5 the second.
    assert_eq!(judge(&one_key([0.0, 0.0, 0.0, 1.0]), &read), Ok(()));
    assert_eq!(judge(&one_key([0.0, 0.0, 0.38268343, 0.9238795]), &read), Ok(()));
    // Blender 5 may give the frame a value between them.
    let between = crate::sample::slerp([0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.38268343, 0.9238795], 0.25);
    assert_eq!(judge(&one_key(between), &read), Ok(()));
    let why = judge(&one_key([0.0, 0.2, 0.0, 0.9797959]), &read).unwrap_err();
    assert!(why.contains("bone 1 rotation at 0 s"), "{why}");
}

#[test]
fn a_channel_the_file_lacks_must_hold_the_rest_pose() {
    let read = model();
    let mut model = read.clone();
    let rest = Channel {
        bone: 0,
        clock: Clock::Animation,
        interpolation: Interpolation::Linear,
        times: vec![0.0, 1.0],
        values: ChannelValues::Translation(vec![[0.0, 1.0, 0.0]; 2]),
    };
    model.animations[0].channels.push(rest);
    assert_eq!(judge(&model, &read), Ok(()));
    if let ChannelValues::Translation(v) = &mut model.animations[0].channels[1].values {
        v[1] = [0.0, 1.5, 0.0];
    }
    let why = judge(&model, &read).unwrap_err();
    assert!(why.contains("bone 0 translation at 1 s: the file has no such channel"), "{why}");
    // At 0 s bone 1 jumps (two keys within a millisecond): a frame there says nothing of the
    // others (Blender 5 gave UI_RS_Scourge.m2's frame 0 a value between, and its children with it).
    if let ChannelValues::Translation(v) = &mut model.animations[0].channels[1].values {
        *v = vec![[0.0, 1.2, 0.0], [0.0, 1.0, 0.0]];
    }
    assert_eq!(judge(&model, &read), Ok(()));
}

#[test]
fn a_normal_an_editor_cannot_keep_at_the_tip_of_a_fold_is_not_an_edit() {
    // Vertex 0 between a face turned up and one turned down beside it: no normal direction to
    // keep a custom normal against (UI_RS_Scourge.m2 through Blender 3.4).
    let mut read = model();
    read.meshes[0].positions =
        vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [-1.0, 0.0, 0.0], [0.0, -1.0, 0.0]];
    read.meshes[0].normals = vec![[0.0, 0.0, 1.0]; 5];
    read.meshes[0].uv_sets = vec![vec![[0.5, 0.5]; 5]];
    read.meshes[0].triangles = vec![[0, 1, 2], [0, 4, 3], [1, 2, 4]];
    let mut model = read.clone();
    model.meshes[0].normals[0] = [0.0, 1.0, 0.0];
    assert_eq!(judge(&model, &read), Ok(()));
    // Vertex 1 is not at a fold: a new normal there is an edit.
    model.meshes[0].normals[1] = [0.0, 1.0, 0.0];
    assert!(judge(&model, &read).unwrap_err().contains("vertex 1 is not stored vertex 1 (normal)"));
}
