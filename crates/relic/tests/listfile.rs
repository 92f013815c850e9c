//! A chunked M2 whose `.skin` files and texture are named only by FileDataID, opened from a game
//! folder through a listfile (`relic::open_listed`): the skins found under the data folder the
//! model's own listed path starts in, the texture at its listed path, the glb textured; without
//! the listfile, the names CASC extractors give (`<model>00.skin`, `<id>.blp`).
#![cfg(all(feature = "m2", feature = "gltf", feature = "blp"))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::path::{Path, PathBuf};

use relic::{ConvertOptions, Listed, Listfile, Target};
use relic_core::format::{Input, SiblingBytes};

const STEM: &str = "v274_chunked";
const SKIN_IDS: [u32; 4] = [1_000_100, 1_000_101, 1_000_102, 1_000_103];
const TEXTURE_ID: u32 = 1_000_200;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures")
}

/// The chunked fixture with its texture 0 (`TXID` 1000200) stored without a name, as Legion files
/// store the textures they name by id; and its four skins.
fn model_and_skins() -> (Vec<u8>, Vec<Vec<u8>>) {
    let dir = fixtures().join("m2-md21");
    let bytes = std::fs::read(dir.join(format!("{STEM}.m2"))).unwrap();
    let skins: Vec<Vec<u8>> = (0..4).map(|i| std::fs::read(dir.join(format!("{STEM}{i:02}.skin"))).unwrap()).collect();
    let named = (0..4).map(|i| (format!("{STEM}{i:02}.skin"), skins[i].clone())).collect();
    let name = format!("{STEM}.m2");
    let mut m = relic_m2::md21::read(&Input { bytes: &bytes, name: &name, siblings: &SiblingBytes(named) }).unwrap();
    m.model.file.textures.items[0].filename = relic_m2::file::M2Array::new(Vec::new());
    (relic_m2::md21::write(&m).unwrap().0, skins)
}

/// The images of a written glb.
fn images(glb: &[u8]) -> usize {
    gltf::Gltf::from_slice(glb).unwrap().images().count()
}

/// Opens `model` (through `listed`) and exports it as a glb with the game's textures.
fn textured_glb(model: &Path, listed: Option<&Listed>) -> (relic::Opened, Vec<u8>, Vec<String>) {
    let opened = relic::open_listed(model, &[], listed).unwrap();
    // As `relic convert` without --data: game paths under every folder above the model.
    let textures = relic::textures::GameTextures::new(model, relic::textures::TextureSearch::default());
    let options = ConvertOptions { textures: Some(std::sync::Arc::new(textures)), ..ConvertOptions::default() };
    let out = model.with_extension("glb");
    let converted = relic::convert(&opened.model, Target::from_name("glb").unwrap(), &out, &options).unwrap();
    let losses = converted.losses.iter().map(ToString::to_string).collect();
    (opened, converted.value[0].1.clone(), losses)
}

#[test]
fn files_named_by_id_are_found_through_the_listfile_under_the_game_folder() {
    let (bytes, skins) = model_and_skins();
    let game = tempfile::tempdir().unwrap();
    let folder = game.path().join("Creature/Gnome");
    std::fs::create_dir_all(folder.join("LOD")).unwrap();
    let model = folder.join(format!("{STEM}.m2"));
    std::fs::write(&model, &bytes).unwrap();
    for (i, skin) in skins.iter().enumerate() {
        std::fs::write(folder.join(format!("LOD/Pounder_{i}.skin")), skin).unwrap();
    }
    std::fs::copy(fixtures().join("blp/dxt1.blp"), folder.join("Gnome_Body.BLP")).unwrap();
    let mut lines = vec![format!("1;creature/gnome/{STEM}.m2"), format!("{TEXTURE_ID};creature/gnome/gnome_body.blp")];
    lines.extend(SKIN_IDS.iter().enumerate().map(|(i, id)| format!("{id};creature/gnome/lod/pounder_{i}.skin")));
    let listed = Listed::new(Listfile::parse(lines.join("\n").as_bytes()), Vec::new());
    assert_eq!(listed.roots_for(&model), [std::path::absolute(game.path()).unwrap()]);

    let (opened, glb, losses) = textured_glb(&model, Some(&listed));
    let read: Vec<String> = opened.files.iter().map(|p| relic::file_name(p)).collect();
    assert_eq!(
        read,
        [
            format!("{STEM}.m2"),
            "Pounder_0.skin".into(),
            "Pounder_1.skin".into(),
            "Pounder_2.skin".into(),
            "Pounder_3.skin".into()
        ]
    );
    let paths: Vec<&str> = opened.model.materials.iter().flat_map(|m| &m.textures).map(|t| t.path.as_str()).collect();
    assert!(paths.contains(&"creature\\gnome\\gnome_body.blp"), "{paths:?}");
    assert!(!opened.notes.iter().any(|n| n.to_string().contains("unresolved")), "{:?}", opened.notes);
    assert_eq!(images(&glb), 1, "{losses:?}");
    // Written as M2 again: compared with the skins read (recorded under their conventional names),
    // not with the files of those names beside the model (there are none).
    let m2 = Target::from_name("m2").unwrap();
    let out = game.path().join("again.m2");
    let again = relic::convert(&opened.model, m2, &out, &ConvertOptions::default()).unwrap();
    let read_beside = &opened.model.original.as_ref().unwrap().files[1..];
    assert_eq!(
        read_beside.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(),
        (0..4).map(|i| format!("{STEM}{i:02}.skin")).collect::<Vec<_>>()
    );
    let compared = relic::original::compare_with_source(&model, &bytes, "m2", "m2", &again.value, read_beside).unwrap();
    assert!(compared.identical() && compared.files == 5, "{:?}", compared.differences);
    let unrecorded = relic::original::compare_with_source(&model, &bytes, "m2", "m2", &again.value, &[]).unwrap();
    assert_eq!(unrecorded.differences.len(), 4, "{:?}", unrecorded.differences);

    // Back from the glb: the chunked file as it was (its texture unnamed, named by TXID), and
    // ported down to 264 with the listfile's name in the file.
    let glb_path = game.path().join("gnome.glb");
    std::fs::write(&glb_path, &glb).unwrap();
    let back = relic::open(&glb_path).unwrap().model;
    let options = ConvertOptions { listed: Some(listed.clone()), ..ConvertOptions::default() };
    let same = relic::convert(&back, m2, &game.path().join("back.m2"), &options).unwrap();
    assert!(same.value[0].1 == bytes, "the chunked file differs after the glb: {:?}", same.losses);
    let options = ConvertOptions { version: Some(264), ..ConvertOptions::default() };
    let ported = relic::convert(&back, m2, &game.path().join("ported.m2"), &options).unwrap();
    let wrath = &ported.value[0].1;
    let name = b"creature\\gnome\\gnome_body.blp\0";
    assert!(wrath.windows(name.len()).any(|w| w == name), "the 264 file names its texture");

    // Without the listfile the renamed skins are not found: the model is refused, naming the id.
    let e = relic::open(&model).unwrap_err().to_string();
    assert!(e.contains(&format!("{STEM}00.skin (FileDataID 1000100, no listfile given)")), "{e}");
}

#[test]
fn without_a_listfile_files_have_the_names_extractors_give_them() {
    let (bytes, skins) = model_and_skins();
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join(format!("{STEM}.m2"));
    std::fs::write(&model, &bytes).unwrap();
    for (i, skin) in skins.iter().enumerate() {
        std::fs::write(dir.path().join(format!("{STEM}{i:02}.skin")), skin).unwrap();
    }
    let (opened, glb, losses) = textured_glb(&model, None);
    assert_eq!(images(&glb), 0, "no {TEXTURE_ID}.blp yet");
    assert!(losses.iter().any(|l| l.contains(&format!("{TEXTURE_ID}.blp")) && l.contains("not found")), "{losses:?}");
    let note = opened.notes.iter().map(ToString::to_string).find(|n| n.contains("unresolved")).unwrap();
    assert!(note.contains(&format!("{TEXTURE_ID} (texture 0)")), "{note}");
    std::fs::copy(fixtures().join("blp/dxt1.blp"), dir.path().join(format!("{TEXTURE_ID}.blp"))).unwrap();
    let (_, glb, losses) = textured_glb(&model, None);
    assert_eq!(images(&glb), 1, "{losses:?}");
}

#[test]
fn a_listfile_that_cannot_be_read_is_named() {
    let e = relic::read_listfile(Path::new("no/such/listfile.csv")).unwrap_err();
    assert!(e.is_usage());
    assert!(e.to_string().starts_with("listfile no/such/listfile.csv: cannot read:"), "{e}");
}
