//! The checks `cargo xtask corpus` runs on each M2 file.
//!
//! | check | what |
//! |---|---|
//! | `parse` | the file reads (versions 264+, `MD21`, `.skin`, MDX are refused with the reason) |
//! | `rewrite` | write(read(bytes)) is byte-identical, in Blizzard's layout or any other (the writer keeps the layout a file was read with) |
//! | `ir-round-trip` | format → model → format is byte-identical |
//! | `rebuild` | the model without its extras writes a file that reads back with the same meshes, bones and animations |
//! | `ranges` | every track's ranges lie within its keys (enforced by the reader; counted here) |
//! | `quaternions` | every rotation key is unit length after decoding (worst deviation) |
//! | `sequence-boxes` | every sequence's stored box judged by the exporter's rule (`relic_anim::stated_boxes`: posed every 100 ms, no padding): each is the posed mesh's box, or not stored (all zero: then the header's box must be it, for a one-sequence model), or not a mesh box (it holds the mesh and reaches far beyond it: effects); none may contradict the pose, except in a converter's file (blocks sharing bytes: issue 39 class 1), whose boxes are the converter's and are listed with their figures, not judged (Frog.m2's Walk box lacks its own hop: bone 1 moves 1.67 along x, the box reaches 0.65) |

use relic_core::Model;
use relic_core::check::Checks;

use crate::file::{M2File, RotationTrack};

/// Largest deviation of a decoded rotation key from unit length that passes.
pub const UNIT_TOLERANCE: f32 = 1e-3;

pub mod pair;
pub mod wrath;

/// Runs every format-level check on one file, with the files beside it for 264 and 272.
pub fn corpus_checks_input(input: &relic_core::format::Input<'_>) -> Checks {
    let bytes = input.bytes;
    if bytes.starts_with(b"MD21") {
        return wrath::md21_corpus_checks(input);
    }
    let wrath = bytes.starts_with(b"MD20") && crate::detect(bytes).is_some_and(|d| d.source.version >= 264);
    if wrath && crate::wrath::refusal(crate::detect(bytes).map_or(0, |d| d.source.version)).is_none() {
        return wrath::corpus_checks(input);
    }
    corpus_checks(bytes)
}

/// Runs every format-level check on one file.
pub fn corpus_checks(bytes: &[u8]) -> Checks {
    let mut checks = Checks::new();
    let Some(file) = checks.parsed(crate::read(bytes), |file| {
        format!(
            "v{}, {} bones, {} vertices, {} views, {} sequences, {} particles, {} ribbons",
            file.version,
            file.bones.len(),
            file.vertices.len(),
            file.views.len(),
            file.sequences.len(),
            file.particle_emitters.len(),
            file.ribbon_emitters.len()
        )
    }) else {
        return checks;
    };
    checks.run("rewrite", || {
        let written = crate::write(&file).map_err(|e| e.to_string())?;
        same_or_equal(bytes, &written, &file)
    });
    let model = crate::to_ir(&file).map_err(|e| e.to_string());
    checks.run("ir-round-trip", || {
        let out = crate::write_model(model.as_ref()?, &Default::default()).map_err(|e| e.to_string())?;
        same_or_equal(bytes, &out.value, &file)
    });
    checks.run("rebuild", || rebuild(model.as_ref()?));
    checks.run("ranges", || Ok(ranges(&file)));
    checks.run("quaternions", || quaternions(&file));
    checks.run("sequence-boxes", || boxes(&file, model.as_ref()?));
    checks
}

/// Byte for byte, whatever the layout (the writer keeps the one the file was read with).
fn same_or_equal(original: &[u8], written: &[u8], file: &M2File) -> Result<String, String> {
    if written == original {
        return Ok(format!("byte-identical, {} bytes", written.len()));
    }
    let at = written.iter().zip(original).position(|(a, b)| a != b).unwrap_or(written.len().min(original.len()));
    let again = crate::read(written).map_err(|e| format!("the re-written file does not read: {e}"))?;
    let parses = if again == *file { "re-parses equal" } else { "re-parses differently" };
    Err(format!("re-written file differs from byte {at:#x} ({} → {} bytes; {parses})", original.len(), written.len()))
}

fn rebuild(model: &Model) -> Result<String, String> {
    let mut model = model.clone();
    model.extras = None;
    let out = crate::write_model(&model, &Default::default()).map_err(|e| e.to_string())?;
    let back = crate::read_model(&out.value).map_err(|e| format!("the rebuilt file does not read: {e}"))?;
    if back.meshes != model.meshes {
        return Err("meshes differ after a rebuild from the model".into());
    }
    if back.bones.len() != model.bones.len() || back.animations.len() != model.animations.len() {
        return Err("bone or animation counts differ after a rebuild".into());
    }
    let keys = |m: &relic_core::Model| m.animations.iter().map(|a| a.channels.len()).sum::<usize>();
    if keys(&back) != keys(&model) {
        return Err(format!("{} channels after a rebuild, {} before", keys(&back), keys(&model)));
    }
    Ok(format!("{} bytes without extras, {} losses", out.value.len(), out.losses.len()))
}

fn ranges(file: &M2File) -> String {
    let (mut tracks, mut ranges) = (0usize, 0usize);
    for b in file.bones.iter() {
        for r in [&b.translation.ranges[..], b.rotation.head().2, &b.scale.ranges[..]] {
            tracks += 1;
            ranges += r.len();
        }
    }
    for e in file.events.iter() {
        tracks += 1;
        ranges += e.times.ranges.len();
    }
    format!("{tracks} bone and event tracks, {ranges} ranges within their keys")
}

pub(crate) fn quaternions(file: &M2File) -> Result<String, String> {
    let mut worst = 0.0f32;
    let mut keys = 0usize;
    for b in file.bones.iter() {
        let values = b.rotation.float_values();
        let per_key = crate::file::values_per_key(b.rotation.head().0);
        for q in values.iter().step_by(per_key) {
            keys += 1;
            worst = worst.max((relic_core::math::quat_norm(*q) - 1.0).abs());
        }
    }
    let kind = match file.bones.first().map(|b| &b.rotation) {
        Some(RotationTrack::Compressed(_)) => "compressed",
        _ => "float",
    };
    let detail = format!("{keys} {kind} keys, worst |q| − 1 = {worst:.1e}");
    if worst <= UNIT_TOLERANCE { Ok(detail) } else { Err(format!("{detail} > {UNIT_TOLERANCE}")) }
}

/// Every sequence's stored box judged by the exporter's rule; a one-sequence model that stores
/// no sequence box has its header box judged instead.
pub(crate) fn boxes(file: &M2File, model: &Model) -> Result<String, String> {
    boxes_judged(file, model)
}

/// Largest distance, as a fraction of the stored box's diagonal, between a box and the posed mesh
/// for the box to count as "near the pose": Wrath's exports (whose exporter posed the mesh at
/// moments not known: GnomePounder's boxes lie up to 0.66 yards inside the pose in 7 of 11
/// sequences, Rabbit's up to 0.024 beyond it) and the Classic files converted from them, which copy
/// those boxes (GnomePounder-converted.m2).
pub const WRATH_BOX_FRACTION: f32 = 0.1;

/// What the boxes of one model were judged to be (counted for the check's line).
#[derive(Default)]
struct Tally {
    fits: usize,
    shown: Vec<String>,
    not_stored: usize,
    effects: usize,
    near: Vec<String>,
    inside: Vec<String>,
    /// Contradicting boxes of a file in a converter's layout (blocks sharing bytes).
    converter: Vec<String>,
    worst_over: f32,
    worst_under: f32,
    failures: Vec<String>,
}

/// [`boxes`]. Each sequence's box is, in this order: the posed mesh's ([`StatedBox::Fits`]); the
/// box of the meshes that sequence shows (`judge_shown`); not stored; not a mesh box (effects);
/// "near the pose" — within [`WRATH_BOX_FRACTION`] of its diagonal on both sides (Wrath's
/// exporter, and converters that copy its boxes); "inside the mesh" — overreaching nothing but covering
/// part of the pose only (UI_Draenei's glue scene boxes one corner of it); else it contradicts the
/// pose and fails. A model none of whose boxes is a mesh box has nothing to check.
pub(crate) fn boxes_judged(file: &M2File, model: &Model) -> Result<String, String> {
    use relic_anim::stated_boxes::{StatedBox, judge, judge_shown};
    let header = {
        let (a, b) = (
            crate::frame::WARCRAFT.vector_to_ir(file.bounding_box.min),
            crate::frame::WARCRAFT.vector_to_ir(file.bounding_box.max),
        );
        relic_core::model::Aabb {
            min: relic_core::math::zip3(a, b, f32::min),
            max: relic_core::math::zip3(a, b, f32::max),
        }
    };
    let mut t = Tally::default();
    // A converter's layout (blocks sharing bytes, which Blizzard's writer never does): its boxes
    // are the converter's, not the exporter's whose rule this check holds them to.
    let converter = file.as_read.recorded().is_some() && crate::validate::overlaps(file).0 > 0;
    let mut header_checked = false;
    let mut tighter = Vec::new();
    for (i, anim) in model.animations.iter().enumerate() {
        let Some(stored) = anim.bounds else { continue };
        let mut stated = stored;
        let mut verdict = judge(model, i, stored).map_err(|e| e.to_string())?;
        if verdict == Some(StatedBox::NotStored) {
            t.not_stored += 1;
            if model.animations.len() == 1 {
                header_checked = true;
                stated = header;
                verdict = judge(model, i, header).map_err(|e| e.to_string())?;
            }
        }
        match verdict {
            Some(StatedBox::Fits(f)) => {
                t.fits += 1;
                t.worst_over = t.worst_over.max(f.overreach);
                t.worst_under = t.worst_under.max(f.underreach);
            }
            Some(StatedBox::NotAMeshBox(_)) => t.effects += 1,
            Some(StatedBox::Contradicts(f)) => {
                if let Some((StatedBox::Fits(g), n)) = judge_shown(model, i, stated).map_err(|e| e.to_string())? {
                    t.shown.push(format!("{i} ({n} of its meshes)"));
                    t.worst_over = t.worst_over.max(g.overreach);
                    t.worst_under = t.worst_under.max(g.underreach);
                    continue;
                }
                let figures = format!("{i} (over {:.3}, under {:.3})", f.overreach, f.underreach);
                if f.overreach.max(f.underreach) <= WRATH_BOX_FRACTION * f.diagonal {
                    tighter.push(figures);
                } else if f.overreach <= f.overreach_tolerance() {
                    t.inside.push(figures);
                } else if converter {
                    t.converter.push(figures);
                } else {
                    t.failures.push(format!(
                        "sequence {i} {:?}: overreach {:.4} (tolerance {:.4}), underreach {:.4} (tolerance {:.4})",
                        anim.name,
                        f.overreach,
                        f.overreach_tolerance(),
                        f.underreach,
                        f.underreach_tolerance()
                    ));
                }
            }
            Some(StatedBox::NotStored) | None => {}
        }
    }
    t.near = tighter;
    describe(&t, header_checked)
}

fn describe(t: &Tally, header_checked: bool) -> Result<String, String> {
    let mut detail = format!(
        "{} mesh boxes (worst overreach {:.1e}, underreach {:.4}), {} not stored{}, {} not mesh boxes (reach far beyond the mesh: effects)",
        t.fits,
        t.worst_over,
        t.worst_under,
        t.not_stored,
        if header_checked { " (the header's box judged instead)" } else { "" },
        t.effects
    );
    let mut list = |what: &str, items: &[String]| {
        if !items.is_empty() {
            detail.push_str(&format!(", {} {what}: {}", items.len(), items.join(", ")));
        }
    };
    list("boxes of the meshes their sequence shows", &t.shown);
    list("near the pose but not by the Classic rule", &t.near);
    list("inside the posed mesh, boxing a part of it only", &t.inside);
    list("not judged: boxes of a converter's file (its blocks share bytes) that contradict the pose", &t.converter);
    if !t.failures.is_empty() {
        return Err(format!("{detail}; contradicts the pose: {}", t.failures.join("; ")));
    }
    if t.fits + t.shown.len() == 0 {
        return Ok(format!("nothing to check: no box is a mesh box ({detail})"));
    }
    Ok(detail)
}
