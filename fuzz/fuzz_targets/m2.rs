//! M2 256–263: read → write → read equal; `info`; read_model → glTF and → M2 (256, 263 and the
//! source version) → read back.
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic_fuzz::{CountingAllocator, bounded, fixed_point, model_checks, same, writers};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

fuzz_target!(|data: &[u8]| {
    let _ = bounded("info", data, relic_m2::info);
    if let Ok(file) = bounded("read", data, relic_m2::read) {
        let out = relic_m2::write(&file).unwrap_or_else(|e| panic!("a file the reader accepts does not write: {e}"));
        let back = relic_m2::read(&out).unwrap_or_else(|e| panic!("the re-written file does not read: {e}"));
        same("m2", &file, &back);
        fixed_point("m2", &out, relic_m2::write(&back));
    }
    if let Ok(model) = bounded("read_model", data, relic_m2::read_model) {
        model_checks(&model, &writers("m2", &[None, Some(256), Some(263)]));
    }
});
