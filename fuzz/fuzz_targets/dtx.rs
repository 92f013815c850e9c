//! LithTech DTX: `detect`, `info`; `read` → `write` gives the input back, the re-parse equals the
//! first parse and writes the same bytes; every mip decodes (or is refused) within the budget;
//! mip 0 re-encoded as the file stores it reads back (a detected file reads).
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic_core::texture::TextureOptions;
use relic_fuzz::{CountingAllocator, bounded, fixed_point, same};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

fuzz_target!(|data: &[u8]| {
    let detected = bounded("detect", data, relic_dtx::detect);
    let _ = bounded("info", data, relic_dtx::info);
    let options = TextureOptions::default();
    let _ = bounded("decode_bytes", data, |b| relic_dtx::decode_bytes(b, 0, &options));
    let read = bounded("read", data, relic_dtx::read);
    assert!(detected.is_none() || read.is_ok(), "a detected DTX does not read: {:?}", read.err());
    let Ok(file) = read else { return };
    let out = relic_dtx::write(&file).unwrap_or_else(|e| panic!("a parsed DTX does not write: {e}"));
    assert!(out == data, "write(read(b)) differs from b");
    let back = relic_dtx::read(&out).unwrap_or_else(|e| panic!("the re-written DTX does not parse: {e}"));
    same("dtx", &file, &back);
    fixed_point("dtx", &out, relic_dtx::write(&back));
    let levels = file.mips.len();
    for level in 0..levels {
        let _ = bounded("decode", data, |_| relic_dtx::decode(&file, level, &options));
    }
    // Small images only: encoding is slow by design (libsquish iterative cluster fit).
    if let Ok(image) = relic_dtx::decode(&file, 0, &options)
        && image.pixels() <= 64 * 64
    {
        let encoded = relic_dtx::encode_bytes(&image, &relic_dtx::options_for(&file))
            .unwrap_or_else(|e| panic!("a decoded image does not encode: {e}"));
        let again = relic_dtx::decode_bytes(&encoded.value, 0, &options)
            .unwrap_or_else(|e| panic!("the encoded DTX does not decode: {e}"));
        assert_eq!((again.width, again.height), (image.width, image.height));
    }
});
