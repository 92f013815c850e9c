//! A model another tool rewrote without an edit (Blender, through glTF: the vertices in another
//! order, float noise, the kept file as JSON text) writes its MDX back byte for byte; an edit is
//! carried, and the note says which part changed first.

// Test code: a failed unwrap or index is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use relic_core::Model;
use relic_core::model::{ChannelValues, FormatExtras};

fn fixture() -> (Vec<u8>, Model) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/mdx/v800_full.mdx");
    let bytes = std::fs::read(path).unwrap();
    let model = relic_mdx::read_model(&bytes).unwrap();
    (bytes, model)
}

/// What a tool does to a model it does not edit: the kept file arrives as JSON, each mesh's
/// vertices in reverse order, every position moved by float noise.
fn rewritten(model: &Model) -> Model {
    let mut m = model.clone();
    let json = m.extras.as_ref().and_then(FormatExtras::json).expect("MDX extras have a JSON form");
    m.extras = Some(FormatExtras::from_json(relic_mdx::FORMAT, json));
    for mesh in &mut m.meshes {
        let n = mesh.positions.len();
        let old = |v: usize| n - 1 - v;
        mesh.positions = (0..n).map(|v| mesh.positions[old(v)].map(|x| x * (1.0 + 2e-6) + 1e-6)).collect();
        mesh.normals = (0..mesh.normals.len()).map(|v| mesh.normals[old(v)]).collect();
        for set in &mut mesh.uv_sets {
            *set = (0..n).map(|v| set[old(v)]).collect();
        }
        if !mesh.skin.is_empty() {
            mesh.skin = relic_core::model::Skin::from_vertices((0..n).map(|v| mesh.skin.vertex(old(v)).to_vec()));
        }
        for t in &mut mesh.triangles {
            *t = t.map(|v| (n - 1 - v as usize) as u32);
        }
    }
    m
}

fn extras_note(out: &relic_core::Converted<Vec<u8>>) -> String {
    out.losses.iter().find(|l| l.element == "extras").map(|l| l.what.clone()).unwrap_or_default()
}

#[test]
fn a_model_rewritten_without_an_edit_writes_its_file_back() {
    let (bytes, model) = fixture();
    assert!(model.meshes.iter().any(|m| m.positions.len() > 2), "the fixture has meshes to reorder");
    let back = rewritten(&model);
    assert_ne!(back.meshes, model.meshes, "the rewrite changed the meshes");
    let out = relic_mdx::write_model(&back, &Default::default()).unwrap();
    assert!(out.losses.is_empty(), "{:?}", out.losses);
    assert_eq!(out.value, bytes);
}

#[test]
fn a_moved_vertex_is_an_edit_and_the_note_names_it() {
    let (bytes, model) = fixture();
    let mut back = rewritten(&model);
    let mesh = back.meshes.iter_mut().find(|m| !m.triangles.is_empty()).unwrap();
    let v = mesh.triangles[0][0] as usize;
    mesh.positions[v][1] += 0.5;
    let y = mesh.positions[v][1];
    let out = relic_mdx::write_model(&back, &Default::default()).unwrap();
    assert_ne!(out.value, bytes);
    let note = extras_note(&out);
    assert!(note.contains("is not stored vertex") && note.contains("(position)"), "{note}");
    let read = relic_mdx::read_model(&out.value).unwrap();
    let moved = read.meshes.iter().flat_map(|m| &m.positions).any(|p| (p[1] - y).abs() < 1e-4);
    assert!(moved, "the moved vertex is in the file written");
}

#[test]
fn a_moved_key_is_an_edit_and_the_note_names_its_clip() {
    let (bytes, model) = fixture();
    let mut back = rewritten(&model);
    let (clip, channel) = back
        .animations
        .iter_mut()
        .find_map(|a| {
            let name = a.name.clone();
            a.channels.iter_mut().find(|c| matches!(c.values, ChannelValues::Translation(_))).map(|c| (name, c))
        })
        .expect("the fixture has a translation channel");
    let ChannelValues::Translation(values) = &mut channel.values else { unreachable!() };
    for v in values.iter_mut() {
        v[2] += 3.0;
    }
    let out = relic_mdx::write_model(&back, &Default::default()).unwrap();
    assert_ne!(out.value, bytes);
    let note = extras_note(&out);
    assert!(note.contains(&format!("animation {clip:?}")) && note.contains("translation"), "{note}");
}
