//! The node (generic object, spec §4.4) and the records that are a node and little more: bones,
//! helpers, lights, attachments, event objects and collision shapes (§4.10–§4.12, §4.19, §4.20).

use std::io::{Read, Seek};

use binrw::{BinRead, BinResult, BinWrite, Endian, binrw};
use relic_core::ReadErrorKind;
use relic_core::error::custom;

use super::io::{Ctx, count32, peek_tag, pod_within, sized, write_pods, write_sized};
use super::track::{Track, tracks_until};
use super::{Name, Path};

/// Node flag: the node is a bone (`0x100`); the other type bits are in [`node_flags`].
pub mod node_flags {
    /// Does not inherit its parent's translation.
    pub const DONT_INHERIT_TRANSLATION: u32 = 0x1;
    /// MDL `DontInherit { Rotation }` (the engine may read it as scaling: spec §4.4).
    pub const DONT_INHERIT_0X2: u32 = 0x2;
    /// MDL `DontInherit { Scaling }` (the engine may read it as rotation: spec §4.4).
    pub const DONT_INHERIT_0X4: u32 = 0x4;
    /// Faces the camera.
    pub const BILLBOARDED: u32 = 0x8;
    /// Type bit: bone.
    pub const BONE: u32 = 0x100;
    /// Type bit: light.
    pub const LIGHT: u32 = 0x200;
    /// Type bit: event object.
    pub const EVENT: u32 = 0x400;
    /// Type bit: attachment.
    pub const ATTACHMENT: u32 = 0x800;
    /// Type bit: particle emitter (PREM, PRE2, and CORN as one exporter writes it).
    pub const PARTICLE_EMITTER: u32 = 0x1000;
    /// Type bit: collision shape.
    pub const COLLISION_SHAPE: u32 = 0x2000;
    /// Type bit: ribbon emitter.
    pub const RIBBON_EMITTER: u32 = 0x4000;
}

/// The generic object every node record starts with. Its own inclusive size (written by the
/// records that hold it) covers this header and its KGTR/KGRT/KGSC tracks only.
#[binrw]
#[brw(little)]
#[br(import_raw(ctx: Ctx))]
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// Name (raw bytes: real files hold GBK as well as ASCII).
    pub name: Name,
    /// Index into `PIVT`; unique across every node of the model.
    pub object_id: i32,
    /// The parent's `object_id`; −1 for none.
    pub parent_id: i32,
    /// Inheritance, billboarding and the node-type bits ([`node_flags`]); foreign bits kept.
    pub flags: u32,
    /// KGTR (translation), KGRT (rotation x, y, z, w), KGSC (scaling), in file order.
    #[br(parse_with = tracks_until, args(ctx.end))]
    pub tracks: Vec<Track>,
}

/// BONE: a node and the geoset it is drawn with.
#[binrw]
#[brw(little)]
#[br(import_raw(ctx: Ctx))]
#[derive(Debug, Clone, PartialEq)]
pub struct Bone {
    /// The node (with its own inclusive size).
    #[br(parse_with = sized, args_raw(ctx))]
    #[bw(write_with = write_sized)]
    pub node: Node,
    /// Geoset id, −1 for "Multiple".
    pub geoset_id: i32,
    /// Geoset animation id, −1 for "None".
    pub geoset_animation_id: i32,
}

/// HELP: a node only, with its inclusive size.
#[binrw]
#[brw(little)]
#[br(import_raw(ctx: Ctx))]
#[derive(Debug, Clone, PartialEq)]
pub struct Helper {
    /// The node.
    #[br(parse_with = sized, args_raw(ctx))]
    #[bw(write_with = write_sized)]
    pub node: Node,
}

/// LITE: a light (inclusive-sized record).
#[binrw]
#[brw(little)]
#[br(import_raw(ctx: Ctx))]
#[derive(Debug, Clone, PartialEq)]
pub struct Light {
    /// The node.
    #[br(parse_with = sized, args_raw(ctx))]
    #[bw(write_with = write_sized)]
    pub node: Node,
    /// 0 Omnidirectional, 1 Directional, 2 Ambient.
    pub light_type: u32,
    /// Attenuation start, world units.
    pub attenuation_start: f32,
    /// Attenuation end, world units.
    pub attenuation_end: f32,
    /// Colour (component order: spec §8.6).
    pub color: [f32; 3],
    /// Intensity.
    pub intensity: f32,
    /// Ambient colour.
    pub ambient_color: [f32; 3],
    /// Ambient intensity.
    pub ambient_intensity: f32,
    /// Shadow intensity: version 1200 on.
    #[br(if(ctx.version >= 1200))]
    pub shadow_intensity: Option<f32>,
    /// KLAS KLAE KLAC KLAI KLBI KLBC KLAV.
    #[br(parse_with = tracks_until, args(ctx.end))]
    pub tracks: Vec<Track>,
}

/// ATCH: an attachment point (inclusive-sized record).
#[binrw]
#[brw(little)]
#[br(import_raw(ctx: Ctx))]
#[derive(Debug, Clone, PartialEq)]
pub struct Attachment {
    /// The node; its name carries the role ("Origin Ref", "Chest Ref", …).
    #[br(parse_with = sized, args_raw(ctx))]
    #[bw(write_with = write_sized)]
    pub node: Node,
    /// A model to attach, normally empty.
    pub path: Path,
    /// Attachment id.
    pub attachment_id: u32,
    /// KATV (visibility).
    #[br(parse_with = tracks_until, args(ctx.end))]
    pub tracks: Vec<Track>,
}

/// EVTS: an event object (no outer size): a node, then its KEVT frames.
#[binrw]
#[brw(little)]
#[br(import_raw(ctx: Ctx))]
#[derive(Debug, Clone, PartialEq)]
pub struct EventObject {
    /// The node; its name encodes the event type and id (`SNDXDHOR`).
    #[br(parse_with = sized, args_raw(ctx))]
    #[bw(write_with = write_sized)]
    pub node: Node,
    /// The KEVT block, read when the next tag is `KEVT` (every real event object has one).
    #[br(parse_with = event_track, args(ctx.end))]
    pub track: Option<EventTrack>,
}

/// KEVT: the frames an event fires at.
#[binrw]
#[brw(little, magic = b"KEVT")]
#[br(import_raw(end: u64))]
#[derive(Debug, Clone, PartialEq)]
pub struct EventTrack {
    #[br(temp)]
    #[bw(try_calc = count32(frames, "frames"))]
    count: u32,
    /// Index into `GLBS`, −1 for none.
    pub global_sequence_id: i32,
    /// Frames in milliseconds, in file order.
    #[br(parse_with = pod_within, args(end, count))]
    #[bw(write_with = write_pods)]
    pub frames: Vec<u32>,
}

fn event_track<R: Read + Seek>(reader: &mut R, endian: Endian, args: (u64,)) -> BinResult<Option<EventTrack>> {
    let (end,) = args;
    if peek_tag(reader, end)? == Some(*b"KEVT") {
        return Ok(Some(EventTrack::read_options(reader, endian, end)?));
    }
    Ok(None)
}

/// CLID: a collision shape (no outer size): a node, the shape type and its corners.
#[binrw]
#[brw(little)]
#[br(import_raw(ctx: Ctx))]
#[derive(Debug, Clone, PartialEq)]
pub struct CollisionShape {
    /// The node.
    #[br(parse_with = sized, args_raw(ctx))]
    #[bw(write_with = write_sized)]
    pub node: Node,
    /// The shape, after its `u32` type (0 box, 1 plane, 2 sphere, 3 cylinder).
    #[br(parse_with = shape)]
    pub shape: Shape,
}

/// A collision shape's type and geometry.
#[derive(BinWrite, Debug, Clone, Copy, PartialEq)]
#[bw(little)]
pub enum Shape {
    /// Type 0: an axis-aligned box, minimum then maximum corner.
    #[bw(magic = 0u32)]
    Box([[f32; 3]; 2]),
    /// Type 1: a plane given by two corners.
    #[bw(magic = 1u32)]
    Plane([[f32; 3]; 2]),
    /// Type 2: a sphere, centre then radius.
    #[bw(magic = 2u32)]
    Sphere([f32; 3], f32),
    /// Type 3: a cylinder, two end centres then radius.
    #[bw(magic = 3u32)]
    Cylinder([[f32; 3]; 2], f32),
}

fn shape<R: Read + Seek>(reader: &mut R, endian: Endian, _: ()) -> BinResult<Shape> {
    let pos = reader.stream_position()?;
    let kind = u32::read_options(reader, endian, ())?;
    Ok(match kind {
        0 => Shape::Box(BinRead::read_options(reader, endian, ())?),
        1 => Shape::Plane(BinRead::read_options(reader, endian, ())?),
        2 => Shape::Sphere(BinRead::read_options(reader, endian, ())?, f32::read_options(reader, endian, ())?),
        3 => Shape::Cylinder(BinRead::read_options(reader, endian, ())?, f32::read_options(reader, endian, ())?),
        other => {
            return Err(custom(
                pos,
                ReadErrorKind::Invalid(format!(
                    "collision shape type {other}: 0 box, 1 plane, 2 sphere and 3 cylinder are known"
                )),
            ));
        }
    })
}
