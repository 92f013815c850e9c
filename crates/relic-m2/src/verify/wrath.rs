//! The corpus checks of a Wrath-or-later model (264, 272; chunked 272, 274) with its `.skin` and
//! `.anim` files.
//!
//! | check | what |
//! |---|---|
//! | `parse` | the model, every `.skin` it names and every `.anim` it needs read |
//! | `rewrite` | the `.m2`, each `.skin` and each `.anim` written back byte for byte |
//! | `ir-round-trip` | format → model → format gives the same files byte for byte |
//! | `rebuild` | the model without its extras writes a Wrath file that reads back with the same meshes, bones and animations |
//! | `quaternions`, `sequence-boxes` | as for 256–263, on the model's 256–263 form |

use relic_core::check::Checks;
use relic_core::format::{Input, SiblingFile};
use relic_core::{Model, WriteOptions};

use crate::wrath::{self, SiblingBytes, Wrath};

/// Runs every format-level check on one Wrath-or-later model.
pub fn corpus_checks(input: &Input<'_>) -> Checks {
    let mut checks = Checks::new();
    let Some(w) = checks.parsed(wrath::read(input), |w| {
        let f = &w.file;
        format!(
            "v{}, {} bones, {} vertices, {} skins, {} sequences ({} aliases, {} .anim files), {} particles",
            f.version,
            f.bones.len(),
            f.vertices.len(),
            w.skins.len(),
            f.sequences.len(),
            f.sequences.iter().filter(|s| s.is_alias()).count(),
            w.anim_files.len(),
            f.particle_emitters.len()
        )
    }) else {
        return checks;
    };
    checks.run("rewrite", || {
        let (bytes, siblings) = wrath::write(&w).map_err(|e| e.to_string())?;
        same_files(input, &bytes, &siblings)
    });
    let model = crate::wrath_to_ir(w.clone()).map(|c| c.value).map_err(|e| e.to_string());
    model_proofs(&mut checks, input, &model, &w);
    checks
}

/// Runs every format-level check on one chunked model (`MD21`): as for a Wrath-or-later one, the
/// `.m2` read and written in its chunks.
pub fn md21_corpus_checks(input: &Input<'_>) -> Checks {
    let mut checks = Checks::new();
    let Some(m) = checks.parsed(crate::md21::read(input), |m| {
        let f = &m.model.file;
        let chunks: Vec<String> = m.chunks.iter().map(crate::md21::Chunk::tag_text).collect();
        format!(
            "MD21 [{}] v{}, {} bones, {} vertices, {} skins, {} sequences ({} aliases, {} .anim files), {} particles; {} notes",
            chunks.join(", "),
            f.version,
            f.bones.len(),
            f.vertices.len(),
            m.model.skins.len(),
            f.sequences.len(),
            f.sequences.iter().filter(|s| s.is_alias()).count(),
            m.model.anim_files.len(),
            f.particle_emitters.len(),
            m.notes.len()
        )
    }) else {
        return checks;
    };
    checks.run("rewrite", || {
        let (bytes, siblings) = crate::md21::write(&m).map_err(|e| e.to_string())?;
        same_files(input, &bytes, &siblings)
    });
    let w = m.model.clone();
    let model = crate::md21_to_ir(m).map(|c| c.value).map_err(|e| e.to_string());
    model_proofs(&mut checks, input, &model, &w);
    checks
}

/// The written files against the originals beside the input.
/// The checks of a Wrath-or-later model once it is read (plain or chunked): the model written
/// back, rebuilt without its records, and the proofs on its 256–263 form.
fn model_proofs(checks: &mut Checks, input: &Input<'_>, model: &Result<Model, String>, w: &Wrath) {
    checks.run("ir-round-trip", || {
        let out = crate::write_files(model.as_ref()?, &WriteOptions::default()).map_err(|e| e.to_string())?;
        same_files(input, &out.value.bytes, &out.value.siblings)
    });
    checks.run("rebuild", || rebuild(model.as_ref()?, w.file.version, input.stem()));
    let flat = crate::wrath::convert::to_classic(w).map(|(f, _)| f).map_err(|e| e.to_string());
    checks.run("quaternions", || super::quaternions(flat.as_ref()?));
    checks.run("sequence-boxes", || super::boxes_judged(flat.as_ref()?, model.as_ref()?));
}

fn same_files(input: &Input<'_>, model: &[u8], siblings: &[SiblingFile]) -> Result<String, String> {
    if model != input.bytes {
        let at = model.iter().zip(input.bytes).position(|(a, b)| a != b).unwrap_or(model.len().min(input.bytes.len()));
        return Err(format!("the .m2 differs from byte {at:#x} ({} → {} bytes)", input.bytes.len(), model.len()));
    }
    let mut bytes = model.len();
    for s in siblings {
        let name = format!("{}{}", input.stem(), s.suffix);
        let original =
            input.siblings.read(&name).map_err(|e| e.to_string())?.ok_or(format!("{name} was written but not read"))?;
        if original != s.bytes {
            return Err(format!("{name} differs ({} → {} bytes)", original.len(), s.bytes.len()));
        }
        bytes += s.bytes.len();
    }
    Ok(format!("byte-identical: .m2 and {} files beside it, {bytes} bytes", siblings.len()))
}

/// The model without its extras, written at `version` and read back.
fn rebuild(model: &Model, version: u32, stem: &str) -> Result<String, String> {
    let mut model = model.clone();
    model.extras = None;
    let out = crate::write_files(&model, &WriteOptions { version: Some(version) }).map_err(|e| e.to_string())?;
    let files: Vec<(String, Vec<u8>)> =
        out.value.siblings.iter().map(|s| (format!("{stem}{}", s.suffix), s.bytes.clone())).collect();
    let siblings = SiblingBytes(files);
    let name = format!("{stem}.m2");
    let input = Input { bytes: &out.value.bytes, name: &name, siblings: &siblings };
    let back = crate::read_input(&input).map_err(|e| format!("the rebuilt file does not read: {e}"))?.value;
    if back.meshes != model.meshes {
        return Err("meshes differ after a rebuild from the model".into());
    }
    if back.bones.len() != model.bones.len() || back.animations.len() != model.animations.len() {
        return Err("bone or animation counts differ after a rebuild".into());
    }
    // A timeline the file leaves empty means "the bind value" (§3.1): the model has no channel
    // there, and a rebuild may key the bind value instead. Every channel must still be there.
    let (mut kept, mut added) = (0usize, 0usize);
    for (i, (a, b)) in model.animations.iter().zip(&back.animations).enumerate() {
        let kinds = |c: &relic_core::model::Channel| (c.bone, std::mem::discriminant(&c.values));
        for c in &a.channels {
            if !b.channels.iter().any(|d| kinds(d) == kinds(c)) {
                return Err(format!("animation {i} {:?} lost its channel of bone {} in a rebuild", a.name, c.bone));
            }
        }
        kept += a.channels.len();
        added += b.channels.len().saturating_sub(a.channels.len());
    }
    Ok(format!(
        "{} bytes and {} files without extras, {} losses; {kept} channels kept, {added} bind-value channels keyed where the file has none",
        out.value.bytes.len(),
        out.value.siblings.len(),
        out.losses.len()
    ))
}

/// The Wrath model of a file, for callers that hold one already.
pub fn model_of(w: &Wrath) -> Result<Model, String> {
    crate::wrath_to_ir(w.clone()).map(|c| c.value).map_err(|e| e.to_string())
}
