//! Scene extras too large to stay readable JSON, stored deflated and base64-encoded in one string
//! (`deflate+base64:…`): a model's format extras run to megabytes of numbers, which deflate to a
//! quarter. Inflating is bounded, as every decode of the import is.

/// Scene extras longer than this (bytes of JSON) are stored deflated; smaller ones stay readable.
/// (4 KiB: the extras of a model with a few bones already deflate to a fifth.)
pub(crate) const DEFLATE_ABOVE: usize = 4 * 1024;

/// libdeflate's level. On the scene extras of every corpus model (8.3 MB of JSON, 2026-11-28)
/// miniz_oxide's level 2, used before, made 3.04 MB in 82 ms; libdeflate's level 1 makes 3.01 MB
/// in 32 ms, level 2 2.92 MB in 48 ms, level 6 2.85 MB in 70 ms. Per model level 1 is within
/// 1.7 % of miniz's level 2 (UI_Draenei's extras 1.7 % larger, most a little smaller).
const LEVEL: i32 = 1;

/// What starts a deflated string; base64 of raw deflate data follows.
const DEFLATED: &str = "deflate+base64:";

/// `text` as extras keep it: itself up to [`DEFLATE_ABOVE`] bytes or when deflating does not pay,
/// else deflated, as a [`DEFLATED`] string. Whether a long text deflates is judged on
/// [`WINDOWS`] windows of [`WINDOW`] bytes spread evenly over it (wherever the format's part lies
/// in it, each standing for a sixteenth of it): deflated and base64-encoded they must come to at
/// most [`WORTH`] of their length (the text is then likely to shrink by a tenth or more). An
/// LTB's extras are its LZMA-compressed file in base64, whose deflated base64 is as long as the
/// text (deflating them was a tenth of an LTB's export, for 0–3 %).
pub(crate) fn pack(text: &str) -> String {
    if text.len() <= DEFLATE_ABOVE {
        return text.to_string();
    }
    let level = libdeflater::CompressionLvl::new(LEVEL).unwrap_or_default();
    let mut compressor = libdeflater::Compressor::new(level);
    let bytes = text.as_bytes();
    if bytes.len() > WINDOWS * WINDOW {
        let step = (bytes.len() - WINDOW) / (WINDOWS - 1);
        let packed: usize = (0..WINDOWS)
            .map(|k| bytes.get(k * step..k * step + WINDOW).unwrap_or_default())
            .map(|window| deflated(&mut compressor, window).map_or(usize::MAX, |p| p.len()))
            .fold(0, usize::saturating_add);
        if packed as f64 > WORTH * (WINDOWS * WINDOW) as f64 {
            return text.to_string();
        }
    }
    match deflated(&mut compressor, bytes) {
        Some(packed) if packed.len() < text.len() => packed,
        _ => text.to_string(),
    }
}

/// How many windows of a long text [`pack`] deflates first, to see whether the text deflates.
const WINDOWS: usize = 16;

/// Bytes of each of those windows.
const WINDOW: usize = 2 << 10;

/// How short the windows must deflate, as a fraction of their length, for [`pack`] to deflate.
const WORTH: f64 = 0.9;

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

/// `bytes` (a game file kept with the model) as a string: base64, never deflated (deflating
/// GOODMAN.ABC's 3.9 MB took a third of its export for 13 % of its size; an LTB is LZMA already).
pub(crate) fn pack_bytes(bytes: &[u8]) -> String {
    relic_core::base64::encode(bytes)
}

/// [`pack_bytes`]'s string back (a deflated one read too): `None` when it is neither, or
/// inflates past the bound.
pub(crate) fn unpack_bytes(text: &str) -> Option<Vec<u8>> {
    match unpack(text) {
        Some(bytes) => bytes,
        None => relic_core::base64::decode(text.trim().as_bytes()),
    }
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

        // Text that does not deflate (base64 of random bytes, as an LTB's extras hold) stays plain,
        // with a little JSON before it or not; a text whose start, middle or end deflates well is
        // deflated, in whichever order its parts come.
        let noise = relic_testkit::Rng::new(29).bytes(300_000);
        let text = format!("{{\"file\":\"{}\"}}", relic_core::base64::encode(&noise));
        assert_eq!(pack(&text), text);
        let led = format!("{{\"animations\":[{}],{}", "1.5,".repeat(1_000), &text[1..]);
        assert_eq!(pack(&led), led, "a few KiB of JSON before the file");
        let numbers = "1,".repeat(60_000);
        for mixed in [format!("{numbers}{text}"), format!("{text}{numbers}")] {
            let packed = pack(&mixed);
            assert!(packed.starts_with(DEFLATED) && packed.len() < mixed.len());
        }

        // 64 MiB of spaces deflates to ~64 KiB: past 32 × its size + 1 MiB, so not inflated.
        let bomb = miniz_oxide::deflate::compress_to_vec(&vec![b' '; 64 << 20], 9);
        let text = format!("{DEFLATED}{}", relic_core::base64::encode(&bomb));
        assert_eq!(unpack(&text), Some(None));
        assert_eq!(unpack("not deflated"), None);
    }
}
