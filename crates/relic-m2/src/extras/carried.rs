//! The extras as JSON text (glTF extras): only what the model cannot give back.
//!
//! * A model read from Wrath or later carries that file only: its 256–263 form (`file`) and what
//!   that form cannot hold (`classic_losses`) are derived from it again
//!   ([`to_classic`](crate::wrath::convert::to_classic)).
//! * Beside the model (`to_json_beside`), every bone track that the model's channels build again
//!   exactly ([`rebuilt_bones`](crate::from_ir::rebuilt_bones)) is left out and listed; reading
//!   the JSON with the model rebuilds them.
//!
//! Each form is checked before it is used: the text must restore exactly the extras it came from,
//! else a fuller form is written (ultimately the extras as they are).

use relic_core::Model;
use serde::{Deserialize, Serialize};

use super::M2Extras;
use crate::file::wrath::{SeqTrack, WrathBone};
use crate::file::{Bone, M2File, RotationTrack, Track};
use crate::from_ir::rebuilt_bones;
use crate::wrath::Wrath;
use crate::wrath::convert::to_classic;
use crate::wrath::convert::tracks::{split, split_rotation};

/// [`M2Extras`] as carried in JSON. Extras written before this form existed read as it unchanged.
#[derive(Serialize, Deserialize)]
struct Carried {
    /// The 256–263 file, vertices emptied; absent when it is `wrath`'s 256–263 form.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    file: Option<M2File>,
    /// See [`M2Extras::vertex_digest`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    vertex_digest: Option<String>,
    /// See [`M2Extras::wrath`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    wrath: Option<Box<Wrath>>,
    /// See [`M2Extras::classic_losses`]; absent with `file`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    classic_losses: Vec<(String, String)>,
    /// The bone tracks left out, each as `3 × bone + property` (file bone order; property 0
    /// translation, 1 rotation, 2 scale), in increasing order: each is the track the model's
    /// channels build (in `file`, and split per sequence in `wrath`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    rebuilt_tracks: Vec<u32>,
}

/// The extras as JSON: the Wrath file without its derived 256–263 form where that form is
/// derived exactly.
pub(super) fn to_json(e: &M2Extras) -> String {
    let c = checked(e, None, false).unwrap_or_else(|| whole(e));
    serde_json::to_string(&c).unwrap_or_default()
}

/// The extras as JSON beside `model`: also without the bone tracks the model builds exactly.
pub(super) fn to_json_beside(e: &M2Extras, model: &Model) -> Option<String> {
    let c = checked(e, Some(model), true).or_else(|| checked(e, None, false))?;
    serde_json::to_string(&c).ok()
}

/// The extras of JSON text carried with `model` (either form, or [`M2Extras`] itself).
pub(super) fn from_json(text: &str, model: &Model) -> Option<M2Extras> {
    restore(serde_json::from_str::<Carried>(text).ok()?, Some(model))
}

/// The extras whole, nothing derived.
fn whole(e: &M2Extras) -> Carried {
    Carried {
        file: Some(e.file.clone()),
        vertex_digest: e.vertex_digest.clone(),
        wrath: e.wrath.clone(),
        classic_losses: e.classic_losses.clone(),
        rebuilt_tracks: Vec::new(),
    }
}

/// The compact form of `e` if it restores exactly to `e` (with `model`, when tracks are left out).
fn checked(e: &M2Extras, model: Option<&Model>, leave_out_tracks: bool) -> Option<Carried> {
    let mut c = whole(e);
    if c.wrath.is_some() {
        c.file = None;
        c.classic_losses = Vec::new();
    }
    if leave_out_tracks {
        let rebuilt = rebuilt_bones(model?, &e.file)?;
        leave_out(&mut c, e, &rebuilt);
        if c.rebuilt_tracks.is_empty() {
            return None;
        }
    }
    if c.file.is_some() && c.rebuilt_tracks.is_empty() {
        return Some(c); // nothing derived: nothing to check
    }
    let text = serde_json::to_string(&c).ok()?;
    let back = restore(serde_json::from_str::<Carried>(&text).ok()?, model)?;
    (back == *e).then_some(c)
}

/// Empties, in `c`, every bone track of `e` that `rebuilt` (the model's) holds exactly, and lists it.
fn leave_out(c: &mut Carried, e: &M2Extras, rebuilt: &[Bone]) {
    let windows = windows(&e.file);
    for (f, (kept, built)) in e.file.bones.iter().zip(rebuilt).enumerate() {
        for p in 0..3 {
            // A track without keys costs less than its place in the list.
            if !same_track(kept, built, p)
                || crate::to_ir::bone_heads(kept).get(p).is_none_or(|h| h.timestamps.is_empty())
            {
                continue;
            }
            let wrath_bone = e.wrath.as_ref().and_then(|w| w.file.bones.get(f));
            if wrath_bone.is_some_and(|w| !same_seq_track(w, &split_track(built, p, &windows), p)) {
                continue;
            }
            if let Some(b) = c.file.as_mut().and_then(|file| file.bones.get_mut(f)) {
                clear_track(b, p);
            }
            if let Some(b) = c.wrath.as_mut().and_then(|w| w.file.bones.get_mut(f)) {
                clear_seq_track(b, p);
            }
            c.rebuilt_tracks.push((3 * f + p) as u32);
        }
    }
}

/// The extras `c` stands for: the derived parts derived again, the listed tracks rebuilt from
/// `model` (needed only when some are listed).
fn restore(c: Carried, model: Option<&Model>) -> Option<M2Extras> {
    let Carried { file, vertex_digest, mut wrath, classic_losses, rebuilt_tracks } = c;
    let (mut file, classic_losses) = match (file, &wrath) {
        (Some(file), _) => (file, classic_losses),
        (None, Some(w)) => {
            let (file, losses) = to_classic(w).ok()?;
            (file, losses.into_iter().map(|l| (l.element, l.what)).collect())
        }
        (None, None) => return None,
    };
    if !rebuilt_tracks.is_empty() {
        let rebuilt = rebuilt_bones(model?, &file)?;
        let windows = windows(&file);
        for code in rebuilt_tracks {
            let (f, p) = ((code / 3) as usize, (code % 3) as usize);
            let built = rebuilt.get(f)?;
            copy_track(file.bones.get_mut(f)?, built, p);
            if let Some(w) = wrath.as_mut() {
                set_seq_track(w.file.bones.get_mut(f)?, split_track(built, p, &windows), p);
            }
        }
    }
    Some(M2Extras { file, vertex_digest, wrath, classic_losses })
}

/// The sequences' windows on the shared timeline (what splits a track per sequence).
fn windows(file: &M2File) -> Vec<(u32, u32)> {
    file.sequences.iter().map(|s| (s.start, s.end)).collect()
}

fn same_track(a: &Bone, b: &Bone, p: usize) -> bool {
    match p {
        0 => a.translation == b.translation,
        1 => a.rotation == b.rotation,
        _ => a.scale == b.scale,
    }
}

fn copy_track(to: &mut Bone, from: &Bone, p: usize) {
    match p {
        0 => to.translation = from.translation.clone(),
        1 => to.rotation = from.rotation.clone(),
        _ => to.scale = from.scale.clone(),
    }
}

fn clear_track(b: &mut Bone, p: usize) {
    match p {
        0 => b.translation = Track::default(),
        1 => {
            b.rotation = match b.rotation {
                RotationTrack::Float(_) => RotationTrack::Float(Track::default()),
                RotationTrack::Compressed(_) => RotationTrack::Compressed(Track::default()),
            }
        }
        _ => b.scale = Track::default(),
    }
}

/// A bone's track `p` split per sequence, as a Wrath bone holds it.
enum SeqOf {
    Vector(SeqTrack<[f32; 3]>),
    Rotation(SeqTrack<[i16; 4]>),
}

fn split_track(b: &Bone, p: usize, windows: &[(u32, u32)]) -> SeqOf {
    match p {
        0 => SeqOf::Vector(split(&b.translation, windows)),
        1 => SeqOf::Rotation(split_rotation(&b.rotation, windows)),
        _ => SeqOf::Vector(split(&b.scale, windows)),
    }
}

fn same_seq_track(w: &WrathBone, t: &SeqOf, p: usize) -> bool {
    match (p, t) {
        (0, SeqOf::Vector(t)) => w.translation == *t,
        (1, SeqOf::Rotation(t)) => w.rotation == *t,
        (2, SeqOf::Vector(t)) => w.scale == *t,
        _ => false,
    }
}

fn set_seq_track(w: &mut WrathBone, t: SeqOf, p: usize) {
    match (p, t) {
        (0, SeqOf::Vector(t)) => w.translation = t,
        (1, SeqOf::Rotation(t)) => w.rotation = t,
        (_, SeqOf::Vector(t)) => w.scale = t,
        _ => {}
    }
}

fn clear_seq_track(w: &mut WrathBone, p: usize) {
    match p {
        0 => w.translation = SeqTrack::default(),
        1 => w.rotation = SeqTrack::default(),
        _ => w.scale = SeqTrack::default(),
    }
}
