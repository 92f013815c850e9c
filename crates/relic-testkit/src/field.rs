//! A field of a fixture, located by format knowledge, that the hostile batteries set to hostile
//! values ([`crate::Harness::fields`], [`crate::bad_floats_are_refused`]).

use crate::mutate::write_at;

/// How a field is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Width {
    /// Little-endian u16 (the value is truncated to 16 bits).
    U16,
    /// Little-endian u32.
    U32,
    /// Little-endian f32.
    F32,
}

impl Width {
    /// Bytes the field takes.
    pub fn size(self) -> usize {
        match self {
            Width::U16 => 2,
            Width::U32 | Width::F32 => 4,
        }
    }
}

/// A field of a fixture located by format knowledge: a label for messages (`Header.node_count`),
/// its byte offset and how it is stored.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// What the field is (format path).
    pub label: String,
    /// Byte offset in the file.
    pub at: usize,
    /// Storage.
    pub width: Width,
}

impl Field {
    /// A u32 field.
    pub fn u32(label: impl Into<String>, at: usize) -> Self {
        Self { label: label.into(), at, width: Width::U32 }
    }
    /// A u16 field.
    pub fn u16(label: impl Into<String>, at: usize) -> Self {
        Self { label: label.into(), at, width: Width::U16 }
    }
    /// An f32 field.
    pub fn f32(label: impl Into<String>, at: usize) -> Self {
        Self { label: label.into(), at, width: Width::F32 }
    }
    /// The stored value as an integer (u16/u32) or the float's bits, if the field is in `bytes`.
    pub fn read(&self, bytes: &[u8]) -> Option<u32> {
        let b = bytes.get(self.at..self.at + self.width.size())?;
        Some(match self.width {
            Width::U16 => u32::from(u16::from_le_bytes([*b.first()?, *b.get(1)?])),
            Width::U32 | Width::F32 => u32::from_le_bytes(b.try_into().ok()?),
        })
    }
    /// `bytes` with the field set to `value` (u16 fields keep the low 16 bits; for f32 fields
    /// `value` is the bit pattern).
    pub fn with(&self, bytes: &[u8], value: u32) -> Vec<u8> {
        let mut out = bytes.to_vec();
        match self.width {
            Width::U16 => write_at(&mut out, self.at, &(value as u16).to_le_bytes()),
            Width::U32 | Width::F32 => write_at(&mut out, self.at, &value.to_le_bytes()),
        }
        out
    }
}
