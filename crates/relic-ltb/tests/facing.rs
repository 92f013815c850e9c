//! CrossFire's half turn (`src/turn.rs`, ltb.md §7.1): every corpus LTB stores its root bind as a
//! half turn about Y that its animations do not key. relic takes it out of the rest, so that a
//! model faces the front (+Z) at rest as it does animated; written back, the turn returns.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use relic_anim::ClipTime;
use relic_core::WriteOptions;

/// The files edited (a body, a view model, an accessory: a rebuild takes seconds in a debug build).
const EDITED: [&str; 3] = ["C707_BODY_GR.LTB", "PV-M4A1.LTB", "Yun_WAIST_GR.LTB"];

/// Every mesh's skinned positions, at rest or at the start of clip `clip`.
fn posed(model: &relic_core::model::Model, clip: Option<usize>) -> Vec<[f32; 3]> {
    relic_anim::bounds::posed_positions(model, clip, ClipTime::at(0.0)).unwrap().into_iter().flatten().collect()
}

#[test]
fn crossfire_models_face_the_front_at_rest_as_animated() {
    let Some(dir) = relic_testkit::corpus_dir("crossfire_models_face_the_front_at_rest_as_animated") else { return };
    let (mut turned, mut one_key, mut edits) = (0, 0, 0);
    for (name, bytes) in relic_testkit::files_in(&dir.join("ltb")) {
        let file = relic_ltb::read(&bytes).unwrap();
        let model = relic_ltb::read_model(&bytes).unwrap();
        // The file's root holds the turn; the model's root bind does not.
        let root: Vec<f32> = file.nodes[0].matrix.to_vec();
        assert_eq!(root, [-1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0, 1.0], "{name}");
        assert_eq!(model.bones[0].bind_matrix, relic_core::math::IDENTITY, "{name}: root bind");
        turned += 1;
        // The accessories' one key is their game pose: at rest they now stand in it (before the
        // turn was taken out, every vertex was mirrored through the Y axis from it).
        if model.animations.len() == 1 && model.animations[0].channels.iter().all(|c| c.times.len() <= 1) {
            let (rest, keyed) = (posed(&model, None), posed(&model, Some(0)));
            {
                let worst =
                    rest.iter().zip(&keyed).map(|(a, b)| relic_core::math::max_abs_diff(a, b)).fold(0.0, f32::max);
                println!("{name}: rest vs its one key: {worst}");
                // (Their keys are 16-bit "relevant" values: within 1e-2 units, not bits.)
                assert!(worst < 1e-2, "{name}: rest differs from the one key by {worst}");
                one_key += 1;
            }
        }
        // Unedited: the file itself.
        assert_eq!(relic_ltb::write_model(&model, &WriteOptions::default()).unwrap().value, bytes, "{name}");
        if !EDITED.contains(&name.as_str()) {
            continue;
        }
        edits += 1;
        // An edit written and read back: the moved vertex comes back where it was moved, the file
        // holds the turn again, and the rest of the mesh is the file's.
        // (A rebuilt LOD may order and split its vertices otherwise, and its floats pass through
        // the packer's arithmetic: every edited vertex must be within 1e-4 of one read back.)
        let mut edited = model.clone();
        let index = edited.meshes.iter().position(|m| !m.positions.is_empty()).unwrap();
        edited.meshes[index].positions[0][2] += 1.0;
        let out = relic_ltb::write_model(&edited, &WriteOptions::default()).unwrap().value;
        let back = relic_ltb::read_model(&out).unwrap();
        let worst = edited.meshes[index]
            .positions
            .iter()
            .map(|p| {
                back.meshes[index]
                    .positions
                    .iter()
                    .map(|q| relic_core::math::max_abs_diff(p, q))
                    .fold(f32::MAX, f32::min)
            })
            .fold(0.0, f32::max);
        assert!(worst < 1e-4, "{name}: an edited vertex is {worst} from every vertex read back");
        assert_eq!(relic_ltb::read(&out).unwrap().nodes[0].matrix, file.nodes[0].matrix, "{name}: root matrix");
    }
    // MANIFEST.md: 12 CrossFire LTB files; the hair, glasses and waist accessories have one key.
    assert_eq!((turned, one_key, edits), (12, 3, 3), "turned files, one-key accessories compared, edits");
}
