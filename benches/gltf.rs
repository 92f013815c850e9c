//! glTF benchmarks: export of a large synthetic model to `.glb` (throughput in output bytes) and
//! import of that file back (throughput in input bytes), beside a memcpy of the same bytes; and,
//! when the format crates read them, the real PARTNER_DANCIN.ABC and GnomePounder-vanilla.m2; and
//! Blizzard's UI_RS_Orc.m2 exported with and without its five BLP textures (decoded and embedded
//! as PNG: the textured export's target is 3× the untextured time at most).

// Benchmark set-up: a failure must stop the run loudly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use relic_benches::{bench_memcpy, synthetic_model};
use relic_core::Model;
use relic_gltf::{ExportOptions, export_glb, import};

fn bench_model(c: &mut Criterion, group: &str, name: &str, model: &Model) {
    let options = ExportOptions::default();
    let glb = export_glb(model, &options).unwrap().value;
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Bytes(glb.len() as u64));
    bench_memcpy(&mut g, name, &glb);
    g.bench_function(format!("export_glb/{name}"), |b| {
        b.iter(|| black_box(export_glb(black_box(model), &options).unwrap().value.len()))
    });
    g.bench_function(format!("import/{name}"), |b| {
        b.iter(|| black_box(import(black_box(&glb), None).unwrap().bones.len()))
    });
    g.finish();
}

fn synthetic(c: &mut Criterion) {
    // 100k vertices in 8 meshes, 64 bones, 4 influences, 10 clips of 30 keys on every bone.
    let model = synthetic_model(100_000, 8, 64, 4, 10, 30);
    bench_model(c, "gltf synthetic", "100k vertices, 64 bones, 10 clips", &model);
}

/// The real files, read through the format registry (the model alone, as the format reads it).
fn real(c: &mut Criterion) {
    for rel in ["abc/PARTNER_DANCIN.ABC", "m2/GnomePounder-vanilla.m2"] {
        let Some(bytes) = relic_benches::corpus_file(rel) else { continue };
        let read = relic::detect(&bytes).and_then(|k| k.entry.model).unwrap().read;
        let model = read(&relic_core::format::Input::bytes_only(&bytes)).unwrap().value;
        bench_model(c, "gltf corpus", rel, &model);
    }
}

/// UI_RS_Orc.m2 in the game's folder tree: the export untextured, and textured with the BLPs its
/// texture records name (found under the data root, decoded, embedded as PNG).
fn textured(c: &mut Criterion) {
    let Some(root) = relic_benches::corpus_dir() else { return };
    let data = root.join("wow-data");
    let path = data.join("Interface/Glues/Models/UI_RS_Orc/UI_RS_Orc.m2");
    let Ok(bytes) = std::fs::read(&path) else { return };
    let model = relic_m2::read_model(&bytes).unwrap();
    let search = relic::textures::TextureSearch { data: vec![data], ..Default::default() };
    let textures = relic::textures::GameTextures::new(&path, search);
    let with = ExportOptions { textures: Some(std::sync::Arc::new(textures)), ..ExportOptions::default() };
    let without = ExportOptions::default();
    let glb = export_glb(&model, &with).unwrap().value;
    let plain = export_glb(&model, &without).unwrap().value;
    assert!(glb.len() > plain.len() + 10_000, "the textures were found and embedded");
    let mut g = c.benchmark_group("gltf textured");
    g.throughput(Throughput::Bytes(glb.len() as u64));
    bench_memcpy(&mut g, "UI_RS_Orc", &glb);
    for (label, options) in [("untextured", &without), ("textured (5 BLP → PNG)", &with)] {
        g.bench_function(format!("export_glb {label}/UI_RS_Orc"), |b| {
            b.iter(|| black_box(export_glb(black_box(&model), options).unwrap().value.len()))
        });
    }
    g.finish();
}

criterion_group!(group, synthetic, real, textured);
criterion_main!(group);
