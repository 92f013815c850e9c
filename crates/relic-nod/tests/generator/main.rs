//! Generated files (issue 17): random valid NOD v7 and NAD v3 files, built by this test's own byte
//! builder from the spec, go through read → write → read (byte-identical) and the round trip
//! through the common model (the same bytes back with no losses while nothing changed; rebuilt
//! from the model alone, they read back equal).
//!
//! 1 000 cases per format by default; set `RELIC_GENERATOR_CASES=N` for more. A failure names the
//! case and its seed, so `RELIC_GENERATOR_SEED=<seed> RELIC_GENERATOR_CASES=1` replays it.

// Test code: a failed unwrap or index is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod bytes;
mod nad;
mod nod;

use relic_core::model::FormatExtras;
use relic_core::{Model, WriteOptions};
use relic_nod::decide::decide_nod;
use relic_nod::options::{Choice, NadOptions, NodOptions, Polynomial, RestTranslateSpace};
use relic_testkit::Rng;

fn cases() -> u64 {
    std::env::var("RELIC_GENERATOR_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(1000)
}

fn first_seed(default: u64) -> u64 {
    std::env::var("RELIC_GENERATOR_SEED").ok().and_then(|n| n.parse().ok()).unwrap_or(default)
}

/// Runs `check` on `cases()` seeds from `first`, collecting failures with their seed.
fn run(first: u64, check: impl Fn(u64) -> Result<(), String>) {
    let n = cases();
    let failures: Vec<String> =
        (first..first + n).filter_map(|seed| check(seed).err().map(|e| format!("seed {seed}: {e}"))).collect();
    println!("{n} cases, {} failures", failures.len());
    assert!(failures.is_empty(), "{} of {n} cases failed:\n{}", failures.len(), failures.join("\n"));
}

/// The readings a file was read with, fixed, for rebuilding it without its extras.
fn fixed(bytes: &[u8]) -> Result<NodOptions, String> {
    let file = relic_nod::read(bytes).map_err(|e| e.to_string())?;
    let c = decide_nod(&file, &NodOptions::default()).map_err(|e| e.to_string())?;
    Ok(NodOptions {
        matrix_layout: Choice::Fixed(c.matrix_layout.value),
        group_tail: Choice::Fixed(c.group_tail.value),
        rest_translate: Choice::Fixed(c.rest_translate.value),
        winding: Choice::Fixed(c.winding.value),
        uv_origin: c.uv_origin,
    })
}

fn without_extras(model: &Model) -> Model {
    Model { extras: None, ..model.clone() }
}

/// Every property for one NOD.
fn nod_round_trips(bytes: &[u8]) -> Result<(), String> {
    let file = relic_nod::read(bytes).map_err(|x| format!("read: {x}"))?;
    let out = relic_nod::write(&file).map_err(|x| format!("write: {x}"))?;
    if out != bytes {
        return Err("read → write changes the bytes".into());
    }
    if relic_nod::read(&out).map_err(|x| format!("read again: {x}"))? != file {
        return Err("read → write → read differs".into());
    }
    if relic_nod::detect(bytes).map(|d| d.source.format) != Some(relic_nod::FORMAT) {
        return Err("detect does not recognise it".into());
    }
    relic_nod::info(bytes).map_err(|x| format!("info: {x}"))?;
    let model = relic_nod::read_model(bytes).map_err(|x| format!("read_model: {x}"))?;
    model.validate().map_err(|x| format!("the model is invalid: {x}"))?;
    let back = relic_nod::write_model(&model, &WriteOptions::default()).map_err(|x| format!("write_model: {x}"))?;
    if !back.losses.is_empty() {
        let losses: Vec<String> = back.losses.iter().map(ToString::to_string).collect();
        return Err(format!("NOD → model → NOD reports losses: {}", losses.join("; ")));
    }
    if back.value != bytes {
        let at = back.value.iter().zip(bytes).position(|(a, b)| a != b).unwrap_or(bytes.len().min(back.value.len()));
        return Err(format!("NOD → model → NOD differs at byte {at:#x}"));
    }
    // The extras through JSON (as glTF carries them) give the same bytes.
    let json = model.extras.as_ref().and_then(|x| x.json()).ok_or("extras without JSON")?;
    let through_json = Model { extras: Some(FormatExtras::from_json(relic_nod::FORMAT, json)), ..model.clone() };
    let again = relic_nod::write_model(&through_json, &WriteOptions::default()).map_err(|x| x.to_string())?;
    if again.value != bytes || !again.losses.is_empty() {
        return Err("NOD → model → JSON extras → NOD differs".into());
    }
    // Without extras, with the same readings: a NOD that reads back as the same model.
    let options = fixed(bytes)?;
    let bare = without_extras(&model);
    let rebuilt = relic_nod::write_model_with(&bare, &WriteOptions::default(), &options)
        .map_err(|x| format!("write_model without extras: {x}"))?;
    let reread = relic_nod::read_model_with(&rebuilt.value, &options).map_err(|x| format!("rebuilt NOD: {x}"))?;
    let mut reread = without_extras(&reread);
    // A model-space RestTranslate is a product of float matrices: the writer finds the f32
    // triple that reads back exactly when there is one; where f32 has too few bits for that,
    // the nearest (a few units in the last place). Everything else comes back exactly.
    if options.rest_translate == Choice::Fixed(RestTranslateSpace::Model) {
        let tolerance = 8.0 * f32::EPSILON * (1.0 + extent(&bare));
        for (a, b) in reread.bones.iter_mut().zip(&bare.bones) {
            let gap = a.rest.translation.iter().zip(&b.rest.translation).fold(0.0f32, |m, (x, y)| m.max((x - y).abs()));
            if gap > tolerance {
                return Err(format!("model space: {:?} read back as {:?}", b.rest.translation, a.rest.translation));
            }
            a.rest.translation = b.rest.translation;
        }
    }
    if reread != bare {
        let diff = relic_nod::verify::model_difference(&bare, &reread);
        return Err(format!("rebuilt without extras, the model differs: {diff}"));
    }
    Ok(())
}

/// The largest coordinate of a bone origin (for a scale-aware tolerance).
fn extent(model: &Model) -> f32 {
    let origins = model.bones.iter().flat_map(|b| [b.bind_matrix[12], b.bind_matrix[13], b.bind_matrix[14]]);
    origins.fold(0.0, |m, c| m.max(c.abs()))
}

#[test]
fn generated_nods_round_trip() {
    run(first_seed(0x0D_0000), |seed| {
        let case = nod::nod(&mut Rng::new(seed));
        nod_round_trips(&case.bytes).map_err(|e| format!("{} — {e}", case.what))
    });
}

/// The 64-bone skeleton most NADs are read onto.
fn skeleton64() -> Model {
    let bytes = std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/nod/bones64.nod"));
    relic_nod::read_model(&bytes.unwrap()).unwrap()
}

/// Every property for one NAD on `skeleton`.
fn nad_round_trips(bytes: &[u8], skeleton: &Model) -> Result<(), String> {
    let file = relic_nod::read_nad(bytes).map_err(|x| format!("read_nad: {x}"))?;
    let out = relic_nod::write_nad(&file).map_err(|x| format!("write_nad: {x}"))?;
    if out != bytes || relic_nod::read_nad(&out).map_err(|x| x.to_string())? != file {
        return Err("read_nad → write_nad → read_nad changes the file".into());
    }
    if relic_nod::detect(bytes).map(|d| d.source.format) != Some(relic_nod::NAD_FORMAT) {
        return Err("detect does not recognise it".into());
    }
    relic_nod::info(bytes).map_err(|x| format!("info: {x}"))?;
    let options = NadOptions::default();
    let mut model = skeleton.clone();
    let index =
        relic_nod::attach_animation(&mut model, bytes, "clip", &options).map_err(|x| format!("read_animation: {x}"))?;
    model.validate().map_err(|x| format!("the animated model is invalid: {x}"))?;
    let back = relic_nod::write_animation(&model, index, &options).map_err(|x| format!("write_animation: {x}"))?;
    if back.value != bytes || !back.losses.is_empty() {
        return Err(format!("NAD → model → NAD differs or reports losses {:?}", back.losses));
    }
    // Without the kept bytes: rebuilt from the animation alone, it reads back as the same motion.
    let bare = without_extras(&model);
    let rebuilt = relic_nod::write_animation(&bare, index, &options).map_err(|x| format!("rebuilt NAD: {x}"))?;
    // Read with the polynomial the writer used (P1): the per-file decision looks at slope jumps,
    // which arbitrary cubics need not avoid.
    let written_as = NadOptions { polynomial: Choice::Fixed(Polynomial::Ascending), ..options };
    let again = relic_nod::read_animation(&bare, &rebuilt.value, "clip", &written_as)
        .map_err(|x| format!("the rebuilt NAD does not read: {x}"))?;
    let gap = relic_nod::verify::animation_gap(&bare.animations[index], &again);
    if gap.is_nan() || gap > 1e-3 {
        return Err(format!("rebuilt without the kept bytes, the animation moves differently (gap {gap:.2e})"));
    }
    // Edited (one more tag), with the kept bytes: rebuilt, and what the model has no place for
    // (the header flags) comes from them.
    let mut edited = model.clone();
    let tag =
        relic_core::model::Event { name: "Fire".into(), time: 0.0, bone: None, position: None, parameter: Some(4) };
    edited.animations[index].events.push(tag);
    let out = relic_nod::write_animation(&edited, index, &options).map_err(|x| format!("edited NAD: {x}"))?;
    let again = relic_nod::read_nad(&out.value).map_err(|x| format!("the edited NAD does not read: {x}"))?;
    if again.flags != file.flags || again.tags.len() != file.tags.len() + 1 {
        return Err(format!(
            "edited: flags {:#x} (were {:#x}), {} tags (were {})",
            again.flags,
            file.flags,
            again.tags.len(),
            file.tags.len()
        ));
    }
    Ok(())
}

#[test]
fn generated_nads_round_trip() {
    let skeleton = skeleton64();
    run(first_seed(0x0AD_0000), |seed| {
        let mut rng = Rng::new(seed);
        // Now and then onto a generated NOD's own skeleton.
        let own = if rng.chance(0.2) {
            let case = nod::nod(&mut rng);
            (case.bones > 0).then(|| relic_nod::read_model(&case.bytes).ok()).flatten()
        } else {
            None
        };
        let target = own.as_ref().unwrap_or(&skeleton);
        let case = nad::nad(&mut rng, target.bones.len());
        nad_round_trips(&case.bytes, target).map_err(|e| format!("{} on {} bones — {e}", case.what, target.bones.len()))
    });
}
