//! `.skin` files (m2-wrath.md §4): the views of Wrath and later, one file per profile
//! (`NAME00.skin` … `NAME03.skin`), offsets relative to the `.skin`'s first byte.

use binrw::binrw;
use bytemuck::{Pod, Zeroable};
use serde::{Deserialize, Serialize};

use crate::file::array::{M2Array, some_pod_array};
use crate::file::ctx::Ctx;
use crate::file::layout::Layout;
use crate::file::mesh::View;
use crate::file::record::{Visitor, walk_fields};

/// A shadow batch of 272 `.skin` files (12 bytes, m2-wrath.md §4.2: the fields sum to 12 and
/// every real 0x40-header skin tiles only with 12 — not 16, as an earlier edition said and relic
/// read until the independently built v272 fixture's two batches showed it; fields from
/// pywowlib, kept raw).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Pod, Zeroable, Serialize, Deserialize)]
#[repr(C)]
pub struct ShadowBatch {
    /// Flags.
    pub flags: u8,
    /// Second flags byte.
    pub flags2: u8,
    /// Unknown.
    pub unknown: u16,
    /// Submesh.
    pub submesh: u16,
    /// Texture.
    pub texture: u16,
    /// Colour.
    pub color: u16,
    /// Transparency.
    pub transparency: u16,
}

const _: () = assert!(size_of::<ShadowBatch>() == 12);

/// A `.skin` file: the 44-byte view record of 256–263 behind a `SKIN` magic (48 bytes), plus the
/// shadow batches at 272 (56 bytes).
#[binrw]
#[brw(little, magic = b"SKIN")]
#[br(import(version: u32))]
#[bw(import(layout: &Layout))]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Skin {
    /// What the submeshes need to know while they are read: a version from Wrath on (not
    /// stored).
    #[br(temp, calc = Ctx::new(version, 0, 0, &[]))]
    #[bw(ignore)]
    ctx: Ctx,
    /// The view record of 256–263 (44 bytes): indices, triangles, bone properties, submeshes
    /// (48 bytes, as 260–263), texture units and the largest palette a submesh may use (64, 53,
    /// 21 in Blizzard's files; 0 in one 272 file, so not a limit).
    #[br(args(&ctx))]
    #[bw(args(layout))]
    #[serde(flatten)]
    pub view: View,
    /// The header is Cataclysm's (56 bytes, padded to 0x40) in a model of an earlier version:
    /// no array starts before 0x40 (not stored).
    #[br(temp, calc = version < 272 && cataclysm_header(&[
        (view.indices.len(), view.indices.offset),
        (view.triangles.len(), view.triangles.offset),
        (view.properties.len(), view.properties.offset),
        (view.submeshes.len(), view.submeshes.offset),
        (view.texture_units.len(), view.texture_units.offset),
    ]))]
    #[bw(ignore)]
    cataclysm: bool,
    /// The shadow-batch pair as stored, read without moving on (not stored apart from it).
    #[br(temp, if(version >= 272 || cataclysm), restore_position)]
    #[bw(ignore)]
    shadow_pair: Option<[u32; 2]>,
    /// 272 on, and in a `.skin` with Cataclysm's header whatever the model's version: shadow
    /// batches. Empty when [`Skin::unread_shadow_batches`] holds the pair.
    #[br(if(version >= 272 || cataclysm), parse_with = shadow_batches, args(version))]
    #[bw(write_with = write_shadow_batches, args(layout, unread_shadow_batches))]
    pub shadow_batches: Option<M2Array<ShadowBatch>>,
    /// In a `.skin` of a model before 272: the shadow-batch pair (count, offset) as stored when
    /// its records lie past the end of the file. The Wrath client never reads shadow batches (ported
    /// models carry such pairs), so relic does not either: the pair is written back as it was
    /// (not a separate field of the file: `None` when the records were read).
    #[br(calc = unread_pair(version, shadow_pair, shadow_batches.as_ref()))]
    #[bw(ignore)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unread_shadow_batches: Option<UnreadPair>,
    /// Where the file's blocks were when it was read: the writer places them there again while
    /// the file still has that layout (file::kept; not stored in the file, not compared, not
    /// carried as JSON).
    #[br(default)]
    #[bw(ignore)]
    #[serde(skip)]
    pub as_read: crate::file::AsRead,
}

/// A `(count, offset)` pair whose records relic does not read (see
/// [`Skin::unread_shadow_batches`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnreadPair {
    /// Records the pair counts.
    pub count: u32,
    /// Where it says they are (past the end of the file).
    pub offset: u32,
}

/// `parse_with` reader of the shadow batches: a model before 272 whose pair points past the end
/// of the file gets an empty array (the pair is kept by [`unread_pair`]); otherwise the records.
fn shadow_batches<R: std::io::Read + std::io::Seek>(
    reader: &mut R,
    endian: binrw::Endian,
    (version,): (u32,),
) -> binrw::BinResult<Option<M2Array<ShadowBatch>>> {
    if version < 272 {
        let pos = reader.stream_position()?;
        let pair = <[u32; 2] as binrw::BinRead>::read_options(reader, endian, ())?;
        let end = reader.seek(std::io::SeekFrom::End(0))?;
        let needs = u64::from(pair[1]) + u64::from(pair[0]) * size_of::<ShadowBatch>() as u64;
        if pair[0] > 0 && needs > end {
            reader.seek(std::io::SeekFrom::Start(pos + 8))?;
            return Ok(Some(M2Array { items: Vec::new(), offset: pair[1] }));
        }
        reader.seek(std::io::SeekFrom::Start(pos))?;
    }
    some_pod_array(reader, endian, ())
}

/// The pair [`shadow_batches`] did not read: counted records, none read.
fn unread_pair(version: u32, pair: Option<[u32; 2]>, read: Option<&M2Array<ShadowBatch>>) -> Option<UnreadPair> {
    match (pair, read) {
        (Some([count, offset]), Some(a)) if version < 272 && count > 0 && a.is_empty() => {
            Some(UnreadPair { count, offset })
        }
        _ => None,
    }
}

/// `write_with` writer of the shadow batches: the unread pair as stored, else the array's pair.
fn write_shadow_batches<W: std::io::Write + std::io::Seek>(
    batches: &Option<M2Array<ShadowBatch>>,
    writer: &mut W,
    endian: binrw::Endian,
    (layout, unread): (&Layout, &Option<UnreadPair>),
) -> binrw::BinResult<()> {
    use binrw::BinWrite;
    match (batches, unread) {
        (Some(_), Some(pair)) => {
            // The layout placed the empty array: its slot is taken, the stored pair written.
            let _ = layout.take_offset();
            [pair.count, pair.offset].write_options(writer, endian, ())
        }
        (Some(batches), None) => batches.write_options(writer, endian, (layout,)),
        (None, _) => Ok(()),
    }
}

/// True if every non-empty array of a `.skin` (`(count, offset)`) starts at 0x40 or later: the
/// header is Cataclysm's, whose shadow-batch pair at 0x30 a 264 model's `.skin` may have too (a
/// 48-byte header's first array starts at 0x30).
fn cataclysm_header(arrays: &[(usize, u32)]) -> bool {
    let mut starts = arrays.iter().filter(|(count, _)| *count > 0).map(|&(_, offset)| offset).peekable();
    starts.peek().is_some() && starts.all(|offset| offset >= 0x40)
}

impl Skin {
    /// Bytes of the header (magic included).
    pub fn header_size(&self) -> u64 {
        if self.shadow_batches.is_some() { 56 } else { 48 }
    }

    /// Visits the blocks in header order.
    pub(crate) fn visit<'f, V: Visitor<'f>>(&'f self, v: &mut V) {
        walk_fields!(self.view, v; indices, triangles, properties, submeshes, texture_units);
        walk_fields!(self, v; shadow_batches);
    }

    /// A skin holding a view (no shadow batches: 264's layout unless `version` ≥ 272).
    pub fn from_view(view: &View, version: u32) -> Self {
        Skin {
            view: view.clone(),
            shadow_batches: (version >= 272).then(M2Array::default),
            unread_shadow_batches: None,
            as_read: Default::default(),
        }
    }
}
