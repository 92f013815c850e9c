//! Scene extras too large to stay readable JSON, stored deflated and base64-encoded in one string
//! (`deflate+base64:…`): a model's format extras run to megabytes of numbers, which deflate to a
//! quarter. Inflating is bounded, as every decode of the import is.

/// Scene extras longer than this (bytes of JSON) are stored deflated; smaller ones stay readable.
/// (4 KiB: the extras of a model with a few bones already deflate to a fifth.)
pub(crate) const DEFLATE_ABOVE: usize = 4 * 1024;

/// libdeflate's level. On the scene extras of every corpus model (8.3 MB of JSON, 2026-11-28)
/// miniz_oxide's level 2, used before, made 3.04 MB in 82 ms; libdeflate's level 1 makes 3.01 MB
/// in 32 ms, level 2 2.92 MB in 48 ms, level 6 2.85 MB in 70 ms. Level 1 is as small as miniz's
/// level 2 on the small, repetitive extras of UI models too (no corpus glb grows).
const LEVEL: i32 = 1;

/// What starts a deflated string; base64 of raw deflate data follows.
const DEFLATED: &str = "deflate+base64:";

/// `text` as extras keep it: itself up to [`DEFLATE_ABOVE`] bytes or when deflating does not
/// make it shorter, else deflated, as a [`DEFLATED`] string. Whether a long text deflates is
/// judged on its first [`SAMPLE`] bytes: an LTB's extras are its LZMA-compressed file in base64,
/// whose deflated base64 is as long as the text (deflating them was a tenth of an LTB's export).
pub(crate) fn pack(text: &str) -> String {
    if text.len() <= DEFLATE_ABOVE {
        return text.to_string();
    }
    let level = libdeflater::CompressionLvl::new(LEVEL).unwrap_or_default();
    let mut compressor = libdeflater::Compressor::new(level);
    let sample = text.as_bytes().get(..SAMPLE).unwrap_or(text.as_bytes());
    if sample.len() < text.len() && deflated(&mut compressor, sample).is_none_or(|s| s.len() >= sample.len()) {
        return text.to_string();
    }
    match deflated(&mut compressor, text.as_bytes()) {
        Some(packed) if packed.len() < text.len() => packed,
        _ => text.to_string(),
    }
}

/// How many bytes of a long text [`pack`] deflates first, to see whether it deflates at all.
const SAMPLE: usize = 64 << 10;

/// `bytes` as a [`DEFLATED`] string. The buffer is libdeflate's own bound for the input, so
/// compressing into it succeeds; were it ever refused, `None` (the text stays plain: readable,
/// only larger).
fn deflated(compressor: &mut libdeflater::Compressor, bytes: &[u8]) -> Option<String> {
    let mut packed = vec![0; compressor.deflate_compress_bound(bytes.len())];
    let length = compressor.deflate_compress(bytes, &mut packed).ok()?;
    packed.truncate(length);
    let mut out = String::with_capacity(DEFLATED.len() + length.div_ceil(3) * 4);
    out.push_str(DEFLATED);
    relic_core::base64::encode_into(&packed, &mut out);
    Some(out)
}

/// `None` when `text` is not a [`DEFLATED`] string; else its bytes, or `Some(None)` when they
/// cannot be had: not base64, not deflate, or more than 32 × the text's size + 1 MiB (the
/// import's decode budget) — extras that would inflate further are treated as absent, and what
/// they held is then reported missing like any other.
pub(crate) fn unpack(text: &str) -> Option<Option<Vec<u8>>> {
    let packed = text.strip_prefix(DEFLATED)?;
    Some(inflate(packed))
}

fn inflate(packed: &str) -> Option<Vec<u8>> {
    let bytes = relic_core::base64::decode(packed.trim().as_bytes())?;
    let limit = packed.len().saturating_mul(32).saturating_add(1 << 20);
    miniz_oxide::inflate::decompress_to_vec_with_limit(&bytes, limit).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extras::{RootExtras, unwrap_root, wrap_root};

    #[test]
    fn large_scene_extras_are_deflated_and_read_back_and_bombs_are_refused() {
        let small = RootExtras { name: "small".into(), ..RootExtras::default() };
        let wrapped = wrap_root(&small, None).unwrap();
        assert!(!wrapped.as_ref().unwrap().get().contains(DEFLATED));
        assert_eq!(unwrap_root(&wrapped).unwrap().name, "small");

        let large = RootExtras { name: "large".into(), global_sequences: vec![0.25; 40_000], ..RootExtras::default() };
        let wrapped = wrap_root(&large, None).unwrap();
        let text = wrapped.as_ref().unwrap().get();
        assert!(text.contains(DEFLATED));
        assert!(text.len() < serde_json::to_string(&large).unwrap().len() / 4, "{} bytes", text.len());
        assert_eq!(
            text,
            format!("{{\"relic\":{}}}", serde_json::to_string(&pack(&serde_json::to_string(&large).unwrap())).unwrap())
        );
        let back = unwrap_root(&wrapped).unwrap();
        assert_eq!((back.name.as_str(), back.global_sequences.len()), ("large", 40_000));

        // Text that does not deflate (base64 of random bytes, as an LTB's extras hold) stays plain.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let noise: Vec<u8> = (0..300_000)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state as u8
            })
            .collect();
        let text = format!("{{\"file\":\"{}\"}}", relic_core::base64::encode(&noise));
        assert_eq!(pack(&text), text);
        let mixed = format!("{}{text}", "1,".repeat(40_000));
        assert!(pack(&mixed).starts_with(DEFLATED), "judged on its deflating start");

        // 64 MiB of spaces deflates to ~64 KiB: past 32 × its size + 1 MiB, so not inflated.
        let bomb = miniz_oxide::deflate::compress_to_vec(&vec![b' '; 64 << 20], 9);
        let text = format!("{DEFLATED}{}", relic_core::base64::encode(&bomb));
        assert_eq!(unpack(&text), Some(None));
        assert_eq!(unpack("not deflated"), None);
    }
}
