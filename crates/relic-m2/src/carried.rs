//! The extras as JSON text (glTF extras): only what the model cannot give back, and the one place
//! the extras are decoded for a write.
//!
//! * A model read from Wrath or later carries that file only: its 256–263 form (`file`) and what
//!   that form cannot hold (`classic_losses`) are derived from it again
//!   ([`to_classic`](crate::wrath::convert::to_classic)).
//! * Beside the model (`to_json_beside`), every bone track the model's channels build again
//!   exactly is left out and listed ([`Slot`]); reading the JSON with the model builds them again.
//!   Which tracks those are is decided by building the bone tracks alone
//!   ([`from_ir::built_bones`]), never the whole file, and a track is left out only when it is
//!   equal to the one built, so the text restores exactly the extras it came from.
//! * Beside the model, a 256–263 file's particle and ribbon emitters are left out when they are
//!   the model's emitters' records (which travel with the model: glTF nodes of their own); the
//!   text then restores them from the model's emitters, as they are now.
//!
//! [`decode`] turns the model's extras, typed or text, into [`M2Extras`] once per write; the
//! writers take them from there.

use std::borrow::Cow;

use relic_core::model::{ExtrasOps, FormatExtras};
use relic_core::{Loss, Model};
use serde::{Deserialize, Serialize};

use crate::extras::{EmitterRecord, M2Extras};
use crate::file::wrath::{SeqTrack, WrathBone};
use crate::file::{Bone, M2File, Particle, Ribbon, RotationTrack, Track, TrackKind};
use crate::from_ir;
use crate::wrath::Wrath;
use crate::wrath::convert::to_classic;
use crate::wrath::convert::tracks::Split;

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
    /// The bone tracks left out, in increasing order: each is the track the model's channels
    /// build (in `file`, and split per sequence in `wrath`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    rebuilt_tracks: Vec<Slot>,
    /// `file`'s particle and ribbon emitters are left out: they are the model's emitters' records
    /// ([`EmitterRecord`]), which travel with the model.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    emitters_in_model: bool,
    /// See [`M2Extras::unviewed_vertices`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    unviewed_vertices: Vec<(u32, crate::file::Vertex)>,
    /// See [`M2Extras::md21`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    md21: Option<crate::md21::Container>,
}

/// One of a bone's three tracks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Property {
    Translation,
    Rotation,
    Scale,
}

impl Property {
    const ALL: [Property; 3] = [Property::Translation, Property::Rotation, Property::Scale];
}

/// A bone track left out of the text: the bone (file order) and which of its tracks. Carried as
/// the number `3 × bone + property` (translation 0, rotation 1, scale 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "u32", into = "u32")]
struct Slot {
    bone: usize,
    property: Property,
}

impl From<u32> for Slot {
    fn from(code: u32) -> Self {
        let property = match code % 3 {
            0 => Property::Translation,
            1 => Property::Rotation,
            _ => Property::Scale,
        };
        Slot { bone: (code / 3) as usize, property }
    }
}

impl From<Slot> for u32 {
    fn from(slot: Slot) -> u32 {
        // A file's bones are counted in a u32: `3 × bone + 2` fits while the file does.
        (3 * slot.bone + slot.property as usize) as u32
    }
}

/// The extras' operations (JSON through serde, in the compact form of this module).
static EXTRAS_OPS: ExtrasOps = ExtrasOps {
    to_json_beside: Some(|e, model| to_json_beside(e.downcast_ref::<M2Extras>()?, model)),
    ..relic_core::extras_ops!(M2Extras, to_json)
};

/// `extras` as the model's extras (with the operations that carry them as JSON).
pub(crate) fn attach(model: &mut Model, extras: M2Extras) {
    model.extras = Some(FormatExtras::new(crate::FORMAT, extras, &EXTRAS_OPS));
}

/// The model's M2 extras, decoded once for a write: typed ones as they are, JSON ones (after a
/// trip through glTF) with what the text left out built again from the model. `Ok(None)` for a
/// model without M2 extras; an error (a loss to report) for text that does not read as them.
pub(crate) fn decode(model: &Model) -> Result<Option<Cow<'_, M2Extras>>, Loss> {
    let Some(extras) = model.extras.as_ref().filter(|e| e.format() == crate::FORMAT) else { return Ok(None) };
    let from_text = |text: &str| serde_json::from_str(text).map_err(|e| e.to_string()).and_then(|c| restore(c, model));
    let unread = |why: String| {
        Loss::new("extras", format!("the M2 extras do not read ({why}): the file was built from the model alone"))
    };
    match extras.typed_or_decoded(from_text) {
        Some(Ok(e)) => Ok(Some(e)),
        Some(Err(why)) => Err(unread(why)),
        None => Err(unread("they hold another type than relic_m2::M2Extras".into())),
    }
}

/// True if the model's extras are M2's carried as JSON text (edited or not, through glTF).
pub(crate) fn as_text(model: &Model) -> bool {
    model.extras.as_ref().is_some_and(|e| e.format() == crate::FORMAT && e.get::<M2Extras>().is_none())
}

/// The extras as JSON: the Wrath file without its derived 256–263 form.
fn to_json(e: &M2Extras) -> String {
    // Serializing fails only on a map with other keys than strings; the extras hold no map.
    serde_json::to_string(&Carried::of(e)).unwrap_or_default()
}

/// The extras as JSON beside `model`: also without the bone tracks the model builds exactly.
fn to_json_beside(e: &M2Extras, model: &Model) -> Option<String> {
    let mut c = Carried::of(e);
    if let Some(built) = from_ir::built_bones(model, &e.file) {
        c.leave_out(e, &built);
    }
    if let Some(file) = c.file.as_mut()
        && emitters_of(model).is_some_and(|(p, r)| p == *file.particle_emitters && r == *file.ribbon_emitters)
    {
        file.particle_emitters = Default::default();
        file.ribbon_emitters = Default::default();
        c.emitters_in_model = true;
    }
    serde_json::to_string(&c).ok()
}

impl Carried {
    /// The extras whole but for the 256–263 form of a Wrath file, which is derived again.
    fn of(e: &M2Extras) -> Self {
        let derived = e.wrath.is_some();
        debug_assert!(
            !derived
                || e.wrath.as_deref().and_then(|w| derive(w, e.md21.as_ref()).ok()).is_some_and(|(f, losses)| {
                    // Equal, or equal by their Debug text: a NaN the file holds is not equal to itself.
                    let same = f == e.file || format!("{f:?}") == format!("{:?}", e.file);
                    same && losses.into_iter().map(|l| (l.element, l.what)).eq(e.classic_losses.iter().cloned())
                }),
            "the extras' 256–263 file is not their Wrath file's"
        );
        Carried {
            file: (!derived).then(|| e.file.clone()),
            vertex_digest: e.vertex_digest.clone(),
            wrath: e.wrath.clone(),
            classic_losses: if derived { Vec::new() } else { e.classic_losses.clone() },
            rebuilt_tracks: Vec::new(),
            emitters_in_model: false,
            unviewed_vertices: e.unviewed_vertices.clone(),
            md21: e.md21.clone(),
        }
    }

    /// Empties every bone track of `e` that `built` (the model's) holds exactly, and lists it. A
    /// track without keys costs less than its place in the list and stays.
    fn leave_out(&mut self, e: &M2Extras, built: &[Bone]) {
        let split = e.wrath.as_ref().map(|w| (windows(&e.file), w.file.version));
        for (f, (kept, built)) in e.file.bones.iter().zip(built).enumerate() {
            let wrath = e.wrath.as_ref().and_then(|w| w.file.bones.get(f));
            let built_wrath =
                split.as_ref().map(|(windows, version)| built.retime(&Split { windows, version: *version }));
            for property in Property::ALL {
                if !has_keys(kept, property) || !same(kept, built, property) {
                    continue;
                }
                if let (Some(w), Some(b)) = (wrath, &built_wrath)
                    && !same(w, b, property)
                {
                    continue;
                }
                if let Some(b) = self.file.as_mut().and_then(|file| file.bones.get_mut(f)) {
                    clear(b, property);
                }
                if let Some(b) = self.wrath.as_mut().and_then(|w| w.file.bones.get_mut(f)) {
                    clear(b, property);
                }
                self.rebuilt_tracks.push(Slot { bone: f, property });
            }
        }
    }
}

/// The 256–263 form of a Wrath file, its textures named as the chunks it was read with named
/// them ([`crate::md21::name_textures`]).
fn derive(
    wrath: &crate::wrath::Wrath,
    md21: Option<&crate::md21::Container>,
) -> Result<(crate::file::M2File, Vec<relic_core::Loss>), relic_core::ReadError> {
    let (mut file, losses) = to_classic(wrath)?;
    if let Some(c) = md21 {
        crate::md21::name_textures(&mut file, &c.texture_names);
    }
    Ok((file, losses))
}

/// The extras `c` stands for: the derived parts derived again, the listed tracks built from
/// `model` (needed only when some are listed); an error says why the text does not read as them.
fn restore(c: Carried, model: &Model) -> Result<M2Extras, String> {
    let Carried {
        file,
        vertex_digest,
        mut wrath,
        classic_losses,
        rebuilt_tracks,
        emitters_in_model,
        unviewed_vertices,
        md21,
    } = c;
    let (mut file, classic_losses) = match (file, &wrath) {
        (Some(file), _) => (file, classic_losses),
        (None, Some(w)) => {
            let (file, losses) =
                derive(w, md21.as_ref()).map_err(|e| format!("their Wrath file has no 256–263 form: {e}"))?;
            (file, losses.into_iter().map(|l| (l.element, l.what)).collect())
        }
        (None, None) => return Err("they hold neither a 256–263 file nor a Wrath file".into()),
    };
    // Where the model's skeleton no longer fits the file's, no bone of the file is used: the
    // tracks left out stay empty.
    let built = if rebuilt_tracks.is_empty() { None } else { from_ir::built_bones(model, &file) };
    if let Some(built) = built {
        let windows = windows(&file);
        let mut built_wrath: Option<(usize, WrathBone)> = None;
        for Slot { bone, property } in rebuilt_tracks {
            let missing = || format!("bone {bone}, whose track they leave out, is not in their file");
            let (Some(b), Some(to)) = (built.get(bone), file.bones.get_mut(bone)) else { return Err(missing()) };
            copy(to, b, property);
            if let Some(w) = wrath.as_mut() {
                let version = w.file.version;
                let to = w.file.bones.get_mut(bone).ok_or_else(missing)?;
                let split = match &built_wrath {
                    Some((at, split)) if *at == bone => split,
                    _ => &built_wrath.insert((bone, b.retime(&Split { windows: &windows, version }))).1,
                };
                copy(to, split, property);
            }
        }
    }
    if emitters_in_model {
        // The model's emitters as they are now (those without an M2 record are reported by the
        // writer, which takes the emitters from the model).
        // A model with no M2 emitter records carries no particles or ribbons (the format's none).
        let (particles, ribbons) = emitters_of(model).unwrap_or_default();
        file.particle_emitters = particles.into();
        file.ribbon_emitters = ribbons.into();
    }
    Ok(M2Extras { file, vertex_digest, wrath, classic_losses, unviewed_vertices, md21 })
}

/// The particle and ribbon records of the model's emitters, in model order; `None` if an
/// emitter carries no M2 record.
fn emitters_of(model: &Model) -> Option<(Vec<Particle>, Vec<Ribbon>)> {
    let mut particles = Vec::new();
    let mut ribbons = Vec::new();
    for e in &model.emitters {
        let record = EmitterRecord::of(e).ok()?;
        particles.extend(record.particle.clone());
        ribbons.extend(record.ribbon.clone());
    }
    Some((particles, ribbons))
}

/// The sequences' windows on the shared timeline (what splits a track per sequence).
fn windows(file: &M2File) -> Vec<(u32, u32)> {
    file.sequences.iter().map(|s| (s.start, s.end)).collect()
}

/// True if the 256–263 bone's track has keys.
fn has_keys(b: &Bone, p: Property) -> bool {
    match p {
        Property::Translation => !b.translation.is_empty(),
        Property::Rotation => !b.rotation.head().3.is_empty(),
        Property::Scale => !b.scale.is_empty(),
    }
}

/// True if the two bones hold the same track `p`.
fn same<K: TrackKind>(a: &Bone<K>, b: &Bone<K>, p: Property) -> bool {
    match p {
        Property::Translation => a.translation == b.translation,
        Property::Rotation => a.rotation == b.rotation,
        Property::Scale => a.scale == b.scale,
    }
}

/// Sets `to`'s track `p` to `from`'s.
fn copy<K: TrackKind>(to: &mut Bone<K>, from: &Bone<K>, p: Property) {
    match p {
        Property::Translation => to.translation.clone_from(&from.translation),
        Property::Rotation => to.rotation.clone_from(&from.rotation),
        Property::Scale => to.scale.clone_from(&from.scale),
    }
}

/// Empties track `p` (keeping a rotation's value type).
fn clear<K: TrackKind>(b: &mut Bone<K>, p: Property)
where
    K::Rotation: Blank,
{
    match p {
        Property::Translation => b.translation = Default::default(),
        Property::Rotation => b.rotation = b.rotation.blank(),
        Property::Scale => b.scale = Default::default(),
    }
}

/// A rotation track without keys, of the same value type.
trait Blank {
    fn blank(&self) -> Self;
}

impl Blank for RotationTrack {
    fn blank(&self) -> Self {
        match self {
            RotationTrack::Float(_) => RotationTrack::Float(Track::default()),
            RotationTrack::Compressed(_) => RotationTrack::Compressed(Track::default()),
        }
    }
}

impl Blank for SeqTrack<[i16; 4]> {
    fn blank(&self) -> Self {
        SeqTrack::default()
    }
}
