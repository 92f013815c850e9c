//! Windows-1252 text, the code page of the games' strings.
//!
//! The mapping is the WHATWG one: bytes 0x80–0x9F map to the typographic characters, the five
//! undefined bytes (0x81, 0x8D, 0x8F, 0x90, 0x9D) to the C1 control of the same value. That makes
//! decode → encode the identity on every byte string.

/// Characters for bytes 0x80–0x9F.
const HIGH: [char; 32] = [
    '\u{20AC}', '\u{0081}', '\u{201A}', '\u{0192}', '\u{201E}', '\u{2026}', '\u{2020}', '\u{2021}', '\u{02C6}',
    '\u{2030}', '\u{0160}', '\u{2039}', '\u{0152}', '\u{008D}', '\u{017D}', '\u{008F}', '\u{0090}', '\u{2018}',
    '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}', '\u{2014}', '\u{02DC}', '\u{2122}', '\u{0161}',
    '\u{203A}', '\u{0153}', '\u{009D}', '\u{017E}', '\u{0178}',
];

/// Decodes Windows-1252 bytes (every byte is one character; never fails).
pub fn decode_cp1252(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| decode_byte(b)).collect()
}

fn decode_byte(b: u8) -> char {
    match b {
        0x80..=0x9F => HIGH.get(usize::from(b - 0x80)).copied().unwrap_or('?'),
        _ => char::from(b),
    }
}

/// Encodes one character; `None` if Windows-1252 has no byte for it.
pub fn encode_cp1252_char(c: char) -> Option<u8> {
    let code = u32::from(c);
    match code {
        0..=0x7F | 0xA0..=0xFF => u8::try_from(code).ok(),
        _ => HIGH.iter().position(|&h| h == c).and_then(|i| u8::try_from(0x80 + i).ok()),
    }
}

/// Encodes text; `None` if it has a character outside Windows-1252.
pub fn encode_cp1252(text: &str) -> Option<Vec<u8>> {
    text.chars().map(encode_cp1252_char).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_round_trips() {
        let all: Vec<u8> = (0..=255).collect();
        let text = decode_cp1252(&all);
        assert_eq!(text.chars().count(), 256);
        assert_eq!(encode_cp1252(&text).unwrap(), all);
    }

    #[test]
    fn typographic_and_unmappable() {
        assert_eq!(decode_cp1252(&[0x80, b'x', 0xE9]), "€xé");
        assert_eq!(encode_cp1252("€"), Some(vec![0x80]));
        assert_eq!(encode_cp1252("日本"), None);
    }
}
