//! Nod NOD v7 and NAD v3 (a NAD is read onto the 64-bone fixture skeleton): parse → write →
//! parse equal; `info`; NOD read_model → glTF and → NOD → read back; NAD read_animation → glTF and
//! → write_animation → read back.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use relic_core::Model;
use relic_fuzz::{CountingAllocator, bounded, fixed_point, model_checks, same, writers};
use relic_nod::options::NadOptions;
use relic_nod::{read as parse_nod, read_nad as parse_nad, write, write_nad};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// The skeleton NADs are read onto: 64 bones, so every bone number a NAD may name exists.
fn skeleton() -> &'static Model {
    static SKELETON: OnceLock<Model> = OnceLock::new();
    SKELETON.get_or_init(|| {
        relic_nod::read_model(include_bytes!("../../fixtures/nod/bones64.nod")).unwrap_or_else(|e| panic!("{e}"))
    })
}

fuzz_target!(|data: &[u8]| {
    let skeleton = skeleton();
    let _ = bounded("info", data, relic_nod::info);
    let _ = bounded("detect", data, relic_nod::detect);
    if let Ok(file) = bounded("parse_nod", data, parse_nod) {
        let out = write(&file).unwrap_or_else(|e| panic!("a parsed NOD does not write: {e}"));
        let back = parse_nod(&out).unwrap_or_else(|e| panic!("the re-written NOD does not parse: {e}"));
        same("nod", &file, &back);
        fixed_point("nod", &out, write(&back));
    }
    if let Ok(nad) = bounded("parse_nad", data, parse_nad) {
        let out = write_nad(&nad).unwrap_or_else(|e| panic!("a parsed NAD does not write: {e}"));
        let back = parse_nad(&out).unwrap_or_else(|e| panic!("the re-written NAD does not parse: {e}"));
        same("nad", &nad, &back);
        fixed_point("nad", &out, write_nad(&back));
    }
    if let Ok(model) = bounded("read_model", data, relic_nod::read_model) {
        model_checks(&model, &writers("nod", &[None]));
    }
    let options = NadOptions::default();
    let read = |b: &[u8]| relic_nod::read_animation(skeleton, b, "fuzz", &options);
    if let Ok(animation) = bounded("read_animation", data, read) {
        let mut model = skeleton.clone();
        model.animations.push(animation);
        let _ = relic_gltf::export_glb(&model, &relic_gltf::ExportOptions::default());
        if let Ok(out) = relic_nod::write_animation(&model, 0, &options) {
            let again = relic_nod::read_animation(skeleton, &out.value, "fuzz", &options);
            again.unwrap_or_else(|e| panic!("the written NAD does not read: {e}"));
        }
    }
});
