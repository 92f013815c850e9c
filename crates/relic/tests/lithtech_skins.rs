//! Issue 28 §1: a LithTech model's skins reach the glTF. ABC models name no texture file; a
//! piece's material index is a skin slot the game fills. The export asks the texture search for
//! every slot: `--skin` files first, else the games' `SKINS` folder beside `MODELS`, else the
//! model's own folder; a slot found nowhere is a note naming the slot, a skin given for a slot the
//! model lacks is a note too.

// Test helpers: a failure must stop the test loudly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use relic::textures::{GameTextures, TextureSearch};
use relic::{ConvertOptions, Loss, Target};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The names of the images of a `.glb` (in image order).
fn image_names(glb: &[u8]) -> Vec<String> {
    let doc = gltf::Gltf::from_slice(glb).unwrap();
    doc.images().map(|i| i.name().unwrap_or_default().to_string()).collect()
}

/// `model` exported to glb with the texture search of `search`: its image names and the notes.
fn export(model: &Path, search: TextureSearch) -> (Vec<String>, Vec<Loss>) {
    let opened = relic::open(model).unwrap();
    let textures = GameTextures::new(model, search);
    let options = ConvertOptions { textures: Some(Arc::new(textures)), ..ConvertOptions::default() };
    let out = relic::convert(&opened.model, Target::from_name("glb").unwrap(), Path::new("out.glb"), &options).unwrap();
    (image_names(&out.value[0].1), out.losses)
}

fn texture_notes(losses: &[Loss]) -> Vec<String> {
    losses.iter().filter(|l| l.what.contains("skin")).map(ToString::to_string).collect()
}

/// A game folder as NOLF and Shogo lay theirs out (`CHARS/MODELS/…`, `CHARS/SKINS/…`), made of
/// the fixtures: a v12 model with skin slots 0 and 1 in `MODELS/MULTI`, a v6 model in `MODELS`.
fn game_tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let chars = dir.path().join("Chars");
    std::fs::create_dir_all(chars.join("Models/Multi")).unwrap();
    std::fs::create_dir_all(chars.join("Skins")).unwrap();
    let fixture = |rel: &str| workspace().join("fixtures").join(rel);
    std::fs::copy(fixture("abc/v12_full.abc"), chars.join("Models/Multi/HERO_MULTI.ABC")).unwrap();
    std::fs::copy(fixture("abc/v6_basic.abc"), chars.join("Models/pickup.abc")).unwrap();
    std::fs::copy(fixture("dtx/v5_dxt1.dtx"), chars.join("Skins/hero.dtx")).unwrap();
    std::fs::copy(fixture("dtx/v5_bgra.dtx"), chars.join("Skins/HERO_HEAD.DTX")).unwrap();
    std::fs::copy(fixture("dtx/v2_pal.dtx"), chars.join("Skins/PICKUP.DTX")).unwrap();
    dir
}

#[test]
fn the_skins_folder_beside_models_gives_every_slot() {
    let tree = game_tree();
    let models = tree.path().join("Chars/Models");
    // v12: slot 0 `hero.dtx` and slot 1 `HERO_HEAD.DTX` for `HERO_MULTI.ABC` (without `_MULTI`).
    let (images, losses) = export(&models.join("Multi/HERO_MULTI.ABC"), TextureSearch::default());
    assert_eq!(images, ["hero.dtx.png", "HERO_HEAD.DTX.png"], "{losses:?}");
    assert!(texture_notes(&losses).is_empty(), "{losses:?}");
    // v6: its one skin, slot 0.
    let (images, losses) = export(&models.join("pickup.abc"), TextureSearch::default());
    assert_eq!(images, ["PICKUP.DTX.png"], "{losses:?}");
    assert!(texture_notes(&losses).is_empty(), "{losses:?}");
}

#[test]
fn a_given_skin_wins_and_a_missing_slot_is_a_note() {
    let tree = game_tree();
    let model = tree.path().join("Chars/Models/Multi/HERO_MULTI.ABC");
    let other = workspace().join("fixtures/dtx/v5_dxt5.dtx");
    // `--skin 1=FILE` wins over SKINS/HERO_HEAD.DTX; slot 0 is still found in SKINS.
    let search = TextureSearch { skins: vec![(1, other.clone())], ..TextureSearch::default() };
    let (images, losses) = export(&model, search);
    assert_eq!(images, ["hero.dtx.png", "v5_dxt5.dtx.png"], "{losses:?}");
    // Without the SKINS folder: both slots are notes that name the slot and where relic looked.
    std::fs::remove_dir_all(tree.path().join("Chars/Skins")).unwrap();
    let (images, losses) = export(&model, TextureSearch::default());
    assert!(images.is_empty());
    let notes = texture_notes(&losses);
    assert_eq!(notes.len(), 2, "{notes:#?}");
    assert!(notes[0].contains("skin slot 0") && notes[0].contains("HERO_MULTI.DTX or HERO.DTX"), "{notes:#?}");
    assert!(notes[1].contains("skin slot 1") && notes[1].contains("--skin 1=FILE"), "{notes:#?}");
    // A skin for a slot the model does not have shows nowhere: a note.
    let search = TextureSearch { skins: vec![(0, other.clone()), (5, other)], ..TextureSearch::default() };
    let (images, losses) = export(&model, search);
    assert_eq!(images, ["v5_dxt5.dtx.png"]);
    assert!(losses.iter().any(|l| l.what.contains("has no skin slot 5")), "{losses:?}");
}

/// The issue's own command: PARTNER_DANCIN with its two DTX skins, and INTHERO_CASUAL with its
/// body skin (its head skin is not in the corpus: a note for slot 1).
#[test]
fn real_models_carry_their_real_skins() {
    let Some(corpus) = relic_testkit::corpus_dir("LithTech skins") else { return };
    let skins = |names: &[&str]| -> Vec<(u32, PathBuf)> {
        names.iter().enumerate().map(|(slot, n)| (slot as u32, corpus.join("dtx").join(n))).collect()
    };
    let search =
        TextureSearch { skins: skins(&["PARTNER_DANCIN.DTX", "PARTNER_DANCIN_HEAD.DTX"]), ..TextureSearch::default() };
    let (images, losses) = export(&corpus.join("abc/PARTNER_DANCIN.ABC"), search);
    assert_eq!(images, ["PARTNER_DANCIN.DTX.png", "PARTNER_DANCIN_HEAD.DTX.png"], "{losses:?}");
    let search = TextureSearch { skins: skins(&["INTHERO_CASUAL.DTX"]), ..TextureSearch::default() };
    let (images, losses) = export(&corpus.join("abc/INTHERO_CASUAL.abc"), search);
    assert_eq!(images, ["INTHERO_CASUAL.DTX.png"], "{losses:?}");
    let notes = texture_notes(&losses);
    assert!(notes.len() == 1 && notes[0].contains("skin slot 1"), "{notes:#?}");
}
