//! Bounds-checked reading of glTF containers, buffers and accessors. Everything here treats the
//! document as hostile: every offset, length, stride and count is checked (in u64) against the
//! bytes that exist before anything is decoded, and the total decoded size is capped at a small
//! multiple of the input.

mod accessor;
mod uri;

pub(crate) use accessor::{Reader, decode};
pub(crate) use uri::{load_buffers, percent_decode, resolve_file};

use gltf_json as json;
use json::Root;
use json::validation::Checked;

use crate::GltfError;

/// The JSON text and the binary chunk of a GLB container, or the whole input as JSON.
pub(crate) fn split_container(bytes: &[u8]) -> Result<(&[u8], Option<&[u8]>), GltfError> {
    if !bytes.starts_with(b"glTF") {
        return Ok((bytes, None));
    }
    let bad = |problem: String| GltfError::Document(format!("GLB container: {problem}"));
    let u32_at = |at: usize| -> Option<u32> {
        let b = bytes.get(at..at + 4)?;
        Some(u32::from_le_bytes([*b.first()?, *b.get(1)?, *b.get(2)?, *b.get(3)?]))
    };
    let version = u32_at(4).ok_or_else(|| bad("truncated header".into()))?;
    if version != 2 {
        return Err(bad(format!("version {version}, only 2 is glTF 2.0")));
    }
    let length = u32_at(8).ok_or_else(|| bad("truncated header".into()))? as usize;
    if length < 12 || length > bytes.len() {
        return Err(bad(format!("stated length {length} but the file has {} bytes", bytes.len())));
    }
    let body = bytes.get(..length).unwrap_or(bytes);
    let mut at = 12usize;
    let mut json_chunk = None;
    let mut bin_chunk = None;
    while at < body.len() {
        let (Some(len), Some(kind)) = (u32_at(at), u32_at(at + 4)) else {
            return Err(bad(format!("truncated chunk header at byte {at}")));
        };
        let start = at + 8;
        let end = start.checked_add(len as usize);
        let Some((end, data)) = end.and_then(|end| Some((end, body.get(start..end)?))) else {
            return Err(bad(format!("chunk at byte {at} of {len} bytes runs past the end ({} bytes)", body.len())));
        };
        match &kind.to_le_bytes() {
            b"JSON" if json_chunk.is_none() => json_chunk = Some(data),
            b"BIN\0" if bin_chunk.is_none() && json_chunk.is_some() => bin_chunk = Some(data),
            _ => {}
        }
        // Chunks are 4-byte aligned.
        at = end.checked_add(3).map_or(usize::MAX, |e| e & !3);
    }
    let json = json_chunk.ok_or_else(|| bad("no JSON chunk".into()))?;
    Ok((json, bin_chunk))
}

/// Fewest JSON bytes per object a document may average. gltf-json holds every object in a typed
/// struct of a few hundred bytes, so a document of empty objects (`[{},{},…]`, 3 bytes each)
/// would cost ~140 × its size; real documents average far more than this per object.
pub(crate) const MIN_JSON_BYTES_PER_OBJECT: usize = 12;

/// Objects (`{`) in JSON text, outside strings.
fn count_objects(text: &[u8]) -> usize {
    let (mut objects, mut in_string, mut escaped) = (0usize, false, false);
    for &b in text {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
        } else if b == b'"' {
            in_string = true;
        } else if b == b'{' {
            objects += 1;
        }
    }
    objects
}

/// Refuses a primitive attribute that names an accessor past the list: gltf-json 1.4.1's own
/// validation indexes the POSITION accessor before checking it (a panic, not an error).
fn check_attribute_indices(root: &Root) -> Result<(), GltfError> {
    let accessors = root.accessors.len();
    for (m, mesh) in root.meshes.iter().enumerate() {
        for (p, primitive) in mesh.primitives.iter().enumerate() {
            for (semantic, index) in &primitive.attributes {
                if index.value() >= accessors {
                    let name = match semantic {
                        Checked::Valid(s) => s.to_string(),
                        Checked::Invalid => "?".to_string(),
                    };
                    return Err(GltfError::Document(format!(
                        "meshes[{m}].primitives[{p}].attributes.{name}: accessor {} is out of range ({accessors} exist)",
                        index.value()
                    )));
                }
            }
        }
    }
    Ok(())
}

/// Refuses, first and by name, a document requiring an extension relic does not read (Draco mesh
/// compression, `KHR_technique_webgl`): the glTF spec forbids loading such an asset, and what
/// gltf-json would report instead are its consequences (a Draco mesh's accessors "missing data").
fn check_required_extensions(root: &Root) -> Result<(), GltfError> {
    let missing: Vec<&str> = root
        .extensions_required
        .iter()
        .map(String::as_str)
        .filter(|e| !gltf::json::extensions::ENABLED_EXTENSIONS.contains(e))
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    Err(GltfError::Document(format!(
        "it requires the extension(s) {}, which relic does not read (the glTF spec forbids loading an asset without its required extensions)",
        missing.join(", ")
    )))
}

/// Parses and validates (references in range, required fields) the JSON document.
pub(crate) fn parse_json(text: &[u8]) -> Result<Root, GltfError> {
    let objects = count_objects(text);
    if objects.saturating_mul(MIN_JSON_BYTES_PER_OBJECT) > text.len() + 1024 {
        return Err(GltfError::Document(format!(
            "{objects} JSON objects in {} bytes: implausibly dense for glTF (fewer than {MIN_JSON_BYTES_PER_OBJECT} bytes each)",
            text.len()
        )));
    }
    let root = match Root::from_slice(text) {
        Ok(root) => root,
        Err(e) if e.to_string().starts_with("missing field `nodes`") => with_scene_nodes(text)?,
        Err(e) => return Err(GltfError::Document(e.to_string())),
    };
    check_required_extensions(&root)?;
    check_attribute_indices(&root)?;
    let document = gltf::Document::from_json(root).map_err(|e| GltfError::Document(e.to_string()))?;
    let root = document.into_json();
    if !root.asset.version.starts_with("2.") {
        return Err(GltfError::Document(format!("asset version {:?}, not 2.x", root.asset.version)));
    }
    Ok(root)
}

/// Parses a document whose scenes may lack `nodes`: glTF 2.0 makes a scene's node list optional
/// (an empty scene has none, and gltf-json itself omits an empty one when writing), but gltf-json
/// 1.4 requires it when reading. Each scene without one gets `[]`, and the text is parsed again.
fn with_scene_nodes(text: &[u8]) -> Result<Root, GltfError> {
    let document = |e: serde_json::Error| GltfError::Document(e.to_string());
    let mut value: serde_json::Value = serde_json::from_slice(text).map_err(document)?;
    if let Some(scenes) = value.get_mut("scenes").and_then(serde_json::Value::as_array_mut) {
        for scene in scenes.iter_mut().filter_map(serde_json::Value::as_object_mut) {
            scene.entry("nodes").or_insert_with(|| serde_json::Value::Array(Vec::new()));
        }
    }
    // Through text again: extras are raw JSON, which cannot be read from a `Value`.
    Root::from_slice(&serde_json::to_vec(&value).map_err(document)?).map_err(document)
}

#[cfg(test)]
mod tests {
    use super::uri::base64_decode;
    use super::*;

    #[test]
    fn objects_are_counted_outside_strings() {
        assert_eq!(count_objects(br#"{"a":{"b":"{\"{"},"c":[{}]}"#), 3);
    }

    #[test]
    fn base64_and_percent() {
        assert_eq!(base64_decode(b"aGVsbG8=").unwrap(), b"hello");
        assert_eq!(base64_decode(b"aGVsbG8").unwrap(), b"hello");
        assert_eq!(base64_decode(b"AAECAw==").unwrap(), [0, 1, 2, 3]);
        assert!(base64_decode(b"a").is_none());
        assert!(base64_decode(b"a$==").is_none());
        assert_eq!(percent_decode("my%20model.bin"), "my model.bin");
        assert_eq!(percent_decode("100%"), "100%");
    }

    #[test]
    fn glb_containers_are_checked() {
        assert!(split_container(b"glTF").is_err());
        let mut b = b"glTF".to_vec();
        b.extend_from_slice(&2u32.to_le_bytes());
        b.extend_from_slice(&4u32.to_le_bytes()); // length < 12
        assert!(split_container(&b).is_err());
        b.truncate(8);
        b.extend_from_slice(&28u32.to_le_bytes());
        b.extend_from_slice(&u32::MAX.to_le_bytes()); // chunk longer than the file
        b.extend_from_slice(b"JSON");
        b.extend_from_slice(b"{}  ");
        assert!(split_container(&b).is_err());
    }
}
