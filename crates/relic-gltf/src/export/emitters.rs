//! Emitters as nodes under their bones, named after them: the whole record in the
//! `RELIC_particle_emitter` / `RELIC_ribbon_emitter` extension (listed in `extensionsUsed`
//! only: a viewer that does not know it loses nothing else), the animated values as accessors it
//! references, a compact copy in the node's extras (editors drop extensions but keep extras), and
//! a stand-in: a quad of the emitter's texture at its base size, marked as one, so that a viewer
//! shows where the effect is. Import drops the stand-in again.

use gltf_json as json;
use json::Index;
use json::buffer::Target;
use json::material::AlphaMode;
use json::mesh::{Mode, Semantic};
use json::validation::Checked::Valid;
use relic_core::model::{Clock, Emitter, EmitterKind, EmitterTrack, Interpolation};

use crate::GltfError;
use crate::extras::{self as ex};

use super::{Exporter, node_trs, push_child};

/// The colour of a stand-in whose texture is not embedded (orange: seen on dark and light).
const UNTEXTURED: [f32; 4] = [1.0, 0.55, 0.1, 1.0];

impl Exporter<'_> {
    /// Every emitter as a node under its bone (see the module docs).
    pub(super) fn emitters(&mut self) -> Result<(), GltfError> {
        let model = self.model;
        for (i, e) in model.emitters.iter().enumerate() {
            let extension_name = match e.kind {
                EmitterKind::Particle => ex::PARTICLE_EXTENSION,
                EmitterKind::Ribbon => ex::RIBBON_EXTENSION,
            };
            let record = e.record.as_ref().and_then(|r| r.json().map(|text| (r.format(), text)));
            let texture = e.texture.as_ref().map(ex::TextureJson::from);
            let tracks = e.tracks.iter().map(|t| self.emitter_track(t)).collect();
            let extension = ex::EmitterExtension {
                bone: u32::try_from(e.bone).unwrap_or(u32::MAX),
                size: e.size,
                texture: texture.clone(),
                record: match &record {
                    Some((format, text)) => Some(ex::RecordJson::of(*format, text)?),
                    None => None,
                },
                tracks,
            };
            let extras = ex::EmitterExtras {
                emitter: e.kind.as_str().into(),
                index: u32::try_from(i).ok(),
                transform: Some(e.transform.into()),
                size: e.size,
                texture,
                format: record.as_ref().map(|(f, _)| f.as_str().to_string()),
                record: record.map(|(_, text)| compact(&text)),
            };
            let mut n = node_trs(&e.name, &e.transform);
            n.mesh = Some(self.stand_in(i, e)?);
            n.extras = ex::wrap(extras)?;
            let value = serde_json::to_value(&extension).map_err(|e| GltfError::Json(e.to_string()))?;
            let mut others = serde_json::Map::new();
            others.insert(extension_name.to_string(), value);
            n.extensions = Some(json::extensions::scene::Node { others });
            self.use_extension(extension_name);
            let index = self.root.push(n);
            push_child(&mut self.root, Index::new(e.bone as u32), index);
        }
        Ok(())
    }

    /// One track's accessors (times, values by key), in the open pool.
    fn emitter_track(&mut self, t: &EmitterTrack) -> ex::TrackJson {
        let input = self.bin.scalars(&mut self.root, &t.times, None, true);
        // Cubic keys hold in-tangent, value, out-tangent: the extension gives the values.
        let per_key = if t.interpolation == Interpolation::CubicSpline { 3 } else { 1 };
        let stride = t.components.max(1) * per_key;
        let offset = if per_key == 3 { t.components } else { 0 };
        let values: Vec<f32> =
            t.values.chunks(stride).flat_map(|k| k.iter().skip(offset).take(t.components)).copied().collect();
        let output = match t.components {
            2 => self.bin.accessor(&mut self.root, as_arrays::<2>(&values), None, false, false),
            3 => self.bin.accessor(&mut self.root, as_arrays::<3>(&values), None, false, false),
            4 => self.bin.accessor(&mut self.root, as_arrays::<4>(&values), None, false, false),
            _ => self.bin.scalars(&mut self.root, &values, None, false),
        };
        ex::TrackJson {
            property: t.property.clone(),
            animation: t.animation.and_then(|a| u32::try_from(a).ok()),
            global_sequence: match t.clock {
                Clock::Global(g) => u32::try_from(g).ok(),
                Clock::Animation => None,
            },
            interpolation: if t.interpolation == Interpolation::Step { "STEP" } else { "LINEAR" }.into(),
            input: input.value() as u32,
            output: output.value() as u32,
        }
    }

    /// The stand-in of emitter `i`: a double-sided quad facing +Z, `size` wide, with the emitter's
    /// texture (unlit, blended) where the texture source finds it.
    fn stand_in(&mut self, i: usize, e: &Emitter) -> Result<Index<json::Mesh>, GltfError> {
        let name = crate::naming::stand_in_name(&e.name);
        let h = e.size / 2.0;
        let positions = [[-h, -h, 0.0], [h, -h, 0.0], [h, h, 0.0], [-h, h, 0.0]];
        let uvs = [[0.0f32, 1.0], [1.0, 1.0], [1.0, 0.0], [0.0, 0.0]];
        let normals = [[0.0f32, 0.0, 1.0]; 4];
        let mut attributes = std::collections::BTreeMap::new();
        let p = self.bin.accessor(&mut self.root, &positions, Some(Target::ArrayBuffer), true, false);
        attributes.insert(Valid(Semantic::Positions), p);
        let n = self.bin.accessor(&mut self.root, &normals, Some(Target::ArrayBuffer), false, false);
        attributes.insert(Valid(Semantic::Normals), n);
        let uv = self.bin.accessor(&mut self.root, &uvs, Some(Target::ArrayBuffer), false, false);
        attributes.insert(Valid(Semantic::TexCoords(0)), uv);
        let indices = self.bin.scalars(&mut self.root, &[0u16, 1, 2, 0, 2, 3], Some(Target::ElementArrayBuffer), false);
        let texture = match &e.texture {
            Some(t) => self.embed_texture(format!("emitters[{i}] {:?}", e.name), usize::MAX, t, 0)?,
            None => None,
        };
        let marked = ex::wrap(ex::StandInExtras { stand_in: true })?;
        let material = self.root.push(json::Material {
            alpha_cutoff: None,
            alpha_mode: Valid(AlphaMode::Blend),
            double_sided: true,
            name: Some(name.clone()),
            pbr_metallic_roughness: super::material::matte(
                if texture.is_some() { [1.0; 4] } else { UNTEXTURED },
                texture,
            ),
            normal_texture: None,
            occlusion_texture: None,
            emissive_texture: None,
            emissive_factor: Default::default(),
            extensions: Some(json::extensions::material::Material {
                unlit: Some(json::extensions::material::Unlit {}),
                others: Default::default(),
            }),
            extras: marked.clone(),
        });
        self.use_extension("KHR_materials_unlit");
        let primitive = json::mesh::Primitive {
            attributes,
            extensions: None,
            extras: Default::default(),
            indices: Some(indices),
            material: Some(material),
            mode: Valid(Mode::Triangles),
            targets: None,
        };
        Ok(self.root.push(json::Mesh {
            extensions: None,
            extras: marked,
            name: Some(name),
            primitives: vec![primitive],
            weights: None,
        }))
    }
}

/// `values` as arrays of `N` (the tail that does not fill one left out).
fn as_arrays<const N: usize>(values: &[f32]) -> &[[f32; N]] {
    let (arrays, _) = values.as_chunks::<N>();
    arrays
}

/// A record's JSON as the node's extras carry it: as it is up to 4 KiB, deflated above.
fn compact(text: &str) -> String {
    crate::deflate::pack(text)
}
