//! Files with 1–4 views (spec §10): each keeps its own views and their count while the meshes are
//! the ones it was read with; a changed mesh rebuilds as many views as the file had, and says so.

// Test helpers: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::{fixture, palettes_hold};
use relic_core::WriteOptions;
use relic_core::model::FormatExtras;

/// The fixtures with fewer views than Blizzard's four (the 3-view one also stores its vertices in
/// another order than its views list them), and a 4-view one.
const FILES: [(&str, usize); 4] =
    [("v256_views1.m2", 1), ("v256_views2.m2", 2), ("v256_views3.m2", 3), ("v256_linear.m2", 4)];

#[test]
fn files_keep_their_own_views_through_the_model() {
    for (name, views) in FILES {
        let bytes = fixture(name);
        let file = relic_m2::read(&bytes).unwrap();
        assert_eq!(file.views.len(), views, "{name}");
        assert!(relic_m2::write(&file).unwrap() == bytes, "{name}: re-write differs");
        let model = relic_m2::read_model(&bytes).unwrap();
        let out = relic_m2::write_model(&model, &WriteOptions::default()).unwrap();
        assert!(out.losses.is_empty(), "{name}: {:?}", out.losses);
        assert!(out.value == bytes, "{name}: format → model → format is not byte-identical");
        // Through JSON extras (glTF's path), and through JSON written before the extras had a
        // vertex digest (then the views are kept because they still fit).
        let json = model.extras.as_ref().unwrap().json().unwrap();
        assert!(json.contains("\"vertex_digest\""), "{name}");
        let mut old = serde_json::from_str::<serde_json::Value>(&json).unwrap();
        old.as_object_mut().unwrap().remove("vertex_digest");
        for (how, text) in [("JSON", json), ("JSON without a digest", old.to_string())] {
            let mut m = model.clone();
            m.extras = Some(FormatExtras::from_json(relic_m2::FORMAT, text));
            let out = relic_m2::write_model(&m, &WriteOptions::default()).unwrap();
            assert!(out.losses.is_empty(), "{name} via {how}: {:?}", out.losses);
            assert!(out.value == bytes, "{name} via {how}: not byte-identical");
        }
    }
}

/// One vertex moved: the views are rebuilt for the changed mesh, as many as the file had, each
/// holding the palette rule, with a loss that says so.
#[test]
fn a_moved_vertex_rebuilds_as_many_views_as_the_file_had() {
    for (name, views) in FILES {
        let mut model = relic_m2::read_model(&fixture(name)).unwrap();
        model.meshes[0].positions[1][0] += 0.25;
        let moved = model.meshes[0].positions[1];
        let out = relic_m2::write_model(&model, &WriteOptions::default()).unwrap();
        let loss = out.losses.iter().find(|l| l.element == "views").unwrap_or_else(|| panic!("{name}: no loss"));
        let count = if views == 1 { "view".to_string() } else { format!("{views} views") };
        assert!(loss.what.contains(&format!("the file's {count} rebuilt")), "{name}: {loss}");
        let file = relic_m2::read(&out.value).unwrap();
        assert_eq!(file.views.len(), views, "{name}");
        for (v, max) in file.views.iter().zip([256, 75, 53, 21]) {
            assert_eq!(v.bone_count_max, max, "{name}");
            assert!(palettes_hold(v, &file), "{name}");
        }
        let back = relic_m2::read_model(&out.value).unwrap();
        assert_eq!(back.meshes[0].positions[1], moved, "{name}");
        assert_eq!(back.meshes.len(), model.meshes.len(), "{name}");
    }
}

/// A changed weight or triangle is a changed mesh too; the other meshes' data is unchanged.
#[test]
fn a_changed_weight_or_triangle_rebuilds_the_views() {
    let bytes = fixture("v256_views3.m2");
    let model = relic_m2::read_model(&bytes).unwrap();
    let mut weight = model.clone();
    let skin = &mut weight.meshes[0].skin;
    let (a, b) = (skin.offsets[2] as usize, skin.offsets[3] as usize);
    assert!(b - a >= 2, "vertex 2 has two influences");
    skin.influences[a].weight -= 0.25;
    skin.influences[a + 1].weight += 0.25;
    let mut triangle = model.clone();
    triangle.meshes[0].triangles.swap(0, 1);
    for (what, m) in [("weight", weight), ("triangle", triangle)] {
        m.validate().unwrap();
        let out = relic_m2::write_model(&m, &WriteOptions::default()).unwrap();
        assert!(out.losses.iter().any(|l| l.element == "views"), "{what}: {:?}", out.losses);
        let file = relic_m2::read(&out.value).unwrap();
        assert_eq!(file.views.len(), 3, "{what}");
        let back = relic_m2::read_model(&out.value).unwrap();
        assert_eq!(back.meshes[0].triangles, m.meshes[0].triangles, "{what}");
    }
}

/// Moving a file between Classic and The Burning Crusade rebuilds its views (their submeshes
/// change size), as many as it had.
#[test]
fn a_version_change_keeps_the_view_count() {
    for (name, views) in FILES {
        let model = relic_m2::read_model(&fixture(name)).unwrap();
        let out = relic_m2::write_model(&model, &WriteOptions { version: Some(263) }).unwrap();
        let file = relic_m2::read(&out.value).unwrap();
        assert_eq!((file.version, file.views.len()), (263, views), "{name}");
        let back = relic_m2::read_model(&out.value).unwrap();
        assert_eq!(back.meshes, model.meshes, "{name}");
    }
}

/// A changed normal is not a changed mesh: the file's views stay (a normal is no part of their
/// topology or palettes) and the normal is written into the file's own vertex array, with no loss
/// — directly and through JSON extras (glTF's path). Before issue 27 it rebuilt every view.
#[test]
fn a_changed_normal_is_written_into_the_files_own_views() {
    for (name, _) in FILES {
        let bytes = fixture(name);
        let original = relic_m2::read(&bytes).unwrap();
        let mut model = relic_m2::read_model(&bytes).unwrap();
        let turned = [0.6, 0.0, 0.8];
        model.meshes[0].normals[1] = turned;
        let json = model.extras.as_ref().unwrap().json().unwrap();
        let mut via_json = model.clone();
        via_json.extras = Some(FormatExtras::from_json(relic_m2::FORMAT, json));
        for (how, m) in [("the model", &model), ("JSON extras", &via_json)] {
            let out = relic_m2::write_model(m, &WriteOptions::default()).unwrap();
            assert!(out.losses.is_empty(), "{name} via {how}: {:?}", out.losses);
            let file = relic_m2::read(&out.value).unwrap();
            assert!(file.views == original.views, "{name} via {how}: views changed");
            assert_eq!(file.vertices.len(), original.vertices.len(), "{name} via {how}");
            let changed = file.vertices.iter().zip(original.vertices.iter()).filter(|(a, b)| a != b).count();
            assert_eq!(changed, 1, "{name} via {how}: one vertex (its normal) differs");
            let back = relic_m2::read_model(&out.value).unwrap();
            let n = back.meshes[0].normals[1];
            assert!(n.iter().zip(turned).all(|(a, b)| (a - b).abs() < 1e-6), "{name} via {how}: {n:?}");
        }
    }
}

/// Blender moves the normals of vertices shared by submeshes by float noise (about 1e-5), a little
/// differently in each submesh (issue 27: the real m2-wrath/creature.m2, 33 vertices of its three
/// geoset-0 submeshes). The file's views and its one `.skin` file come back, not views rebuilt
/// (868 → 901 vertices) and the alias turned into a sequence.
#[test]
fn normals_moved_by_float_noise_at_shared_vertices_keep_the_views() {
    use relic_core::format::Input;
    let Some((bytes, siblings)) = common::corpus_creature() else { return };
    let input = Input { bytes: &bytes, name: "creature.m2", siblings: &siblings };
    let model = relic_m2::read_input(&input).unwrap().value;
    let json = model.extras.as_ref().unwrap().json().unwrap();
    let mut moved = model.clone();
    moved.extras = Some(FormatExtras::from_json(relic_m2::FORMAT, json));
    for (m, mesh) in moved.meshes.iter_mut().enumerate() {
        for n in &mut mesh.normals {
            n[0] += 1e-5 * (m % 3) as f32;
        }
    }
    let out = relic_m2::write_files(&moved, &WriteOptions::default()).unwrap();
    let written = relic_m2::write_files(&model, &WriteOptions::default()).unwrap();
    // Only the note of the second `.skin` file, which the corpus lacks: nothing rebuilt, no alias
    // turned into a sequence.
    for out in [&out, &written] {
        let notes: Vec<String> = out.losses.iter().map(ToString::to_string).collect();
        assert_eq!(notes, ["views: 1 of 2 .skin files were not read"]);
    }
    assert_eq!(out.value.siblings.len(), written.value.siblings.len(), ".skin files");
    assert_eq!(out.value.bytes.len(), bytes.len(), "the file's size (its views and sequences)");
    assert!(written.value.bytes == bytes, "unchanged: byte for byte");
    assert_eq!(common::read_written(&out.value).file.vertices.len(), 868);
}

/// An editor numbers a mesh's vertices its own way, splits a vertex in two and moves positions
/// by an ulp (Blender does all three: m2-wrath/creature.m2, issue 27). Each triangle corner still
/// names the file vertex the stored triangle names there, so the file's views come back, with no
/// loss; a position moved by more than float noise still rebuilds them.
#[test]
fn vertices_renumbered_split_and_moved_by_an_ulp_keep_the_views() {
    for (name, _) in FILES {
        let bytes = fixture(name);
        let original = relic_m2::read(&bytes).unwrap();
        let model = relic_m2::read_model(&bytes).unwrap();
        let mut edited = model.clone();
        let mesh = &mut edited.meshes[0];
        let n = mesh.positions.len();
        // New vertex k is old vertex n − 1 − k; the last one (old vertex 0) once more, as a copy
        // that only the first triangle naming old vertex 0 uses.
        let old: Vec<usize> = (0..n).rev().chain([0]).collect();
        let up = |p: [f32; 3]| p.map(|x| f32::from_bits(x.to_bits() + 1));
        mesh.positions = old.iter().map(|&o| up(mesh.positions[o])).collect();
        mesh.normals = old.iter().map(|&o| mesh.normals[o]).collect();
        for set in &mut mesh.uv_sets {
            *set = old.iter().map(|&o| set[o]).collect();
        }
        mesh.skin = relic_core::model::Skin::from_vertices(old.iter().map(|&o| mesh.skin.vertex(o).to_vec()));
        let mut copied = false;
        for t in &mut mesh.triangles {
            for c in t.iter_mut() {
                let o = *c as usize;
                *c = if o == 0 && !copied { n as u32 } else { (n - 1 - o) as u32 };
                copied |= o == 0;
            }
        }
        let out = relic_m2::write_model(&edited, &WriteOptions::default()).unwrap();
        assert!(out.losses.is_empty(), "{name}: {:?}", out.losses);
        let file = relic_m2::read(&out.value).unwrap();
        assert!(file.views == original.views, "{name}: views changed");
        assert_eq!(file.vertices.len(), original.vertices.len(), "{name}");

        edited.meshes[0].positions[3][1] += 0.25;
        let out = relic_m2::write_model(&edited, &WriteOptions::default()).unwrap();
        assert!(out.losses.iter().any(|l| l.element == "views"), "{name}: a moved vertex keeps the views");
    }
}
