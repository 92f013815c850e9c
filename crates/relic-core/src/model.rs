//! The common skeletal-mesh model ("IR") that every format maps into and out of.
//!
//! Plain data with public fields. One coordinate frame for everything: glTF's (right-handed,
//! +Y up, see [`crate::frame`]); lengths in the game's own units (no rescaling); times in seconds;
//! quaternions `[x, y, z, w]`; matrices column-major. Each format converts into this frame exactly
//! once, in its `to_ir`, and back once, in its `from_ir`.
//!
//! What the model does not describe (M2 particles, ABC child models, …) travels in
//! [`Model::extras`] as the source format's own typed data, so that format → IR → the same format
//! loses nothing (see [`FormatExtras`]).

use std::any::Any;
use std::fmt;
use std::sync::Arc;

use crate::format::FormatId;
use crate::math::{IDENTITY, Mat4};

/// A whole model: skeleton, meshes, materials, animations and attachments.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Model {
    /// Model name (M2 header name, file stem for formats that store none).
    pub name: String,
    /// The format and version this model was read from, if any.
    pub source: Option<SourceInfo>,
    /// Bones; a parent always comes before its children.
    pub bones: Vec<Bone>,
    /// Meshes (one per format piece/submesh/group and LOD level).
    pub meshes: Vec<Mesh>,
    /// Materials, referenced by [`Mesh::material`].
    pub materials: Vec<Material>,
    /// Skeletal animations (clips).
    pub animations: Vec<Animation>,
    /// Durations in seconds of independent looping clocks (M2 global sequences), referenced by
    /// [`Clock::Global`].
    pub global_sequences: Vec<f32>,
    /// Named points attached to bones (ABC sockets, M2 attachments).
    pub attachments: Vec<Attachment>,
    /// Source-format data the model does not describe.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub extras: Option<FormatExtras>,
}

/// Where a model came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SourceInfo {
    /// The format.
    pub format: FormatId,
    /// The format's own version number.
    pub version: u32,
}

/// Translation, rotation and scale, applied as `T · R · S`.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Transform {
    /// Translation.
    pub translation: [f32; 3],
    /// Unit quaternion `[x, y, z, w]`.
    pub rotation: [f32; 4],
    /// Per-axis scale.
    pub scale: [f32; 3],
}

impl Transform {
    /// No translation, no rotation, unit scale.
    pub const IDENTITY: Transform =
        Transform { translation: [0.0; 3], rotation: [0.0, 0.0, 0.0, 1.0], scale: [1.0; 3] };

    /// The transform as a matrix.
    pub fn to_matrix(&self) -> Mat4 {
        crate::math::from_trs(self.translation, self.rotation, self.scale)
    }
}

impl Default for Transform {
    fn default() -> Self {
        Self::IDENTITY
    }
}

/// One bone (LithTech node, WoW bone, Nod bone).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Bone {
    /// Name (generated as `bone_<i>` for formats without bone names).
    pub name: String,
    /// Index of the parent bone, always lower than this bone's index; `None` for a root.
    pub parent: Option<usize>,
    /// Rest (bind) pose relative to the parent.
    pub rest: Transform,
    /// Model-space bind transform (the global rest pose). Kept as the format stores or derives it,
    /// so that formats storing this matrix write it back exactly.
    pub bind_matrix: Mat4,
    /// Inverse of [`Bone::bind_matrix`], kept separately for formats that store the inverse (NOD).
    pub inverse_bind_matrix: Mat4,
    /// How the bone combines with its parent.
    pub flags: BoneFlags,
}

impl Default for Bone {
    fn default() -> Self {
        Self {
            name: String::new(),
            parent: None,
            rest: Transform::IDENTITY,
            bind_matrix: IDENTITY,
            inverse_bind_matrix: IDENTITY,
            flags: BoneFlags::default(),
        }
    }
}

/// How a bone's pose combines with its parent's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct BoneFlags {
    /// Inherit the parent's translation (M2 flag 0x1 clear).
    pub inherit_translation: bool,
    /// Inherit the parent's rotation (M2 flag 0x4 clear).
    pub inherit_rotation: bool,
    /// Inherit the parent's scale (M2 flag 0x2 clear).
    pub inherit_scale: bool,
    /// Take only rotation from animations; translation stays the rest translation (ABC node flag 0x2).
    pub rotation_only: bool,
    /// Turn to face the camera (M2 billboard flags).
    pub billboard: Billboard,
}

impl Default for BoneFlags {
    fn default() -> Self {
        Self {
            inherit_translation: true,
            inherit_rotation: true,
            inherit_scale: true,
            rotation_only: false,
            billboard: Billboard::None,
        }
    }
}

/// Camera-facing behaviour of a bone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Billboard {
    /// An ordinary bone.
    #[default]
    None,
    /// Always faces the camera.
    Spherical,
    /// Turns about its local X axis to face the camera.
    CylindricalX,
    /// Turns about its local Y axis.
    CylindricalY,
    /// Turns about its local Z axis.
    CylindricalZ,
}

/// A triangle mesh with one material.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Mesh {
    /// Name (ABC piece name, NOD mesh name, M2 `geoset <id>`).
    pub name: String,
    /// Index into [`Model::materials`].
    pub material: Option<usize>,
    /// Bind-pose positions in model space.
    pub positions: Vec<[f32; 3]>,
    /// Unit normals, one per vertex, or empty.
    pub normals: Vec<[f32; 3]>,
    /// UV sets (0 to 2), each one per vertex; top-left image origin (glTF's).
    pub uv_sets: Vec<Vec<[f32; 2]>>,
    /// Bone influences; empty for a mesh that no bone moves.
    pub skin: Skin,
    /// Triangles, counter-clockwise front faces (glTF's).
    pub triangles: Vec<[u32; 3]>,
    /// Level of detail this mesh belongs to.
    pub lod: Lod,
    /// Part id (M2 geoset id: 0 body, 1xx hair, 5xx boots, …) for selective display.
    pub part_id: Option<u32>,
    /// Shape keys (vertex animation), blended before skinning.
    pub morph_targets: Vec<MorphTarget>,
}

/// Level of detail.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Lod {
    /// 0 = full detail.
    pub level: u32,
    /// Camera distance from which this level is used (0 for level 0), in model units.
    pub distance: f32,
}

/// Bone influences of every vertex of a mesh, stored flat: vertex `v` has
/// `influences[offsets[v] .. offsets[v + 1]]`. Any number of influences per vertex.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Skin {
    /// `vertex count + 1` ascending offsets into `influences` (empty for an unskinned mesh).
    pub offsets: Vec<u32>,
    /// All influences, vertex after vertex.
    pub influences: Vec<Influence>,
}

impl Skin {
    /// True if no bone moves the mesh.
    pub fn is_empty(&self) -> bool {
        self.offsets.is_empty()
    }

    /// The influences of vertex `v` (empty if out of range).
    pub fn vertex(&self, v: usize) -> &[Influence] {
        let (Some(&a), Some(&b)) = (self.offsets.get(v), self.offsets.get(v + 1)) else {
            return &[];
        };
        self.influences.get(a as usize..b as usize).unwrap_or_default()
    }

    /// Number of vertices described.
    pub fn vertex_count(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    /// Largest number of influences on one vertex.
    pub fn max_influences(&self) -> usize {
        self.offsets.windows(2).map(|w| w.get(1).zip(w.first()).map_or(0, |(b, a)| (b - a) as usize)).max().unwrap_or(0)
    }

    /// The `n` strongest influences of vertex `v` (of equal weights, the earlier), in their stored
    /// order, renormalised to sum to 1 (left as they are if they sum to 0). All of them when the
    /// vertex has `n` or fewer. For formats that store a fixed number of influences per vertex.
    pub fn strongest(&self, v: usize, n: usize) -> Vec<Influence> {
        let all = self.vertex(v);
        let mut kept: Vec<Influence> = if all.len() <= n {
            all.to_vec()
        } else {
            let mut order: Vec<usize> = (0..all.len()).collect();
            let weight = |i: usize| all.get(i).map_or(0.0, |x| x.weight);
            order.sort_by(|&a, &b| weight(b).total_cmp(&weight(a)).then(a.cmp(&b)));
            order.truncate(n);
            order.sort_unstable();
            order.into_iter().filter_map(|i| all.get(i).copied()).collect()
        };
        let sum: f64 = kept.iter().map(|i| f64::from(i.weight)).sum();
        if sum > 0.0 {
            for i in &mut kept {
                i.weight = (f64::from(i.weight) / sum) as f32;
            }
        }
        kept
    }

    /// Builds a skin from per-vertex influence lists.
    pub fn from_vertices<I>(vertices: I) -> Self
    where
        I: IntoIterator,
        I::Item: IntoIterator<Item = Influence>,
    {
        let mut skin = Skin { offsets: vec![0], influences: Vec::new() };
        for vertex in vertices {
            skin.influences.extend(vertex);
            skin.offsets.push(skin.influences.len() as u32);
        }
        skin
    }
}

/// One bone's weight on one vertex.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Influence {
    /// Index into [`Model::bones`].
    pub bone: u32,
    /// Weight; a vertex's weights sum to 1.
    pub weight: f32,
}

/// A shape key: per-vertex offsets from the bind-pose mesh.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct MorphTarget {
    /// Name.
    pub name: String,
    /// Position offsets, one per vertex of the mesh.
    pub position_deltas: Vec<[f32; 3]>,
    /// Normal offsets, one per vertex, or empty.
    pub normal_deltas: Vec<[f32; 3]>,
}

/// Surface description.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Material {
    /// Name (ABC `material <i>`, NOD material name, M2 texture file stem).
    pub name: String,
    /// Texture references, base layer first.
    pub textures: Vec<TextureRef>,
    /// How the surface combines with what is behind it.
    pub blend: BlendMode,
    /// Draw back faces too.
    pub double_sided: bool,
    /// Not affected by lights.
    pub unlit: bool,
    /// Not affected by fog.
    pub unfogged: bool,
    /// Writes depth.
    pub depth_write: bool,
    /// For [`BlendMode::AlphaKey`]: the alpha below which a texel is not drawn (0–1), as the
    /// game tests it; `None` where the format does not say (viewers then use 0.5).
    pub alpha_cutoff: Option<f32>,
    /// Specular highlight, where the format stores one.
    pub specular: Option<Specular>,
}

/// A texture the game loads by name.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TextureRef {
    /// The game's file path as stored (`CREATURE\GNOME\GNOMEPOUNDER.BLP`, `christof`); may be
    /// empty for a texture the game chooses at run time.
    pub path: String,
    /// M2 replaceable texture type (skin, hair, creature skin 1–3) when the game picks the file.
    pub replaceable: Option<u32>,
    /// UV set used; `None` for environment (sphere) mapping.
    pub uv_set: Option<u32>,
    /// Repeat horizontally.
    pub wrap_u: bool,
    /// Repeat vertically.
    pub wrap_v: bool,
    /// The skin slot the game fills at run time (LithTech: a piece's material index, whose file
    /// the game's own tables name), for formats that store no texture name.
    pub slot: Option<u32>,
    /// A fixed transform of the texture coordinates (an M2 texture animation that never moves).
    pub transform: Option<UvTransform>,
}

/// A fixed transform of texture coordinates, applied as glTF's `KHR_texture_transform` does:
/// scale, then rotation (radians, counter-clockwise), then offset.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct UvTransform {
    /// Added to the coordinates last.
    pub offset: [f32; 2],
    /// Rotation in radians.
    pub rotation: f32,
    /// Multiplies the coordinates first.
    pub scale: [f32; 2],
}

/// How a surface is blended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum BlendMode {
    /// Opaque.
    #[default]
    Opaque,
    /// Opaque where alpha passes a threshold (alpha key/test).
    AlphaKey,
    /// Alpha blending.
    Alpha,
    /// Additive, ignoring alpha.
    Add,
    /// Additive weighted by alpha.
    AddAlpha,
    /// Multiply.
    Modulate,
    /// Multiply by two.
    Modulate2x,
}

/// Specular highlight parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Specular {
    /// Exponent.
    pub power: f32,
    /// Intensity.
    pub scale: f32,
}

/// One animation clip.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Animation {
    /// Name (ABC animation name, M2 `<AnimationData id>.<variation>`, NAD file stem).
    pub name: String,
    /// Length in seconds.
    pub duration: f32,
    /// Plays in a loop.
    pub looping: bool,
    /// Seconds over which the game blends into this clip.
    pub blend_in: f32,
    /// Bone channels.
    pub channels: Vec<Channel>,
    /// Morph-target weight channels (vertex animation).
    pub morph_channels: Vec<MorphChannel>,
    /// Timed events (ABC keyframe strings, NAD tags, M2 events).
    pub events: Vec<Event>,
    /// Bounding box of the whole clip as the file states it.
    pub bounds: Option<Aabb>,
    /// Boxes the file states for single moments of the clip (ABC v6 stores one per keyframe), in
    /// ascending time. Kept for writing back and as a real-data check of the pose.
    pub key_bounds: Vec<KeyBounds>,
}

/// The box of the posed mesh at one moment of a clip, as the file states it.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct KeyBounds {
    /// Seconds from the start of the clip.
    pub time: f32,
    /// The stored box (all zero where the exporter left it empty).
    pub bounds: Aabb,
}

/// Which clock drives a channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Clock {
    /// The clip's own time.
    #[default]
    Animation,
    /// An independent looping clock, index into [`Model::global_sequences`] (M2).
    Global(usize),
}

/// How values between keys are computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Interpolation {
    /// Hold the previous key's value.
    Step,
    /// Linear (rotations: shortest-path spherical).
    #[default]
    Linear,
    /// Cubic Hermite with in/out tangents per key, exactly glTF's CUBICSPLINE.
    CubicSpline,
}

/// Keyed values of one bone property.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum ChannelValues {
    /// Local translation.
    Translation(Vec<[f32; 3]>),
    /// Local rotation, unit quaternions `[x, y, z, w]`.
    Rotation(Vec<[f32; 4]>),
    /// Local scale.
    Scale(Vec<[f32; 3]>),
}

impl ChannelValues {
    /// Number of stored values (3 per key for cubic channels).
    pub fn len(&self) -> usize {
        match self {
            ChannelValues::Translation(v) | ChannelValues::Scale(v) => v.len(),
            ChannelValues::Rotation(v) => v.len(),
        }
    }
    /// True if no values are stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// `translation`, `rotation` or `scale`.
    pub fn property(&self) -> &'static str {
        match self {
            ChannelValues::Translation(_) => "translation",
            ChannelValues::Rotation(_) => "rotation",
            ChannelValues::Scale(_) => "scale",
        }
    }
}

/// Keys of one bone property. For [`Interpolation::CubicSpline`] the values hold three entries per
/// key, in glTF's order: in-tangent, value, out-tangent (tangents in units per second).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Channel {
    /// Index into [`Model::bones`].
    pub bone: usize,
    /// Clock that drives the channel.
    pub clock: Clock,
    /// Interpolation between keys.
    pub interpolation: Interpolation,
    /// Key times in seconds, strictly increasing (may start before 0 or end after the clip:
    /// sampling clamps, it never extrapolates).
    pub times: Vec<f32>,
    /// The keyed values.
    pub values: ChannelValues,
}

/// Keys of the morph-target weights of one mesh.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct MorphChannel {
    /// Index into [`Model::meshes`].
    pub mesh: usize,
    /// Interpolation between keys (step or linear).
    pub interpolation: Interpolation,
    /// Key times in seconds, strictly increasing.
    pub times: Vec<f32>,
    /// `times.len() × targets` weights, key after key.
    pub weights: Vec<f32>,
}

/// Something that happens at a moment of a clip.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Event {
    /// Time in seconds from the start of the clip.
    pub time: f32,
    /// What happens: ABC command string, NAD tag name, M2 event identifier (`$CSS`).
    pub name: String,
    /// Bone it happens at (M2).
    pub bone: Option<usize>,
    /// Position relative to that bone (M2).
    pub position: Option<[f32; 3]>,
    /// Integer parameter (M2 event data, NAD tag type).
    pub parameter: Option<u32>,
}

/// An axis-aligned box.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Aabb {
    /// Smallest corner.
    pub min: [f32; 3],
    /// Largest corner.
    pub max: [f32; 3],
}

impl Aabb {
    /// The box of a set of points; `None` if empty.
    pub fn of_points<'a>(points: impl IntoIterator<Item = &'a [f32; 3]>) -> Option<Aabb> {
        let mut points = points.into_iter();
        let first = *points.next()?;
        Some(points.fold(Aabb { min: first, max: first }, |b, p| b.including(*p)))
    }

    /// This box grown to include `p`.
    pub fn including(self, p: [f32; 3]) -> Aabb {
        let mut out = self;
        for ((lo, hi), v) in out.min.iter_mut().zip(out.max.iter_mut()).zip(p) {
            *lo = lo.min(v);
            *hi = hi.max(v);
        }
        out
    }

    /// Largest per-coordinate distance between the corners of two boxes.
    pub fn max_corner_distance(&self, other: &Aabb) -> f32 {
        crate::math::max_abs_diff(&self.min, &other.min).max(crate::math::max_abs_diff(&self.max, &other.max))
    }
}

/// A named point on a bone (ABC socket, M2 attachment).
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Attachment {
    /// Name (ABC socket name, M2 slot name).
    pub name: String,
    /// Numeric id (M2 attachment slot).
    pub id: Option<u32>,
    /// Index into [`Model::bones`].
    pub bone: usize,
    /// Placement relative to the bone.
    pub transform: Transform,
}

/// Data of one source format that the common model does not describe (M2 particles, ABC child
/// models, …), kept so that the same format can be written back without loss.
///
/// The format crate that created it reads it back with [`FormatExtras::get`]. When the model went
/// through a text carrier (glTF extras), the data arrives as JSON instead ([`FormatExtras::json`])
/// and the format crate decodes it itself.
#[derive(Clone)]
pub struct FormatExtras {
    format: FormatId,
    payload: Payload,
}

#[derive(Clone)]
enum Payload {
    Typed { data: Arc<dyn Any + Send + Sync>, ops: &'static ExtrasOps },
    Json(String),
}

/// What a format crate tells the model about its extras type.
#[derive(Debug)]
pub struct ExtrasOps {
    /// Compares two values of the type (both given as `&dyn Any` of that type).
    pub eq: fn(&dyn Any, &dyn Any) -> bool,
    /// Debug-prints a value.
    pub debug: fn(&dyn Any, &mut fmt::Formatter<'_>) -> fmt::Result,
    /// Serializes a value as JSON (for glTF extras), if the format supports it.
    pub to_json: Option<fn(&dyn Any) -> String>,
}

impl FormatExtras {
    /// Wraps a format's typed data. `ops` is a `static` the format crate defines once for `T`.
    pub fn new<T: Any + Send + Sync>(format: FormatId, data: T, ops: &'static ExtrasOps) -> Self {
        Self { format, payload: Payload::Typed { data: Arc::new(data), ops } }
    }

    /// The data as a `T`: borrowed when it is held typed, decoded by `decode` from its JSON text
    /// when it arrived as JSON (from glTF). `None` when it is neither a `T` nor JSON. Writers use
    /// this so that writing a model does not copy its extras.
    pub fn typed_or_decoded<T: Any + Clone, E>(
        &self,
        decode: impl FnOnce(&str) -> Result<T, E>,
    ) -> Option<Result<std::borrow::Cow<'_, T>, E>> {
        match &self.payload {
            Payload::Typed { data, .. } => data.downcast_ref::<T>().map(|t| Ok(std::borrow::Cow::Borrowed(t))),
            Payload::Json(text) => Some(decode(text).map(std::borrow::Cow::Owned)),
        }
    }

    /// Extras that arrived as JSON text (from glTF `extras`).
    pub fn from_json(format: FormatId, json: String) -> Self {
        Self { format, payload: Payload::Json(json) }
    }

    /// The format the data belongs to.
    pub fn format(&self) -> FormatId {
        self.format
    }

    /// The typed data, if it is a `T`.
    pub fn get<T: Any>(&self) -> Option<&T> {
        match &self.payload {
            Payload::Typed { data, .. } => data.downcast_ref::<T>(),
            Payload::Json(_) => None,
        }
    }

    /// The data as JSON: the original text for extras that came from JSON, or the format's own
    /// serialization of typed data (if it has one).
    pub fn json(&self) -> Option<String> {
        match &self.payload {
            Payload::Typed { data, ops } => ops.to_json.map(|f| f(data.as_ref())),
            Payload::Json(text) => Some(text.clone()),
        }
    }
}

impl PartialEq for FormatExtras {
    fn eq(&self, other: &Self) -> bool {
        if self.format != other.format {
            return false;
        }
        match (&self.payload, &other.payload) {
            (Payload::Typed { data: a, ops }, Payload::Typed { data: b, .. }) => (ops.eq)(a.as_ref(), b.as_ref()),
            (Payload::Json(a), Payload::Json(b)) => a == b,
            _ => false,
        }
    }
}

impl fmt::Debug for FormatExtras {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.payload {
            Payload::Typed { data, ops } => {
                write!(f, "FormatExtras({}, ", self.format)?;
                (ops.debug)(data.as_ref(), f)?;
                f.write_str(")")
            }
            Payload::Json(text) => write!(f, "FormatExtras({}, json {} bytes)", self.format, text.len()),
        }
    }
}

/// Defines the [`ExtrasOps`] for a type that is `PartialEq + Debug` (and, with a second argument
/// `json`, `serde::Serialize` through `serde_json`).
///
/// ```
/// #[derive(Debug, PartialEq)]
/// struct MyExtras { kept: Vec<u8> }
/// static OPS: relic_core::model::ExtrasOps = relic_core::extras_ops!(MyExtras);
/// let e = relic_core::model::FormatExtras::new(relic_core::FormatId::new("toy"), MyExtras { kept: vec![1] }, &OPS);
/// assert_eq!(e.get::<MyExtras>().unwrap().kept, vec![1]);
/// ```
#[macro_export]
macro_rules! extras_ops {
    ($ty:ty) => {
        $crate::model::ExtrasOps {
            eq: |a, b| matches!((a.downcast_ref::<$ty>(), b.downcast_ref::<$ty>()), (Some(a), Some(b)) if a == b),
            debug: |a, f| match a.downcast_ref::<$ty>() {
                Some(a) => ::std::fmt::Debug::fmt(a, f),
                None => f.write_str("?"),
            },
            to_json: None,
        }
    };
    ($ty:ty, $to_json:expr) => {
        $crate::model::ExtrasOps {
            eq: |a, b| matches!((a.downcast_ref::<$ty>(), b.downcast_ref::<$ty>()), (Some(a), Some(b)) if a == b),
            debug: |a, f| match a.downcast_ref::<$ty>() {
                Some(a) => ::std::fmt::Debug::fmt(a, f),
                None => f.write_str("?"),
            },
            to_json: Some(|a| match a.downcast_ref::<$ty>() {
                Some(a) => ($to_json)(a),
                None => String::new(),
            }),
        }
    };
}

impl Model {
    /// Number of vertices over all meshes.
    pub fn vertex_count(&self) -> usize {
        self.meshes.iter().map(|m| m.positions.len()).sum()
    }

    /// Number of triangles over all meshes.
    pub fn triangle_count(&self) -> usize {
        self.meshes.iter().map(|m| m.triangles.len()).sum()
    }

    /// Model-space bind matrices recomputed from the local rest transforms (parents first).
    pub fn rest_globals(&self) -> Vec<Mat4> {
        let mut out: Vec<Mat4> = Vec::with_capacity(self.bones.len());
        for bone in &self.bones {
            let local = bone.rest.to_matrix();
            let global = match bone.parent.and_then(|p| out.get(p)) {
                Some(parent) => crate::math::mul(parent, &local),
                None => local,
            };
            out.push(global);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strongest_keeps_the_largest_in_order_and_renormalises() {
        let inf = |bone, weight| Influence { bone, weight };
        let skin = Skin::from_vertices([
            vec![inf(0, 0.1), inf(1, 0.3), inf(2, 0.1), inf(3, 0.2), inf(4, 0.2), inf(5, 0.1)],
            vec![inf(7, 0.5), inf(8, 0.5)],
        ]);
        // Ties (0.1 ×3) go to the earliest; the kept ones stay in stored order.
        let kept = skin.strongest(0, 4);
        assert_eq!(kept.iter().map(|i| i.bone).collect::<Vec<_>>(), [0, 1, 3, 4]);
        assert!((kept.iter().map(|i| i.weight).sum::<f32>() - 1.0).abs() < 1e-6);
        assert!((kept[1].weight - 0.375).abs() < 1e-6);
        assert_eq!(skin.strongest(1, 4), skin.vertex(1));
        assert!(skin.strongest(9, 4).is_empty());
    }
}
