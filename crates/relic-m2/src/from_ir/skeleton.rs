//! Bones, their tracks and attachments.

use relic_core::error;
use relic_core::math::{Mat4, decompose};
use relic_core::model::*;

use super::builder::{Builder, Result, identity, inverse};
use super::keys::is_identity_rotation;
use crate::file::{self as m2, *};
use crate::frame::WARCRAFT;
use crate::names;
use crate::to_ir;

impl Builder<'_> {
    /// Bones and their tracks, in the extras' order when their skeleton fits (sets
    /// [`Builder::to_file`]). Returns true if it fits.
    pub(super) fn bones(&mut self, seq_fit: bool) -> Result<bool> {
        let m = self.model;
        let fitting_order = self.base.and_then(|b| skeleton_fits(b, m));
        let fit = fitting_order.is_some();
        self.to_file = fitting_order.unwrap_or_else(|| identity(m.bones.len()));
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
        // Bind rotations are folded into the keys exactly (M2 bones have a pivot, no axes of their
        // own); a bind scale has nowhere to go.
        if m.bones.iter().any(|b| !unit_scale(&b.bind_matrix)) {
            self.loss("bones", "bind scale is not kept (M2 bones have a pivot only)");
        }
        let channels = ChannelTable::new(m);
        let mut bones = vec![m2::Bone::default(); m.bones.len()];
        for (i, b) in m.bones.iter().enumerate() {
            let f = self.to_file.get(i).copied().unwrap_or(i);
            let kept = if fit { self.base.and_then(|base| base.bones.get(f)).cloned() } else { None };
            let mut bone = kept.unwrap_or_else(|| fresh_bone(b, self.version));
            bone.parent = match b.parent.and_then(|p| self.to_file.get(p)) {
                Some(&p) => error::fit(&format!("bones[{i}].parent"), p, "i16")?,
                None => -1,
            };
            let animated = self.bone_tracks((i, f), &mut bone, tracks_fit, &binds, &channels)?;
            if !fit {
                bone.flags = m2_flags(&b.flags) | if animated { BONE_ANIMATED } else { 0 };
            }
            if let Some(slot) = bones.get_mut(f) {
                *slot = bone;
            }
        }
        if m.bones.len() > 256 {
            self.loss("bones", format!("{} bones: vertices can only name bones 0–255", m.bones.len()));
        }
        self.file.bones = bones.into();
        self.file.key_bone_lookup = if let Some(b) = self.base.filter(|_| fit) {
            b.key_bone_lookup.clone()
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

    /// Fills the three tracks of model bone `i`, file bone `f`; returns true if any has keys.
    pub(super) fn bone_tracks(
        &mut self,
        (i, f): (usize, usize),
        bone: &mut m2::Bone,
        tracks_fit: bool,
        binds: &[(Mat4, [f32; 4])],
        channels: &ChannelTable<'_>,
    ) -> Result<bool> {
        for p in 0..3 {
            // `None`: no animation has a channel (then the track is the rest pose, if anything).
            let found = channels.of(i, p);
            let kept = tracks_fit
                && !self.rebuild_tracks
                && self.base.is_some_and(|b| match &found {
                    Some(current) => to_ir::track_matches(b, f, i, p, current),
                    None => to_ir::track_is_silent(b, f, p),
                });
            if kept {
                continue; // the stored track maps to exactly these channels
            }
            // No animation has a channel: the track is the rest pose.
            let current = found.as_deref().unwrap_or(&[]);
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

    pub(super) fn attachments(&mut self, skeleton_fit: bool) -> Result<()> {
        let m = self.model;
        let base = self.base.filter(|_| skeleton_fit);
        if let Some(b) = base
            && to_ir::attachments_to_ir(b, &inverse(&self.to_file)).is_ok_and(|a| a == m.attachments)
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
            let bone = self.to_file.get(a.bone).copied().unwrap_or(a.bone);
            let pivot = self.file.bones.get(bone).map_or([0.0; 3], |b| b.pivot);
            let t = WARCRAFT.vector_from_ir(a.transform.translation);
            // An editor's rounding (1e-7) is no rotation or scale.
            if !is_identity_rotation(a.transform.rotation) || !near_unit(a.transform.scale) {
                self.loss(
                    format!("attachments[{i}] {:?}", a.name),
                    "rotation and scale of the attachment point dropped (M2 stores a position)",
                );
            }
            out.push(m2::Attachment {
                id,
                bone: error::fit(&format!("attachments[{i}].bone"), bone, "u16")?,
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
pub(super) struct ChannelTable<'a> {
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

fn fresh_bone(b: &relic_core::model::Bone, version: u32) -> m2::Bone {
    m2::Bone {
        key_bone_id: names::key_bone_id(&b.name).unwrap_or(-1),
        unknown: (version >= 260).then_some(0),
        rotation: if version >= 260 {
            RotationTrack::Compressed(Track::default())
        } else {
            RotationTrack::Float(Track::default())
        },
        pivot: WARCRAFT.vector_from_ir([b.bind_matrix[12], b.bind_matrix[13], b.bind_matrix[14]]),
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
            Billboard::CylindricalX => lock_flag(WARCRAFT.axis_from_ir(0)),
            Billboard::CylindricalY => lock_flag(WARCRAFT.axis_from_ir(1)),
            Billboard::CylindricalZ => lock_flag(WARCRAFT.axis_from_ir(2)),
        }
}

/// The extras' bone order (model bone → file bone) if their bones map to the model's (names
/// aside: M2 stores none).
fn skeleton_fits(base: &M2File, m: &Model) -> Option<Vec<usize>> {
    let (order, rank) = to_ir::bone_order(base);
    if order.len() != m.bones.len() || base.bones.len() != m.bones.len() {
        return None;
    }
    let fits = to_ir::bones_to_ir(base, &order, &rank).iter().zip(&m.bones).all(|(a, b)| {
        (a.parent, a.rest, a.bind_matrix, a.inverse_bind_matrix, a.flags)
            == (b.parent, b.rest, b.bind_matrix, b.inverse_bind_matrix, b.flags)
    });
    fits.then_some(order)
}

fn unit_scale(m: &Mat4) -> bool {
    let (_, _, s) = decompose(m);
    near_unit(s)
}

fn near_unit(s: [f32; 3]) -> bool {
    s.iter().all(|c| (c - 1.0).abs() < 1e-4)
}
