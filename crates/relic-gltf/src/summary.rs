//! Readable summaries of an exported document (for snapshot tests and `relic info`), and the
//! counts a glTF importer such as Blender should show for a model (for `cargo xtask
//! blender-check`).

use gltf_json as json;
use json::validation::Checked::Valid;
use relic_core::Model;
use serde::{Deserialize, Serialize};

use crate::ExportOptions;

/// The shape of an exported document: counts, names, hierarchy, channel layout and a checksum of
/// the binary buffer. Never the raw data.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// `asset.generator`.
    pub generator: String,
    /// `extensionsUsed`.
    pub extensions_used: Vec<String>,
    /// Every node: `name [mesh m] [skin] <- parent`.
    pub nodes: Vec<String>,
    /// Joint count of each skin.
    pub skins: Vec<usize>,
    /// Every mesh.
    pub meshes: Vec<MeshSummary>,
    /// Every material: `name: alpha mode, double-sided, unlit, textured`.
    pub materials: Vec<String>,
    /// Every animation.
    pub animations: Vec<AnimationSummary>,
    /// Accessors, buffer views, images.
    pub accessors: usize,
    /// Buffer views.
    pub buffer_views: usize,
    /// Images.
    pub images: usize,
    /// Bytes of the binary buffer.
    pub bin_bytes: usize,
    /// FNV-1a 64 of the binary buffer, hex.
    pub bin_fnv1a: String,
}

/// One mesh of a [`Summary`].
#[derive(Debug, Clone, Serialize)]
pub struct MeshSummary {
    /// Mesh name.
    pub name: String,
    /// Per primitive: `ATTRIBUTE×count` list, index count, morph target count.
    pub primitives: Vec<String>,
    /// Mesh `extras` as JSON text.
    pub extras: String,
}

/// One animation of a [`Summary`].
#[derive(Debug, Clone, Serialize)]
pub struct AnimationSummary {
    /// Animation name.
    pub name: String,
    /// Per channel: `node.path INTERPOLATION keys`.
    pub channels: Vec<String>,
}

/// FNV-1a 64 of bytes.
pub use relic_core::hash::fnv1a;

fn checked_name<T: std::fmt::Debug>(c: &json::validation::Checked<T>) -> String {
    match c {
        Valid(v) => format!("{v:?}"),
        json::validation::Checked::Invalid => "invalid".into(),
    }
}

/// Summarises a document.
pub fn summarize(root: &json::Root, bin: &[u8]) -> Summary {
    let name_of = |n: usize| root.nodes.get(n).and_then(|n| n.name.clone()).unwrap_or_else(|| format!("#{n}"));
    let mut parent = vec![None; root.nodes.len()];
    for (p, n) in root.nodes.iter().enumerate() {
        for c in n.children.iter().flatten() {
            if let Some(slot) = parent.get_mut(c.value()) {
                *slot = Some(p);
            }
        }
    }
    let nodes = root
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let mut s = name_of(i);
            if let Some(m) = n.mesh {
                s.push_str(&format!(" [mesh {}]", m.value()));
            }
            if n.skin.is_some() {
                s.push_str(" [skin]");
            }
            if let Some(p) = parent.get(i).copied().flatten() {
                s.push_str(&format!(" <- {}", name_of(p)));
            }
            s
        })
        .collect();
    let count = |a: json::Index<json::Accessor>| root.get(a).map_or(0, |a| a.count.0);
    // glTF's absent names, extras and generator: empty strings in the summary.
    let meshes = root
        .meshes
        .iter()
        .map(|m| MeshSummary {
            name: m.name.clone().unwrap_or_default(),
            primitives: m
                .primitives
                .iter()
                .map(|p| {
                    let attrs: Vec<String> =
                        p.attributes.iter().map(|(k, a)| format!("{}×{}", checked_name(k), count(*a))).collect();
                    format!(
                        "{}; indices {}; targets {}",
                        attrs.join(", "),
                        p.indices.map_or(0, count),
                        p.targets.as_ref().map_or(0, Vec::len)
                    )
                })
                .collect(),
            extras: m.extras.as_ref().map(|r| r.get().to_string()).unwrap_or_default(),
        })
        .collect();
    let materials = root
        .materials
        .iter()
        .map(|m| {
            format!(
                "{}: {}{}{}{}",
                m.name.clone().unwrap_or_default(),
                checked_name(&m.alpha_mode),
                if m.double_sided { ", double-sided" } else { "" },
                if m.extensions.as_ref().is_some_and(|e| e.unlit.is_some()) { ", unlit" } else { "" },
                if m.pbr_metallic_roughness.base_color_texture.is_some() { ", textured" } else { "" },
            )
        })
        .collect();
    let animations = root
        .animations
        .iter()
        .map(|a| AnimationSummary {
            name: a.name.clone().unwrap_or_default(),
            channels: a
                .channels
                .iter()
                .map(|c| {
                    let sampler = a.samplers.get(c.sampler.value());
                    format!(
                        "{}.{} {} {}",
                        name_of(c.target.node.value()),
                        checked_name(&c.target.path),
                        sampler.map_or("?".into(), |s| checked_name(&s.interpolation)),
                        sampler.map_or(0, |s| count(s.input)),
                    )
                })
                .collect(),
        })
        .collect();
    Summary {
        generator: root.asset.generator.clone().unwrap_or_default(),
        extensions_used: root.extensions_used.clone(),
        nodes,
        skins: root.skins.iter().map(|s| s.joints.len()).collect(),
        meshes,
        materials,
        animations,
        accessors: root.accessors.len(),
        buffer_views: root.buffer_views.len(),
        images: root.images.len(),
        bin_bytes: bin.len(),
        bin_fnv1a: format!("{:016x}", fnv1a(bin)),
    }
}

/// What an importer should show for an exported model: the sidecar `<file>.expect.json` that
/// `cargo xtask blender-check` compares Blender's scene against.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Expectation {
    /// Bones of the armature (one per model bone).
    pub bones: usize,
    /// Mesh objects (one per exported mesh, and one per emitter: its stand-in).
    pub meshes: usize,
    /// Vertices over all mesh objects: the vertices the triangles use (Blender drops unused ones).
    pub vertices: usize,
    /// Triangles over all mesh objects: every triangle (the export keeps repeated and degenerate
    /// ones apart with vertex copies, which `vertices` counts).
    pub triangles: usize,
    /// Actions: one per clip for the armature, plus one per (clip, mesh) with morph weights.
    pub actions: usize,
    /// Images: one per distinct texture file the export's texture source finds for the
    /// materials of the exported meshes (the textures found, each embedded once).
    #[serde(default)]
    pub images: usize,
    /// Of `meshes`, the emitters' stand-ins (a quad each, in `vertices` and `triangles` too):
    /// not model geometry, so the import drops them again.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub stand_ins: usize,
}

/// Serde's test for a count left out when 0.
fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The counts Blender should show after importing the export of `model` with `options`.
pub fn expectation(model: &Model, options: &ExportOptions) -> Expectation {
    let exported = |m: &&relic_core::model::Mesh| {
        !(m.positions.is_empty() || m.triangles.is_empty() || options.lod0_only && m.lod.level != 0)
    };
    let meshes: Vec<&relic_core::model::Mesh> = model.meshes.iter().filter(exported).collect();
    let mut vertices = 0;
    let mut triangles = 0;
    for m in &meshes {
        // The export gives a triangle that repeats another's corners or names a vertex twice a
        // vertex copy (`crate::faces`), so that Blender, which keeps one face per set of
        // vertices and none with a vertex twice, keeps every triangle.
        let separated = crate::faces::separated(m);
        let (triangles_out, copies) = match &separated {
            Some(s) => (&s.triangles, s.copies.len()),
            None => (&m.triangles, 0),
        };
        let mut used = vec![false; m.positions.len() + copies];
        let mut faces = std::collections::HashSet::new();
        for t in triangles_out {
            let mut corners = *t;
            corners.sort_unstable();
            if t[0] == t[1] || t[1] == t[2] || t[0] == t[2] || !faces.insert(corners) {
                continue;
            }
            triangles += 1;
            for &i in t {
                if let Some(u) = used.get_mut(i as usize) {
                    *u = true;
                }
            }
        }
        vertices += used.iter().filter(|u| **u).count();
    }
    let mut actions = 0;
    for a in &model.animations {
        let skeletal = !model.bones.is_empty();
        let morph_meshes = {
            let mut ms: Vec<usize> = a
                .morph_channels
                .iter()
                .filter(|c| model.meshes.get(c.mesh).is_some_and(|m| exported(&m) && !m.morph_targets.is_empty()))
                .map(|c| c.mesh)
                .collect();
            ms.sort_unstable();
            ms.dedup();
            ms.len()
        };
        actions += usize::from(skeletal) + morph_meshes;
    }
    let images = images(model, options, &meshes);
    // Each stand-in is a quad: 4 vertices, 2 triangles.
    let stand_ins = model.emitters.len();
    Expectation {
        bones: model.bones.len(),
        meshes: meshes.len() + stand_ins,
        vertices: vertices + 4 * stand_ins,
        triangles: triangles + 2 * stand_ins,
        actions,
        images,
        stand_ins,
    }
}

/// The distinct texture files the export embeds for the materials of `meshes` (asked as the
/// export asks: [`crate::export::base_texture`], one lookup per material) and the emitters'
/// stand-ins.
fn images(model: &Model, options: &ExportOptions, meshes: &[&relic_core::model::Mesh]) -> usize {
    let Some(source) = &options.textures else { return 0 };
    let mut materials: Vec<usize> = meshes.iter().filter_map(|m| m.material).collect();
    materials.sort_unstable();
    materials.dedup();
    let mut keys = std::collections::HashSet::new();
    let of_materials = materials.into_iter().filter_map(|m| match crate::export::base_texture(model, m) {
        Ok(Some((texture, _))) => Some((m, texture)),
        _ => None,
    });
    // The stand-ins' textures, asked as the export asks (for no material).
    let of_emitters = model.emitters.iter().filter_map(|e| Some((usize::MAX, e.texture.as_ref()?)));
    for (m, texture) in of_materials.chain(of_emitters) {
        if let crate::textures::Lookup::Found(found) = source.lookup(m, 0, texture) {
            let embeddable = match &found.data {
                crate::textures::ImageData::Rgba(image) => crate::textures::png_encodable(image).is_ok(),
                _ => true,
            };
            if embeddable {
                keys.insert(found.key);
            }
        }
    }
    keys.len()
}
