//! LithTech ABC: read → write → read equal (header counts recomputed) and write a fixed point; `info`; read_model → glTF and → ABC (v6, v12 and
//! the source version) → read back.
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic_abc::AbcFile;
use relic_fuzz::{CountingAllocator, bounded, fixed_point, model_checks, same, writers};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// The file with the counts the writer recomputes from the data taken from `back` (v9–v13 header
/// counts and `Pieces.weight_count`: a stale count in a hand-edited file is corrected, by
/// design); everything else must be as parsed.
fn recounted(mut file: AbcFile, back: &AbcFile) -> AbcFile {
    if let (AbcFile::V12(f), AbcFile::V12(b)) = (&mut file, back) {
        f.header.counts = b.header.counts;
        (f.header.string_count, f.header.string_length_total) = (b.header.string_count, b.header.string_length_total);
        if let (Some(p), Some(q)) = (&mut f.pieces, &b.pieces) {
            p.weight_count = q.weight_count;
        }
    }
    file
}

fuzz_target!(|data: &[u8]| {
    let _ = bounded("info", data, relic_abc::info);
    if let Ok(file) = bounded("read", data, relic_abc::read) {
        let out = relic_abc::write(&file).unwrap_or_else(|e| panic!("a parsed file does not write: {e}"));
        let back = relic_abc::read(&out).unwrap_or_else(|e| panic!("the re-written file does not parse: {e}"));
        same("abc", &recounted(file, &back), &back);
        fixed_point("abc", &out, relic_abc::write(&back));
    }
    if let Ok(model) = bounded("read_model", data, relic_abc::read_model) {
        model_checks(&model, &writers("abc", &[None, Some(6), Some(12)]));
    }
});
