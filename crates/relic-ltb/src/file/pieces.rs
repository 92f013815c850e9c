//! Pieces and their LODs (ltb.md §5). Read and written by hand like the render objects they hold
//! (`render.rs`), whose positions the reader records for the cross-reference checks.

use binrw::{BinRead, BinResult};
use relic_core::binary::{LenString, PutLe, Source, check_count, in_element, in_field, pod_vec};

use super::render::{RenderObject, read_render_object, write_render_object};

/// One piece: a mesh at one or more levels of detail.
#[derive(Debug, Clone, PartialEq)]
pub struct Piece {
    /// Piece name (`BODY`, `Fview-hand2`).
    pub name: LenString,
    /// Distance at which each LOD starts (entry 0 unused, 0.0); one per LOD.
    pub lod_distances: Vec<f32>,
    /// "No longer used" per the engine (0).
    pub min_lod_offset: u32,
    /// "No longer used" per the engine (0).
    pub max_lod_offset: u32,
    /// The LODs, full detail first.
    pub lods: Vec<Lod>,
}

/// One LOD of a piece.
#[derive(Debug, Clone, PartialEq)]
pub struct Lod {
    /// Texture slots actually used (1–4).
    pub texture_count: u32,
    /// Slot indices into the game's skin list; all four kept (the unused ones are leftovers).
    pub textures: [i32; 4],
    /// Render-style index.
    pub render_style: i32,
    /// Draw order.
    pub render_priority: u8,
    /// The drawable.
    pub object: RenderObject,
    /// The terminal nodes of the nodes that influence the LOD's source vertices (truncated to
    /// 8 bits by the packer): the engine evaluates the transforms on the way to them.
    pub used_nodes: Vec<u8>,
}

impl Lod {
    /// The slots the LOD uses: the first `texture_count` (at most 4).
    pub fn used_textures(&self) -> &[i32] {
        // `textures` holds four slots and the count is capped at 4: never the default.
        self.textures.get(..(self.texture_count as usize).min(4)).unwrap_or_default()
    }
}

/// The smallest piece on disk: empty name, no LOD, the two offsets.
pub(crate) const MIN_PIECE: u64 = 2 + 4 + 8;

/// Reads a piece at the source's position, with where each LOD's render object starts and ends.
pub(crate) fn read_piece(s: &mut Source<'_>) -> BinResult<(Piece, Vec<(u64, u64)>)> {
    let name = LenString::read_le(s).map_err(|e| in_field(e, "name"))?;
    let lod_count = u32::read_le(s).map_err(|e| in_field(e, "lod_count"))?;
    // Distances (4 bytes) and LODs (at least 4 + 16 + 4 + 1 + 8 + 1 bytes) per LOD.
    check_count(s, u64::from(lod_count), 4 + 34).map_err(|e| in_field(e, "lod_count"))?;
    let lod_distances =
        pod_vec(s, binrw::Endian::Little, (u64::from(lod_count),)).map_err(|e| in_field(e, "lod_distances"))?;
    let [min_lod_offset, max_lod_offset] = <[u32; 2]>::read_le(s).map_err(|e| in_field(e, "lod_offsets"))?;
    let mut lods = Vec::with_capacity(lod_count as usize);
    let mut spans = Vec::with_capacity(lod_count as usize);
    for i in 0..lod_count as usize {
        let (lod, span) = read_lod(s).map_err(|e| in_field(in_element(e, i), "lods"))?;
        lods.push(lod);
        spans.push(span);
    }
    Ok((Piece { name, lod_distances, min_lod_offset, max_lod_offset, lods }, spans))
}

fn read_lod(s: &mut Source<'_>) -> BinResult<(Lod, (u64, u64))> {
    let texture_count = u32::read_le(s).map_err(|e| in_field(e, "texture_count"))?;
    let textures = <[i32; 4]>::read_le(s).map_err(|e| in_field(e, "textures"))?;
    let render_style = i32::read_le(s).map_err(|e| in_field(e, "render_style"))?;
    let render_priority = u8::read_le(s).map_err(|e| in_field(e, "render_priority"))?;
    let start = s.position();
    let object = read_render_object(s).map_err(|e| in_field(e, "object"))?;
    let end = s.position();
    let n = u8::read_le(s).map_err(|e| in_field(e, "used_node_count"))?;
    let used_nodes = pod_vec(s, binrw::Endian::Little, (u64::from(n),)).map_err(|e| in_field(e, "used_nodes"))?;
    Ok((Lod { texture_count, textures, render_style, render_priority, object, used_nodes }, (start, end)))
}

/// Why a piece would not read back as itself, if it would not.
pub(crate) fn write_problem(piece: &Piece) -> Option<String> {
    if piece.lod_distances.len() != piece.lods.len() {
        return Some(format!("{} LOD distances for {} LODs", piece.lod_distances.len(), piece.lods.len()));
    }
    if piece.name.0.len() > usize::from(u16::MAX) {
        return Some("name longer than 65535 bytes".into());
    }
    piece.lods.iter().enumerate().find_map(|(i, lod)| {
        if lod.used_nodes.len() > usize::from(u8::MAX) {
            return Some(format!("lods[{i}]: {} used nodes do not fit a u8 count", lod.used_nodes.len()));
        }
        super::render::write_problem(&lod.object).map(|why| format!("lods[{i}].object: {why}"))
    })
}

/// Appends a piece that [`write_problem`] accepted.
pub(crate) fn write_piece(piece: &Piece, out: &mut Vec<u8>) {
    out.put((piece.name.0.len() as u16).to_le_bytes());
    out.extend_from_slice(&piece.name.0);
    out.put((piece.lods.len() as u32).to_le_bytes());
    out.put_f32s(&piece.lod_distances);
    out.put(piece.min_lod_offset.to_le_bytes());
    out.put(piece.max_lod_offset.to_le_bytes());
    for lod in &piece.lods {
        out.put(lod.texture_count.to_le_bytes());
        for t in lod.textures {
            out.put(t.to_le_bytes());
        }
        out.put(lod.render_style.to_le_bytes());
        out.push(lod.render_priority);
        write_render_object(&lod.object, out);
        out.push(lod.used_nodes.len() as u8);
        out.extend_from_slice(&lod.used_nodes);
    }
}
