//! Buffers and image files named by URI: data URIs, files confined to the document's folder.

use std::borrow::Cow;
use std::io::Read;
use std::path::{Component, Path, PathBuf};

use gltf_json as json;
use json::Root;

use crate::GltfError;

/// Loads every buffer: the GLB binary chunk (borrowed), a base64 data URI, or a file in the
/// folder of the document (at most `byteLength` bytes of it; see [`resolve_file`]).
pub(crate) fn load_buffers<'a>(
    root: &Root,
    blob: Option<&'a [u8]>,
    base_dir: Option<&Path>,
) -> Result<Vec<Cow<'a, [u8]>>, GltfError> {
    let mut out = Vec::with_capacity(root.buffers.len());
    for (i, buffer) in root.buffers.iter().enumerate() {
        let data = match &buffer.uri {
            None => match (i, blob) {
                (0, Some(b)) => Cow::Borrowed(b),
                _ => return Err(GltfError::invalid(format!("buffers[{i}]"), "no URI and no GLB binary chunk")),
            },
            Some(uri) if uri.starts_with("data:") => Cow::Owned(decode_data_uri(uri)?),
            Some(uri) => {
                let Some(dir) = base_dir else {
                    return Err(GltfError::Resource {
                        uri: uri.clone(),
                        problem: "an external buffer needs the folder of the .gltf file".into(),
                    });
                };
                let problem = |problem: String| GltfError::Resource { uri: uri.clone(), problem };
                let path = resolve_file(uri, dir).map_err(problem)?;
                Cow::Owned(read_prefix(&path, buffer.byte_length.0).map_err(problem)?)
            }
        };
        if (data.len() as u64) < buffer.byte_length.0 {
            return Err(GltfError::invalid(
                format!("buffers[{i}]"),
                format!("byteLength {} but only {} bytes exist", buffer.byte_length.0, data.len()),
            ));
        }
        out.push(data);
    }
    Ok(out)
}

/// Whether a URI starts with a scheme (`file:`, `http:`, `C:`): letters, digits, `+`, `-`, `.`
/// after a letter, then a colon.
fn has_scheme(uri: &str) -> bool {
    let Some((scheme, _)) = uri.split_once(':') else { return false };
    scheme.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && scheme.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

/// `uri` (percent-decoded) as a path relative to the document's folder, without touching the
/// file system.
/// Refuses what could name a file outside the folder: a scheme, an absolute path, a `..`
/// component (with `/` or `\` as separator, so a document made on Windows cannot either).
pub(crate) fn relative_path(uri: &str) -> Result<PathBuf, String> {
    if has_scheme(uri) {
        return Err("a URI with a scheme is not supported: only a path relative to the .gltf file".into());
    }
    let decoded = percent_decode(uri);
    if decoded.contains('\0') {
        return Err("the path contains a NUL character".into());
    }
    let path = PathBuf::from(&decoded);
    if decoded.starts_with(['/', '\\']) || path.has_root() || path.is_absolute() {
        return Err("an absolute path is not allowed: only a path relative to the .gltf file".into());
    }
    if decoded.split(['/', '\\']).any(|part| part == "..") {
        return Err("a \"..\" component would leave the folder of the .gltf file".into());
    }
    if path.components().any(|c| !matches!(c, Component::Normal(_) | Component::CurDir)) {
        return Err("only a plain relative path is allowed".into());
    }
    Ok(path)
}

/// The regular file `uri` names inside `base_dir` (canonical): refused if the URI is not a plain
/// relative path ([`relative_path`]), if it resolves (through links) outside the folder, or if it
/// is not a regular file (a folder, a FIFO or a device, which could block or never end).
pub(crate) fn resolve_file(uri: &str, base_dir: &Path) -> Result<PathBuf, String> {
    let relative = relative_path(uri)?;
    let base = if base_dir.as_os_str().is_empty() { Path::new(".") } else { base_dir };
    let base = base.canonicalize().map_err(|e| format!("folder {}: {e}", base.display()))?;
    let joined = base.join(&relative);
    let path = joined.canonicalize().map_err(|e| format!("{}: {e}", joined.display()))?;
    if !path.starts_with(&base) {
        return Err(format!(
            "{} resolves to {}, outside the folder of the .gltf file (through a link)",
            joined.display(),
            path.display()
        ));
    }
    let meta = std::fs::metadata(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    if !meta.is_file() {
        return Err(format!("{} is not a regular file", path.display()));
    }
    Ok(path)
}

/// The first `limit` bytes of the regular file `path` (fewer if it is shorter).
fn read_prefix(path: &Path, limit: u64) -> Result<Vec<u8>, String> {
    let fail = |e: std::io::Error| format!("{}: {e}", path.display());
    let file = std::fs::File::open(path).map_err(fail)?;
    let meta = file.metadata().map_err(fail)?;
    // Checked again on the open file: the name may have been replaced since it was resolved.
    if !meta.is_file() {
        return Err(format!("{} is not a regular file", path.display()));
    }
    // A capacity hint only: a length past usize reserves nothing up front.
    let mut data = Vec::with_capacity(usize::try_from(limit.min(meta.len())).unwrap_or(0));
    file.take(limit).read_to_end(&mut data).map_err(fail)?;
    Ok(data)
}

/// `%XX` escapes of a URI decoded (invalid UTF-8 replaced).
pub(crate) fn percent_decode(uri: &str) -> String {
    let bytes = uri.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let hex = |j: usize| bytes.get(j).and_then(|c| (*c as char).to_digit(16));
        match (b, hex(i + 1), hex(i + 2)) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            _ => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn decode_data_uri(uri: &str) -> Result<Vec<u8>, GltfError> {
    let bad = |p: &str| GltfError::Resource { uri: uri.chars().take(40).collect(), problem: p.into() };
    let (head, data) = uri.split_once(',').ok_or_else(|| bad("data URI without a comma"))?;
    if !head.ends_with(";base64") {
        return Err(bad("only base64 data URIs are supported"));
    }
    base64_decode(data.as_bytes()).ok_or_else(|| bad("invalid base64"))
}

/// Standard base64 (padding optional).
pub(super) fn base64_decode(text: &[u8]) -> Option<Vec<u8>> {
    relic_core::base64::decode(text)
}
