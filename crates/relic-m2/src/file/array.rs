//! `M2Array<T>`, the `(u32 count, u32 offset)` pair every M2 block hangs from, its bounded
//! readers for plain-old-data blocks, and stored text.

use std::io::{Read, Seek, Write};
use std::ops::{Deref, DerefMut};

use binrw::{BinRead, BinResult, BinWrite, Endian};
use bytemuck::Pod;
use relic_core::binary::{at_offset, pod_vec};

use super::layout::Layout;

/// `M2Array<T>`: `u32 count, u32 offset` in a record; `count` records at the absolute `offset`.
///
/// Only the records take part in comparisons: the offset is where the file stored them, kept for
/// error messages and the overlap check; the writer's layout pass places every block anew.
#[derive(Clone)]
pub struct M2Array<T> {
    /// The records.
    pub items: Vec<T>,
    /// Absolute file offset the records were read from (0 for a built array).
    pub offset: u32,
}

impl<T> M2Array<T> {
    /// An array of `items` (offset 0: not read from a file).
    pub fn new(items: Vec<T>) -> Self {
        Self { items, offset: 0 }
    }
}

impl<T> Default for M2Array<T> {
    fn default() -> Self {
        Self::new(Vec::new())
    }
}

impl<T> From<Vec<T>> for M2Array<T> {
    fn from(items: Vec<T>) -> Self {
        Self::new(items)
    }
}

impl<T> Deref for M2Array<T> {
    type Target = Vec<T>;
    fn deref(&self) -> &Vec<T> {
        &self.items
    }
}

impl<T> DerefMut for M2Array<T> {
    fn deref_mut(&mut self) -> &mut Vec<T> {
        &mut self.items
    }
}

impl<T: PartialEq + 'static> PartialEq for M2Array<T> {
    /// The records compared; numbers the file stores as NaN (particle tracks of real files keep
    /// them) equal the same bits, so that a file compares equal to itself.
    fn eq(&self, other: &Self) -> bool {
        self.items == other.items || same_floats(&self.items, &other.items).unwrap_or(false)
    }
}

/// For blocks of floats: equal value by value, a NaN equal to the same NaN bits (`None` for other
/// records).
// `&Vec`: the blocks are told apart by `Any`, which takes sized types (a slice is not one).
#[allow(clippy::ptr_arg)]
fn same_floats<T: 'static>(a: &Vec<T>, b: &Vec<T>) -> Option<bool> {
    use std::any::Any;
    fn flat<const N: usize>(a: &dyn Any, b: &dyn Any) -> Option<bool> {
        let (a, b) = (a.downcast_ref::<Vec<[f32; N]>>()?, b.downcast_ref::<Vec<[f32; N]>>()?);
        let same = |x: &f32, y: &f32| x == y || x.to_bits() == y.to_bits();
        Some(a.len() == b.len() && a.iter().flatten().zip(b.iter().flatten()).all(|(x, y)| same(x, y)))
    }
    let (a, b): (&dyn Any, &dyn Any) = (a, b);
    if let (Some(x), Some(y)) = (a.downcast_ref::<Vec<f32>>(), b.downcast_ref::<Vec<f32>>()) {
        let wrap = |v: &Vec<f32>| v.iter().map(|f| [*f]).collect::<Vec<[f32; 1]>>();
        return flat::<1>(&wrap(x), &wrap(y));
    }
    flat::<2>(a, b).or_else(|| flat::<3>(a, b)).or_else(|| flat::<4>(a, b)).or_else(|| {
        let (x, y) = (a.downcast_ref::<Vec<[[f32; 3]; 3]>>()?, b.downcast_ref::<Vec<[[f32; 3]; 3]>>()?);
        let flatten = |v: &Vec<[[f32; 3]; 3]>| v.iter().flatten().copied().collect::<Vec<[f32; 3]>>();
        flat::<3>(&flatten(x), &flatten(y))
    })
}

impl<T: std::fmt::Debug> std::fmt::Debug for M2Array<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.items.fmt(f)
    }
}

impl<T: serde::Serialize> serde::Serialize for M2Array<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.items.serialize(s)
    }
}

impl<'de, T: serde::Deserialize<'de>> serde::Deserialize<'de> for M2Array<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Vec::<T>::deserialize(d).map(Self::new)
    }
}

/// Serde for an [`M2Array`] of plain values as one base64 string of their bytes
/// ([`relic_core::packed`]; a JSON list from an older export reads too): an M2's extras carry its
/// views and tracks, hundreds of thousands of numbers. `#[serde(with = "packed")]`.
pub(crate) mod packed {
    use super::M2Array;
    use bytemuck::Pod;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer, T: Pod>(v: &M2Array<T>, s: S) -> Result<S::Ok, S::Error> {
        relic_core::packed::serialize(v, s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>, T: Pod + Deserialize<'de>>(
        d: D,
    ) -> Result<M2Array<T>, D::Error> {
        relic_core::packed::deserialize(d).map(M2Array::new)
    }

    /// The same for an array of arrays (a Wrath track's timelines): one string per array.
    pub(crate) mod lists {
        use super::M2Array;
        use bytemuck::Pod;
        use serde::{Deserialize, Deserializer, Serializer};

        pub(crate) fn serialize<S: Serializer, T: Pod>(v: &M2Array<M2Array<T>>, s: S) -> Result<S::Ok, S::Error> {
            relic_core::packed::lists::serialize(v, s)
        }

        pub(crate) fn deserialize<'de, D: Deserializer<'de>, T: Pod + Deserialize<'de>>(
            d: D,
        ) -> Result<M2Array<M2Array<T>>, D::Error> {
            let lists: Vec<Vec<T>> = relic_core::packed::lists::deserialize(d)?;
            Ok(M2Array::new(lists.into_iter().map(M2Array::new).collect()))
        }
    }
}

impl<T> AsRef<[T]> for M2Array<T> {
    fn as_ref(&self) -> &[T] {
        &self.items
    }
}

/// Writes the pair: the count, and the offset the layout pass gave the block.
///
/// Hand-written because the offset is not a value of the array: it comes from the [`Layout`]
/// (pairs are taken in the order the derived writers meet them, which is the file's byte order).
impl<T> BinWrite for M2Array<T> {
    type Args<'a> = (&'a Layout,);
    fn write_options<W: Write + Seek>(
        &self,
        writer: &mut W,
        endian: Endian,
        (layout,): Self::Args<'_>,
    ) -> BinResult<()> {
        write_pair(writer, endian, layout, self.items.len())
    }
}

/// `write_with` writer for an array of key values with `per_key` values per counted entry
/// (Hermite and Bezier keys: value, in-tangent, out-tangent): the pair states the key count.
pub(crate) fn write_keys<W: Write + Seek, T>(
    values: &M2Array<T>,
    writer: &mut W,
    endian: Endian,
    (layout, per_key): (&Layout, usize),
) -> BinResult<()> {
    write_pair(writer, endian, layout, values.items.len() / per_key.max(1))
}

/// Writes `(count, offset)` in one write (a real file has a few thousand pairs).
fn write_pair<W: Write + Seek>(writer: &mut W, endian: Endian, layout: &Layout, count: usize) -> BinResult<()> {
    // The layout pass has checked that every count fits a u32.
    let Some(offset) = layout.take_offset() else {
        let (pos, next) = (writer.stream_position()?, layout.next.get());
        let message = format!("pair {next} was not laid out (the layout pass placed {})", layout.pairs.len());
        return Err(binrw::Error::AssertFail { pos, message });
    };
    let count = count as u32;
    let halves = match endian {
        Endian::Little => [count.to_le_bytes(), offset.to_le_bytes()],
        Endian::Big => [count.to_be_bytes(), offset.to_be_bytes()],
    };
    writer.write_all(&bytemuck::cast::<[[u8; 4]; 2], [u8; 8]>(halves))?;
    Ok(())
}

/// Reads the `(count, offset)` pair at the current position.
fn pair<R: Read + Seek>(reader: &mut R, endian: Endian) -> BinResult<(u64, u32, u32)> {
    let pos = reader.stream_position()?;
    let count = u32::read_options(reader, endian, ())?;
    let offset = u32::read_options(reader, endian, ())?;
    Ok((pos, count, offset))
}

/// `parse_with` reader for an `M2Array` of plain-old-data records (one bounds check, one copy).
pub(crate) fn pod_array<R: Read + Seek, T: Pod>(reader: &mut R, endian: Endian, _: ()) -> BinResult<M2Array<T>> {
    pod_keys(reader, endian, (1,))
}

/// `parse_with` reader for an optional `M2Array` (read where a `#[br(if(…))]` says it exists).
pub(crate) fn some_pod_array<R: Read + Seek, T: Pod>(
    reader: &mut R,
    endian: Endian,
    _: (),
) -> BinResult<Option<M2Array<T>>> {
    pod_array(reader, endian, ()).map(Some)
}

/// `parse_with` reader for an `M2Array` of plain-old-data values with `per_key` values per
/// counted entry (3 for Hermite/Bezier keys: value, in-tangent, out-tangent). Args: `(per_key,)`.
pub(crate) fn pod_keys<R: Read + Seek, T: Pod>(reader: &mut R, endian: Endian, args: (u64,)) -> BinResult<M2Array<T>> {
    let (pos, count, offset) = pair(reader, endian)?;
    if count == 0 {
        return Ok(M2Array { items: Vec::new(), offset });
    }
    let n = u64::from(count).saturating_mul(args.0);
    let len = n.saturating_mul(size_of::<T>() as u64);
    let items = at_offset(reader, pos, u64::from(offset), len, |r| pod_vec(r, endian, (n,)))?;
    Ok(M2Array { items, offset })
}

/// `try_map` writer of a field that a layout has from some version on: its value, or an error
/// naming it for a record made for a layout without it (nothing the file means can stand in).
pub(crate) fn present<T: Copy>(field: &'static str) -> impl Fn(&Option<T>) -> Result<T, String> {
    move |value| value.ok_or_else(|| format!("{field} is absent, but this version's layout stores it"))
}

/// A model's stored name: the text after any leading NULs (some tools store the name behind a
/// NUL; the game shows the text), as [`text`] reads it.
pub(crate) fn name(bytes: &[u8]) -> String {
    let start = bytes.iter().position(|&b| b != 0).unwrap_or(bytes.len());
    // `start` is a position in `bytes` or its length: the slice exists; a name of NULs only is empty.
    text(bytes.get(start..).unwrap_or_default())
}

/// Stored text: the bytes before the first NUL (all of them without one), Windows-1252.
pub(crate) fn text(bytes: &[u8]) -> String {
    let text = match bytes.iter().position(|&b| b == 0) {
        Some(nul) => bytes.split_at(nul).0,
        None => bytes,
    };
    relic_core::text::decode_cp1252(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    struct Held {
        #[serde(with = "packed")]
        times: M2Array<u32>,
        #[serde(with = "packed")]
        keys: M2Array<[f32; 3]>,
        #[serde(with = "packed::lists")]
        timelines: M2Array<M2Array<u16>>,
    }

    /// An M2's arrays go to the extras as base64 of their bytes and come back equal; the JSON
    /// lists an export before the packing wrote read as the same arrays.
    #[test]
    fn packed_arrays_and_the_lists_of_older_exports_read_back() {
        let held = Held {
            times: M2Array::new(vec![0, 33, 1000]),
            keys: M2Array::new(vec![[1.5, -0.0, 2.0]]),
            timelines: M2Array::new(vec![M2Array::new(vec![1, 2]), M2Array::default()]),
        };
        let json = serde_json::to_string(&held).unwrap();
        assert_eq!(json, r#"{"times":"AAAAACEAAADoAwAA","keys":"AADAPwAAAIAAAABA","timelines":["AQACAA==",""]}"#);
        assert_eq!(serde_json::from_str::<Held>(&json).unwrap(), held);
        let older = r#"{"times":[0,33,1000],"keys":[[1.5,-0.0,2.0]],"timelines":[[1,2],[]]}"#;
        assert_eq!(serde_json::from_str::<Held>(older).unwrap(), held);
    }
}
