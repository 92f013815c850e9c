//! The section framing both families share (abc.md §2): `string name, i32 next`, then the body.
//!
//! Reading walks the sections by their stored next-offsets. Each body is parsed from a view of
//! the file that ends where the next section begins, so a body cannot read into its neighbour,
//! and it must end exactly there: a body that is shorter or longer than its span is an error
//! naming the section and the offset. Unknown sections are kept as bytes, in their place.
//! Writing lays the sections out in the stored order and patches every next-offset.

use std::io::{Seek, SeekFrom};

use binrw::{BinRead, BinResult};
use relic_core::binary::{ByteWriter, LenString, Source};
use relic_core::{ReadError, ReadErrorKind, WriteError};

use crate::file::common::{SectionHeader, UnknownSection};

/// The known sections of a family, plus "an entry of the file's unknown sections".
pub(crate) trait SectionKind: Copy + Eq + std::fmt::Debug {
    /// The known section of a stored name.
    fn from_name(name: &[u8]) -> Option<Self>;
    /// The `i`-th unknown section.
    fn unknown(i: usize) -> Self;
    /// `Some(i)` for the `i`-th unknown section.
    fn unknown_index(self) -> Option<usize>;
    /// The stored name of a known section (`None` for unknown sections).
    fn name(self) -> Option<&'static str>;
}

/// One section as the walk found it.
#[derive(Debug)]
pub(crate) struct Span {
    /// The stored name.
    pub(crate) name: Vec<u8>,
    /// Offset of the section header.
    pub(crate) at: u64,
    /// Offset of the body (after the header).
    pub(crate) body: u64,
    /// Where the body must end: the next section's offset, or the end of the file.
    pub(crate) end: u64,
}

impl Span {
    pub(crate) fn label(&self) -> String {
        relic_core::text::decode_cp1252(&self.name)
    }
}

/// The walk over a file's sections by their next-offsets.
struct Walk<'a> {
    bytes: &'a [u8],
    next: Option<u64>,
    index: usize,
}

impl<'a> Walk<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Self { bytes, next: Some(0), index: 0 }
    }

    fn next(&mut self) -> Result<Option<Span>, ReadError> {
        let Some(at) = self.next else { return Ok(None) };
        let file_len = self.bytes.len() as u64;
        let (header, body) = parse_span(self.bytes, at, file_len, |s| SectionHeader::read_le(s))
            .map_err(|e| e.within(&format!("sections[{}]", self.index)))?;
        let name = header.name.0;
        let label = relic_core::text::decode_cp1252(&name);
        let next_field = body - 4;
        let end = match header.next {
            -1 => {
                self.next = None;
                file_len
            }
            n if n < 0 || (n as u64) < body => {
                return Err(ReadError::invalid(
                    next_field,
                    format!("{label}.next"),
                    format!(
                        "next-section offset {n} does not lie after this section's header (which ends at {body:#x})"
                    ),
                ));
            }
            n => {
                let n = n as u64;
                if n + 6 > file_len {
                    return Err(ReadError::at(
                        next_field,
                        format!("{label}.next"),
                        ReadErrorKind::OffsetOutOfBounds { target: n, len: 6, file_len },
                    ));
                }
                self.next = Some(n);
                n
            }
        };
        self.index += 1;
        Ok(Some(Span { name, at, body, end }))
    }
}

/// Runs `read` on the bytes `start..end` of `bytes` (offsets stay absolute) and returns the value
/// and where the read stopped.
fn parse_span<T>(
    bytes: &[u8],
    start: u64,
    end: u64,
    read: impl FnOnce(&mut Source<'_>) -> BinResult<T>,
) -> Result<(T, u64), ReadError> {
    let view = bytes.get(..usize::try_from(end).unwrap_or(usize::MAX)).unwrap_or(bytes);
    let mut source = Source::new(view);
    source.seek(SeekFrom::Start(start)).map_err(|e| ReadError::new(start, ReadErrorKind::Io(e.to_string())))?;
    let value = read(&mut source).map_err(|e| ReadError::from_binrw(&e, source.eof_at()))?;
    Ok((value, source.position()))
}

/// Parses a section body that must fill its span exactly. The reader sees the file up to the
/// span's end and nothing after it.
pub(crate) fn body<T>(
    bytes: &[u8],
    span: &Span,
    read: impl FnOnce(&mut Source<'_>) -> BinResult<T>,
) -> Result<T, ReadError> {
    let label = span.label();
    let (value, stop) = parse_span(bytes, span.body, span.end, read).map_err(|e| e.within(&label))?;
    if stop != span.end {
        return Err(ReadError::at(stop, label, ReadErrorKind::TrailingBytes(span.end.saturating_sub(stop))));
    }
    Ok(value)
}

/// What the walk gives a family reader besides the sections it read itself.
pub(crate) struct Walked<K, H> {
    /// The `Header` section's body.
    pub(crate) header: H,
    /// The sections after `Header`, in file order.
    pub(crate) order: Vec<K>,
    /// The unknown sections, in file order.
    pub(crate) unknown: Vec<UnknownSection>,
}

/// Walks every section. `header` reads the first section, which must be `Header`; `known` reads
/// every known section after it (each at most once). Unknown sections are kept as bytes.
pub(crate) fn walk<K: SectionKind, H>(
    bytes: &[u8],
    header: impl FnOnce(&Span) -> Result<H, ReadError>,
    mut known: impl FnMut(&H, K, &Span) -> Result<(), ReadError>,
) -> Result<Walked<K, H>, ReadError> {
    let mut walk = Walk::new(bytes);
    let first = walk.next()?.ok_or_else(|| ReadError::new(0, ReadErrorKind::Truncated))?;
    if first.name != b"Header" {
        return Err(ReadError::invalid(0, "sections[0].name", "the first section is not Header"));
    }
    let mut out = Walked { header: header(&first)?, order: Vec::new(), unknown: Vec::new() };
    while let Some(span) = walk.next()? {
        if span.name == b"Header" {
            return Err(duplicate(&span));
        }
        let Some(id) = K::from_name(&span.name) else {
            out.order.push(K::unknown(out.unknown.len()));
            // `Walk::next` ends every span inside the file; a span past it is refused, not cut.
            let range = span.body as usize..span.end as usize;
            let body = bytes.get(range).map(<[u8]>::to_vec).ok_or_else(|| {
                ReadError::at(
                    span.body,
                    span.label(),
                    ReadErrorKind::OffsetOutOfBounds {
                        target: span.body,
                        len: span.end.saturating_sub(span.body),
                        file_len: bytes.len() as u64,
                    },
                )
            })?;
            out.unknown.push(UnknownSection { name: span.name.clone(), body });
            continue;
        };
        if out.order.contains(&id) {
            return Err(duplicate(&span));
        }
        known(&out.header, id, &span)?;
        out.order.push(id);
    }
    Ok(out)
}

fn duplicate(span: &Span) -> ReadError {
    ReadError::invalid(span.at, span.label(), "the section appears twice")
}

/// A section the family needs but the file does not have.
pub(crate) fn missing(bytes: &[u8], name: &str) -> ReadError {
    ReadError::invalid(bytes.len() as u64, name, format!("the {name} section is missing"))
}

/// A section that needs another one before it.
pub(crate) fn out_of_order(span: &Span, after: &str) -> ReadError {
    ReadError::invalid(span.at, span.label(), format!("the section must come after {after}"))
}

// ---------------------------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------------------------

fn io(e: binrw::Error) -> WriteError {
    WriteError::from_binrw(&e)
}

/// Writes one section: name, next-offset (patched after the body, −1 on the last), body.
fn section(
    w: &mut ByteWriter,
    name: &[u8],
    last: bool,
    body: impl FnOnce(&mut ByteWriter) -> BinResult<()>,
) -> Result<(), WriteError> {
    w.write(&LenString(name.to_vec())).map_err(io)?;
    let slot = w.reserve_u32();
    body(w).map_err(io)?;
    let next = if last { u32::MAX } else { w.len() as u32 };
    w.patch_u32(slot, next);
    Ok(())
}

/// Writes `Header` and then the sections in `order`; `known` writes the body of a known section
/// (the layout check before writing makes sure the file has every section `order` names),
/// unknown sections are written back as stored.
pub(crate) fn write_sections<K: SectionKind>(
    capacity: usize,
    header: impl FnOnce(&mut ByteWriter) -> BinResult<()>,
    order: &[K],
    unknown: &[UnknownSection],
    mut known: impl FnMut(K, &mut ByteWriter) -> BinResult<()>,
) -> Result<Vec<u8>, WriteError> {
    let mut w = ByteWriter::with_capacity(capacity);
    let count = order.len();
    section(&mut w, b"Header", count == 0, header)?;
    for (i, &id) in order.iter().enumerate() {
        let last = i + 1 == count;
        match (id.unknown_index(), id.name()) {
            (Some(u), _) => {
                let s = unknown.get(u).ok_or_else(|| bad_order("an unknown section index"))?;
                section(&mut w, &s.name, last, |w| {
                    w.append(&s.body);
                    Ok(())
                })?;
            }
            (None, Some(name)) => section(&mut w, name.as_bytes(), last, |w| known(id, w))?,
            (None, None) => return Err(bad_order("a section without a name")),
        }
    }
    Ok(w.into_bytes())
}

fn bad_order(what: &str) -> WriteError {
    WriteError::Unsupported(format!("section order names {what}, which the file does not have"))
}

/// The error a body writer returns for a section the order names but the file does not have
/// (the layout check before writing rules it out).
pub(crate) fn absent(name: &str) -> binrw::Error {
    crate::file::common::invalid(0, format!("section order names {name}, which the file does not have"))
}
