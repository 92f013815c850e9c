//! Blizzard BLP: `detect`, `info`; `read` → `write` gives the input back, the re-parse equals the
//! first parse and writes the same bytes; every level decodes (or is refused) within the budget;
//! mip 0 re-encoded as the file stores it reads back.
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic_core::texture::TextureOptions;
use relic_fuzz::{CountingAllocator, bounded, fixed_point, same};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

fuzz_target!(|data: &[u8]| {
    let _ = bounded("detect", data, relic_blp::detect);
    let _ = bounded("info", data, relic_blp::info);
    let options = TextureOptions::default();
    let _ = bounded("decode_bytes", data, |b| relic_blp::decode_bytes(b, 0, &options));
    let Ok(file) = bounded("read", data, relic_blp::read) else { return };
    let out = relic_blp::write(&file).unwrap_or_else(|e| panic!("a parsed BLP does not write: {e}"));
    assert!(out == data, "write(read(b)) differs from b");
    let back = relic_blp::read(&out).unwrap_or_else(|e| panic!("the re-written BLP does not parse: {e}"));
    same("blp", &file, &back);
    fixed_point("blp", &out, relic_blp::write(&back));
    let levels = relic_blp::validate::levels(&file).map(|l| l.len()).unwrap_or(0);
    for level in 0..levels {
        let _ = bounded("decode", data, |_| relic_blp::decode(&file, level, &options));
    }
    // Small images only: encoding is slow by design (libsquish iterative cluster fit).
    if let Ok(image) = relic_blp::decode(&file, 0, &options)
        && image.pixels() <= 64 * 64
    {
        let encoded = relic_blp::encode_bytes(&image, &relic_blp::options_for(&file))
            .unwrap_or_else(|e| panic!("a decoded image does not encode: {e}"));
        let again = relic_blp::decode_bytes(&encoded.value, 0, &options)
            .unwrap_or_else(|e| panic!("the encoded BLP does not decode: {e}"));
        assert_eq!((again.width, again.height), (image.width, image.height));
    }
});
