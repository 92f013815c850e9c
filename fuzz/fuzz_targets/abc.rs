//! LithTech ABC: parse → write → parse equal (header counts recomputed) and write a fixed point; `info`; read_model → glTF and → ABC (v6, v12 and
//! the source version) → read back.
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic_abc::AbcFile;
use relic_fuzz::{ABC_SAME, ABC_V6, ABC_V12, CountingAllocator, bounded, fixed_point, model_checks, same};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// The file as the writer writes it: v9–v13 header counts and `Pieces.weight_count` are recomputed
/// from the data (a stale count in a hand-edited file is corrected, by design; see
/// `relic_abc::counts`).
fn recounted(mut file: AbcFile) -> AbcFile {
    if let AbcFile::V12(f) = &mut file {
        f.header = relic_abc::counts::recount(f);
        if let Some(p) = &mut f.pieces {
            p.weight_count = relic_abc::v12::weight_total(&p.pieces);
        }
    }
    file
}

fuzz_target!(|data: &[u8]| {
    let _ = bounded("info", data, relic_abc::info);
    if let Ok(file) = bounded("parse", data, relic_abc::parse) {
        let out = relic_abc::write(&file).unwrap_or_else(|e| panic!("a parsed file does not write: {e}"));
        let back = relic_abc::parse(&out).unwrap_or_else(|e| panic!("the re-written file does not parse: {e}"));
        same("abc", &recounted(file), &back);
        fixed_point("abc", &out, relic_abc::write(&back));
    }
    if let Ok(model) = bounded("read_model", data, relic_abc::read_model) {
        model_checks(&model, &[ABC_SAME, ABC_V6, ABC_V12]);
    }
});
