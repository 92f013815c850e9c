//! relic-nod: the Nod engine's model and animation files from Vampire: The Masquerade – Redemption
//! (Nihilistic, 2000): read, write, and map to and from the common model.
//!
//! | file | version | sections | module |
//! |---|---|---|---|
//! | `.nod` model | 7 (VtMR 1.1) | header · materials `char[32]` · bones (66 B) · mesh names `char[32]` · vertices (40 B) · LOD collapse table (`u16`, iff HASLOD) · faces (`u16[3]`) · mesh groups (28 B) | [`nod`] |
//! | `.nad` animation | 3 | header · bone tracks (rotation / translation / scale, 56-byte cubic keys) · tags | [`nad`] |
//!
//! Both are little-endian and packed; other versions are refused. The layout follows
//! `../shared/specs/nod.md` (the SDK's NOD page with its typos fixed, the NAD format from three
//! working readers). **No real NOD or NAD was available**: every question the sources leave open
//! is an option in [`options`] with the spec's working assumption as default, and a per-file
//! plausibility check ([`decide`]) picks and reports a reading (`relic info` prints it).
//!
//! Mapping ([`to_ir`], [`from_ir`], [`anim`]): the SDK states +Z up, +Y forward and +X the
//! character's right hand, a right-handed frame, so [`decide::NOD_FRAME`]
//! takes it to the model's Y-up (`(x, y, z) → (−x, z, y)`, exact; a character facing +Y in the NOD
//! faces glTF's front, +Z, in the model, as characters of every format do); bind pose from the
//! inverse rest matrices;
//! vertices skinned to their bone with weight `w` and to its parent with `1 − w`; one mesh per
//! group; NAD cubic translation/scale segments as cubic Hermite keys exactly, Euler rotations
//! sampled into quaternion keys at 30 fps, tags as events. What the model cannot hold travels in
//! [`extras::NodExtras`], so NOD → model → NOD gives the same bytes.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let nod: &[u8] = include_bytes!("../../../fixtures/nod/skinned.nod");
//! let walk: &[u8] = include_bytes!("../../../fixtures/nod/walk.nad");
//! let mut model = relic_nod::read_model(nod)?;
//! relic_nod::attach_animation(&mut model, walk, "walk", &relic_nod::options::NadOptions::default())?;
//! assert_eq!((model.bones.len(), model.meshes.len(), model.animations[0].channels.len()), (4, 2, 6));
//! let nod_again = relic_nod::write_model(&model, &Default::default())?;
//! let walk_again = relic_nod::write_animation(&model, 0, &Default::default())?;
//! assert_eq!((nod_again.value.as_slice(), walk_again.value.as_slice()), (nod, walk));
//! # Ok(()) }
//! ```

pub mod anim;
pub mod checks;
pub mod decide;
mod entry;
pub mod extras;
pub mod from_ir;
pub mod geometry;
pub mod nad;
pub mod nod;
pub mod options;
pub mod pose;
pub mod skin;
pub mod to_ir;

pub use entry::ENTRY;

/// Nod engine NOD models, as named in [`relic_core::model::SourceInfo`] and the format registry.
pub const FORMAT: relic_core::FormatId = relic_core::FormatId::new("nod");
/// Nod engine NAD animations.
pub const NAD_FORMAT: relic_core::FormatId = relic_core::FormatId::new("nad");

use relic_core::format::{Content, Detected};
use relic_core::model::{Animation, Model};
use relic_core::{Converted, Info, Loss, ReadError, ReadErrorKind, WriteError, WriteOptions};

use crate::anim::{animation_from_nad, curve_report, decide_nad, nad_from_animation};
use crate::decide::{NodChoices, decide_nod};
use crate::extras::{NadSource, NodExtras};
use crate::from_ir::{BoneMap, nod_from_model};
use crate::nad::{NadFile, parse_nad, peek_nad};
use crate::nod::{NodFile, parse_nod, peek_counts};
use crate::options::{
    MAX_BONES, MODEL_HASLOD, MODEL_INLINE, MODEL_STATIC, NAD_VERSION, NOD_VERSION, NadOptions, NodOptions,
};

/// Recognises a NOD v7 or a NAD v3 by its bytes; `None` for anything else.
///
/// Both formats have weak signatures (a version number), so this is strict: a NOD must satisfy
/// the exact-size rule, have at most 64 bones, a root bone 0 and group counts that add up to the
/// header's; a NAD must walk cleanly (plausible bone numbers and track types) to a tag list that
/// ends exactly at the end of the file. Nothing is allocated.
pub fn detect(bytes: &[u8]) -> Option<Detected> {
    if detect_nod(bytes) {
        return Some(Detected::new(FORMAT, NOD_VERSION, Content::Model));
    }
    peek_nad(bytes).map(|_| Detected::new(NAD_FORMAT, NAD_VERSION, Content::Animation))
}

fn detect_nod(bytes: &[u8]) -> bool {
    let Some(counts) = peek_counts(bytes) else { return false };
    let layout = counts.layout();
    if layout.end != bytes.len() as u64 || usize::from(counts.bones) > MAX_BONES {
        return false;
    }
    let at = |offset: u64| usize::try_from(offset).ok();
    let i16_at = |offset: u64| {
        at(offset).and_then(|o| bytes.get(o..o + 2)).and_then(|b| b.try_into().ok()).map(i16::from_le_bytes)
    };
    if counts.bones > 0 && i16_at(layout.bones + 64) != Some(-1) {
        return false;
    }
    let (mut vertices, mut faces) = (0u64, 0u64);
    for g in 0..u64::from(counts.groups) {
        let base = layout.groups + nod::GROUP_SIZE * g;
        let u16_at = |o: u64| {
            at(base + o).and_then(|o| bytes.get(o..o + 2)).and_then(|b| b.try_into().ok()).map(u16::from_le_bytes)
        };
        let (Some(f), Some(v)) = (u16_at(16), u16_at(18)) else { return false };
        faces += u64::from(f);
        vertices += u64::from(v);
    }
    vertices == u64::from(counts.vertices) && faces == u64::from(counts.faces)
}

/// True if the file starts with the NAD version (3) rather than the NOD version: such a file is
/// read (and its errors reported) as a NAD.
pub fn is_nad(bytes: &[u8]) -> bool {
    bytes.get(..4).and_then(|b| b.try_into().ok()).map(u32::from_le_bytes) == Some(NAD_VERSION)
}

/// Parses a NOD and picks the readings of its open layout questions.
pub fn read_nod(bytes: &[u8], options: &NodOptions) -> Result<(NodFile, NodChoices), ReadError> {
    let file = parse_nod(bytes)?;
    let choices = decide_nod(&file, options)?;
    Ok((file, choices))
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
    let (file, choices) = read_nod(bytes, &NodOptions::default())?;
    Ok(nod_info(&file, &choices))
}

/// `relic info` for a parsed NOD.
pub fn nod_info(file: &NodFile, choices: &NodChoices) -> Info {
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
pub fn nad_info(nad: &NadFile, options: &NadOptions) -> Info {
    let choices = decide_nad(nad, options);
    let report = curve_report(nad);
    let kind = |t: u32| nad.tracks.iter().filter(|x| x.track_type == t).count();
    let mut info = Info::new(crate::NAD_FORMAT, nad.version);
    info.count("tracks", nad.tracks.len())
        .count("keys", nad.key_count())
        .count("tags", nad.tags.len())
        .number("duration_frames", f64::from(nad.duration))
        .text("flags", format!("{:#x}", nad.flags))
        .count("rotation_tracks", kind(nad::TRACK_ROTATION))
        .count("translation_tracks", kind(nad::TRACK_TRANSLATION))
        .count("scale_tracks", kind(nad::TRACK_SCALE))
        .number("segment_end_gap", report.end_gap[0])
        .number("frame_scale_error", report.frame_scale_error)
        .text("last_key_frame_scale", format!("+inf on {} of {} tracks", report.infinite_last, report.tracks_with_keys))
        .number("max_abs_angle", report.max_angle)
        .text("polynomial", choices.polynomial.to_string())
        .text("euler_order", format!("{} (option; needs a known pose to settle)", choices.euler_order))
        .text("angle_unit", format!("{} (option; largest angle {:.1})", choices.angle_unit, report.max_angle));
    info
}

/// Parses a NOD and maps it to the common model, with every open question decided per file.
/// A NAD is refused: it needs its NOD ([`read_animation`]).
pub fn read_model(bytes: &[u8]) -> Result<Model, ReadError> {
    read_model_with(bytes, &NodOptions::default())
}

/// [`read_model`] with explicit readings.
pub fn read_model_with(bytes: &[u8], options: &NodOptions) -> Result<Model, ReadError> {
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
    let (file, choices) = read_nod(bytes, options)?;
    Ok(to_ir::model_from_nod(&file, &choices))
}

/// Writes the model as a NOD v7 (with the readings it was read with, else the defaults).
pub fn write_model(model: &Model, options: &WriteOptions) -> Result<Converted<Vec<u8>>, WriteError> {
    write_model_with(model, options, &NodOptions::default())
}

/// [`write_model`] with explicit readings (`Choice::Auto`: the model's own, else the default).
pub fn write_model_with(
    model: &Model,
    options: &WriteOptions,
    nod: &NodOptions,
) -> Result<Converted<Vec<u8>>, WriteError> {
    if let Some(v) = options.version
        && v != NOD_VERSION
    {
        return Err(WriteError::Unsupported(format!(
            "NOD version {v} cannot be written; relic-nod writes version {NOD_VERSION}"
        )));
    }
    let Converted { value, losses } = nod_from_model(model, nod)?;
    Ok(Converted { value: value.to_bytes()?, losses })
}

/// Maps a NAD to an animation on the model's skeleton (bone numbers are indices into
/// `model.bones`, as in the NOD the model was read from).
pub fn read_animation(
    model: &Model,
    nad_bytes: &[u8],
    name: &str,
    options: &NadOptions,
) -> Result<Animation, ReadError> {
    let nad = parse_nad(nad_bytes)?;
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
    let (needed, budget) = crate::anim::rotation_key_budget(animation);
    if needed > budget {
        return Err(WriteError::Unsupported(format!(
            "animation {animation_index} {:?}: its rotations need {needed} Euler keys at 30 frames per second, \
             more than a NAD may hold ({budget}); the keys span too long a time",
            animation.name
        )));
    }
    let Converted { value, losses: more } = nad_from_animation(animation, &map, options);
    losses.extend(more);
    // Never write a NAD that `read_animation` refuses: keys closer together than a frame scale
    // (1 / gap, f32) can express, or cubic factors that overflow, are refused here instead.
    if let Err(e) = crate::anim::check_for_model(&value, map.from_nod.len()) {
        return Err(WriteError::Unsupported(format!(
            "animation {animation_index} {:?} cannot be written as a NAD that reads back: {e}",
            animation.name
        )));
    }
    Ok(Converted { value: value.to_bytes()?, losses })
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
