//! NAD bone tracks and their cubic keys (spec §4, §4.1).

use binrw::{BinRead, BinResult, binrw};
use bytemuck::{Pod, Zeroable};
use relic_core::ReadErrorKind;
use relic_core::binary::pod_vec;
use relic_core::error::custom;

use super::write_slice;
use crate::options::{MAX_BONES, Polynomial};

/// Size of a track header (before its keys).
pub const TRACK_HEADER_SIZE: u64 = 12;
/// Size of a key.
pub const KEY_SIZE: u64 = 56;

/// Track type 0: Euler rotation (angles about X, Y, Z).
pub const TRACK_ROTATION: u32 = 0;
/// Track type 1: local translation.
pub const TRACK_TRANSLATION: u32 = 1;
/// Track type 2: scale ("currently not supported by the engine").
pub const TRACK_SCALE: u32 = 2;

/// One bone track.
///
/// The custom parsers (`parse_with`) exist only to report a refused value at its own offset:
/// binrw's `assert` reports the start of the struct instead.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq)]
pub struct NadTrack {
    #[br(temp)]
    #[bw(calc = keys.len() as u32)]
    num_keys: u32,
    /// The animated bone (index into the NOD's bones, below 64).
    #[br(parse_with = track_bone)]
    pub bone: u32,
    /// 0 rotation (Euler angles), 1 translation, 2 scale.
    #[br(parse_with = track_type)]
    pub track_type: u32,
    /// Keys in ascending frame order.
    #[br(parse_with = pod_vec, args(u64::from(num_keys)))]
    #[bw(write_with = write_slice)]
    pub keys: Vec<NadKey>,
}

/// One key: the value at `frame` and the cubic that runs from it to the next key, 56 bytes. A
/// plain record: read and written in bulk.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct NadKey {
    /// Frame number (30 per second; fractional allowed).
    pub frame: f32,
    /// `1 / (next.frame − frame)`: turns frames into the segment parameter s ∈ [0, 1); +∞ on the
    /// last key of a track.
    pub frame_scale: f32,
    /// Absolute local value: position, scale, or Euler angles about X, Y, Z.
    pub value: [f32; 3],
    /// CFactor: with the default [`crate::options::Polynomial`], the coefficient of s.
    pub c: [f32; 3],
    /// BFactor: the coefficient of s².
    pub b: [f32; 3],
    /// AFactor: with the default polynomial, the coefficient of s³.
    pub a: [f32; 3],
}

impl NadKey {
    /// Coefficients of s, s², s³ under a polynomial order.
    #[inline]
    pub(crate) fn coefficients(&self, poly: Polynomial) -> [[f32; 3]; 3] {
        match poly {
            Polynomial::Ascending => [self.c, self.b, self.a],
            Polynomial::Descending => [self.a, self.b, self.c],
        }
    }

    /// The key's cubic at `s`, per component.
    pub(crate) fn eval(&self, s: f64, poly: Polynomial) -> [f64; 3] {
        let [c1, c2, c3] = self.coefficients(poly);
        std::array::from_fn(|i| {
            let at = |v: [f32; 3]| f64::from(v.get(i).copied().unwrap_or(0.0));
            // i < 3 (array::from_fn over three components): the default is never taken.
            at(self.value) + s * (at(c1) + s * (at(c2) + s * at(c3)))
        })
    }

    /// `dP/ds` of the key's cubic at `s`.
    pub(crate) fn slope(&self, s: f64, poly: Polynomial) -> [f64; 3] {
        let [c1, c2, c3] = self.coefficients(poly);
        std::array::from_fn(|i| {
            let at = |v: [f32; 3]| f64::from(v.get(i).copied().unwrap_or(0.0));
            // i < 3, as in `eval`: never taken.
            at(c1) + s * (2.0 * at(c2) + 3.0 * s * at(c3))
        })
    }

    /// `σ`, the segment parameter at the next key: `(next.frame − frame) · FrameScale` (1 in a
    /// well-formed file).
    pub(crate) fn sigma(&self, next: &NadKey) -> f64 {
        (f64::from(next.frame) - f64::from(self.frame)) * f64::from(self.frame_scale)
    }

    /// The segment from this key holds one value up to `next`, which has it too.
    pub(crate) fn holds_until(&self, next: &NadKey) -> bool {
        self.has_no_curve() && self.value == next.value
    }

    /// All three factors are zero: the segment holds the key's value.
    fn has_no_curve(&self) -> bool {
        self.c == [0.0; 3] && self.b == [0.0; 3] && self.a == [0.0; 3]
    }
}

impl NadTrack {
    /// The track's value at frame `f` (held before the first and after the last key).
    pub(crate) fn eval(&self, f: f64, poly: Polynomial) -> [f64; 3] {
        let keys = &self.keys;
        let next = keys.partition_point(|k| f64::from(k.frame) <= f);
        match (next.checked_sub(1).and_then(|k| keys.get(k)), keys.get(next)) {
            (Some(key), Some(_)) => key.eval((f - f64::from(key.frame)) * f64::from(key.frame_scale), poly),
            (Some(key), None) => key.value.map(f64::from),
            (None, _) => keys.first().map_or([0.0; 3], |k| k.value.map(f64::from)),
        }
    }

    /// True if every segment of the track holds its key's value (all coefficients zero): the
    /// engine then steps from key to key.
    pub(crate) fn holds(&self) -> bool {
        let n = self.keys.len();
        self.keys.iter().take(n.saturating_sub(1)).all(NadKey::has_no_curve)
    }
}

#[binrw::parser(reader, endian)]
fn track_bone() -> BinResult<u32> {
    let pos = reader.stream_position()?;
    let bone = u32::read_options(reader, endian, ())?;
    if bone as usize >= MAX_BONES {
        return Err(custom(
            pos,
            ReadErrorKind::Invalid(format!("bone {bone}; a NOD has at most {MAX_BONES} bones (0–63)")),
        ));
    }
    Ok(bone)
}

#[binrw::parser(reader, endian)]
fn track_type() -> BinResult<u32> {
    let pos = reader.stream_position()?;
    let kind = u32::read_options(reader, endian, ())?;
    if kind > TRACK_SCALE {
        return Err(custom(
            pos,
            ReadErrorKind::Invalid(format!("track type {kind}; known are 0 rotation, 1 translation, 2 scale")),
        ));
    }
    Ok(kind)
}
