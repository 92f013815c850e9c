//! CrossFire's LZMA-alone wrapper around a DTX (the same as around its LTB models): recognised,
//! read, written back in its original bytes, re-wrapped after a change, decoded as the plain file.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use relic_core::texture::TextureOptions;

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/dtx").join(name)).unwrap()
}

#[test]
fn wrapped_dtx_reads_and_writes_like_the_plain_one() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/dtx");
    let files = relic_testkit::files_with_extension(&dir, "dtx");
    let mut seen = 0;
    for (name, plain) in files.into_iter().filter(|(n, _)| !n.contains('/')) {
        let wrapped = relic_lithtech::lzma::wrap(&plain, None).unwrap();
        let d = relic_dtx::detect(&wrapped).unwrap_or_else(|| panic!("{name}: not recognised"));
        assert_eq!(Some(d), relic_dtx::detect(&plain), "{name}");
        let file = relic_dtx::read(&wrapped).unwrap();
        assert!(file.wrapper.is_some());
        assert_eq!(relic_dtx::write(&file).unwrap(), wrapped, "{name}: the original bytes");
        let mut bare = file.clone();
        bare.wrapper = None;
        assert_eq!(bare, relic_dtx::read(&plain).unwrap(), "{name}");
        let options = TextureOptions::default();
        assert_eq!(
            relic_dtx::decode_bytes(&wrapped, 0, &options).ok(),
            relic_dtx::decode_bytes(&plain, 0, &options).ok()
        );
        let info = relic_dtx::info(&wrapped).unwrap();
        assert_eq!(info.get("lzma_wrapped"), Some(&relic_core::Fact::Count(1)), "{name}");
        seen += 1;
    }
    assert!(seen >= 5, "{seen} fixtures");
}

#[test]
fn a_changed_wrapped_dtx_gets_a_new_stream() {
    let plain = fixture("v5_bgra.dtx");
    let wrapped = relic_lithtech::lzma::wrap(&plain, None).unwrap();
    let mut file = relic_dtx::read(&wrapped).unwrap();
    file.trailing.extend_from_slice(b"edit");
    let out = relic_dtx::write(&file).unwrap();
    assert_eq!(out[0], relic_lithtech::lzma::PROPS);
    let back = relic_dtx::read(&out).unwrap();
    assert_eq!(back.trailing, file.trailing);
    // A stream that does not decode is an error naming the stream, not a panic.
    assert!(relic_dtx::read(&wrapped[..wrapped.len() / 2]).is_err());
}
