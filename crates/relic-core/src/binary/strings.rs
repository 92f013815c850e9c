//! Strings as the files store them, and small packed value types.

use std::io::{Read, Seek, Write};

use binrw::{BinRead, BinResult, BinWrite, Endian};

use super::*;
use crate::error::{ReadErrorKind, custom};

/// A string stored as `u16 length` + that many bytes, no terminator (LithTech ABC).
/// The bytes are kept as stored (Windows-1252 in practice); see [`crate::text`] for decoding.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct LenString(pub Vec<u8>);

impl LenString {
    /// The string's bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
    /// Decodes the bytes as Windows-1252 (every byte maps to one char).
    pub fn to_text(&self) -> String {
        crate::text::decode_cp1252(&self.0)
    }
    /// Encodes `text` as Windows-1252; `None` if it has a character outside that code page.
    pub fn from_text(text: &str) -> Option<Self> {
        crate::text::encode_cp1252(text).map(Self)
    }
}

impl std::fmt::Debug for LenString {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.to_text())
    }
}

impl From<&str> for LenString {
    /// Windows-1252 encoding; characters outside it become `?`.
    fn from(text: &str) -> Self {
        Self(text.chars().map(|c| crate::text::encode_cp1252_char(c).unwrap_or(b'?')).collect())
    }
}

impl BinRead for LenString {
    type Args<'a> = ();
    fn read_options<R: Read + Seek>(reader: &mut R, endian: Endian, _: ()) -> BinResult<Self> {
        let len = u16::read_options(reader, endian, ())?;
        check_count(reader, u64::from(len), 1)?;
        let mut bytes = vec![0; usize::from(len)];
        reader.read_exact(&mut bytes)?;
        Ok(Self(bytes))
    }
}

impl BinWrite for LenString {
    type Args<'a> = ();
    fn write_options<W: Write + Seek>(&self, writer: &mut W, endian: Endian, _: ()) -> BinResult<()> {
        let pos = writer.stream_position()?;
        let len = u16::try_from(self.0.len()).map_err(|_| {
            custom(pos, ReadErrorKind::Invalid(format!("string of {} bytes does not fit a u16 length", self.0.len())))
        })?;
        len.write_options(writer, endian, ())?;
        writer.write_all(&self.0)?;
        Ok(())
    }
}

/// A `char[N]` field: text up to the first NUL, then padding. The raw bytes are kept so that
/// junk after the NUL (old tools left uninitialised memory there) is written back unchanged.
#[derive(Clone, Copy, PartialEq, Eq, Hash, BinRead, BinWrite)]
pub struct FixedString<const N: usize>(pub [u8; N]);

impl<const N: usize> FixedString<N> {
    /// The bytes before the first NUL (all `N` if there is none).
    pub fn text_bytes(&self) -> &[u8] {
        let end = self.0.iter().position(|&b| b == 0).unwrap_or(N);
        // end ≤ N (the first NUL, or N): never taken.
        self.0.get(..end).unwrap_or_default()
    }
    /// The text, decoded as Windows-1252.
    pub fn to_text(&self) -> String {
        crate::text::decode_cp1252(self.text_bytes())
    }
    /// A NUL-padded field holding `text`; `None` if it does not fit (N − 1 bytes at most, so a NUL
    /// always follows) or has a character outside Windows-1252.
    pub fn from_text(text: &str) -> Option<Self> {
        let bytes = crate::text::encode_cp1252(text)?;
        if bytes.len() >= N {
            return None;
        }
        let mut out = [0u8; N];
        out.get_mut(..bytes.len())?.copy_from_slice(&bytes);
        Some(Self(out))
    }
}

impl<const N: usize> Default for FixedString<N> {
    fn default() -> Self {
        Self([0; N])
    }
}

impl<const N: usize> std::fmt::Debug for FixedString<N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.to_text())
    }
}

/// A unit vector packed into three signed bytes scaled to length ~127 (LithTech v6 normals).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, BinRead, BinWrite)]
pub struct PackedNormal(pub [i8; 3]);

impl PackedNormal {
    /// Decodes to a unit vector; `None` for the all-zero code (no normal stored).
    pub fn decode(self) -> Option<[f32; 3]> {
        let v = self.0.map(|c| f32::from(c) / 127.0);
        crate::math::normalize3(v)
    }
    /// Encodes a unit vector (rounded to the nearest code; components clamped to ±127).
    pub fn encode(n: [f32; 3]) -> Self {
        Self(n.map(|c| (c * 127.0).round().clamp(-127.0, 127.0) as i8))
    }
}
