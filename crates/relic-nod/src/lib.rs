#![doc = include_str!("../README.md")]
//!
//! ## Layout of the crate
//!
//! | module | holds |
//! |---|---|
//! | [`file`](mod@file) | the binrw types of NOD v7 and NAD v3, one per record, fields in file order |
//! | [`options`] | every question the sources leave open, as an option whose `#[default]` is the spec's working assumption |
//! | [`decide`] | the per-file plausibility checks that pick a reading for each open question |
//! | [`extras`] | what the common model has no place for, so NOD → model → NOD gives the same bytes |
//! | `verify` (feature `verify`) | the corpus checks and real-data proofs `cargo xtask corpus` runs |
//!
//! Cross-references are checked when a file is read (`validate`), the mapping to and from the
//! common model lives in `to_ir` and `from_ir` (the only places where coordinates change frame),
//! and posing and skinning go through relic-anim.

pub mod decide;
mod entry;
pub mod extras;
pub mod file;
mod from_ir;
pub mod options;
mod rest;
mod to_ir;
mod validate;
#[cfg(feature = "verify")]
pub mod verify;

pub use entry::ENTRY;
pub use file::{NadFile, NodFile};

/// Nod engine NOD models, as named in [`relic_core::model::SourceInfo`] and the format registry.
pub const FORMAT: relic_core::FormatId = relic_core::FormatId::new("nod");
/// Nod engine NAD animations.
pub const NAD_FORMAT: relic_core::FormatId = relic_core::FormatId::new("nad");

use relic_core::format::{Content, Detected};
use relic_core::model::{Animation, Model};
use relic_core::{Converted, Info, Loss, ReadError, ReadErrorKind, WriteError, WriteOptions};

use crate::decide::{NodChoices, curve_report, decide_nad, decide_nod};
use crate::extras::{NadSource, NodExtras};
use crate::file::{TRACK_ROTATION, TRACK_SCALE, TRACK_TRANSLATION, parse_nad, parse_nod, peek_nad, peek_nod};
use crate::from_ir::animation::{nad_from_animation, rotation_key_budget};
use crate::from_ir::nod_from_model;
use crate::from_ir::skeleton::BoneMap;
use crate::options::{MODEL_HASLOD, MODEL_INLINE, MODEL_STATIC, NAD_VERSION, NOD_VERSION, NadOptions, NodOptions};
use crate::to_ir::animation::animation_from_nad;
use crate::to_ir::model_from_nod;
use crate::validate::{check_for_model, check_structure};

/// Recognises a NOD v7 or a NAD v3 by its bytes; `None` for anything else.
///
/// Both formats have weak signatures (a version number), so this is strict: a NOD must satisfy
/// the exact-size rule, have at most 64 bones, a root bone 0 and group counts that add up to the
/// header's; a NAD must walk cleanly (plausible bone numbers and track types) to a tag list that
/// ends exactly at the end of the file. Nothing is allocated.
pub fn detect(bytes: &[u8]) -> Option<Detected> {
    if peek_nod(bytes) {
        return Some(Detected::new(FORMAT, NOD_VERSION, Content::Model));
    }
    peek_nad(bytes).then(|| Detected::new(NAD_FORMAT, NAD_VERSION, Content::Animation))
}

/// True if the file starts with the NAD version (3) rather than the NOD version: such a file is
/// read (and its errors reported) as a NAD.
pub(crate) fn is_nad(bytes: &[u8]) -> bool {
    bytes.get(..4).and_then(|b| b.try_into().ok()).map(u32::from_le_bytes) == Some(NAD_VERSION)
}

/// Parses a NOD v7 and checks every cross-reference (bones, groups, faces, LOD entries, and the
/// mesh and bone numbers under a group-tail reading that fits), with the offset and field path
/// of the first problem.
pub fn read(bytes: &[u8]) -> Result<NodFile, ReadError> {
    read_checked(bytes, &NodOptions::default()).map(|(file, _)| file)
}

/// [`read`], and the readings of the open layout questions `options` leads to.
fn read_checked(bytes: &[u8], options: &NodOptions) -> Result<(NodFile, NodChoices), ReadError> {
    if is_nad(bytes) {
        return Err(ReadError::at(
            0,
            "version",
            ReadErrorKind::Invalid(
                "this is a NAD animation, which animates a NOD by bone number: read the NOD model and pass the \
                 animation with it (relic convert model.nod --anim walk.nad …)"
                    .into(),
            ),
        ));
    }
    let file = parse_nod(bytes)?;
    check_structure(&file)?;
    let choices = decide_nod(&file, options)?;
    Ok((file, choices))
}

/// Writes a NOD v7; `write(&read(b)?)? == b` for every file [`read`] accepts. Refuses values that
/// break the format's rules (counts that do not fit, more than 64 bones, a LOD table that
/// disagrees with the flag or the vertex count, group sums that disagree with the arrays).
pub fn write(file: &NodFile) -> Result<Vec<u8>, WriteError> {
    file.to_bytes()
}

/// Parses a NAD v3 (the layout only: the bones and keys are checked against a skeleton by
/// [`read_animation`]).
pub fn read_nad(bytes: &[u8]) -> Result<NadFile, ReadError> {
    parse_nad(bytes)
}

/// Writes a NAD v3; `write_nad(&read_nad(b)?)? == b` for every file [`read_nad`] accepts.
pub fn write_nad(file: &NadFile) -> Result<Vec<u8>, WriteError> {
    file.to_bytes()
}

/// NOD → common model, with every open question decided per file (see [`decide`]).
pub fn to_ir(file: &NodFile) -> Result<Model, ReadError> {
    let choices = decide_nod(file, &NodOptions::default())?;
    Ok(model_from_nod(file, &choices))
}

/// Common model → NOD v7, with the readings the model was read with (else the defaults); losses
/// say what the file could not hold.
pub fn from_ir(model: &Model, options: &WriteOptions) -> Result<Converted<NodFile>, WriteError> {
    from_ir_with(model, options, &NodOptions::default())
}

fn from_ir_with(model: &Model, options: &WriteOptions, nod: &NodOptions) -> Result<Converted<NodFile>, WriteError> {
    if let Some(v) = options.version
        && v != NOD_VERSION
    {
        return Err(WriteError::Unsupported(format!(
            "NOD version {v} cannot be written; relic-nod writes version {NOD_VERSION}"
        )));
    }
    let mut converted = nod_from_model(model, nod)?;
    converted.losses.extend(model.emitters_not_held("NOD"));
    converted.losses.extend(model.scene_not_held("NOD holds none"));
    Ok(converted)
}

/// The format's own counts and the layout readings taken (`relic info`). For a NOD: `bones`,
/// `meshes`, `groups`, `vertices`, `faces`, `materials`, `model_flags`, `lod`, then the readings
/// `matrix_layout`, `group_tail`, `rest_translate`, `winding`, `uv_origin` with how each was
/// chosen. For a NAD: `tracks`, `keys`, `tags`, `duration_frames`, `flags`, the track kinds, the
/// curve figures and the readings `polynomial`, `euler_order`, `angle_unit`.
pub fn info(bytes: &[u8]) -> Result<Info, ReadError> {
    if is_nad(bytes) {
        let nad = parse_nad(bytes)?;
        return Ok(nad_info(&nad, &NadOptions::default()));
    }
    let (file, choices) = read_checked(bytes, &NodOptions::default())?;
    Ok(nod_info(&file, &choices))
}

/// `relic info` for a parsed NOD.
fn nod_info(file: &NodFile, choices: &NodChoices) -> Info {
    let mut info = Info::new(crate::FORMAT, file.version);
    info.count("bones", file.bones.len())
        .count("meshes", file.mesh_names.len())
        .count("groups", file.groups.len())
        .count("vertices", file.vertices.len())
        .count("faces", file.faces.len())
        .count("materials", file.materials.len())
        .text("model_flags", model_flags_text(file.model_flags))
        .text("lod", if file.lod.is_some() { "collapse table" } else { "none" })
        .text("matrix_layout", choices.matrix_layout.to_string())
        .text("group_tail", choices.group_tail.to_string())
        .text("rest_translate", choices.rest_translate.to_string())
        .text("winding", choices.winding.to_string())
        .text("uv_origin", format!("{} (option; the file cannot tell)", choices.uv_origin));
    info
}

fn model_flags_text(flags: u32) -> String {
    let mut names: Vec<&str> = Vec::new();
    for (bit, name) in [(MODEL_HASLOD, "HASLOD"), (MODEL_INLINE, "INLINE"), (MODEL_STATIC, "STATIC")] {
        if flags & bit != 0 {
            names.push(name);
        }
    }
    let unknown = flags & !(MODEL_HASLOD | MODEL_INLINE | MODEL_STATIC);
    let mut text = format!("{flags:#x}");
    if !names.is_empty() {
        text.push(' ');
        text.push_str(&names.join("|"));
    }
    if unknown != 0 {
        text.push_str(&format!(" (+{unknown:#x} reserved)"));
    }
    text
}

/// `relic info` for a parsed NAD.
fn nad_info(nad: &NadFile, options: &NadOptions) -> Info {
    let choices = decide_nad(nad, options);
    let report = curve_report(nad);
    let kind = |t: u32| nad.tracks.iter().filter(|x| x.track_type == t).count();
    let mut info = Info::new(crate::NAD_FORMAT, nad.version);
    info.count("tracks", nad.tracks.len())
        .count("keys", nad.key_count())
        .count("tags", nad.tags.len())
        .number("duration_frames", f64::from(nad.duration))
        .text("flags", format!("{:#x}", nad.flags))
        .count("rotation_tracks", kind(TRACK_ROTATION))
        .count("translation_tracks", kind(TRACK_TRANSLATION))
        .count("scale_tracks", kind(TRACK_SCALE))
        .number("segment_end_gap", report.end_gap[0])
        .number("frame_scale_error", report.frame_scale_error)
        .text("last_key_frame_scale", format!("+inf on {} of {} tracks", report.infinite_last, report.tracks_with_keys))
        .number("max_abs_angle", report.max_angle)
        .text("polynomial", choices.polynomial.to_string())
        .text("euler_order", format!("{} (option; needs a known pose to settle)", choices.euler_order))
        .text("angle_unit", format!("{} (option; largest angle {:.1})", choices.angle_unit, report.max_angle));
    info
}

/// `to_ir(&read(bytes)?)`: parses a NOD and maps it to the common model, with every open question
/// decided per file. A NAD is refused: it needs its NOD ([`read_animation`]).
pub fn read_model(bytes: &[u8]) -> Result<Model, ReadError> {
    read_model_with(bytes, &NodOptions::default())
}

/// [`read_model`] and [`info`] from one parse (the facade records the counts as the model's
/// original without reading the file again).
pub fn read_model_with_info(bytes: &[u8]) -> Result<(Model, Info), ReadError> {
    let (file, choices) = read_checked(bytes, &NodOptions::default())?;
    Ok((model_from_nod(&file, &choices), nod_info(&file, &choices)))
}

/// [`read_model`] with explicit readings.
pub fn read_model_with(bytes: &[u8], options: &NodOptions) -> Result<Model, ReadError> {
    let (file, choices) = read_checked(bytes, options)?;
    Ok(model_from_nod(&file, &choices))
}

/// `write(&from_ir(model)?)`: writes the model as a NOD v7 (with the readings it was read with,
/// else the defaults).
pub fn write_model(model: &Model, options: &WriteOptions) -> Result<Converted<Vec<u8>>, WriteError> {
    write_model_with(model, options, &NodOptions::default())
}

/// [`write_model`] with explicit readings (`Choice::Auto`: the model's own, else the default).
pub fn write_model_with(
    model: &Model,
    options: &WriteOptions,
    nod: &NodOptions,
) -> Result<Converted<Vec<u8>>, WriteError> {
    let Converted { value, losses } = from_ir_with(model, options, nod)?;
    Ok(Converted { value: write(&value)?, losses })
}

/// Maps a NAD to an animation on the model's skeleton (bone numbers are indices into
/// `model.bones`, as in the NOD the model was read from).
pub fn read_animation(
    model: &Model,
    nad_bytes: &[u8],
    name: &str,
    options: &NadOptions,
) -> Result<Animation, ReadError> {
    let nad = read_nad(nad_bytes)?;
    animation_from_nad(&nad, model.bones.len(), name, &decide_nad(&nad, options))
}

/// [`read_animation`], then adds the animation to the model and keeps the NAD's bytes in the
/// model's NOD extras, so that [`write_animation`] gives the same file back while the animation is
/// unchanged. Returns the animation's index. (A model whose extras belong to another format gets
/// the animation without the bytes.)
pub fn attach_animation(
    model: &mut Model,
    nad_bytes: &[u8],
    name: &str,
    options: &NadOptions,
) -> Result<usize, ReadError> {
    let animation = read_animation(model, nad_bytes, name, options)?;
    let source = NadSource { name: name.to_string(), options: *options, bytes: nad_bytes.to_vec() };
    let (extras, _) = NodExtras::of(model);
    let foreign = model.extras.as_ref().is_some_and(|e| e.format() != crate::FORMAT);
    if !foreign {
        let mut extras = extras.map(std::borrow::Cow::into_owned).unwrap_or_else(|| NodExtras {
            choices: NodChoices::defaults(),
            nod: None,
            animations: Vec::new(),
        });
        extras.animations.push(source);
        model.extras = Some(extras.into_format_extras());
    }
    model.animations.push(animation);
    Ok(model.animations.len() - 1)
}

/// Writes animation `animation_index` of the model as a NAD v3 on the skeleton [`write_model`]
/// writes. An animation attached from a NAD and unchanged since is written back byte for byte.
pub fn write_animation(
    model: &Model,
    animation_index: usize,
    options: &NadOptions,
) -> Result<Converted<Vec<u8>>, WriteError> {
    model.validate()?;
    let animation = model.animations.get(animation_index).ok_or_else(|| {
        WriteError::Unsupported(format!(
            "animation {animation_index} does not exist ({} animations)",
            model.animations.len()
        ))
    })?;
    let mut losses: Vec<Loss> = Vec::new();
    let map = BoneMap::new(model, &mut losses)?;
    let identity = map.from_nod.iter().enumerate().all(|(n, m)| *m == Some(n));
    let (extras, _) = NodExtras::of(model);
    if identity && let Some(bytes) = extras.as_ref().and_then(|e| unchanged_source(model, e, animation)) {
        return Ok(Converted::lossless(bytes));
    }
    // Rotations become Euler keys at every frame they move: bounded by the reader's budget.
    let (needed, budget) = rotation_key_budget(animation);
    if needed > budget {
        return Err(WriteError::Unsupported(format!(
            "animation {animation_index} {:?}: its rotations need {needed} Euler keys at 30 frames per second, \
             more than a NAD may hold ({budget}); the keys span too long a time",
            animation.name
        )));
    }
    let Converted { mut value, losses: more } = nad_from_animation(animation, &map, options);
    losses.extend(more);
    // The header flags (meaning unknown, spec §4) have no place in the model: an edited animation
    // keeps those of the NAD it was read from.
    if let Some(flags) = extras.as_ref().and_then(|e| kept_flags(e, animation)) {
        value.flags = flags;
    }
    // Never write a NAD that `read_animation` refuses: keys closer together than a frame scale
    // (1 / gap, f32) can express, or cubic factors that overflow, are refused here instead.
    if let Err(e) = check_for_model(&value, map.from_nod.len()) {
        return Err(WriteError::Unsupported(format!(
            "animation {animation_index} {:?} cannot be written as a NAD that reads back: {e}",
            animation.name
        )));
    }
    Ok(Converted { value: write_nad(&value)?, losses })
}

/// The header flags of the NAD an animation of this name was read from.
fn kept_flags(extras: &NodExtras, animation: &Animation) -> Option<u32> {
    let source = extras.animations.iter().rev().find(|s| s.name == animation.name)?;
    source.bytes.get(8..12).and_then(|b| b.try_into().ok()).map(u32::from_le_bytes)
}

/// The kept bytes of the NAD `animation` came from, if it still reads as exactly `animation`.
fn unchanged_source(model: &Model, extras: &NodExtras, animation: &Animation) -> Option<Vec<u8>> {
    extras.animations.iter().filter(|s| s.name == animation.name).find_map(|s| {
        let again = read_animation(model, &s.bytes, &s.name, &s.options).ok()?;
        (again == *animation).then(|| s.bytes.clone())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_text() {
        assert_eq!(model_flags_text(0), "0x0");
        assert_eq!(model_flags_text(5), "0x5 HASLOD|STATIC");
        assert_eq!(model_flags_text(0x11), "0x11 HASLOD (+0x10 reserved)");
    }

    #[test]
    fn detect_refuses_near_misses() {
        assert_eq!(detect(&[]), None);
        assert_eq!(detect(&7u32.to_le_bytes()), None);
        assert_eq!(detect(b"MD20\0\0\0\0"), None);
        let mut nad = vec![];
        for v in [3u32, 0, 0] {
            nad.extend_from_slice(&v.to_le_bytes());
        }
        nad.extend_from_slice(&10.0f32.to_le_bytes());
        nad.extend_from_slice(&0u32.to_le_bytes());
        assert_eq!(detect(&nad).map(|s| s.source.format), Some(crate::NAD_FORMAT));
        nad.push(0);
        assert_eq!(detect(&nad), None);
    }
}
