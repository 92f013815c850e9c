//! The framing every MDX record shares, as `parse_with` / `write_with` functions for the derived
//! types: inclusive sizes (a `u32` that counts itself and everything up to the record's end),
//! records repeated to the end of their chunk, arrays bounded by the record they sit in, and the
//! four-byte tags.
//!
//! binrw's derive cannot compute an inclusive size on write (it is the length of what follows,
//! known only once that is written), so [`sized`] / [`write_sized`] are written by hand: the one
//! framing rule, kept in one place.

use std::io::{Cursor, Read, Seek, SeekFrom, Write};

use binrw::{BinRead, BinResult, BinWrite, Endian, binrw};
use bytemuck::Pod;
use relic_core::ReadErrorKind;
use relic_core::binary::{in_element, pod_vec, write_pod};
use relic_core::error::custom;

/// What every record's reader is told: the file's version (`VERS`) and where the record (or the
/// chunk) it lies in ends, as an absolute offset. Nothing is read past `end`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ctx {
    /// The `VERS` of the file (800 when it has none).
    pub version: u32,
    /// Absolute offset of the end of the enclosing record or chunk.
    pub end: u64,
}

impl Ctx {
    /// The same version, ending at `end`.
    pub(crate) fn ending(self, end: u64) -> Self {
        Self { version: self.version, end }
    }
}

/// A four-byte tag (`MDLX`, `GEOS`, `KGTR`), compared as bytes.
#[binrw]
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tag(pub [u8; 4]);

impl Tag {
    /// The tag as text (non-ASCII bytes escaped).
    pub fn text(&self) -> String {
        self.0.iter().flat_map(|b| std::ascii::escape_default(*b)).map(char::from).collect()
    }
}

impl std::fmt::Debug for Tag {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text())
    }
}

impl std::fmt::Display for Tag {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text())
    }
}

/// The next four bytes, without moving (`None` at the end of the data).
pub(crate) fn peek_tag<R: Read + Seek>(reader: &mut R, end: u64) -> BinResult<Option<[u8; 4]>> {
    let pos = reader.stream_position()?;
    if pos.saturating_add(4) > end {
        return Ok(None);
    }
    let mut tag = [0u8; 4];
    reader.read_exact(&mut tag)?;
    reader.seek(SeekFrom::Start(pos))?;
    Ok(Some(tag))
}

/// Fails with [`ReadErrorKind::CountTooLarge`] unless `count` records of `size` bytes fit between
/// the position and `end`. Call it before allocating for `count` anything.
pub(crate) fn check_within<R: Read + Seek>(reader: &mut R, end: u64, count: u64, size: u64) -> BinResult<()> {
    let pos = reader.stream_position()?;
    let left = end.saturating_sub(pos);
    let needed = count.saturating_mul(size.max(1));
    if needed > left {
        return Err(custom(pos, ReadErrorKind::CountTooLarge { count, record_size: size.max(1), needed, left }));
    }
    Ok(())
}

/// `parse_with` reader for `count` plain values (`[f32; 3]`, `u32`, `u16`, `u8`) inside a record
/// ending at `end`: one bounds check, one copy. Args: `(end, count)`.
pub(crate) fn pod_within<R: Read + Seek, T: Pod>(
    reader: &mut R,
    endian: Endian,
    args: (u64, u32),
) -> BinResult<Vec<T>> {
    let (end, count) = args;
    check_within(reader, end, u64::from(count), size_of::<T>() as u64)?;
    pod_vec(reader, endian, (u64::from(count),))
}

/// `write_with` for [`pod_within`].
#[allow(clippy::ptr_arg)] // binrw hands `write_with` functions a reference to the field's own type.
pub(crate) fn write_pods<T: Pod, W: Write + Seek>(items: &Vec<T>, writer: &mut W, _: Endian, _: ()) -> BinResult<()> {
    write_pod(writer, items)
}

/// A length as the `u32` count written before an array; refuses one that does not fit.
pub(crate) fn count32<T>(items: &[T], field: &'static str) -> BinResult<u32> {
    u32::try_from(items.len()).map_err(|_| binrw::Error::AssertFail {
        pos: 0,
        message: format!("{field}: {} entries do not fit a u32 count", items.len()),
    })
}

/// `parse_with` reader for one inclusive-sized record: the `u32` size (which counts itself), then
/// `T` read with the record's own end; the record must end exactly where its size says, inside
/// the enclosing `ctx.end`. Args: the enclosing [`Ctx`].
pub(crate) fn sized<R, T>(reader: &mut R, endian: Endian, ctx: Ctx) -> BinResult<T>
where
    R: Read + Seek,
    T: for<'a> BinRead<Args<'a> = Ctx>,
{
    let start = reader.stream_position()?;
    let size = u32::read_options(reader, endian, ())?;
    let end = start + u64::from(size);
    if size < 4 || end > ctx.end {
        return Err(custom(
            start,
            ReadErrorKind::Invalid(format!(
                "inclusive size {size} {} (the enclosing data ends {} bytes after it)",
                if size < 4 { "is smaller than the size field itself" } else { "runs past the enclosing record" },
                ctx.end.saturating_sub(start)
            )),
        ));
    }
    let value = T::read_options(reader, endian, ctx.ending(end))?;
    let pos = reader.stream_position()?;
    if pos != end {
        return Err(custom(
            start,
            ReadErrorKind::Invalid(format!(
                "inclusive size {size} disagrees with the contents, which take {} bytes",
                pos.saturating_sub(start)
            )),
        ));
    }
    Ok(value)
}

/// `write_with` for [`sized`]: `T` written to a buffer, then its length + 4 and the buffer.
pub(crate) fn write_sized<W, T>(value: &T, writer: &mut W, endian: Endian, _: ()) -> BinResult<()>
where
    W: Write + Seek,
    T: for<'a> BinWrite<Args<'a> = ()>,
{
    let mut body = Cursor::new(Vec::new());
    value.write_options(&mut body, endian, ())?;
    let body = body.into_inner();
    let size = u32::try_from(body.len() + 4).map_err(|_| binrw::Error::AssertFail {
        pos: 0,
        message: format!("a record of {} bytes does not fit its u32 inclusive size", body.len() + 4),
    })?;
    size.write_options(writer, endian, ())?;
    writer.write_all(&body)?;
    Ok(())
}

/// `parse_with` reader for inclusive-sized records repeated to `ctx.end` (a chunk of materials,
/// lights, …; no count is stored).
pub(crate) fn sized_until<R, T>(reader: &mut R, endian: Endian, ctx: Ctx) -> BinResult<Vec<T>>
where
    R: Read + Seek,
    T: for<'a> BinRead<Args<'a> = Ctx>,
{
    until(reader, ctx, |r| sized(r, endian, ctx))
}

/// `write_with` for [`sized_until`] (and [`sized_counted`]).
#[allow(clippy::ptr_arg)] // binrw hands `write_with` functions a reference to the field's own type.
pub(crate) fn write_sized_vec<W, T>(items: &Vec<T>, writer: &mut W, endian: Endian, _: ()) -> BinResult<()>
where
    W: Write + Seek,
    T: for<'a> BinWrite<Args<'a> = ()>,
{
    for item in items {
        write_sized(item, writer, endian, ())?;
    }
    Ok(())
}

/// `parse_with` reader for `count` inclusive-sized records of at least `min` bytes each (a
/// material's layers). Args: `(ctx, count, min)`.
pub(crate) fn sized_counted<R, T>(reader: &mut R, endian: Endian, args: (Ctx, u32, u64)) -> BinResult<Vec<T>>
where
    R: Read + Seek,
    T: for<'a> BinRead<Args<'a> = Ctx>,
{
    let (ctx, count, min) = args;
    check_within(reader, ctx.end, u64::from(count), min)?;
    let mut out = Vec::with_capacity(count as usize);
    for index in 0..count as usize {
        out.push(sized(reader, endian, ctx).map_err(|e| in_element(e, index))?);
    }
    Ok(out)
}

/// `parse_with` reader for records without an outer size repeated to `ctx.end` (bones, helpers,
/// event objects, collision shapes: each starts with its node's inclusive size).
pub(crate) fn records_until<R, T>(reader: &mut R, endian: Endian, ctx: Ctx) -> BinResult<Vec<T>>
where
    R: Read + Seek,
    T: for<'a> BinRead<Args<'a> = Ctx>,
{
    until(reader, ctx, |r| T::read_options(r, endian, ctx))
}

/// `write_with` for [`records_until`] and [`fixed_until`].
#[allow(clippy::ptr_arg)] // binrw hands `write_with` functions a reference to the field's own type.
pub(crate) fn write_vec<W, T>(items: &Vec<T>, writer: &mut W, endian: Endian, _: ()) -> BinResult<()>
where
    W: Write + Seek,
    T: for<'a> BinWrite<Args<'a> = ()>,
{
    for item in items {
        item.write_options(writer, endian, ())?;
    }
    Ok(())
}

/// `parse_with` reader for fixed-size records (`size` bytes each) filling the chunk to `ctx.end`:
/// the chunk's size must be a whole number of them. Args: `(ctx, size)`.
pub(crate) fn fixed_until<R, T>(reader: &mut R, endian: Endian, args: (Ctx, u64)) -> BinResult<Vec<T>>
where
    R: Read + Seek,
    T: for<'a> BinRead<Args<'a> = ()>,
{
    let (ctx, size) = args;
    let pos = reader.stream_position()?;
    let left = ctx.end.saturating_sub(pos);
    if size == 0 || left % size != 0 {
        return Err(custom(
            pos,
            ReadErrorKind::Invalid(format!("{left} bytes are not a whole number of {size}-byte records")),
        ));
    }
    let count = left / size;
    let mut out = Vec::with_capacity(count as usize);
    for index in 0..count as usize {
        out.push(T::read_options(reader, endian, ()).map_err(|e| in_element(e, index))?);
    }
    Ok(out)
}

/// Reads with `read` until `ctx.end`; a record that runs past it is an error at its start.
fn until<R: Read + Seek, T>(
    reader: &mut R,
    ctx: Ctx,
    mut read: impl FnMut(&mut R) -> BinResult<T>,
) -> BinResult<Vec<T>> {
    let mut out = Vec::new();
    loop {
        let pos = reader.stream_position()?;
        if pos >= ctx.end {
            break;
        }
        let index = out.len();
        let value = read(reader).map_err(|e| in_element(e, index))?;
        let after = reader.stream_position()?;
        if after > ctx.end {
            return Err(in_element(
                custom(
                    pos,
                    ReadErrorKind::Invalid(format!(
                        "record runs {} bytes past the end of its chunk",
                        after.saturating_sub(ctx.end)
                    )),
                ),
                index,
            ));
        }
        out.push(value);
    }
    Ok(out)
}
