//! glTF 2.0 (`.glb`, `.gltf`) → common model.
//!
//! * **Bones** are the joints of every skin plus their ancestors (so the hierarchy is closed),
//!   ordered parents first, keeping the first skin's joint order where it already is (so a relic
//!   export comes back with the same bone indices). A node with two parents or a cycle is refused.
//! * **Meshes**: one model mesh per triangle primitive of every mesh node in the scene (strips and
//!   fans are unrolled; points and lines skipped). A mesh drawn by several nodes is decoded once
//!   and copied for each (the copies are bounded by the input size too). A skinned node's joints
//!   are remapped to bones; an unskinned mesh under a bone becomes rigidly bound to it; other
//!   unskinned meshes are moved by their node's transform into model space.
//! * **Weights** within 1 % of summing to 1 are renormalised (glTF stores 8- and 16-bit weights);
//!   farther off, or a skinned vertex without weight, is an error.
//! * **Animations**: translation/rotation/scale channels of bone nodes and weight channels of mesh
//!   nodes; channels of other nodes are ignored. Where relic's own `extras` are present (a relic
//!   export), the channels it baked are replaced by the originals kept there.
//! * Attachments: relic's attachment nodes, or any leaf node without a mesh under a bone.
//! * Emitters: relic's emitter nodes (their extension, else their extras); their stand-in meshes
//!   and materials are dropped (`import/emitters.rs`).
//! * Tints and UV animations: from the scene's extras, as relic's export kept them, less those
//!   whose mesh, layer, clip or clock the file lacks (`import/surfaces.rs`).
//!
//! A file another tool wrote (Blender) is brought back to the model relic exported where relic's
//! records in the extras survived ("Custom Properties"): bones turned back to their recorded axes
//! and numbers (`import/frames.rs`), bones, meshes and attachments in their recorded order, split
//! vertices welded down to each mesh's recorded count (`import/weld.rs`; without records, down to the
//! model's vertex count in the `relic original` nodes), and channels that only hold a bone's rest
//! value dropped.

mod animation;
mod emitters;
mod frames;
mod images;
mod material;
mod mesh;
mod scene;
mod skeleton;
mod surfaces;
mod tree;
mod unbake;
mod weld;

use std::path::{Path, PathBuf};

use gltf_json as json;
use json::Root;
use relic_core::FormatId;
use relic_core::model::{FormatExtras, Model, Original, SourceInfo};

use crate::GltfError;
use crate::extras::{self as ex};
use crate::read::{Reader, load_buffers, parse_json, percent_decode, split_container};

/// How far an imported vertex's weights may sum from 1 before import refuses them (8-bit weights
/// are off by up to 4 × 0.5/255).
pub const WEIGHT_IMPORT_TOLERANCE: f32 = 0.01;

/// Decoded data may total this many bytes per input byte (plus [`DECODE_FIXED`]).
const DECODE_PER_INPUT_BYTE: u64 = 32;
const DECODE_FIXED: u64 = 1 << 20;
/// The formats (as a model's [`Original`] names them) whose clips key each channel at its own times:
/// another tool's baked keys of their models are reduced within relic's curve tolerance
/// ([`crate::keys::Tolerance::CURVE`]).
const KEYED_PER_CHANNEL: &[&str] = &["m2", "mdx"];

/// A mesh drawn by several nodes is decoded once; the copies for the other nodes may total this
/// many times the decode budget (the model has no instancing: each node gets its own mesh).
const COPIES_PER_DECODED_BYTE: u64 = 4;

/// Imports a `.glb` or `.gltf` file. `base_dir` is the folder of a `.gltf` file whose buffers
/// are separate files (`None`: only GLB and data-URI buffers can be read).
pub fn import(bytes: &[u8], base_dir: Option<&Path>) -> Result<Model, GltfError> {
    let (json_text, blob) = split_container(bytes)?;
    let root = parse_json(json_text)?;
    let buffers = load_buffers(&root, blob, base_dir)?;
    let input_size: u64 = bytes.len() as u64 + buffers.iter().map(|b| b.len() as u64).sum::<u64>();
    let budget = input_size.saturating_mul(DECODE_PER_INPUT_BYTE).saturating_add(DECODE_FIXED);
    let mut importer = Importer {
        root: &root,
        reader: Reader::new(&root, &buffers, budget),
        model: Model::default(),
        copy_budget: budget.saturating_mul(COPIES_PER_DECODED_BYTE),
        foreign: !root.asset.generator.as_deref().is_some_and(|g| g.starts_with("relic")),
        animation_extras: Vec::new(),
        bone_records: Vec::new(),
        mesh_records: Vec::new(),
        attachment_records: Vec::new(),
        material_map: Vec::new(),
    };
    importer.run()?;
    let model = importer.model;
    model.validate().map_err(GltfError::ImportedInvalid)?;
    Ok(model)
}

/// The files outside the document that a `.gltf` or `.glb` refers to by URI (external buffers
/// and images; not data URIs), as paths in `base_dir`, the document's folder. Nothing is read or
/// checked beyond the document: the list names what a caller writing files must not replace
/// (including URIs that [`import`] refuses to read, such as absolute ones).
pub fn referenced_files(bytes: &[u8], base_dir: &Path) -> Result<Vec<PathBuf>, GltfError> {
    let (json_text, _) = split_container(bytes)?;
    let root = parse_json(json_text)?;
    let uris = root.buffers.iter().filter_map(|b| b.uri.as_deref());
    let uris = uris.chain(root.images.iter().filter_map(|i| i.uri.as_deref()));
    Ok(uris.filter(|u| !u.starts_with("data:")).map(|u| base_dir.join(percent_decode(u))).collect())
}

pub use images::{MaterialImage, material_images};
pub(crate) use material::cut_texture_names;
#[doc(hidden)]
pub use tree::hierarchy_steps;

/// The positions of items in the order of the indices relic's export recorded on them (an editor
/// writes bones, meshes and attachments in its own order): `order[k]` is the item recorded at
/// `k`-th place. `None` unless every item carries an index and no two the same.
fn recorded_order(indices: impl IntoIterator<Item = Option<u32>>) -> Option<Vec<usize>> {
    let mut keyed: Vec<(u32, usize)> =
        indices.into_iter().zip(0usize..).map(|(i, at)| i.map(|i| (i, at))).collect::<Option<_>>()?;
    keyed.sort_unstable();
    if keyed.windows(2).any(|w| matches!(w, [a, b] if a.0 == b.0)) {
        return None;
    }
    Some(keyed.into_iter().map(|(_, at)| at).collect())
}

/// `items` rearranged as `order` ([`recorded_order`]) says.
fn rearranged<T>(items: &mut Vec<T>, order: &[usize]) {
    let mut slots: Vec<Option<T>> = items.drain(..).map(Some).collect();
    *items = order.iter().filter_map(|&at| slots.get_mut(at).and_then(Option::take)).collect();
}

struct Importer<'a> {
    root: &'a Root,
    reader: Reader<'a>,
    model: Model,
    /// Bytes the copies of meshes drawn by several nodes may still total.
    copy_budget: u64,
    /// Another tool wrote the file (Blender): names may carry its `.001` suffixes, vertices may
    /// be split, animations baked per frame.
    foreign: bool,
    /// The clips' extras from the scene (relic's export puts them there).
    animation_extras: Vec<ex::AnimationExtras>,
    /// Per bone: what relic's export recorded of it ([`frames`]).
    bone_records: Vec<frames::Recorded>,
    /// Per attachment: what relic's export recorded of it ([`frames`]).
    attachment_records: Vec<frames::RecordedAttachment>,
    /// Per model mesh: its index and vertex count in the model relic exported, where recorded.
    mesh_records: Vec<(Option<u32>, Option<u32>)>,
    /// Per glTF material: the model's material, `None` for an emitter's stand-in.
    material_map: Vec<Option<usize>>,
}

impl Importer<'_> {
    fn run(&mut self) -> Result<(), GltfError> {
        let tree = self.tree()?;
        // A relic export keeps them on the scene (Blender keeps those); older ones on the root.
        let scene = self.scene_index().and_then(|s| self.root.scenes.get(s));
        let root_extras: Option<ex::RootExtras> =
            scene.and_then(|s| ex::unwrap_root(&s.extras)).or_else(|| ex::unwrap_root(&self.root.extras));
        self.model_info(root_extras.as_ref());
        // No relic extras on the scene or root (another tool's file): no clip extras.
        self.animation_extras = root_extras.as_ref().map(|r| r.animations.clone()).unwrap_or_default();
        let synthetic = root_extras.as_ref().and_then(|r| r.synthetic_root);
        let node_bone = self.bones(&tree, synthetic)?;
        self.materials();
        let mut node_meshes = self.meshes(&tree, &node_bone)?;
        self.weld_split_vertices();
        self.restore_mesh_order(&mut node_meshes);
        self.attachments(&tree, &node_bone);
        self.animations(&node_bone, &node_meshes)?;
        self.emitters(&tree, &node_bone);
        self.scene_objects(&tree, &node_bone);
        self.surfaces(root_extras.as_ref());
        frames::restore(&mut self.model, &self.bone_records, &self.attachment_records);
        if self.foreign {
            let tolerance = self.key_tolerance();
            unbake::unbake(&mut self.model, tolerance);
            self.drop_rest_channels();
        }
        Ok(())
    }

    /// How closely another tool's baked keys are followed ([`crate::keys::Tolerance`], whose notes
    /// say why): within relic's curve tolerance for a model of a game that keys each channel on its
    /// own, without its game file; else finely.
    fn key_tolerance(&self) -> crate::keys::Tolerance {
        let own_channels = |o: &Original| KEYED_PER_CHANNEL.contains(&o.format.as_str()) && o.files.is_empty();
        if self.model.original.as_ref().is_some_and(own_channels) {
            crate::keys::Tolerance::CURVE
        } else {
            crate::keys::Tolerance::FINE
        }
    }

    fn model_info(&mut self, extras: Option<&ex::RootExtras>) {
        // Without extras: the scene's name unless it is Blender's "Scene", else the skin's (relic
        // names it after the model, and Blender the armature after it).
        let scene_name = self.scene_index().and_then(|s| self.root.scenes.get(s)).and_then(|s| s.name.clone());
        let scene_name = scene_name.filter(|n| (!self.foreign || n != "Scene") && !n.is_empty());
        let skin_name = self
            .root
            .skins
            .first()
            .and_then(|s| s.name.clone())
            .filter(|n| !matches!(n.as_str(), "" | "skeleton" | "Armature"));
        let from_names = scene_name.or(skin_name).map(|n| self.clean_name(&n).to_string());
        self.model.name = extras.map(|e| e.name.clone()).or(from_names).unwrap_or_else(|| "gltf".into());
        let kind = FormatId::parse;
        self.model.source = extras
            .and_then(|e| e.source.as_ref())
            .and_then(|s| kind(&s.format).map(|format| SourceInfo { format, version: s.version }))
            .or(Some(SourceInfo { format: crate::FORMAT, version: 2 }));
        self.model.original = match extras.and_then(|e| e.original.as_ref()) {
            Some(o) => Some(Original {
                format: o.format.clone(),
                version: o.version,
                counts: o.counts.clone(),
                files: self.kept_files(),
            }),
            None => self.original_from_names(),
        };
        if let Some(e) = extras {
            self.model.global_sequences =
                e.global_sequences.iter().map(|d| if d.is_finite() { d.max(0.0) } else { 0.0 }).collect();
            if let Some(fx) = &e.format_extras
                && let Some(format) = kind(&fx.format)
            {
                // A JSON string holds text that was not JSON when exported; anything else is the
                // format's JSON itself.
                let raw = fx.data.get();
                let text = serde_json::from_str::<String>(raw).unwrap_or_else(|_| raw.to_string());
                self.model.extras = Some(FormatExtras::from_json(format, text));
            }
        }
    }

    /// The game files kept with the model, from the scene's extras.
    fn kept_files(&self) -> Vec<(String, Vec<u8>)> {
        let scene = self.scene_index().and_then(|s| self.root.scenes.get(s));
        scene.map(|s| ex::unwrap_kept_files(&s.extras)).unwrap_or_default()
    }

    /// The game file's record from the names of the empty nodes relic's export writes
    /// (`relic original: m2 v256` and its `relic original: particles = 12` children), for files
    /// whose extras an editor dropped.
    fn original_from_names(&self) -> Option<Original> {
        use crate::naming::{OriginalName, parse_original_name};
        let parse = |n: &json::Node| parse_original_name(self.clean_name(n.name.as_deref().unwrap_or("")));
        self.root.nodes.iter().find_map(|head| {
            let Some(OriginalName::Head { format, version }) = parse(head) else { return None };
            let counts = head.children.iter().flatten().filter_map(|c| self.root.nodes.get(c.value()));
            let counts = counts
                .filter_map(|c| match parse(c) {
                    Some(OriginalName::Count { key, count }) => Some((key, count)),
                    _ => None,
                })
                .collect();
            Some(Original { format, version, counts, files: Vec::new() })
        })
    }

    /// A name as the model should have it: without Blender's `.001` suffix in a file Blender (or
    /// another tool) wrote.
    fn clean_name<'n>(&self, name: &'n str) -> &'n str {
        if self.foreign { crate::naming::strip_duplicate_suffix(name) } else { name }
    }

    fn scene_index(&self) -> Option<usize> {
        self.root.scene.map(|s| s.value()).or_else(|| (!self.root.scenes.is_empty()).then_some(0))
    }
}

#[cfg(test)]
mod tests {
    use super::{rearranged, recorded_order};

    #[test]
    fn items_go_back_to_their_recorded_places_only_when_every_one_has_its_own() {
        let order = recorded_order([Some(2), Some(0), Some(1)]).unwrap();
        assert_eq!(order, vec![1, 2, 0]);
        let mut items = vec!["c", "a", "b"];
        rearranged(&mut items, &order);
        assert_eq!(items, ["a", "b", "c"]);
        assert_eq!(recorded_order([Some(0), None]), None, "an item without a record");
        assert_eq!(recorded_order([Some(1), Some(1)]), None, "two items with one place");
    }
}
