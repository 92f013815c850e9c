//! Animations: bone channels, morph weights, baked channels.

use std::collections::HashMap;

use gltf_json as json;
use json::Index;
use json::animation::{Interpolation as GltfInterpolation, Property};
use json::validation::Checked::Valid;
use relic_core::model::{Animation, Channel, ChannelValues, Clock, Interpolation, Model, MorphChannel};

use crate::GltfError;
use crate::bake;
use crate::extras::{self as ex, StashedChannel};

use super::Exporter;

impl Exporter<'_> {
    pub(super) fn animation(&mut self, anim: &Animation, baked: Baked) -> Result<(), GltfError> {
        let model = self.model;
        let element = format!("animations {:?}", anim.name);
        let n = model.bones.len();
        let Baked { bones: baked, samples, channels: baked_channels } = baked;
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
                    (self.bin.rotations(&mut self.root, &v), Property::Rotation)
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
        if !baked_channels.is_empty() {
            for channel in &baked_channels {
                let input = self.input(&mut inputs, &channel.times);
                let (output, path) = match &channel.values {
                    ChannelValues::Translation(t) => {
                        (self.bin.accessor(&mut self.root, t.as_slice(), None, false, false), Property::Translation)
                    }
                    ChannelValues::Rotation(r) => {
                        (self.bin.rotations(&mut self.root, r.as_slice()), Property::Rotation)
                    }
                    ChannelValues::Scale(s) => {
                        (self.bin.accessor(&mut self.root, s.as_slice(), None, false, false), Property::Scale)
                    }
                };
                let bone = channel.bone as u32;
                push_channel(&mut channels, &mut samplers, input, output, GltfInterpolation::Linear, bone, path);
                order.push(None);
            }
            let count = baked.iter().filter(|&&b| b).count();
            self.loss(
                &element,
                format!(
                    "{count} bone(s) baked at {samples} sample times (flags glTF cannot express, or global sequences)"
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
            name: anim.name.clone(),
            duration: anim.duration,
            looping: anim.looping,
            blend_in: anim.blend_in,
            events: anim.events.iter().map(ex::EventJson::from).collect(),
            bounds: anim.bounds.as_ref().map(ex::aabb_json),
            key_bounds: anim.key_bounds.iter().map(ex::key_bounds_json).collect(),
            channels: order,
            stashed,
        };
        self.animation_extras.push(extras);
        self.root.push(json::Animation {
            extensions: None,
            extras: Default::default(),
            channels,
            name: Some(anim.name.clone()),
            samplers,
        });
        Ok(())
    }

    /// One morph weight channel on the mesh's node; keys before 0 are clamped to a key at 0.
    pub(super) fn morph_channel(
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

/// Bakes the bones of `anim` that glTF cannot play as stored: flagged bones (not inheriting all of
/// their parent's transform) that move, directly or through an ancestor, and bones with a channel
/// on a global clock or keyed outside the clip. Each is sampled at [`bake::sample_times`] and
/// its keys reduced ([`crate::keys::reduce`]).
pub(crate) fn bake(model: &Model, anim: &Animation, fps: f32) -> Baked {
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
    let baked_bones: Vec<usize> = (0..n).filter(|&b| baked.get(b).copied().unwrap_or(false)).collect();
    if baked_bones.is_empty() {
        return Baked { bones: baked, ..Baked::default() };
    }
    let times = bake::sample_times(model, anim, fps);
    let tracks = bake::sample_bones(model, anim, &baked_bones, &times);
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
            crate::keys::reduce(&mut channel);
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

pub(super) fn push_channel(
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
