//! Common model → glTF 2.0 (`.glb`, or `.gltf` + `.bin`).

mod animation;
mod arcs;
mod cubic;
mod emitters;
mod material;
mod mesh;
mod scene;
mod skeleton;
mod surfaces;

pub(crate) use material::base_texture;

use gltf_json as json;
use json::scene::UnitQuaternion;
use json::validation::USize64;
use json::{Index, Root};
use relic_core::model::{Animation, Model, Transform};
use relic_core::{Converted, Loss};
use std::ops::Range;

use crate::bake;
use crate::buffer::BinBuilder;
use crate::extras::{self as ex};
use crate::{ExportOptions, GltfError};
use mesh::MAX_JOINTS;

/// A built document: the JSON root and its binary buffer.
#[derive(Debug)]
pub struct Document {
    /// The glTF JSON.
    pub root: Root,
    /// The binary buffer (GLB `BIN` chunk or `.bin` file).
    pub bin: Vec<u8>,
}

/// Exports `model` as a binary glTF (`.glb`). Losses say what glTF could not hold exactly.
pub fn export_glb(model: &Model, options: &ExportOptions) -> Result<Converted<Vec<u8>>, GltfError> {
    let Converted { value, losses } = build_document(model, options, None, true)?;
    let glb = match value {
        Built::Glb(glb) => glb,
        Built::Document(doc) => glb_finish(glb_json(&doc.root)?, None, &doc.bin)?,
    };
    Ok(Converted { value: glb, losses })
}

/// Bytes of a GLB's header and JSON chunk header, before the JSON.
const GLB_HEAD: usize = 12 + 8;

/// The start of a GLB (glTF 2.0 §4.4): room for the 12-byte header and the JSON chunk's header,
/// then the JSON, serialized straight into the output ([`glb_finish`] completes it).
fn glb_json(root: &json::Root) -> Result<Vec<u8>, GltfError> {
    let mut out = Vec::with_capacity(64 << 10);
    out.resize(GLB_HEAD, 0);
    json::serialize::to_writer(&mut out, root).map_err(|e| GltfError::Json(e.to_string()))?;
    Ok(out)
}

/// The GLB container around [`glb_json`]'s output, completed in place (its pages are written
/// already; a new vector would be as many first-touch page faults again): `replace` (a range of
/// the output and its new bytes) first, then the 12-byte header (`glTF`, version 2, total
/// length), the JSON chunk padded with spaces to a multiple of 4 bytes, and the BIN chunk, if
/// any, padded with zeros.
fn glb_finish(mut out: Vec<u8>, replace: Option<(Range<usize>, &[u8])>, bin: &[u8]) -> Result<Vec<u8>, GltfError> {
    const CHUNK: usize = 8;
    let too_large =
        |what: &str, count: usize| GltfError::TooLarge { what: what.into(), count, limit: u32::MAX as usize };
    let u32_of = |what: &str, count: usize| u32::try_from(count).map_err(|_| too_large(what, count));
    let grows = replace.as_ref().map_or(0, |(_, text)| text.len()) + 3 + CHUNK + bin.len() + 3;
    out.reserve_exact(grows);
    if let Some((range, text)) = replace {
        let tail = out.get(range.end..).map(<[u8]>::to_vec).unwrap_or_default();
        out.truncate(range.start);
        out.extend_from_slice(text);
        out.extend_from_slice(&tail);
    }
    out.resize(out.len().next_multiple_of(4), b' ');
    let json_length = u32_of("GLB JSON bytes", out.len().saturating_sub(GLB_HEAD))?;
    if !bin.is_empty() {
        let padded = bin.len().next_multiple_of(4);
        out.extend_from_slice(&u32_of("GLB buffer bytes", padded)?.to_le_bytes());
        out.extend_from_slice(b"BIN\0");
        out.extend_from_slice(bin);
        out.resize(out.len() + padded - bin.len(), 0);
    }
    let total = u32_of("GLB bytes", out.len())?;
    let mut head = Vec::with_capacity(GLB_HEAD);
    head.extend_from_slice(b"glTF");
    head.extend_from_slice(&2u32.to_le_bytes());
    head.extend_from_slice(&total.to_le_bytes());
    head.extend_from_slice(&json_length.to_le_bytes());
    head.extend_from_slice(b"JSON");
    if let Some(start) = out.get_mut(..GLB_HEAD) {
        start.copy_from_slice(&head);
    }
    Ok(out)
}

/// Where the scene's extras go in a GLB's JSON written before they are ready: a JSON string no
/// model can hold (128 bits this process drew), replaced by the extras once they are.
struct Placeholder(String);

impl Placeholder {
    fn new() -> Self {
        use std::hash::{BuildHasher, Hasher};
        let draw = || std::collections::hash_map::RandomState::new().build_hasher().finish();
        Self(format!("\"relic scene extras {:016x}{:016x}\"", draw(), draw()))
    }

    fn extras(&self) -> json::extras::Extras {
        serde_json::value::RawValue::from_string(self.0.clone()).ok()
    }

    /// Where the placeholder is in `json` (searched from the end: the scenes come last but for a
    /// few short lists); `None` if it is not there.
    fn find(&self, json: &[u8]) -> Option<Range<usize>> {
        let token = self.0.as_bytes();
        let at =
            (0..=json.len().checked_sub(token.len())?).rev().find(|&i| json.get(i..i + token.len()) == Some(token))?;
        Some(at..at + token.len())
    }
}

/// Exports `model` as a JSON glTF (`.gltf`) whose buffer is the separate file `bin_file_name`
/// (a relative URI, e.g. `model.bin`). Returns the JSON text and the `.bin` bytes.
pub fn export_gltf(
    model: &Model,
    options: &ExportOptions,
    bin_file_name: &str,
) -> Result<Converted<(String, Vec<u8>)>, GltfError> {
    let Converted { value: doc, losses } = build(model, options, Some(bin_file_name))?;
    let json = json::serialize::to_string_pretty(&doc.root).map_err(|e| GltfError::Json(e.to_string()))?;
    Ok(Converted { value: (json, doc.bin), losses })
}

/// Builds the glTF document of `model`; `bin_uri` names the external buffer (`None`: GLB).
pub fn build(model: &Model, options: &ExportOptions, bin_uri: Option<&str>) -> Result<Converted<Document>, GltfError> {
    match build_document(model, options, bin_uri, false)? {
        Converted { value: Built::Document(doc), losses } => Ok(Converted { value: *doc, losses }),
        Converted { value: Built::Glb(_), .. } => {
            Err(GltfError::Json("a GLB was built where a document was asked".into()))
        }
    }
}

/// What [`build_document`] built: the document, or with `glb` the finished GLB, whose JSON was
/// written (and the document dropped) while the second thread finished the scene's extras.
enum Built {
    Document(Box<Document>),
    Glb(Vec<u8>),
}

/// [`build`], or with `glb` the GLB.
fn build_document(
    model: &Model,
    options: &ExportOptions,
    bin_uri: Option<&str>,
    glb: bool,
) -> Result<Converted<Built>, GltfError> {
    model.validate()?;
    if model.bones.len() > MAX_JOINTS {
        return Err(GltfError::TooLarge { what: "bones".into(), count: model.bones.len(), limit: MAX_JOINTS });
    }
    // Two threads. The second builds the format's extras as JSON (megabytes for an M2's) while
    // the first writes meshes and materials, then the scene's extras' text; then both bake clips
    // (sampling, key reduction: the clips are independent) until none is left; then the second
    // deflates the scene's extras while the first writes the clips in order and, for a GLB, the
    // JSON. The second is a job of rayon's pool (the caller's, else the global one): a thread
    // already started, where a thread spawned here waited milliseconds for a processor. If no
    // thread of the pool is free, the first takes every clip and runs the job itself once its
    // own part is done.
    let clips = &Clips::new(model, options);
    let (publish, published) = std::sync::mpsc::sync_channel::<Shape>(1);
    let second = &Second::default();
    let first = rayon::in_place_scope(|scope| {
        scope.spawn(move |_| {
            second.run(|| {
                let format_extras = format_extras_json(model);
                let mut describe = Some(move |shape: Shape| scene_text(model, &shape, format_extras?));
                let mut text = |shape: Shape| describe.take().map(|describe| describe(shape));
                // The scene's text before baking when the first thread has described the
                // document (it usually has: its meshes take less time than the format's extras),
                // so that only packing it is left after; else after baking.
                let early = published.try_recv().ok().and_then(&mut text);
                clips.bake_all();
                // The first thread stopped (an error) if it sends no shape: nothing to describe.
                let scene = early.or_else(|| published.recv().ok().and_then(text));
                let files = model.original.as_ref().map_or(&[][..], |o| &o.files[..]);
                scene.map(|scene| scene.and_then(|(text, losses)| Ok((ex::wrap_root_text(&text, files)?, losses))))
            })
        });
        first_part(model, options, bin_uri, glb, clips, publish, second)
    })?;
    let stopped = || GltfError::Json("the scene extras' thread stopped".into());
    let (extras, more) = second.take().flatten().ok_or_else(stopped)??;
    first.finish(extras, more)
}

/// The second thread's part: its result once it has run (`None` if it panicked), and whether it
/// has stopped, for the first thread waiting on a clip it took.
struct Second<T> {
    result: std::sync::Mutex<Option<T>>,
    stopped: std::sync::atomic::AtomicBool,
}

impl<T> Default for Second<T> {
    fn default() -> Self {
        Self { result: std::sync::Mutex::new(None), stopped: Default::default() }
    }
}

impl<T> Second<T> {
    fn run(&self, work: impl FnOnce() -> T) {
        let value = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).ok();
        if let (Some(value), Ok(mut slot)) = (value, self.result.lock()) {
            *slot = Some(value);
        }
        self.stopped.store(true, std::sync::atomic::Ordering::Release);
    }

    fn stopped(&self) -> bool {
        self.stopped.load(std::sync::atomic::Ordering::Acquire)
    }

    /// The result, once the job has run (after its scope).
    fn take(&self) -> Option<T> {
        self.result.lock().ok().and_then(|mut slot| slot.take())
    }
}

/// What the second thread gives: the scene's extras and their losses; `None` if the first thread
/// stopped before it described the document.
type SceneExtras = Option<Result<(json::extras::Extras, Vec<Loss>), GltfError>>;

/// The first thread's part, done: the document (dropped already when its GLB JSON was written),
/// its buffer, losses and GLB start ([`glb_json`]) with where the scene's extras go.
struct FirstPart {
    root: Option<Root>,
    bin: Vec<u8>,
    losses: Vec<Loss>,
    glb: Option<(Vec<u8>, Range<usize>)>,
}

impl FirstPart {
    /// The GLB with the scene's extras in the placeholder's place, or the document with them.
    fn finish(self, extras: json::extras::Extras, more: Vec<Loss>) -> Result<Converted<Built>, GltfError> {
        let FirstPart { root, bin, mut losses, glb } = self;
        losses.extend(more);
        if let Some((json, at)) = glb {
            let text = extras.as_ref().map_or("null", |raw| raw.get());
            let glb = glb_finish(json, Some((at, text.as_bytes())), &bin)?;
            return Ok(Converted { value: Built::Glb(glb), losses });
        }
        let mut root = root.ok_or_else(|| GltfError::Json("the document was dropped before its GLB".into()))?;
        set_scene_extras(&mut root, extras);
        Ok(Converted { value: Built::Document(Box::new(Document { root, bin })), losses })
    }
}

/// The first thread: the document but for the scene's extras, the clips written as they are
/// baked, and for a GLB its JSON with a placeholder where those extras go.
fn first_part(
    model: &Model,
    options: &ExportOptions,
    bin_uri: Option<&str>,
    glb: bool,
    clips: &Clips<'_>,
    publish: std::sync::mpsc::SyncSender<Shape>,
    second: &Second<SceneExtras>,
) -> Result<FirstPart, GltfError> {
    let mut e = Exporter {
        model,
        options,
        root: Root::default(),
        bin: BinBuilder::default(),
        losses: Vec::new(),
        mesh_nodes: vec![None; model.meshes.len()],
        skin: None,
        synthetic_root: None,
        rest: bake::rest_locals(model),
        images: Default::default(),
        resampled: Resampled::default(),
    };
    e.asset()?;
    e.bones()?;
    e.attachments()?;
    let materials = e.materials()?;
    e.meshes(&materials)?;
    e.skin_and_scene();
    let shape = Shape { synthetic_root: e.synthetic_root.map(|r| r.value()), meshes_exported: e.meshes_exported() };
    // The receiver is gone only if the second thread stopped; its result says so.
    let _ = publish.send(shape);
    clips.bake_all();
    e.bin.open_pool();
    for (i, anim) in model.animations.iter().enumerate() {
        let baked = clips.wait(i, anim, || second.stopped());
        e.animation(anim, baked);
    }
    e.resampled_note();
    // In the pool too: their tracks are small accessors like the animations' keys.
    e.emitters()?;
    e.scene_objects()?;
    e.bin.close_pool(&mut e.root);
    let Exporter { mut root, bin, losses, .. } = e;
    let mut bin = bin.bin;
    while !bin.len().is_multiple_of(4) {
        bin.push(0);
    }
    if !bin.is_empty() {
        root.push(json::Buffer {
            byte_length: USize64::from(bin.len()),
            name: None,
            uri: bin_uri.map(str::to_string),
            extensions: None,
            extras: Default::default(),
        });
    }
    // The GLB's JSON is written while the second thread finishes the scene's extras, with a
    // placeholder where they go; the document is dropped then too.
    if glb {
        let placeholder = Placeholder::new();
        set_scene_extras(&mut root, placeholder.extras());
        let json = glb_json(&root)?;
        if let Some(at) = placeholder.find(&json) {
            return Ok(FirstPart { root: None, bin, losses, glb: Some((json, at)) });
        }
    }
    Ok(FirstPart { root: Some(root), bin, losses, glb: None })
}

/// Sets the scene's extras. On the scene, not the root: Blender keeps a scene's extras as custom
/// properties (and exports them again with "Custom Properties" ticked); it drops the root's.
fn set_scene_extras(root: &mut Root, extras: json::extras::Extras) {
    if let Some(scene) = root.scenes.first_mut() {
        scene.extras = extras;
    }
}

/// What the scene's extras need of the first thread's work: the synthetic root and which meshes
/// have a node.
struct Shape {
    synthetic_root: Option<usize>,
    meshes_exported: Vec<bool>,
}

/// The model's clips, baked by whichever thread takes each next ([`animation::bake`]).
struct Clips<'m> {
    model: &'m Model,
    fps: f32,
    next: std::sync::atomic::AtomicUsize,
    baked: std::sync::Mutex<Vec<Option<animation::Baked>>>,
    done: std::sync::Condvar,
}

impl<'m> Clips<'m> {
    fn new(model: &'m Model, options: &ExportOptions) -> Self {
        let baked = std::sync::Mutex::new(model.animations.iter().map(|_| None).collect());
        Self { model, fps: options.bake_fps, next: Default::default(), baked, done: Default::default() }
    }

    /// Bakes clips not yet taken until every clip is taken.
    fn bake_all(&self) {
        use std::sync::atomic::Ordering;
        loop {
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            let Some(anim) = self.model.animations.get(i) else { return };
            let baked = animation::bake(self.model, anim, self.fps);
            // A poisoned lock (the other thread panicked) leaves the clip to `wait`, which bakes it.
            if let Ok(mut slots) = self.baked.lock()
                && let Some(slot) = slots.get_mut(i)
            {
                *slot = Some(baked);
            }
            self.done.notify_all();
        }
    }

    /// Clip `i` once baked, waiting for the thread that took it; baked here if that thread
    /// `stopped`.
    fn wait(&self, i: usize, anim: &Animation, stopped: impl Fn() -> bool) -> animation::Baked {
        let bake_here = || animation::bake(self.model, anim, self.fps);
        let Ok(mut slots) = self.baked.lock() else { return bake_here() };
        loop {
            if let Some(baked) = slots.get_mut(i).and_then(Option::take) {
                return baked;
            }
            if stopped() {
                return bake_here();
            }
            let timeout = std::time::Duration::from_millis(5);
            match self.done.wait_timeout(slots, timeout) {
                Ok((guard, _)) => slots = guard,
                Err(_) => return bake_here(),
            }
        }
    }
}

/// The model's format extras as the root's extras carry them: `None` without extras,
/// `Some(Err(format))` for extras with no JSON form.
fn format_extras_json(model: &Model) -> Result<Option<Result<ex::FormatText, String>>, GltfError> {
    let Some(fx) = &model.extras else { return Ok(None) };
    Ok(Some(match fx.json_beside(model) {
        Some(text) => Ok(ex::FormatText::new(fx.format(), text, fx.is_typed())?),
        None => Err(fx.format().to_string()),
    }))
}

/// The text of the scene's extras (the model's data glTF has no place for, [`ex::RootExtras`]),
/// and what could not go there.
fn scene_text(
    model: &Model,
    shape: &Shape,
    format_extras: Option<Result<ex::FormatText, String>>,
) -> Result<(String, Vec<Loss>), GltfError> {
    let mut losses = Vec::new();
    let format_extras = match format_extras {
        Some(Ok(json)) => Some(json),
        Some(Err(format)) => {
            losses.push(Loss::new("extras", format!("{format} extras have no JSON form: not exported")));
            None
        }
        None => None,
    };
    let animations = model.animations.iter().filter_map(|anim| {
        let layout = animation::Layout::new(model, anim, &animation::baked_bones(model, anim), &shape.meshes_exported);
        animation::clip_extras(anim, &layout)
    });
    let extras = ex::RootExtras {
        name: model.name.clone(),
        source: model.source.map(|s| ex::SourceExtras { format: s.format.as_str().into(), version: s.version }),
        global_sequences: model.global_sequences.clone(),
        format_extras: None,
        synthetic_root: shape.synthetic_root,
        animations: animations.collect(),
        original: model.original.as_ref().map(|o| ex::OriginalExtras {
            format: o.format.clone(),
            version: o.version,
            counts: o.counts.clone(),
        }),
        surfaces: ex::SurfacesJson::of(model),
    };
    Ok((ex::root_text(&extras, format_extras.as_ref())?, losses))
}

struct Exporter<'m> {
    model: &'m Model,
    options: &'m ExportOptions,
    root: Root,
    bin: BinBuilder,
    losses: Vec<Loss>,
    /// The node of each model mesh (`None`: not exported).
    mesh_nodes: Vec<Option<Index<json::Node>>>,
    skin: Option<Index<json::Skin>>,
    synthetic_root: Option<Index<json::Node>>,
    /// glTF rest-pose local transform of each bone (baked for flagged bones).
    rest: Vec<Transform>,
    /// The image of each texture the texture source found (by its key), embedded once.
    images: std::collections::HashMap<String, Index<json::Image>>,
    /// The cubic-spline channels written as linear keys ([`cubic`]).
    resampled: Resampled,
}

/// How many cubic-spline channels were written as linear keys, and how many of their segments
/// needed more than [`cubic::MOST_STEPS`] keys (followed at that many).
#[derive(Default)]
struct Resampled {
    channels: usize,
    coarse: usize,
    /// Channels left cubic splines: their curve needs more than [`cubic::MOST_KEYS`] keys.
    too_many: usize,
}

fn node(name: &str) -> json::Node {
    json::Node {
        camera: None,
        children: None,
        extensions: None,
        extras: Default::default(),
        matrix: None,
        mesh: None,
        name: Some(name.to_string()),
        rotation: None,
        scale: None,
        translation: None,
        skin: None,
        weights: None,
    }
}

/// A node with the TRS of `t` (default parts omitted).
fn node_trs(name: &str, t: &Transform) -> json::Node {
    let mut n = node(name);
    if t.translation != [0.0; 3] {
        n.translation = Some(t.translation);
    }
    if t.rotation != [0.0, 0.0, 0.0, 1.0] {
        n.rotation = Some(UnitQuaternion(t.rotation));
    }
    if t.scale != [1.0; 3] {
        n.scale = Some(t.scale);
    }
    n
}

fn push_child(root: &mut Root, parent: Index<json::Node>, child: Index<json::Node>) {
    if let Some(p) = root.nodes.get_mut(parent.value()) {
        p.children.get_or_insert_with(Vec::new).push(child);
    }
}

impl Exporter<'_> {
    fn loss(&mut self, element: impl Into<String>, what: impl Into<String>) {
        self.losses.push(Loss::new(element, what));
    }

    /// One note for the cubic-spline channels written as linear keys: their tangents are not in
    /// the file, their curve is.
    fn resampled_note(&mut self) {
        let Resampled { channels, coarse, too_many } = self.resampled;
        if too_many > 0 {
            self.loss(
                "animations",
                format!(
                    "{too_many} cubic-spline channel(s) left CUBICSPLINE: their curve needs more than {} linear keys \
                     (Blender's glTF importer plays them with its own handles)",
                    cubic::MOST_KEYS
                ),
            );
        }
        if channels == 0 {
            return;
        }
        let coarse = match coarse {
            0 => String::new(),
            n => format!("; {n} segment(s) needed more than {} keys and are followed at that many", cubic::MOST_STEPS),
        };
        self.loss(
            "animations",
            format!(
                "{channels} cubic-spline (Hermite/Bezier) channel(s) written as linear keys on their curve, within \
                 {} (Blender's glTF importer does not follow tangents; ExportOptions::keep_tangents keeps them){coarse}",
                cubic::TOLERANCE
            ),
        );
    }

    fn asset(&mut self) -> Result<(), GltfError> {
        self.root.asset = json::Asset {
            copyright: None,
            extensions: None,
            extras: ex::wrap(serde_json::json!({
                "units": "the game's own units: lengths as the source file stores them, not rescaled to metres"
            }))?,
            generator: Some(format!("relic-gltf {}", env!("CARGO_PKG_VERSION"))),
            min_version: None,
            version: "2.0".into(),
        };
        Ok(())
    }

    /// The skin (joint i = bone i) and the scene: the skeleton root(s), then the mesh nodes.
    fn skin_and_scene(&mut self) {
        let model = self.model;
        let n = model.bones.len();
        if n > 0 {
            let ibms: Vec<[f32; 16]> = model.bones.iter().map(|b| b.inverse_bind_matrix).collect();
            let ibm = self.bin.accessor(&mut self.root, &ibms, None, false, false);
            let skeleton = match self.synthetic_root {
                Some(r) => Some(r),
                None => Some(Index::new(0)),
            };
            let skin = self.root.push(json::Skin {
                extensions: None,
                extras: Default::default(),
                inverse_bind_matrices: Some(ibm),
                joints: (0..n).map(|b| Index::new(b as u32)).collect(),
                // Blender names the armature after the skin: the model keeps its name without extras.
                name: Some(if model.name.is_empty() { "skeleton".into() } else { model.name.clone() }),
                skeleton,
            });
            self.skin = Some(skin);
            for node in self.mesh_nodes.iter().flatten() {
                if let Some(nd) = self.root.nodes.get_mut(node.value())
                    && nd.skin.is_some()
                {
                    nd.skin = Some(skin);
                }
            }
        }
        let mut nodes: Vec<Index<json::Node>> = match self.synthetic_root {
            Some(r) => vec![r],
            None => (0..n)
                .filter(|&b| model.bones.get(b).is_some_and(|x| x.parent.is_none()))
                .map(|b| Index::new(b as u32))
                .collect(),
        };
        nodes.extend(self.mesh_nodes.iter().flatten().copied());
        nodes.extend(self.original_nodes());
        let scene = self.root.push(json::Scene {
            extensions: None,
            extras: Default::default(),
            name: Some(model.name.clone()),
            nodes,
        });
        self.root.scene = Some(scene);
    }

    /// The game file's counts as empty nodes (Blender keeps names where it drops extras): one
    /// `relic original: m2 v256` root with a child per count; none without a record.
    fn original_nodes(&mut self) -> Option<Index<json::Node>> {
        let original = self.model.original.as_ref()?;
        let children: Vec<Index<json::Node>> = original
            .counts
            .iter()
            .map(|(key, count)| self.root.push(node(&crate::naming::original_count_name(key, *count))))
            .collect();
        let head = json::Node { children: Some(children), ..node(&crate::naming::original_name(original)) };
        Some(self.root.push(head))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A GLB whose JSON was written before the scene's extras were ready is, byte for byte, the
    /// GLB of the finished document, on every sample model.
    #[test]
    fn the_scene_extras_filled_in_later_give_the_same_glb() {
        for (name, model) in crate::samples::all() {
            let options = ExportOptions::default();
            let early = export_glb(&model, &options).unwrap().value;
            let doc = build(&model, &options, None).unwrap().value;
            assert!(doc.root.scenes[0].extras.is_some(), "{name}");
            let built = build_document(&model, &options, None, true).unwrap().value;
            assert!(matches!(built, Built::Glb(_)), "{name}: the placeholder was found and filled");
            assert_eq!(early, glb_finish(glb_json(&doc.root).unwrap(), None, &doc.bin).unwrap(), "{name}");
        }
        let p = Placeholder::new();
        assert_eq!(p.find(b"{\"a\":1}"), None, "no placeholder found");
    }

    /// With no thread of the pool free for the second thread's job (a pool of one thread, whose
    /// only thread runs the export), the first bakes every clip and runs the job itself once its
    /// own part is done: the same GLB, on every sample model, and no wait on a job not started.
    #[test]
    fn an_export_with_no_second_thread_free_gives_the_same_glb() {
        let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        for (name, model) in crate::samples::all() {
            let options = ExportOptions::default();
            let alone = one.install(|| export_glb(&model, &options)).unwrap().value;
            assert_eq!(alone, export_glb(&model, &options).unwrap().value, "{name}");
        }
    }

    /// A clip's extras are built on the second thread from a layout of their own; they describe
    /// the glTF animation the first thread wrote: one `channels` entry per glTF channel, the
    /// written stored channels on their bone and property, and every stored channel either
    /// written or stashed — on every sample model (flagged bones, morph targets, held clips).
    #[test]
    fn every_clips_extras_describe_the_channels_written() {
        for (name, model) in crate::samples::all() {
            let doc = build(&model, &ExportOptions::default(), None).unwrap().value;
            let extras = ex::unwrap_root(&doc.root.scenes[0].extras).unwrap();
            let written: Vec<&json::Animation> = doc.root.animations.iter().collect();
            assert_eq!(extras.animations.len(), written.len(), "{name}");
            for (clip, (gltf, anim)) in extras.animations.iter().zip(&written).enumerate() {
                let stored = &model.animations.iter().find(|a| a.name == gltf.name).unwrap().channels;
                assert_eq!(gltf.channels.len(), anim.channels.len(), "{name} clip {clip}");
                let mut seen = vec![false; stored.len()];
                for (&entry, channel) in gltf.channels.iter().zip(&anim.channels) {
                    let Some(i) = entry else { continue };
                    let path = match &stored[i].values {
                        relic_core::model::ChannelValues::Translation(_) => json::animation::Property::Translation,
                        relic_core::model::ChannelValues::Rotation(_) => json::animation::Property::Rotation,
                        relic_core::model::ChannelValues::Scale(_) => json::animation::Property::Scale,
                    };
                    assert_eq!(channel.target.node.value(), stored[i].bone, "{name} clip {clip} channel {i}");
                    assert_eq!(channel.target.path, json::validation::Checked::Valid(path), "{name} clip {clip}");
                    seen[i] = true;
                }
                for s in &gltf.stashed {
                    assert!(!seen[s.index], "{name} clip {clip}: channel {} written and stashed", s.index);
                    seen[s.index] = true;
                }
                assert!(seen.iter().all(|&s| s), "{name} clip {clip}: a stored channel neither written nor stashed");
            }
        }
    }

    /// The container is the one the `gltf` crate writes and reads, with and without a buffer and
    /// for every padding, and with part of the JSON replaced by a longer or shorter text.
    #[test]
    fn glb_is_the_gltf_crates_container() {
        for (name, bin) in [("a", vec![]), ("ab", vec![1u8]), ("abc", vec![1, 2]), ("abcd", vec![1, 2, 3, 4, 5])] {
            let with = |generator: &str| json::Root {
                extras: None,
                asset: json::Asset { generator: Some(generator.into()), ..Default::default() },
                ..Default::default()
            };
            let root = with(name);
            let ours = glb_finish(glb_json(&root).unwrap(), None, &bin).unwrap();
            for other in ["", "x", "a longer generator"] {
                let start = glb_json(&with("placeholder")).unwrap();
                let at = Placeholder("\"placeholder\"".into()).find(&start).unwrap();
                let replaced = glb_finish(start, Some((at, format!("\"{other}\"").as_bytes())), &bin).unwrap();
                let direct = glb_finish(glb_json(&with(other)).unwrap(), None, &bin).unwrap();
                assert_eq!(replaced, direct, "{name}: the generator replaced by {other:?}");
            }
            let theirs = gltf::binary::Glb {
                header: gltf::binary::Header { magic: *b"glTF", version: 2, length: 0 },
                json: std::borrow::Cow::Owned(json::serialize::to_vec(&root).unwrap()),
                bin: (!bin.is_empty()).then_some(std::borrow::Cow::Borrowed(&bin[..])),
            }
            .to_vec()
            .unwrap();
            assert_eq!(ours, theirs, "{name}");
            let back = gltf::binary::Glb::from_slice(&ours).unwrap();
            assert_eq!(back.bin.as_deref().unwrap_or_default().get(..bin.len()), Some(&bin[..]));
        }
    }
}
