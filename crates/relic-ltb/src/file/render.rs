//! Render objects (ltb.md §6): `u32 type`, `u32 ObjSize`, then exactly ObjSize bytes.
//!
//! Hand-written rather than derived: every object is parsed inside its ObjSize window (a stride
//! mistake must not run into the next object) and, where the two readings of the stream flags
//! differ (`streams.rs`), with the reading that makes it end exactly at the window's end; binrw's
//! derive can express neither.

use binrw::{BinRead, BinResult};
use bytemuck::{Pod, Zeroable};
use relic_core::ReadErrorKind;
use relic_core::binary::{PutLe, Source, check_count, in_field, pod_vec};
use relic_core::error::custom;

use super::streams::{Layout, SkinLayout, StrideRule, VertexStream, flag};

/// Render-object type numbers (the engine's enum; ltb.md §6.1).
pub mod kind {
    /// Rigid mesh.
    pub const RIGID: u32 = 4;
    /// Skeletal mesh.
    pub const SKELETAL: u32 = 5;
    /// Vertex-animated mesh.
    pub const VERTEX_ANIMATED: u32 = 6;
    /// Null mesh (draws nothing).
    pub const NULL: u32 = 7;
}

/// One LOD's drawable.
#[derive(Debug, Clone, PartialEq)]
pub enum RenderObject {
    /// Type 4: every vertex follows one node.
    Rigid(RigidMesh),
    /// Type 5: skinned, render direct (bone sets) or matrix palette.
    Skeletal(SkeletalMesh),
    /// Type 6: per-key vertex positions.
    VertexAnimated(VertexAnimatedMesh),
    /// Type 7 with ObjSize 0: a LOD that draws nothing.
    Null,
    /// Any other type (or type 7 with data): its bytes, skipped by its size as the engine's
    /// generic drawable skips them.
    Opaque {
        /// The type number.
        kind: u32,
        /// The ObjSize bytes.
        body: Vec<u8>,
    },
}

impl RenderObject {
    /// The type number written.
    pub fn kind(&self) -> u32 {
        match self {
            RenderObject::Rigid(_) => kind::RIGID,
            RenderObject::Skeletal(_) => kind::SKELETAL,
            RenderObject::VertexAnimated(_) => kind::VERTEX_ANIMATED,
            RenderObject::Null => kind::NULL,
            RenderObject::Opaque { kind, .. } => *kind,
        }
    }

    /// Triangles drawn (0 for null and opaque objects).
    pub fn triangle_count(&self) -> usize {
        self.indices().len() / 3
    }

    /// The index list.
    pub fn indices(&self) -> &[u16] {
        match self {
            RenderObject::Rigid(m) => &m.indices,
            RenderObject::Skeletal(m) => &m.indices,
            RenderObject::VertexAnimated(m) => &m.indices,
            RenderObject::Null | RenderObject::Opaque { .. } => &[],
        }
    }

    /// The vertex count as stored (0 for null and opaque objects).
    pub fn vertex_count(&self) -> u32 {
        match self {
            RenderObject::Rigid(m) => m.vertex_count,
            RenderObject::Skeletal(m) => m.vertex_count,
            RenderObject::VertexAnimated(m) => m.vertex_count,
            RenderObject::Null | RenderObject::Opaque { .. } => 0,
        }
    }

    /// The streams, stream flags and reading of a mesh.
    pub fn streams(&self) -> Option<(&[VertexStream], [u32; 4], StrideRule)> {
        match self {
            RenderObject::Rigid(m) => Some((&m.streams, m.stream_flags, m.rule)),
            RenderObject::Skeletal(m) => Some((&m.streams, m.stream_flags, m.rule)),
            RenderObject::VertexAnimated(m) => Some((&m.streams, m.stream_flags, m.rule)),
            RenderObject::Null | RenderObject::Opaque { .. } => None,
        }
    }

    /// The stream holding the field `bit` under the mesh's reading, if any.
    pub fn stream_with(&self, bit: u32) -> Option<&VertexStream> {
        let (streams, flags, rule) = self.streams()?;
        let mut present = flags.iter().filter(|&&f| f != 0);
        let at = present.position(|&f| {
            let l = Layout::new(f, SkinLayout::default(), rule);
            match bit {
                flag::POSITION => l.position,
                flag::NORMAL => l.normal,
                flag::COLOR => l.color,
                flag::BASIS => l.basis,
                _ => l.uv_sets > 0,
            }
        })?;
        streams.get(at)
    }
}

/// Type 4 (ltb.md §6.4).
#[derive(Debug, Clone, PartialEq)]
pub struct RigidMesh {
    /// Vertices (of every stream).
    pub vertex_count: u32,
    /// 1 (the packer refuses anything else); kept as stored.
    pub max_bones_per_tri: u32,
    /// 1; kept as stored.
    pub max_bones_per_vert: u32,
    /// The four stream flags.
    pub stream_flags: [u32; 4],
    /// Which reading of the flags the streams follow.
    pub rule: StrideRule,
    /// The node every vertex follows.
    pub bone: u32,
    /// One stream per non-zero flag; model-space bind-pose vertices.
    pub streams: Vec<VertexStream>,
    /// Triangle list, 3 per triangle, D3D winding.
    pub indices: Vec<u16>,
}

/// Type 5 (ltb.md §6.5, §6.6).
#[derive(Debug, Clone, PartialEq)]
pub struct SkeletalMesh {
    /// Vertices (of every stream).
    pub vertex_count: u32,
    /// Most nodes one triangle uses (1–4): blend weights per vertex + 1 in render-direct meshes.
    pub max_bones_per_tri: u32,
    /// Most weights one vertex has (1–4): blend weights per vertex + 1 in matrix-palette meshes.
    pub max_bones_per_vert: u32,
    /// Matrix palettes: a re-index list follows (a C++ bool, kept as its byte).
    pub reindexed_bones: u8,
    /// The four stream flags.
    pub stream_flags: [u32; 4],
    /// Which reading of the flags the streams follow.
    pub rule: StrideRule,
    /// Non-zero: matrix palette (§6.6); 0: render direct with bone sets (§6.5). Kept as its byte.
    pub matrix_palette: u8,
    /// Matrix palettes: the palette's bone range and re-index list.
    pub palette: Option<Palette>,
    /// One stream per non-zero flag; model-space bind-pose vertices with their skinning data.
    pub streams: Vec<VertexStream>,
    /// Triangle list.
    pub indices: Vec<u16>,
    /// Render direct: the bone sets, tiling the vertices and the indices in order.
    pub bone_sets: Vec<BoneSet>,
}

impl SkeletalMesh {
    /// What rides on a position: `max_bones_per_tri − 1` blend weights (render direct), or
    /// `max_bones_per_vert − 1` weights and four indices (matrix palette).
    pub fn skin_layout(&self) -> SkinLayout {
        if self.matrix_palette != 0 {
            SkinLayout { blend_weights: self.max_bones_per_vert.saturating_sub(1) as usize, bone_indices: true }
        } else {
            SkinLayout { blend_weights: self.max_bones_per_tri.saturating_sub(1) as usize, bone_indices: false }
        }
    }
}

/// The palette of a matrix-palette skeletal mesh.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Palette {
    /// Smallest bone index used.
    pub min_bone: u32,
    /// Largest bone index used.
    pub max_bone: u32,
    /// With `reindexed_bones`: palette slot → node index.
    pub reindex: Option<Vec<u32>>,
}

/// One bone set of a render-direct mesh (12 bytes).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Pod, Zeroable)]
pub struct BoneSet {
    /// First vertex of the set.
    pub first_vertex: u16,
    /// Vertices in the set.
    pub vertex_count: u16,
    /// Node indices in ascending order, unused slots 0xFF.
    pub bones: [u8; 4],
    /// Index-list position after this set's triangles (a running end).
    pub index_end: u32,
}

impl BoneSet {
    /// The set's nodes (its bones other than 0xFF).
    pub fn nodes(&self) -> impl Iterator<Item = u8> + '_ {
        self.bones.iter().copied().filter(|&b| b != 0xFF)
    }
}

/// Type 6 (ltb.md §6.9).
#[derive(Debug, Clone, PartialEq)]
pub struct VertexAnimatedMesh {
    /// Vertices including duplicates.
    pub vertex_count: u32,
    /// Vertices that carry animation data: the first this many.
    pub undup_vertex_count: u32,
    /// 0 (the packer requires no bones); kept as stored.
    pub max_bones_per_tri: u32,
    /// 0; kept as stored.
    pub max_bones_per_vert: u32,
    /// The four stream flags.
    pub stream_flags: [u32; 4],
    /// Which reading of the flags the streams follow.
    pub rule: StrideRule,
    /// The node whose vertex-animation track drives the mesh.
    pub anim_node: u32,
    /// The node whose animated transform places the mesh (0 per the packer).
    pub bone_effector: u32,
    /// One stream per non-zero flag: the reference vertices.
    pub streams: Vec<VertexStream>,
    /// Triangle list.
    pub indices: Vec<u16>,
    /// `(source, destination)`: vertex `destination` (≥ `undup_vertex_count`) takes the
    /// animated position of `source`.
    pub dups: Vec<[u16; 2]>,
}

// ---------------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------------

fn invalid(pos: u64, message: String) -> binrw::Error {
    custom(pos, ReadErrorKind::Invalid(message))
}

fn read<T: for<'a> BinRead<Args<'a> = ()>>(s: &mut Source<'_>, field: &str) -> BinResult<T> {
    T::read_le(s).map_err(|e| in_field(e, field))
}

/// Reads a render object (type, ObjSize, body) at the source's position.
pub(crate) fn read_render_object(src: &mut Source<'_>) -> BinResult<RenderObject> {
    let kind: u32 = read(src, "kind")?;
    let size: u32 = read(src, "obj_size")?;
    let start = src.position();
    check_count(src, u64::from(size), 1).map_err(|e| in_field(e, "obj_size"))?;
    let end = start + u64::from(size);
    // `check_count` found `size` bytes left after `start`: the window and its body are in range.
    let window = src.bytes().get(..end as usize).unwrap_or_default();
    let object = match kind {
        kind::RIGID | kind::SKELETAL | kind::VERTEX_ANIMATED => {
            let parse = |rule| {
                let mut w = Source::new(window);
                std::io::Seek::seek(&mut w, std::io::SeekFrom::Start(start))?;
                let body = read_body(kind, &mut w, rule).map_err(|e| in_window(e, &w, size, end))?;
                match w.position() {
                    p if p == end => Ok(body),
                    p => Err(invalid(
                        start - 4,
                        format!("the object's data ends after {} bytes, ObjSize says {size}", p - start),
                    )),
                }
            };
            match parse(StrideRule::Packer) {
                Ok(body) => body,
                Err(first) => parse(StrideRule::Engine).map_err(|_| first)?,
            }
        }
        kind::NULL if size == 0 => RenderObject::Null,
        _ => RenderObject::Opaque { kind, body: window.get(start as usize..).unwrap_or_default().to_vec() },
    };
    std::io::Seek::seek(src, std::io::SeekFrom::Start(end))?;
    Ok(object)
}

/// A read that ran out of the window names the window.
fn in_window(e: binrw::Error, w: &Source<'_>, size: u32, end: u64) -> binrw::Error {
    match (&e, w.eof_at()) {
        (binrw::Error::Io(io), Some(at)) if io.kind() == std::io::ErrorKind::UnexpectedEof => invalid(
            at,
            format!("a field runs past the object's ObjSize window ({size} bytes, ending at byte {end:#x})"),
        ),
        _ => e,
    }
}

fn read_body(kind: u32, s: &mut Source<'_>, rule: StrideRule) -> BinResult<RenderObject> {
    Ok(match kind {
        kind::RIGID => RenderObject::Rigid(read_rigid(s, rule)?),
        kind::SKELETAL => RenderObject::Skeletal(read_skeletal(s, rule)?),
        _ => RenderObject::VertexAnimated(read_vertex_animated(s, rule)?),
    })
}

fn read_flags(s: &mut Source<'_>) -> BinResult<[u32; 4]> {
    let at = s.position();
    let flags: [u32; 4] = read(s, "stream_flags")?;
    if let Some((i, f)) = flags.iter().enumerate().find(|(_, f)| **f & !flag::KNOWN != 0) {
        return Err(in_field(
            invalid(
                at + 4 * i as u64,
                format!("stream flags {f:#x} have bits {:#x} no packer writes", f & !flag::KNOWN),
            ),
            &format!("stream_flags[{i}]"),
        ));
    }
    Ok(flags)
}

fn read_streams(
    s: &mut Source<'_>,
    flags: [u32; 4],
    count: u32,
    skin: SkinLayout,
    rule: StrideRule,
) -> BinResult<Vec<VertexStream>> {
    let mut out = Vec::new();
    for (i, &f) in flags.iter().enumerate().filter(|(_, f)| **f != 0) {
        let layout = Layout::new(f, skin, rule);
        let stride = layout.stride() as u64;
        check_count(s, u64::from(count), stride).map_err(|e| in_field(e, &format!("streams[{i}]")))?;
        let raw: Vec<u8> = pod_vec(s, binrw::Endian::Little, (u64::from(count) * stride,))?;
        out.push(VertexStream::decode(&raw, count as usize, &layout));
    }
    Ok(out)
}

/// `3 × tri_count` indices, each below `vertex_count`.
fn read_indices(s: &mut Source<'_>, tri_count: u32, vertex_count: u32) -> BinResult<Vec<u16>> {
    let at = s.position();
    let indices: Vec<u16> =
        pod_vec(s, binrw::Endian::Little, (u64::from(tri_count) * 3,)).map_err(|e| in_field(e, "indices"))?;
    if let Some(i) = indices.iter().position(|&x| u32::from(x) >= vertex_count) {
        let greatest = indices.iter().copied().fold(0, u16::max);
        return Err(in_field(
            invalid(at + 2 * i as u64, format!("index {greatest} ≥ vertex count {vertex_count}")),
            &format!("indices[{i}]"),
        ));
    }
    Ok(indices)
}

fn read_rigid(s: &mut Source<'_>, rule: StrideRule) -> BinResult<RigidMesh> {
    let [vertex_count, tri_count, max_bones_per_tri, max_bones_per_vert]: [u32; 4] = read(s, "counts")?;
    let stream_flags = read_flags(s)?;
    let bone = read(s, "bone")?;
    let streams = read_streams(s, stream_flags, vertex_count, SkinLayout::default(), rule)?;
    let indices = read_indices(s, tri_count, vertex_count)?;
    Ok(RigidMesh { vertex_count, max_bones_per_tri, max_bones_per_vert, stream_flags, rule, bone, streams, indices })
}

fn read_skeletal(s: &mut Source<'_>, rule: StrideRule) -> BinResult<SkeletalMesh> {
    let at = s.position();
    let [vertex_count, tri_count, max_bones_per_tri, max_bones_per_vert]: [u32; 4] = read(s, "counts")?;
    let reindexed_bones: u8 = read(s, "reindexed_bones")?;
    let stream_flags = read_flags(s)?;
    let matrix_palette: u8 = read(s, "matrix_palette")?;
    let mut palette = None;
    if matrix_palette != 0 {
        let [min_bone, max_bone]: [u32; 2] = read(s, "bone_range")?;
        let reindex = match reindexed_bones {
            0 => None,
            _ => {
                let n: u32 = read(s, "reindex_count")?;
                Some(pod_vec(s, binrw::Endian::Little, (u64::from(n),)).map_err(|e| in_field(e, "reindex"))?)
            }
        };
        if !(2..=4).contains(&max_bones_per_vert) {
            let m = format!("a matrix-palette mesh has 2–4 weights per vertex, not {max_bones_per_vert}");
            return Err(in_field(invalid(at + 12, m), "max_bones_per_vert"));
        }
        palette = Some(Palette { min_bone, max_bone, reindex });
    } else if !(1..=4).contains(&max_bones_per_tri) {
        let m = format!("a render-direct mesh has 1–4 bones per triangle, not {max_bones_per_tri}");
        return Err(in_field(invalid(at + 8, m), "max_bones_per_tri"));
    }
    let mut mesh = SkeletalMesh {
        vertex_count,
        max_bones_per_tri,
        max_bones_per_vert,
        reindexed_bones,
        stream_flags,
        rule,
        matrix_palette,
        palette,
        streams: Vec::new(),
        indices: Vec::new(),
        bone_sets: Vec::new(),
    };
    mesh.streams = read_streams(s, stream_flags, vertex_count, mesh.skin_layout(), rule)?;
    mesh.indices = read_indices(s, tri_count, vertex_count)?;
    if matrix_palette == 0 {
        let n: u32 = read(s, "bone_set_count")?;
        let sets_at = s.position();
        mesh.bone_sets = pod_vec(s, binrw::Endian::Little, (u64::from(n),)).map_err(|e| in_field(e, "bone_sets"))?;
        if let Some((i, why)) = super::validate_bone_sets(&mesh) {
            return Err(in_field(invalid(sets_at + 12 * i as u64, why), &format!("bone_sets[{i}]")));
        }
    }
    Ok(mesh)
}

fn read_vertex_animated(s: &mut Source<'_>, rule: StrideRule) -> BinResult<VertexAnimatedMesh> {
    let [vertex_count, undup_vertex_count, tri_count, max_bones_per_tri, max_bones_per_vert]: [u32; 5] =
        read(s, "counts")?;
    let stream_flags = read_flags(s)?;
    let [anim_node, bone_effector]: [u32; 2] = read(s, "nodes")?;
    let streams = read_streams(s, stream_flags, vertex_count, SkinLayout::default(), rule)?;
    let indices = read_indices(s, tri_count, vertex_count)?;
    let n: u32 = read(s, "dup_count")?;
    let at = s.position();
    let dups: Vec<[u16; 2]> = pod_vec(s, binrw::Endian::Little, (u64::from(n),)).map_err(|e| in_field(e, "dups"))?;
    if let Some((i, d)) = dups.iter().enumerate().find(|(_, d)| d.iter().any(|&v| u32::from(v) >= vertex_count)) {
        return Err(in_field(
            invalid(at + 4 * i as u64, format!("duplicate {d:?} names a vertex ≥ vertex count {vertex_count}")),
            &format!("dups[{i}]"),
        ));
    }
    Ok(VertexAnimatedMesh {
        vertex_count,
        undup_vertex_count,
        max_bones_per_tri,
        max_bones_per_vert,
        stream_flags,
        rule,
        anim_node,
        bone_effector,
        streams,
        indices,
        dups,
    })
}

// ---------------------------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------------------------

/// Why a render object would not read back as itself, if it would not.
pub(crate) fn write_problem(object: &RenderObject) -> Option<String> {
    let (count, skin) = match object {
        RenderObject::Rigid(m) => (m.vertex_count, SkinLayout::default()),
        RenderObject::Skeletal(m) => {
            if m.matrix_palette != 0 && (m.palette.is_none() || !(2..=4).contains(&m.max_bones_per_vert)) {
                return Some("a matrix-palette mesh needs its palette and 2–4 weights per vertex".into());
            }
            if m.matrix_palette != 0
                && (m.reindexed_bones != 0) != m.palette.as_ref().is_some_and(|p| p.reindex.is_some())
            {
                return Some("reindexed_bones and the re-index list disagree".into());
            }
            if m.matrix_palette == 0 && !(1..=4).contains(&m.max_bones_per_tri) {
                return Some(format!("max_bones_per_tri {} is not 1–4", m.max_bones_per_tri));
            }
            if m.matrix_palette == 0
                && let Some((i, why)) = super::validate_bone_sets(m)
            {
                return Some(format!("bone_sets[{i}]: {why}"));
            }
            (m.vertex_count, m.skin_layout())
        }
        RenderObject::VertexAnimated(m) => {
            if m.dups.iter().flatten().any(|&v| u32::from(v) >= m.vertex_count) {
                return Some("a duplicate names a vertex past the vertex count".into());
            }
            (m.vertex_count, SkinLayout::default())
        }
        RenderObject::Null | RenderObject::Opaque { .. } => return None,
    };
    let (streams, flags, rule) = object.streams()?;
    if flags.iter().any(|f| f & !flag::KNOWN != 0) {
        return Some(format!("stream flags {flags:x?} have bits no packer writes"));
    }
    let present: Vec<u32> = flags.iter().copied().filter(|&f| f != 0).collect();
    if present.len() != streams.len() {
        return Some(format!("{} streams for {} non-zero stream flags", streams.len(), present.len()));
    }
    for (i, (stream, f)) in streams.iter().zip(present).enumerate() {
        if let Some(why) = stream.mismatch(count as usize, &Layout::new(f, skin, rule)) {
            return Some(format!("streams[{i}]: {why}"));
        }
    }
    let indices = object.indices();
    if !indices.len().is_multiple_of(3) {
        return Some(format!("{} indices are not whole triangles", indices.len()));
    }
    if indices.iter().any(|&i| u32::from(i) >= count) {
        return Some(format!("an index is not below the vertex count {count}"));
    }
    None
}

fn put_streams(
    out: &mut Vec<u8>,
    streams: &[VertexStream],
    flags: [u32; 4],
    count: u32,
    skin: SkinLayout,
    rule: StrideRule,
) {
    for (stream, f) in streams.iter().zip(flags.iter().filter(|&&f| f != 0)) {
        stream.encode(count as usize, &Layout::new(*f, skin, rule), out);
    }
}

fn put_u32s(out: &mut Vec<u8>, values: &[u32]) {
    for v in values {
        out.put(v.to_le_bytes());
    }
}

/// Appends a render object (type, ObjSize, body) that [`write_problem`] accepted.
pub(crate) fn write_render_object(object: &RenderObject, out: &mut Vec<u8>) {
    out.put(object.kind().to_le_bytes());
    let size_at = out.len();
    out.put(0u32.to_le_bytes());
    let tris = (object.indices().len() / 3) as u32;
    match object {
        RenderObject::Rigid(m) => {
            put_u32s(out, &[m.vertex_count, tris, m.max_bones_per_tri, m.max_bones_per_vert]);
            put_u32s(out, &m.stream_flags);
            out.put(m.bone.to_le_bytes());
            put_streams(out, &m.streams, m.stream_flags, m.vertex_count, SkinLayout::default(), m.rule);
            out.extend_from_slice(bytemuck::cast_slice(&m.indices));
        }
        RenderObject::Skeletal(m) => {
            put_u32s(out, &[m.vertex_count, tris, m.max_bones_per_tri, m.max_bones_per_vert]);
            out.push(m.reindexed_bones);
            put_u32s(out, &m.stream_flags);
            out.push(m.matrix_palette);
            if let (true, Some(p)) = (m.matrix_palette != 0, &m.palette) {
                put_u32s(out, &[p.min_bone, p.max_bone]);
                if let Some(list) = &p.reindex {
                    out.put((list.len() as u32).to_le_bytes());
                    put_u32s(out, list);
                }
            }
            put_streams(out, &m.streams, m.stream_flags, m.vertex_count, m.skin_layout(), m.rule);
            out.extend_from_slice(bytemuck::cast_slice(&m.indices));
            if m.matrix_palette == 0 {
                out.put((m.bone_sets.len() as u32).to_le_bytes());
                out.extend_from_slice(bytemuck::cast_slice(&m.bone_sets));
            }
        }
        RenderObject::VertexAnimated(m) => {
            let counts = [m.vertex_count, m.undup_vertex_count, tris, m.max_bones_per_tri, m.max_bones_per_vert];
            put_u32s(out, &counts);
            put_u32s(out, &m.stream_flags);
            put_u32s(out, &[m.anim_node, m.bone_effector]);
            put_streams(out, &m.streams, m.stream_flags, m.vertex_count, SkinLayout::default(), m.rule);
            out.extend_from_slice(bytemuck::cast_slice(&m.indices));
            out.put((m.dups.len() as u32).to_le_bytes());
            out.extend_from_slice(bytemuck::cast_slice(&m.dups));
        }
        RenderObject::Null => {}
        RenderObject::Opaque { body, .. } => out.extend_from_slice(body),
    }
    let size = (out.len() - size_at - 4) as u32;
    if let Some(slot) = out.get_mut(size_at..size_at + 4) {
        slot.copy_from_slice(&size.to_le_bytes());
    }
}
