//! Animations: bone channels, morph weights, baked channels.

use std::collections::HashMap;

use gltf_json as json;
use json::Index;
use json::animation::{Interpolation as GltfInterpolation, Property};
use json::validation::Checked::Valid;
use relic_core::model::{Animation, Channel, ChannelValues, Clock, Interpolation, Model, MorphChannel};

use crate::bake;
use crate::extras::{self as ex, StashedChannel};

use super::{Exporter, arcs, cubic};

impl Exporter<'_> {
    /// Writes clip `anim` as its [`Layout`] says, with its baked channels; the clip's extras are
    /// built apart from it ([`clip_extras`]), from the same layout.
    pub(super) fn animation(&mut self, anim: &Animation, baked: Baked) {
        let element = format!("animations {:?}", anim.name);
        let layout = Layout::new(self.model, anim, &baked.bones, &self.meshes_exported());
        let mut out = ClipChannels::default();
        for (ch, _) in anim.channels.iter().zip(&layout.written).filter(|(_, w)| **w) {
            // A cubic spline as linear keys on its curve (Blender does not follow its tangents;
            // one key: its value).
            let linear = match cubic::as_linear(ch, !self.options.keep_tangents) {
                Some(cubic::Linear::Keys(linear, coarse)) => {
                    if ch.times.len() > 1 {
                        self.resampled.channels += 1;
                        self.resampled.coarse += coarse;
                    }
                    Some(linear)
                }
                Some(cubic::Linear::TooMany) => {
                    self.resampled.too_many += 1;
                    None
                }
                None => None,
            };
            let ch = linear.as_ref().unwrap_or(ch);
            let input = self.input(&mut out.inputs, &ch.times);
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
                    (self.bin.rotations(&mut self.root, &v), Property::Rotation)
                }
            };
            let (interpolation, bone) = (gltf_interpolation(ch.interpolation), ch.bone as u32);
            out.push(input, output, interpolation, bone, path);
        }
        // Long arcs cut ([`arcs`]), in the order of the clip's channels.
        let cut: Vec<Channel> = layout.cut.iter().filter_map(|&i| anim.channels.get(i)).map(arcs::cut).collect();
        for channel in cut.iter().chain(&baked.channels) {
            let input = self.input(&mut out.inputs, &channel.times);
            let (output, path) = match &channel.values {
                ChannelValues::Translation(t) => {
                    (self.bin.accessor(&mut self.root, t.as_slice(), None, false, false), Property::Translation)
                }
                ChannelValues::Rotation(r) => {
                    let mut r = r.clone();
                    bake::continuous(&mut r);
                    (self.bin.rotations(&mut self.root, &r), Property::Rotation)
                }
                ChannelValues::Scale(s) => {
                    (self.bin.accessor(&mut self.root, s.as_slice(), None, false, false), Property::Scale)
                }
            };
            let bone = channel.bone as u32;
            out.push(input, output, GltfInterpolation::Linear, bone, path);
        }
        if layout.baked_bones > 0 {
            self.loss(
                &element,
                format!(
                    "{} bone(s) baked at {} sample times (flags glTF cannot express, or global sequences)",
                    layout.baked_bones, baked.samples
                ),
            );
        }
        if layout.hold_rest {
            // Every clip moves the skeleton in glTF (one armature action per clip in Blender, and
            // glTF animations need a channel): hold the first bone's rest rotation.
            let input = self.input(&mut out.inputs, &[0.0]);
            let rest = self.rest.first().map_or([0.0, 0.0, 0.0, 1.0], |t| t.rotation);
            let output = self.bin.accessor(&mut self.root, &[rest], None, false, false);
            out.push(input, output, GltfInterpolation::Linear, 0, Property::Rotation);
        }
        for (c, (mc, &written)) in anim.morph_channels.iter().zip(&layout.morphs).enumerate() {
            match self.mesh_nodes.get(mc.mesh).copied().flatten() {
                Some(node) if written => self.morph_channel(&element, c, mc, node, &mut out),
                Some(_) => {}
                None => self.loss(format!("{element}.morph_channels[{c}]"), "its mesh is not exported: dropped"),
            }
        }
        if !layout.exported() {
            self.loss(&element, "clip without channels on a model without bones: not exported");
            return;
        }
        self.root.push(json::Animation {
            extensions: None,
            extras: Default::default(),
            channels: out.channels,
            name: Some(anim.name.clone()),
            samplers: out.samplers,
        });
    }

    /// Per model mesh: whether it is exported (has a node).
    pub(super) fn meshes_exported(&self) -> Vec<bool> {
        self.mesh_nodes.iter().map(Option::is_some).collect()
    }

    /// One morph weight channel on its mesh's node (a channel the [`Layout`] writes); keys before
    /// 0 are clamped to a key at 0.
    fn morph_channel(
        &mut self,
        element: &str,
        c: usize,
        mc: &MorphChannel,
        node: Index<json::Node>,
        out: &mut ClipChannels,
    ) {
        let targets = morph_targets(self.model, mc);
        let (times, weights) = clamp_morph_keys(mc, targets);
        if times.len() != mc.times.len() {
            self.loss(format!("{element}.morph_channels[{c}]"), "keys before 0 s clamped to a key at 0 s");
        }
        let input = self.input(&mut out.inputs, &times);
        let output = self.bin.scalars(&mut self.root, &weights, None, false);
        let interpolation = match mc.interpolation {
            Interpolation::Step => GltfInterpolation::Step,
            _ => GltfInterpolation::Linear,
        };
        out.push(input, output, interpolation, node.value() as u32, Property::MorphTargetWeights);
    }

    /// The input accessor of key times, shared between channels with the same times.
    pub(super) fn input(
        &mut self,
        inputs: &mut HashMap<Vec<u32>, Index<json::Accessor>>,
        times: &[f32],
    ) -> Index<json::Accessor> {
        let key: Vec<u32> = times.iter().map(|t| t.to_bits()).collect();
        if let Some(i) = inputs.get(&key) {
            return *i;
        }
        let i = self.bin.scalars(&mut self.root, times, None, true);
        inputs.insert(key, i);
        i
    }
}

/// What glTF cannot play of a clip as it is stored, sampled: the bones baked and their channels.
/// [`bake`] depends on the model and the clip alone, so clips are baked on any thread before
/// [`Exporter::animation`] writes them in order.
#[derive(Debug, Default)]
pub(crate) struct Baked {
    /// Per bone: whether its channels are baked (and the stored ones stashed in the extras).
    bones: Vec<bool>,
    /// How many times the baked bones were sampled at (before the keys were reduced).
    samples: usize,
    /// Translation, rotation and scale of each baked bone, in bone order, keys reduced.
    channels: Vec<Channel>,
}

/// Per bone: whether glTF cannot play its channels in `anim` as stored ([`bake`]).
pub(crate) fn baked_bones(model: &Model, anim: &Animation) -> Vec<bool> {
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
        if !bake::verbatim_ok(ch.clock, &ch.times, anim.duration)
            && let Some(x) = baked.get_mut(ch.bone)
        {
            *x = true;
        }
    }
    baked
}

/// How a clip's channels go to glTF, in the order they are written: the stored channels glTF
/// plays as they are, then the linear rotations with long arcs cut ([`arcs`]; the stored ones
/// stashed), then three baked channels per baked bone, then a held rest rotation when
/// there is no other bone channel, then the morph weight channels. [`Exporter::animation`] writes
/// it and [`clip_extras`] describes it; both take it from [`Layout::new`].
#[derive(Debug)]
pub(crate) struct Layout {
    /// Per stored channel: written as it is (else stashed in the clip's extras).
    written: Vec<bool>,
    /// The stored channels written with their long arcs cut (stashed too), in clip order.
    cut: Vec<usize>,
    /// How many bones are baked.
    baked_bones: usize,
    /// Whether the first bone's rest rotation is held (a model with bones, no other bone channel).
    hold_rest: bool,
    /// Per morph channel: written.
    morphs: Vec<bool>,
}

impl Layout {
    /// The layout of `anim` with the bones `baked` ([`baked_bones`]) when the meshes marked in
    /// `meshes_exported` are exported.
    pub(crate) fn new(model: &Model, anim: &Animation, baked: &[bool], meshes_exported: &[bool]) -> Self {
        // The last channel of a bone property wins, as in the evaluator.
        let mut winner: HashMap<(usize, &'static str), usize> = HashMap::new();
        for (i, ch) in anim.channels.iter().enumerate() {
            winner.insert((ch.bone, ch.values.property()), i);
        }
        let mut written: Vec<bool> = anim
            .channels
            .iter()
            .enumerate()
            .map(|(i, ch)| {
                let rotation_only = model.bones.get(ch.bone).is_some_and(|b| b.flags.rotation_only);
                !(baked.get(ch.bone).copied().unwrap_or(true)
                    || winner.get(&(ch.bone, ch.values.property())) != Some(&i)
                    || (rotation_only && matches!(ch.values, ChannelValues::Translation(_))))
            })
            .collect();
        let mut cut = Vec::new();
        for (i, (ch, w)) in anim.channels.iter().zip(&mut written).enumerate() {
            if *w && arcs::long(ch) {
                *w = false;
                cut.push(i);
            }
        }
        let baked_bones = baked.iter().filter(|&&b| b).count();
        let hold_rest = !model.bones.is_empty() && baked_bones == 0 && cut.is_empty() && !written.contains(&true);
        let morphs = anim
            .morph_channels
            .iter()
            .map(|mc| {
                meshes_exported.get(mc.mesh).copied().unwrap_or(false)
                    && morph_targets(model, mc) > 0
                    && !mc.times.is_empty()
            })
            .collect();
        Self { written, cut, baked_bones, hold_rest, morphs }
    }

    /// Whether the clip has a glTF channel at all (else it is not exported).
    pub(crate) fn exported(&self) -> bool {
        self.written.contains(&true)
            || !self.cut.is_empty()
            || self.baked_bones > 0
            || self.hold_rest
            || self.morphs.contains(&true)
    }

    /// The stored channel each glTF channel is (`None`: baked, held or a morph channel).
    fn order(&self) -> Vec<Option<usize>> {
        let written = self.written.iter().enumerate().filter(|(_, w)| **w).map(|(i, _)| Some(i));
        let others = self.cut.len()
            + 3 * self.baked_bones
            + usize::from(self.hold_rest)
            + self.morphs.iter().filter(|m| **m).count();
        written.chain(std::iter::repeat_n(None, others)).collect()
    }
}

/// The extras of clip `anim` laid out as `layout` ([`Layout`]): `None` when it is not exported.
pub(crate) fn clip_extras(anim: &Animation, layout: &Layout) -> Option<ex::AnimationExtras> {
    if !layout.exported() {
        return None;
    }
    let stashed = anim.channels.iter().enumerate().zip(&layout.written).filter(|(_, w)| !**w);
    Some(ex::AnimationExtras {
        name: anim.name.clone(),
        duration: anim.duration,
        looping: anim.looping,
        blend_in: anim.blend_in,
        events: anim.events.iter().map(ex::EventJson::from).collect(),
        bounds: anim.bounds.as_ref().map(ex::aabb_json),
        key_bounds: anim.key_bounds.iter().map(ex::key_bounds_json).collect(),
        channels: layout.order(),
        stashed: stashed.map(|((i, ch), _)| StashedChannel::new(i, ch)).collect(),
    })
}

/// How many morph targets the mesh of `mc` has.
fn morph_targets(model: &Model, mc: &MorphChannel) -> usize {
    model.meshes.get(mc.mesh).map_or(0, |m| m.morph_targets.len())
}

/// Bakes the bones of `anim` that glTF cannot play as stored: flagged bones (not inheriting all of
/// their parent's transform) that move, directly or through an ancestor, and bones with a channel
/// on a global clock or keyed outside the clip. Each is sampled at [`bake::sample_times`] and
/// its keys reduced ([`crate::keys::reduce`]).
pub(crate) fn bake(model: &Model, anim: &Animation, fps: f32) -> Baked {
    let n = model.bones.len();
    let baked = baked_bones(model, anim);
    let baked_bones: Vec<usize> = (0..n).filter(|&b| baked.get(b).copied().unwrap_or(false)).collect();
    if baked_bones.is_empty() {
        return Baked { bones: baked, ..Baked::default() };
    }
    let (times, tracks) = bake::sample_bones(model, anim, &baked_bones, &bake::sample_times(model, anim, fps));
    let mut channels = Vec::with_capacity(3 * baked_bones.len());
    for (&b, track) in baked_bones.iter().zip(&tracks) {
        let mut r: Vec<[f32; 4]> = track.iter().map(|x| x.rotation).collect();
        bake::continuous(&mut r);
        let values = [
            ChannelValues::Translation(track.iter().map(|x| x.translation).collect()),
            ChannelValues::Rotation(r),
            ChannelValues::Scale(track.iter().map(|x| x.scale).collect()),
        ];
        for values in values {
            // The samples a straight line between their neighbours reproduces are left out
            // (tolerances in `keys`): a held or steady channel keeps its two ends.
            let mut channel = Channel {
                bone: b,
                clock: Clock::Animation,
                interpolation: Interpolation::Linear,
                times: times.clone(),
                values,
            };
            crate::keys::reduce(&mut channel, crate::keys::Tolerance::FINE);
            channels.push(channel);
        }
    }
    Baked { bones: baked, samples: times.len(), channels }
}

pub(super) fn gltf_interpolation(i: Interpolation) -> GltfInterpolation {
    match i {
        Interpolation::Step => GltfInterpolation::Step,
        Interpolation::Linear => GltfInterpolation::Linear,
        Interpolation::CubicSpline => GltfInterpolation::CubicSpline,
    }
}

/// The glTF channels of one clip as they are written, with the key-time accessors they share.
#[derive(Default)]
pub(super) struct ClipChannels {
    inputs: HashMap<Vec<u32>, Index<json::Accessor>>,
    channels: Vec<json::animation::Channel>,
    samplers: Vec<json::animation::Sampler>,
}

impl ClipChannels {
    /// A channel moving `node`'s `path` by its own sampler.
    fn push(
        &mut self,
        input: Index<json::Accessor>,
        output: Index<json::Accessor>,
        interpolation: GltfInterpolation,
        node: u32,
        path: Property,
    ) {
        let sampler = Index::new(self.samplers.len() as u32);
        self.samplers.push(json::animation::Sampler {
            extensions: None,
            extras: Default::default(),
            input,
            interpolation: Valid(interpolation),
            output,
        });
        self.channels.push(json::animation::Channel {
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
}

/// Morph keys with those before 0 s replaced by one key at 0 s (the value the channel has there).
pub(super) fn clamp_morph_keys(mc: &MorphChannel, targets: usize) -> (Vec<f32>, Vec<f32>) {
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
