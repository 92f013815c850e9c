//! Animations: channels of bone nodes and morph weights.

use std::collections::HashMap;

use gltf_json as json;
use json::Index;
use json::accessor::ComponentType;
use json::animation::{Interpolation as GltfInterpolation, Property};
use json::validation::Checked::Valid;
use relic_core::model::{Aabb, Animation, Channel, ChannelValues, Clock, Interpolation, KeyBounds, MorphChannel};

use crate::GltfError;
use crate::extras::{self as ex};

use super::Importer;
use super::tree::unit;

impl Importer<'_> {
    pub(super) fn animations(
        &mut self,
        node_bone: &[Option<usize>],
        node_meshes: &HashMap<usize, Vec<usize>>,
    ) -> Result<(), GltfError> {
        let root = self.root;
        for (a, anim) in root.animations.iter().enumerate() {
            let element = format!("animations[{a}]");
            let extras = self.animation_extras_of(a, anim);
            // Another tool re-bakes and re-orders channels: the map to the model's channels (and
            // the stash of what relic baked) holds only for relic's own file.
            let order =
                extras.as_ref().map(|e| &e.channels).filter(|c| c.len() == anim.channels.len() && !self.foreign);
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
                // A fold: an input without keys does not move the end (which starts at 0).
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
            if self.foreign {
                for (_, c) in &mut channels {
                    crate::keys::reduce(c, self.key_tolerance());
                }
            }
            let bounds = |b: [[f32; 3]; 2]| Aabb { min: b[0], max: b[1] };
            let animation = Animation {
                name: anim
                    .name
                    .as_deref()
                    .map(|n| self.clean_name(n).to_string())
                    .unwrap_or_else(|| format!("animation_{a}")),
                duration: extras
                    .as_ref()
                    .map(|e| e.duration)
                    .filter(|d| d.is_finite() && *d >= 0.0)
                    .unwrap_or(last_time),
                looping: extras.as_ref().is_some_and(|e| e.looping),
                blend_in: extras.as_ref().map_or(0.0, |e| e.blend_in),
                channels: channels.into_iter().map(|(_, c)| c).collect(),
                morph_channels,
                // Without relic's extras the clip has no events and no per-key bounds (glTF has neither).
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
        self.restore_clip_order();
        Ok(())
    }

    /// Drops the channels that only hold their bone's rest value (an editor keys every bone's
    /// translation, rotation and scale in every clip): the rest pose is what a model without
    /// them samples, so nothing changes but the file's size.
    pub(super) fn drop_rest_channels(&mut self) {
        let bones = &self.model.bones;
        for anim in &mut self.model.animations {
            anim.channels.retain(|c| {
                c.clock != Clock::Animation || !bones.get(c.bone).is_some_and(|b| crate::keys::holds_rest(c, &b.rest))
            });
        }
    }

    /// Clips back in the order the scene's extras list them, when another tool wrote the file
    /// (Blender sorts its actions by name) and every clip is found there once by name: the
    /// games index clips by position (LithTech v6 takes its bind pose from the first).
    fn restore_clip_order(&mut self) {
        let names: Vec<&str> = self.animation_extras.iter().map(|e| e.name.as_str()).collect();
        let clips = &self.model.animations;
        if !self.foreign || names.len() != clips.len() || names.iter().any(|n| n.is_empty()) {
            return;
        }
        let position = |name: &str| names.iter().position(|n| *n == name);
        let mut order: Vec<Option<usize>> = clips.iter().map(|c| position(&c.name)).collect();
        let mut seen = order.clone();
        seen.sort_unstable();
        seen.dedup();
        if seen.len() != clips.len() || seen.iter().any(Option::is_none) {
            return;
        }
        let mut indexed: Vec<(Option<usize>, Animation)> =
            order.drain(..).zip(self.model.animations.drain(..)).collect();
        indexed.sort_by_key(|(i, _)| *i);
        self.model.animations = indexed.into_iter().map(|(_, a)| a).collect();
    }

    /// The extras of clip `a`: its own (an older relic export), else the scene's entry for it (by
    /// position in a relic file, by name in a file another tool wrote).
    fn animation_extras_of(&self, a: usize, anim: &json::Animation) -> Option<ex::AnimationExtras> {
        if let Some(own) = ex::unwrap::<ex::AnimationExtras>(&anim.extras) {
            return Some(own);
        }
        if !self.foreign {
            return self.animation_extras.get(a).cloned();
        }
        let name = anim.name.as_deref().map(|n| self.clean_name(n))?;
        self.animation_extras.iter().find(|e| e.name == name).cloned()
    }

    /// Key times of a sampler input: finite and strictly increasing.
    pub(super) fn times(&mut self, element: &str, input: Index<json::Accessor>) -> Result<Vec<f32>, GltfError> {
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
