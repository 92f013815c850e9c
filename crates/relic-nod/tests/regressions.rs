//! One test per bug the file generator (`tests/generator/`) found, each on the smallest file that
//! shows it: a fixture with one field changed.

// Test code: a failed unwrap or index is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::path::Path;

use relic_core::model::{Event, Model};
use relic_core::{Loss, WriteOptions};
use relic_nod::decide::decide_nod;
use relic_nod::options::{Choice, NadOptions, NodOptions};

fn read(name: &str) -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/nod").join(name)).unwrap()
}

fn losses_text(losses: &[Loss]) -> String {
    losses.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")
}

/// The file's readings, fixed, for writing its model without extras.
fn fixed(bytes: &[u8]) -> NodOptions {
    let c = decide_nod(&relic_nod::read(bytes).unwrap(), &NodOptions::default()).unwrap();
    NodOptions {
        matrix_layout: Choice::Fixed(c.matrix_layout.value),
        group_tail: Choice::Fixed(c.group_tail.value),
        rest_translate: Choice::Fixed(c.rest_translate.value),
        winding: Choice::Fixed(c.winding.value),
        uv_origin: c.uv_origin,
    }
}

/// NOD → model → NOD gives the same bytes and reports nothing.
fn assert_round_trip(bytes: &[u8]) -> Model {
    let model = relic_nod::read_model(bytes).unwrap();
    let out = relic_nod::write_model(&model, &WriteOptions::default()).unwrap();
    assert_eq!(out.losses, vec![], "{}", losses_text(&out.losses));
    assert!(out.value == bytes, "the bytes differ");
    model
}

/// The model without its extras, written with the file's readings and read back.
fn rebuilt(bytes: &[u8], model: &Model) -> (Model, Vec<Loss>) {
    let options = fixed(bytes);
    let bare = Model { extras: None, ..model.clone() };
    let out = relic_nod::write_model_with(&bare, &WriteOptions::default(), &options).unwrap();
    let back = relic_nod::read_model_with(&out.value, &options).unwrap();
    (Model { extras: None, ..back }, out.losses)
}

/// A model without bones has no skinning for NOSKINNING/NOWEIGHTS to change: the writer kept
/// asking whether the (unbound) vertices were rigid, dropped the group's flags and reported it.
#[test]
fn group_flags_of_a_boneless_model_are_kept() {
    let mut bytes = read("static_model.nod");
    let tail = bytes.len() - 28 + 22;
    bytes[tail..tail + 6].copy_from_slice(&[0, 0, 0x06, 0, 0, 0]); // B: NOWEIGHTS | NOSKINNING
    assert_round_trip(&bytes);
}

/// An empty material name came back as `material_0`: different bytes, a loss, and a model that
/// did not read back equal without extras.
#[test]
fn an_empty_material_name_stays_empty() {
    let mut bytes = read("triangle.nod");
    bytes[8..40].fill(0);
    let model = assert_round_trip(&bytes);
    assert_eq!(model.materials[0].name, "");
    let (back, losses) = rebuilt(&bytes, &model);
    assert_eq!((back.materials[0].name.as_str(), losses), ("", vec![]));
}

/// A name of 32 characters with no NUL (spec §2.1: readers tolerate it) was cut to 31 and
/// reported when the model was written without its extras.
#[test]
fn a_32_character_name_is_written_back_whole() {
    let mut bytes = read("triangle.nod");
    let mesh_name = bytes.len() - 28 - 6 - 3 * 40 - 32;
    bytes[mesh_name..mesh_name + 32].fill(b'x');
    let model = assert_round_trip(&bytes);
    assert_eq!(model.meshes[0].name, "x".repeat(32));
    let (back, losses) = rebuilt(&bytes, &model);
    assert_eq!((back.meshes[0].name.clone(), losses), ("x".repeat(32), vec![]));
}

/// A model-space RestTranslate was rebuilt from the parent's f32 bind matrix and read back a few
/// units in the last place off; the writer now works from the inverse rest matrices in f64 and
/// picks the f32 neighbour that reads back exactly.
#[test]
fn model_space_rest_translations_are_rebuilt_exactly() {
    let bytes = read("model_space.nod");
    let model = assert_round_trip(&bytes);
    let (back, losses) = rebuilt(&bytes, &model);
    assert_eq!(losses, vec![]);
    let bare = Model { extras: None, ..model };
    assert_eq!(back.bones, bare.bones);
}

/// A kept RestTranslate was written back whenever it was within 10⁻⁵ of the model's: an edit
/// smaller than that was silently lost. Now it is kept only while it reads back as the model's.
#[test]
fn a_small_edit_of_a_rest_translation_is_written() {
    for name in ["skinned.nod", "model_space.nod"] {
        let bytes = read(name);
        let mut model = relic_nod::read_model(&bytes).unwrap();
        let original = model.bones[2].rest.translation;
        let edited = original.map(|c| c * (1.0 + 4e-7));
        model.bones[2].rest.translation = edited;
        let out = relic_nod::write_model(&model, &WriteOptions::default()).unwrap();
        let back = relic_nod::read_model(&out.value).unwrap().bones[2].rest.translation;
        let gap = |a: [f32; 3]| a.iter().zip(&edited).fold(0.0f32, |m, (x, y)| m.max((x - y).abs()));
        if name == "skinned.nod" {
            assert_eq!(back, edited, "parent space: stored as given");
        } else {
            // Model space: a product of float matrices, within a unit in the last place of the edit.
            assert!(gap(back) < 0.5 * gap(original) && gap(back) <= 2.0 * f32::EPSILON * 8.0, "{back:?} {edited:?}");
        }
    }
}

/// The header flags of a NAD (meaning unknown) have no place in the model: an edited animation
/// was written with flags 0. It now keeps those of the file it was read from.
#[test]
fn an_edited_animation_keeps_the_nad_flags() {
    let mut model = relic_nod::read_model(&read("skinned.nod")).unwrap();
    let bytes = read("tags.nad");
    let index = relic_nod::attach_animation(&mut model, &bytes, "tags", &NadOptions::default()).unwrap();
    let event = Event { name: "Strike".into(), time: 0.1, bone: None, position: None, parameter: Some(5) };
    model.animations[index].events.push(event);
    let out = relic_nod::write_animation(&model, index, &NadOptions::default()).unwrap();
    let (before, after) = (relic_nod::read_nad(&bytes).unwrap(), relic_nod::read_nad(&out.value).unwrap());
    assert_eq!((after.flags, after.tags.len()), (0x11, before.tags.len() + 1));
}
