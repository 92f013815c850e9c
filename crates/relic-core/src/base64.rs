//! Standard base64 (RFC 4648, with padding): how the format crates keep packed arrays compact in
//! glTF `extras` (JSON), where a list of numbers costs several times its bytes, and how glTF data
//! URIs are read. One place for the whole workspace, over the `base64` crate.

use base64::Engine as _;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};

/// Standard alphabet; writes padding, reads text with or without it (other tools omit it) and
/// with non-zero trailing bits (some encoders leave them).
const ENGINE: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new()
        .with_encode_padding(true)
        .with_decode_padding_mode(DecodePaddingMode::Indifferent)
        .with_decode_allow_trailing_bits(true),
);

/// Encodes bytes as base64 text (with `=` padding).
pub fn encode(bytes: &[u8]) -> String {
    ENGINE.encode(bytes)
}

/// Appends the base64 text of `bytes` ([`encode`]'s text) to `text`, which may already hold a
/// prefix: one allocation for both.
pub fn encode_into(bytes: &[u8], text: &mut String) {
    ENGINE.encode_string(bytes, text);
}

/// Decodes base64 text (padding optional); `None` if a character is not base64 or the length is
/// impossible.
pub fn decode(text: &[u8]) -> Option<Vec<u8>> {
    ENGINE.decode(text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc_4648_vectors() {
        let cases =
            [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE=")];
        for (plain, coded) in cases {
            assert_eq!(encode(plain.as_bytes()), coded);
            assert_eq!(decode(coded.as_bytes()).as_deref(), Some(plain.as_bytes()));
        }
        assert_eq!(decode(b"Zm9v!"), None);
        assert_eq!(decode(b"Z"), None);
        assert_eq!(decode(b"Zm9vYg").as_deref(), Some(&b"foob"[..]), "padding is optional");
    }

    #[test]
    fn encode_into_appends_what_encode_gives() {
        let bytes: Vec<u8> = (0..=255u8).cycle().take(1000).collect();
        let mut text = String::from("prefix:");
        encode_into(&bytes, &mut text);
        assert_eq!(text, format!("prefix:{}", encode(&bytes)));
    }
}
