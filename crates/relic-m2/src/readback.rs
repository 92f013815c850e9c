//! What a writer gives for a model whose M2 records came as text (through glTF, where an editor
//! may have changed any of them): files the reader takes, or a refusal — never files its reader
//! refuses.
//!
//! The reader is the judge: the files are read back. When it refuses them, each emitter whose
//! record came as text is tried alone in the model built without the extras; one the reader
//! refuses there is dropped, with a loss naming it and the reader's complaint, and the files are
//! built again. If they still do not read, they are built from the model alone (the extras do not
//! fit it: a loss); if even those do not read, the write is refused with the reader's words.

use std::borrow::Cow;

use relic_core::model::{Emitter, Model};
use relic_core::{Converted, Loss, ReadError, WriteError};

use crate::extras::EmitterRecord;

/// The files `build` gives for `model`, checked by `reads` when a record came as text.
/// `build(model, with_extras)` builds them from the model and its extras, or from the model alone.
pub(crate) fn checked<T>(
    model: &Model,
    build: impl Fn(&Model, bool) -> Result<Converted<T>, WriteError>,
    reads: impl Fn(&T) -> Result<(), ReadError>,
) -> Result<Converted<T>, WriteError> {
    let first = build(model, true)?;
    if !as_text(model) {
        return Ok(first);
    }
    let Err(mut refusal) = reads(&first.value) else { return Ok(first) };
    let (model, mut losses) = without_refused_emitters(model, &build, &reads)?;
    if !losses.is_empty() {
        let again = build(&model, true)?;
        match reads(&again.value) {
            Ok(()) => return Ok(after(losses, again)),
            Err(e) => refusal = e,
        }
    }
    let alone = build(&model, false)?;
    if let Err(e) = reads(&alone.value) {
        return Err(WriteError::Unsupported(format!(
            "the model's M2 records make files the M2 reader refuses, even without its extras ({e})"
        )));
    }
    let why = format!("the M2 extras do not fit the model ({refusal}): the files were rebuilt from the model alone");
    losses.push(Loss::new("extras", why));
    Ok(after(losses, alone))
}

/// `converted` with `losses` before its own.
fn after<T>(mut losses: Vec<Loss>, converted: Converted<T>) -> Converted<T> {
    losses.extend(converted.losses);
    Converted { value: converted.value, losses }
}

/// True if an M2 record of the model came as text: its extras or an emitter's.
fn as_text(model: &Model) -> bool {
    crate::carried::as_text(model) || model.emitters.iter().any(|e| emitter_as_text(e.record.as_ref()))
}

/// True if an emitter's record is an M2 one held as text.
fn emitter_as_text(record: Option<&relic_core::model::FormatExtras>) -> bool {
    record.is_some_and(|r| r.format() == crate::FORMAT && r.get::<EmitterRecord>().is_none())
}

/// The model without the emitters whose text record the reader refuses when each is written alone
/// (in the model built without its extras, which reads back without emitters), and a loss for each.
fn without_refused_emitters<'m, T>(
    model: &'m Model,
    build: &impl Fn(&Model, bool) -> Result<Converted<T>, WriteError>,
    reads: &impl Fn(&T) -> Result<(), ReadError>,
) -> Result<(Cow<'m, Model>, Vec<Loss>), WriteError> {
    let suspects: Vec<(usize, &Emitter)> =
        model.emitters.iter().enumerate().filter(|(_, e)| emitter_as_text(e.record.as_ref())).collect();
    if suspects.is_empty() {
        return Ok((Cow::Borrowed(model), Vec::new()));
    }
    let mut bare = model.clone();
    bare.emitters.clear();
    bare.extras = None;
    if reads(&build(&bare, false)?.value).is_err() {
        // The model alone is refused: no emitter is to blame.
        return Ok((Cow::Borrowed(model), Vec::new()));
    }
    let mut refused = Vec::new();
    for (i, emitter) in suspects {
        bare.emitters = vec![emitter.clone()];
        if let Err(e) = reads(&build(&bare, false)?.value) {
            let element = format!("emitters[{i}] {:?}", emitter.name);
            refused
                .push((i, Loss::new(element, format!("its M2 record makes a file the reader refuses ({e}): dropped"))));
        }
    }
    if refused.is_empty() {
        return Ok((Cow::Borrowed(model), Vec::new()));
    }
    let mut kept = model.clone();
    kept.emitters = model
        .emitters
        .iter()
        .enumerate()
        .filter(|(i, _)| !refused.iter().any(|(r, _)| r == i))
        .map(|(_, e)| e.clone())
        .collect();
    Ok((Cow::Owned(kept), refused.into_iter().map(|(_, loss)| loss).collect()))
}
