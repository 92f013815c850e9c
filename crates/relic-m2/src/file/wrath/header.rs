//! The header of Wrath and later non-chunked files (m2-wrath.md §2.1): 0x130 bytes (+8 with
//! global flag 0x8). Against 256–263 it lost the playable-animation lookup, the embedded views
//! (now a count of `.skin` files) and the texture flipbooks.

use std::sync::Arc;

use binrw::binrw;
use serde::{Deserialize, Serialize};

use super::particle::WrathParticle;
use super::records::*;
use crate::file::array::{M2Array, pod_array, some_pod_array};
use crate::file::ctx::Ctx;
use crate::file::layout::Layout;
use crate::file::material::{RenderFlag, Texture};
use crate::file::mesh::Vertex;
use crate::file::record::{Visitor, Walk, walk_fields};
use crate::file::sequence::Bounds;

/// Size of the header of 264 and 272 (without the combiner array of flag 0x8).
pub const WRATH_HEADER_SIZE: u64 = 0x130;
/// Global flag 0x8: a texture-combiner array follows the header (264 on too, §2.1).
pub const FLAG_COMBINER_COMBOS: u32 = 0x8;

/// A whole `MD20` file of version 264 or 272 (its views are in `.skin` files, [`super::Skin`]).
#[binrw]
#[brw(little, magic = b"MD20")]
#[br(import(anims: &[Option<Arc<crate::anim::AnimFile>>], counts: Option<[usize; 2]>))]
#[bw(import(layout: &Layout))]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct WrathFile {
    /// 264 Wrath, 272 Cataclysm to Warlords (non-chunked).
    pub version: u32,
    /// Model name with its NUL.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub name: M2Array<u8>,
    /// Global flags: 0x1/0x2 tilt, 0x8 combiner combos follow the header; 0x10, 0x80 \[unknown\], kept.
    pub flags: u32,
    /// Durations of the global sequences, milliseconds.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub global_sequences: M2Array<u32>,
    /// Sequences (64 bytes).
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub sequences: M2Array<WrathSequence>,
    /// What each track needs to know while it is read (not stored).
    /// (With a `.skel`, `counts` gives its global-loop and sequence counts, which the tracks
    /// follow instead of the block's own arrays.)
    #[br(temp, calc = Ctx::new(
        version,
        counts.map_or(global_sequences.len(), |c| c[0]),
        counts.map_or(sequences.len(), |c| c[1]),
        anims,
    ))]
    #[bw(ignore)]
    ctx: Ctx,
    /// Sequence lookup: a hash table `id mod N` → sequence index, −1 empty (§3.5); may be empty.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub sequence_lookup: M2Array<i16>,
    /// Bones (88 bytes).
    #[br(args(&ctx))]
    #[bw(args(layout))]
    pub bones: M2Array<WrathBone>,
    /// Key-bone id → bone index, or −1.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub key_bone_lookup: M2Array<i16>,
    /// Vertices (bind pose).
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub vertices: M2Array<Vertex>,
    /// Number of `.skin` files (`NAME00.skin` …).
    pub skin_profiles: u32,
    /// Colour animations (40 bytes).
    #[br(args(&ctx))]
    #[bw(args(layout))]
    pub colors: M2Array<WrathColor>,
    /// Textures.
    #[br(args(&ctx))]
    #[bw(args(layout))]
    pub textures: M2Array<Texture>,
    /// Texture weights (20 bytes).
    #[br(args(&ctx))]
    #[bw(args(layout))]
    pub transparency: M2Array<WrathTextureWeight>,
    /// Texture transforms (60 bytes).
    #[br(args(&ctx))]
    #[bw(args(layout))]
    pub texture_transforms: M2Array<WrathTextureTransform>,
    /// Replaceable texture type → texture index, or −1.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub replaceable_texture_lookup: M2Array<i16>,
    /// Materials.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub render_flags: M2Array<RenderFlag>,
    /// Bone palettes.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub bone_lookup: M2Array<u16>,
    /// Texture unit → texture.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub texture_lookup: M2Array<i16>,
    /// Texture-coordinate combos.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub texture_unit_lookup: M2Array<i16>,
    /// Transparency combos.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub transparency_lookup: M2Array<i16>,
    /// Texture-animation combos.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub texture_transform_lookup: M2Array<i16>,
    /// Box of the model over all sequences.
    pub bounding_box: Bounds,
    /// Radius of the bounding sphere.
    pub bounding_radius: f32,
    /// Box of the collision volume.
    pub collision_box: Bounds,
    /// Radius of the collision sphere.
    pub collision_radius: f32,
    /// Collision triangles.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub collision_triangles: M2Array<u16>,
    /// Collision vertices.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub collision_vertices: M2Array<[f32; 3]>,
    /// Collision normals.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub collision_normals: M2Array<[f32; 3]>,
    /// Attachments (40 bytes).
    #[br(args(&ctx))]
    #[bw(args(layout))]
    pub attachments: M2Array<WrathAttachment>,
    /// Attachment id → index, or −1.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub attachment_lookup: M2Array<i16>,
    /// Events (36 bytes).
    #[br(args(&ctx))]
    #[bw(args(layout))]
    pub events: M2Array<WrathEvent>,
    /// Lights (156 bytes).
    #[br(args(&ctx))]
    #[bw(args(layout))]
    pub lights: M2Array<WrathLight>,
    /// Cameras (100 bytes; 116 from 272).
    #[br(args(&ctx))]
    #[bw(args(layout))]
    pub cameras: M2Array<WrathCamera>,
    /// Camera id → index, or −1.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub camera_lookup: M2Array<i16>,
    /// Ribbon emitters (176 bytes).
    #[br(args(&ctx))]
    #[bw(args(layout))]
    pub ribbon_emitters: M2Array<WrathRibbon>,
    /// Particle emitters (476 bytes; 492 from 272).
    #[br(args(&ctx))]
    #[bw(args(layout))]
    pub particle_emitters: M2Array<WrathParticle>,
    /// With global flag 0x8 only: texture-combiner combos (shader ids per texture stage).
    #[br(if(flags & FLAG_COMBINER_COMBOS != 0), parse_with = some_pod_array)]
    #[bw(if(flags & FLAG_COMBINER_COMBOS != 0), write_with = write_combos, args(layout))]
    pub combiner_combos: Option<M2Array<u16>>,
    /// Where the file's blocks were when it was read: the writer places them there again while
    /// the file still has that layout (file::kept; not stored in the file, not compared, not
    /// carried as JSON).
    #[br(default)]
    #[bw(ignore)]
    #[serde(skip)]
    pub as_read: crate::file::AsRead,
}

fn write_combos<W: std::io::Write + std::io::Seek>(
    combos: &Option<M2Array<u16>>,
    writer: &mut W,
    endian: binrw::Endian,
    args: (&Layout,),
) -> binrw::BinResult<()> {
    use binrw::BinWrite;
    match combos {
        Some(c) => c.write_options(writer, endian, args),
        None => M2Array::<u16>::default().write_options(writer, endian, args),
    }
}

impl WrathFile {
    /// Bytes of the header (with the combiner pair when flag 0x8 is set).
    pub fn header_size(&self) -> u64 {
        WRATH_HEADER_SIZE + if self.flags & FLAG_COMBINER_COMBOS != 0 { 8 } else { 0 }
    }

    /// `(count, offset)` pairs in the header.
    pub(crate) fn header_pairs(&self) -> usize {
        29 + usize::from(self.flags & FLAG_COMBINER_COMBOS != 0)
    }

    /// The model name: the text after any leading NULs, up to the next NUL.
    pub fn name_text(&self) -> String {
        crate::file::array::name(&self.name)
    }

    /// Visits every block the header points to, in header order.
    pub(crate) fn visit<'f, V: Visitor<'f>>(&'f self, v: &mut V) {
        walk_fields!(self, v;
            name, global_sequences, sequences, sequence_lookup, bones, key_bone_lookup, vertices, colors,
            textures, transparency, texture_transforms, replaceable_texture_lookup, render_flags, bone_lookup,
            texture_lookup, texture_unit_lookup, transparency_lookup, texture_transform_lookup,
            collision_triangles, collision_vertices, collision_normals, attachments, attachment_lookup, events,
            lights, cameras, camera_lookup, ribbon_emitters, particle_emitters,
        );
        if self.flags & FLAG_COMBINER_COMBOS != 0 {
            match &self.combiner_combos {
                Some(c) => c.walk("combiner_combos", v),
                None => v.empty(1),
            }
        }
    }

    /// The sequence whose keys sequence `s` uses: `s` itself, or for an alias the first
    /// non-alias along its `alias_next` chain (`None` for a chain that loops or leaves the table).
    pub fn resolve_alias(&self, s: usize) -> Option<usize> {
        resolve_alias(&self.sequences, s)
    }
}

/// See [`WrathFile::resolve_alias`].
pub fn resolve_alias(sequences: &[WrathSequence], s: usize) -> Option<usize> {
    let mut at = s;
    for _ in 0..=sequences.len() {
        let seq = sequences.get(at)?;
        if !seq.is_alias() {
            return Some(at);
        }
        at = usize::from(seq.alias_next);
    }
    None
}

/// True if the keys of sequence `s` live in a `.anim` file (after alias resolution, m2-wrath.md
/// §3.4).
pub(crate) fn keys_external(sequences: &[WrathSequence], s: usize) -> bool {
    let r = resolve_alias(sequences, s).unwrap_or(s);
    sequences.get(r).is_some_and(|q| q.flags & super::records::SEQUENCE_NOT_EXTERNAL == 0)
}
