//! The header of every non-chunked M2 and of the `MD20` block of a chunked one (spec §2,
//! m2-wrath.md §2.1): counts, offsets, flags and boxes, plus one pair when global flag 0x8 is
//! set. One type for both families ([`TrackKind`]): 0x144 bytes up to 263, 0x130 from Wrath on,
//! which lost the playable-animation lookup, the embedded views (now a count of `.skin` files)
//! and the texture flipbooks ([`Slot`](super::slot::Slot)s, absent in the family without them).

use std::sync::Arc;

use binrw::binrw;
use serde::{Deserialize, Serialize};

use super::array::{M2Array, pod_array};
use super::attachment::{Attachment, Event};
use super::bone::Bone;
use super::ctx::Ctx;
use super::effects::{Particle, Ribbon};
use super::kind::{PerSequence, Ranged, TrackKind};
use super::layout::Layout;
use super::material::{Color, RenderFlag, Texture, TextureTransform, TextureWeight};
use super::mesh::Vertex;
use super::record::{Visitor, Walk, walk_fields};
use super::scene::{Camera, Light};
use super::sequence::Bounds;
use super::slot::{Slot, read_slot, write_slot};

/// Size of the header of versions 256–263 (without the blend-override array of flag 0x8).
pub const HEADER_SIZE: usize = Ranged::HEADER_SIZE as usize;
/// Size of the header from Wrath on (without the combiner array of flag 0x8).
pub const WRATH_HEADER_SIZE: u64 = PerSequence::HEADER_SIZE;
/// Global flag 0x8: a blend-mode override array follows the header (260 on, spec §2).
pub const FLAG_BLEND_OVERRIDES: u32 = 0x8;
/// Global flag 0x8 under its Wrath name: the texture-combiner combos follow the header (§2.1).
pub const FLAG_COMBINER_COMBOS: u32 = FLAG_BLEND_OVERRIDES;

/// A whole M2 file (header at byte 0, everything else behind offsets): `M2File` (=
/// `M2File<Ranged>`) for 256–263, [`WrathFile`](super::wrath::WrathFile) (=
/// `M2File<PerSequence>`) from Wrath on, whose views are in `.skin` files
/// ([`Skin`](super::wrath::Skin)).
///
/// Read with the `.anim` bytes of each external sequence (none before Wrath). The derived
/// writer writes the header only; [`crate::write`] lays out and writes the blocks.
#[binrw]
#[brw(little, magic = b"MD20")]
#[br(import(anims: &[Option<Arc<crate::anim::AnimFile>>], counts: Option<[usize; 2]>))]
#[bw(import(layout: &Layout))]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct M2File<K: TrackKind = Ranged> {
    /// 256–259 Classic, 260–263 The Burning Crusade, 264 Wrath, 272 Cataclysm to Warlords (and
    /// inside a chunked file), 274 inside a chunked file (273 is not read: `md21`).
    pub version: u32,
    /// Model name with its terminating NUL.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub name: M2Array<u8>,
    /// Global flags: 0x1 tilt X, 0x2 tilt Y, 0x8 (260+) blend overrides follow the header; from
    /// Wrath on 0x10, 0x80 \[unknown\], kept.
    pub flags: u32,
    /// Durations of the global sequences (independent looping clocks), milliseconds.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub global_sequences: M2Array<u32>,
    /// Animation sequences (68 bytes; 64 from Wrath on).
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub sequences: M2Array<K::Sequence>,
    /// What each track needs to know while it is read (not stored). With a `.skel`, `counts`
    /// gives its global-loop and sequence counts, which the tracks follow instead of the block's
    /// own arrays.
    #[br(temp, calc = Ctx::new(
        version,
        counts.map_or(global_sequences.len(), |c| c[0]),
        counts.map_or(sequences.len(), |c| c[1]),
        anims,
    ))]
    #[bw(ignore)]
    ctx: Ctx,
    /// AnimationData id → index of the first sequence with that id, or −1; from Wrath on a hash
    /// table `id mod N` → sequence index, −1 empty (m2-wrath.md §3.5), which may be empty.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub sequence_lookup: M2Array<i16>,
    /// Up to 263: per AnimationData id, what to play instead (fallback id and flags).
    #[br(parse_with = read_slot, args(&ctx))]
    #[bw(write_with = write_slot, args(layout))]
    #[serde(default, skip_serializing_if = "Slot::is_absent")]
    pub playable_lookup: K::PlayableLookup,
    /// Bones (108 / 112 bytes; 88 from Wrath on).
    #[br(args(&ctx))]
    #[bw(args(layout))]
    pub bones: M2Array<Bone<K>>,
    /// Key-bone id (0 ArmL … 26 Root) → bone index, or −1.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub key_bone_lookup: M2Array<i16>,
    /// Vertices (bind pose, model space).
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub vertices: M2Array<Vertex>,
    /// Up to 263: views, bone-palette LODs of the same triangles (spec §10; four in Blizzard's
    /// files).
    #[br(parse_with = read_slot, args(&ctx))]
    #[bw(write_with = write_slot, args(layout))]
    #[serde(default, skip_serializing_if = "Slot::is_absent")]
    pub views: K::Views,
    /// From Wrath on: the number of `.skin` files (`NAME00.skin` …) holding the views.
    #[br(parse_with = read_slot, args(&ctx))]
    #[bw(write_with = write_slot, args(layout))]
    #[serde(default, skip_serializing_if = "Slot::is_absent")]
    pub skin_profiles: K::SkinProfiles,
    /// Colour animations (RGB and alpha), referenced by texture units.
    #[br(args(&ctx))]
    #[bw(args(layout))]
    pub colors: M2Array<Color<K>>,
    /// Textures.
    #[br(args(&ctx))]
    #[bw(args(layout))]
    pub textures: M2Array<Texture>,
    /// Texture weights (transparency animations).
    #[br(args(&ctx))]
    #[bw(args(layout))]
    pub transparency: M2Array<TextureWeight<K>>,
    /// Up to 263: texture flipbooks, `(count, offset)`, never populated (record layout unknown).
    /// The count must be 0; the offset of that empty array means nothing and reads as 0, as the
    /// layout pass writes every empty array.
    #[br(parse_with = read_slot, args(&ctx))]
    #[bw(write_with = write_slot, args(layout))]
    #[serde(default, skip_serializing_if = "Slot::is_absent")]
    pub texture_flipbooks: K::TextureFlipbooks,
    /// Texture (UV) animations.
    #[br(args(&ctx))]
    #[bw(args(layout))]
    pub texture_transforms: M2Array<TextureTransform<K>>,
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
    pub attachments: M2Array<Attachment<K>>,
    /// Attachment id → attachment index, or −1.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub attachment_lookup: M2Array<i16>,
    /// Timed events (sounds, footsteps, spell hand positions).
    #[br(args(&ctx))]
    #[bw(args(layout))]
    pub events: M2Array<Event<K>>,
    /// Lights.
    #[br(args(&ctx))]
    #[bw(args(layout))]
    pub lights: M2Array<Light<K>>,
    /// Cameras (portrait, fly-bys).
    #[br(args(&ctx))]
    #[bw(args(layout))]
    pub cameras: M2Array<Camera<K>>,
    /// Camera id → camera index, or −1.
    #[br(parse_with = pod_array)]
    #[bw(args(layout))]
    pub camera_lookup: M2Array<i16>,
    /// Ribbon emitters.
    #[br(args(&ctx))]
    #[bw(args(layout))]
    pub ribbon_emitters: M2Array<Ribbon<K>>,
    /// Particle emitters.
    #[br(args(&ctx))]
    #[bw(args(layout))]
    pub particle_emitters: M2Array<Particle<K>>,
    /// 260 on with global flag 0x8 only: blend-mode overrides (spec §2, from peers only), from
    /// Wrath on called texture-combiner combos (shader ids per texture stage, m2-wrath.md §2.1).
    /// Read and written exactly when [`M2File::has_blend_overrides`] says so (absent: an empty
    /// array).
    #[br(parse_with = blend_overrides, args(version, flags))]
    #[bw(if(has_blend_overrides(*version, *flags)), write_with = write_blend_overrides, args(layout))]
    #[serde(alias = "combiner_combos")]
    pub blend_overrides: Option<M2Array<u16>>,
    /// Where the file's blocks were when it was read: the writer places them there again while
    /// the file still has that layout (file::kept; not stored in the file, not compared, not
    /// carried as JSON).
    #[br(default)]
    #[bw(ignore)]
    #[serde(skip)]
    pub as_read: crate::file::AsRead,
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

impl<K: TrackKind> M2File<K> {
    /// True if the file has a blend-override array after the header: version 260 or later with
    /// global flag 0x8 (spec §2).
    pub fn has_blend_overrides(&self) -> bool {
        has_blend_overrides(self.version, self.flags)
    }

    /// Bytes of the header (with the blend-override pair when the file has one).
    pub fn header_size(&self) -> u64 {
        K::HEADER_SIZE + if self.has_blend_overrides() { 8 } else { 0 }
    }

    /// `(count, offset)` pairs in the header with a block behind them: 29 in both families, the
    /// playable lookup's and the views' where the family has them, the flag 0x8 array's (the
    /// texture flipbooks' pair never has a block).
    pub(crate) fn header_pairs(&self) -> usize {
        let slots = [self.playable_lookup.is_absent(), self.views.is_absent()];
        29 + slots.iter().filter(|absent| !**absent).count() + usize::from(self.has_blend_overrides())
    }

    /// The model name: the text after any leading NULs, up to the next NUL, Windows-1252.
    pub fn name_text(&self) -> String {
        super::array::name(&self.name)
    }

    /// Visits every block the header points to, in header order (the texture flipbooks' pair,
    /// always `(0, 0)`, has no block; an absent slot none).
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

impl M2File<PerSequence> {
    /// The sequence whose keys sequence `s` uses: `s` itself, or for an alias the first
    /// non-alias along its `alias_next` chain (`None` for a chain that loops or leaves the table).
    pub fn resolve_alias(&self, s: usize) -> Option<usize> {
        super::wrath::records::resolve_alias(&self.sequences, s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::file::wrath::WrathFile;

    #[test]
    fn a_header_carries_only_its_familys_fields_in_json() {
        let classic = serde_json::to_value(M2File::<Ranged>::default()).unwrap();
        for key in ["playable_lookup", "views", "texture_flipbooks"] {
            assert!(classic.get(key).is_some(), "{key}");
        }
        assert!(classic.get("skin_profiles").is_none());
        let wrath = WrathFile { skin_profiles: 2, blend_overrides: Some(vec![1, 2].into()), ..WrathFile::default() };
        let json = serde_json::to_value(&wrath).unwrap();
        for key in ["playable_lookup", "views", "texture_flipbooks"] {
            assert!(json.get(key).is_none(), "{key}");
        }
        assert_eq!(json.get("skin_profiles"), Some(&serde_json::json!(2)));
        assert_eq!(serde_json::from_value::<WrathFile>(json.clone()).unwrap(), wrath);
        // JSON written while Wrath had a header of its own names the flag 0x8 array so.
        let mut older = json;
        let overrides = older.as_object_mut().unwrap().remove("blend_overrides").unwrap();
        older.as_object_mut().unwrap().insert("combiner_combos".into(), overrides);
        assert_eq!(serde_json::from_value::<WrathFile>(older).unwrap(), wrath);
    }
}
