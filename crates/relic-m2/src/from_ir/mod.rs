//! Common model → M2.
//!
//! The model's extras ([`M2Extras`], typed or as JSON) hold the file the model was read from.
//! Each section is taken from there **while it still fits**: the section maps to exactly what the
//! model now holds (bones, each bone's three tracks, sequences, views, materials, attachments,
//! events), or its references are still valid (lights, cameras, ribbons, particles, collision).
//! An unchanged model therefore writes back byte for byte; everything else is rebuilt from the
//! model, and what is dropped is reported as a [`Loss`].
//!
//! Building from the model alone:
//! * version: [`WriteOptions::version`], else the version the model came from (M2), else 256;
//! * bones: pivot = bind translation; a bind rotation `Rb` (models from other formats) is folded
//!   into the keys: `rotation = Rp · q · Rb⁻¹`, `translation = Rp · t + pivot_parent − pivot`;
//! * sequences on one timeline (from the extras' start times when the count matches, else laid
//!   out anew), keys rounded to milliseconds, ranges shared where sequences share keys, a `(0, 0)`
//!   terminator; a step track with one key for every sequence is written without ranges;
//! * cubic channels as Hermite (tangents × segment length); mixed interpolations are resampled to
//!   linear;
//! * vertices: meshes concatenated, at most 4 influences (the 4 largest, renormalised; the largest
//!   position error this causes over the animations is reported), u8 weights summing to 255;
//! * four views with palettes of at most 256, 75, 53 and 21 bones ([`crate::palette`]).

use relic_core::error;
use relic_core::math::{Mat4, decompose, quat_conjugate, quat_mul, transform_point, transform_vector};
use relic_core::model::*;
use relic_core::{Converted, Loss, Model, WriteError, WriteOptions};

use crate::array::M2Array;
use crate::file::{self as m2, *};
use crate::names;
use crate::palette::{self, Part, VIEW_BUDGETS};
use crate::to_ir::{self, FRAME, M2Extras};
use crate::track::{
    EventTrack, INTERPOLATION_HERMITE, INTERPOLATION_LINEAR, INTERPOLATION_NONE, RotationTrack, Track, encode_quat,
};

type Result<T> = std::result::Result<T, WriteError>;

fn unsupported(message: impl Into<String>) -> WriteError {
    WriteError::Unsupported(message.into())
}

/// The file the model's extras hold, if they are M2's.
pub fn extras_file(model: &Model) -> Option<M2File> {
    let extras = model.extras.as_ref().filter(|e| e.format() == crate::FORMAT)?;
    if let Some(e) = extras.get::<M2Extras>() {
        return Some(e.file.clone());
    }
    serde_json::from_str::<M2Extras>(&extras.json()?).ok().map(|e| e.file)
}

/// Maps the model to an M2 file (see the module docs).
pub fn from_ir(model: &Model, options: &WriteOptions) -> Result<Converted<M2File>> {
    model.validate()?;
    let mut base = extras_file(model);
    let version = options
        .version
        .or_else(|| {
            model.source.filter(|s| s.format == crate::FORMAT && (256..264).contains(&s.version)).map(|s| s.version)
        })
        .or_else(|| base.as_ref().map(|b| b.version))
        .unwrap_or(256);
    if !(256..264).contains(&version) {
        return Err(unsupported(format!("M2 version {version} cannot be written: only 256–263")));
    }
    let mut losses = Vec::new();
    if let Some(b) = &mut base
        && (b.version >= 260) != (version >= 260)
    {
        retarget(b, version);
    }
    let mut w = Builder { model, base: base.as_ref(), version, losses: &mut losses, file: M2File::default() };
    w.build()?;
    let file = w.file;
    Ok(Converted { value: file, losses })
}

/// Moves a Classic file to TBC or back: rotation keys change type, bones gain or lose their extra
/// field; the views are rebuilt (their submesh size changes).
fn retarget(file: &mut M2File, version: u32) {
    file.version = version;
    for b in file.bones.iter_mut() {
        b.unknown = (version >= 260).then_some(0);
        let (i, g, r, t) = b.rotation.head();
        let values = b.rotation.float_values();
        let (ranges, timestamps) = (M2Array::new(r.to_vec()), M2Array::new(t.to_vec()));
        b.rotation = if version >= 260 {
            RotationTrack::Compressed(Track {
                interpolation: i,
                global_sequence: g,
                ranges,
                timestamps,
                values: values.iter().map(|q| encode_quat(*q)).collect::<Vec<_>>().into(),
            })
        } else {
            RotationTrack::Float(Track {
                interpolation: i,
                global_sequence: g,
                ranges,
                timestamps,
                values: values.into(),
            })
        };
    }
    file.views = Default::default();
    if version < 260 {
        file.flags &= !FLAG_BLEND_OVERRIDES;
        file.blend_overrides = None;
    } else if file.flags & FLAG_BLEND_OVERRIDES != 0 && file.blend_overrides.is_none() {
        file.blend_overrides = Some(Default::default());
    }
}

struct Builder<'a> {
    model: &'a Model,
    base: Option<&'a M2File>,
    version: u32,
    losses: &'a mut Vec<Loss>,
    file: M2File,
}

/// A channel's property: 0 translation, 1 rotation, 2 scale.
fn property(v: &ChannelValues) -> usize {
    match v {
        ChannelValues::Translation(_) => 0,
        ChannelValues::Rotation(_) => 1,
        ChannelValues::Scale(_) => 2,
    }
}

/// Per bone and property, the channels that drive it: in each animation the last one for that
/// bone and property, as a player applies them. Built once, so finding a bone's channels does not
/// scan every clip's channel list for every bone; sparse, so bones without channels cost nothing
/// per animation (a dense bones × animations table of 20 000 × 20 000 took 9.6 GB).
struct ChannelTable<'a> {
    animations: usize,
    /// `[bone][property]`: `(animation, channel)` in animation order.
    slots: Vec<[Vec<(usize, &'a Channel)>; 3]>,
}

impl<'a> ChannelTable<'a> {
    fn new(model: &'a Model) -> Self {
        let mut slots: Vec<[Vec<(usize, &'a Channel)>; 3]> = vec![Default::default(); model.bones.len()];
        for (a, animation) in model.animations.iter().enumerate() {
            for c in &animation.channels {
                let Some(list) = slots.get_mut(c.bone).and_then(|s| s.get_mut(property(&c.values))) else { continue };
                match list.last_mut() {
                    Some(last) if last.0 == a => last.1 = c,
                    _ => list.push((a, c)),
                }
            }
        }
        Self { animations: model.animations.len(), slots }
    }

    /// Bone `bone`'s channel for `property` in each animation, in animation order; `None` if no
    /// animation has one.
    fn of(&self, bone: usize, property: usize) -> Option<Vec<Option<&'a Channel>>> {
        let list = self.slots.get(bone)?.get(property).filter(|l| !l.is_empty())?;
        let mut out = vec![None; self.animations];
        for &(a, c) in list {
            if let Some(slot) = out.get_mut(a) {
                *slot = Some(c);
            }
        }
        Some(out)
    }
}

/// Seconds → milliseconds, clamped to ±2^40 ms (35 years, far past any u32 time the file can
/// hold): sums and negations of a few such values can then never overflow an i64.
fn ms(seconds: f32) -> i64 {
    const LIMIT: i64 = 1 << 40;
    ((f64::from(seconds) * 1000.0).round() as i64).clamp(-LIMIT, LIMIT)
}

fn to_u32(v: i64) -> u32 {
    v.clamp(0, i64::from(u32::MAX)) as u32
}

impl Builder<'_> {
    fn loss(&mut self, element: impl Into<String>, what: impl Into<String>) {
        self.losses.push(Loss::new(element, what));
    }

    /// `text` as the NUL-terminated Windows-1252 bytes the file stores, characters outside that
    /// code page as `?`; a loss for `element` if the text will not read back the same.
    fn text_bytes(&mut self, text: &str, element: &str) -> Vec<u8> {
        let bytes: Vec<u8> = cp1252_lossy(text).chain([0]).collect();
        self.text_loss(text, &bytes, element);
        bytes
    }

    /// A loss for `element` if `bytes`, written for `text`, do not read back as `text`.
    fn text_loss(&mut self, text: &str, bytes: &[u8], element: &str) {
        let back = to_ir::name_text(bytes);
        if back != text {
            self.loss(element, format!("{text:?} written as {back:?} (Windows-1252, up to the first NUL)"));
        }
    }

    fn build(&mut self) -> Result<()> {
        let m = self.model;
        self.file.version = self.version;
        self.file.name = match self.base {
            // The stored bytes, whatever follows their NUL, while they still read as the name.
            Some(b) if to_ir::name_text(&b.name) == m.name => b.name.clone(),
            _ => M2Array::new(self.text_bytes(&m.name, "name")),
        };
        self.file.global_sequences = m.global_sequences.iter().map(|&s| to_u32(ms(s))).collect::<Vec<_>>().into();
        let seq_fit = self.sequences()?;
        let skeleton_fit = self.bones(seq_fit)?;
        let geometry_fit = self.geometry(skeleton_fit)?;
        self.attachments(skeleton_fit)?;
        self.events(skeleton_fit && seq_fit)?;
        self.others(skeleton_fit, geometry_fit && seq_fit);
        Ok(())
    }

    // ----------------------------------------------------------------------------------- sequences

    /// Sequences, their lookups and the timeline. Returns true if the extras' sequences fit.
    fn sequences(&mut self) -> Result<bool> {
        let m = self.model;
        let base_seqs: &[Sequence] = self.base.map_or(&[], |b| &b.sequences);
        let fit = self.base.is_some() && base_seqs.len() == m.animations.len();
        let base_names = to_ir::animation_names(base_seqs);
        let mut seqs = Vec::with_capacity(m.animations.len());
        let mut cursor = 0i64;
        for (i, a) in m.animations.iter().enumerate() {
            let duration = ms(a.duration).max(0);
            let mut s = if fit { base_seqs.get(i).copied().unwrap_or_default() } else { fresh_sequence() };
            if !fit {
                let (lo, hi) = key_extent(a);
                let start = cursor + (-lo).max(0);
                s.start = to_u32(start);
                cursor = start + duration.max(hi) + 1;
            }
            s.end = to_u32(i64::from(s.start) + duration);
            if base_names.get(i) != Some(&a.name) {
                s.id = names::animation_id(&a.name).unwrap_or_else(|| {
                    self.losses.push(Loss::new(
                        format!("animations[{i}] {:?}", a.name),
                        "no AnimationData id for this name: written as Stand (id 0)",
                    ));
                    0
                });
            }
            s.flags = if a.looping { s.flags & !1 } else { s.flags | 1 };
            s.blend_time = to_u32(ms(a.blend_in));
            if let Some(b) = a.bounds {
                s.bounds = bounds_from_ir(&b);
            }
            seqs.push(s);
        }
        // Variation chains (each sequence names the next one of its id: one pass from the end)
        // and lookups.
        let mut next_of_id: std::collections::HashMap<u16, usize> = std::collections::HashMap::new();
        for (i, s) in seqs.iter_mut().enumerate().rev() {
            s.next_variation = match next_of_id.get(&s.id) {
                Some(&j) => error::fit(&format!("sequences[{i}].next_variation"), j, "i16")?,
                None => -1,
            };
            next_of_id.insert(s.id, i);
        }
        let same = fit && seqs.iter().zip(base_seqs).all(|(a, b)| a == b);
        if same {
            self.file.sequence_lookup = self.base.map(|b| b.sequence_lookup.clone()).unwrap_or_default();
            self.file.playable_lookup = self.base.map(|b| b.playable_lookup.clone()).unwrap_or_default();
        } else {
            let max_id = seqs.iter().map(|s| usize::from(s.id)).max().map_or(0, |m| m + 1);
            let mut lookup = vec![-1i16; max_id];
            for (i, s) in seqs.iter().enumerate().rev() {
                if let Some(l) = lookup.get_mut(usize::from(s.id)) {
                    *l = error::fit(&format!("sequence_lookup[{}]", s.id), i, "i16")?;
                }
            }
            let playable = (0..max_id.max(names::CLASSIC_ANIMATION_IDS))
                .map(|id| PlayableAnimation {
                    // The field holds the u16 id's bits (ids past 32767 are not in any game table).
                    fallback_id: if lookup.get(id).is_some_and(|&l| l >= 0) { id as u16 as i16 } else { 0 },
                    flags: 0,
                })
                .collect::<Vec<_>>();
            self.file.sequence_lookup = lookup.into();
            self.file.playable_lookup = if seqs.is_empty() { Default::default() } else { playable.into() };
        }
        self.file.sequences = seqs.into();
        Ok(fit)
    }

    // ---------------------------------------------------------------------------------------- bones

    /// Bones and their tracks. Returns true if the extras' skeleton fits.
    fn bones(&mut self, seq_fit: bool) -> Result<bool> {
        let m = self.model;
        let fit = self.base.is_some_and(|b| skeleton_fits(b, m));
        let tracks_fit = fit
            && seq_fit
            && self.base.is_some_and(|b| {
                b.sequences.iter().zip(self.file.sequences.iter()).all(|(a, c)| a.start == c.start && a.end == c.end)
            });
        let binds: Vec<(Mat4, [f32; 4])> = m
            .bones
            .iter()
            .map(|b| {
                let (_, r, s) = decompose(&b.bind_matrix);
                let _ = s;
                (b.bind_matrix, r)
            })
            .collect();
        if m.bones.iter().zip(&binds).any(|(b, (_, r))| !is_identity_rotation(*r) || !unit_scale(&b.bind_matrix)) {
            self.loss("bones", "bind rotations are folded into the animation keys; bind scale is not kept");
        }
        let channels = ChannelTable::new(m);
        let mut bones = Vec::with_capacity(m.bones.len());
        for (i, b) in m.bones.iter().enumerate() {
            let kept = if fit { self.base.and_then(|f| f.bones.get(i)).cloned() } else { None };
            let mut bone = kept.unwrap_or_else(|| fresh_bone(b, self.version));
            bone.parent = match b.parent {
                Some(p) => error::fit(&format!("bones[{i}].parent"), p, "i16")?,
                None => -1,
            };
            let animated = self.bone_tracks(i, &mut bone, tracks_fit, &binds, &channels)?;
            if !fit {
                bone.flags = m2_flags(&b.flags) | if animated { BONE_ANIMATED } else { 0 };
            }
            bones.push(bone);
        }
        if m.bones.len() > 256 {
            self.loss("bones", format!("{} bones: vertices can only name bones 0–255", m.bones.len()));
        }
        self.file.bones = bones.into();
        self.file.key_bone_lookup = if fit {
            self.base.map(|b| b.key_bone_lookup.clone()).unwrap_or_default()
        } else {
            let mut lookup: Vec<i16> = Vec::new();
            for (i, b) in self.file.bones.iter().enumerate() {
                if let Ok(k) = usize::try_from(b.key_bone_id) {
                    if lookup.len() <= k {
                        lookup.resize(k + 1, -1);
                    }
                    if let Some(l) = lookup.get_mut(k) {
                        *l = error::fit(&format!("key_bone_lookup[{k}]"), i, "i16")?;
                    }
                }
            }
            lookup.into()
        };
        Ok(fit)
    }

    /// Fills a bone's three tracks; returns true if any has keys.
    fn bone_tracks(
        &mut self,
        i: usize,
        bone: &mut m2::Bone,
        tracks_fit: bool,
        binds: &[(Mat4, [f32; 4])],
        channels: &ChannelTable<'_>,
    ) -> Result<bool> {
        for p in 0..3 {
            // `None`: no animation has a channel (then the track is the rest pose, if anything).
            let found = channels.of(i, p);
            let kept = tracks_fit
                && self.base.is_some_and(|b| match &found {
                    Some(current) => to_ir::track_matches(b, i, i, p, current),
                    None => to_ir::track_is_silent(b, i, p),
                });
            if kept {
                continue; // the stored track maps to exactly these channels
            }
            let current = found.as_deref().unwrap_or_default();
            match p {
                0 => bone.translation = self.build_track(i, current, binds, 0)?,
                1 => {
                    let t: Track<[f32; 4]> = self.build_track(i, current, binds, 1)?;
                    bone.rotation = if self.version >= 260 {
                        RotationTrack::Compressed(Track {
                            interpolation: t.interpolation,
                            global_sequence: t.global_sequence,
                            ranges: t.ranges,
                            timestamps: t.timestamps,
                            values: t.values.iter().map(|q| encode_quat(*q)).collect::<Vec<_>>().into(),
                        })
                    } else {
                        RotationTrack::Float(t)
                    };
                }
                _ => bone.scale = self.build_track(i, current, binds, 2)?,
            }
        }
        Ok(!(bone.translation.is_empty() && bone.rotation.head().3.is_empty() && bone.scale.is_empty()))
    }

    /// One bone property's track from its channels, one per animation (`N` = 3 or 4 components;
    /// an empty list when no animation has one).
    fn build_track<const N: usize>(
        &mut self,
        bone: usize,
        channels: &[Option<&Channel>],
        binds: &[(Mat4, [f32; 4])],
        prop: usize,
    ) -> Result<Track<[f32; N]>> {
        let m = self.model;
        let map = KeyMap::new(m, bone, binds, prop);
        let present: Vec<&Channel> = channels.iter().flatten().copied().collect();
        if present.is_empty() {
            // No channel: the rest pose, written only where M2's implicit one differs.
            let rest = map.rest::<N>();
            if map.is_m2_identity(&rest) {
                return Ok(Track::default());
            }
            return Ok(Track {
                interpolation: INTERPOLATION_NONE,
                global_sequence: -1,
                ranges: Default::default(),
                timestamps: vec![0].into(),
                values: vec![rest].into(),
            });
        }
        // One clock per track: a global clock only when every channel uses the same one.
        let global = match present.first().map(|c| c.clock) {
            Some(Clock::Global(g)) if present.iter().all(|c| c.clock == Clock::Global(g)) => Some(g),
            _ => None,
        };
        if let Some(g) = global {
            let first = present.first().copied();
            if present.iter().any(|c| Some(*c) != first) {
                self.loss(
                    format!("bones[{bone}]"),
                    "global-sequence channels differ between animations: the first is kept",
                );
            }
            let Some(c) = first else { return Ok(Track::default()) };
            let keys = self.channel_keys(c, 0, &map, c.interpolation);
            let (ts, values) = keys;
            return Ok(Track {
                interpolation: interpolation_code(c.interpolation),
                global_sequence: error::fit(&format!("bones[{bone}] global sequence"), g, "i16")?,
                ranges: Default::default(),
                timestamps: ts.into(),
                values: values.into(),
            });
        }
        if present.iter().any(|c| c.clock != Clock::Animation) {
            self.loss(format!("bones[{bone}]"), "a channel on a global clock mixed with animation channels is dropped");
        }
        let interps: Vec<Interpolation> =
            present.iter().filter(|c| c.clock == Clock::Animation).map(|c| c.interpolation).collect();
        let target = match interps.first() {
            Some(&i) if interps.iter().all(|&x| x == i) => i,
            _ => {
                self.loss(format!("bones[{bone}]"), "mixed interpolations resampled to linear");
                Interpolation::Linear
            }
        };
        let mut lists: Vec<(Vec<u32>, Vec<[f32; N]>)> = Vec::with_capacity(channels.len());
        for (a, c) in channels.iter().enumerate() {
            let start = i64::from(self.file.sequences.get(a).map_or(0, |s| s.start));
            let list = match c.filter(|c| c.clock == Clock::Animation) {
                Some(c) if c.interpolation == target => self.channel_keys(c, start, &map, target),
                Some(c) => {
                    let r = resample(c);
                    self.channel_keys(&r, start, &map, Interpolation::Linear)
                }
                None => (vec![to_u32(start)], vec![map.rest::<N>(); per_key(target)]),
            };
            lists.push(list);
        }
        let code = interpolation_code(target);
        // A step track with the same single key in every sequence needs no ranges.
        if code == INTERPOLATION_NONE
            && let Some(first) = lists.first()
            && first.0.len() == 1
            && lists.iter().all(|l| l == first)
        {
            return Ok(Track {
                interpolation: code,
                global_sequence: -1,
                ranges: Default::default(),
                timestamps: first.0.clone().into(),
                values: first.1.clone().into(),
            });
        }
        let pk = per_key(target);
        let (mut ts, mut vals, mut ranges): (Vec<u32>, Vec<[f32; N]>, Vec<[u32; 2]>) =
            (Vec::new(), Vec::new(), Vec::new());
        let mut placed: Vec<(usize, usize)> = Vec::new(); // (first, len) of each sequence's keys
        for (t, v) in &lists {
            let n = t.len();
            let same_as = placed.iter().position(|&(f, len)| {
                len == n
                    && ts.get(f..f + len) == Some(t.as_slice())
                    && vals.get(f * pk..(f + len) * pk) == Some(v.as_slice())
            });
            let first = if let Some(p) = same_as {
                placed.get(p).map_or(0, |x| x.0)
            } else if n > 0 && ts.last() == t.first() && vals.get(vals.len().saturating_sub(pk)..) == v.get(..pk) {
                let f = ts.len() - 1;
                ts.extend(t.iter().skip(1));
                vals.extend(v.iter().skip(pk));
                f
            } else {
                let f = ts.len();
                ts.extend(t);
                vals.extend(v);
                f
            };
            placed.push((first, n));
            ranges.push([first as u32, (first + n).saturating_sub(1) as u32]);
        }
        ranges.push([0, 0]);
        // Every range bound is at most the key count: if that fits, so did they.
        error::fit::<u32>(&format!("bones[{bone}] key count"), ts.len(), "u32")?;
        Ok(Track {
            interpolation: code,
            global_sequence: -1,
            ranges: ranges.into(),
            timestamps: ts.into(),
            values: vals.into(),
        })
    }

    /// A channel's keys as M2 timestamps (ms from `start`) and values (M2 frame and semantics,
    /// `per_key` entries per key), dropping keys that collide after rounding to milliseconds.
    fn channel_keys<const N: usize>(
        &mut self,
        c: &Channel,
        start: i64,
        map: &KeyMap,
        interpolation: Interpolation,
    ) -> (Vec<u32>, Vec<[f32; N]>) {
        let pk = per_key(interpolation);
        let mut ts: Vec<u32> = Vec::with_capacity(c.times.len());
        let mut values: Vec<[f32; N]> = Vec::with_capacity(c.times.len() * pk);
        let mut dropped = 0;
        let raw = raw_values::<N>(&c.values);
        for (k, &t) in c.times.iter().enumerate() {
            let at = to_u32(start + ms(t));
            if ts.last().is_some_and(|&l| at <= l) {
                dropped += 1;
                continue;
            }
            ts.push(at);
            if pk == 1 {
                values.push(map.value(raw.get(k).copied().unwrap_or([0.0; N])));
            } else {
                let (before, after) = to_ir::spans(&c.times, k);
                let g = |j: usize| raw.get(3 * k + j).copied().unwrap_or([0.0; N]);
                values.push(map.value(g(1)));
                values.push(map.tangent(g(0), before));
                values.push(map.tangent(g(2), after));
            }
        }
        if dropped > 0 {
            self.loss(
                format!("bones[{}]", c.bone),
                format!("{dropped} keys closer than 1 ms to the previous one dropped"),
            );
        }
        (ts, values)
    }

    // ------------------------------------------------------------------------------------- geometry

    /// Vertices, views, bone lookup, materials. Returns true if the extras' views fit.
    fn geometry(&mut self, skeleton_fit: bool) -> Result<bool> {
        let m = self.model;
        let mut vertices: Vec<Vertex> = Vec::with_capacity(m.vertex_count());
        let mut parts = Vec::with_capacity(m.meshes.len());
        let mut pruned = Vec::new();
        for (mi, mesh) in m.meshes.iter().enumerate() {
            let first = vertices.len();
            for v in 0..mesh.positions.len() {
                let (vertex, was_pruned) = vertex_from(mesh, v, m.bones.len())?;
                if was_pruned {
                    pruned.push((mi, v));
                }
                vertices.push(vertex);
            }
            let g = |i: u32| {
                u16::try_from(first + i as usize)
                    .map_err(|_| unsupported("more than 65535 vertices: M2 views index them with u16"))
            };
            let vertex_ids = (first..vertices.len())
                .map(|i| {
                    u16::try_from(i).map_err(|_| unsupported("more than 65535 vertices: M2 views index them with u16"))
                })
                .collect::<Result<Vec<_>>>()?;
            let triangles =
                mesh.triangles.iter().map(|t| Ok([g(t[0])?, g(t[1])?, g(t[2])?])).collect::<Result<Vec<_>>>()?;
            parts.push(Part {
                id: mesh.part_id.and_then(|p| u16::try_from(p).ok()).unwrap_or(0),
                vertices: vertex_ids,
                triangles,
            });
        }
        if !pruned.is_empty() {
            let error = crate::pose::pruning_error(m, &pruned);
            self.loss(
                "meshes",
                format!("{} vertices had more than 4 influences: kept the 4 largest; largest position error {error:.4} over the animations' keys", pruned.len()),
            );
        }
        let tbc = self.version >= 260;
        // Stored views fit when the rebuilt view 0 has the stored one's topology and every stored
        // view's palettes still name the vertices' bones. View 0 is built once: it is also the
        // first of the rebuilt views when they do not fit (its palettes start the bone lookup).
        let mut lookup = Vec::new();
        let (view0, origin0) =
            palette::build_view(&vertices, &parts, VIEW_BUDGETS[0], &mut lookup, tbc).map_err(unsupported)?;
        let base = self.base.filter(|_| skeleton_fit);
        let views_fit = base.is_some_and(|b| {
            b.views.first().is_some_and(|bv| {
                bv.submeshes.len() == view0.submeshes.len()
                    && bv.indices == view0.indices
                    && bv.triangles == view0.triangles
                    && bv.submeshes.iter().zip(view0.submeshes.iter()).all(|(a, c)| {
                        (a.id, a.level, a.vertex_start, a.vertex_count, a.index_start, a.index_count)
                            == (c.id, c.level, c.vertex_start, c.vertex_count, c.index_start, c.index_count)
                    })
            }) && b.views.iter().all(|v| palette::palettes_hold(v, &vertices, &b.bone_lookup))
                && b.bone_lookup.iter().all(|&x| usize::from(x) < m.bones.len())
        });
        let materials_fit = base.is_some_and(|b| {
            let Ok((mats, of_sub)) = to_ir::materials_to_ir(b) else { return false };
            of_sub.len() == m.meshes.len()
                && m.meshes
                    .iter()
                    .zip(&of_sub)
                    .all(|(mesh, s)| mesh.material.and_then(|i| m.materials.get(i)) == s.and_then(|i| mats.get(i)))
        });
        let view0_units = if materials_fit {
            let b = base.and_then(|b| b.views.first()).map(|v| v.texture_units.items.clone()).unwrap_or_default();
            self.copy_material_tables();
            b
        } else {
            self.build_materials()?
        };
        if views_fit && let Some(b) = base {
            self.file.views = b.views.clone();
            self.file.bone_lookup = b.bone_lookup.clone();
            if !materials_fit {
                let origins: Vec<Vec<usize>> = b
                    .views
                    .iter()
                    .map(|v| v.texture_units.iter().map(|u| usize::from(u.geoset_index)).collect())
                    .collect();
                for (v, _) in self.file.views.iter_mut().zip(origins) {
                    let origin: Vec<usize> = (0..v.submeshes.len())
                        .map(|s| {
                            // A stored view's submesh comes from the view-0 submesh of its first unit.
                            v.texture_units
                                .iter()
                                .find(|u| usize::from(u.submesh_index) == s)
                                .map_or(s, |u| usize::from(u.geoset_index))
                        })
                        .collect();
                    v.texture_units = palette::units_for(&view0_units, &origin)?.into();
                }
            }
        } else {
            let mut views = Vec::with_capacity(VIEW_BUDGETS.len());
            let mut first = Some((view0, origin0));
            for budget in VIEW_BUDGETS {
                let (mut v, origin) = match first.take() {
                    Some(built) => built,
                    None => palette::build_view(&vertices, &parts, budget, &mut lookup, tbc).map_err(unsupported)?,
                };
                v.texture_units = palette::units_for(&view0_units, &origin)?.into();
                views.push(v);
            }
            self.file.views = views.into();
            self.file.bone_lookup = lookup.into();
            if self.base.is_some_and(|b| !b.views.is_empty()) {
                self.loss("views", "the stored views no longer fit the meshes: all four rebuilt");
            }
        }
        self.file.vertices = vertices.into();
        Ok(views_fit)
    }

    fn copy_material_tables(&mut self) {
        let Some(b) = self.base else { return };
        let f = &mut self.file;
        f.textures = b.textures.clone();
        f.render_flags = b.render_flags.clone();
        f.texture_lookup = b.texture_lookup.clone();
        f.texture_unit_lookup = b.texture_unit_lookup.clone();
        f.transparency_lookup = b.transparency_lookup.clone();
        f.texture_transform_lookup = b.texture_transform_lookup.clone();
        f.replaceable_texture_lookup = b.replaceable_texture_lookup.clone();
        f.colors = b.colors.clone();
        f.transparency = b.transparency.clone();
        f.texture_transforms = b.texture_transforms.clone();
    }

    /// Textures, render flags and lookups from the model's materials; returns view 0's units.
    fn build_materials(&mut self) -> Result<Vec<TextureUnit>> {
        let m = self.model;
        if self.base.is_some_and(|b| !b.colors.is_empty() || !b.texture_transforms.is_empty()) {
            self.loss("materials", "materials changed: colour and UV animations of the stored file dropped");
        }
        let mut textures: Vec<Texture> = Vec::new();
        let mut flags: Vec<RenderFlag> = Vec::new();
        let mut coords: Vec<i16> = Vec::new();
        let mut replaceable: Vec<i16> = Vec::new();
        let mut units = Vec::new();
        for (s, mesh) in m.meshes.iter().enumerate() {
            let Some((mi, mat)) = mesh.material.and_then(|i| Some((i, m.materials.get(i)?))) else { continue };
            let rf = RenderFlag {
                flags: u16::from(mat.unlit)
                    | u16::from(mat.unfogged) << 1
                    | u16::from(mat.double_sided) << 2
                    | u16::from(!mat.depth_write) << 4,
                blend_mode: blend_code(mat.blend),
            };
            let rfi = index_of(&mut flags, rf);
            for (layer, t) in mat.textures.iter().enumerate() {
                let filename: Vec<u8> =
                    if t.replaceable.is_some() { vec![0] } else { cp1252_lossy(&t.path).chain([0]).collect() };
                let tex = Texture {
                    kind: t.replaceable.unwrap_or(0),
                    flags: u32::from(t.wrap_u) | u32::from(t.wrap_v) << 1,
                    filename: M2Array::new(filename),
                };
                let known = textures.len();
                let ti = index_of(&mut textures, tex);
                if ti == known && t.replaceable.is_none() {
                    // A texture met for the first time: say once if its path changes.
                    let written = textures.get(ti).map(|x| x.filename.items.clone()).unwrap_or_default();
                    self.text_loss(&t.path, &written, &format!("texture {:?}", t.path));
                }
                if let Some(r) = t.replaceable.and_then(|r| usize::try_from(r).ok()) {
                    if replaceable.len() <= r {
                        replaceable.resize(r + 1, -1);
                    }
                    if let Some(x) = replaceable.get_mut(r) {
                        *x = error::fit(&format!("replaceable_texture_lookup[{r}]"), ti, "i16")?;
                    }
                }
                let coord = match t.uv_set {
                    Some(u) => error::fit(&format!("materials[{mi}].textures[{layer}].uv_set"), u as usize, "i16")?,
                    None => -1,
                };
                let ci = index_of(&mut coords, coord);
                let unit = |field: &str| format!("meshes[{s}] texture unit {layer} {field}");
                units.push(TextureUnit {
                    flags: 0x10,
                    priority_plane: 0,
                    shader_id: 0,
                    submesh_index: error::fit(&unit("submesh"), s, "u16")?,
                    geoset_index: error::fit(&unit("submesh"), s, "u16")?,
                    color_index: -1,
                    render_flag_index: error::fit(&unit("render flag"), rfi, "u16")?,
                    material_layer: error::fit(&unit("layer"), layer, "u16")?,
                    texture_count: 1,
                    texture_combo_index: error::fit(&unit("texture"), ti, "u16")?,
                    texture_coord_combo_index: error::fit(&unit("texture coordinates"), ci, "u16")?,
                    transparency_combo_index: 0,
                    texture_transform_combo_index: 0,
                });
            }
        }
        let texture_count: i16 = error::fit("textures", textures.len(), "i16")?;
        let f = &mut self.file;
        f.texture_lookup = (0..texture_count).collect::<Vec<_>>().into();
        f.textures = textures.into();
        f.render_flags = flags.into();
        f.texture_unit_lookup = coords.into();
        f.replaceable_texture_lookup = replaceable.into();
        f.transparency = vec![TextureWeight {
            weight: Track {
                interpolation: INTERPOLATION_NONE,
                global_sequence: -1,
                ranges: Default::default(),
                timestamps: vec![0].into(),
                values: vec![0x7FFF].into(),
            },
        }]
        .into();
        f.transparency_lookup = vec![0].into();
        f.texture_transform_lookup = vec![-1].into();
        f.colors = Default::default();
        f.texture_transforms = Default::default();
        Ok(units)
    }

    // ------------------------------------------------------------------------------ attachments etc.

    fn attachments(&mut self, skeleton_fit: bool) -> Result<()> {
        let m = self.model;
        let base = self.base.filter(|_| skeleton_fit);
        if let Some(b) = base
            && to_ir::attachments_to_ir(b, &identity(b.bones.len())) == m.attachments
        {
            self.file.attachments = b.attachments.clone();
            self.file.attachment_lookup = b.attachment_lookup.clone();
            return Ok(());
        }
        let mut lookup: Vec<i16> = Vec::new();
        let mut out = Vec::with_capacity(m.attachments.len());
        for (i, a) in m.attachments.iter().enumerate() {
            let id = match a.id {
                Some(id) => id,
                None => error::fit(&format!("attachments[{i}].id"), i, "u32")?,
            };
            let pivot = self.file.bones.get(a.bone).map_or([0.0; 3], |b| b.pivot);
            let t = FRAME.vector_from_ir(a.transform.translation);
            if a.transform.rotation != [0.0, 0.0, 0.0, 1.0] || a.transform.scale != [1.0; 3] {
                self.loss(
                    format!("attachments[{i}] {:?}", a.name),
                    "rotation and scale of the attachment point dropped (M2 stores a position)",
                );
            }
            out.push(m2::Attachment {
                id,
                bone: error::fit(&format!("attachments[{i}].bone"), a.bone, "u16")?,
                unknown: 0,
                position: [pivot[0] + t[0], pivot[1] + t[1], pivot[2] + t[2]],
                visibility: Track {
                    interpolation: INTERPOLATION_NONE,
                    global_sequence: -1,
                    ranges: Default::default(),
                    timestamps: vec![0].into(),
                    values: vec![1].into(),
                },
            });
            if let Ok(id) = usize::try_from(id)
                && id < 256
            {
                if lookup.len() <= id {
                    lookup.resize(id + 1, -1);
                }
                if let Some(l) = lookup.get_mut(id) {
                    *l = error::fit(&format!("attachment_lookup[{id}]"), i, "i16")?;
                }
            }
        }
        self.file.attachments = out.into();
        self.file.attachment_lookup = lookup.into();
        Ok(())
    }

    fn events(&mut self, fit: bool) -> Result<()> {
        let m = self.model;
        if let Some(b) = self.base.filter(|_| fit) {
            let rank = identity(b.bones.len());
            let same = to_ir::events_match(b, &rank, &m.animations);
            if same {
                self.file.events = b.events.clone();
                return Ok(());
            }
        }
        // An M2 event hangs on a bone: a file without bones cannot hold one (its reader refuses
        // bone 0 of none).
        if self.file.bones.is_empty() {
            let dropped: usize = m.animations.iter().map(|a| a.events.len()).sum();
            if dropped > 0 {
                self.loss(
                    "events",
                    format!("{dropped} events dropped: an M2 event needs a bone and the model has none"),
                );
            }
            self.file.events = Vec::new().into();
            return Ok(());
        }
        // Group by what the event is; one firing-time list per sequence.
        let mut kinds: Vec<EventKind> = Vec::new();
        for a in &m.animations {
            for e in &a.events {
                let k = (e.name.clone(), e.bone, e.position, e.parameter);
                if !kinds.contains(&k) {
                    kinds.push(k);
                }
            }
        }
        let mut out = Vec::with_capacity(kinds.len());
        for (name, bone, position, parameter) in kinds {
            let mut ts: Vec<u32> = Vec::new();
            let mut ranges = Vec::new();
            for (s, a) in m.animations.iter().enumerate() {
                let start = i64::from(self.file.sequences.get(s).map_or(0, |q| q.start));
                let first = ts.len();
                for e in a
                    .events
                    .iter()
                    .filter(|e| e.name == name && e.bone == bone && e.position == position && e.parameter == parameter)
                {
                    let t = to_u32(start + ms(e.time));
                    if ts.last().is_none_or(|&l| t > l) {
                        ts.push(t);
                    }
                }
                ranges.push([first as u32, ts.len() as u32]);
            }
            ranges.push([0, 0]);
            // Every range bound is at most the firing-time count: if that fits, so did they.
            error::fit::<u32>(&format!("event {name:?} firing times"), ts.len(), "u32")?;
            let b = bone.unwrap_or(0);
            let pivot = self.file.bones.get(b).map_or([0.0; 3], |x| x.pivot);
            let p = FRAME.vector_from_ir(position.unwrap_or([0.0; 3]));
            // Four Windows-1252 bytes, NUL-padded; lengths are those of the encoded bytes.
            let mut identifier = [0u8; 4];
            for (d, s) in identifier.iter_mut().zip(cp1252_lossy(&name)) {
                *d = s;
            }
            let back = to_ir::event_name(&identifier);
            if back != name {
                self.loss(
                    format!("event {name:?}"),
                    format!("identifier written as {back:?} (4 Windows-1252 bytes, characters outside it as '?')"),
                );
            }
            out.push(m2::Event {
                identifier,
                data: parameter.unwrap_or(0),
                bone: error::fit(&format!("event {name:?} bone"), b, "u32")?,
                position: [pivot[0] + p[0], pivot[1] + p[1], pivot[2] + p[2]],
                times: EventTrack {
                    interpolation: 0,
                    global_sequence: -1,
                    ranges: ranges.into(),
                    timestamps: ts.into(),
                },
            });
        }
        self.file.events = out.into();
        Ok(())
    }

    /// Sections the model does not describe, taken from the extras while their references hold.
    fn others(&mut self, skeleton_fit: bool, bounds_fit: bool) {
        let nb = self.file.bones.len();
        let nt = self.file.textures.len();
        let nr = self.file.render_flags.len();
        let Some(b) = self.base else {
            self.fresh_bounds();
            return;
        };
        let f = &mut self.file;
        f.flags = b.flags & if self.version >= 260 { u32::MAX } else { !FLAG_BLEND_OVERRIDES };
        f.blend_overrides = if f.flags & FLAG_BLEND_OVERRIDES != 0 && self.version >= 260 {
            Some(b.blend_overrides.clone().unwrap_or_default())
        } else {
            None
        };
        f.collision_box = b.collision_box;
        f.collision_radius = b.collision_radius;
        f.collision_triangles = b.collision_triangles.clone();
        f.collision_vertices = b.collision_vertices.clone();
        f.collision_normals = b.collision_normals.clone();
        let mut dropped = Vec::new();
        let bone_ok = |bone: i64| skeleton_fit || (bone >= -1 && bone < nb as i64);
        let lights: Vec<Light> = b.lights.iter().filter(|l| bone_ok(i64::from(l.bone))).cloned().collect();
        if lights.len() < b.lights.len() {
            dropped.push("lights");
        }
        let ribbons: Vec<Ribbon> = b
            .ribbon_emitters
            .iter()
            .filter(|r| {
                bone_ok(i64::from(r.bone))
                    && r.textures.iter().all(|&t| usize::from(t) < nt)
                    && r.materials.iter().all(|&x| usize::from(x) < nr)
            })
            .cloned()
            .collect();
        if ribbons.len() < b.ribbon_emitters.len() {
            dropped.push("ribbon emitters");
        }
        let particles: Vec<Particle> = b
            .particle_emitters
            .iter()
            .filter(|p| bone_ok(i64::from(p.bone)) && usize::from(p.texture) < nt.max(1))
            .cloned()
            .collect();
        if particles.len() < b.particle_emitters.len() {
            dropped.push("particle emitters");
        }
        f.lights = lights.into();
        f.cameras = b.cameras.clone();
        f.camera_lookup = b.camera_lookup.clone();
        f.ribbon_emitters = ribbons.into();
        f.particle_emitters = particles.into();
        for d in dropped {
            self.loss(d, "some refer to bones or textures the model no longer has: dropped");
        }
        if bounds_fit {
            self.file.bounding_box = b.bounding_box;
            self.file.bounding_radius = b.bounding_radius;
        } else {
            self.fresh_bounds();
        }
    }

    /// The model box: the union of the sequence boxes, else the vertices' box; radius half its diagonal.
    fn fresh_bounds(&mut self) {
        let f = &mut self.file;
        let mut b: Option<Bounds> = None;
        let mut grow = |p: [f32; 3]| {
            let x = b.get_or_insert(Bounds { min: p, max: p });
            for c in 0..3 {
                if let (Some(lo), Some(hi), Some(v)) = (x.min.get_mut(c), x.max.get_mut(c), p.get(c)) {
                    *lo = lo.min(*v);
                    *hi = hi.max(*v);
                }
            }
        };
        if f.sequences.is_empty() {
            f.vertices.iter().for_each(|v| grow(v.position));
        } else {
            for s in f.sequences.iter() {
                grow(s.bounds.min);
                grow(s.bounds.max);
            }
        }
        let b = b.unwrap_or_default();
        f.bounding_box = b;
        let d: f32 = b.min.iter().zip(&b.max).map(|(a, c)| (c - a) * (c - a)).sum();
        f.bounding_radius = d.sqrt() / 2.0;
    }
}

/// Windows-1252 bytes of `text`, `?` for a character outside that code page (the reader decodes
/// every stored string as Windows-1252).
fn cp1252_lossy(text: &str) -> impl Iterator<Item = u8> + '_ {
    text.chars().map(|c| relic_core::text::encode_cp1252_char(c).unwrap_or(b'?'))
}

/// What an event is: name, bone, position, parameter.
type EventKind = (String, Option<usize>, Option<[f32; 3]>, Option<u32>);

fn identity(n: usize) -> Vec<usize> {
    (0..n).collect()
}

fn index_of<T: PartialEq>(list: &mut Vec<T>, item: T) -> usize {
    match list.iter().position(|x| *x == item) {
        Some(i) => i,
        None => {
            list.push(item);
            list.len() - 1
        }
    }
}

fn per_key(i: Interpolation) -> usize {
    if i == Interpolation::CubicSpline { 3 } else { 1 }
}

fn interpolation_code(i: Interpolation) -> u16 {
    match i {
        Interpolation::Step => INTERPOLATION_NONE,
        Interpolation::Linear => INTERPOLATION_LINEAR,
        Interpolation::CubicSpline => INTERPOLATION_HERMITE,
    }
}

fn blend_code(b: BlendMode) -> u16 {
    match b {
        BlendMode::Opaque => 0,
        BlendMode::AlphaKey => 1,
        BlendMode::Alpha => 2,
        BlendMode::Add => 3,
        BlendMode::AddAlpha => 4,
        BlendMode::Modulate => 5,
        BlendMode::Modulate2x => 6,
    }
}

fn fresh_sequence() -> Sequence {
    Sequence { frequency: 0x7FFF, replay: [0, 0], next_variation: -1, ..Sequence::default() }
}

fn fresh_bone(b: &relic_core::model::Bone, version: u32) -> m2::Bone {
    m2::Bone {
        key_bone_id: names::key_bone_id(&b.name).unwrap_or(-1),
        unknown: (version >= 260).then_some(0),
        rotation: if version >= 260 {
            RotationTrack::Compressed(Track::default())
        } else {
            RotationTrack::Float(Track::default())
        },
        pivot: FRAME.vector_from_ir([b.bind_matrix[12], b.bind_matrix[13], b.bind_matrix[14]]),
        ..m2::Bone::default()
    }
}

/// The M2 flag of a cylindrical billboard locked to M2 axis `axis`.
fn lock_flag(axis: usize) -> u32 {
    [BONE_BILLBOARD_X, BONE_BILLBOARD_Y, BONE_BILLBOARD_Z].get(axis).copied().unwrap_or(BONE_BILLBOARD_Z)
}

/// M2 bone flags of the model's flags (billboard axes back to M2's).
fn m2_flags(f: &BoneFlags) -> u32 {
    let mut flags = 0;
    if !f.inherit_translation {
        flags |= BONE_IGNORE_PARENT_TRANSLATION;
    }
    if !f.inherit_scale {
        flags |= BONE_IGNORE_PARENT_SCALE;
    }
    if !f.inherit_rotation {
        flags |= BONE_IGNORE_PARENT_ROTATION;
    }
    flags
        | match f.billboard {
            Billboard::None => 0,
            Billboard::Spherical => BONE_BILLBOARD,
            Billboard::CylindricalX => lock_flag(FRAME.axis_from_ir(0)),
            Billboard::CylindricalY => lock_flag(FRAME.axis_from_ir(1)),
            Billboard::CylindricalZ => lock_flag(FRAME.axis_from_ir(2)),
        }
}

/// True if the extras' bones map to the model's (names aside: M2 stores none).
fn skeleton_fits(base: &M2File, m: &Model) -> bool {
    let (order, rank) = to_ir::bone_order(base);
    if order.iter().enumerate().any(|(i, &o)| i != o) || base.bones.len() != m.bones.len() {
        return false;
    }
    to_ir::bones_to_ir(base, &order, &rank).iter().zip(&m.bones).all(|(a, b)| {
        (a.parent, a.rest, a.bind_matrix, a.inverse_bind_matrix, a.flags)
            == (b.parent, b.rest, b.bind_matrix, b.inverse_bind_matrix, b.flags)
    })
}

fn is_identity_rotation(q: [f32; 4]) -> bool {
    q[0].abs() < 1e-6 && q[1].abs() < 1e-6 && q[2].abs() < 1e-6
}

fn unit_scale(m: &Mat4) -> bool {
    let (_, _, s) = decompose(m);
    s.iter().all(|c| (c - 1.0).abs() < 1e-4)
}

/// Earliest and latest key of an animation (ms relative to its start, events included).
fn key_extent(a: &Animation) -> (i64, i64) {
    let times = a
        .channels
        .iter()
        .filter(|c| c.clock == Clock::Animation)
        .flat_map(|c| c.times.iter().copied())
        .chain(a.events.iter().map(|e| e.time));
    times.fold((0, 0), |(lo, hi), t| (lo.min(ms(t)), hi.max(ms(t))))
}

/// A sequence box back in M2's frame.
// Component indices 0..3 of 3-element arrays.
#[allow(clippy::indexing_slicing)]
fn bounds_from_ir(b: &Aabb) -> Bounds {
    let (a, c) = (FRAME.vector_from_ir(b.min), FRAME.vector_from_ir(b.max));
    Bounds { min: std::array::from_fn(|i| a[i].min(c[i])), max: std::array::from_fn(|i| a[i].max(c[i])) }
}

/// The values of a channel as `[f32; N]` (3 for translation/scale, 4 for rotation).
fn raw_values<const N: usize>(v: &ChannelValues) -> Vec<[f32; N]> {
    match v {
        ChannelValues::Translation(x) | ChannelValues::Scale(x) => {
            x.iter().map(|p| std::array::from_fn(|i| p.get(i).copied().unwrap_or(0.0))).collect()
        }
        ChannelValues::Rotation(x) => {
            x.iter().map(|p| std::array::from_fn(|i| p.get(i).copied().unwrap_or(0.0))).collect()
        }
    }
}

/// A channel resampled to linear keys (at its keys, 1 ms before each step, and 30 Hz inside
/// cubic segments).
fn resample(c: &Channel) -> Channel {
    let mut times: Vec<f32> = Vec::new();
    for (k, &t) in c.times.iter().enumerate() {
        times.push(t);
        if let Some(&next) = c.times.get(k + 1) {
            match c.interpolation {
                Interpolation::Step if next - t > 0.002 => times.push(next - 0.001),
                Interpolation::CubicSpline => {
                    let n = ((next - t) * 30.0).ceil().max(1.0) as usize;
                    times.extend((1..n).map(|j| t + (next - t) * j as f32 / n as f32));
                }
                _ => {}
            }
        }
    }
    let sample = |t: f32| c.sample(t);
    let values = match &c.values {
        ChannelValues::Rotation(_) => ChannelValues::Rotation(
            times
                .iter()
                .map(|&t| match sample(t) {
                    Some(relic_core::sample::Sample::Rotation(q)) => q,
                    _ => [0.0, 0.0, 0.0, 1.0],
                })
                .collect(),
        ),
        other => {
            let v: Vec<[f32; 3]> = times
                .iter()
                .map(|&t| match sample(t) {
                    Some(relic_core::sample::Sample::Vector(v)) => v,
                    _ => [0.0; 3],
                })
                .collect();
            match other {
                ChannelValues::Scale(_) => ChannelValues::Scale(v),
                _ => ChannelValues::Translation(v),
            }
        }
    };
    Channel { bone: c.bone, clock: c.clock, interpolation: Interpolation::Linear, times, values }
}

/// How a bone's model-frame local values of one property become M2 key values.
struct KeyMap {
    /// 0 translation, 1 rotation, 2 scale.
    property: usize,
    /// Translation offset subtracted: pivot − parent pivot (model frame), when binds are pure
    /// translations.
    offset: [f32; 3],
    /// Parent bind rotation (`Rp`), the inverse of the bone's (`Rb⁻¹`) and `Rp` as a matrix,
    /// `None` when both are identity.
    rotations: Option<([f32; 4], [f32; 4], Mat4)>,
    /// parent pivot − pivot (model frame).
    pivot_delta: [f32; 3],
    rest: Transform,
}

// `N` is 3 (translation, scale) or 4 (rotation): component indices 0..N are in bounds.
#[allow(clippy::indexing_slicing)]
impl KeyMap {
    fn new(m: &Model, bone: usize, binds: &[(Mat4, [f32; 4])], property: usize) -> Self {
        let b = m.bones.get(bone);
        let t = |x: &Mat4| [x[12], x[13], x[14]];
        let own = binds.get(bone).copied();
        let parent = b.and_then(|b| b.parent).and_then(|p| binds.get(p).copied());
        let pivot = own.map_or([0.0; 3], |o| t(&o.0));
        let parent_pivot = parent.map_or([0.0; 3], |p| t(&p.0));
        let rb = own.map_or([0.0, 0.0, 0.0, 1.0], |o| o.1);
        let rp = parent.map_or([0.0, 0.0, 0.0, 1.0], |p| p.1);
        let rotations = (!is_identity_rotation(rb) || !is_identity_rotation(rp))
            .then(|| (rp, quat_conjugate(rb), relic_core::math::from_trs([0.0; 3], rp, [1.0; 3])));
        Self {
            property,
            offset: [pivot[0] - parent_pivot[0], pivot[1] - parent_pivot[1], pivot[2] - parent_pivot[2]],
            rotations,
            pivot_delta: [parent_pivot[0] - pivot[0], parent_pivot[1] - pivot[1], parent_pivot[2] - pivot[2]],
            rest: b.map_or(Transform::IDENTITY, |b| b.rest),
        }
    }

    fn rotate(&self, q: [f32; 4]) -> [f32; 4] {
        match self.rotations {
            Some((rp, rb_inv, _)) => quat_mul(quat_mul(rp, q), rb_inv),
            None => q,
        }
    }

    fn out<const N: usize>(v: &[f32]) -> [f32; N] {
        std::array::from_fn(|i| v.get(i).copied().unwrap_or(0.0))
    }

    /// A key value in M2's frame and meaning.
    fn value<const N: usize>(&self, v: [f32; N]) -> [f32; N] {
        match self.property {
            0 => {
                let p = [v[0], v[1], v[2]];
                let t = match self.rotations {
                    Some((_, _, rp)) => {
                        let r = transform_point(&rp, p);
                        [r[0] + self.pivot_delta[0], r[1] + self.pivot_delta[1], r[2] + self.pivot_delta[2]]
                    }
                    None => [p[0] - self.offset[0], p[1] - self.offset[1], p[2] - self.offset[2]],
                };
                Self::out(&FRAME.vector_from_ir(t))
            }
            1 => Self::out(&FRAME.quat_from_ir(self.rotate([v[0], v[1], v[2], v[3 % N]]))),
            _ => Self::out(&FRAME.scale_from_ir([v[0], v[1], v[2]])),
        }
    }

    /// A cubic tangent (per second in the model) as an M2 per-segment tangent.
    fn tangent<const N: usize>(&self, v: [f32; N], span: f32) -> [f32; N] {
        let s: [f32; N] = std::array::from_fn(|i| (f64::from(v[i]) * f64::from(span)) as f32);
        match self.property {
            0 => {
                let p = [s[0], s[1], s[2]];
                let p = match self.rotations {
                    Some((_, _, rp)) => transform_vector(&rp, p),
                    None => p,
                };
                Self::out(&FRAME.vector_from_ir(p))
            }
            1 => Self::out(&FRAME.quat_from_ir(self.rotate([s[0], s[1], s[2], s[3 % N]]))),
            _ => Self::out(&FRAME.scale_from_ir([s[0], s[1], s[2]])),
        }
    }

    /// The rest transform's value of this property as an M2 key.
    fn rest<const N: usize>(&self) -> [f32; N] {
        let r = &self.rest;
        match self.property {
            0 => self.value(Self::out(&r.translation)),
            1 => self.value(Self::out(&r.rotation)),
            _ => self.value(Self::out(&r.scale)),
        }
    }

    /// True if `v` is what M2 implies without a track (no offset, identity rotation, unit scale).
    fn is_m2_identity<const N: usize>(&self, v: &[f32; N]) -> bool {
        match self.property {
            0 => v.iter().all(|c| c.abs() < 1e-5),
            1 => v.iter().take(3).all(|c| c.abs() < 1e-6) && (v[3 % N].abs() - 1.0).abs() < 1e-6,
            _ => v.iter().all(|c| (c - 1.0).abs() < 1e-6),
        }
    }
}

/// One vertex of a mesh: at most 4 influences (the largest), u8 weights summing to 255. Returns
/// the vertex and whether influences were dropped.
fn vertex_from(mesh: &Mesh, v: usize, bones: usize) -> Result<(Vertex, bool)> {
    let position = FRAME.vector_from_ir(mesh.positions.get(v).copied().unwrap_or_default());
    let normal = FRAME.vector_from_ir(mesh.normals.get(v).copied().unwrap_or([0.0, 1.0, 0.0]));
    let uv = |set: usize| mesh.uv_sets.get(set).and_then(|s| s.get(v)).copied().unwrap_or([0.0; 2]);
    let mut inf: Vec<Influence> = mesh.skin.vertex(v).to_vec();
    if inf.is_empty() && bones > 0 {
        inf.push(Influence { bone: 0, weight: 1.0 });
    }
    let pruned = inf.len() > 4;
    if pruned {
        let mut order: Vec<usize> = (0..inf.len()).collect();
        let w = |i: usize| inf.get(i).map_or(0.0, |x| x.weight);
        order.sort_by(|&a, &b| w(b).total_cmp(&w(a)).then(a.cmp(&b)));
        let mut keep: Vec<usize> = order.into_iter().take(4).collect();
        keep.sort_unstable();
        inf = keep.into_iter().filter_map(|i| inf.get(i).copied()).collect();
    }
    let (weights, indices) = quantise(&inf)?;
    Ok((
        Vertex {
            position,
            bone_weights: weights,
            bone_indices: indices,
            normal,
            tex_coords: uv(0),
            tex_coords2: uv(1),
        },
        pruned,
    ))
}

/// Up to 4 influences → u8 weights summing to 255 (largest remainder), in the given order.
pub fn quantise(inf: &[Influence]) -> Result<([u8; 4], [u8; 4])> {
    let mut weights = [0u8; 4];
    let mut indices = [0u8; 4];
    if inf.is_empty() {
        return Ok((weights, indices));
    }
    let sum: f64 = inf.iter().map(|i| f64::from(i.weight)).sum();
    let sum = if sum > 0.0 { sum } else { 1.0 };
    let exact: Vec<f64> = inf.iter().map(|i| f64::from(i.weight) / sum * 255.0).collect();
    let mut q: Vec<i64> = exact.iter().map(|e| e.floor() as i64).collect();
    let mut missing = 255 - q.iter().sum::<i64>();
    let mut order: Vec<usize> = (0..q.len()).collect();
    order.sort_by(|&a, &b| {
        let ra = exact.get(a).copied().unwrap_or(0.0) - q.get(a).copied().unwrap_or(0) as f64;
        let rb = exact.get(b).copied().unwrap_or(0.0) - q.get(b).copied().unwrap_or(0) as f64;
        rb.total_cmp(&ra).then(a.cmp(&b))
    });
    for i in order.iter().cycle().take(q.len() * 4) {
        if missing <= 0 {
            break;
        }
        if let Some(x) = q.get_mut(*i) {
            *x += 1;
            missing -= 1;
        }
    }
    for (k, (i, w)) in inf.iter().zip(q).enumerate() {
        let b = u8::try_from(i.bone).map_err(|_| WriteError::DoesNotFit {
            field: "vertex bone index".into(),
            value: u64::from(i.bone),
            ty: "u8",
        })?;
        if let (Some(ws), Some(is)) = (weights.get_mut(k), indices.get_mut(k)) {
            *ws = w.clamp(0, 255) as u8;
            *is = b;
        }
    }
    Ok((weights, indices))
}
