//! The extras as JSON text (glTF's path): what the model gives back is left out and rebuilt from
//! the model, so a model carried as text still writes its file byte for byte, and an edited model
//! writes what the typed extras would.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use common::{all_files, blizzard_layout};
use relic_core::format::Input;
use relic_core::model::{ChannelValues, FormatExtras, Model};
use relic_core::{WriteOptions, format::Written};
use relic_m2::wrath::SiblingBytes;

/// `model` with its extras replaced by the JSON carried beside it.
fn carried(model: &Model) -> (Model, usize, usize) {
    let extras = model.extras.as_ref().unwrap();
    let (whole, beside) = (extras.json().unwrap(), extras.json_beside(model).unwrap());
    let mut out = model.clone();
    out.extras = Some(FormatExtras::from_json(relic_m2::FORMAT, beside.clone()));
    (out, whole.len(), beside.len())
}

#[test]
fn carried_extras_write_every_file_back() {
    let mut smaller = 0;
    for (name, bytes) in all_files() {
        let model = relic_m2::read_model(&bytes).unwrap();
        let (via_text, whole, beside) = carried(&model);
        smaller += usize::from(beside < whole);
        let out = relic_m2::write_model(&via_text, &WriteOptions::default()).unwrap();
        assert!(out.losses.is_empty(), "{name}: {:?}", out.losses);
        // The layout a file was read with does not travel as JSON: a foreign one comes back in
        // Blizzard's layout through the text (and as it was through the typed extras).
        if blizzard_layout(&name) {
            assert!(out.value == bytes, "{name}: not byte-identical through the carried extras");
            let typed = relic_m2::write_model(&model, &WriteOptions::default()).unwrap();
            assert!(out.value == typed.value, "{name}: the carried extras write otherwise than the typed ones");
        }
        eprintln!("{name}: extras {whole} → {beside} bytes of JSON beside the model");
    }
    // Every file with animated bones leaves tracks out (the fixtures include a still one).
    assert!(smaller >= 3, "{smaller} files left tracks out");
}

/// An edited channel: the carried extras rebuild the edited track, exactly as the typed extras
/// (which hold the old one) lead the writer to.
#[test]
fn an_edited_model_writes_the_same_through_carried_extras() {
    // A foreign layout is kept by the typed extras only (see above).
    let (mut edited_files, mut still) = (0, Vec::new());
    for (name, bytes) in all_files().into_iter().filter(|(n, _)| blizzard_layout(n)) {
        let model = relic_m2::read_model(&bytes).unwrap();
        let (mut via_text, _, _) = carried(&model);
        let mut edited = model.clone();
        let Some(channel) = edited
            .animations
            .iter_mut()
            .flat_map(|a| a.channels.iter_mut())
            .find(|c| matches!(&c.values, ChannelValues::Translation(v) if v.len() > 1))
        else {
            still.push(name);
            continue;
        };
        if let ChannelValues::Translation(v) = &mut channel.values {
            v[1][1] += 0.25;
        }
        via_text.animations = edited.animations.clone();
        let typed = relic_m2::write_model(&edited, &WriteOptions::default()).unwrap();
        let text = relic_m2::write_model(&via_text, &WriteOptions::default()).unwrap();
        assert_ne!(typed.value, bytes, "{name}: the edit changed nothing");
        assert!(text.value == typed.value, "{name}: the edit is written otherwise through carried extras");
        assert_eq!(text.losses, typed.losses, "{name}");
        edited_files += 1;
    }
    // The 21 fixtures in Blizzard's layout and, with the corpus, its 10 M2 files (MANIFEST.md):
    // every one edited but those with no moving translation, named here.
    let corpus = relic_testkit::corpus_dir("an edited model through carried extras").is_some();
    let mut unmoving = vec!["v256_static.m2"];
    if corpus {
        unmoving.extend([
            "wow-data/Interface/Cooldown/UI-Cooldown-Indicator.m2",
            "wow-data/Interface/Minimap/MinimapArrow.m2",
            "wow-data/Interface/Minimap/Ping/MinimapPing.m2",
            "wow-data/Interface/Minimap/Rotating-MinimapArrow.m2",
        ]);
    }
    assert_eq!(still, unmoving, "files without a moving translation to edit");
    assert_eq!(edited_files, if corpus { 20 + 6 } else { 20 }, "files edited and written both ways");
}

/// A Wrath model carries only its Wrath file (its 256–263 form is derived again) and writes back
/// with its `.skin` files byte for byte.
#[test]
fn wrath_models_carry_their_file_once() {
    let Some(dir) = relic_testkit::corpus_dir("real Wrath M2 files") else { return };
    let dir = dir.join("m2-wrath");
    let all = relic_testkit::files_in(&dir);
    let siblings = SiblingBytes(all.clone());
    let (mut checked, mut smaller) = (0, 0);
    for (name, bytes) in all.iter().filter(|(n, _)| n.ends_with(".m2")) {
        if relic_testkit::known_failure("carried extras", &format!("m2-wrath/{name}")).is_some() {
            continue;
        }
        let input = Input { bytes, name, siblings: &siblings };
        let model = relic_m2::read_input(&input).unwrap().value;
        let plain = model.extras.as_ref().unwrap().json().unwrap();
        // The carried form's first field is the 256–263 file, left out when it is derived.
        assert!(plain.starts_with("{\"vertex_digest\""), "{name}: the 256–263 form is carried");
        let (via_text, whole, beside) = carried(&model);
        // A model with no keyed bone track the channels rebuild (tank.m2: 2 bones, 1 sequence)
        // has nothing to leave out.
        assert!(beside <= whole, "{name}: {beside} bytes beside the model, {whole} whole");
        smaller += usize::from(beside < whole);
        let Written { bytes: m2, siblings: files } =
            relic_m2::write_files(&via_text, &WriteOptions::default()).unwrap().value;
        assert!(m2 == *bytes, "{name}: not byte-identical through the carried extras");
        for f in &files {
            let stem = name.trim_end_matches(".m2");
            let original = all.iter().find(|(n, _)| *n == format!("{stem}{}", f.suffix)).unwrap();
            assert!(f.bytes == original.1, "{name}: {} differs", f.suffix);
        }
        checked += 1;
    }
    assert!(smaller >= 2, "only {smaller} Wrath models left tracks out");
    assert!(checked >= 2, "{checked} Wrath models");
}

/// Extras that arrive as text and do not read as M2's are a loss, not a silent rebuild from the
/// model alone.
#[test]
fn unreadable_carried_extras_are_a_loss() {
    let (name, bytes) = all_files().into_iter().next().unwrap();
    let mut model = relic_m2::read_model(&bytes).unwrap();
    model.extras = Some(FormatExtras::from_json(relic_m2::FORMAT, "{\"file\": 7}".into()));
    let out = relic_m2::write_model(&model, &WriteOptions::default()).unwrap();
    assert!(
        out.losses.iter().any(|l| l.element == "extras" && l.what.contains("do not read")),
        "{name}: {:?}",
        out.losses
    );
    let files = relic_m2::write_files(&model, &WriteOptions { version: Some(264) }).unwrap();
    assert!(files.losses.iter().any(|l| l.element == "extras"), "{name}: {:?}", files.losses);
}

/// Text extras edited into references the reader refuses: the Wrath files are built from the
/// model alone, with a loss, as the 256–263 file is, never written unreadable.
#[test]
fn edited_text_extras_never_make_unreadable_wrath_files() {
    let bytes = common::fixture("v256_linear.m2");
    let model = relic_m2::read_model(&bytes).unwrap();
    let text = model.extras.as_ref().unwrap().json_beside(&model).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
    // (Collision triangles past the collision vertices were the edit once: the game loads them,
    // so they are a note now, not a refusal.) A camera lookup naming camera 9 of 1 is refused.
    json["file"]["camera_lookup"] = serde_json::json!([9]);
    let mut edited = model.clone();
    edited.extras = Some(FormatExtras::from_json(relic_m2::FORMAT, json.to_string()));
    let classic = relic_m2::write_model(&edited, &WriteOptions::default()).unwrap();
    assert!(classic.losses.iter().any(|l| l.element == "extras"), "{:?}", classic.losses);
    for version in [264, 272] {
        let out = relic_m2::write_files(&edited, &WriteOptions { version: Some(version) }).unwrap();
        assert!(out.losses.iter().any(|l| l.element == "extras"), "v{version}: {:?}", out.losses);
        let files = out.value.siblings.iter().map(|s| (format!("back{}", s.suffix), s.bytes.clone())).collect();
        let input = Input { bytes: &out.value.bytes, name: "back.m2", siblings: &SiblingBytes(files) };
        relic_m2::read_input(&input).unwrap();
    }
}

/// The emitters travel with the model (glTF nodes of their own), so the text beside it leaves
/// them out: an emitter deleted from the model (in an editor) is not written back from the text.
#[test]
fn emitters_travel_with_the_model_not_in_the_text() {
    let bytes = common::fixture("v256_effects.m2");
    let model = relic_m2::read_model(&bytes).unwrap();
    assert_eq!(model.emitters.len(), 2, "one particle, one ribbon");
    let (via_text, _, _) = carried(&model);
    let text = via_text.extras.as_ref().unwrap().json().unwrap();
    assert!(text.contains("\"emitters_in_model\":true"), "{text}");
    let out = relic_m2::write_model(&via_text, &WriteOptions::default()).unwrap();
    assert!(out.value == bytes, "the emitters come back from the model");
    let mut without = via_text.clone();
    without.emitters.clear();
    let out = relic_m2::write_model(&without, &WriteOptions::default()).unwrap();
    let file = relic_m2::read(&out.value).unwrap();
    assert_eq!((file.particle_emitters.len(), file.ribbon_emitters.len()), (0, 0), "deleted emitters stay deleted");
}

/// `model` with emitter `i`'s M2 record as JSON text, edited by `edit` (glTF's path: an editor
/// may change any of it).
fn with_edited_emitter(model: &Model, i: usize, edit: impl Fn(&mut serde_json::Value)) -> Model {
    let mut out = model.clone();
    let record = out.emitters[i].record.as_ref().unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&record.json().unwrap()).unwrap();
    edit(&mut json);
    out.emitters[i].record = Some(FormatExtras::from_json(relic_m2::FORMAT, json.to_string()));
    out
}

/// An emitter record edited into tracks the reader refuses (the `gltf` fuzz target's finding:
/// global sequence −2 or −7, interpolation 5, a key range past the keys): every writer drops that
/// emitter, says so naming it and the reader's complaint, and keeps the other; never a file its
/// own reader refuses.
#[test]
fn an_emitter_edited_into_tracks_the_reader_refuses_is_dropped_with_a_loss() {
    let bytes = common::fixture("v256_effects.m2");
    let model = relic_m2::read_model(&bytes).unwrap();
    let (model, _, _) = carried(&model);
    // (emitter, what the reader says, record, track, field, edited value)
    let edits = [
        (0, "global sequence -2", "particle", "emission_speed", "global_sequence", serde_json::json!(-2)),
        (0, "interpolation type 5", "particle", "emission_speed", "interpolation", serde_json::json!(5)),
        (1, "global sequence -7", "ribbon", "color", "global_sequence", serde_json::json!(-7)),
        (1, "points past the", "ribbon", "color", "ranges", serde_json::json!([[0, 4], [0, 0]])),
    ];
    for (i, said, record, track, field, value) in edits {
        let edited = with_edited_emitter(&model, i, |j| j[record][track][field] = value.clone());
        for version in [256, 260, 263] {
            let out = relic_m2::write_model(&edited, &WriteOptions { version: Some(version) }).unwrap();
            let file = relic_m2::read(&out.value).unwrap_or_else(|e| panic!("{said}, v{version}: {e}"));
            let dropped: Vec<_> =
                out.losses.iter().filter(|l| l.element.starts_with(&format!("emitters[{i}]"))).collect();
            assert!(dropped.len() == 1 && dropped[0].what.contains(said), "{said}, v{version}: {:?}", out.losses);
            let kept = (file.particle_emitters.len(), file.ribbon_emitters.len());
            assert_eq!(kept, if i == 0 { (0, 1) } else { (1, 0) }, "{said}, v{version}: the other emitter is kept");
        }
        for version in [264, 272, 274] {
            let out = relic_m2::write_files(&edited, &WriteOptions { version: Some(version) }).unwrap();
            let files = out.value.siblings.iter().map(|s| (format!("back{}", s.suffix), s.bytes.clone())).collect();
            let input = Input { bytes: &out.value.bytes, name: "back.m2", siblings: &SiblingBytes(files) };
            let back = relic_m2::read_input(&input).unwrap_or_else(|e| panic!("{said}, v{version}: {e}"));
            // The Wrath writer splits a classic track's keys by sequence: a range past the keys
            // gives the keys there are, read back. An emitter not written is a loss.
            let named = out.losses.iter().any(|l| l.element.starts_with(&format!("emitters[{i}]")));
            assert!(named || back.value.emitters.len() == 2, "{said}, v{version}: {:?}", out.losses);
            assert!(named || said == "points past the", "{said}, v{version}: {:?}", out.losses);
        }
    }
}
