//! Bounds-checked reading of glTF containers, buffers and accessors. Everything here treats the
//! document as hostile: every offset, length, stride and count is checked (in u64) against the
//! bytes that exist before anything is decoded, and the total decoded size is capped at a small
//! multiple of the input.

use std::borrow::Cow;
use std::io::Read;
use std::path::{Component, Path, PathBuf};

use gltf_json as json;
use json::accessor::{ComponentType, Type};
use json::validation::Checked;
use json::{Index, Root};

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
        let end = start.checked_add(len as usize).filter(|&e| e <= body.len());
        let Some(end) = end else {
            return Err(bad(format!("chunk at byte {at} of {len} bytes runs past the end ({} bytes)", body.len())));
        };
        let data = body.get(start..end).unwrap_or_default();
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
fn base64_decode(text: &[u8]) -> Option<Vec<u8>> {
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let text: Vec<u8> = text.iter().copied().filter(|&c| c != b'=').collect();
    let mut out = Vec::with_capacity(text.len() / 4 * 3 + 3);
    for chunk in text.chunks(4) {
        let mut acc = 0u32;
        for &c in chunk {
            acc = (acc << 6) | value(c)?;
        }
        match chunk.len() {
            4 => out.extend_from_slice(&[(acc >> 16) as u8, (acc >> 8) as u8, acc as u8]),
            3 => out.extend_from_slice(&[(acc >> 10) as u8, (acc >> 2) as u8]),
            2 => out.push((acc >> 4) as u8),
            _ => return None,
        }
    }
    Some(out)
}

/// Decoded accessor data, with a running budget of decoded bytes.
pub(crate) struct Reader<'a> {
    root: &'a Root,
    buffers: &'a [Cow<'a, [u8]>],
    /// Bytes of decoded output still allowed.
    budget: u64,
}

fn component_size(c: ComponentType) -> u64 {
    match c {
        ComponentType::I8 | ComponentType::U8 => 1,
        ComponentType::I16 | ComponentType::U16 => 2,
        ComponentType::U32 | ComponentType::F32 => 4,
    }
}

fn component_count(t: Type) -> usize {
    match t {
        Type::Scalar => 1,
        Type::Vec2 => 2,
        Type::Vec3 => 3,
        Type::Vec4 => 4,
        Type::Mat2 => 4,
        Type::Mat3 => 9,
        Type::Mat4 => 16,
    }
}

/// One component as f32 (normalized integers mapped to [0, 1] or [-1, 1]).
#[inline]
fn decode(c: ComponentType, normalized: bool, b: &[u8]) -> f32 {
    let byte = |i: usize| b.get(i).copied().unwrap_or(0);
    match (c, normalized) {
        (ComponentType::F32, _) => f32::from_le_bytes([byte(0), byte(1), byte(2), byte(3)]),
        (ComponentType::U32, _) => u32::from_le_bytes([byte(0), byte(1), byte(2), byte(3)]) as f32,
        (ComponentType::U8, false) => f32::from(byte(0)),
        (ComponentType::U8, true) => f32::from(byte(0)) / 255.0,
        (ComponentType::I8, false) => f32::from(byte(0) as i8),
        (ComponentType::I8, true) => (f32::from(byte(0) as i8) / 127.0).max(-1.0),
        (ComponentType::U16, false) => f32::from(u16::from_le_bytes([byte(0), byte(1)])),
        (ComponentType::U16, true) => f32::from(u16::from_le_bytes([byte(0), byte(1)])) / 65535.0,
        (ComponentType::I16, false) => f32::from(i16::from_le_bytes([byte(0), byte(1)])),
        (ComponentType::I16, true) => (f32::from(i16::from_le_bytes([byte(0), byte(1)])) / 32767.0).max(-1.0),
    }
}

#[inline]
fn decode_int(c: ComponentType, b: &[u8]) -> Option<u32> {
    let byte = |i: usize| b.get(i).copied().unwrap_or(0);
    match c {
        ComponentType::U8 => Some(u32::from(byte(0))),
        ComponentType::U16 => Some(u32::from(u16::from_le_bytes([byte(0), byte(1)]))),
        ComponentType::U32 => Some(u32::from_le_bytes([byte(0), byte(1), byte(2), byte(3)])),
        _ => None,
    }
}

/// Where an accessor's (or sparse part's) elements are: bytes of the view from the first element,
/// the stride and the element size.
struct Span<'b> {
    bytes: &'b [u8],
    stride: usize,
    element: usize,
    count: usize,
}

impl<'b> Span<'b> {
    fn get(&self, i: usize) -> Option<&'b [u8]> {
        let start = i.checked_mul(self.stride)?;
        self.bytes.get(start..start.checked_add(self.element)?)
    }
}

impl<'a> Reader<'a> {
    /// A reader whose decoded output may total `budget` bytes.
    pub(crate) fn new(root: &'a Root, buffers: &'a [Cow<'a, [u8]>], budget: u64) -> Self {
        Self { root, buffers, budget }
    }

    fn charge(&mut self, element: &str, bytes: u64) -> Result<(), GltfError> {
        if bytes > self.budget {
            return Err(GltfError::invalid(
                element,
                format!("decoding {bytes} more bytes exceeds what the input size allows"),
            ));
        }
        self.budget -= bytes;
        Ok(())
    }

    /// The bytes of `count` elements of `element_size` at `offset` (with `stride`, 0 = packed) of
    /// buffer view `view`, checked against the view and the buffer.
    fn span(
        &self,
        element: &str,
        view: Index<json::buffer::View>,
        offset: u64,
        count: u64,
        element_size: u64,
    ) -> Result<Span<'a>, GltfError> {
        let v = self.root.get(view).ok_or_else(|| GltfError::invalid(element, "buffer view out of range"))?;
        let data =
            self.buffers.get(v.buffer.value()).ok_or_else(|| GltfError::invalid(element, "buffer out of range"))?;
        let view_offset = v.byte_offset.map_or(0, |o| o.0);
        let view_len = v.byte_length.0;
        let view_end = view_offset.checked_add(view_len).filter(|&e| e <= data.len() as u64).ok_or_else(|| {
            GltfError::invalid(
                element,
                format!(
                    "buffer view {} ({view_len} bytes at {view_offset}) runs past its buffer ({} bytes)",
                    view.value(),
                    data.len()
                ),
            )
        })?;
        let stride = v.byte_stride.map_or(element_size, |s| s.0 as u64);
        if stride < element_size {
            return Err(GltfError::invalid(
                element,
                format!("byte stride {stride} is smaller than the element ({element_size} bytes)"),
            ));
        }
        let needed = match count {
            0 => 0,
            n => (n - 1).checked_mul(stride).and_then(|x| x.checked_add(element_size)).unwrap_or(u64::MAX),
        };
        let end = offset.saturating_add(needed);
        if end > view_len {
            return Err(GltfError::invalid(
                element,
                format!(
                    "{count} elements of {element_size} bytes (stride {stride}) at offset {offset} need {end} bytes but the view has {view_len}"
                ),
            ));
        }
        let start = (view_offset + offset) as usize;
        let bytes = data.get(start..view_end as usize).unwrap_or_default();
        Ok(Span { bytes, stride: stride as usize, element: element_size as usize, count: count as usize })
    }

    fn accessor(&self, index: Index<json::Accessor>) -> Result<&'a json::Accessor, GltfError> {
        self.root.get(index).ok_or_else(|| GltfError::invalid(format!("accessors[{}]", index.value()), "out of range"))
    }

    /// Reads accessor `index` as `N` floats per element (any component type; normalized integers
    /// mapped to [0, 1] / [-1, 1]). `types` lists the accepted component types.
    pub(crate) fn floats<const N: usize>(
        &mut self,
        index: Index<json::Accessor>,
        types: &[ComponentType],
    ) -> Result<Vec<[f32; N]>, GltfError> {
        self.elements(index, types, false, decode)
    }

    /// Reads accessor `index` as `N` unsigned integers per element (u8, u16, u32; not normalized).
    pub(crate) fn ints<const N: usize>(&mut self, index: Index<json::Accessor>) -> Result<Vec<[u32; N]>, GltfError> {
        let types = [ComponentType::U8, ComponentType::U16, ComponentType::U32];
        self.elements(index, &types, true, |component, _, bytes| decode_int(component, bytes).unwrap_or(0))
    }

    /// Reads accessor `index` as `N` components per element, each decoded by `decode` from its
    /// bytes (component type, normalized flag, bytes from the component on): the dense data of
    /// its buffer view (zeros without one), then its sparse substitutions. `integers` refuses
    /// normalized accessors.
    fn elements<E: Copy + Default, const N: usize>(
        &mut self,
        index: Index<json::Accessor>,
        types: &[ComponentType],
        integers: bool,
        decode: impl Fn(ComponentType, bool, &[u8]) -> E,
    ) -> Result<Vec<[E; N]>, GltfError> {
        let element = format!("accessors[{}]", index.value());
        let a = self.accessor(index)?;
        let (component, normalized, count) = self.check_type(&element, a, N, types)?;
        if integers && normalized {
            return Err(GltfError::invalid(element, "integer indices must not be normalized"));
        }
        let size = component_size(component) as usize;
        let span = match a.buffer_view {
            Some(view) => Some(self.span(
                &element,
                view,
                a.byte_offset.map_or(0, |o| o.0),
                count,
                element_size(size as u64, N),
            )?),
            None => None,
        };
        self.charge(&element, count.saturating_mul(4 * N as u64))?;
        let one = |bytes: &[u8]| -> [E; N] {
            std::array::from_fn(|c| decode(component, normalized, bytes.get(c * size..).unwrap_or_default()))
        };
        let mut out: Vec<[E; N]> = Vec::with_capacity(count as usize);
        match span {
            Some(span) => {
                for i in 0..span.count {
                    out.push(one(span.get(i).unwrap_or_default()));
                }
            }
            None => out.resize(count as usize, [E::default(); N]),
        }
        if let Some(sparse) = &a.sparse {
            let (indices, values) = self.sparse(&element, sparse, count, component, N)?;
            for (k, &i) in indices.iter().enumerate() {
                if let Some(slot) = out.get_mut(i as usize) {
                    *slot = one(values.get(k).copied().unwrap_or_default());
                }
            }
        }
        Ok(out)
    }

    /// Component type, normalized flag and count after checking the accessor's type.
    fn check_type(
        &self,
        element: &str,
        a: &json::Accessor,
        n: usize,
        types: &[ComponentType],
    ) -> Result<(ComponentType, bool, u64), GltfError> {
        let (Checked::Valid(t), Checked::Valid(c)) = (&a.type_, &a.component_type) else {
            return Err(GltfError::invalid(element, "unknown accessor type or component type"));
        };
        if component_count(*t) != n || matches!(t, Type::Mat2 | Type::Mat3) {
            return Err(GltfError::invalid(element, format!("type {t:?} where {n} components are expected")));
        }
        if !types.contains(&c.0) {
            return Err(GltfError::invalid(element, format!("component type {:?} is not allowed here", c.0)));
        }
        Ok((c.0, a.normalized, a.count.0))
    }

    /// The sparse indices (checked < `count`, ascending) and the value elements.
    fn sparse(
        &mut self,
        element: &str,
        sparse: &json::accessor::sparse::Sparse,
        count: u64,
        component: ComponentType,
        n: usize,
    ) -> Result<(Vec<u32>, Vec<&'a [u8]>), GltfError> {
        let element = format!("{element}.sparse");
        let k = sparse.count.0;
        if k > count {
            return Err(GltfError::invalid(element, format!("{k} sparse elements for {count} elements")));
        }
        let Checked::Valid(ic) = &sparse.indices.component_type else {
            return Err(GltfError::invalid(element, "unknown index component type"));
        };
        let isize = component_size(ic.0);
        let ispan = self.span(&element, sparse.indices.buffer_view, sparse.indices.byte_offset.0, k, isize)?;
        self.charge(&element, k.saturating_mul(4 + 8))?;
        let mut indices = Vec::with_capacity(k as usize);
        for i in 0..ispan.count {
            let v = decode_int(ic.0, ispan.get(i).unwrap_or_default()).unwrap_or(u32::MAX);
            if u64::from(v) >= count || indices.last().is_some_and(|&last| v <= last) {
                return Err(GltfError::invalid(element, format!("index {v} at {i} is out of range or not ascending")));
            }
            indices.push(v);
        }
        let vsize = element_size(component_size(component), n);
        let vspan = self.span(&element, sparse.values.buffer_view, sparse.values.byte_offset.0, k, vsize)?;
        let values = (0..vspan.count).map(|i| vspan.get(i).unwrap_or_default()).collect();
        Ok((indices, values))
    }
}

/// Bytes of one element of `n` components (matrices of 1- and 2-byte components have padded
/// columns, which this reader does not accept).
fn element_size(component: u64, n: usize) -> u64 {
    component * n as u64
}

#[cfg(test)]
mod tests {
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
