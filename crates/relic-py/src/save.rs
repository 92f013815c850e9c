//! Writing: `Model.save` and `relic.convert`, with what they return (`relic.Saved`).
//!
//! Both go through the command's own library (`relic_cli`): the same conversion, the same notes,
//! the same atomic writes. The work runs without the GIL, so conversions on several Python
//! threads run in parallel.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use pyo3::prelude::*;
use relic::{ConvertOptions, Target};
use relic_cli::output::OutputPolicy;

use crate::errors;
use crate::images::Assigned;
use crate::options::Search;
use crate::report::{Note, Saved};

/// What `Model.save` writes: the model, the images assigned to it, and the files it was read from
/// (never written over).
pub(crate) struct SaveRequest {
    pub(crate) model: relic::Model,
    pub(crate) assigned: Assigned,
    pub(crate) protected: Vec<PathBuf>,
    pub(crate) data_root: Option<PathBuf>,
}

/// `Model.save`.
pub(crate) fn save(
    py: Python<'_>,
    request: SaveRequest,
    path: &Path,
    format: Option<&str>,
    version: Option<u32>,
    strict: bool,
) -> PyResult<Saved> {
    let target = match format {
        Some(name) => Target::from_name(name).ok_or_else(|| {
            let all: Vec<&str> = relic::Registry::builtin().models().map(|f| f.name).collect();
            errors::usage(
                py,
                format!("format {name:?}: not a format relic writes models in; one of {}", all.join(", ")),
            )
        })?,
        None => Target::for_path(path).map_err(|e| errors::relic_error(py, e))?,
    };
    relic_cli::check_version(target, version).map_err(|e| errors::cli_error(py, e))?;
    let SaveRequest { model: ir, assigned, protected, data_root } = request;
    let mut policy = OutputPolicy { force: true, ..OutputPolicy::default() };
    for file in &protected {
        policy.protect(file);
    }
    let options = ConvertOptions {
        version,
        lod0_only: false,
        textures: Some(Arc::new(assigned.clone())),
        skins: relic::skins::SkinOptions { images: assigned.material_images(), data_root },
        listed: None,
    };
    let registry = relic::Registry::builtin();
    let converted = py.detach(|| registry.convert_compared(&ir, target, path, &options));
    let (outputs, comparison) = converted.map_err(|e| errors::relic_error(py, e))?;
    let comparison = relic_cli::convert::comparison_line(&ir, target, comparison.as_ref(), kind_of(&ir, target));
    if strict && !outputs.losses.is_empty() {
        let headline = format!("{}: not written: strict, and the target cannot hold everything", path.display());
        return Err(refusal(py, headline, &outputs.losses));
    }
    for (file, _) in &outputs.value {
        policy.check(file).map_err(|e| errors::output_error(py, e))?;
    }
    let written = py.detach(|| policy.write_all(&outputs.value)).map_err(|e| errors::output_error(py, e))?;
    Ok(Saved {
        files: outputs.value.iter().map(|(p, _)| p.display().to_string()).collect(),
        bytes: written,
        notes: Note::grouped(&outputs.losses),
        losses: Note::each(&outputs.losses),
        read_notes: Vec::new(),
        comparison,
    })
}

/// The kind a model came from, for the comparison line: its source format's entry (a model built
/// in Python counts as the target's own).
fn kind_of(model: &relic::Model, target: Target) -> relic::Kind {
    let registry = relic::Registry::builtin();
    let entry = model.source.and_then(|s| registry.by_name(s.format.as_str())).unwrap_or(target.entry());
    let source = model.source.unwrap_or(relic_core::model::SourceInfo {
        format: relic_core::FormatId::parse(target.entry().name).unwrap_or(relic_core::FormatId::new("glb")),
        version: 0,
    });
    relic::Kind { entry, detected: relic::Detected { source, content: relic::Content::Model } }
}

/// `relic.Unsupported` for a save `strict` refused: `headline`, then the notes' lines.
fn refusal(py: Python<'_>, headline: String, losses: &[relic_core::Loss]) -> PyErr {
    let notes = Note::grouped(losses);
    let lines: Vec<String> = notes.iter().map(|n| format!("\n  note: {}", n.text())).collect();
    let message = format!("{headline}{}", lines.concat());
    let notes = pyo3::types::PyList::new(py, notes).map(|l| l.into_any().unbind()).unwrap_or_else(|_| py.None());
    errors::strict_refusal(py, message, notes)
}

/// The options of `relic.convert`, as the command takes them.
#[derive(Debug)]
pub(crate) struct ConvertRequest {
    pub(crate) src: PathBuf,
    pub(crate) dst: PathBuf,
    pub(crate) anims: Vec<PathBuf>,
    pub(crate) version: Option<u32>,
    pub(crate) lod0: bool,
    pub(crate) search: Search,
    pub(crate) no_textures: bool,
    pub(crate) force: bool,
    pub(crate) strict: bool,
    pub(crate) encoding: relic_cli::cli::Encoding,
    pub(crate) mips: Option<u32>,
    /// The listfile and data folders a chunked M2's FileDataIDs are resolved through.
    pub(crate) listed: Option<relic::Listed>,
}

/// `relic.convert`: `relic convert` with its every option.
pub(crate) fn convert(py: Python<'_>, request: ConvertRequest) -> PyResult<Saved> {
    if let Some(target) = relic::TextureTarget::for_path(&request.dst) {
        return convert_texture(py, &request, target);
    }
    let target = Target::for_path(&request.dst).map_err(|e| errors::relic_error(py, e))?;
    relic_cli::check_version(target, request.version).map_err(|e| errors::cli_error(py, e))?;
    let conversion = py.detach(|| {
        let textures = relic::textures::GameTextures::new(&request.src, request.search.texture_search());
        let images =
            if request.no_textures { Vec::new() } else { relic_cli::convert::gltf_images(&request.src, target) };
        let options = ConvertOptions {
            version: request.version,
            lod0_only: request.lod0,
            textures: Some(Arc::new(textures)),
            skins: relic::skins::SkinOptions { images, data_root: request.search.data.first().cloned() },
            listed: request.listed.clone(),
        };
        relic_cli::convert::convert_model(
            &request.src,
            &request.dst,
            &request.anims,
            &options,
            request.force,
            request.strict,
        )
    });
    let conversion = conversion.map_err(|e| errors::cli_error(py, e))?;
    if !conversion.written {
        let mut losses = conversion.read_notes.clone();
        losses.extend(conversion.losses.iter().cloned());
        return Err(refusal(py, conversion.refusal(), &losses));
    }
    Ok(Saved {
        files: conversion.files.iter().map(|p| p.display().to_string()).collect(),
        bytes: conversion.bytes,
        notes: Note::grouped(&conversion.losses),
        losses: Note::each(&conversion.losses),
        read_notes: Note::each(&conversion.read_notes),
        comparison: conversion.comparison,
    })
}

fn convert_texture(py: Python<'_>, request: &ConvertRequest, target: relic::TextureTarget) -> PyResult<Saved> {
    if !request.anims.is_empty() {
        return Err(errors::usage(py, "anims apply to models, not textures"));
    }
    let options = relic_cli::convert::texture_options_for(target, request.version, request.encoding)
        .map_err(|e| errors::cli_error(py, e))?;
    if let (relic::TextureTarget::Png, Some(m)) = (target, request.mips) {
        return Err(errors::usage(py, format!("mips={m}: PNG outputs hold one level")));
    }
    let options = relic_core::texture::TextureOptions { mips: request.mips, ..options };
    let conversion = py.detach(|| {
        relic_cli::convert::convert_texture_file(
            &request.src,
            &request.dst,
            target,
            &options,
            request.force,
            request.strict,
        )
    });
    let conversion = conversion.map_err(|e| errors::cli_error(py, e))?;
    if !conversion.written {
        let headline = format!("{}: not written: strict, and the notes say what was lost", request.dst.display());
        return Err(refusal(py, headline, &conversion.losses));
    }
    Ok(Saved {
        files: vec![request.dst.display().to_string()],
        bytes: conversion.bytes,
        notes: Note::grouped(&conversion.losses),
        losses: Note::each(&conversion.losses),
        read_notes: Vec::new(),
        comparison: None,
    })
}
