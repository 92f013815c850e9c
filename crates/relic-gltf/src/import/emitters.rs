//! Emitters from their nodes: the `RELIC_particle_emitter` / `RELIC_ribbon_emitter` extension
//! where present (relic's own files), else the copy in the node's extras (a file an editor wrote
//! with its custom properties), else the stand-in mesh the node draws (an editor that kept
//! neither: a particle emitter of the stand-in's name, size and texture, without a record). Their
//! stand-in meshes and materials are not model geometry.

use gltf_json as json;
use json::accessor::ComponentType;
use relic_core::FormatId;
use relic_core::model::{
    Clock, Emitter, EmitterKind, EmitterTrack, FormatExtras, Interpolation, TextureRef, Transform,
};

use crate::extras::{self as ex};

use super::Importer;
use super::tree::{Tree, node_local};

/// True for a stand-in mesh or material (marked in its extras, or by its name).
pub(super) fn is_stand_in(extras: &json::Extras, name: Option<&str>) -> bool {
    ex::unwrap::<ex::StandInExtras>(extras).is_some_and(|s| s.stand_in)
        || name.is_some_and(crate::naming::is_stand_in_name)
}

/// The emitter kind and extension of a node relic wrote for an emitter, if it is one.
pub(super) fn emitter_of(
    node: &json::Node,
) -> Option<(EmitterKind, Option<ex::EmitterExtension>, Option<ex::EmitterExtras>)> {
    let others = node.extensions.as_ref().map(|e| &e.others);
    let extension = |name: &str| {
        others.and_then(|o| o.get(name)).and_then(|v| serde_json::from_value::<ex::EmitterExtension>(v.clone()).ok())
    };
    let extras: Option<ex::EmitterExtras> = ex::unwrap(&node.extras);
    let (kind, extension) = match (extension(ex::PARTICLE_EXTENSION), extension(ex::RIBBON_EXTENSION)) {
        (Some(x), _) => (EmitterKind::Particle, Some(x)),
        (None, Some(x)) => (EmitterKind::Ribbon, Some(x)),
        (None, None) => match extras.as_ref()?.emitter.as_str() {
            "particle" => (EmitterKind::Particle, None),
            "ribbon" => (EmitterKind::Ribbon, None),
            _ => return None,
        },
    };
    Some((kind, extension, extras))
}

impl Importer<'_> {
    /// The emitters of the scene's nodes under bones, in the order relic recorded (else node
    /// order).
    pub(super) fn emitters(&mut self, tree: &Tree, node_bone: &[Option<usize>]) {
        let mut in_scene = tree.order.clone();
        in_scene.sort_unstable();
        let mut found: Vec<(Option<u32>, Emitter)> = Vec::new();
        for &n in &in_scene {
            let Some(node) = self.root.nodes.get(n) else { continue };
            let Some(bone) = tree.parent.get(n).copied().flatten().and_then(|p| node_bone.get(p).copied().flatten())
            else {
                continue;
            };
            let Some((kind, extension, extras)) = emitter_of(node) else {
                found.extend(self.stand_in_emitter(node, bone).map(|e| (None, e)));
                continue;
            };
            let name = self.clean_name(node.name.as_deref().unwrap_or_default()).to_string();
            let texture = extension
                .as_ref()
                .and_then(|x| x.texture.as_ref())
                .or(extras.as_ref().and_then(|x| x.texture.as_ref()));
            let size = extension.as_ref().map(|x| x.size).or(extras.as_ref().map(|x| x.size)).filter(|s| s.is_finite());
            // The extras' text first: it is the record as the format crate wrote it, in its key
            // order (the extension's went through a JSON tree, keys sorted), so a record carried
            // unchanged reads back as the same text.
            let from_extension = || {
                let r = extension.as_ref()?.record.as_ref()?;
                FormatId::parse(&r.format).map(|f| FormatExtras::from_json(f, r.data.get().to_string()))
            };
            let record = extras.as_ref().and_then(record_of_extras).or_else(from_extension);
            let tracks = match &extension {
                Some(x) => x.tracks.iter().filter_map(|t| self.emitter_track(t)).collect(),
                None => Vec::new(),
            };
            let transform =
                extras.as_ref().and_then(|x| x.transform).map(Transform::from).unwrap_or_else(|| node_local(node));
            found.push((
                extras.as_ref().and_then(|x| x.index),
                Emitter {
                    kind,
                    name,
                    bone,
                    transform,
                    texture: texture.map(TextureRef::from),
                    size: size.unwrap_or(1.0),
                    tracks,
                    record,
                },
            ));
        }
        let mut emitters: Vec<Emitter> = Vec::with_capacity(found.len());
        let order = super::recorded_order(found.iter().map(|(i, _)| *i));
        emitters.extend(found.into_iter().map(|(_, e)| e));
        if let Some(order) = order {
            super::rearranged(&mut emitters, &order);
        }
        self.model.emitters = emitters;
    }

    /// The emitter a node under a bone stands for when it draws a stand-in mesh and says nothing
    /// else (an editor dropped relic's extension and extras): a particle emitter named after the
    /// node, as wide as the quad, with the stand-in's texture.
    fn stand_in_emitter(&mut self, node: &json::Node, bone: usize) -> Option<Emitter> {
        let mesh: &json::Mesh = self.root.get(node.mesh?)?;
        if !mesh.name.as_deref().is_some_and(crate::naming::is_stand_in_name) {
            return None;
        }
        let primitive = mesh.primitives.first()?;
        let texture = primitive
            .material
            .and_then(|m| self.root.get(m))
            .and_then(|m: &json::Material| self.texture_from_gltf(m))
            .map(|t| TextureRef { uv_set: Some(0), ..t });
        let positions = primitive.attributes.get(&json::validation::Checked::Valid(json::mesh::Semantic::Positions));
        let xs: Vec<f32> = match positions {
            Some(&p) => self.reader.floats::<3>(p, &[ComponentType::F32]).ok()?.iter().map(|v| v[0]).collect(),
            None => Vec::new(),
        };
        let size =
            xs.iter().fold(f32::NEG_INFINITY, |a, &b| a.max(b)) - xs.iter().fold(f32::INFINITY, |a, &b| a.min(b));
        Some(Emitter {
            kind: EmitterKind::Particle,
            name: self.clean_name(node.name.as_deref().unwrap_or_default()).to_string(),
            bone,
            transform: node_local(node),
            texture,
            size: if size.is_finite() && size > 0.0 { size } else { 1.0 },
            tracks: Vec::new(),
            record: None,
        })
    }

    /// One track from its accessors (values of 1–4 floats a key); `None` for one that does not
    /// read as a track of the model (the tracks are for viewers: the record is what counts).
    fn emitter_track(&mut self, t: &ex::TrackJson) -> Option<EmitterTrack> {
        let floats = [ComponentType::F32];
        let times: Vec<f32> = self.reader.floats::<1>(json::Index::new(t.input), &floats).ok()?.concat();
        let output = json::Index::new(t.output);
        let accessor: Option<&json::Accessor> = self.root.get(output);
        let components = match accessor.map(|a| &a.type_) {
            Some(json::validation::Checked::Valid(t)) => t.multiplicity(),
            _ => return None,
        };
        let values: Vec<f32> = match components {
            1 => self.reader.floats::<1>(output, &floats).ok()?.concat(),
            2 => self.reader.floats::<2>(output, &floats).ok()?.concat(),
            3 => self.reader.floats::<3>(output, &floats).ok()?.concat(),
            4 => self.reader.floats::<4>(output, &floats).ok()?.concat(),
            _ => return None,
        };
        let animation = match t.animation {
            Some(a) => Some(a as usize).filter(|&a| a < self.model.animations.len())?.into(),
            None => None,
        };
        let clock = match t.global_sequence {
            Some(g) => Clock::Global(Some(g as usize).filter(|&g| g < self.model.global_sequences.len())?),
            None => Clock::Animation,
        };
        let interpolation = if t.interpolation == "STEP" { Interpolation::Step } else { Interpolation::Linear };
        let increasing = times.iter().all(|t| t.is_finite()) && times.windows(2).all(|w| matches!(w, [a, b] if a < b));
        let fits = values.len() == times.len() * components && values.iter().all(|v| v.is_finite());
        (increasing && fits).then(|| EmitterTrack {
            property: t.property.clone(),
            animation,
            clock,
            interpolation,
            times,
            components,
            values,
        })
    }
}

/// The record an emitter node's extras carry (a string, deflated when long).
fn record_of_extras(x: &ex::EmitterExtras) -> Option<FormatExtras> {
    let format = FormatId::parse(x.format.as_deref()?)?;
    let text = x.record.as_deref()?;
    let text = match crate::deflate::unpack(text) {
        Some(bytes) => String::from_utf8(bytes?).ok()?,
        None => text.to_string(),
    };
    Some(FormatExtras::from_json(format, text))
}
