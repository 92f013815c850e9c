//! glTF import (.glb or .gltf JSON): the model passes `validate()`; it exports back to a .glb
//! that imports (unless it is degenerate: the README's known limit); every version of every game
//! format of the registry that accepts it writes a file its reader reads back.
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic_fuzz::{CountingAllocator, all_writers, bounded, degenerate, model_checks};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

fuzz_target!(|data: &[u8]| {
    if let Ok(model) = bounded("import", data, |b| relic_gltf::import(b, None)) {
        if let Err(e) = model.validate() {
            panic!("import returned an invalid model: {e}");
        }
        if let Ok(glb) = relic_gltf::export_glb(&model, &relic_gltf::ExportOptions::default()) {
            // The known limit (README): a bind matrix whose stored inverse is not its inverse, or
            // values beyond 1e18, overflow to ±∞ in what the export derives from them, and the
            // re-import is refused as invalid. Anything else must import.
            if let Err(e) = relic_gltf::import(&glb.value, None)
                && !degenerate(&model)
            {
                panic!("the re-exported .glb does not import: {e}");
            }
        }
        model_checks(&model, &all_writers());
    }
});
