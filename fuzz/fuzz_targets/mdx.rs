//! Warcraft III MDX: `detect`, `info`; `read` → `write` gives the input back, and the re-read
//! equals the first read and writes the same bytes. (No model mapping yet: `read_model` must
//! refuse without a panic.)
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic_fuzz::{CountingAllocator, bounded, fixed_point, same};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

fuzz_target!(|data: &[u8]| {
    let _ = bounded("detect", data, relic_mdx::detect);
    let _ = bounded("info", data, relic_mdx::info);
    let _ = bounded("read_model", data, relic_mdx::read_model);
    if let Ok(file) = bounded("read", data, relic_mdx::read) {
        let out = relic_mdx::write(&file).unwrap_or_else(|e| panic!("a read MDX does not write: {e}"));
        assert!(out == data, "a read MDX does not write back byte for byte");
        let back = relic_mdx::read(&out).unwrap_or_else(|e| panic!("the re-written MDX does not read: {e}"));
        same("mdx", &file, &back);
        fixed_point("mdx", &out, relic_mdx::write(&back));
    }
});
