//! Common model → glTF 2.0 (`.glb`, or `.gltf` + `.bin`).

use std::collections::HashMap;

use gltf_json as json;
use json::animation::{Interpolation as GltfInterpolation, Property};
use json::buffer::Target;
use json::material::{AlphaCutoff, AlphaMode, PbrBaseColorFactor, PbrMetallicRoughness, StrengthFactor};
use json::mesh::{Mode, Semantic};
use json::scene::UnitQuaternion;
use json::validation::{Checked::Valid, USize64};
use json::{Index, Root};
use relic_core::model::{
    Animation, BlendMode, ChannelValues, Interpolation, Material, Mesh, Model, MorphChannel, Transform,
};
use relic_core::{Converted, Loss};

use crate::bake;
use crate::buffer::BinBuilder;
use crate::extras::{self as ex, StashedChannel};
use crate::textures::{TextureIndex, mime_type};
use crate::{ExportOptions, GltfError};

/// The most joints a skin may have here (JOINTS as u16).
const MAX_JOINTS: usize = u16::MAX as usize + 1;
/// How far a normal's length may be from 1 before export renormalises it (the validator allows
/// 0.00674).
const NORMAL_TOLERANCE: f32 = 5e-3;

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
    let Converted { value: doc, losses } = build(model, options, None)?;
    let json = json::serialize::to_vec(&doc.root).map_err(|e| GltfError::Json(e.to_string()))?;
    let glb = gltf::binary::Glb {
        header: gltf::binary::Header { magic: *b"glTF", version: 2, length: 0 },
        json: std::borrow::Cow::Owned(json),
        bin: (!doc.bin.is_empty()).then_some(std::borrow::Cow::Owned(doc.bin)),
    };
    let bytes = glb.to_vec().map_err(|e| GltfError::Json(e.to_string()))?;
    Ok(Converted { value: bytes, losses })
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
    model.validate()?;
    if model.bones.len() > MAX_JOINTS {
        return Err(GltfError::TooLarge { what: "bones".into(), count: model.bones.len(), limit: MAX_JOINTS });
    }
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
    };
    e.asset()?;
    e.bones()?;
    e.attachments()?;
    let materials = e.materials()?;
    e.meshes(&materials)?;
    e.skin_and_scene();
    for anim in &model.animations {
        e.animation(anim)?;
    }
    e.root_extras()?;
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
    Ok(Converted { value: Document { root, bin }, losses })
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

    /// Node `i` is bone `i`.
    fn bones(&mut self) -> Result<(), GltfError> {
        let model = self.model;
        for (b, bone) in model.bones.iter().enumerate() {
            let t = self.rest.get(b).copied().unwrap_or(bone.rest);
            let mut n = node_trs(&bone.name, &t);
            let mut extras = ex::BoneExtras::default();
            if bone.flags != relic_core::model::BoneFlags::default() {
                extras.flags = Some(bone.flags.into());
            }
            if t != bone.rest {
                extras.rest = Some(bone.rest.into());
            }
            let inverse = relic_core::math::inverse(&bone.inverse_bind_matrix);
            if inverse != Some(bone.bind_matrix) {
                extras.bind_matrix = Some(bone.bind_matrix.to_vec());
            }
            if extras.flags.is_some() || extras.rest.is_some() || extras.bind_matrix.is_some() {
                n.extras = ex::wrap(extras)?;
            }
            self.root.push(n);
        }
        for (b, bone) in model.bones.iter().enumerate() {
            if let Some(p) = bone.parent {
                push_child(&mut self.root, Index::new(p as u32), Index::new(b as u32));
            }
        }
        let roots: Vec<usize> =
            (0..model.bones.len()).filter(|&b| model.bones.get(b).is_some_and(|x| x.parent.is_none())).collect();
        if roots.len() > 1 {
            let mut n = node("relic_root");
            n.children = Some(roots.iter().map(|&r| Index::new(r as u32)).collect());
            self.synthetic_root = Some(self.root.push(n));
        }
        Ok(())
    }

    fn attachments(&mut self) -> Result<(), GltfError> {
        for a in &self.model.attachments {
            let mut n = node_trs(&a.name, &a.transform);
            n.extras = ex::wrap(ex::AttachmentExtras { attachment: true, id: a.id })?;
            let index = self.root.push(n);
            push_child(&mut self.root, Index::new(a.bone as u32), index);
        }
        Ok(())
    }

    /// Materials in model order; returns, per material, the texture to reference (if any) with its
    /// UV set.
    fn materials(&mut self) -> Result<Vec<Index<json::Material>>, GltfError> {
        let model = self.model;
        let index = self.options.texture_dir.as_deref().map(TextureIndex::new);
        let mut images: HashMap<std::path::PathBuf, Index<json::Image>> = HashMap::new();
        let mut out = Vec::with_capacity(model.materials.len());
        for (m, material) in model.materials.iter().enumerate() {
            let texture = match &index {
                Some(index) => self.texture(m, material, index, &mut images)?,
                None => None,
            };
            out.push(self.material(material, texture)?);
        }
        Ok(out)
    }

    /// The base texture of a material, if a PNG/JPEG of it exists and every mesh using the
    /// material has the UV set it names.
    fn texture(
        &mut self,
        m: usize,
        material: &Material,
        index: &TextureIndex,
        images: &mut HashMap<std::path::PathBuf, Index<json::Image>>,
    ) -> Result<Option<json::texture::Info>, GltfError> {
        let Some(tex) = material.textures.first() else { return Ok(None) };
        let Some(path) = index.find(&tex.path).map(std::path::Path::to_path_buf) else { return Ok(None) };
        let element = format!("materials[{m}] {:?}", material.name);
        let Some(uv) = tex.uv_set else {
            self.loss(element, "environment-mapped texture: no image referenced (glTF has no sphere mapping)");
            return Ok(None);
        };
        let users = self.model.meshes.iter().filter(|mesh| mesh.material == Some(m));
        if users.clone().any(|mesh| mesh.uv_sets.len() <= uv as usize) || uv > 1 {
            self.loss(element, format!("texture uses UV set {uv}, which a mesh lacks: no image referenced"));
            return Ok(None);
        }
        let image = match images.get(&path) {
            Some(i) => *i,
            None => {
                let bytes = match std::fs::read(&path) {
                    Ok(b) => b,
                    Err(e) => {
                        self.loss(element, format!("cannot read {}: {e}", path.display()));
                        return Ok(None);
                    }
                };
                let Some(mime) = mime_type(&bytes) else {
                    self.loss(element, format!("{} is not a PNG or JPEG", path.display()));
                    return Ok(None);
                };
                let view = self.bin.view(&mut self.root, &bytes, None);
                let name = path.file_name().map(|n| n.to_string_lossy().to_string());
                let i = self.root.push(json::Image {
                    buffer_view: Some(view),
                    mime_type: Some(json::image::MimeType(mime.into())),
                    name,
                    uri: None,
                    extensions: None,
                    extras: Default::default(),
                });
                images.insert(path, i);
                i
            }
        };
        let wrap = |repeat: bool| {
            Valid(if repeat { json::texture::WrappingMode::Repeat } else { json::texture::WrappingMode::ClampToEdge })
        };
        let sampler = self.root.push(json::texture::Sampler {
            mag_filter: None,
            min_filter: None,
            name: None,
            wrap_s: wrap(tex.wrap_u),
            wrap_t: wrap(tex.wrap_v),
            extensions: None,
            extras: Default::default(),
        });
        let texture = self.root.push(json::Texture {
            name: Some(tex.path.clone()),
            sampler: Some(sampler),
            source: image,
            extensions: None,
            extras: Default::default(),
        });
        Ok(Some(json::texture::Info { index: texture, tex_coord: uv, extensions: None, extras: Default::default() }))
    }

    fn material(
        &mut self,
        material: &Material,
        texture: Option<json::texture::Info>,
    ) -> Result<Index<json::Material>, GltfError> {
        let (alpha_mode, alpha_cutoff) = match material.blend {
            BlendMode::Opaque => (AlphaMode::Opaque, None),
            BlendMode::AlphaKey => (AlphaMode::Mask, Some(AlphaCutoff(0.5))),
            _ => (AlphaMode::Blend, None),
        };
        let extensions = material
            .unlit
            .then_some(json::extensions::material::Material { unlit: Some(json::extensions::material::Unlit {}) });
        if material.unlit && !self.root.extensions_used.iter().any(|e| e == "KHR_materials_unlit") {
            self.root.extensions_used.push("KHR_materials_unlit".into());
        }
        let extras = ex::MaterialExtras {
            textures: material.textures.iter().map(ex::TextureJson::from).collect(),
            blend: ex::blend_name(material.blend).into(),
            unfogged: material.unfogged,
            depth_write: material.depth_write,
            specular: material.specular.map(|s| [s.power, s.scale]),
        };
        Ok(self.root.push(json::Material {
            alpha_cutoff,
            alpha_mode: Valid(alpha_mode),
            double_sided: material.double_sided,
            name: Some(material.name.clone()),
            pbr_metallic_roughness: PbrMetallicRoughness {
                base_color_factor: PbrBaseColorFactor([1.0; 4]),
                base_color_texture: texture,
                metallic_factor: StrengthFactor(0.0),
                roughness_factor: StrengthFactor(1.0),
                metallic_roughness_texture: None,
                extensions: None,
                extras: Default::default(),
            },
            normal_texture: None,
            occlusion_texture: None,
            emissive_texture: None,
            emissive_factor: Default::default(),
            extensions,
            extras: ex::wrap(extras)?,
        }))
    }

    fn meshes(&mut self, materials: &[Index<json::Material>]) -> Result<(), GltfError> {
        let model = self.model;
        for (m, mesh) in model.meshes.iter().enumerate() {
            let element = format!("meshes[{m}] {:?}", mesh.name);
            if self.options.lod0_only && mesh.lod.level != 0 {
                continue;
            }
            if mesh.positions.is_empty() || mesh.triangles.is_empty() {
                self.loss(element, "mesh without triangles: not exported (glTF accessors cannot be empty)");
                continue;
            }
            if mesh.positions.len() > u32::MAX as usize {
                return Err(GltfError::TooLarge {
                    what: format!("{element} vertices"),
                    count: mesh.positions.len(),
                    limit: u32::MAX as usize,
                });
            }
            let gltf_mesh = self.mesh(m, mesh, materials)?;
            let mut n = node(&mesh.name);
            n.mesh = Some(gltf_mesh);
            if !mesh.skin.is_empty() && !model.bones.is_empty() {
                // Filled in by `skin_and_scene` (the skin comes after the meshes).
                n.skin = Some(Index::new(0));
            }
            let index = self.root.push(n);
            if let Some(slot) = self.mesh_nodes.get_mut(m) {
                *slot = Some(index);
            }
        }
        Ok(())
    }

    fn mesh(
        &mut self,
        m: usize,
        mesh: &Mesh,
        materials: &[Index<json::Material>],
    ) -> Result<Index<json::Mesh>, GltfError> {
        let element = format!("meshes[{m}] {:?}", mesh.name);
        let mut attributes = std::collections::BTreeMap::new();
        let position = self.bin.accessor(&mut self.root, &mesh.positions, Some(Target::ArrayBuffer), true, false);
        attributes.insert(Valid(Semantic::Positions), position);
        if !mesh.normals.is_empty() {
            let (normals, fixed) = unit_normals(&mesh.normals);
            if fixed > 0 {
                self.loss(
                    &element,
                    format!("{fixed} normals were not unit length: renormalised (zero ones set to +Y)"),
                );
            }
            let a = self.bin.accessor(&mut self.root, &normals, Some(Target::ArrayBuffer), false, false);
            attributes.insert(Valid(Semantic::Normals), a);
        }
        for (set, uv) in mesh.uv_sets.iter().enumerate() {
            let a = self.bin.accessor(&mut self.root, uv, Some(Target::ArrayBuffer), false, false);
            attributes.insert(Valid(Semantic::TexCoords(set as u32)), a);
        }
        if !mesh.skin.is_empty() && !self.model.bones.is_empty() {
            self.skin_attributes(mesh, &mut attributes);
        }
        let indices = if mesh.positions.len() <= u16::MAX as usize {
            let flat: Vec<u16> = mesh.triangles.iter().flatten().map(|&i| i as u16).collect();
            self.bin.scalars(&mut self.root, &flat, Some(Target::ElementArrayBuffer), false)
        } else {
            let flat: Vec<u32> = mesh.triangles.iter().flatten().copied().collect();
            self.bin.scalars(&mut self.root, &flat, Some(Target::ElementArrayBuffer), false)
        };
        let targets = (!mesh.morph_targets.is_empty()).then(|| {
            mesh.morph_targets
                .iter()
                .map(|t| json::mesh::MorphTarget {
                    positions: Some(self.bin.accessor(
                        &mut self.root,
                        &t.position_deltas,
                        Some(Target::ArrayBuffer),
                        true,
                        false,
                    )),
                    normals: (!t.normal_deltas.is_empty()).then(|| {
                        self.bin.accessor(&mut self.root, &t.normal_deltas, Some(Target::ArrayBuffer), false, false)
                    }),
                    tangents: None,
                })
                .collect::<Vec<_>>()
        });
        let primitive = json::mesh::Primitive {
            attributes,
            extensions: None,
            extras: Default::default(),
            indices: Some(indices),
            material: mesh.material.and_then(|i| materials.get(i).copied()),
            mode: Valid(Mode::Triangles),
            targets,
        };
        let extras = ex::MeshExtrasOuter {
            target_names: mesh.morph_targets.iter().map(|t| t.name.clone()).collect(),
            relic: Some(ex::MeshExtras { lod: mesh.lod.level, lod_distance: mesh.lod.distance, part_id: mesh.part_id }),
        };
        Ok(self.root.push(json::Mesh {
            extensions: None,
            extras: ex::raw(&extras)?,
            name: Some(mesh.name.clone()),
            primitives: vec![primitive],
            weights: (!mesh.morph_targets.is_empty()).then(|| vec![0.0; mesh.morph_targets.len()]),
        }))
    }

    /// `JOINTS_n`/`WEIGHTS_n` in groups of four: duplicate bones merged, zero weights dropped,
    /// weights renormalised in f64 so each vertex sums to 1 as closely as f32 allows.
    fn skin_attributes(
        &mut self,
        mesh: &Mesh,
        attributes: &mut std::collections::BTreeMap<json::validation::Checked<Semantic>, Index<json::Accessor>>,
    ) {
        let n = mesh.positions.len();
        // Merged, normalised influences of every vertex, flat: vertex v has
        // `flat[offsets[v]..offsets[v + 1]]` (one reusable scratch list, no allocation per vertex).
        let mut flat: Vec<(u32, f32)> = Vec::with_capacity(mesh.skin.influences.len());
        let mut offsets: Vec<usize> = Vec::with_capacity(n + 1);
        offsets.push(0);
        let mut list: Vec<(u32, f64)> = Vec::with_capacity(8);
        for v in 0..n {
            list.clear();
            for inf in mesh.skin.vertex(v) {
                if inf.weight <= 0.0 {
                    continue;
                }
                match list.iter_mut().find(|(b, _)| *b == inf.bone) {
                    Some(entry) => entry.1 += f64::from(inf.weight),
                    None => list.push((inf.bone, f64::from(inf.weight))),
                }
            }
            let sum: f64 = list.iter().map(|(_, w)| w).sum();
            flat.extend(list.iter().map(|&(b, w)| (b, (w / sum) as f32)));
            offsets.push(flat.len());
        }
        let most = offsets.windows(2).map(|w| w.get(1).zip(w.first()).map_or(0, |(b, a)| b - a)).max().unwrap_or(0);
        let sets = most.div_ceil(4).max(1);
        let wide = self.model.bones.len() > 256;
        for set in 0..sets {
            let mut joints: Vec<[u16; 4]> = Vec::with_capacity(n);
            let mut weights: Vec<[f32; 4]> = Vec::with_capacity(n);
            for w in offsets.windows(2) {
                let (start, end) = (w.first().copied().unwrap_or(0), w.get(1).copied().unwrap_or(0));
                let mut j = [0u16; 4];
                let mut x = [0f32; 4];
                let group = flat.get(start..end).unwrap_or_default().iter().skip(set * 4).take(4);
                for ((js, ws), (b, weight)) in j.iter_mut().zip(x.iter_mut()).zip(group) {
                    *js = *b as u16;
                    *ws = *weight;
                }
                joints.push(j);
                weights.push(x);
            }
            let ja = if wide {
                self.bin.accessor(&mut self.root, &joints, Some(Target::ArrayBuffer), false, false)
            } else {
                let narrow: Vec<[u8; 4]> = joints.iter().map(|j| j.map(|x| x as u8)).collect();
                self.bin.accessor(&mut self.root, &narrow, Some(Target::ArrayBuffer), false, false)
            };
            let wa = self.bin.accessor(&mut self.root, &weights, Some(Target::ArrayBuffer), false, false);
            attributes.insert(Valid(Semantic::Joints(set as u32)), ja);
            attributes.insert(Valid(Semantic::Weights(set as u32)), wa);
        }
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
                name: Some("skeleton".into()),
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
        let scene = self.root.push(json::Scene {
            extensions: None,
            extras: Default::default(),
            name: Some(model.name.clone()),
            nodes,
        });
        self.root.scene = Some(scene);
    }

    fn root_extras(&mut self) -> Result<(), GltfError> {
        let model = self.model;
        let format_extras = match &model.extras {
            Some(fx) => match fx.json() {
                Some(text) => {
                    Some(ex::FormatExtrasJson { format: fx.format().as_str().into(), data: ex::embed(&text)? })
                }
                None => {
                    self.loss("extras", format!("{} extras have no JSON form: not exported", fx.format()));
                    None
                }
            },
            None => None,
        };
        let extras = ex::RootExtras {
            name: model.name.clone(),
            source: model.source.map(|s| ex::SourceExtras { format: s.format.as_str().into(), version: s.version }),
            global_sequences: model.global_sequences.clone(),
            format_extras,
            synthetic_root: self.synthetic_root.map(|r| r.value()),
        };
        self.root.extras = ex::wrap(extras)?;
        Ok(())
    }

    fn animation(&mut self, anim: &Animation) -> Result<(), GltfError> {
        let model = self.model;
        let element = format!("animations {:?}", anim.name);
        let n = model.bones.len();
        // Which bones move in this clip, directly or through an ancestor.
        let mut moved = vec![false; n];
        for ch in &anim.channels {
            if let Some(m) = moved.get_mut(ch.bone) {
                *m = true;
            }
        }
        for b in 0..n {
            if let Some(p) = model.bones.get(b).and_then(|x| x.parent)
                && moved.get(p).copied().unwrap_or(false)
                && let Some(m) = moved.get_mut(b)
            {
                *m = true;
            }
        }
        let mut baked = vec![false; n];
        for (b, bone) in model.bones.iter().enumerate() {
            if bake::flagged(bone)
                && moved.get(b).copied().unwrap_or(false)
                && let Some(x) = baked.get_mut(b)
            {
                *x = true;
            }
        }
        for ch in &anim.channels {
            if !bake::verbatim_ok(ch.clock, &ch.times, ch.interpolation)
                && let Some(x) = baked.get_mut(ch.bone)
            {
                *x = true;
            }
        }
        // The last channel of a bone property wins, as in the evaluator.
        let mut winner: HashMap<(usize, &'static str), usize> = HashMap::new();
        for (i, ch) in anim.channels.iter().enumerate() {
            winner.insert((ch.bone, ch.values.property()), i);
        }
        let mut channels = Vec::new();
        let mut samplers = Vec::new();
        let mut order: Vec<Option<usize>> = Vec::new();
        let mut stashed = Vec::new();
        let mut inputs: HashMap<Vec<u32>, Index<json::Accessor>> = HashMap::new();
        for (i, ch) in anim.channels.iter().enumerate() {
            let bone = model.bones.get(ch.bone);
            let dropped = baked.get(ch.bone).copied().unwrap_or(true)
                || winner.get(&(ch.bone, ch.values.property())) != Some(&i)
                || (bone.is_some_and(|b| b.flags.rotation_only) && matches!(ch.values, ChannelValues::Translation(_)));
            if dropped {
                stashed.push(StashedChannel::new(i, ch));
                continue;
            }
            let input = self.input(&mut inputs, &ch.times);
            let (output, path) = match &ch.values {
                ChannelValues::Translation(v) => {
                    (self.bin.accessor(&mut self.root, v, None, false, false), Property::Translation)
                }
                ChannelValues::Scale(v) => (self.bin.accessor(&mut self.root, v, None, false, false), Property::Scale),
                ChannelValues::Rotation(v) => {
                    let mut v = v.clone();
                    if self.options.quaternion_continuity && ch.interpolation != Interpolation::CubicSpline {
                        bake::continuous(&mut v);
                    }
                    (self.bin.accessor(&mut self.root, &v, None, false, false), Property::Rotation)
                }
            };
            push_channel(
                &mut channels,
                &mut samplers,
                input,
                output,
                gltf_interpolation(ch.interpolation),
                ch.bone as u32,
                path,
            );
            order.push(Some(i));
        }
        let baked_bones: Vec<usize> = (0..n).filter(|&b| baked.get(b).copied().unwrap_or(false)).collect();
        if !baked_bones.is_empty() {
            let times = bake::sample_times(model, anim, self.options.bake_fps);
            let tracks = bake::sample_bones(model, anim, &baked_bones, &times);
            let input = self.input(&mut inputs, &times);
            for (&b, track) in baked_bones.iter().zip(&tracks) {
                let t: Vec<[f32; 3]> = track.iter().map(|x| x.translation).collect();
                let mut r: Vec<[f32; 4]> = track.iter().map(|x| x.rotation).collect();
                bake::continuous(&mut r);
                let s: Vec<[f32; 3]> = track.iter().map(|x| x.scale).collect();
                let outputs = [
                    (self.bin.accessor(&mut self.root, &t, None, false, false), Property::Translation),
                    (self.bin.accessor(&mut self.root, &r, None, false, false), Property::Rotation),
                    (self.bin.accessor(&mut self.root, &s, None, false, false), Property::Scale),
                ];
                for (output, path) in outputs {
                    push_channel(
                        &mut channels,
                        &mut samplers,
                        input,
                        output,
                        GltfInterpolation::Linear,
                        b as u32,
                        path,
                    );
                    order.push(None);
                }
            }
            self.loss(
                &element,
                format!(
                    "{} bone(s) baked at {} sample times (flags glTF cannot express, or global sequences)",
                    baked_bones.len(),
                    times.len()
                ),
            );
        }
        if channels.is_empty() && n > 0 {
            // Every clip moves the skeleton in glTF (one armature action per clip in Blender, and
            // glTF animations need a channel): hold the first bone's rest rotation.
            let input = self.input(&mut inputs, &[0.0]);
            let rest = self.rest.first().map_or([0.0, 0.0, 0.0, 1.0], |t| t.rotation);
            let output = self.bin.accessor(&mut self.root, &[rest], None, false, false);
            push_channel(&mut channels, &mut samplers, input, output, GltfInterpolation::Linear, 0, Property::Rotation);
            order.push(None);
        }
        // Morph weight channels (their order entry is unused: import reads them as they are).
        for (c, mc) in anim.morph_channels.iter().enumerate() {
            let before = channels.len();
            self.morph_channel(&element, c, mc, &mut inputs, &mut channels, &mut samplers)?;
            order.extend(std::iter::repeat_n(None, channels.len() - before));
        }
        if channels.is_empty() {
            self.loss(&element, "clip without channels on a model without bones: not exported");
            return Ok(());
        }
        let extras = ex::AnimationExtras {
            duration: anim.duration,
            looping: anim.looping,
            blend_in: anim.blend_in,
            events: anim.events.iter().map(ex::EventJson::from).collect(),
            bounds: anim.bounds.as_ref().map(ex::aabb_json),
            key_bounds: anim.key_bounds.iter().map(ex::key_bounds_json).collect(),
            channels: order,
            stashed,
        };
        self.root.push(json::Animation {
            extensions: None,
            extras: ex::wrap(extras)?,
            channels,
            name: Some(anim.name.clone()),
            samplers,
        });
        Ok(())
    }

    /// One morph weight channel on the mesh's node; keys before 0 are clamped to a key at 0.
    fn morph_channel(
        &mut self,
        element: &str,
        c: usize,
        mc: &MorphChannel,
        inputs: &mut HashMap<Vec<u32>, Index<json::Accessor>>,
        channels: &mut Vec<json::animation::Channel>,
        samplers: &mut Vec<json::animation::Sampler>,
    ) -> Result<(), GltfError> {
        let Some(node) = self.mesh_nodes.get(mc.mesh).copied().flatten() else {
            self.loss(format!("{element}.morph_channels[{c}]"), "its mesh is not exported: dropped");
            return Ok(());
        };
        let targets = self.model.meshes.get(mc.mesh).map_or(0, |m| m.morph_targets.len());
        if targets == 0 || mc.times.is_empty() {
            return Ok(());
        }
        let (times, weights) = clamp_morph_keys(mc, targets);
        if times.len() != mc.times.len() {
            self.loss(format!("{element}.morph_channels[{c}]"), "keys before 0 s clamped to a key at 0 s");
        }
        let input = self.input(inputs, &times);
        let output = self.bin.scalars(&mut self.root, &weights, None, false);
        let interpolation = match mc.interpolation {
            Interpolation::Step => GltfInterpolation::Step,
            _ => GltfInterpolation::Linear,
        };
        push_channel(
            channels,
            samplers,
            input,
            output,
            interpolation,
            node.value() as u32,
            Property::MorphTargetWeights,
        );
        Ok(())
    }

    /// The input accessor of key times, shared between channels with the same times.
    fn input(&mut self, inputs: &mut HashMap<Vec<u32>, Index<json::Accessor>>, times: &[f32]) -> Index<json::Accessor> {
        let key: Vec<u32> = times.iter().map(|t| t.to_bits()).collect();
        if let Some(i) = inputs.get(&key) {
            return *i;
        }
        let i = self.bin.scalars(&mut self.root, times, None, true);
        inputs.insert(key, i);
        i
    }
}

fn gltf_interpolation(i: Interpolation) -> GltfInterpolation {
    match i {
        Interpolation::Step => GltfInterpolation::Step,
        Interpolation::Linear => GltfInterpolation::Linear,
        Interpolation::CubicSpline => GltfInterpolation::CubicSpline,
    }
}

fn push_channel(
    channels: &mut Vec<json::animation::Channel>,
    samplers: &mut Vec<json::animation::Sampler>,
    input: Index<json::Accessor>,
    output: Index<json::Accessor>,
    interpolation: GltfInterpolation,
    node: u32,
    path: Property,
) {
    let sampler = Index::new(samplers.len() as u32);
    samplers.push(json::animation::Sampler {
        extensions: None,
        extras: Default::default(),
        input,
        interpolation: Valid(interpolation),
        output,
    });
    channels.push(json::animation::Channel {
        sampler,
        target: json::animation::Target {
            extensions: None,
            extras: Default::default(),
            node: Index::new(node),
            path: Valid(path),
        },
        extensions: None,
        extras: Default::default(),
    });
}

/// Normals with those further than [`NORMAL_TOLERANCE`] from unit length renormalised (zero ones
/// become +Y); returns how many were changed.
fn unit_normals(normals: &[[f32; 3]]) -> (Vec<[f32; 3]>, usize) {
    let mut fixed = 0;
    let out = normals
        .iter()
        .map(|n| {
            let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
            if (len - 1.0).abs() <= NORMAL_TOLERANCE {
                *n
            } else {
                fixed += 1;
                relic_core::math::normalize3(*n).unwrap_or([0.0, 1.0, 0.0])
            }
        })
        .collect();
    (out, fixed)
}

/// Morph keys with those before 0 s replaced by one key at 0 s (the value the channel has there).
fn clamp_morph_keys(mc: &MorphChannel, targets: usize) -> (Vec<f32>, Vec<f32>) {
    let first_kept = mc.times.partition_point(|&t| t < 0.0);
    if first_kept == 0 {
        return (mc.times.clone(), mc.weights.clone());
    }
    let mut at_zero = vec![0.0; targets];
    relic_anim::skin::sample_morph_weights(mc, targets, 0.0, &mut at_zero);
    let mut times = vec![0.0];
    let mut weights = at_zero;
    for (k, &t) in mc.times.iter().enumerate().skip(first_kept) {
        if t == 0.0 {
            continue;
        }
        times.push(t);
        weights.extend(mc.weights.iter().skip(k * targets).take(targets));
    }
    (times, weights)
}
