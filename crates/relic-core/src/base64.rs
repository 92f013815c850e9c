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

/// The engine as a `static`, for writers that hold a reference to it.
static STATIC_ENGINE: GeneralPurpose = ENGINE;

/// Base64 text written as bytes arrive ([`encode`]'s text, without holding the bytes), appended
/// to the text it started with.
pub struct Encoder(base64::write::EncoderStringWriter<'static, GeneralPurpose, String>);

impl Encoder {
    /// An encoder that appends to `text`.
    pub fn new(text: String) -> Self {
        Self(base64::write::EncoderStringWriter::from_consumer(text, &STATIC_ENGINE))
    }

    /// The text, with the last bytes encoded and padded.
    pub fn finish(self) -> String {
        self.0.into_inner()
    }
}

impl std::io::Write for Encoder {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
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
    fn the_encoder_writes_what_encode_gives_in_any_pieces() {
        use std::io::Write as _;
        let bytes: Vec<u8> = (0..=255u8).cycle().take(1000).collect();
        for piece in [1, 2, 3, 7, 64, 1000] {
            let mut e = Encoder::new("prefix:".into());
            for chunk in bytes.chunks(piece) {
                e.write_all(chunk).unwrap();
            }
            assert_eq!(e.finish(), format!("prefix:{}", encode(&bytes)), "pieces of {piece}");
        }
    }
}
