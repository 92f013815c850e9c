//! The header (spec §2): 0x144 bytes of counts, offsets, flags and boxes, plus one pair when the
//! file has blend overrides.

use binrw::binrw;
use serde::{Deserialize, Serialize};

use super::array::{M2Array, pod_array};
use super::attachment::{Attachment, Event};
use super::bone::Bone;
use super::ctx::Ctx;
use super::effects::{Particle, Ribbon};
use super::layout::Layout;
use super::material::{Color, RenderFlag, Texture, TextureTransform, TextureWeight};
use super::mesh::{Vertex, View};
use super::record::{Visitor, Walk, walk_fields};
use super::scene::{Camera, Light};
use super::sequence::{Bounds, PlayableAnimation, Sequence};

/// Size of the header of versions 256–263 (without the blend-override array of flag 0x8).
pub const HEADER_SIZE: usize = 0x144;
/// Global flag 0x8: a blend-mode override array follows the header (260–263 only, spec §2).
pub const FLAG_BLEND_OVERRIDES: u32 = 0x8;

/// A whole M2 file of versions 256–263 (header at byte 0, everything else behind offsets).
///
/// The derived writer writes the header only; [`crate::write`] lays out and writes the blocks.
#[binrw]
#[brw(little, magic = b"MD20")]
#[bw(import(layout: &Layout))]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct M2File {
    /// 256–259 Classic, 260–263 The Burning Crusade.
    pub version: u32,
    /// Model name with its terminating NUL.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub name: M2Array<u8>,
    /// Global flags: 0x1 tilt X, 0x2 tilt Y, 0x8 (260+) blend overrides follow the header.
    pub flags: u32,
    /// Durations of the global sequences (independent looping clocks), milliseconds.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub global_sequences: M2Array<u32>,
    /// Animation sequences.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub sequences: M2Array<Sequence>,
    /// What each track needs to know while it is read (not stored).
    #[br(temp, calc = Ctx::new(version, global_sequences.len(), sequences.len(), &[]))]
    #[bw(ignore)]
    ctx: Ctx,
    /// AnimationData id → index of the first sequence with that id, or −1.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub sequence_lookup: M2Array<i16>,
    /// Per AnimationData id: what to play instead (fallback id and flags).
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub playable_lookup: M2Array<PlayableAnimation>,
    /// Bones.
    #[br(args(&ctx))]
    #[bw(args(layout))]
    pub bones: M2Array<Bone>,
    /// Key-bone id (0 ArmL … 26 Root) → bone index, or −1.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub key_bone_lookup: M2Array<i16>,
    /// Vertices (bind pose, model space).
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub vertices: M2Array<Vertex>,
    /// Views: bone-palette LODs of the same triangles (spec §10; four in Blizzard's files).
    #[br(args(&ctx))]
    #[bw(args(layout))]
    pub views: M2Array<View>,
    /// Colour animations (RGB and alpha), referenced by texture units.
    #[br(args(&ctx))]
    #[bw(args(layout))]
    pub colors: M2Array<Color>,
    /// Textures.
    #[br(args(&ctx))]
    #[bw(args(layout))]
    pub textures: M2Array<Texture>,
    /// Texture weights (transparency animations).
    #[br(args(&ctx))]
    #[bw(args(layout))]
    pub transparency: M2Array<TextureWeight>,
    /// Texture flipbooks: `(count, offset)`, never populated (record layout unknown). The count
    /// must be 0; the offset of that empty array means nothing and reads as 0, as the layout pass
    /// writes every empty array.
    #[br(parse_with = texture_flipbooks)]
    pub texture_flipbooks: [u32; 2],
    /// Texture (UV) animations.
    #[br(args(&ctx))]
    #[bw(args(layout))]
    pub texture_transforms: M2Array<TextureTransform>,
    /// Replaceable texture type → texture index, or −1.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub replaceable_texture_lookup: M2Array<i16>,
    /// Materials: render flags and blend mode.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub render_flags: M2Array<RenderFlag>,
    /// Bone palettes of the submeshes ("bone combos"): palette slot → bone index.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub bone_lookup: M2Array<u16>,
    /// Texture combos: texture unit → texture index.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub texture_lookup: M2Array<i16>,
    /// Texture-coordinate combos: 0 or 1 = UV set, −1 = environment map.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub texture_unit_lookup: M2Array<i16>,
    /// Transparency combos: texture unit → texture weight.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub transparency_lookup: M2Array<i16>,
    /// Texture-animation combos: texture unit → texture transform, or −1.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub texture_transform_lookup: M2Array<i16>,
    /// Box of the model over all sequences.
    pub bounding_box: Bounds,
    /// Radius of the model's bounding sphere.
    pub bounding_radius: f32,
    /// Box of the collision volume.
    pub collision_box: Bounds,
    /// Radius of the collision sphere.
    pub collision_radius: f32,
    /// Collision triangles, three indices into `collision_vertices` each.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub collision_triangles: M2Array<u16>,
    /// Collision vertices.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub collision_vertices: M2Array<[f32; 3]>,
    /// One normal per collision triangle.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub collision_normals: M2Array<[f32; 3]>,
    /// Attachment points (weapons, helmets, spell effects).
    #[br(args(&ctx))]
    #[bw(args(layout))]
    pub attachments: M2Array<Attachment>,
    /// Attachment id → attachment index, or −1.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub attachment_lookup: M2Array<i16>,
    /// Timed events (sounds, footsteps, spell hand positions).
    #[br(args(&ctx))]
    #[bw(args(layout))]
    pub events: M2Array<Event>,
    /// Lights.
    #[br(args(&ctx))]
    #[bw(args(layout))]
    pub lights: M2Array<Light>,
    /// Cameras (portrait, fly-bys).
    #[br(args(&ctx))]
    #[bw(args(layout))]
    pub cameras: M2Array<Camera>,
    /// Camera id → camera index, or −1.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub camera_lookup: M2Array<i16>,
    /// Ribbon emitters.
    #[br(args(&ctx))]
    #[bw(args(layout))]
    pub ribbon_emitters: M2Array<Ribbon>,
    /// Particle emitters.
    #[br(args(&ctx))]
    #[bw(args(layout))]
    pub particle_emitters: M2Array<Particle>,
    /// 260–263 with global flag 0x8 only: blend-mode overrides (spec §2, from peers only). Read
    /// and written exactly when [`M2File::has_blend_overrides`] says so (absent: an empty array).
    #[br(parse_with = blend_overrides, args(version, flags))]
    #[bw(if(has_blend_overrides(*version, *flags)), write_with = write_blend_overrides, args(layout))]
    pub blend_overrides: Option<M2Array<u16>>,
    /// Where the file's blocks were when it was read: the writer places them there again while
    /// the file still has that layout (file::kept; not stored in the file, not compared, not
    /// carried as JSON).
    #[br(default)]
    #[bw(ignore)]
    #[serde(skip)]
    pub as_read: crate::file::AsRead,
}

/// `parse_with` reader of the texture flipbooks' pair: a count of 0 (the offset of that empty
/// array means nothing and reads as 0, as the layout pass writes every empty array); any other
/// count is refused, at the pair's offset.
fn texture_flipbooks<R: std::io::Read + std::io::Seek>(
    reader: &mut R,
    endian: binrw::Endian,
    _: (),
) -> binrw::BinResult<[u32; 2]> {
    use binrw::BinRead;
    let pos = reader.stream_position()?;
    let [count, _] = <[u32; 2]>::read_options(reader, endian, ())?;
    if count != 0 {
        let message = format!("{count} texture flipbooks: their record layout is unknown (never seen populated)");
        return Err(relic_core::error::custom(pos, relic_core::ReadErrorKind::Invalid(message)));
    }
    Ok([0, 0])
}

/// True if a file of this version and these global flags has a blend-override array (spec §2).
fn has_blend_overrides(version: u32, flags: u32) -> bool {
    version >= 260 && flags & FLAG_BLEND_OVERRIDES != 0
}

/// Reads the blend-override array where the version and flags say it exists.
fn blend_overrides<R: std::io::Read + std::io::Seek>(
    reader: &mut R,
    endian: binrw::Endian,
    (version, flags): (u32, u32),
) -> binrw::BinResult<Option<M2Array<u16>>> {
    if has_blend_overrides(version, flags) { pod_array(reader, endian, ()).map(Some) } else { Ok(None) }
}

/// Writes the blend-override pair (an empty array where the file has the flag but no array).
fn write_blend_overrides<W: std::io::Write + std::io::Seek>(
    overrides: &Option<M2Array<u16>>,
    writer: &mut W,
    endian: binrw::Endian,
    args: (&Layout,),
) -> binrw::BinResult<()> {
    use binrw::BinWrite;
    match overrides {
        Some(o) => o.write_options(writer, endian, args),
        None => M2Array::<u16>::default().write_options(writer, endian, args),
    }
}

impl M2File {
    /// True if the file has a blend-override array after the header: version 260 or later with
    /// global flag 0x8 (spec §2).
    pub fn has_blend_overrides(&self) -> bool {
        has_blend_overrides(self.version, self.flags)
    }

    /// Bytes of the header (with the blend-override pair when the file has one).
    pub fn header_size(&self) -> u64 {
        HEADER_SIZE as u64 + if self.has_blend_overrides() { 8 } else { 0 }
    }

    /// `(count, offset)` pairs in the header with a block behind them (the texture flipbooks' pair
    /// never has one).
    pub(crate) fn header_pairs(&self) -> usize {
        31 + usize::from(self.has_blend_overrides())
    }

    /// The model name: the text after any leading NULs, up to the next NUL, Windows-1252.
    pub fn name_text(&self) -> String {
        super::array::name(&self.name)
    }

    /// Visits every block the header points to, in header order (the texture flipbooks' pair,
    /// always `(0, 0)`, has no block).
    pub(crate) fn visit<'f, V: Visitor<'f>>(&'f self, v: &mut V) {
        walk_fields!(self, v;
            name, global_sequences, sequences, sequence_lookup, playable_lookup, bones, key_bone_lookup, vertices,
            views, colors, textures, transparency, texture_transforms, replaceable_texture_lookup, render_flags,
            bone_lookup, texture_lookup, texture_unit_lookup, transparency_lookup, texture_transform_lookup,
            collision_triangles, collision_vertices, collision_normals, attachments, attachment_lookup, events,
            lights, cameras, camera_lookup, ribbon_emitters, particle_emitters,
        );
        if self.has_blend_overrides() {
            match &self.blend_overrides {
                Some(overrides) => overrides.walk("blend_overrides", v),
                None => v.empty(1),
            }
        }
    }
}
