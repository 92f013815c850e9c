//! LithTech LTB: `detect`, `info`; read → write gives the input back and re-reads equal;
//! read_model → glTF and → LTB (the source version and 23) and ABC v12 → read back. A wrapped
//! input's budget counts the payload its header states (checked against the LZMA limits before
//! anything is allocated) as input too: the payload is what the reader holds.
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic_fuzz::{CountingAllocator, budget, model_checks, same, writers};
use relic_lithtech::lzma;
use relic_testkit::peak_allocation;

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// Runs `read` within the budget of the input and the payload it states.
fn bounded<T>(what: &str, data: &[u8], read: impl FnOnce(&[u8]) -> T) -> T {
    let limits = lzma::Limits::default();
    let stated = match lzma::header(data) {
        Some((_, _, size)) if lzma::is_wrapped(data) && size <= limits.allowed(data.len()) => size as usize,
        _ => 0,
    };
    let (out, peak) = peak_allocation(|| read(data));
    let limit = budget(data.len() + stated);
    assert!(
        peak <= limit,
        "{what}: {peak} bytes at peak for a {}-byte input stating {stated} (budget {limit})",
        data.len()
    );
    out
}

fuzz_target!(|data: &[u8]| {
    let _ = relic_ltb::detect(data);
    let _ = bounded("info", data, relic_ltb::info);
    if let Ok(file) = bounded("read", data, relic_ltb::read) {
        let out = relic_ltb::write(&file).unwrap_or_else(|e| panic!("a parsed file does not write: {e}"));
        assert!(out == data, "write(read(b)) differs from b");
        let back = relic_ltb::read(&out).unwrap_or_else(|e| panic!("the re-written file does not parse: {e}"));
        same("ltb", &file, &back);
    }
    if let Ok(model) = bounded("read_model", data, relic_ltb::read_model) {
        let mut to = writers("ltb", &[None, Some(23)]);
        to.extend(writers("abc", &[Some(12)]));
        model_checks(&model, &to);
    }
});
