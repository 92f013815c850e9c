//! Whole files: detection, the section walk (by each section's next-offset), and writing.
//!
//! Reading walks the sections by their stored next-offsets. Each section body is parsed from a
//! view of the file that ends where the next section begins, so a body cannot read into its
//! neighbour, and it must end exactly there: a body that is shorter or longer than its span is an
//! error naming the section and the offset. Writing lays the sections out in the stored order and
//! recomputes every next-offset and every header count from the data.

use std::io::{Seek, SeekFrom};

use binrw::{BinRead, BinResult, BinWrite, Endian};
use relic_core::binary::{ByteWriter, LenString, Source};
use relic_core::{ReadError, ReadErrorKind, WriteError};

use crate::common::{SectionHeader, UnknownSection};
use crate::counts;
use crate::v6::{self, AnimDims, Geometry, TransformInfo, V6Animations, V6File, V6Header, V6Nodes, V6SectionId};
use crate::v12::{self, AnimBindings, Animations, ChildModels, Header, Nodes, Pieces, SectionId, Sockets, V12File};

/// A parsed ABC file of either family.
#[derive(Debug, Clone, PartialEq)]
pub enum AbcFile {
    /// "MonolithExport Model File v6" (Shogo, Blood 2).
    V6(V6File),
    /// Versions 9–13 (No One Lives Forever, Aliens vs Predator 2).
    V12(V12File),
}

impl AbcFile {
    /// The file's version (6 for the v6 family).
    pub fn version(&self) -> u32 {
        match self {
            AbcFile::V6(_) => 6,
            AbcFile::V12(f) => f.header.version,
        }
    }
}

/// What the first bytes say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// v6 (identified by its file token).
    V6,
    /// The version number stored after the section header.
    Numbered(u32),
}

/// Reads the family from the first bytes: `u16 6, "Header", i32 next`, then the v6 token or the
/// version. `None` if this is not a LithTech ABC file.
pub fn family(bytes: &[u8]) -> Option<Family> {
    if bytes.get(..8)? != b"\x06\x00Header" {
        return None;
    }
    let token_len = bytes.get(12..14)?;
    if token_len == [28, 0] && bytes.get(14..42) == Some(v6::FILE_TOKEN) {
        return Some(Family::V6);
    }
    let version = u32::from_le_bytes(bytes.get(12..16)?.try_into().ok()?);
    Some(Family::Numbered(version))
}

/// Why a version is not read, or `None` if it is.
pub fn refusal(version: u32) -> Option<String> {
    match version {
        v if v12::VERSIONS.contains(&v) => None,
        106..=108 => Some(format!(
            "Global Operations ABC (version {version}) changes the header, pieces, vertices and nodes and adds a \
             HitGroups section whose layout no public source settles; relic reads versions 6 and 9–13"
        )),
        _ => Some(format!("relic reads LithTech ABC versions 6 and 9–13, not {version}")),
    }
}

/// Parses a whole file.
pub fn parse(bytes: &[u8]) -> Result<AbcFile, ReadError> {
    match family(bytes) {
        Some(Family::V6) => read_v6(bytes).map(AbcFile::V6),
        Some(Family::Numbered(version)) => match refusal(version) {
            None => read_v12(bytes).map(AbcFile::V12),
            Some(reason) => {
                Err(ReadError::at(12, "Header.version", ReadErrorKind::UnsupportedVersion { version, reason }))
            }
        },
        None => Err(ReadError::new(
            0,
            ReadErrorKind::BadMagic {
                found: format!("{:02x?}", bytes.get(..8.min(bytes.len())).unwrap_or_default()),
                expected: "06 00 \"Header\" (a LithTech ABC section header)".into(),
            },
        )),
    }
}

/// One section as the walk found it.
#[derive(Debug)]
struct Span {
    /// The stored name.
    name: Vec<u8>,
    /// Offset of the section header.
    at: u64,
    /// Offset of the body (after the header).
    body: u64,
    /// Where the body must end: the next section's offset, or the end of the file.
    end: u64,
}

impl Span {
    fn label(&self) -> String {
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
                return Err(ReadError::at(
                    next_field,
                    format!("{label}.next"),
                    ReadErrorKind::Invalid(format!(
                        "next-section offset {n} does not lie after this section's header (which ends at {body:#x})"
                    )),
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

/// Parses a section body that must fill its span exactly.
fn body<T>(bytes: &[u8], span: &Span, read: impl FnOnce(&mut Source<'_>) -> BinResult<T>) -> Result<T, ReadError> {
    let label = span.label();
    let (value, stop) = parse_span(bytes, span.body, span.end, read).map_err(|e| e.within(&label))?;
    if stop != span.end {
        return Err(ReadError::at(stop, label, ReadErrorKind::TrailingBytes(span.end.saturating_sub(stop))));
    }
    Ok(value)
}

fn duplicate(span: &Span) -> ReadError {
    ReadError::at(span.at, span.label(), ReadErrorKind::Invalid("the section appears twice".into()))
}

fn unknown(bytes: &[u8], span: &Span) -> UnknownSection {
    let range = span.body as usize..span.end as usize;
    UnknownSection { name: span.name.clone(), body: bytes.get(range).unwrap_or_default().to_vec() }
}

fn first_header(walk: &mut Walk<'_>) -> Result<Span, ReadError> {
    let span = walk.next()?.ok_or_else(|| ReadError::new(0, ReadErrorKind::Truncated))?;
    if span.name != b"Header" {
        return Err(ReadError::at(
            0,
            "sections[0].name",
            ReadErrorKind::Invalid("the first section is not Header".into()),
        ));
    }
    Ok(span)
}

fn read_v12(bytes: &[u8]) -> Result<V12File, ReadError> {
    let mut walk = Walk::new(bytes);
    let span = first_header(&mut walk)?;
    let header = body(bytes, &span, |s| Header::read_le(s))?;
    let (version, nodes, lods) = (header.version, header.node_count, header.lod_count);
    let mut file = V12File {
        header,
        pieces: None,
        nodes: None,
        child_models: None,
        animations: None,
        sockets: None,
        anim_bindings: None,
        unknown: Vec::new(),
        order: Vec::new(),
    };
    while let Some(span) = walk.next()? {
        if span.name == b"Header" {
            return Err(duplicate(&span));
        }
        let Some(id) = SectionId::from_name(&span.name) else {
            file.order.push(SectionId::Unknown(file.unknown.len()));
            file.unknown.push(unknown(bytes, &span));
            continue;
        };
        if file.order.contains(&id) {
            return Err(duplicate(&span));
        }
        let le = Endian::Little;
        match id {
            SectionId::Pieces => {
                file.pieces = Some(body(bytes, &span, |s| Pieces::read_options(s, le, (version, lods, nodes)))?);
            }
            SectionId::Nodes => file.nodes = Some(body(bytes, &span, |s| Nodes::read_options(s, le, (nodes,)))?),
            SectionId::ChildModels => {
                let c = body(bytes, &span, |s| ChildModels::read_options(s, le, (nodes,)))?;
                let count = u32::from(c.self_entry.is_some()) + c.children.len() as u32;
                if count != file.header.child_model_count {
                    return Err(ReadError::at(
                        span.body,
                        "ChildModels.count",
                        ReadErrorKind::Invalid(format!(
                            "{count} child models, but the header's ChildModelCount is {}",
                            file.header.child_model_count
                        )),
                    ));
                }
                file.child_models = Some(c);
            }
            SectionId::Animation => {
                file.animations = Some(body(bytes, &span, |s| Animations::read_options(s, le, (version, nodes)))?);
            }
            SectionId::Sockets => file.sockets = Some(body(bytes, &span, |s| Sockets::read_options(s, le, (nodes,)))?),
            SectionId::AnimBindings => {
                let groups = file.header.child_model_count;
                file.anim_bindings = Some(body(bytes, &span, |s| AnimBindings::read_options(s, le, (groups,)))?);
            }
            SectionId::Unknown(_) => {}
        }
        file.order.push(id);
    }
    Ok(file)
}

fn missing(bytes: &[u8], name: &str) -> ReadError {
    ReadError::at(bytes.len() as u64, name, ReadErrorKind::Invalid(format!("the {name} section is missing")))
}

fn out_of_order(span: &Span, after: &str) -> ReadError {
    ReadError::at(span.at, span.label(), ReadErrorKind::Invalid(format!("the section must come after {after}")))
}

fn read_v6(bytes: &[u8]) -> Result<V6File, ReadError> {
    let mut walk = Walk::new(bytes);
    let span = first_header(&mut walk)?;
    let header = body(bytes, &span, |s| V6Header::read_le(s))?;
    let mut geometry: Option<(Geometry, u64)> = None;
    let mut nodes: Option<V6Nodes> = None;
    let mut animations: Option<V6Animations> = None;
    let (mut anim_dims, mut transform_info) = (None, None);
    let (mut unknowns, mut order) = (Vec::new(), Vec::new());
    while let Some(span) = walk.next()? {
        if span.name == b"Header" {
            return Err(duplicate(&span));
        }
        let Some(id) = V6SectionId::from_name(&span.name) else {
            order.push(V6SectionId::Unknown(unknowns.len()));
            unknowns.push(unknown(bytes, &span));
            continue;
        };
        if order.contains(&id) {
            return Err(duplicate(&span));
        }
        let le = Endian::Little;
        match id {
            V6SectionId::Geometry => {
                let g = body(bytes, &span, |s| Geometry::read_le(s))?;
                check_triangles(&g, span.body)?;
                geometry = Some((g, span.body));
            }
            V6SectionId::Nodes => {
                let Some((g, at)) = &geometry else { return Err(out_of_order(&span, "Geometry")) };
                let n = body(bytes, &span, |s| V6Nodes::read_options(s, le, (g.vertices.len() as u32,)))?;
                check_vertex_nodes(g, *at, n.nodes.len())?;
                nodes = Some(n);
            }
            V6SectionId::Animation => {
                let Some(n) = &nodes else { return Err(out_of_order(&span, "Nodes")) };
                let md = n.md_counts();
                animations = Some(body(bytes, &span, |s| V6Animations::read_options(s, le, (&md,)))?);
            }
            V6SectionId::AnimDims => {
                let Some(a) = &animations else { return Err(out_of_order(&span, "Animation")) };
                let count = a.animations.len() as u32;
                anim_dims = Some(body(bytes, &span, |s| AnimDims::read_options(s, le, (count,)))?);
            }
            V6SectionId::TransformInfo => transform_info = Some(body(bytes, &span, |s| TransformInfo::read_le(s))?),
            V6SectionId::Unknown(_) => {}
        }
        order.push(id);
    }
    Ok(V6File {
        header,
        geometry: geometry.ok_or_else(|| missing(bytes, "Geometry"))?.0,
        nodes: nodes.ok_or_else(|| missing(bytes, "Nodes"))?,
        animations: animations.ok_or_else(|| missing(bytes, "Animation"))?,
        anim_dims,
        transform_info,
        unknown: unknowns,
        order,
    })
}

/// Byte offset of the triangle list inside a `Geometry` body.
fn triangles_at(g: &Geometry, body: u64) -> u64 {
    body + 24 + 4 + 2 * g.vertex_start_num.len() as u64 + 4
}

fn check_triangles(g: &Geometry, body: u64) -> Result<(), ReadError> {
    let count = g.vertices.len();
    for (t, tri) in g.triangles.iter().enumerate() {
        if let Some((c, &i)) = tri.indices.iter().enumerate().find(|(_, i)| usize::from(**i) >= count) {
            let at = triangles_at(g, body) + 33 * t as u64 + 24 + 2 * c as u64;
            return Err(ReadError::at(
                at,
                format!("Geometry.triangles[{t}].indices"),
                ReadErrorKind::Invalid(format!("vertex index {i} ≥ vertex count {count}")),
            ));
        }
    }
    Ok(())
}

fn check_vertex_nodes(g: &Geometry, body: u64, nodes: usize) -> Result<(), ReadError> {
    let vertices_at = triangles_at(g, body) + 33 * g.triangles.len() as u64 + 8;
    for (v, vertex) in g.vertices.iter().enumerate() {
        if usize::from(vertex.transformation_index) >= nodes {
            return Err(ReadError::at(
                vertices_at + 20 * v as u64 + 15,
                format!("Geometry.vertices[{v}].transformation_index"),
                ReadErrorKind::Invalid(format!("node {} ≥ node count {nodes}", vertex.transformation_index)),
            ));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------------------------

/// Writes a file. Header counts and next-offsets are recomputed; the layout is checked first so
/// that what is written reads back.
pub fn write(file: &AbcFile) -> Result<Vec<u8>, WriteError> {
    match file {
        AbcFile::V6(f) => write_v6(f),
        AbcFile::V12(f) => write_v12(f),
    }
}

fn io(e: binrw::Error) -> WriteError {
    WriteError::from_binrw(&e)
}

/// Writes one section: name, next-offset (patched after the body), body.
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

fn write_v12(file: &V12File) -> Result<Vec<u8>, WriteError> {
    crate::shape::check_v12(file)?;
    let header = counts::recount(file);
    let (version, nodes, lods) = (header.version, header.node_count, header.lod_count);
    let mut w = ByteWriter::with_capacity(counts::estimated_size_v12(file));
    let le = Endian::Little;
    let last = file.order.len();
    section(&mut w, b"Header", last == 0, |w| header.write_options(w, le, ()))?;
    for (i, id) in file.order.iter().enumerate() {
        let is_last = i + 1 == last;
        let name = id.name().map(|n| n.as_bytes().to_vec());
        match (id, name) {
            (SectionId::Unknown(u), _) => {
                let s = file.unknown.get(*u).ok_or_else(|| bad_order("unknown section index"))?;
                section(&mut w, &s.name, is_last, |w| {
                    w.append(&s.body);
                    Ok(())
                })?;
            }
            (SectionId::Pieces, Some(n)) => {
                let s = file.pieces.as_ref().ok_or_else(|| bad_order("Pieces"))?;
                section(&mut w, &n, is_last, |w| s.write_options(w, le, (version, lods, nodes)))?;
            }
            (SectionId::Nodes, Some(n)) => {
                let s = file.nodes.as_ref().ok_or_else(|| bad_order("Nodes"))?;
                section(&mut w, &n, is_last, |w| s.write_options(w, le, (nodes,)))?;
            }
            (SectionId::ChildModels, Some(n)) => {
                let s = file.child_models.as_ref().ok_or_else(|| bad_order("ChildModels"))?;
                section(&mut w, &n, is_last, |w| s.write_options(w, le, (nodes,)))?;
            }
            (SectionId::Animation, Some(n)) => {
                let s = file.animations.as_ref().ok_or_else(|| bad_order("Animation"))?;
                section(&mut w, &n, is_last, |w| s.write_options(w, le, (version, nodes)))?;
            }
            (SectionId::Sockets, Some(n)) => {
                let s = file.sockets.as_ref().ok_or_else(|| bad_order("Sockets"))?;
                section(&mut w, &n, is_last, |w| s.write_options(w, le, (nodes,)))?;
            }
            (SectionId::AnimBindings, Some(n)) => {
                let s = file.anim_bindings.as_ref().ok_or_else(|| bad_order("AnimBindings"))?;
                section(&mut w, &n, is_last, |w| s.write_options(w, le, (header.child_model_count,)))?;
            }
            (_, None) => return Err(bad_order("section")),
        }
    }
    Ok(w.into_bytes())
}

fn bad_order(what: &str) -> WriteError {
    WriteError::Unsupported(format!("section order names {what}, which the file does not have"))
}

fn write_v6(file: &V6File) -> Result<Vec<u8>, WriteError> {
    crate::shape::check_v6(file)?;
    let mut w = ByteWriter::with_capacity(counts::estimated_size_v6(file));
    let le = Endian::Little;
    let last = file.order.len();
    section(&mut w, b"Header", last == 0, |w| file.header.write_options(w, le, ()))?;
    for (i, id) in file.order.iter().enumerate() {
        let is_last = i + 1 == last;
        let name = id.name().map(str::as_bytes).unwrap_or_default();
        match id {
            V6SectionId::Unknown(u) => {
                let s = file.unknown.get(*u).ok_or_else(|| bad_order("unknown section index"))?;
                section(&mut w, &s.name, is_last, |w| {
                    w.append(&s.body);
                    Ok(())
                })?;
            }
            V6SectionId::Geometry => section(&mut w, name, is_last, |w| file.geometry.write_options(w, le, ()))?,
            V6SectionId::Nodes => section(&mut w, name, is_last, |w| file.nodes.write_options(w, le, (0,)))?,
            V6SectionId::Animation => section(&mut w, name, is_last, |w| file.animations.write_options(w, le, ()))?,
            V6SectionId::AnimDims => {
                let s = file.anim_dims.as_ref().ok_or_else(|| bad_order("AnimDims"))?;
                section(&mut w, name, is_last, |w| s.write_options(w, le, ()))?;
            }
            V6SectionId::TransformInfo => {
                let s = file.transform_info.as_ref().ok_or_else(|| bad_order("TransformInfo"))?;
                section(&mut w, name, is_last, |w| s.write_options(w, le, ()))?;
            }
        }
    }
    Ok(w.into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_and_refusals() {
        let mut v12 = b"\x06\x00Header\x8a\x00\x00\x00".to_vec();
        v12.extend_from_slice(&12u32.to_le_bytes());
        assert_eq!(family(&v12), Some(Family::Numbered(12)));
        let mut v6 = b"\x06\x00Header\x3b\x00\x00\x00\x1c\x00".to_vec();
        v6.extend_from_slice(v6::FILE_TOKEN);
        assert_eq!(family(&v6), Some(Family::V6));
        assert_eq!(family(b"\x06\x00Header\x00\x00"), None);
        assert!(refusal(12).is_none() && refusal(9).is_none() && refusal(13).is_none());
        assert!(refusal(106).is_some_and(|r| r.contains("Global Operations")));
        assert!(refusal(14).is_some());
        let err = parse(&[0x06, 0, b'H', b'e', b'a', b'd', b'e', b'r', 0, 0, 0, 0, 108, 0, 0, 0]).unwrap_err();
        assert!(matches!(err.kind, ReadErrorKind::UnsupportedVersion { version: 108, .. }));
        assert_eq!(parse(b"not an abc").unwrap_err().offset, 0);
    }
}
