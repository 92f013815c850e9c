//! Common model → M2.
//!
//! The model's extras ([`M2Extras`](crate::M2Extras), typed or as JSON) hold the file the model was read from.
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
//! * views (`views`): the file's own while the meshes give exactly the vertices it was read with
//!   (its vertex order recovered through view 0), else rebuilt with palettes of at most 256, 75,
//!   53 and 21 bones (`palette`) — as many as the file had, four for a model from elsewhere.

mod animation;
mod builder;
mod effects;
mod keys;
mod material;
mod mesh;
mod palette;
mod skeleton;
mod views;
mod wrath;

use std::borrow::Cow;

use relic_core::{Converted, Loss, Model, WriteOptions};

use crate::extras::M2Extras;
use crate::file::*;

use builder::{Builder, Result, ms, to_u32, unsupported};
pub(crate) use wrath::to_wrath;

/// Maps the model to an M2 file (see the module docs), with its extras decoded once by the
/// caller (`carried::decode`).
pub(crate) fn from_ir(model: &Model, extras: Option<&M2Extras>, options: &WriteOptions) -> Result<Converted<M2File>> {
    from_ir_into(model, extras, options, false)
}

/// [`from_ir`] of the 256–263 form of a file written `chunked` (`MD21`) or plain: a plain file
/// does not take the material tables of a chunked one whose texture lookup a converter damaged
/// (m2-md21.md §2.3: the plain reader, like the older clients, refuses the texture combos past
/// it), it builds them from the model, with a loss.
pub(crate) fn from_ir_into(
    model: &Model,
    extras: Option<&M2Extras>,
    options: &WriteOptions,
    chunked: bool,
) -> Result<Converted<M2File>> {
    model.validate()?;
    let version = options
        .version
        .or_else(|| model.recorded_version(crate::FORMAT).filter(|v| (256..264).contains(v)))
        .or_else(|| extras.map(|e| e.file.version))
        .unwrap_or(crate::DEFAULT_VERSION);
    if !(256..264).contains(&version) {
        return Err(unsupported(format!("M2 version {version} cannot be written: only 256–263")));
    }
    let mut losses = Vec::new();
    let mut base = extras.map(|e| Cow::Borrowed(&e.file));
    if let Some(e) = extras.filter(|e| e.wrath.is_some()) {
        // The file came from Wrath or later: what its 256–263 form could not hold is lost now.
        losses.extend(e.classic_losses.iter().map(|(element, what)| Loss::new(element.clone(), what.clone())));
        if version < 260
            && let Some(b) = &mut base
        {
            // Classic has no bone distance at 0x0A: Blizzard's Classic export writes 0 (§5.1).
            b.to_mut().bones.iter_mut().for_each(|b| b.submesh_id = 0);
        }
    }
    let retargeted = base.as_ref().is_some_and(|b| (b.version >= 260) != (version >= 260));
    if let Some(b) = &mut base
        && retargeted
    {
        losses.extend(retarget(b.to_mut(), version));
    }
    // Only the damaged texture lookup is what a chunked file holds and a plain one refuses (the
    // stored form has no vertices, so checking all its references would refuse every view).
    let unfit = !chunked
        && extras.is_some_and(|e| {
            e.md21.is_some() && e.wrath.as_deref().is_some_and(|w| crate::wrath::texture_lookup_damaged(&w.file))
        });
    if unfit {
        let what = "the chunked file's texture lookup, which a converter damaged, holds in a chunked file only: \
                    the textures and lookups are built from the model (their colour and UV animations dropped; \
                    textures the chunked file names by FileDataID only are written with the names read gave them: \
                    the listfile's paths, else <id>.blp)";
        losses.push(Loss::new("materials", what));
    }
    let mut w = Builder::new(model, base.as_deref(), version, &mut losses);
    w.stored_materials_unfit = unfit;
    w.vertex_digest = extras.and_then(|e| e.vertex_digest.as_deref());
    w.unviewed = extras.map_or(&[][..], |e| &e.unviewed_vertices[..]);
    w.stored_views = base.as_ref().map_or(0, |b| b.views.len());
    w.original_views = original_views(model);
    w.retargeted = retargeted;
    w.build()?;
    let mut file = w.file;
    // Where the blocks were read: the writer keeps that layout while every array still holds the
    // count it was read with (`file::kept`), so an unchanged model gets its file back.
    // Without a recorded layout (a model from elsewhere) the file is laid out as Blizzard does.
    file.as_read = base.map(|b| b.as_read.clone()).unwrap_or_default();
    Ok(Converted { value: file, losses })
}

/// The bones `model` gives `file` (the file of its extras) when every bone track is built from
/// the model's channels, none taken from the file; indexed as `file`'s bones. Only the sequences
/// and the bones are built, nothing else of a file. `None` when the model's skeleton no longer
/// fits the file's (then no track of the file is used).
pub(crate) fn built_bones(model: &Model, file: &M2File) -> Option<Vec<Bone>> {
    let mut losses = Vec::new();
    let mut w = Builder::new(model, Some(file), file.version, &mut losses);
    w.rebuild_tracks = true;
    w.file.version = file.version;
    let seq_fit = w.sequences().ok()?;
    let skeleton_fit = w.bones(seq_fit).ok()?;
    skeleton_fit.then_some(w.file.bones.items)
}

/// The views (256–263) or `.skin` files (264+) of the M2 file the model records it came from.
fn original_views(model: &Model) -> usize {
    model
        .original
        .as_ref()
        .filter(|o| o.format == crate::FORMAT.as_str())
        .map_or(0, |o| o.count("views").max(o.count("skin_profiles")) as usize)
}

/// Moves a Classic file to TBC or back: rotation keys change type, bones gain or lose their extra
/// field, particle emitters move to the version's byte 0x28 reading (a colour index is lost on the
/// way to Classic), the views' submeshes gain or lose their sort centre and radius (`views`), and
/// a file moved to Classic loses its blend overrides (a loss when it had any).
fn retarget(file: &mut M2File, version: u32) -> Vec<Loss> {
    let mut losses = Vec::new();
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
    let colour_indices = if version < 260 { classic_blends(&mut file.particle_emitters) } else { 0 };
    if colour_indices > 0 {
        let what = format!("{colour_indices} particle colour indices dropped: versions 256–259 have none");
        losses.push(Loss::new("particle emitters", what));
    }
    if version < 260 {
        file.flags &= !FLAG_BLEND_OVERRIDES;
        let dropped = file.blend_overrides.take().map_or(0, |o| o.len());
        if dropped > 0 {
            let what = format!("{dropped} blend-mode overrides dropped: versions 256–259 have none");
            losses.push(Loss::new("blend overrides", what));
        }
        return losses;
    }
    if file.has_blend_overrides() && file.blend_overrides.is_none() {
        file.blend_overrides = Some(Default::default());
    }
    losses
}

/// Moves particle emitters to Classic's reading of bytes 0x28–0x2B (u16 blend, u16 emitter
/// only, spec §14); returns how many colour indices that drops.
fn classic_blends(particles: &mut [Particle]) -> usize {
    let mut colour_indices = 0;
    for p in particles {
        if let ParticleBlend::Split { blend_mode, emitter_type, color_index } = p.blend.blending {
            colour_indices += usize::from(color_index != 0);
            p.blend.blending = ParticleBlend::Wide { blend_mode: blend_mode.into(), emitter_type: emitter_type.into() };
        }
    }
    colour_indices
}

impl Builder<'_> {
    /// Builds every section, in the order their fits depend on each other.
    fn build(&mut self) -> Result<()> {
        let m = self.model;
        self.file.version = self.version;
        self.file.name = match self.base {
            // The stored bytes, whatever follows their NUL, while they still read as the name.
            Some(b) if b.name_text() == m.name => b.name.clone(),
            Some(b) if b.name_text().is_empty() && !m.name.is_empty() => {
                // Nothing the game shows: the name the model was given instead (a reader names an
                // unnamed model after its file) is written, and said.
                let what = format!("the file stores no name text: written as {:?}", m.name);
                self.loss("name", what);
                M2Array::new(self.text_bytes(&m.name, "name"))
            }
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
}
