//! Geosets and geoset animations (spec §4.8, §4.9): a geoset is a run of tagged, counted
//! sections (`VRTX n`, `NRMS n`, …), then fixed fields, then the optional HD sections and the UV
//! sets.

use std::io::{Read, Seek};

use binrw::{BinRead, BinResult, BinWrite, Endian, binrw};

use super::io::{Ctx, check_within, count32, peek_tag, pod_within, write_pods};
use super::track::{Track, tracks_until};
use super::{Extent, Name};

/// GEOS: one geoset (inclusive-sized record).
#[binrw]
#[brw(little)]
#[br(import_raw(ctx: Ctx))]
#[derive(Debug, Clone, PartialEq)]
pub struct Geoset {
    #[br(temp)]
    #[bw(try_calc = count32(vertices, "vertices"))]
    #[brw(magic = b"VRTX")]
    vertex_count: u32,
    /// Positions, model space.
    #[br(parse_with = pod_within, args(ctx.end, vertex_count))]
    #[bw(write_with = write_pods)]
    pub vertices: Vec<[f32; 3]>,
    #[br(temp)]
    #[bw(try_calc = count32(normals, "normals"))]
    #[brw(magic = b"NRMS")]
    normal_count: u32,
    /// Normals.
    #[br(parse_with = pod_within, args(ctx.end, normal_count))]
    #[bw(write_with = write_pods)]
    pub normals: Vec<[f32; 3]>,
    #[br(temp)]
    #[bw(try_calc = count32(face_types, "face_types"))]
    #[brw(magic = b"PTYP")]
    face_type_count: u32,
    /// PTYP: the primitive type of each face group (4 triangles; GL-style enum).
    #[br(parse_with = pod_within, args(ctx.end, face_type_count))]
    #[bw(write_with = write_pods)]
    pub face_types: Vec<u32>,
    #[br(temp)]
    #[bw(try_calc = count32(face_counts, "face_counts"))]
    #[brw(magic = b"PCNT")]
    face_count_count: u32,
    /// PCNT: the index count of each face group.
    #[br(parse_with = pod_within, args(ctx.end, face_count_count))]
    #[bw(write_with = write_pods)]
    pub face_counts: Vec<u32>,
    #[br(temp)]
    #[bw(try_calc = count32(indices, "indices"))]
    #[brw(magic = b"PVTX")]
    index_count: u32,
    /// PVTX: vertex indices of every face group, concatenated.
    #[br(parse_with = pod_within, args(ctx.end, index_count))]
    #[bw(write_with = write_pods)]
    pub indices: Vec<u16>,
    #[br(temp)]
    #[bw(try_calc = count32(vertex_groups, "vertex_groups"))]
    #[brw(magic = b"GNDX")]
    vertex_group_count: u32,
    /// GNDX: each vertex's matrix group (empty in HD geosets that use `SKIN`).
    #[br(parse_with = pod_within, args(ctx.end, vertex_group_count))]
    #[bw(write_with = write_pods)]
    pub vertex_groups: Vec<u8>,
    #[br(temp)]
    #[bw(try_calc = count32(matrix_group_sizes, "matrix_group_sizes"))]
    #[brw(magic = b"MTGC")]
    matrix_group_count: u32,
    /// MTGC: the size of each matrix group.
    #[br(parse_with = pod_within, args(ctx.end, matrix_group_count))]
    #[bw(write_with = write_pods)]
    pub matrix_group_sizes: Vec<u32>,
    #[br(temp)]
    #[bw(try_calc = count32(matrix_indices, "matrix_indices"))]
    #[brw(magic = b"MATS")]
    matrix_index_count: u32,
    /// MATS: the matrix groups' node object ids, concatenated.
    #[br(parse_with = pod_within, args(ctx.end, matrix_index_count))]
    #[bw(write_with = write_pods)]
    pub matrix_indices: Vec<u32>,
    /// Index into `MTLS`.
    pub material_id: u32,
    /// Selection group.
    pub selection_group: u32,
    /// 4 Unselectable; kept raw.
    pub selection_flags: u32,
    /// Level of detail and its name: version 900 on.
    #[br(if(ctx.version > 800))]
    pub lod: Option<GeosetLod>,
    /// Bounds of the rest pose.
    pub extent: Extent,
    #[br(temp)]
    #[bw(try_calc = count32(sequence_extents, "sequence_extents"))]
    sequence_extent_count: u32,
    /// Bounds per sequence (normally one per `SEQS` entry).
    #[br(parse_with = extents, args(ctx.end, sequence_extent_count))]
    #[bw(write_with = write_pods_extents)]
    pub sequence_extents: Vec<Extent>,
    /// TANG and SKIN sections (900 on, optional), in file order.
    #[br(parse_with = hd_sections, args(ctx.end))]
    pub hd: Vec<HdSection>,
    #[br(temp)]
    #[bw(try_calc = count32(uv_sets, "uv_sets"))]
    #[brw(magic = b"UVAS")]
    uv_set_count: u32,
    /// UV sets, one `UVBS` each.
    #[br(parse_with = uv_sets, args(ctx.end, uv_set_count))]
    pub uv_sets: Vec<UvSet>,
}

/// A geoset's level of detail (900 on).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq)]
pub struct GeosetLod {
    /// LOD (0 = highest).
    pub lod: u32,
    /// LOD name.
    pub name: Name,
}

/// An optional HD section of a geoset (read by the geoset, which peeks at the tag).
#[derive(BinWrite, Debug, Clone, PartialEq)]
#[bw(little)]
pub enum HdSection {
    /// TANG: tangents.
    Tangents(Tangents),
    /// SKIN: four node indices and four weights per vertex.
    Skin(Skin),
}

/// TANG: tangents x, y, z and handedness w (±1), one per vertex.
#[binrw]
#[brw(little, magic = b"TANG")]
#[br(import_raw(end: u64))]
#[derive(Debug, Clone, PartialEq)]
pub struct Tangents {
    #[br(temp)]
    #[bw(try_calc = count32(tangents, "tangents"))]
    count: u32,
    /// The tangents.
    #[br(parse_with = pod_within, args(end, count))]
    #[bw(write_with = write_pods)]
    pub tangents: Vec<[f32; 4]>,
}

/// SKIN: per vertex four node indices then four weights (summing to 255), one byte each; the
/// count is of bytes (8 per vertex).
#[binrw]
#[brw(little, magic = b"SKIN")]
#[br(import_raw(end: u64))]
#[derive(Debug, Clone, PartialEq)]
pub struct Skin {
    #[br(temp)]
    #[bw(try_calc = count32(bytes, "skin"))]
    count: u32,
    /// The bytes: indices 0–3 then weights 0–3 for each vertex.
    #[br(parse_with = pod_within, args(end, count))]
    #[bw(write_with = write_pods)]
    pub bytes: Vec<u8>,
}

fn hd_sections<R: Read + Seek>(reader: &mut R, endian: Endian, args: (u64,)) -> BinResult<Vec<HdSection>> {
    let (end,) = args;
    let mut out = Vec::new();
    loop {
        let index = out.len();
        let section = match peek_tag(reader, end)?.as_ref() {
            Some(b"TANG") => Tangents::read_options(reader, endian, end).map(HdSection::Tangents),
            Some(b"SKIN") => Skin::read_options(reader, endian, end).map(HdSection::Skin),
            _ => break,
        };
        out.push(section.map_err(|e| relic_core::binary::in_element(e, index))?);
    }
    Ok(out)
}

/// One UV set.
#[binrw]
#[brw(little, magic = b"UVBS")]
#[br(import_raw(end: u64))]
#[derive(Debug, Clone, PartialEq)]
pub struct UvSet {
    #[br(temp)]
    #[bw(try_calc = count32(uvs, "uvs"))]
    count: u32,
    /// One (u, v) per vertex; v points down.
    #[br(parse_with = pod_within, args(end, count))]
    #[bw(write_with = write_pods)]
    pub uvs: Vec<[f32; 2]>,
}

fn uv_sets<R: Read + Seek>(reader: &mut R, endian: Endian, args: (u64, u32)) -> BinResult<Vec<UvSet>> {
    let (end, count) = args;
    check_within(reader, end, u64::from(count), 8)?;
    let mut out = Vec::with_capacity(count as usize);
    for index in 0..count as usize {
        out.push(UvSet::read_options(reader, endian, end).map_err(|e| relic_core::binary::in_element(e, index))?);
    }
    Ok(out)
}

fn extents<R: Read + Seek>(reader: &mut R, endian: Endian, args: (u64, u32)) -> BinResult<Vec<Extent>> {
    let (end, count) = args;
    check_within(reader, end, u64::from(count), super::EXTENT_SIZE)?;
    let mut out = Vec::with_capacity(count as usize);
    for index in 0..count as usize {
        out.push(Extent::read_options(reader, endian, ()).map_err(|e| relic_core::binary::in_element(e, index))?);
    }
    Ok(out)
}

#[allow(clippy::ptr_arg)] // binrw hands `write_with` functions a reference to the field's own type.
fn write_pods_extents<W: std::io::Write + Seek>(
    items: &Vec<Extent>,
    writer: &mut W,
    endian: Endian,
    _: (),
) -> BinResult<()> {
    for item in items {
        item.write_options(writer, endian, ())?;
    }
    Ok(())
}

/// GEOA: one geoset animation (inclusive-sized record).
#[binrw]
#[brw(little)]
#[br(import_raw(ctx: Ctx))]
#[derive(Debug, Clone, PartialEq)]
pub struct GeosetAnim {
    /// Alpha when no KGAO key applies.
    pub alpha: f32,
    /// 0x1 DropShadow, 0x2 UseColor; kept raw.
    pub flags: u32,
    /// Colour when no KGAC key applies (stored in the opposite order from KGAC keys: §8.6).
    pub color: [f32; 3],
    /// Index into `GEOS`.
    pub geoset_id: i32,
    /// KGAO (alpha), KGAC (colour).
    #[br(parse_with = tracks_until, args(ctx.end))]
    pub tracks: Vec<Track>,
}
