//! Warcraft III MDX: `detect`, `info`; `read` → `write` gives the input back, and the re-read
//! equals the first read and writes the same bytes; `read_model` → glTF and the game formats
//! (`model_checks`); a file that reads and is version 800 goes MDX → MDL → MDX → MDL to the same
//! text. The input as MDL text, as the registry's MDL entry reads it: `mdl::detect`, `mdl_info`,
//! the model (`model_checks`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic_fuzz::{CountingAllocator, all_writers, bounded, fixed_point, model_checks, same};
use relic_mdx::mdl::{FloatStyle, read_mdl, write_mdl};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

fuzz_target!(|data: &[u8]| {
    let _ = bounded("detect", data, relic_mdx::detect);
    let _ = bounded("info", data, relic_mdx::info);
    let _ = bounded("mdl::detect", data, relic_mdx::mdl::detect);
    let _ = bounded("mdl_info", data, relic_mdx::mdl_info);
    if let Ok((model, _)) = bounded("read_mdl_model", data, relic_mdx::read_mdl_model_with_info) {
        model_checks(&model.value, &all_writers());
    }
    if let Ok(model) = bounded("read_model", data, relic_mdx::read_model) {
        model_checks(&model, &all_writers());
    }
    if let Ok(file) = bounded("read", data, relic_mdx::read) {
        let out = relic_mdx::write(&file).unwrap_or_else(|e| panic!("a read MDX does not write: {e}"));
        assert!(out == data, "a read MDX does not write back byte for byte");
        let back = relic_mdx::read(&out).unwrap_or_else(|e| panic!("the re-written MDX does not read: {e}"));
        same("mdx", &file, &back);
        fixed_point("mdx", &out, relic_mdx::write(&back));
        if file.version() == 800 {
            let text = write_mdl(&file, FloatStyle::Shortest).unwrap_or_else(|e| panic!("no MDL: {e}")).value;
            let again = read_mdl(&text).unwrap_or_else(|e| panic!("the MDL written does not read: {e}"));
            let text2 = write_mdl(&again, FloatStyle::Shortest).unwrap_or_else(|e| panic!("no MDL: {e}")).value;
            assert!(text == text2, "MDL → MDX → MDL differs");
        }
    }
});
