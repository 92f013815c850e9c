//! Animation tracks ("K-blocks", spec §2.4): a tag naming the animated property, the key count,
//! the interpolation, a global sequence, then the keys; Hermite and Bézier keys carry an in and
//! an out tangent after the value.
//!
//! ```text
//! tag:[u8;4] · keyCount:u32 · interpolation:u32 · globalSequenceId:i32
//! keyCount × ( frame:i32 · value:T · [inTan:T · outTan:T, iff interpolation ≥ 2] )
//! ```
//!
//! The value type `T` follows from the tag ([`value_kind`]); a tag the spec does not list cannot
//! be stepped over (its key size is unknown) and is refused, naming it.

use std::io::{Read, Seek};

use binrw::{BinRead, BinResult, BinWrite, Endian, binrw};
use relic_core::ReadErrorKind;
use relic_core::error::custom;

use super::io::{Tag, check_within, count32, peek_tag};

/// `DontInterp`: each key holds until the next.
pub const DONT_INTERP: u32 = 0;
/// `Linear` (quaternions: slerp).
pub const LINEAR: u32 = 1;
/// `Hermite`: keys carry in and out tangents.
pub const HERMITE: u32 = 2;
/// `Bezier`: keys carry in and out control points.
pub const BEZIER: u32 = 3;

/// The type of a track's values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueKind {
    /// `u32` (texture ids: KMTF, KRTX).
    Int,
    /// `f32`.
    Float,
    /// `[f32; 3]` (translation, scaling, colour).
    Vec3,
    /// `[f32; 4]`, a quaternion x, y, z, w (KGRT, KTAR).
    Quat,
}

impl ValueKind {
    /// Bytes of one value.
    pub fn size(self) -> u64 {
        match self {
            Self::Int | Self::Float => 4,
            Self::Vec3 => 12,
            Self::Quat => 16,
        }
    }
}

/// The value type of the track tagged `tag` (spec §2.4's table, with the later-version light and
/// camera tags of W3), or `None` for a tag the spec does not list.
pub fn value_kind(tag: [u8; 4]) -> Option<ValueKind> {
    use ValueKind::*;
    Some(match &tag {
        b"KMTF" | b"KRTX" => Int,
        b"KFC3" | b"KTAT" | b"KTAS" | b"KGAC" | b"KGTR" | b"KGSC" | b"KLAC" | b"KLBC" | b"KPPC" | b"KRCO" | b"KCTR"
        | b"KTTR" => Vec3,
        b"KTAR" | b"KGRT" => Quat,
        b"KMTA" | b"KMTE" | b"KFCA" | b"KFTC" | b"KGAO" | b"KLAS" | b"KLAE" | b"KLAI" | b"KLBI" | b"KLAV" | b"KLSS"
        | b"KLSE" | b"KLQF" | b"KLLF" | b"KLDA" | b"KATV" | b"KPEE" | b"KPEG" | b"KPLN" | b"KPLT" | b"KPEL"
        | b"KPES" | b"KPEV" | b"KP2S" | b"KP2R" | b"KP2L" | b"KP2G" | b"KP2E" | b"KP2N" | b"KP2W" | b"KP2V"
        | b"KPPA" | b"KPPE" | b"KPPL" | b"KPPS" | b"KPPV" | b"KRHA" | b"KRHB" | b"KRAL" | b"KRVS" | b"KCRL"
        | b"KCVS" | b"IDUF" | b"ELAF" | b"PTSF" => Float,
        _ => return None,
    })
}

/// One animation track.
#[binrw]
#[brw(little)]
#[br(import_raw(end: u64))]
#[derive(Debug, Clone, PartialEq)]
pub struct Track {
    /// The animated property (`KGTR` translation, `KMTA` layer alpha, …; spec §2.4).
    #[br(parse_with = track_tag, args(end))]
    pub tag: Tag,
    #[br(temp)]
    #[bw(try_calc = keys.count())]
    key_count: u32,
    /// 0 DontInterp (step), 1 Linear, 2 Hermite, 3 Bezier; Hermite and Bezier keys have tangents.
    #[br(parse_with = interpolation)]
    pub interpolation: u32,
    /// Index into `GLBS`: the track loops on that global sequence instead of the playing
    /// sequence; −1 for none.
    pub global_sequence_id: i32,
    /// The keys, in file order (not always sorted by frame in real files).
    #[br(parse_with = keys, args(tag, key_count, interpolation >= HERMITE, end))]
    pub keys: Keys,
}

/// A track's keys, by value type (read by the track, which knows the type from its tag).
#[derive(BinWrite, Debug, Clone, PartialEq)]
#[bw(little)]
pub enum Keys {
    /// `u32` values.
    Int(Vec<Key<u32>>),
    /// `f32` values.
    Float(Vec<Key<f32>>),
    /// `[f32; 3]` values.
    Vec3(Vec<Key<[f32; 3]>>),
    /// Quaternions x, y, z, w.
    Quat(Vec<Key<[f32; 4]>>),
}

impl Keys {
    /// How many keys.
    pub fn len(&self) -> usize {
        match self {
            Self::Int(k) => k.len(),
            Self::Float(k) => k.len(),
            Self::Vec3(k) => k.len(),
            Self::Quat(k) => k.len(),
        }
    }

    /// Whether there are none (real files have zero-key tracks).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The frames of the keys, in file order.
    pub fn frames(&self) -> Vec<i32> {
        match self {
            Self::Int(k) => k.iter().map(|k| k.frame).collect(),
            Self::Float(k) => k.iter().map(|k| k.frame).collect(),
            Self::Vec3(k) => k.iter().map(|k| k.frame).collect(),
            Self::Quat(k) => k.iter().map(|k| k.frame).collect(),
        }
    }

    /// The value type.
    pub fn kind(&self) -> ValueKind {
        match self {
            Self::Int(_) => ValueKind::Int,
            Self::Float(_) => ValueKind::Float,
            Self::Vec3(_) => ValueKind::Vec3,
            Self::Quat(_) => ValueKind::Quat,
        }
    }

    fn count(&self) -> BinResult<u32> {
        match self {
            Self::Int(k) => count32(k, "keys"),
            Self::Float(k) => count32(k, "keys"),
            Self::Vec3(k) => count32(k, "keys"),
            Self::Quat(k) => count32(k, "keys"),
        }
    }

    /// Whether every key has tangents (`Some`) or none has, as `with` says.
    pub(crate) fn tangents_agree(&self, with: bool) -> bool {
        fn all<T: Value>(keys: &[Key<T>], with: bool) -> bool {
            keys.iter().all(|k| k.tangents.is_some() == with)
        }
        match self {
            Self::Int(k) => all(k, with),
            Self::Float(k) => all(k, with),
            Self::Vec3(k) => all(k, with),
            Self::Quat(k) => all(k, with),
        }
    }
}

/// A key's value type: `u32`, `f32`, `[f32; 3]` or `[f32; 4]`.
pub trait Value: for<'a> BinRead<Args<'a> = ()> + for<'a> BinWrite<Args<'a> = ()> + 'static {}
impl Value for u32 {}
impl Value for f32 {}
impl Value for [f32; 3] {}
impl Value for [f32; 4] {}

/// One key.
#[binrw]
#[brw(little)]
#[br(import(tangents: bool))]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Key<T: Value> {
    /// Time in milliseconds on the model's one timeline (or the global sequence's); signed.
    pub frame: i32,
    /// The value at `frame`.
    pub value: T,
    /// In and out tangents (Hermite) or control points (Bezier), in value units; present iff
    /// the track's interpolation is 2 or 3.
    #[br(if(tangents))]
    pub tangents: Option<[T; 2]>,
}

/// Reads a track tag and refuses one whose key size is unknown.
fn track_tag<R: Read + Seek>(reader: &mut R, endian: Endian, args: (u64,)) -> BinResult<Tag> {
    let pos = reader.stream_position()?;
    let tag = Tag::read_options(reader, endian, ())?;
    if value_kind(tag.0).is_none() {
        return Err(custom(
            pos,
            ReadErrorKind::Invalid(format!(
                "unknown track tag {tag} ({} bytes before the record's end): its key size is not known",
                args.0.saturating_sub(pos)
            )),
        ));
    }
    Ok(tag)
}

/// Reads the interpolation and refuses values past 3 (the game knows four).
fn interpolation<R: Read + Seek>(reader: &mut R, endian: Endian, _: ()) -> BinResult<u32> {
    let pos = reader.stream_position()?;
    let value = u32::read_options(reader, endian, ())?;
    if value > BEZIER {
        return Err(custom(
            pos,
            ReadErrorKind::Invalid(format!(
                "interpolation {value}: 0 DontInterp, 1 Linear, 2 Hermite and 3 Bezier are known"
            )),
        ));
    }
    Ok(value)
}

fn keys<R: Read + Seek>(reader: &mut R, endian: Endian, args: (Tag, u32, bool, u64)) -> BinResult<Keys> {
    let (tag, count, tangents, end) = args;
    // The tag was checked by `track_tag`; Float is never taken.
    let kind = value_kind(tag.0).unwrap_or(ValueKind::Float);
    let per_key = 4 + kind.size() * if tangents { 3 } else { 1 };
    check_within(reader, end, u64::from(count), per_key)?;
    fn read<R: Read + Seek, T: Value>(
        reader: &mut R,
        endian: Endian,
        count: u32,
        tangents: bool,
    ) -> BinResult<Vec<Key<T>>> {
        let mut out = Vec::with_capacity(count as usize);
        for index in 0..count as usize {
            out.push(
                Key::read_options(reader, endian, (tangents,)).map_err(|e| relic_core::binary::in_element(e, index))?,
            );
        }
        Ok(out)
    }
    Ok(match kind {
        ValueKind::Int => Keys::Int(read(reader, endian, count, tangents)?),
        ValueKind::Float => Keys::Float(read(reader, endian, count, tangents)?),
        ValueKind::Vec3 => Keys::Vec3(read(reader, endian, count, tangents)?),
        ValueKind::Quat => Keys::Quat(read(reader, endian, count, tangents)?),
    })
}

/// `parse_with` reader for the tracks that end a record: tracks until `end`.
pub(crate) fn tracks_until<R: Read + Seek>(reader: &mut R, endian: Endian, args: (u64,)) -> BinResult<Vec<Track>> {
    let (end,) = args;
    let mut out = Vec::new();
    while reader.stream_position()? < end {
        let index = out.len();
        out.push(Track::read_options(reader, endian, end).map_err(|e| relic_core::binary::in_element(e, index))?);
    }
    Ok(out)
}

/// `parse_with` reader for one optional track of tag `tag` (a 1100 texture slot's `KMTF`): read
/// when the next four bytes are that tag. Args: `(tag, end)`.
pub(crate) fn optional_track<R: Read + Seek>(
    reader: &mut R,
    endian: Endian,
    args: ([u8; 4], u64),
) -> BinResult<Option<Track>> {
    let (tag, end) = args;
    if peek_tag(reader, end)? == Some(tag) {
        return Ok(Some(Track::read_options(reader, endian, end)?));
    }
    Ok(None)
}
