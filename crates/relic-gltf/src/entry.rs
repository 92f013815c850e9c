//! The crate's two entries in the format registry (`relic::FORMATS`): binary glTF (`.glb`) and
//! JSON glTF (`.gltf`, its buffer in a `.bin` file beside it). Either entry reads either form (the
//! import takes what it is given); each writes its own, so that the output's extension chooses the
//! form and no tool needs to know which is which.

use relic_core::format::{
    Content, Detected, FormatEntry, Input, ModelCodec, Output, SiblingFile, Textures, Versions, Written,
};
use relic_core::{Converted, Info, Model, ReadError, WriteError, WriteOptions};

use crate::{ExportOptions, FORMAT, GltfError};

/// glTF 2.0, the only version there is to read and write.
const VERSIONS: Versions = Versions { read: &[2..=2], write: &[2..=2], default_write: 2, note: "" };

/// Binary glTF: one `.glb` file.
pub static GLB_ENTRY: FormatEntry = FormatEntry {
    name: "glb",
    title: "glTF 2.0, binary (Blender, Godot, Unity, three.js)",
    family: "glTF 2.0 with relic's records",
    extensions: &["glb"],
    detect: detect_glb,
    versions: VERSIONS,
    info,
    model: Some(ModelCodec {
        read,
        write: write_glb,
        textures: Textures::Embedded,
        beside: &[],
        references: Some(references),
        records_original: false,
        read_with_info: None,
    }),
    animation: None,
    texture: None,
    checks: None,
    not_read: None,
};

/// JSON glTF: a `.gltf` file and its buffer in `<stem>.bin` beside it.
pub static GLTF_ENTRY: FormatEntry = FormatEntry {
    name: "gltf",
    title: "glTF 2.0, JSON with its buffer in a .bin file beside it",
    family: "glTF 2.0 with relic's records",
    extensions: &["gltf"],
    detect: detect_json,
    versions: VERSIONS,
    info,
    model: Some(ModelCodec {
        read,
        write: write_gltf,
        textures: Textures::Embedded,
        beside: &[BIN_SUFFIX],
        references: Some(references),
        records_original: false,
        read_with_info: None,
    }),
    animation: None,
    texture: None,
    checks: None,
    not_read: None,
};

/// What follows the output's stem in the name of a `.gltf`'s buffer file.
const BIN_SUFFIX: &str = ".bin";

/// How far into a JSON document its `"asset"` member is looked for.
const ASSET_SEARCH: usize = 1 << 16;

/// Recognises a `.glb` by its container magic.
fn detect_glb(bytes: &[u8]) -> Option<Detected> {
    bytes.starts_with(b"glTF").then_some(Detected::new(FORMAT, 2, Content::Model))
}

/// Recognises a `.gltf`: a JSON object with an `asset` member (every glTF has one) near its start.
fn detect_json(bytes: &[u8]) -> Option<Detected> {
    let text = bytes.trim_ascii_start();
    let asset = text.windows(7).take(ASSET_SEARCH).any(|w| w == b"\"asset\"");
    (text.starts_with(b"{") && asset).then_some(Detected::new(FORMAT, 2, Content::Model))
}

/// The model of a `.glb` or `.gltf`, its external buffers and images read from the input's folder.
fn read(input: &Input<'_>) -> Result<Converted<Model>, ReadError> {
    let model = import(input)?;
    let losses = crate::import::cut_texture_names(&model).into_iter().collect();
    Ok(Converted { value: model, losses })
}

fn import(input: &Input<'_>) -> Result<Model, ReadError> {
    crate::import(input.bytes, input.siblings.folder()).map_err(|e| ReadError::document(e.to_string()))
}

/// The counts of the model the file imports as (glTF states no counts of its own that relic
/// compares: these are the model's).
fn info(input: &Input<'_>) -> Result<Info, ReadError> {
    let model = import(input)?;
    let mut info = Info::new(FORMAT, 2);
    info.count("bones", model.bones.len())
        .count("meshes", model.meshes.len())
        .count("vertices", model.vertex_count())
        .count("triangles", model.triangle_count())
        .count("materials", model.materials.len())
        .count("animations", model.animations.len())
        .count("attachments", model.attachments.len());
    Ok(info)
}

/// A `.gltf`'s external buffers and images (nothing for a `.glb`, whose buffer is inside it).
fn references(input: &Input<'_>) -> Vec<std::path::PathBuf> {
    let Some(folder) = input.siblings.folder() else { return Vec::new() };
    // A document that does not parse names nothing (it is not converted then: the import
    // reports the error), so the empty list.
    crate::referenced_files(input.bytes, folder).unwrap_or_default()
}

/// The export's choices: the textures the caller's source finds; everything else as exported by
/// default (the facade keeps only LOD 0 itself when asked).
fn export_options(options: &WriteOptions, output: &Output) -> Result<ExportOptions, WriteError> {
    match options.version {
        None | Some(2) => Ok(ExportOptions { textures: output.textures.clone(), ..ExportOptions::default() }),
        Some(v) => Err(WriteError::Unsupported(format!("glTF version {v} is not written: relic writes glTF 2.0"))),
    }
}

fn write_error(e: GltfError) -> WriteError {
    match e {
        GltfError::InvalidModel(v) => WriteError::InvalidModel(v),
        other => WriteError::Unsupported(other.to_string()),
    }
}

fn write_glb(model: &Model, options: &WriteOptions, output: &Output) -> Result<Converted<Written>, WriteError> {
    let glb = crate::export_glb(model, &export_options(options, output)?).map_err(write_error)?;
    Ok(glb.map(Written::single))
}

/// The `.gltf` and its buffer, which it names `<output stem>.bin` (`model.bin` for an output
/// without a name).
fn write_gltf(model: &Model, options: &WriteOptions, output: &Output) -> Result<Converted<Written>, WriteError> {
    let stem = if output.stem().is_empty() { "model" } else { output.stem() };
    let export = export_options(options, output)?;
    let written = crate::export_gltf(model, &export, &format!("{stem}{BIN_SUFFIX}")).map_err(write_error)?;
    let (json, bin) = written.value;
    let siblings = vec![SiblingFile { suffix: BIN_SUFFIX.into(), bytes: bin }];
    Ok(Converted { value: Written { bytes: json.into_bytes(), siblings }, losses: written.losses })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_forms_are_recognised_by_content() {
        assert!(detect_glb(b"glTF\x02\0\0\0").is_some());
        assert!(detect_json(b"  {\n \"asset\": {\"version\": \"2.0\"}}").is_some());
        assert!(detect_json(b"{\"other\": 1}").is_none());
        assert!(detect_glb(b"MD20").is_none() && detect_json(b"MD20").is_none());
    }

    #[test]
    fn the_gltf_names_its_buffer_after_the_output() {
        let model = crate::samples::skinned_animated();
        let written = write_gltf(&model, &WriteOptions::default(), &Output::named("walk.gltf")).unwrap().value;
        assert_eq!(written.siblings.len(), 1);
        assert_eq!(written.siblings[0].suffix, ".bin");
        let json: serde_json::Value = serde_json::from_slice(&written.bytes).unwrap();
        assert_eq!(json["buffers"][0]["uri"], "walk.bin");
        let refused = write_glb(&model, &WriteOptions { version: Some(1) }, &Output::default());
        assert!(matches!(refused, Err(WriteError::Unsupported(_))));
    }
}
