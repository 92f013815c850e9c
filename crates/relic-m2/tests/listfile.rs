//! FileDataIDs resolved through a listfile (issue 40 item 3, m2-md21.md §9): the chunked
//! fixture's `.skin` files found by the listfile's names beside the model or under the data
//! folder, else by their conventional names; an id found nowhere named in the refusal; a texture
//! `TXID` names and the file does not gets the listfile's path, else `<id>.blp` with a note, and
//! keeps it when the model is ported down to 264.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

#[path = "../../../xtask/src/fixtures/m2_md21/stated.rs"]
mod stated;

use relic_core::format::{Input, Listfile, Siblings};
use relic_core::info::Fact;
use relic_core::{ReadErrorKind, WriteOptions};
use relic_m2::md21;

/// Files beside the model and under a data folder (by game path), with a listfile.
struct Listed {
    beside: Vec<(String, Vec<u8>)>,
    tree: Vec<(String, Vec<u8>)>,
    listfile: Option<Listfile>,
}

impl Siblings for Listed {
    fn read(&self, name: &str) -> std::io::Result<Option<Vec<u8>>> {
        Ok(self.beside.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, b)| b.clone()))
    }

    fn listfile(&self) -> Option<&Listfile> {
        self.listfile.as_ref()
    }

    fn read_game_path(&self, path: &str, _known_as: &str) -> std::io::Result<Option<Vec<u8>>> {
        Ok(self.tree.iter().find(|(n, _)| n.eq_ignore_ascii_case(path)).map(|(_, b)| b.clone()))
    }
}

/// The fixture's model and its four skins by their conventional names.
fn fixture() -> (Vec<u8>, Vec<(String, Vec<u8>)>) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/m2-md21");
    let model = std::fs::read(dir.join(format!("{}.m2", stated::STEM))).unwrap();
    let skins = (0..4).map(|i| format!("{}{i:02}.skin", stated::STEM));
    (model, skins.map(|n| (n.clone(), std::fs::read(dir.join(&n)).unwrap())).collect())
}

const NAME: &str = "v274_chunked.m2";

/// The listfile naming the fixture's skins `creature/gnome/Gnome_Pounder0N.skin`.
fn skin_listfile(extra: &str) -> Listfile {
    let lines: Vec<String> = stated::SKIN_FILE_IDS
        .iter()
        .enumerate()
        .map(|(i, id)| format!("{id};creature/gnome/Gnome_Pounder{i:02}.skin"))
        .collect();
    Listfile::parse(format!("{}\r\n{extra}", lines.join("\r\n")).as_bytes())
}

/// The fixture's skins renamed as the listfile names them.
fn listed_names(skins: &[(String, Vec<u8>)], path: bool) -> Vec<(String, Vec<u8>)> {
    let prefix = if path { "Creature/Gnome/" } else { "" };
    skins.iter().enumerate().map(|(i, (_, b))| (format!("{prefix}gnome_pounder{i:02}.SKIN"), b.clone())).collect()
}

#[test]
fn skins_are_found_by_the_listfiles_names_beside_the_model_or_under_the_data_folder() {
    let (bytes, skins) = fixture();
    let plain =
        md21::read(&Input { bytes: &bytes, name: NAME, siblings: &relic_m2::wrath::SiblingBytes(skins.clone()) })
            .unwrap();
    // Beside the model, by the listfile's file names (any case).
    let beside = Listed { beside: listed_names(&skins, false), tree: Vec::new(), listfile: Some(skin_listfile("")) };
    let m = md21::read(&Input { bytes: &bytes, name: NAME, siblings: &beside }).unwrap();
    assert_eq!(m.model, plain.model);
    // Under the data folder, by the listfile's path; nothing beside the model.
    let tree = Listed { beside: Vec::new(), tree: listed_names(&skins, true), listfile: Some(skin_listfile("")) };
    let m = md21::read(&Input { bytes: &bytes, name: NAME, siblings: &tree }).unwrap();
    assert_eq!(m.model, plain.model);
    // Without the listfile the renamed skins are not found: the first one is named with its id.
    let unlisted = Listed { beside: listed_names(&skins, false), tree: Vec::new(), listfile: None };
    let e = md21::read(&Input { bytes: &bytes, name: NAME, siblings: &unlisted }).unwrap_err();
    let ReadErrorKind::Incomplete { missing, .. } = &e.kind else { panic!("{e}") };
    assert_eq!(missing, &["v274_chunked00.skin (FileDataID 1000100, no listfile given)"]);
}

#[test]
fn an_id_the_listfile_lacks_falls_back_to_the_conventional_name_or_is_named() {
    let (bytes, skins) = fixture();
    // 1000100 is not in this listfile: its skin is found by its conventional name.
    let listfile = Listfile::parse(
        b"1000101;a/gnome_pounder01.skin\n1000102;a/gnome_pounder02.skin\n1000103;a/gnome_pounder03.skin",
    );
    let mut beside = listed_names(&skins, false);
    beside[0] = skins[0].clone();
    let ok = Listed { beside: beside.clone(), tree: Vec::new(), listfile: Some(listfile.clone()) };
    let m = md21::read(&Input { bytes: &bytes, name: NAME, siblings: &ok }).unwrap();
    assert_eq!(m.model.skins.len(), 4);
    assert!(
        m.notes.iter().any(|n| n
            == "1 FileDataID is not in the listfile: read by its conventional name: 1000100 (v274_chunked00.skin)"),
        "{:?}",
        m.notes
    );
    // Nowhere: the refusal names the id.
    beside.remove(0);
    let missing = Listed { beside, tree: Vec::new(), listfile: Some(listfile) };
    let e = md21::read(&Input { bytes: &bytes, name: NAME, siblings: &missing }).unwrap_err();
    let ReadErrorKind::Incomplete { missing, .. } = &e.kind else { panic!("{e}") };
    assert_eq!(missing, &["v274_chunked00.skin (FileDataID 1000100, not in the listfile)"]);
    // A later LOD found nowhere is a note naming its id.
    let (bytes, skins) = fixture();
    let mut beside = skins.clone();
    beside.truncate(3);
    let listfile = skin_listfile("");
    let partial = Listed { beside, tree: Vec::new(), listfile: Some(listfile) };
    let m = md21::read(&Input { bytes: &bytes, name: NAME, siblings: &partial }).unwrap();
    assert_eq!(m.model.skins.len(), 3);
    assert!(
        m.model.notes.iter().any(|n| n.contains("FileDataID 1000103: creature/gnome/Gnome_Pounder03.skin")),
        "{:?}",
        m.model.notes
    );
}

#[test]
fn info_shows_each_id_with_its_listfile_path() {
    let (bytes, skins) = fixture();
    let text = |siblings: &dyn Siblings, key: &str| {
        let info = relic_m2::info_input(&Input { bytes: &bytes, name: NAME, siblings }).unwrap();
        match info.get(key) {
            Some(Fact::Text(t)) => t.clone(),
            other => panic!("{key}: {other:?}"),
        }
    };
    let listed = Listed {
        beside: skins.clone(),
        tree: Vec::new(),
        listfile: Some(skin_listfile("1000200;Creature/Gnome/Gnome_Body.blp")),
    };
    assert_eq!(
        text(&listed, "skin_file_ids"),
        "1000100 (creature/gnome/Gnome_Pounder00.skin), 1000101 (creature/gnome/Gnome_Pounder01.skin), \
         1000102 (creature/gnome/Gnome_Pounder02.skin), 1000103 (creature/gnome/Gnome_Pounder03.skin)"
    );
    assert_eq!(text(&listed, "texture_file_ids"), "1000200 (Creature/Gnome/Gnome_Body.blp), 0");
    let plain = relic_m2::wrath::SiblingBytes(skins);
    assert_eq!(text(&plain, "texture_file_ids"), "1000200 (unresolved), 0");
}

/// The fixture with its texture 0 (the one `TXID` names 1000200) stored without a name, as
/// Legion files store the textures they name by id.
fn unnamed_texture() -> (Vec<u8>, Vec<(String, Vec<u8>)>) {
    let (bytes, skins) = fixture();
    let siblings = relic_m2::wrath::SiblingBytes(skins.clone());
    let mut m = md21::read(&Input { bytes: &bytes, name: NAME, siblings: &siblings }).unwrap();
    assert_eq!(m.model.file.textures[0].kind, 0);
    assert_ne!(m.model.file.textures[0].filename_text(), "");
    m.model.file.textures.items[0].filename = relic_m2::file::M2Array::new(Vec::new());
    let (bytes, _) = md21::write(&m).unwrap();
    (bytes, skins)
}

/// The path of the model's texture of type 0 (the one `TXID` names).
fn texture_path(model: &relic_core::Model) -> String {
    let paths: Vec<&str> = model
        .materials
        .iter()
        .flat_map(|m| &m.textures)
        .filter(|t| t.replaceable.is_none())
        .map(|t| t.path.as_str())
        .collect();
    assert!(paths.windows(2).all(|w| w[0] == w[1]), "{paths:?}");
    paths[0].to_string()
}

#[test]
fn a_texture_named_only_by_id_takes_the_listfile_path_or_the_id() {
    let (bytes, skins) = unnamed_texture();
    let plain = Listed { beside: skins.clone(), tree: Vec::new(), listfile: None };
    let read = relic_m2::read_input(&Input { bytes: &bytes, name: NAME, siblings: &plain }).unwrap();
    assert_eq!(texture_path(&read.value), "1000200.blp");
    let note = read.losses.iter().map(ToString::to_string).find(|l| l.contains("1000200")).unwrap();
    assert!(note.contains("1 texture FileDataIDs unresolved (no listfile given)"), "{note}");
    let listfile = Listfile::parse(b"1000200;Creature/Gnome/Gnome_Body.blp");
    let listed = Listed { beside: skins, tree: Vec::new(), listfile: Some(listfile) };
    let read = relic_m2::read_input(&Input { bytes: &bytes, name: NAME, siblings: &listed }).unwrap();
    assert_eq!(texture_path(&read.value), "Creature\\Gnome\\Gnome_Body.blp");
    assert!(!read.losses.iter().any(|l| l.to_string().contains("1000200")), "{:?}", read.losses);
    // Written back as it was read (chunked, 274): the same bytes, the texture still unnamed.
    let same = relic_m2::write_files(&read.value, &WriteOptions::default()).unwrap();
    assert!(same.value.bytes == bytes, "the chunked file differs when written back");
    // Ported down to 264: the name is in the file, as the Wrath client needs it.
    let ported = relic_m2::write_files(&read.value, &WriteOptions { version: Some(264) }).unwrap();
    let files: Vec<(String, Vec<u8>)> =
        ported.value.siblings.iter().map(|s| (format!("ported{}", s.suffix), s.bytes.clone())).collect();
    let wrath = relic_m2::wrath::read(&Input {
        bytes: &ported.value.bytes,
        name: "ported.m2",
        siblings: &relic_m2::wrath::SiblingBytes(files),
    })
    .unwrap();
    assert_eq!(wrath.file.textures[0].filename_text(), "Creature\\Gnome\\Gnome_Body.blp");
    let note = ported.losses.iter().map(ToString::to_string).find(|l| l.contains("written as file names")).unwrap();
    assert!(note.contains("1 texture named by the listfile, 0 named <id>.blp"), "{note}");
}

/// The skeletal fixture's companions — skins (`SFID`), `.skel` (`SKID`) and its parent (`SKPD`),
/// the split `.anim` (`AFID`) and the `.bone` (`BFID`) — all renamed to a listfile's paths under
/// the data folder: the model reads the same as with the conventional names beside it; without
/// the listfile it is refused naming the `.skel`'s id.
#[test]
fn a_skeletal_models_companions_are_found_through_the_listfile() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/m2-md21");
    let stem = stated::SKELETAL_STEM;
    let read = |n: &str| std::fs::read(dir.join(n)).unwrap();
    let conventional: Vec<(String, Vec<u8>, u32)> = vec![
        (format!("{stem}00.skin"), read(&format!("{stem}00.skin")), stated::SKIN_FILE_IDS[0]),
        (format!("{stem}01.skin"), read(&format!("{stem}01.skin")), stated::SKIN_FILE_IDS[1]),
        (format!("{stem}.skel"), read(&format!("{stem}.skel")), stated::SKELETON_FILE_ID),
        ("1000301.skel".into(), read("1000301.skel"), stated::PARENT_SKELETON_FILE_ID),
        (format!("{stem}0000-00.anim"), read(&format!("{stem}0000-00.anim")), stated::ANIM_FILE_IDS[0].2),
        (format!("{stem}_00.bone"), read(&format!("{stem}_00.bone")), stated::BONE_FILE_IDS[0]),
    ];
    let bytes = read(&format!("{stem}.m2"));
    let name = format!("{stem}.m2");
    let beside: Vec<(String, Vec<u8>)> = conventional.iter().map(|(n, b, _)| (n.clone(), b.clone())).collect();
    let plain =
        md21::read(&Input { bytes: &bytes, name: &name, siblings: &relic_m2::wrath::SiblingBytes(beside) }).unwrap();
    assert_eq!(plain.model.file.bones.len(), 3, "the skeleton comes from the .skel");
    let ext = |n: &str| n.rsplit('.').next().unwrap().to_string();
    let lines: Vec<String> = conventional
        .iter()
        .enumerate()
        .map(|(i, (n, _, id))| format!("{id};world/listed/part{i}.{}", ext(n)))
        .collect();
    let tree: Vec<(String, Vec<u8>)> = conventional
        .iter()
        .enumerate()
        .map(|(i, (n, b, _))| (format!("World/Listed/PART{i}.{}", ext(n)), b.clone()))
        .collect();
    let listed =
        Listed { beside: Vec::new(), tree: tree.clone(), listfile: Some(Listfile::parse(lines.join("\n").as_bytes())) };
    let m = md21::read(&Input { bytes: &bytes, name: &name, siblings: &listed }).unwrap();
    assert_eq!(m.model.file, plain.model.file);
    assert_eq!(m.model.skins, plain.model.skins);
    // The .bone as read (its name is the one it was found by, for messages).
    let bones =
        |m: &md21::Md21| m.model.bone_files.iter().map(|(i, b)| (*i, b.version, b.chunks.clone())).collect::<Vec<_>>();
    assert_eq!(bones(&m), bones(&plain));
    assert_eq!(m.model.bone_files[0].1.name, "world/listed/part5.bone");
    let unlisted = Listed { beside: Vec::new(), tree, listfile: None };
    let e = md21::read(&Input { bytes: &bytes, name: &name, siblings: &unlisted }).unwrap_err();
    let ReadErrorKind::Incomplete { missing, .. } = &e.kind else { panic!("{e}") };
    assert_eq!(missing[0], "v274_skeletal.skel (FileDataID 1000300, no listfile given)");
}
