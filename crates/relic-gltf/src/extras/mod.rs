//! What relic keeps in glTF `extras`: everything the common model holds that glTF has no place
//! for. Every object's extras carry one key, `relic`, with the shapes below (mesh extras also carry
//! the conventional `targetNames` for morph target names).
//!
//! | object | `extras.relic` |
//! |---|---|
//! | root | [`RootExtras`]: model name, source format and version, global sequence durations, the source format's own extras as JSON, the tints and UV animations ([`SurfacesJson`]) |
//! | asset | `{ "units": … }`: lengths are the game's own units, not metres |
//! | bone node | [`BoneExtras`]: flags, and the original rest transform and bind matrix where glTF could not hold them |
//! | attachment node | [`AttachmentExtras`]: the attachment id |
//! | emitter node | [`EmitterExtras`]: kind, place, size, texture and the format's record as a string (the `RELIC_particle_emitter` / `RELIC_ribbon_emitter` extension, [`EmitterExtension`], holds the same for viewers) |
//! | stand-in mesh and material | [`StandInExtras`]: not model geometry |
//! | mesh | [`MeshExtras`]: LOD level and distance, part id |
//! | material | [`MaterialExtras`]: the game's texture references, exact blend mode, fog, depth write, specular |
//! | animation | [`AnimationExtras`]: duration, looping, blend-in, events, stated boxes, and the channels stored as they were where the glTF channels are baked |

use relic_core::model::{
    Aabb, Billboard, BlendMode, BoneFlags, KeyBounds, Specular, TextureRef, Transform, UvTransform,
};
use serde::{Deserialize, Serialize};

mod animation;
mod emitter;
mod scene;
mod surface;

pub use animation::{AnimationExtras, EventJson, StashedChannel};
pub use emitter::{
    EmitterExtension, EmitterExtras, PARTICLE_EXTENSION, RIBBON_EXTENSION, RecordJson, StandInExtras, TrackJson,
};
pub use scene::SceneObjectExtras;
pub(crate) use scene::{tracks_of_text, tracks_text};
pub use surface::{KeysJson, SurfacesJson, TintJson, UvAnimationJson};

/// `{ "relic": T }`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Wrapped<T> {
    pub(crate) relic: T,
}

/// Model-level data (root `extras.relic`).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct RootExtras {
    /// [`relic_core::Model::name`].
    pub name: String,
    /// Source format (`abc`, `m2`, `nod`, `nad`) and its version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<SourceExtras>,
    /// Durations of the global sequences in seconds (their channels are baked into each clip).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub global_sequences: Vec<f32>,
    /// The source format's typed extras as JSON ([`relic_core::model::FormatExtras::json`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format_extras: Option<FormatExtrasJson>,
    /// Index of the synthetic root node that joins several root bones under one common root (glTF
    /// requires one); it is not a bone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub synthetic_root: Option<usize>,
    /// The clips' data, in the order of the glTF animations.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub animations: Vec<AnimationExtras>,
    /// What the game file held ([`relic_core::model::Original`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub original: Option<OriginalExtras>,
    /// The model's tints and UV animations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub surfaces: Option<SurfacesJson>,
}

/// [`relic_core::model::Original`]: the game file's format, version and counts.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct OriginalExtras {
    /// Format short name.
    pub format: String,
    /// Format version.
    pub version: u32,
    /// `[key, count]` pairs.
    pub counts: Vec<(String, u64)>,
}

/// One game file kept with the model ([`relic_core::model::Original::files`]), as the scene's
/// `relic_files` extras list it beside `relic` ([`wrap_root_text`]).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct KeptFile {
    /// The file's name (`GnomePounder00.skin`).
    name: String,
    /// Its bytes: deflated and base64-encoded, or base64 ([`crate::deflate::pack_bytes`]).
    bytes: String,
}

/// The scene's extras: the model's data ([`RootExtras`], packed) and, apart, the game files kept
/// with it as one JSON string (Blender keeps string properties as they are).
#[derive(Serialize)]
struct SceneExtras {
    relic: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    relic_files: Option<String>,
}

/// The kept files' part of the scene's extras, read alone (the rest is skipped, not copied).
#[derive(Deserialize)]
struct SceneFiles {
    #[serde(default)]
    relic_files: Option<String>,
}

/// Where the model came from.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SourceExtras {
    /// Format short name.
    pub format: String,
    /// Format version.
    pub version: u32,
}

/// A format's extras.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FormatExtrasJson {
    /// Format short name.
    pub format: String,
    /// The format's JSON, embedded verbatim (not re-parsed into a tree: the text the format
    /// crate wrote, in its key order, is what a reader sees).
    pub data: Box<serde_json::value::RawValue>,
}

impl FormatExtrasJson {
    /// `text`, a format's JSON, embedded as it is ([`embed`]).
    pub(crate) fn of(format: relic_core::FormatId, text: &str) -> Result<Self, crate::GltfError> {
        Ok(Self { format: format.as_str().into(), data: embed(text)? })
    }
}

/// A bone node's data.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct BoneExtras {
    /// Flags, when not the default (inherit everything, no billboard).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flags: Option<FlagsJson>,
    /// The bone's own rest transform where the node's TRS is baked (flags not inherited).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rest: Option<TransformJson>,
    /// The model-space bind matrix where it is not exactly the inverse of the inverse bind matrix.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bind_matrix: Option<Vec<f32>>,
    /// The bone exactly as the model held it ([`BoneRecord`]): an editor may turn the node's
    /// axes (Blender's importer points each bone at its child) and rounds the numbers; import
    /// turns them back and restores these values where they still agree.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "packed_record")]
    pub original: Option<BoneRecord>,
    /// The bone's index in the model (an editor may list joints in another order; formats
    /// number bones by position).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<u32>,
}

/// A bone's rest transform, bind matrix and inverse bind matrix as the model held them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoneRecord {
    /// [`relic_core::model::Bone::rest`].
    pub rest: Transform,
    /// [`relic_core::model::Bone::bind_matrix`].
    pub bind_matrix: relic_core::math::Mat4,
    /// [`relic_core::model::Bone::inverse_bind_matrix`].
    pub inverse_bind_matrix: relic_core::math::Mat4,
}

/// Serde for a [`BoneRecord`]: its 42 numbers (rest translation, rotation, scale; the two
/// matrices) packed as one base64 string of little-endian `f32`.
mod packed_record {
    use serde::de::Error as _;
    use serde::{Deserializer, Serializer};

    use super::BoneRecord;

    const LEN: usize = 10 + 16 + 16;

    pub(super) fn serialize<S: Serializer>(v: &Option<BoneRecord>, s: S) -> Result<S::Ok, S::Error> {
        let Some(r) = v else { return s.serialize_none() };
        let t = &r.rest;
        let numbers: Vec<f32> = t
            .translation
            .iter()
            .chain(&t.rotation)
            .chain(&t.scale)
            .chain(&r.bind_matrix)
            .chain(&r.inverse_bind_matrix)
            .copied()
            .collect();
        super::packed_f32::serialize(&numbers, s)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<BoneRecord>, D::Error> {
        let numbers = super::packed_f32::deserialize(d)?;
        let wrong = || D::Error::custom(format!("bone record: {} numbers, not {LEN}", numbers.len()));
        let (head, matrices) = numbers.split_first_chunk::<10>().ok_or_else(wrong)?;
        let (bind_matrix, inverse) = matrices.split_first_chunk::<16>().ok_or_else(wrong)?;
        let inverse_bind_matrix: [f32; 16] = inverse.try_into().map_err(|_| wrong())?;
        let rest = super::Transform {
            translation: [head[0], head[1], head[2]],
            rotation: [head[3], head[4], head[5], head[6]],
            scale: [head[7], head[8], head[9]],
        };
        Ok(Some(BoneRecord { rest, bind_matrix: *bind_matrix, inverse_bind_matrix }))
    }
}

/// [`BoneFlags`] as JSON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FlagsJson {
    /// Inherit the parent's translation.
    #[serde(deserialize_with = "lenient_bool")]
    pub inherit_translation: bool,
    /// Inherit the parent's rotation.
    #[serde(deserialize_with = "lenient_bool")]
    pub inherit_rotation: bool,
    /// Inherit the parent's scale.
    #[serde(deserialize_with = "lenient_bool")]
    pub inherit_scale: bool,
    /// Animations move only the rotation.
    #[serde(deserialize_with = "lenient_bool")]
    pub rotation_only: bool,
    /// `none`, `spherical`, `cylindrical_x`, `cylindrical_y`, `cylindrical_z`.
    pub billboard: String,
}

impl From<BoneFlags> for FlagsJson {
    fn from(f: BoneFlags) -> Self {
        let billboard = match f.billboard {
            Billboard::None => "none",
            Billboard::Spherical => "spherical",
            Billboard::CylindricalX => "cylindrical_x",
            Billboard::CylindricalY => "cylindrical_y",
            Billboard::CylindricalZ => "cylindrical_z",
        };
        Self {
            inherit_translation: f.inherit_translation,
            inherit_rotation: f.inherit_rotation,
            inherit_scale: f.inherit_scale,
            rotation_only: f.rotation_only,
            billboard: billboard.into(),
        }
    }
}

impl From<&FlagsJson> for BoneFlags {
    fn from(f: &FlagsJson) -> Self {
        let billboard = match f.billboard.as_str() {
            "spherical" => Billboard::Spherical,
            "cylindrical_x" => Billboard::CylindricalX,
            "cylindrical_y" => Billboard::CylindricalY,
            "cylindrical_z" => Billboard::CylindricalZ,
            _ => Billboard::None,
        };
        Self {
            inherit_translation: f.inherit_translation,
            inherit_rotation: f.inherit_rotation,
            inherit_scale: f.inherit_scale,
            rotation_only: f.rotation_only,
            billboard,
        }
    }
}

/// A [`Transform`] as JSON.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct TransformJson {
    /// Translation.
    pub translation: [f32; 3],
    /// Rotation `[x, y, z, w]`.
    pub rotation: [f32; 4],
    /// Scale.
    pub scale: [f32; 3],
}

impl From<Transform> for TransformJson {
    fn from(t: Transform) -> Self {
        Self { translation: t.translation, rotation: t.rotation, scale: t.scale }
    }
}

impl From<TransformJson> for Transform {
    fn from(t: TransformJson) -> Self {
        Self { translation: t.translation, rotation: t.rotation, scale: t.scale }
    }
}

/// An attachment node's data.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct AttachmentExtras {
    /// Marks the node as an attachment.
    #[serde(deserialize_with = "lenient_bool")]
    pub attachment: bool,
    /// [`relic_core::model::Attachment::id`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<u32>,
    /// The attachment's index in the model (an editor may write nodes in another order).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<u32>,
    /// The transform exactly as the model held it (an editor rounds the node's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transform: Option<TransformJson>,
}

/// A mesh's data.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct MeshExtras {
    /// LOD level (0 = full detail).
    pub lod: u32,
    /// Camera distance from which the LOD is used, in model units.
    pub lod_distance: f32,
    /// Part id (M2 geoset id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part_id: Option<u32>,
    /// Index of the mesh in the model (an editor may write meshes in another order).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<u32>,
    /// The mesh's vertex count in the model (an editor splits vertices; welding them back stops
    /// here, so vertices the model holds twice stay two).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vertices: Option<u32>,
    /// The vertices after `vertices`: the model vertex each copies. The export gives a triangle
    /// that repeats another's corners (double-sided) or names a vertex twice its own copy of a
    /// corner, so that an editor keeps it as a face; the import joins them again.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub copies: Vec<u32>,
}

/// Mesh `extras` (with glTF's conventional `targetNames`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct MeshExtrasOuter {
    #[serde(default, rename = "targetNames", skip_serializing_if = "Vec::is_empty")]
    pub(crate) target_names: Vec<String>,
    #[serde(default)]
    pub(crate) relic: Option<MeshExtras>,
}

/// A material's data.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct MaterialExtras {
    /// The game's texture references, base layer first.
    pub textures: Vec<TextureJson>,
    /// Exact blend mode (glTF's alpha mode is an approximation for additive and modulate).
    pub blend: String,
    /// Not affected by fog.
    #[serde(deserialize_with = "lenient_bool")]
    pub unfogged: bool,
    /// Writes depth.
    #[serde(deserialize_with = "lenient_bool")]
    pub depth_write: bool,
    /// Specular exponent and intensity.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub specular: Option<[f32; 2]>,
    /// The alpha-key threshold the game uses, beside glTF's `alphaCutoff`: Blender 4.2 and later
    /// export no alpha mode for a material without an image (an M2's replaceable texture).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alpha_cutoff: Option<f32>,
}

/// A [`TextureRef`] as JSON.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct TextureJson {
    /// The game's file path as stored.
    pub path: String,
    /// M2 replaceable texture type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replaceable: Option<u32>,
    /// UV set; absent for environment mapping.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uv_set: Option<u32>,
    /// Repeat horizontally.
    #[serde(deserialize_with = "lenient_bool")]
    pub wrap_u: bool,
    /// Repeat vertically.
    #[serde(deserialize_with = "lenient_bool")]
    pub wrap_v: bool,
    /// Skin slot the game fills (LithTech material index).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slot: Option<u32>,
    /// Fixed UV transform: offset u, offset v, rotation, scale u, scale v.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transform: Option<[f32; 5]>,
}

impl From<&TextureRef> for TextureJson {
    fn from(t: &TextureRef) -> Self {
        Self {
            path: t.path.clone(),
            replaceable: t.replaceable,
            uv_set: t.uv_set,
            wrap_u: t.wrap_u,
            wrap_v: t.wrap_v,
            slot: t.slot,
            transform: t.transform.map(|x| [x.offset[0], x.offset[1], x.rotation, x.scale[0], x.scale[1]]),
        }
    }
}

impl From<&TextureJson> for TextureRef {
    fn from(t: &TextureJson) -> Self {
        Self {
            path: t.path.clone(),
            replaceable: t.replaceable,
            uv_set: t.uv_set,
            wrap_u: t.wrap_u,
            wrap_v: t.wrap_v,
            slot: t.slot,
            transform: t.transform.map(|[u, v, rotation, su, sv]| UvTransform {
                offset: [u, v],
                rotation,
                scale: [su, sv],
            }),
        }
    }
}

/// Blend mode names.
pub(crate) fn blend_name(b: BlendMode) -> &'static str {
    match b {
        BlendMode::Opaque => "opaque",
        BlendMode::AlphaKey => "alpha_key",
        BlendMode::Alpha => "alpha",
        BlendMode::Add => "add",
        BlendMode::AddAlpha => "add_alpha",
        BlendMode::Modulate => "modulate",
        BlendMode::Modulate2x => "modulate_2x",
    }
}

/// The blend mode of a name from [`blend_name`].
pub(crate) fn blend_from_name(s: &str) -> Option<BlendMode> {
    Some(match s {
        "opaque" => BlendMode::Opaque,
        "alpha_key" => BlendMode::AlphaKey,
        "alpha" => BlendMode::Alpha,
        "add" => BlendMode::Add,
        "add_alpha" => BlendMode::AddAlpha,
        "modulate" => BlendMode::Modulate,
        "modulate_2x" => BlendMode::Modulate2x,
        _ => return None,
    })
}

impl MaterialExtras {
    /// The specular parameters.
    pub(crate) fn specular(&self) -> Option<Specular> {
        self.specular.map(|[power, scale]| Specular { power, scale })
    }
}

/// Serde for a stashed channel's numbers: base64 of their little-endian bytes (a JSON list costs
/// about four times as much: LithTech's rotation-only nodes stash every translation key, 600 KB
/// of PARTNER_DANCIN's glb); a JSON list of an older export is read too.
mod packed_f32 {
    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serializer};

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Form {
        Packed(String),
        List(Vec<f32>),
    }

    pub(super) fn serialize<S: Serializer>(v: &[f32], s: S) -> Result<S::Ok, S::Error> {
        let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
        s.serialize_str(&relic_core::base64::encode(&bytes))
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<f32>, D::Error> {
        match Form::deserialize(d)? {
            Form::List(v) => Ok(v),
            Form::Packed(text) => relic_core::base64::decode(text.as_bytes())
                .filter(|b| b.len() % 4 == 0)
                .map(|b| b.as_chunks::<4>().0.iter().map(|c| f32::from_le_bytes(*c)).collect())
                .ok_or_else(|| D::Error::custom("stashed channel: not base64 of f32 values")),
        }
    }
}

/// An [`Aabb`] as `[min, max]`.
pub(crate) fn aabb_json(b: &Aabb) -> [[f32; 3]; 2] {
    [b.min, b.max]
}

/// A [`KeyBounds`] as `(time, min, max)`.
pub(crate) fn key_bounds_json(k: &KeyBounds) -> (f32, [f32; 3], [f32; 3]) {
    (k.time, k.bounds.min, k.bounds.max)
}

/// Serializes `{ "relic": value }` as glTF extras.
pub(crate) fn wrap<T: Serialize>(value: T) -> Result<gltf_json::Extras, crate::GltfError> {
    raw(&Wrapped { relic: value })
}

/// Serializes any value as glTF extras.
pub(crate) fn raw<T: Serialize>(value: &T) -> Result<gltf_json::Extras, crate::GltfError> {
    // `to_raw_value` does not parse its own output again (`RawValue::from_string` would: a
    // second pass over an embedded format's extras).
    let raw = serde_json::value::to_raw_value(value).map_err(|e| crate::GltfError::Json(e.to_string()))?;
    Ok(Some(raw))
}

/// `text` embedded verbatim if it is JSON (a format's extras), else as a JSON string (extras
/// imported from a file edited by hand may hold anything). The format's JSON is not re-parsed
/// into a tree (that took a third of an M2's export time and two fifths of an ABC's).
pub(crate) fn embed(text: &str) -> Result<Box<serde_json::value::RawValue>, crate::GltfError> {
    serde_json::from_str::<Box<serde_json::value::RawValue>>(text)
        .or_else(|_| serde_json::value::to_raw_value(text))
        .map_err(|e| crate::GltfError::Json(e.to_string()))
}

/// Reads `extras.relic` as `T`; `None` if absent or not of that shape (extras are advisory: a file
/// edited by another tool may carry anything there).
pub(crate) fn unwrap<T: for<'de> Deserialize<'de>>(extras: &gltf_json::Extras) -> Option<T> {
    let raw = extras.as_ref()?;
    serde_json::from_str::<Wrapped<T>>(raw.get()).ok().map(|w| w.relic)
}

/// A bool as relic writes it, or as an integer: Blender keeps custom properties without a bool
/// type and gives `true` back as `1`.
fn lenient_bool<'de, D: serde::Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Flag {
        Bool(bool),
        Int(i64),
    }
    Ok(match Flag::deserialize(d)? {
        Flag::Bool(b) => b,
        Flag::Int(i) => i != 0,
    })
}

/// A format's extras as JSON text known to be JSON: its crate's own serialization, or text
/// [`embed`] checked. Carried into the scene's extras as it is ([`root_text`]).
pub(crate) struct FormatText {
    format: String,
    json: String,
}

impl FormatText {
    /// `json`, the extras of `format`; `own` when it is the format crate's own serialization
    /// (else it is checked, and embedded as a JSON string if it is not JSON).
    pub(crate) fn new(format: relic_core::FormatId, json: String, own: bool) -> Result<Self, crate::GltfError> {
        let json = if own { json } else { embed(&json)?.get().to_owned() };
        Ok(Self { format: format.as_str().into(), json })
    }
}

/// The scene's `extras.relic` in one step: [`root_text`], then [`wrap_root_text`] (the export
/// takes the two steps apart, on either side of baking).
#[cfg(test)]
pub(crate) fn wrap_root(
    value: &RootExtras,
    format: Option<&FormatText>,
) -> Result<gltf_json::Extras, crate::GltfError> {
    wrap_root_text(&root_text(value, format)?, &[])
}

/// The JSON text of the scene's extras, [`RootExtras`].
///
/// `format`, when given, is written as the `format_extras` (left `None` in `value`) after the
/// other fields: the same JSON a [`FormatExtrasJson`] serializes to, without parsing the format's
/// text again (megabytes for an M2: checking it was a third of building the format's extras).
pub(crate) fn root_text(value: &RootExtras, format: Option<&FormatText>) -> Result<String, crate::GltfError> {
    let json = |e: &dyn std::fmt::Display| crate::GltfError::Json(e.to_string());
    let mut text = serde_json::to_string(value).map_err(|e| json(&e))?;
    if let Some(f) = format {
        debug_assert!(value.format_extras.is_none(), "the format's extras are given once");
        // `value` is an object, `{…}`: its closing brace goes after the format's extras.
        text.pop();
        if text.len() > 1 {
            text.push(',');
        }
        text.reserve(f.json.len() + 64);
        text.push_str("\"format_extras\":{\"format\":");
        text.push_str(&serde_json::to_string(&f.format).map_err(|e| json(&e))?);
        text.push_str(",\"data\":");
        text.push_str(&f.json);
        text.push_str("}}");
    }
    Ok(text)
}

/// The scene's `extras.relic`: [`root_text`]'s text as a JSON string (what Blender keeps through
/// a custom property without changing a byte: it has no null and no mixed lists; an older relic
/// export has an object), deflated when that pays ([`crate::deflate::pack`]).
pub(crate) fn wrap_root_text(text: &str, files: &[(String, Vec<u8>)]) -> Result<gltf_json::Extras, crate::GltfError> {
    let json = |e: serde_json::Error| crate::GltfError::Json(e.to_string());
    let kept: Vec<KeptFile> = files
        .iter()
        .map(|(name, bytes)| KeptFile { name: name.clone(), bytes: crate::deflate::pack_bytes(bytes) })
        .collect();
    let relic_files = if kept.is_empty() { None } else { Some(serde_json::to_string(&kept).map_err(json)?) };
    raw(&SceneExtras { relic: crate::deflate::pack(text), relic_files })
}

/// The game files kept with the model in the scene's extras ([`wrap_root_text`]); none when
/// absent or unreadable (the file is then built from the model).
pub(crate) fn unwrap_kept_files(extras: &gltf_json::Extras) -> Vec<(String, Vec<u8>)> {
    let scene: Option<SceneFiles> = extras.as_ref().and_then(|raw| serde_json::from_str(raw.get()).ok());
    let kept: Option<Vec<KeptFile>> = scene.and_then(|s| serde_json::from_str(&s.relic_files?).ok());
    let files = kept.unwrap_or_default().into_iter().map(|f| Some((f.name, crate::deflate::unpack_bytes(&f.bytes)?)));
    files.collect::<Option<Vec<_>>>().unwrap_or_default()
}

/// Reads [`wrap_root_text`]'s extras (or an object of an older export).
pub(crate) fn unwrap_root(extras: &gltf_json::Extras) -> Option<RootExtras> {
    unwrap::<RootExtras>(extras).or_else(|| {
        let text = unwrap::<String>(extras)?;
        match crate::deflate::unpack(&text) {
            Some(json) => serde_json::from_slice(&json?).ok(),
            None => serde_json::from_str(&text).ok(),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The format's text spliced in reads back as the format extras a serialized
    /// [`FormatExtrasJson`] gives, short or deflated; text that is not the format's own is checked,
    /// and kept as a JSON string when it is not JSON.
    #[test]
    fn format_extras_written_apart_read_back_as_when_serialized_with_the_rest() {
        let format = relic_core::FormatId::new("m2");
        let long = format!("{{\"bones\":[{}0]}}", "1.5,".repeat(5_000));
        for data in ["{\"a\":[1,2]}", long.as_str()] {
            let value = RootExtras { name: "m".into(), global_sequences: vec![0.5], ..RootExtras::default() };
            let own = FormatText::new(format, data.to_string(), true).unwrap();
            let spliced = unwrap_root(&wrap_root(&value, Some(&own)).unwrap()).unwrap();
            let whole =
                RootExtras { format_extras: Some(FormatExtrasJson::of(format, data).unwrap()), ..value.clone() };
            let serialized = unwrap_root(&wrap_root(&whole, None).unwrap()).unwrap();
            for back in [&spliced, &serialized] {
                let fx = back.format_extras.as_ref().unwrap();
                assert_eq!((fx.format.as_str(), fx.data.get()), ("m2", data));
                assert_eq!((back.name.as_str(), back.global_sequences.as_slice()), ("m", &[0.5][..]));
            }
        }
        let empty = unwrap_root(
            &wrap_root(&RootExtras::default(), Some(&FormatText::new(format, "[]".into(), true).unwrap())).unwrap(),
        );
        assert_eq!(empty.unwrap().format_extras.unwrap().data.get(), "[]", "a root with no field but its name");
        let hand_made = FormatText::new(format, "not json".into(), false).unwrap();
        let back = unwrap_root(&wrap_root(&RootExtras::default(), Some(&hand_made)).unwrap()).unwrap();
        assert_eq!(back.format_extras.unwrap().data.get(), "\"not json\"");
    }
}
