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

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::path::{Path, PathBuf};

use gltf_json as json;
use json::accessor::ComponentType;
use json::animation::{Interpolation as GltfInterpolation, Property};
use json::mesh::{Mode, Semantic};
use json::validation::Checked::Valid;
use json::{Index, Root};
use relic_core::FormatId;
use relic_core::math::{self, Mat4};
use relic_core::model::{
    Aabb, Animation, Attachment, BlendMode, Bone, BoneFlags, Channel, ChannelValues, Clock, FormatExtras, Influence,
    Interpolation, KeyBounds, Lod, Material, Mesh, Model, MorphChannel, MorphTarget, Skin, SourceInfo, TextureRef,
    Transform,
};
use relic_core::validate::{UNIT_TOLERANCE, WEIGHT_SUM_TOLERANCE};

use crate::GltfError;
use crate::extras::{self as ex};
use crate::read::{Reader, load_buffers, parse_json, percent_decode, split_container};

/// How far an imported vertex's weights may sum from 1 before import refuses them (8-bit weights
/// are off by up to 4 × 0.5/255).
pub const WEIGHT_IMPORT_TOLERANCE: f32 = 0.01;

/// Decoded data may total this many bytes per input byte (plus [`DECODE_FIXED`]).
const DECODE_PER_INPUT_BYTE: u64 = 32;
const DECODE_FIXED: u64 = 1 << 20;
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

struct Importer<'a> {
    root: &'a Root,
    reader: Reader<'a>,
    model: Model,
    /// Bytes the copies of meshes drawn by several nodes may still total.
    copy_budget: u64,
}

/// The node hierarchy: parent of every node, and the scene's nodes in depth-first order.
struct Tree {
    parent: Vec<Option<usize>>,
    order: Vec<usize>,
}

fn node_local(n: &json::Node) -> Transform {
    if let Some(m) = n.matrix {
        let (translation, rotation, scale) = math::decompose(&m);
        return Transform { translation, rotation, scale };
    }
    Transform {
        translation: n.translation.unwrap_or([0.0; 3]),
        rotation: n.rotation.map_or([0.0, 0.0, 0.0, 1.0], |q| unit(q.0)),
        scale: n.scale.unwrap_or([1.0; 3]),
    }
}

fn node_matrix(n: &json::Node) -> Mat4 {
    n.matrix.unwrap_or_else(|| node_local(n).to_matrix())
}

/// A rotation made unit where it is further from unit than the model allows (zero: identity).
fn unit(q: [f32; 4]) -> [f32; 4] {
    let len = math::quat_norm(q);
    if (len - 1.0).abs() <= UNIT_TOLERANCE {
        q
    } else if len > 0.0 && len.is_finite() {
        q.map(|c| c / len)
    } else {
        [0.0, 0.0, 0.0, 1.0]
    }
}

impl Importer<'_> {
    fn run(&mut self) -> Result<(), GltfError> {
        let tree = self.tree()?;
        let root_extras: Option<ex::RootExtras> = ex::unwrap(&self.root.extras);
        self.model_info(root_extras.as_ref());
        let synthetic = root_extras.as_ref().and_then(|r| r.synthetic_root);
        let node_bone = self.bones(&tree, synthetic)?;
        self.materials();
        let node_meshes = self.meshes(&tree, &node_bone)?;
        self.attachments(&tree, &node_bone);
        self.animations(&node_bone, &node_meshes)?;
        Ok(())
    }

    fn model_info(&mut self, extras: Option<&ex::RootExtras>) {
        let scene_name = self.scene_index().and_then(|s| self.root.scenes.get(s)).and_then(|s| s.name.clone());
        self.model.name = extras.map(|e| e.name.clone()).or(scene_name).unwrap_or_else(|| "gltf".into());
        let kind = FormatId::parse;
        self.model.source = extras
            .and_then(|e| e.source.as_ref())
            .and_then(|s| kind(&s.format).map(|format| SourceInfo { format, version: s.version }))
            .or(Some(SourceInfo { format: crate::FORMAT, version: 2 }));
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

    fn scene_index(&self) -> Option<usize> {
        self.root.scene.map(|s| s.value()).or_else(|| (!self.root.scenes.is_empty()).then_some(0))
    }

    /// Parents of every node (refusing a node with two parents or a cycle) and the scene's nodes
    /// in depth-first order (all parentless nodes when there is no scene).
    fn tree(&self) -> Result<Tree, GltfError> {
        let nodes = &self.root.nodes;
        let mut parent: Vec<Option<usize>> = vec![None; nodes.len()];
        for (p, n) in nodes.iter().enumerate() {
            for c in n.children.iter().flatten() {
                let slot = parent
                    .get_mut(c.value())
                    .ok_or_else(|| GltfError::invalid(format!("nodes[{p}]"), "child out of range"))?;
                if slot.is_some() || c.value() == p {
                    return Err(GltfError::invalid(
                        format!("nodes[{}]", c.value()),
                        "has more than one parent: the node hierarchy is not a tree",
                    ));
                }
                *slot = Some(p);
            }
        }
        // With one parent each, a node is in (or under) a cycle exactly when no parentless node
        // reaches it: one pass from the roots instead of a walk to the root from every node.
        let mut reached = vec![false; nodes.len()];
        let mut stack: Vec<usize> = (0..nodes.len()).filter(|&n| parent.get(n) == Some(&None)).collect();
        for &n in &stack {
            if let Some(r) = reached.get_mut(n) {
                *r = true;
            }
        }
        while let Some(n) = stack.pop() {
            for c in nodes.get(n).and_then(|node| node.children.as_ref()).into_iter().flatten() {
                if let Some(r) = reached.get_mut(c.value())
                    && !std::mem::replace(r, true)
                {
                    stack.push(c.value());
                }
            }
        }
        if let Some(start) = reached.iter().position(|r| !r) {
            // Up from it until a node repeats: that node is on the cycle.
            let mut on_path = vec![false; nodes.len()];
            let mut at = start;
            while let Some(seen) = on_path.get_mut(at)
                && !std::mem::replace(seen, true)
            {
                at = parent.get(at).copied().flatten().unwrap_or(at);
            }
            return Err(GltfError::invalid(
                format!("nodes[{at}]"),
                "is its own ancestor: the node hierarchy has a cycle",
            ));
        }
        let roots: Vec<usize> = match self.scene_index().and_then(|s| self.root.scenes.get(s)) {
            Some(scene) => scene.nodes.iter().map(|n| n.value()).filter(|&n| parent.get(n) == Some(&None)).collect(),
            None => (0..nodes.len()).filter(|&n| parent.get(n) == Some(&None)).collect(),
        };
        let mut order = Vec::with_capacity(nodes.len());
        let mut seen = vec![false; nodes.len()];
        let mut stack: Vec<usize> = roots.into_iter().rev().collect();
        while let Some(n) = stack.pop() {
            if std::mem::replace(seen.get_mut(n).unwrap_or(&mut true), true) {
                continue;
            }
            order.push(n);
            if let Some(node) = nodes.get(n) {
                stack.extend(node.children.iter().flatten().map(|c| c.value()).rev());
            }
        }
        Ok(Tree { parent, order })
    }

    /// Bones from the skins' joints and their ancestors, parents first. Returns node → bone.
    fn bones(&mut self, tree: &Tree, synthetic: Option<usize>) -> Result<Vec<Option<usize>>, GltfError> {
        let nodes = &self.root.nodes;
        let synthetic = synthetic
            .filter(|&s| nodes.get(s).is_some_and(|n| node_local(n) == Transform::IDENTITY && n.mesh.is_none()));
        // Nodes that animations move: an ancestor of joints that moves is a bone even if its rest
        // transform is the identity.
        let mut animated = vec![false; nodes.len()];
        for ch in self.root.animations.iter().flat_map(|a| &a.channels) {
            if let Some(x) = animated.get_mut(ch.target.node.value()) {
                *x = true;
            }
        }
        let mut is_joint = vec![false; nodes.len()];
        for j in self.root.skins.iter().flat_map(|s| &s.joints) {
            if let Some(x) = is_joint.get_mut(j.value()) {
                *x = true;
            }
        }
        // Joints and their ancestors, except ancestors that change nothing (an identity, never
        // animated node such as Blender's armature object) and relic's synthetic root.
        let mut candidates: Vec<usize> = Vec::new();
        let mut is_bone = vec![false; nodes.len()];
        let mut visited = vec![false; nodes.len()];
        for skin in &self.root.skins {
            for j in &skin.joints {
                let mut at = Some(j.value());
                while let Some(n) = at {
                    if Some(n) == synthetic || std::mem::replace(visited.get_mut(n).unwrap_or(&mut true), true) {
                        break;
                    }
                    let inert = nodes.get(n).is_none_or(|node| node_local(node) == Transform::IDENTITY)
                        && !animated.get(n).copied().unwrap_or(false);
                    if is_joint.get(n).copied().unwrap_or(false) || !inert {
                        if let Some(b) = is_bone.get_mut(n) {
                            *b = true;
                        }
                        candidates.push(n);
                    }
                    at = tree.parent.get(n).copied().flatten();
                }
            }
        }
        // The nearest ancestor that is a bone.
        let bone_at_or_above = nearest_marked(&tree.parent, &is_bone);
        let bone_parent =
            |n: usize| tree.parent.get(n).copied().flatten().and_then(|p| bone_at_or_above.get(p).copied().flatten());
        // Keep the first skin's joint order (joints are pushed before their ancestors above, so
        // re-sort: joints of skins in order first, then the other ancestors).
        let mut ordered: Vec<usize> = Vec::with_capacity(candidates.len());
        let mut queued = vec![false; nodes.len()];
        for n in
            self.root.skins.iter().flat_map(|s| s.joints.iter().map(|j| j.value())).chain(candidates.iter().copied())
        {
            if is_bone.get(n).copied().unwrap_or(false)
                && !std::mem::replace(queued.get_mut(n).unwrap_or(&mut true), true)
            {
                ordered.push(n);
            }
        }
        // Parents first, stable.
        let mut node_bone: Vec<Option<usize>> = vec![None; nodes.len()];
        let mut placed: Vec<usize> = Vec::with_capacity(ordered.len());
        for &n in &ordered {
            let mut chain = Vec::new();
            let mut at = Some(n);
            while let Some(x) = at {
                if node_bone.get(x).copied().flatten().is_some() {
                    break;
                }
                chain.push(x);
                at = bone_parent(x);
            }
            for &x in chain.iter().rev() {
                if let Some(slot) = node_bone.get_mut(x) {
                    *slot = Some(placed.len());
                }
                placed.push(x);
            }
        }
        // Inverse bind matrices: from the first skin that lists the joint.
        let mut ibm: Vec<Option<Mat4>> = vec![None; nodes.len()];
        for (s, skin) in self.root.skins.iter().enumerate() {
            let Some(accessor) = skin.inverse_bind_matrices else { continue };
            let matrices = self.reader.floats::<16>(accessor, &[ComponentType::F32])?;
            if matrices.len() < skin.joints.len() {
                return Err(GltfError::invalid(
                    format!("skins[{s}]"),
                    format!("{} inverse bind matrices for {} joints", matrices.len(), skin.joints.len()),
                ));
            }
            for (j, m) in skin.joints.iter().zip(matrices) {
                if let Some(slot) = ibm.get_mut(j.value())
                    && slot.is_none()
                {
                    *slot = Some(m);
                }
            }
        }
        for (b, &n) in placed.iter().enumerate() {
            let Some(node) = nodes.get(n) else { continue };
            let extras: ex::BoneExtras = ex::unwrap(&node.extras).unwrap_or_default();
            let parent = bone_parent(n).and_then(|p| node_bone.get(p).copied().flatten());
            let flags = extras.flags.as_ref().map(BoneFlags::from).unwrap_or_default();
            let rest = extras.rest.map(Transform::from).unwrap_or_else(|| node_local(node));
            let name = node.name.clone().unwrap_or_else(|| format!("bone_{b}"));
            self.model.bones.push(Bone { name, parent, rest, flags, ..Bone::default() });
        }
        // Bind matrices: the stated inverse, or the rest pose where a bone is no joint.
        let globals = self.model.rest_globals();
        for (b, &n) in placed.iter().enumerate() {
            let extras: ex::BoneExtras = nodes.get(n).and_then(|node| ex::unwrap(&node.extras)).unwrap_or_default();
            let global = globals.get(b).copied().unwrap_or(math::IDENTITY);
            let (bind, inverse) = match ibm.get(n).copied().flatten() {
                Some(inv) => (math::inverse(&inv).unwrap_or(global), inv),
                None => (global, math::inverse(&global).unwrap_or(math::IDENTITY)),
            };
            let bind = extras.bind_matrix.as_deref().and_then(|m| <[f32; 16]>::try_from(m).ok()).unwrap_or(bind);
            if let Some(bone) = self.model.bones.get_mut(b) {
                bone.bind_matrix = bind;
                bone.inverse_bind_matrix = inverse;
            }
        }
        Ok(node_bone)
    }

    fn materials(&mut self) {
        for m in &self.root.materials {
            let extras: Option<ex::MaterialExtras> = ex::unwrap(&m.extras);
            let unlit = m.extensions.as_ref().is_some_and(|e| e.unlit.is_some());
            let blend = match (&extras, &m.alpha_mode) {
                (Some(e), _) if ex::blend_from_name(&e.blend).is_some() => {
                    ex::blend_from_name(&e.blend).unwrap_or_default()
                }
                (_, Valid(json::material::AlphaMode::Mask)) => BlendMode::AlphaKey,
                (_, Valid(json::material::AlphaMode::Blend)) => BlendMode::Alpha,
                _ => BlendMode::Opaque,
            };
            let textures = match &extras {
                Some(e) => e.textures.iter().map(TextureRef::from).collect(),
                None => self.texture_from_gltf(m).into_iter().collect(),
            };
            self.model.materials.push(Material {
                name: m.name.clone().unwrap_or_default(),
                textures,
                blend,
                double_sided: m.double_sided,
                unlit,
                unfogged: extras.as_ref().is_some_and(|e| e.unfogged),
                depth_write: extras.as_ref().is_none_or(|e| e.depth_write),
                specular: extras.as_ref().and_then(ex::MaterialExtras::specular),
            });
        }
    }

    /// The base color texture of a material made elsewhere: its image's URI or name as the path.
    fn texture_from_gltf(&self, m: &json::Material) -> Option<TextureRef> {
        let info = m.pbr_metallic_roughness.base_color_texture.as_ref()?;
        let texture = self.root.get(info.index)?;
        let image = self.root.get(texture.source)?;
        let path =
            image.uri.clone().filter(|u| !u.starts_with("data:")).or_else(|| image.name.clone()).unwrap_or_default();
        let sampler = texture.sampler.and_then(|s| self.root.get(s));
        let repeat = |w: Option<&json::validation::Checked<json::texture::WrappingMode>>| {
            !matches!(w, Some(Valid(json::texture::WrappingMode::ClampToEdge)))
        };
        Some(TextureRef {
            path,
            replaceable: None,
            uv_set: Some(info.tex_coord),
            wrap_u: repeat(sampler.map(|s| &s.wrap_s)),
            wrap_v: repeat(sampler.map(|s| &s.wrap_t)),
        })
    }

    /// Model meshes of every mesh node in scene order. Returns node → model mesh indices.
    fn meshes(&mut self, tree: &Tree, node_bone: &[Option<usize>]) -> Result<HashMap<usize, Vec<usize>>, GltfError> {
        let mut node_meshes: HashMap<usize, Vec<usize>> = HashMap::new();
        let root = self.root;
        let is_bone: Vec<bool> = node_bone.iter().map(Option::is_some).collect();
        let bone_above = nearest_marked(&tree.parent, &is_bone);
        let mut globals = Globals { root, parent: &tree.parent, memo: HashMap::new() };
        // How many nodes draw each mesh: its primitives are decoded once, copied for all but the
        // last of them, which takes the decoded data.
        let mut uses: HashMap<usize, usize> = HashMap::new();
        for &n in &tree.order {
            if let Some(m) = root.nodes.get(n).and_then(|node| node.mesh).filter(|&m| root.get(m).is_some()) {
                *uses.entry(m.value()).or_default() += 1;
            }
        }
        let mut decoded: HashMap<(usize, usize), Decoded> = HashMap::new();
        for &n in &tree.order {
            let Some(node) = root.nodes.get(n) else { continue };
            let Some(mesh_index) = node.mesh else { continue };
            let Some(mesh) = root.get(mesh_index) else { continue };
            let last_use = uses.get_mut(&mesh_index.value()).is_none_or(|left| {
                *left = left.saturating_sub(1);
                *left == 0
            });
            let joints: Option<Vec<Option<usize>>> = node
                .skin
                .and_then(|s| root.get(s))
                .map(|skin| skin.joints.iter().map(|j| node_bone.get(j.value()).copied().flatten()).collect());
            // Unskinned: bound rigidly to the nearest bone above, in model space.
            let global = globals.of(n);
            let rigid_bone = tree
                .parent
                .get(n)
                .copied()
                .flatten()
                .and_then(|p| bone_above.get(p).copied().flatten())
                .and_then(|p| node_bone.get(p).copied().flatten());
            let extras: Option<ex::MeshExtrasOuter> =
                mesh.extras.as_ref().and_then(|r| serde_json::from_str(r.get()).ok());
            let name = mesh
                .name
                .clone()
                .or_else(|| node.name.clone())
                .unwrap_or_else(|| format!("mesh_{}", mesh_index.value()));
            for (p, primitive) in mesh.primitives.iter().enumerate() {
                let element = format!("meshes[{}].primitives[{p}]", mesh_index.value());
                let key = (mesh_index.value(), p);
                let entry = match decoded.entry(key) {
                    Entry::Occupied(e) => e.into_mut(),
                    Entry::Vacant(v) => v.insert(Decoded { mesh: self.primitive(&element, primitive)?, weights: None }),
                };
                let Some(vertices) = entry.mesh.as_ref().map(|m| m.positions.len()) else { continue };
                if joints.is_some() && entry.weights.is_none() {
                    entry.weights = Some(self.weight_sets(&element, primitive, vertices)?);
                }
                let skin = match (&joints, &entry.weights) {
                    (Some(joints), Some(sets)) => skin_from(&element, sets, joints, vertices)?,
                    _ => Skin::default(),
                };
                let mesh = if last_use {
                    decoded.remove(&key).and_then(|d| d.mesh)
                } else {
                    let skin_bytes = skin.influences.len() as u64 * 8 + skin.offsets.len() as u64 * 4;
                    let bytes = entry.mesh.as_ref().map_or(0, mesh_bytes).saturating_add(skin_bytes);
                    self.charge_copy(&format!("nodes[{n}]"), &format!("mesh {}", mesh_index.value()), bytes)?;
                    entry.mesh.clone()
                };
                let Some(mesh) = mesh else { continue };
                let mut m = Mesh { skin, ..mesh };
                m.name = if p == 0 { name.clone() } else { format!("{name}.{p}") };
                if let Some(e) = &extras {
                    if let Some(r) = &e.relic {
                        m.lod = Lod {
                            level: r.lod,
                            distance: if r.lod_distance.is_finite() { r.lod_distance } else { 0.0 },
                        };
                        m.part_id = r.part_id;
                    }
                    for (t, target) in m.morph_targets.iter_mut().enumerate() {
                        if let Some(name) = e.target_names.get(t) {
                            target.name = name.clone();
                        }
                    }
                }
                if joints.is_none() {
                    place_unskinned(&mut m, &global, rigid_bone);
                }
                node_meshes.entry(n).or_default().push(self.model.meshes.len());
                self.model.meshes.push(m);
            }
        }
        Ok(node_meshes)
    }

    /// Charges another copy of data decoded once (a mesh drawn by several nodes, the morph
    /// weights of a node's primitives) against the bytes copies may total.
    fn charge_copy(&mut self, element: &str, what: &str, bytes: u64) -> Result<(), GltfError> {
        if bytes > self.copy_budget {
            return Err(GltfError::invalid(
                element,
                format!("another copy of {what} ({bytes} bytes) exceeds what the input size allows"),
            ));
        }
        self.copy_budget -= bytes;
        Ok(())
    }

    /// One triangle primitive without its skin; `None` for points and lines or a primitive
    /// without positions.
    fn primitive(&mut self, element: &str, primitive: &json::mesh::Primitive) -> Result<Option<Mesh>, GltfError> {
        let mode = match primitive.mode {
            Valid(m) => m,
            _ => return Ok(None),
        };
        if !matches!(mode, Mode::Triangles | Mode::TriangleStrip | Mode::TriangleFan) {
            return Ok(None);
        }
        let attr = |s: Semantic| primitive.attributes.get(&Valid(s)).copied();
        let Some(pos) = attr(Semantic::Positions) else { return Ok(None) };
        let positions = self.reader.floats::<3>(pos, &[ComponentType::F32])?;
        let n = positions.len();
        let same = |what: &str, len: usize| -> Result<(), GltfError> {
            if len == n {
                Ok(())
            } else {
                Err(GltfError::invalid(element, format!("{what} has {len} elements for {n} positions")))
            }
        };
        let normals = match attr(Semantic::Normals) {
            Some(a) => {
                let v = self.reader.floats::<3>(a, &[ComponentType::F32, ComponentType::I8, ComponentType::I16])?;
                same("NORMAL", v.len())?;
                v
            }
            None => Vec::new(),
        };
        let uv_types =
            [ComponentType::F32, ComponentType::U8, ComponentType::U16, ComponentType::I8, ComponentType::I16];
        let mut uv_sets = Vec::new();
        for set in 0..2 {
            let Some(a) = attr(Semantic::TexCoords(set)) else { break };
            let v = self.reader.floats::<2>(a, &uv_types)?;
            same("TEXCOORD", v.len())?;
            uv_sets.push(v);
        }
        let indices: Vec<u32> = match primitive.indices {
            Some(a) => self.reader.ints::<1>(a)?.into_iter().map(|[i]| i).collect(),
            None => (0..n as u32).collect(),
        };
        if let Some((k, i)) = indices.iter().enumerate().find(|(_, i)| **i as usize >= n) {
            return Err(GltfError::invalid(element, format!("index {k} is {i}, past the {n} vertices")));
        }
        let triangles = unroll(mode, &indices);
        let mut morph_targets = Vec::new();
        for (t, target) in primitive.targets.iter().flatten().enumerate() {
            let position_deltas = match target.positions {
                Some(a) => self.reader.floats::<3>(a, &[ComponentType::F32, ComponentType::I8, ComponentType::I16])?,
                None => vec![[0.0; 3]; n],
            };
            same("morph target POSITION", position_deltas.len())?;
            let normal_deltas = match target.normals {
                Some(a) => self.reader.floats::<3>(a, &[ComponentType::F32, ComponentType::I8, ComponentType::I16])?,
                None => Vec::new(),
            };
            if !normal_deltas.is_empty() {
                same("morph target NORMAL", normal_deltas.len())?;
            }
            morph_targets.push(MorphTarget { name: format!("target_{t}"), position_deltas, normal_deltas });
        }
        let material = primitive.material.map(|m| m.value()).filter(|&m| m < self.model.materials.len());
        Ok(Some(Mesh {
            name: String::new(),
            material,
            positions,
            normals,
            uv_sets,
            skin: Skin::default(),
            triangles,
            lod: Lod::default(),
            part_id: None,
            morph_targets,
        }))
    }

    /// The `JOINTS_n`/`WEIGHTS_n` sets of a primitive of `n` vertices.
    fn weight_sets(
        &mut self,
        element: &str,
        primitive: &json::mesh::Primitive,
        n: usize,
    ) -> Result<WeightSets, GltfError> {
        let mut sets = Vec::new();
        for set in 0.. {
            let (Some(j), Some(w)) = (
                primitive.attributes.get(&Valid(Semantic::Joints(set))).copied(),
                primitive.attributes.get(&Valid(Semantic::Weights(set))).copied(),
            ) else {
                break;
            };
            let js = self.reader.ints::<4>(j)?;
            let ws = self.reader.floats::<4>(w, &[ComponentType::F32, ComponentType::U8, ComponentType::U16])?;
            if js.len() != n || ws.len() != n {
                return Err(GltfError::invalid(
                    element,
                    format!("JOINTS_{set}/WEIGHTS_{set} have {}/{} elements for {n} positions", js.len(), ws.len()),
                ));
            }
            sets.push((js, ws));
        }
        if sets.is_empty() {
            return Err(GltfError::invalid(element, "a skinned mesh without JOINTS_0/WEIGHTS_0"));
        }
        Ok(sets)
    }

    fn attachments(&mut self, tree: &Tree, node_bone: &[Option<usize>]) {
        // Node order (a relic export writes attachments in model order).
        let mut in_scene = tree.order.clone();
        in_scene.sort_unstable();
        for &n in &in_scene {
            let Some(node) = self.root.nodes.get(n) else { continue };
            if node_bone.get(n).copied().flatten().is_some() || node.mesh.is_some() || node.camera.is_some() {
                continue;
            }
            let Some(bone) = tree.parent.get(n).copied().flatten().and_then(|p| node_bone.get(p).copied().flatten())
            else {
                continue;
            };
            let extras: Option<ex::AttachmentExtras> = ex::unwrap(&node.extras);
            let is_leaf = node.children.as_ref().is_none_or(Vec::is_empty);
            if extras.as_ref().is_some_and(|e| e.attachment) || is_leaf {
                self.model.attachments.push(Attachment {
                    name: node.name.clone().unwrap_or_default(),
                    id: extras.and_then(|e| e.id),
                    bone,
                    transform: node_local(node),
                });
            }
        }
    }

    fn animations(
        &mut self,
        node_bone: &[Option<usize>],
        node_meshes: &HashMap<usize, Vec<usize>>,
    ) -> Result<(), GltfError> {
        let root = self.root;
        for (a, anim) in root.animations.iter().enumerate() {
            let element = format!("animations[{a}]");
            let extras: Option<ex::AnimationExtras> = ex::unwrap(&anim.extras);
            let order = extras.as_ref().map(|e| &e.channels).filter(|c| c.len() == anim.channels.len());
            let mut channels: Vec<(usize, Channel)> = Vec::new();
            let mut morph_channels = Vec::new();
            let mut last_time = 0.0f32;
            for (c, ch) in anim.channels.iter().enumerate() {
                let element = format!("{element}.channels[{c}]");
                let Some(sampler) = anim.samplers.get(ch.sampler.value()) else {
                    return Err(GltfError::invalid(element, "sampler out of range"));
                };
                let Valid(path) = ch.target.path else { continue };
                let Valid(interp) = sampler.interpolation else { continue };
                let node = ch.target.node.value();
                // A bone channel relic's export baked (or a hold key): the original is in the stash.
                let original = match order {
                    Some(o) if path != Property::MorphTargetWeights => match o.get(c).copied().flatten() {
                        Some(i) => Some(i),
                        None => continue,
                    },
                    _ => None,
                };
                let times = self.times(&element, sampler.input)?;
                last_time = last_time.max(times.last().copied().unwrap_or(0.0));
                let interpolation = match interp {
                    GltfInterpolation::Step => Interpolation::Step,
                    GltfInterpolation::Linear => Interpolation::Linear,
                    GltfInterpolation::CubicSpline => Interpolation::CubicSpline,
                };
                let per_key = if interpolation == Interpolation::CubicSpline { 3 } else { 1 };
                if path == Property::MorphTargetWeights {
                    let meshes = node_meshes.get(&node).map_or(&[][..], Vec::as_slice);
                    if meshes.is_empty() {
                        continue;
                    }
                    // Decoded once for all the primitives (model meshes) of the node.
                    let weights = self.reader.floats::<1>(
                        sampler.output,
                        &[
                            ComponentType::F32,
                            ComponentType::U8,
                            ComponentType::U16,
                            ComponentType::I8,
                            ComponentType::I16,
                        ],
                    )?;
                    for (k, &mesh) in meshes.iter().enumerate() {
                        let targets = self.model.meshes.get(mesh).map_or(0, |m| m.morph_targets.len());
                        if targets == 0 || weights.len() != times.len() * per_key * targets {
                            return Err(GltfError::invalid(
                                element,
                                format!("{} weights for {} keys of {targets} targets", weights.len(), times.len()),
                            ));
                        }
                        if k > 0 {
                            let bytes = (weights.len() as u64 / per_key as u64 + times.len() as u64) * 4;
                            self.charge_copy(&element, "the morph weights", bytes)?;
                        }
                        // Cubic weights: keep the values, drop the tangents.
                        let weights: Vec<f32> = weights
                            .chunks_exact(targets * per_key)
                            .flat_map(|key| {
                                key.iter().skip(if per_key == 3 { targets } else { 0 }).take(targets).map(|[w]| *w)
                            })
                            .collect();
                        let interpolation = if interpolation == Interpolation::Step {
                            Interpolation::Step
                        } else {
                            Interpolation::Linear
                        };
                        morph_channels.push(MorphChannel { mesh, interpolation, times: times.clone(), weights });
                    }
                    continue;
                }
                let Some(bone) = node_bone.get(node).copied().flatten() else { continue };
                let count = times.len() * per_key;
                let values = match path {
                    Property::Translation => {
                        ChannelValues::Translation(self.reader.floats::<3>(sampler.output, &[ComponentType::F32])?)
                    }
                    Property::Scale => {
                        ChannelValues::Scale(self.reader.floats::<3>(sampler.output, &[ComponentType::F32])?)
                    }
                    Property::Rotation => {
                        let types = [
                            ComponentType::F32,
                            ComponentType::I8,
                            ComponentType::U8,
                            ComponentType::I16,
                            ComponentType::U16,
                        ];
                        let mut q = self.reader.floats::<4>(sampler.output, &types)?;
                        for (k, v) in q.iter_mut().enumerate() {
                            if per_key == 1 || k % 3 == 1 {
                                *v = unit(*v);
                            }
                        }
                        ChannelValues::Rotation(q)
                    }
                    Property::MorphTargetWeights => continue,
                };
                if values.len() != count {
                    return Err(GltfError::invalid(
                        element,
                        format!("{} values for {} keys ({per_key} per key)", values.len(), times.len()),
                    ));
                }
                let index = original.unwrap_or(channels.len());
                channels.push((index, Channel { bone, clock: Clock::Animation, interpolation, times, values }));
            }
            if let Some(e) = &extras
                && order.is_some()
            {
                channels.extend(e.stashed.iter().filter_map(|s| s.channel().map(|c| (s.index, c))));
                channels.sort_by_key(|(i, _)| *i);
            }
            let bounds = |b: [[f32; 3]; 2]| Aabb { min: b[0], max: b[1] };
            let animation = Animation {
                name: anim.name.clone().unwrap_or_else(|| format!("animation_{a}")),
                duration: extras
                    .as_ref()
                    .map(|e| e.duration)
                    .filter(|d| d.is_finite() && *d >= 0.0)
                    .unwrap_or(last_time),
                looping: extras.as_ref().is_some_and(|e| e.looping),
                blend_in: extras.as_ref().map_or(0.0, |e| e.blend_in),
                channels: channels.into_iter().map(|(_, c)| c).collect(),
                morph_channels,
                events: extras.as_ref().map(|e| e.events.iter().map(Into::into).collect()).unwrap_or_default(),
                bounds: extras.as_ref().and_then(|e| e.bounds).map(bounds),
                key_bounds: extras
                    .as_ref()
                    .map(|e| {
                        e.key_bounds
                            .iter()
                            .map(|(time, min, max)| KeyBounds { time: *time, bounds: Aabb { min: *min, max: *max } })
                            .collect()
                    })
                    .unwrap_or_default(),
            };
            self.model.animations.push(animation);
        }
        Ok(())
    }

    /// Key times of a sampler input: finite and strictly increasing.
    fn times(&mut self, element: &str, input: Index<json::Accessor>) -> Result<Vec<f32>, GltfError> {
        let times: Vec<f32> = self.reader.floats::<1>(input, &[ComponentType::F32])?.into_iter().map(|[t]| t).collect();
        if let Some(k) = times.windows(2).position(|w| !matches!(w, [a, b] if b > a)) {
            return Err(GltfError::invalid(
                element,
                format!("key time {} does not come after the previous one", k + 1),
            ));
        }
        if times.iter().any(|t| !t.is_finite()) || times.is_empty() {
            return Err(GltfError::invalid(element, "key times must be finite and at least one"));
        }
        Ok(times)
    }
}

/// `JOINTS_n`/`WEIGHTS_n` sets decoded from a primitive: joint indices and weights per vertex.
type WeightSets = Vec<(Vec<[u32; 4]>, Vec<[f32; 4]>)>;

/// A primitive decoded once for every node that draws it: the mesh without its skin (`None` for
/// points, lines or no positions), and its weight sets once a skinned node draws it.
struct Decoded {
    mesh: Option<Mesh>,
    weights: Option<WeightSets>,
}

/// Heap bytes of a decoded mesh (what another copy of it costs).
fn mesh_bytes(m: &Mesh) -> u64 {
    let n = |len: usize, size: usize| len as u64 * size as u64;
    n(m.positions.len(), 12)
        + n(m.normals.len(), 12)
        + m.uv_sets.iter().map(|u| n(u.len(), 8)).sum::<u64>()
        + n(m.triangles.len(), 12)
        + n(m.skin.influences.len(), 8)
        + n(m.skin.offsets.len(), 4)
        + m.morph_targets.iter().map(|t| n(t.position_deltas.len(), 12) + n(t.normal_deltas.len(), 12)).sum::<u64>()
}

/// Influences of `n` vertices from their weight sets, joints remapped to bones.
fn skin_from(element: &str, sets: &WeightSets, joints: &[Option<usize>], n: usize) -> Result<Skin, GltfError> {
    let mut skin = Skin { offsets: Vec::with_capacity(n + 1), influences: Vec::with_capacity(n * 4) };
    skin.offsets.push(0);
    let mut list: Vec<(u32, f32)> = Vec::with_capacity(8);
    for v in 0..n {
        list.clear();
        for (js, ws) in sets {
            let (Some(j), Some(w)) = (js.get(v), ws.get(v)) else { continue };
            for (&joint, &weight) in j.iter().zip(w) {
                if weight <= 0.0 || !weight.is_finite() {
                    continue;
                }
                let bone = joints.get(joint as usize).copied().flatten().ok_or_else(|| {
                    GltfError::invalid(
                        element,
                        format!("vertex {v} uses joint {joint} of a skin with {} joints", joints.len()),
                    )
                })? as u32;
                match list.iter_mut().find(|(b, _)| *b == bone) {
                    Some(e) => e.1 += weight,
                    None => list.push((bone, weight)),
                }
            }
        }
        let sum: f32 = list.iter().map(|(_, w)| w).sum();
        if list.is_empty() {
            return Err(GltfError::invalid(
                element,
                format!(
                    "vertex {v} has no bone weight: every vertex of a skinned mesh needs one (in Blender: assign it to a vertex group, then Normalize All)"
                ),
            ));
        }
        if (sum - 1.0).abs() > WEIGHT_IMPORT_TOLERANCE {
            return Err(GltfError::invalid(element, format!("vertex {v} weights sum to {sum}, not 1")));
        }
        let scale = if (sum - 1.0).abs() > WEIGHT_SUM_TOLERANCE / 10.0 { 1.0 / sum } else { 1.0 };
        skin.influences.extend(list.iter().map(|&(bone, w)| Influence { bone, weight: w * scale }));
        skin.offsets.push(skin.influences.len() as u32);
    }
    Ok(skin)
}

/// For every node, the nearest node at or above it (itself, its parent, …) with `mark` set: one
/// pass, each node's answer shared with the nodes below it (every node of the walk up to a marked
/// node or a root has the same answer). `parent` must have no cycle.
fn nearest_marked(parent: &[Option<usize>], mark: &[bool]) -> Vec<Option<usize>> {
    let mut memo: Vec<Option<Option<usize>>> = vec![None; parent.len()];
    let mut chain = Vec::new();
    for start in 0..parent.len() {
        let mut at = start;
        let found = loop {
            if let Some(known) = memo.get(at).copied().flatten() {
                break known;
            }
            chain.push(at);
            if mark.get(at).copied().unwrap_or(false) {
                break Some(at);
            }
            match parent.get(at).copied().flatten() {
                // More steps than nodes: a cycle (refused before; never loop).
                Some(p) if chain.len() <= parent.len() => at = p,
                _ => break None,
            }
        };
        for n in chain.drain(..) {
            if let Some(slot) = memo.get_mut(n) {
                *slot = Some(found);
            }
        }
    }
    memo.into_iter().map(Option::flatten).collect()
}

/// Global matrices of nodes, each computed once from its parent's (only for the nodes asked for
/// and their ancestors).
struct Globals<'a> {
    root: &'a Root,
    parent: &'a [Option<usize>],
    memo: HashMap<usize, Mat4>,
}

impl Globals<'_> {
    fn of(&mut self, n: usize) -> Mat4 {
        // Up to the first node already known (or the root), then down multiplying.
        let mut chain = Vec::new();
        let mut at = Some(n);
        let mut global = math::IDENTITY;
        while let Some(x) = at {
            if let Some(known) = self.memo.get(&x) {
                global = *known;
                break;
            }
            chain.push(x);
            at = self.parent.get(x).copied().flatten().filter(|_| chain.len() <= self.parent.len());
        }
        for &x in chain.iter().rev() {
            if let Some(node) = self.root.nodes.get(x) {
                global = math::mul(&global, &node_matrix(node));
            }
            self.memo.insert(x, global);
        }
        global
    }
}

/// Triangles of a triangle list, strip or fan.
fn unroll(mode: Mode, indices: &[u32]) -> Vec<[u32; 3]> {
    match mode {
        Mode::TriangleStrip => indices
            .windows(3)
            .enumerate()
            .filter_map(|(k, w)| match w {
                [a, b, c] if k % 2 == 0 => Some([*a, *b, *c]),
                [a, b, c] => Some([*b, *a, *c]),
                _ => None,
            })
            .collect(),
        Mode::TriangleFan => {
            let Some(&first) = indices.first() else { return Vec::new() };
            indices
                .get(1..)
                .unwrap_or_default()
                .windows(2)
                .filter_map(|w| match w {
                    [b, c] => Some([first, *b, *c]),
                    _ => None,
                })
                .collect()
        }
        _ => indices.chunks_exact(3).map(|c| std::array::from_fn(|i| c.get(i).copied().unwrap_or(0))).collect(),
    }
}

/// Moves an unskinned mesh into model space by its node's global transform and binds it rigidly
/// to `bone` if it hangs under one.
fn place_unskinned(mesh: &mut Mesh, global: &Mat4, bone: Option<usize>) {
    if *global != math::IDENTITY {
        for p in &mut mesh.positions {
            *p = math::transform_point(global, *p);
        }
        let normal_matrix = math::inverse(global).map(|m| math::transpose(&m)).unwrap_or(math::IDENTITY);
        for n in &mut mesh.normals {
            *n = math::normalize3(math::transform_vector(&normal_matrix, *n)).unwrap_or(*n);
        }
        for t in &mut mesh.morph_targets {
            for d in &mut t.position_deltas {
                *d = math::transform_vector(global, *d);
            }
            for d in &mut t.normal_deltas {
                *d = math::transform_vector(&normal_matrix, *d);
            }
        }
        let det = determinant3(global);
        if det < 0.0 {
            for t in &mut mesh.triangles {
                t.swap(1, 2);
            }
        }
    }
    if let Some(bone) = bone {
        mesh.skin =
            Skin::from_vertices((0..mesh.positions.len()).map(|_| [Influence { bone: bone as u32, weight: 1.0 }]));
    }
}

fn determinant3(m: &Mat4) -> f32 {
    let e = |r, c| math::at(m, r, c);
    e(0, 0) * (e(1, 1) * e(2, 2) - e(1, 2) * e(2, 1)) - e(0, 1) * (e(1, 0) * e(2, 2) - e(1, 2) * e(2, 0))
        + e(0, 2) * (e(1, 0) * e(2, 1) - e(1, 1) * e(2, 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_marked_is_the_node_itself_or_its_closest_marked_ancestor() {
        // 0 ← 1 ← 2 ← 3 ← 4, and 5 under 1.
        let parent = [None, Some(0), Some(1), Some(2), Some(3), Some(1)];
        assert_eq!(nearest_marked(&parent, &[true; 6]), [Some(0), Some(1), Some(2), Some(3), Some(4), Some(5)]);
        let mark = [false, true, false, false, true, false];
        assert_eq!(nearest_marked(&parent, &mark), [None, Some(1), Some(1), Some(1), Some(4), Some(1)]);
        assert_eq!(nearest_marked(&parent, &[false; 6]), [None; 6]);
    }
}
