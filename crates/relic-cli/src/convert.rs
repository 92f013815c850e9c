//! `relic convert`: one model to another format.

use std::path::{Path, PathBuf};

use relic::{ConvertOptions, Target};
use relic_core::format::Textures;

use crate::cli::{ConvertArgs, Lods};
use crate::error::CliError;
use crate::output::OutputPolicy;

/// Notes about what the target cannot hold printed without `--verbose`.
const NOTES_SHOWN: usize = 10;

/// Runs `relic convert` (a model, or a texture when the output is `.png`, `.blp` or `.dtx`);
/// `Ok(false)` if the file failed.
pub fn run(args: &ConvertArgs) -> Result<bool, CliError> {
    if let Some(target) = relic::TextureTarget::for_path(&args.output) {
        return run_texture(args, target);
    }
    let target = Target::for_path(&args.output)?;
    crate::check_version(target, args.common.version)?;
    let textures = relic::textures::GameTextures::new(&args.input, args.common.texture_search());
    let options = ConvertOptions {
        version: args.common.version,
        lod0_only: args.common.lod == Lods::Zero,
        textures: Some(std::sync::Arc::new(textures)),
        skins: relic::skins::SkinOptions { images: Vec::new(), data_root: args.common.data.first().cloned() },
        listed: args.common.listed()?,
    };
    let mut options = options;
    options.skins.images = if args.common.no_textures { Vec::new() } else { gltf_images(&args.input, target) };
    run_convert(args, &options)
}

fn run_convert(args: &ConvertArgs, options: &ConvertOptions) -> Result<bool, CliError> {
    let (input_path, verbose, strict) = (args.input.as_path(), args.verbose, args.strict);
    let conversion = convert_model(input_path, &args.output, &args.animations, options, args.force, strict)?;
    for note in &conversion.read_notes {
        eprintln!("relic: note: {}: {note}", input_path.display());
    }
    let target = conversion.target;
    let lines = if verbose || strict {
        conversion.losses.iter().map(ToString::to_string).collect()
    } else {
        crate::notes::grouped(&conversion.losses)
    };
    for line in lines.iter().take(if verbose || strict { usize::MAX } else { NOTES_SHOWN }) {
        eprintln!("relic: note: {}: {line}", target.extension());
    }
    if !verbose && !strict && lines.len() > NOTES_SHOWN {
        eprintln!("relic: note: … and {} more (--verbose lists them all)", lines.len() - NOTES_SHOWN);
    }
    if !conversion.written {
        eprintln!("relic: {}", conversion.refusal());
        return Ok(false);
    }
    let names: Vec<String> = conversion.files.iter().map(|p| p.display().to_string()).collect();
    println!("wrote {} ({} bytes)", names.join(" + "), conversion.bytes);
    if let Some(line) = &conversion.comparison {
        eprintln!("relic: {line}");
    }
    if let Some(line) = &conversion.source {
        eprintln!("relic: {line}");
    }
    Ok(true)
}

/// What the conversion of one model file did ([`convert_model`]): what `relic convert` prints,
/// for callers that report it their own way (the Python module).
#[derive(Debug)]
pub struct ModelConversion {
    /// The output's format.
    pub target: Target,
    /// Notes from reading the input (a missing optional part, a glTF without relic's extras).
    pub read_notes: Vec<relic::Loss>,
    /// What the target cannot hold.
    pub losses: Vec<relic::Loss>,
    /// The files written, or that would have been (the output, the files beside it, textures).
    pub files: Vec<PathBuf>,
    /// Bytes written.
    pub bytes: u64,
    /// Whether the files were written: not when `strict` refused because notes say something
    /// was lost.
    pub written: bool,
    /// How the file written compares with the game file the model was first read from, or why it
    /// cannot be compared (`compared with the original (abc v12): 13 counts equal, 0 differ; …`).
    pub comparison: Option<String>,
    /// A write into the source's own format compared with the source byte for byte, with why it
    /// differs where it does (`same format: byte-identical to its source (2 files)`).
    pub source: Option<String>,
}

impl ModelConversion {
    /// Why nothing was written under `strict`.
    pub fn refusal(&self) -> String {
        let output = self.files.first().map(|p| p.display().to_string()).unwrap_or_default();
        format!(
            "{output}: not written: --strict, and the {} notes above say what was lost ({} reading the input, {} \
             that {} cannot hold)",
            self.read_notes.len() + self.losses.len(),
            self.read_notes.len(),
            self.losses.len(),
            self.target.extension()
        )
    }
}

/// Converts the model at `input_path` (with the animation files `animations` played on it) into
/// `output`, writing the files unless `strict` and something was lost: `relic convert` without
/// its printing. An existing output is an error unless `force`; an input is never written.
/// A chunked M2's FileDataIDs are resolved through `options.listed`.
pub fn convert_model(
    input_path: &Path,
    output: &Path,
    animations: &[PathBuf],
    options: &ConvertOptions,
    force: bool,
    strict: bool,
) -> Result<ModelConversion, CliError> {
    let target = Target::for_path(output)?;
    let mut policy = OutputPolicy { force, ..OutputPolicy::default() };
    policy.protect(input_path);
    for a in animations {
        policy.protect(a);
    }
    // Before any work: an output that exists (without --force) or is an input is refused now.
    for path in target.output_paths(output) {
        policy.check(&path)?;
    }
    let bytes = relic::read_file(input_path)?;
    if relic::is_texture(&bytes) {
        return Err(CliError::Usage(format!(
            "{}: a texture; it converts to {}, and a model output takes a model",
            input_path.display(),
            crate::one_of(&crate::texture_extensions())
        )));
    }
    let registry = relic::Registry::builtin();
    let kind = registry.detect(&bytes).ok_or_else(|| registry.not_read(input_path, &bytes))?;
    let anims: Vec<&Path> = animations.iter().map(PathBuf::as_path).collect();
    let loaded = registry.load_model_listed(input_path, &bytes, kind, &anims, options.listed.as_ref())?;
    let model = loaded.value;
    let (converted, comparison) = registry.convert_compared(&model, target, output, options)?;
    // A .gltf input's .bin and images are input files too.
    for f in relic::referenced_files(input_path, &bytes, kind) {
        policy.protect(&f);
    }
    let source = source_line(input_path, &bytes, kind, target, &model, options, &converted);
    let mut conversion = ModelConversion {
        target,
        read_notes: loaded.losses,
        losses: converted.losses,
        files: converted.value.iter().map(|(p, _)| p.clone()).collect(),
        bytes: 0,
        written: false,
        comparison: comparison_line(&model, target, comparison.as_ref(), kind),
        source,
    };
    if strict && (!conversion.read_notes.is_empty() || !conversion.losses.is_empty()) {
        return Ok(conversion);
    }
    conversion.bytes = policy.write_all(&converted.value)?;
    conversion.written = true;
    Ok(conversion)
}

/// After a write into the input's own format: whether the files written are the source's bytes,
/// and if not where they part and why (the writer's notes, another version than the source's).
pub fn source_line(
    input_path: &Path,
    bytes: &[u8],
    kind: relic::Kind,
    target: Target,
    model: &relic::Model,
    options: &ConvertOptions,
    converted: &relic::Outputs,
) -> Option<String> {
    let entry = target.entry();
    let read_beside = model.original.as_ref().and_then(|o| o.files.get(1..)).unwrap_or_default();
    let comparison = relic::original::compare_with_source(
        input_path,
        bytes,
        kind.entry.name,
        entry.name,
        &converted.value,
        read_beside,
    )?;
    let mut why: Vec<String> = converted.losses.iter().map(ToString::to_string).collect();
    let read_as = model.recorded_version(relic::FormatId::new(entry.name));
    if let (Some(asked), Some(read)) = (options.version, read_as)
        && asked != read
    {
        why.insert(0, format!("written as version {asked}, read as {read}"));
    }
    Some(comparison.summary(&why))
}

/// After a conversion into a game format: how the file compares with the game file the model was
/// first read from (when relic recorded it in the glTF; the facade's `comparison`), or that an
/// input which carries such a record (a glTF), but not this one, cannot be compared. (An MDL is
/// the text of a game file, not a carrier of records: nothing is said.)
pub fn comparison_line(
    model: &relic::Model,
    target: Target,
    comparison: Option<&relic::original::Comparison>,
    kind: relic::Kind,
) -> Option<String> {
    let records = |entry: &relic::FormatEntry| entry.model.is_some_and(|m| m.records_original);
    if !records(target.entry()) {
        return None;
    }
    match &model.original {
        Some(_) => comparison.map(relic::original::Comparison::summary),
        None if kind.entry.family == relic_gltf::GLB_ENTRY.family => Some(format!(
            "note: the {} file carries no record of a game file (relic's extras or its \"relic original\" \
             nodes): what it held before editing cannot be compared",
            kind.entry.name
        )),
        None => None,
    }
}

/// The texture options of a conversion: `--version` (checked against what the target writes) and
/// `--encoding` and `--mips`.
fn texture_options(
    args: &ConvertArgs,
    target: relic::TextureTarget,
) -> Result<relic_core::texture::TextureOptions, CliError> {
    let options = texture_options_for(target, args.common.version, args.encoding)?;
    if let (relic::TextureTarget::Png, Some(m)) = (target, args.mips) {
        return Err(CliError::Usage(format!("--mips {m}: PNG outputs hold one level")));
    }
    Ok(relic_core::texture::TextureOptions { mips: args.mips, ..options })
}

/// The texture options of a conversion from its parts: `--version`, `--encoding` (`relic convert`,
/// `relic batch` and the Python module).
pub fn texture_options_for(
    target: relic::TextureTarget,
    version: Option<u32>,
    encoding: crate::cli::Encoding,
) -> Result<relic_core::texture::TextureOptions, CliError> {
    match (target, version) {
        (relic::TextureTarget::Png, Some(v)) => {
            return Err(CliError::Usage(format!("--version {v}: PNG outputs take no version")));
        }
        (relic::TextureTarget::Format(entry), Some(v)) if !entry.versions.writes(v) => {
            return Err(CliError::Usage(format!(
                "--version {v}: {} writes versions {} ({})",
                entry.name,
                relic_core::format::Versions::list(entry.versions.write),
                entry.versions.note
            )));
        }
        _ => {}
    }
    Ok(relic_core::texture::TextureOptions { version, encoding: encoding.into(), ..Default::default() })
}

/// `relic convert` of a texture: PNG, BLP or DTX in, any of them out.
fn run_texture(args: &ConvertArgs, target: relic::TextureTarget) -> Result<bool, CliError> {
    let options = texture_options(args, target)?;
    if !args.animations.is_empty() {
        return Err(CliError::Usage("--anim applies to models, not textures".into()));
    }
    let conversion = convert_texture_file(&args.input, &args.output, target, &options, args.force, args.strict)?;
    for loss in &conversion.losses {
        eprintln!("relic: note: {}: {loss}", args.output.display());
    }
    if !conversion.written {
        eprintln!("relic: {}: not written: --strict, and the notes above say what was lost", args.output.display());
        return Ok(false);
    }
    println!("wrote {} ({} bytes)", args.output.display(), conversion.bytes);
    Ok(true)
}

/// What the conversion of one texture file did ([`convert_texture_file`]).
#[derive(Debug)]
pub struct TextureConversion {
    /// What the target encoding loses.
    pub losses: Vec<relic::Loss>,
    /// Bytes written.
    pub bytes: u64,
    /// Whether the file was written: not when `strict` refused because of the notes.
    pub written: bool,
}

/// Converts the texture at `input` into `output` (`target`, with `options`), writing it unless
/// `strict` and something was lost: `relic convert` of a texture without its printing.
pub fn convert_texture_file(
    input: &Path,
    output: &Path,
    target: relic::TextureTarget,
    options: &relic_core::texture::TextureOptions,
    force: bool,
    strict: bool,
) -> Result<TextureConversion, CliError> {
    let mut policy = OutputPolicy { force, ..OutputPolicy::default() };
    policy.protect(input);
    policy.check(output)?;
    let bytes = relic::read_file(input)?;
    if !relic::is_texture(&bytes) {
        return Err(CliError::Usage(format!(
            "{}: not a texture; a texture output ({}) takes a texture ({}) as input",
            input.display(),
            crate::texture_extensions().join(", "),
            crate::one_of(&crate::texture_targets().iter().map(|t| t.to_uppercase()).collect::<Vec<_>>())
        )));
    }
    let converted = relic::convert_texture(input, &bytes, target, output, options)?;
    if strict && !converted.losses.is_empty() {
        return Ok(TextureConversion { losses: converted.losses, bytes: 0, written: false });
    }
    let written = policy.write_all(&[(output.to_path_buf(), converted.value)])?;
    Ok(TextureConversion { losses: converted.losses, bytes: written, written: true })
}

/// The images of a glTF input going to a format that does not embed its textures (to be written
/// as its texture files); none for other inputs or targets, or a file that does not read (the
/// conversion reports that).
pub fn gltf_images(input: &Path, target: Target) -> Vec<relic_gltf::MaterialImage> {
    let embedded = |entry: &relic::FormatEntry| entry.model.is_some_and(|m| m.textures == Textures::Embedded);
    if embedded(target.entry()) {
        return Vec::new();
    }
    let Ok(bytes) = std::fs::read(input) else { return Vec::new() };
    if !relic::detect(&bytes).is_some_and(|k| embedded(k.entry)) {
        return Vec::new();
    }
    let dir = input.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    // A document whose images cannot be listed gives none here: the conversion reads the same document and
    // reports why it fails.
    relic_gltf::material_images(&bytes, Some(dir), relic_core::texture::DEFAULT_MAX_PIXELS).unwrap_or_default()
}
