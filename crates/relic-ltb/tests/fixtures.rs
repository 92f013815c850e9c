//! Every fixture: parses, writes back byte for byte, goes through the model and back byte for
//! byte, passes the format's checks, and without its extras writes a file with the model's counts;
//! every hostile fixture gives a typed error, never a panic.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use relic_core::WriteOptions;
use relic_core::model::Model;

fn fixtures(dir: &str) -> Vec<(String, Vec<u8>)> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures").join(dir);
    relic_testkit::files_with_extension(&path, "ltb").into_iter().filter(|(n, _)| !n.contains('/')).collect()
}

fn counts(m: &Model) -> (usize, usize, usize, usize, usize) {
    (m.bones.len(), m.meshes.len(), m.animations.len(), m.attachments.len(), m.triangle_count())
}

#[test]
fn fixtures_read_write_and_convert_exactly() {
    let files = fixtures("ltb");
    assert!(files.len() >= 11, "{} fixtures", files.len());
    for (name, bytes) in files {
        let file = relic_ltb::read(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(relic_ltb::write(&file).unwrap() == bytes, "{name}: rewrite differs");
        let model = relic_ltb::read_model(&bytes).unwrap();
        model.validate().unwrap_or_else(|e| panic!("{name}: {e}"));
        let back = relic_ltb::write_model(&model, &WriteOptions::default()).unwrap();
        assert!(back.value == bytes && back.losses.is_empty(), "{name}: model round trip differs {:?}", back.losses);
        let checks = relic_ltb::verify::corpus_checks(&bytes);
        assert!(checks.passed(), "{name}: {:?}", checks.failures().collect::<Vec<_>>());
        // Without the extras: a valid file with the model's counts, every reduction reported.
        let mut plain = model.clone();
        plain.extras = None;
        let out = relic_ltb::write_model(&plain, &WriteOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let again = relic_ltb::read_model(&out.value).unwrap_or_else(|e| panic!("{name} without extras: {e}"));
        let morphs = model.meshes.iter().any(|m| !m.morph_targets.is_empty());
        assert!(
            morphs || counts(&again) == counts(&model) || model.meshes.iter().any(|m| m.positions.is_empty()),
            "{name}: {:?} → {:?}",
            counts(&model),
            counts(&again)
        );
        println!("{name}: {} losses without extras", out.losses.len());
    }
}

#[test]
fn hostile_fixtures_are_typed_errors() {
    let files = fixtures("ltb/hostile");
    assert!(files.len() >= 18, "{} hostile fixtures", files.len());
    for (name, bytes) in files {
        let e = relic_ltb::read(&bytes).err().unwrap_or_else(|| panic!("{name} was read"));
        assert!(relic_ltb::read_model(&bytes).is_err() && relic_ltb::info(&bytes).is_err(), "{name}");
        println!("{name}: {e}");
    }
}

/// Every version writes: a model read from v25 written as 23 and 24 (the OBB record size differs).
#[test]
fn every_version_is_written() {
    let (_, bytes) = fixtures("ltb").into_iter().find(|(n, _)| n == "v24_skeletal.ltb").unwrap();
    let model = relic_ltb::read_model(&bytes).unwrap();
    for version in 23..=25 {
        let out = relic_ltb::write_model(&model, &WriteOptions { version: Some(version) }).unwrap();
        let file = relic_ltb::read(&out.value).unwrap();
        assert_eq!((file.version(), file.header.obbs.len()), (version, 2));
        assert_eq!(file.header.obbs[0].radius.is_some(), version >= 24);
    }
    assert!(relic_ltb::write_model(&model, &WriteOptions { version: Some(26) }).is_err());
}

/// A LOD rebuilt from a changed mesh says what of the stored LOD it could not keep.
#[test]
fn rebuilt_lods_report_what_the_stored_ones_had() {
    let (_, bytes) = fixtures("ltb").into_iter().find(|(n, _)| n == "v25_streams.ltb").unwrap();
    let mut model = relic_ltb::read_model(&bytes).unwrap();
    model.meshes[0].positions[0][1] += 1.0;
    let out = relic_ltb::write_model(&model, &WriteOptions::default()).unwrap();
    let text: Vec<String> = out.losses.iter().map(ToString::to_string).collect();
    for what in ["vertex colours", "UV sets 3 and 4", "basis vectors"] {
        assert!(text.iter().any(|l| l.contains(what) && l.contains("every_field")), "{what}: {text:?}");
    }
    let back = relic_ltb::read(&out.value).unwrap();
    assert_eq!(back.pieces[1..], relic_ltb::read(&bytes).unwrap().pieces[1..], "the other pieces are stored ones");
}

/// A file changed in code so that it breaks a rule the reader checks is refused by `to_ir`, with
/// the field, instead of mapped with zeros where its data is missing (issue 30): a LOD without its
/// distance (it became distance 0), a palette index past the re-index list (it became node 0), a
/// stream short of weights (they became weight 0).
#[test]
fn to_ir_refuses_a_file_that_breaks_the_readers_rules() {
    let read = |name: &str| {
        let (_, bytes) = fixtures("ltb").into_iter().find(|(n, _)| n == name).unwrap();
        let file = relic_ltb::read(&bytes).unwrap();
        assert!(relic_ltb::to_ir(&file).is_ok(), "{name}");
        file
    };
    let refused = |file: &relic_ltb::LtbFile, field: &str| {
        let e = relic_ltb::to_ir(file).err().unwrap_or_else(|| panic!("{field}: mapped"));
        assert!(e.to_string().contains(field), "{field}: {e}");
    };
    let mut file = read("v25_full.ltb");
    file.pieces[0].lod_distances.pop();
    refused(&file, "pieces[0]: 1 LOD distances for 2 LODs");

    let palette = read("v25_matrix_palette.ltb");
    let skeletal = |file: &relic_ltb::LtbFile| -> relic_ltb::file::SkeletalMesh {
        match &file.pieces[0].lods[0].object {
            relic_ltb::file::RenderObject::Skeletal(m) => m.clone(),
            other => panic!("{other:?}"),
        }
    };
    let mut file = palette.clone();
    let mut mesh = skeletal(&file);
    let slots = mesh.palette.as_ref().and_then(|p| p.reindex.as_ref()).map_or(file.nodes.len(), Vec::len);
    mesh.streams[0].bone_indices[0][0] = slots as u8;
    file.pieces[0].lods[0].object = relic_ltb::file::RenderObject::Skeletal(mesh);
    refused(&file, "bone index");

    let mut file = palette;
    let mut mesh = skeletal(&file);
    mesh.streams[0].blend_weights.pop();
    file.pieces[0].lods[0].object = relic_ltb::file::RenderObject::Skeletal(mesh);
    refused(&file, "pieces[0]: lods[0].object: streams[0]");
}
