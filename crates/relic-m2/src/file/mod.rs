//! The file layout of M2 versions 256–263: one struct per record, fields in file order.
//!
//! Record sizes by version (spec §3): bone 108 (≤ 259) / 112 (≥ 260), submesh 32 / 48, every
//! other record the same in both. Rotation keys are 4×f32 up to 259 and 4×i16 from 260 (§8).
//! All offsets are absolute; blocks are 16-byte aligned in Blizzard's files (§1).

use binrw::BinRead;
use bytemuck::{Pod, Zeroable};
use serde::{Deserialize, Serialize};

use crate::array::{M2Array, pod_array, record_array};
use crate::track::{Ctx, EventTrack, RotationTrack, SplineTrack, Track};

/// Size of the header of versions 256–263 (without the blend-override array of flag 0x8).
pub const HEADER_SIZE: usize = 0x144;
/// Global flag 0x8: a blend-mode override array follows the header (260–263 only, spec §2).
pub const FLAG_BLEND_OVERRIDES: u32 = 0x8;

/// Bone record size of a version.
pub fn bone_size(version: u32) -> u64 {
    if version >= 260 { 112 } else { 108 }
}

/// Submesh record size of a version.
pub fn submesh_size(version: u32) -> u64 {
    if version >= 260 { 48 } else { 32 }
}

/// An axis-aligned box (`CAaBox`).
#[derive(Debug, Clone, Copy, PartialEq, Default, Pod, Zeroable, Serialize, Deserialize, BinRead)]
#[repr(C)]
#[br(little)]
pub struct Bounds {
    /// Smallest corner.
    pub min: [f32; 3],
    /// Largest corner.
    pub max: [f32; 3],
}

/// A whole M2 file of versions 256–263 (header at byte 0, everything else behind offsets).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, BinRead)]
#[br(little, magic = b"MD20")]
pub struct M2File {
    /// 256–259 Classic, 260–263 The Burning Crusade.
    pub version: u32,
    /// Model name with its terminating NUL.
    #[br(parse_with = pod_array)]
    pub name: M2Array<u8>,
    /// Global flags: 0x1 tilt X, 0x2 tilt Y, 0x8 (260+) blend overrides follow the header.
    pub flags: u32,
    /// Durations of the global sequences (independent looping clocks), milliseconds.
    #[br(parse_with = pod_array)]
    pub global_sequences: M2Array<u32>,
    /// Animation sequences.
    #[br(parse_with = pod_array)]
    pub sequences: M2Array<Sequence>,
    /// AnimationData id → index of the first sequence with that id, or −1.
    #[br(parse_with = pod_array)]
    pub sequence_lookup: M2Array<i16>,
    /// Per AnimationData id: what to play instead (fallback id and flags).
    #[br(parse_with = pod_array)]
    pub playable_lookup: M2Array<PlayableAnimation>,
    /// Bones.
    #[br(parse_with = record_array, args(bone_size(version), (ctx(version, &global_sequences, &sequences),)))]
    pub bones: M2Array<Bone>,
    /// Key-bone id (0 ArmL … 26 Root) → bone index, or −1.
    #[br(parse_with = pod_array)]
    pub key_bone_lookup: M2Array<i16>,
    /// Vertices (bind pose, model space).
    #[br(parse_with = pod_array)]
    pub vertices: M2Array<Vertex>,
    /// Views: four bone-palette LODs of the same triangles (spec §10).
    #[br(parse_with = record_array, args(44, (version,)))]
    pub views: M2Array<View>,
    /// Colour animations (RGB and alpha), referenced by texture units.
    #[br(parse_with = record_array, args(56, (ctx(version, &global_sequences, &sequences),)))]
    pub colors: M2Array<Color>,
    /// Textures.
    #[br(parse_with = record_array, args(16, ()))]
    pub textures: M2Array<Texture>,
    /// Texture weights (transparency animations).
    #[br(parse_with = record_array, args(28, (ctx(version, &global_sequences, &sequences),)))]
    pub transparency: M2Array<TextureWeight>,
    /// Texture flipbooks: `(count, offset)`, never populated (record layout unknown). The count
    /// must be 0; the offset of that empty array means nothing and reads as 0, as the layout pass
    /// writes every empty array.
    #[br(map = |pair: [u32; 2]| [pair[0], 0])]
    #[br(assert(texture_flipbooks[0] == 0, "{} texture flipbooks: their record layout is unknown (never seen populated)", texture_flipbooks[0]))]
    pub texture_flipbooks: [u32; 2],
    /// Texture (UV) animations.
    #[br(parse_with = record_array, args(84, (ctx(version, &global_sequences, &sequences),)))]
    pub texture_transforms: M2Array<TextureTransform>,
    /// Replaceable texture type → texture index, or −1.
    #[br(parse_with = pod_array)]
    pub replaceable_texture_lookup: M2Array<i16>,
    /// Materials: render flags and blend mode.
    #[br(parse_with = pod_array)]
    pub render_flags: M2Array<RenderFlag>,
    /// Bone palettes of the submeshes ("bone combos"): palette slot → bone index.
    #[br(parse_with = pod_array)]
    pub bone_lookup: M2Array<u16>,
    /// Texture combos: texture unit → texture index.
    #[br(parse_with = pod_array)]
    pub texture_lookup: M2Array<i16>,
    /// Texture-coordinate combos: 0 or 1 = UV set, −1 = environment map.
    #[br(parse_with = pod_array)]
    pub texture_unit_lookup: M2Array<i16>,
    /// Transparency combos: texture unit → texture weight.
    #[br(parse_with = pod_array)]
    pub transparency_lookup: M2Array<i16>,
    /// Texture-animation combos: texture unit → texture transform, or −1.
    #[br(parse_with = pod_array)]
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
    pub collision_triangles: M2Array<u16>,
    /// Collision vertices.
    #[br(parse_with = pod_array)]
    pub collision_vertices: M2Array<[f32; 3]>,
    /// One normal per collision triangle.
    #[br(parse_with = pod_array)]
    pub collision_normals: M2Array<[f32; 3]>,
    /// Attachment points (weapons, helmets, spell effects).
    #[br(parse_with = record_array, args(48, (ctx(version, &global_sequences, &sequences),)))]
    pub attachments: M2Array<Attachment>,
    /// Attachment id → attachment index, or −1.
    #[br(parse_with = pod_array)]
    pub attachment_lookup: M2Array<i16>,
    /// Timed events (sounds, footsteps, spell hand positions).
    #[br(parse_with = record_array, args(44, (ctx(version, &global_sequences, &sequences),)))]
    pub events: M2Array<Event>,
    /// Lights.
    #[br(parse_with = record_array, args(212, (ctx(version, &global_sequences, &sequences),)))]
    pub lights: M2Array<Light>,
    /// Cameras (portrait, fly-bys).
    #[br(parse_with = record_array, args(124, (ctx(version, &global_sequences, &sequences),)))]
    pub cameras: M2Array<Camera>,
    /// Camera id → camera index, or −1.
    #[br(parse_with = pod_array)]
    pub camera_lookup: M2Array<i16>,
    /// Ribbon emitters.
    #[br(parse_with = record_array, args(220, (ctx(version, &global_sequences, &sequences),)))]
    pub ribbon_emitters: M2Array<Ribbon>,
    /// Particle emitters.
    #[br(parse_with = record_array, args(504, (ctx(version, &global_sequences, &sequences),)))]
    pub particle_emitters: M2Array<Particle>,
    /// 260–263 with global flag 0x8 only: blend-mode overrides (spec §2, from peers only).
    #[br(parse_with = blend_overrides, args(version, flags))]
    pub blend_overrides: Option<M2Array<u16>>,
}

/// Reads the blend-override array only where the version and flags say it exists.
fn blend_overrides<R: std::io::Read + std::io::Seek>(
    reader: &mut R,
    endian: binrw::Endian,
    (version, flags): (u32, u32),
) -> binrw::BinResult<Option<M2Array<u16>>> {
    if version >= 260 && flags & FLAG_BLEND_OVERRIDES != 0 { pod_array(reader, endian, ()).map(Some) } else { Ok(None) }
}

fn ctx(version: u32, global_sequences: &[u32], sequences: &[Sequence]) -> Ctx {
    Ctx { version, sequences: sequences.len() as u32, global_sequences: global_sequences.len() as u32 }
}

/// One animation sequence (68 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Default, Pod, Zeroable, Serialize, Deserialize)]
#[repr(C)]
pub struct Sequence {
    /// AnimationData.dbc id (0 Stand, 1 Death, 4 Walk, 5 Run, …).
    pub id: u16,
    /// Variation index (0 in every sequence of the real 1.12 file).
    pub variation: u16,
    /// First millisecond of the sequence on the shared timeline.
    pub start: u32,
    /// Last millisecond (duration = end − start).
    pub end: u32,
    /// Movement speed while playing (yards per second).
    pub move_speed: f32,
    /// Flags; bit 0x1 set on every non-looping sequence of the real file (attacks, wounds, death).
    pub flags: u32,
    /// Relative frequency among the variations of one id (they sum to 0x7FFF).
    pub frequency: i16,
    /// Padding.
    pub padding: u16,
    /// Minimum and maximum number of repetitions.
    pub replay: [u32; 2],
    /// Milliseconds to blend into this sequence.
    pub blend_time: u32,
    /// Box of the posed model over the sequence.
    pub bounds: Bounds,
    /// Radius of the bounding sphere.
    pub bounds_radius: f32,
    /// Index of the next sequence with the same id, or −1.
    pub next_variation: i16,
    /// Alias: index of the sequence whose keys this one uses.
    pub alias_next: u16,
}

/// A playable-animation entry: for an AnimationData id, the id to play and how (4 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Pod, Zeroable, Serialize, Deserialize)]
#[repr(C)]
pub struct PlayableAnimation {
    /// AnimationData id to play.
    pub fallback_id: i16,
    /// 0 play, 1 backwards, 3 freeze (old notes, unverified).
    pub flags: i16,
}

/// A bone (108 bytes up to 259, 112 from 260).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, BinRead)]
#[br(little, import(ctx: Ctx))]
pub struct Bone {
    /// Key-bone id (index into the key-bone lookup), or −1.
    pub key_bone_id: i32,
    /// 0x1/0x2/0x4 ignore parent translation/scale/rotation; 0x8 spherical billboard;
    /// 0x10/0x20/0x40 cylindrical billboard about X/Y/Z; 0x200 animated.
    pub flags: u32,
    /// Parent bone, or −1 for a root.
    pub parent: i16,
    /// Submesh id (unused).
    pub submesh_id: u16,
    /// 260+: an unknown u32 (bone-name CRC or distance fields).
    #[br(if(ctx.tbc()))]
    pub unknown: Option<u32>,
    /// Animated translation, added to the pivot-relative offset.
    #[br(args(ctx))]
    pub translation: Track<[f32; 3]>,
    /// Animated rotation about the pivot.
    #[br(args(ctx))]
    pub rotation: RotationTrack,
    /// Animated scale about the pivot.
    #[br(args(ctx))]
    pub scale: Track<[f32; 3]>,
    /// Pivot: the bone's bind-pose position in model space.
    pub pivot: [f32; 3],
}

/// Bone flag 0x1: ignore the parent's translation.
pub const BONE_IGNORE_PARENT_TRANSLATION: u32 = 0x1;
/// Bone flag 0x2: ignore the parent's scale.
pub const BONE_IGNORE_PARENT_SCALE: u32 = 0x2;
/// Bone flag 0x4: ignore the parent's rotation.
pub const BONE_IGNORE_PARENT_ROTATION: u32 = 0x4;
/// Bone flag 0x8: spherical billboard.
pub const BONE_BILLBOARD: u32 = 0x8;
/// Bone flags 0x10/0x20/0x40: cylindrical billboard about X/Y/Z.
pub const BONE_BILLBOARD_X: u32 = 0x10;
/// See [`BONE_BILLBOARD_X`].
pub const BONE_BILLBOARD_Y: u32 = 0x20;
/// See [`BONE_BILLBOARD_X`].
pub const BONE_BILLBOARD_Z: u32 = 0x40;
/// Bone flag 0x200: the bone is animated ("transformed").
pub const BONE_ANIMATED: u32 = 0x200;

/// A vertex (48 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Default, Pod, Zeroable, Serialize, Deserialize)]
#[repr(C)]
pub struct Vertex {
    /// Bind-pose position, model space (yards, Z up).
    pub position: [f32; 3],
    /// Bone weights, summing to 255.
    pub bone_weights: [u8; 4],
    /// Bone indices (into the bone table, not a palette); 0 in unused slots.
    pub bone_indices: [u8; 4],
    /// Unit normal.
    pub normal: [f32; 3],
    /// UV set 0 (top-left origin).
    pub tex_coords: [f32; 2],
    /// UV set 1 (all zero in the real file).
    pub tex_coords2: [f32; 2],
}

/// A view: an embedded skin profile (44 bytes; spec §10).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, BinRead)]
#[br(little, import(version: u32))]
pub struct View {
    /// View-local vertex → global vertex index.
    #[br(parse_with = pod_array)]
    pub indices: M2Array<u16>,
    /// Triangles, three indices into `indices` each.
    #[br(parse_with = pod_array)]
    pub triangles: M2Array<u16>,
    /// Per view-local vertex: the palette slot of each of the vertex's four bones.
    #[br(parse_with = pod_array)]
    pub properties: M2Array<[u8; 4]>,
    /// Submeshes.
    #[br(parse_with = record_array, args(submesh_size(version), (version,)))]
    pub submeshes: M2Array<Submesh>,
    /// Texture units (draw batches).
    #[br(parse_with = pod_array)]
    pub texture_units: M2Array<TextureUnit>,
    /// Largest palette a submesh of this view may use (256, 75, 53, 21 in Blizzard's files).
    pub bone_count_max: u32,
}

/// A submesh (32 bytes up to 259, 48 from 260).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, BinRead)]
#[br(little, import(version: u32))]
pub struct Submesh {
    /// Mesh-part (geoset) id: 0 body, 1xx hair, 5xx boots, …
    pub id: u16,
    /// High word of vertex/index starts beyond 65535.
    pub level: u16,
    /// First view-local vertex.
    pub vertex_start: u16,
    /// Number of view-local vertices.
    pub vertex_count: u16,
    /// First entry of the triangle list.
    pub index_start: u16,
    /// Number of triangle-list entries (3 per triangle).
    pub index_count: u16,
    /// Palette size (entries of the bone lookup used).
    pub bone_count: u16,
    /// First palette entry in the bone lookup.
    pub bone_combo_index: u16,
    /// Largest number of weighted bones on one vertex.
    pub bone_influences: u16,
    /// The bone with the most weight on the submesh.
    pub center_bone_index: u16,
    /// Mean of the submesh's vertex positions.
    pub center_position: [f32; 3],
    /// 260+: sort centre (box centre).
    #[br(if(version >= 260))]
    pub sort_center: Option<[f32; 3]>,
    /// 260+: sort radius.
    #[br(if(version >= 260))]
    pub sort_radius: Option<f32>,
}

/// A texture unit: one draw of a submesh with one material layer (24 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Pod, Zeroable, Serialize, Deserialize)]
#[repr(C)]
pub struct TextureUnit {
    /// Flags (0x10 static).
    pub flags: u8,
    /// Priority plane.
    pub priority_plane: i8,
    /// Shader id (0 in Classic).
    pub shader_id: u16,
    /// Submesh drawn.
    pub submesh_index: u16,
    /// Submesh of view 0 this unit derives from.
    pub geoset_index: u16,
    /// Colour animation, or −1.
    pub color_index: i16,
    /// Render flag (material) index.
    pub render_flag_index: u16,
    /// Material layer (0 base pass, 1 second pass).
    pub material_layer: u16,
    /// Number of textures (1).
    pub texture_count: u16,
    /// First texture-lookup entry.
    pub texture_combo_index: u16,
    /// First texture-coordinate-lookup entry.
    pub texture_coord_combo_index: u16,
    /// Transparency-lookup entry.
    pub transparency_combo_index: u16,
    /// Texture-transform-lookup entry.
    pub texture_transform_combo_index: u16,
}

/// A colour animation (56 bytes).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, BinRead)]
#[br(little, import(ctx: Ctx))]
pub struct Color {
    /// RGB, 0–1.
    #[br(args(ctx))]
    pub color: Track<[f32; 3]>,
    /// Alpha, 0x7FFF opaque.
    #[br(args(ctx))]
    pub alpha: Track<i16>,
}

/// A texture (16 bytes).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, BinRead)]
#[br(little)]
pub struct Texture {
    /// Replaceable type: 0 the file name is given; 1 body, 2 cape, 6 hair, 8 fur, 11–13 creature skins.
    pub kind: u32,
    /// 0x1 wrap U, 0x2 wrap V.
    pub flags: u32,
    /// File name with its NUL (`"\0"` for replaceable textures).
    #[br(parse_with = pod_array)]
    pub filename: M2Array<u8>,
}

/// A texture weight (transparency animation, 28 bytes).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, BinRead)]
#[br(little, import(ctx: Ctx))]
pub struct TextureWeight {
    /// Weight, value / 32767 is the alpha multiplier.
    #[br(args(ctx))]
    pub weight: Track<i16>,
}

/// A texture transform (UV animation, 84 bytes).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, BinRead)]
#[br(little, import(ctx: Ctx))]
pub struct TextureTransform {
    /// UV translation.
    #[br(args(ctx))]
    pub translation: Track<[f32; 3]>,
    /// UV rotation: read as 4×f32 quaternions (the type is unresolved among peers, spec §8).
    #[br(args(ctx))]
    pub rotation: Track<[f32; 4]>,
    /// UV scale.
    #[br(args(ctx))]
    pub scaling: Track<[f32; 3]>,
}

/// A material: render flags and blend mode (4 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Pod, Zeroable, Serialize, Deserialize)]
#[repr(C)]
pub struct RenderFlag {
    /// 0x1 unlit, 0x2 unfogged, 0x4 two-sided, 0x8 (unclear), 0x10 no depth write.
    pub flags: u16,
    /// 0 opaque, 1 alpha key, 2 alpha, 3 add, 4 add alpha, 5 modulate, 6 modulate 2×.
    pub blend_mode: u16,
}

/// An attachment point (48 bytes).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, BinRead)]
#[br(little, import(ctx: Ctx))]
pub struct Attachment {
    /// Slot id (0 shield … 34; see the attachment lookup).
    pub id: u32,
    /// Bone the point moves with.
    pub bone: u16,
    /// Unknown (0).
    pub unknown: u16,
    /// Position in model space (bind pose).
    pub position: [f32; 3],
    /// Visibility (1 shown).
    #[br(args(ctx))]
    pub visibility: Track<u8>,
}

/// A timed event (44 bytes).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, BinRead)]
#[br(little, import(ctx: Ctx))]
pub struct Event {
    /// Identifier such as `$CSS`, `$FSD`, `$DTH`.
    pub identifier: [u8; 4],
    /// Event data (a sound or effect id).
    pub data: u32,
    /// Bone the event happens at.
    pub bone: u32,
    /// Position in model space.
    pub position: [f32; 3],
    /// Firing times.
    #[br(args(ctx))]
    pub times: EventTrack,
}

/// A light (212 bytes).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, BinRead)]
#[br(little, import(ctx: Ctx))]
pub struct Light {
    /// 0 directional, 1 point.
    pub kind: u16,
    /// Bone, or −1.
    pub bone: i16,
    /// Position.
    pub position: [f32; 3],
    /// Ambient colour.
    #[br(args(ctx))]
    pub ambient_color: Track<[f32; 3]>,
    /// Ambient intensity.
    #[br(args(ctx))]
    pub ambient_intensity: Track<f32>,
    /// Diffuse colour.
    #[br(args(ctx))]
    pub diffuse_color: Track<[f32; 3]>,
    /// Diffuse intensity.
    #[br(args(ctx))]
    pub diffuse_intensity: Track<f32>,
    /// Attenuation start.
    #[br(args(ctx))]
    pub attenuation_start: Track<f32>,
    /// Attenuation end.
    #[br(args(ctx))]
    pub attenuation_end: Track<f32>,
    /// Visibility.
    #[br(args(ctx))]
    pub visibility: Track<u8>,
}

/// A camera (124 bytes).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, BinRead)]
#[br(little, import(ctx: Ctx))]
pub struct Camera {
    /// 0 portrait, −1 fly-by.
    pub kind: i32,
    /// Field of view, radians.
    pub field_of_view: f32,
    /// Far clip distance.
    pub far_clip: f32,
    /// Near clip distance.
    pub near_clip: f32,
    /// Animated position offset.
    #[br(args(ctx))]
    pub positions: SplineTrack<[f32; 3]>,
    /// Base position (final = base + track).
    pub position_base: [f32; 3],
    /// Animated target offset.
    #[br(args(ctx))]
    pub target_positions: SplineTrack<[f32; 3]>,
    /// Base target.
    pub target_position_base: [f32; 3],
    /// Roll, radians.
    #[br(args(ctx))]
    pub roll: SplineTrack<f32>,
}

/// A ribbon emitter (220 bytes; none in the real file, layout from peers).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, BinRead)]
#[br(little, import(ctx: Ctx))]
pub struct Ribbon {
    /// Id (−1).
    pub id: i32,
    /// Bone.
    pub bone: u32,
    /// Position.
    pub position: [f32; 3],
    /// Texture indices.
    #[br(parse_with = pod_array)]
    pub textures: M2Array<u16>,
    /// Render-flag indices.
    #[br(parse_with = pod_array)]
    pub materials: M2Array<u16>,
    /// Colour.
    #[br(args(ctx))]
    pub color: Track<[f32; 3]>,
    /// Alpha (0x7FFF opaque).
    #[br(args(ctx))]
    pub alpha: Track<i16>,
    /// Height above the bone.
    #[br(args(ctx))]
    pub height_above: Track<f32>,
    /// Height below the bone.
    #[br(args(ctx))]
    pub height_below: Track<f32>,
    /// Edges emitted per second.
    pub edges_per_second: f32,
    /// Seconds an edge lives.
    pub edge_lifetime: f32,
    /// Gravity.
    pub gravity: f32,
    /// Texture rows.
    pub texture_rows: u16,
    /// Texture columns.
    pub texture_cols: u16,
    /// Texture slot.
    #[br(args(ctx))]
    pub texture_slot: Track<u16>,
    /// Visibility.
    #[br(args(ctx))]
    pub visibility: Track<u8>,
}

/// Bytes 0x28–0x2B of a particle emitter: their split differs between peers (spec §14).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ParticleBlend {
    /// Classic: u16 blend mode, u16 emitter type.
    Wide {
        /// Blend mode.
        blend_mode: u16,
        /// 1 plane, 2 sphere, 3 spline.
        emitter_type: u16,
    },
    /// 260+ (when it reads sensibly): u8 blend mode, u8 emitter type, u16 colour index.
    Split {
        /// Blend mode.
        blend_mode: u8,
        /// 1 plane, 2 sphere, 3 spline.
        emitter_type: u8,
        /// Particle colour index.
        color_index: u16,
    },
}

impl Default for ParticleBlend {
    fn default() -> Self {
        ParticleBlend::Wide { blend_mode: 0, emitter_type: 1 }
    }
}

impl BinRead for ParticleBlend {
    type Args<'a> = (u32,);
    fn read_options<R: std::io::Read + std::io::Seek>(
        reader: &mut R,
        endian: binrw::Endian,
        (version,): (u32,),
    ) -> binrw::BinResult<Self> {
        let raw = <[u8; 4]>::read_options(reader, endian, ())?;
        let wide = ParticleBlend::Wide {
            blend_mode: u16::from_le_bytes([raw[0], raw[1]]),
            emitter_type: u16::from_le_bytes([raw[2], raw[3]]),
        };
        let split = ParticleBlend::Split {
            blend_mode: raw[0],
            emitter_type: raw[1],
            color_index: u16::from_le_bytes([raw[2], raw[3]]),
        };
        Ok(if version >= 260 && (sensible_blend(u16::from(raw[0]), u16::from(raw[1])) || !sensible_wide(raw)) {
            split
        } else {
            wide
        })
    }
}

/// A blend mode and emitter type the game uses (blend 0–7, emitter 1–3).
fn sensible_blend(blend: u16, emitter: u16) -> bool {
    blend <= 7 && (1..=3).contains(&emitter)
}

/// The four bytes read as the wide layout (two u16) give a sensible blend and emitter.
fn sensible_wide(raw: [u8; 4]) -> bool {
    sensible_blend(u16::from_le_bytes([raw[0], raw[1]]), u16::from_le_bytes([raw[2], raw[3]]))
}

/// A particle emitter (504 bytes).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, BinRead)]
#[br(little, import(ctx: Ctx))]
pub struct Particle {
    /// Id (−1).
    pub id: i32,
    /// Flags.
    pub flags: u32,
    /// Position relative to the bone's pivot frame (model space).
    pub position: [f32; 3],
    /// Bone.
    pub bone: u16,
    /// Texture index.
    pub texture: u16,
    /// Geometry model file name with NUL.
    #[br(parse_with = pod_array)]
    pub geometry_model: M2Array<u8>,
    /// Recursion model file name with NUL.
    #[br(parse_with = pod_array)]
    pub recursion_model: M2Array<u8>,
    /// Blend mode and emitter type (layout differs by version).
    #[br(args(ctx.version))]
    pub blending: ParticleBlend,
    /// 0 normal, 1 large quad, 2.
    pub particle_type: u8,
    /// Head, tail or both.
    pub head_or_tail: u8,
    /// Texture tile rotation (−1, 0, 1).
    pub texture_tile_rotation: i16,
    /// Texture rows.
    pub texture_rows: u16,
    /// Texture columns.
    pub texture_cols: u16,
    /// Emission speed.
    #[br(args(ctx))]
    pub emission_speed: Track<f32>,
    /// Speed variation (0–1).
    #[br(args(ctx))]
    pub speed_variation: Track<f32>,
    /// Vertical range (0–π).
    #[br(args(ctx))]
    pub vertical_range: Track<f32>,
    /// Horizontal range (0–2π).
    #[br(args(ctx))]
    pub horizontal_range: Track<f32>,
    /// Gravity.
    #[br(args(ctx))]
    pub gravity: Track<f32>,
    /// Lifespan, seconds.
    #[br(args(ctx))]
    pub lifespan: Track<f32>,
    /// Particles per second.
    #[br(args(ctx))]
    pub emission_rate: Track<f32>,
    /// Emission area length.
    #[br(args(ctx))]
    pub emission_area_length: Track<f32>,
    /// Emission area width.
    #[br(args(ctx))]
    pub emission_area_width: Track<f32>,
    /// Z source ("gravity 2").
    #[br(args(ctx))]
    pub z_source: Track<f32>,
    /// Mid point of the lifespan (0–1).
    pub mid_point: f32,
    /// Colours at start, mid and end (B, G, R, A).
    pub colors: [[u8; 4]; 3],
    /// Sizes at start, mid and end.
    pub sizes: [f32; 3],
    /// Head and tail UV-cell ranges (lifespan and decay).
    pub uv_cells: [u16; 10],
    /// Tail length.
    pub tail_length: f32,
    /// Twinkle speed.
    pub twinkle_speed: f32,
    /// Twinkle percentage.
    pub twinkle_percent: f32,
    /// Twinkle scale minimum and maximum.
    pub twinkle_scale: [f32; 2],
    /// Burst multiplier.
    pub burst_multiplier: f32,
    /// Drag: speed × exp(−drag · t).
    pub drag: f32,
    /// Spin.
    pub spin: f32,
    /// Tumble minimum and maximum.
    pub tumble: Bounds,
    /// Wind vector.
    pub wind_vector: [f32; 3],
    /// Wind time.
    pub wind_time: f32,
    /// Follow speed 1, follow scale 1, follow speed 2, follow scale 2.
    pub follow: [f32; 4],
    /// Spline points.
    #[br(parse_with = pod_array)]
    pub spline_points: M2Array<[f32; 3]>,
    /// Emitter enabled.
    #[br(args(ctx))]
    pub enabled_in: Track<u8>,
}
